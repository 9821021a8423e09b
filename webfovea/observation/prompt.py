"""The system prompt, generated from the action specs, the guardrails' constraints and the switches."""

from __future__ import annotations

from collections.abc import Sequence

from webfovea.actions.spec import ActionSpec
from webfovea.config import Component, HarnessConfig
from webfovea.guardrails.constraints import hard_constraints
from webfovea.observation.guards import GUARD_RULES
from webfovea.observation.modes import ObservationMode
from webfovea.observation.modes import get as get_mode
from webfovea.secrets import placeholder

GRAMMAR = """Reply in exactly this format:
Thought: <one or two sentences: what you see and what you will do next>
Action: <one action from the list below>

Write arguments as keyword arguments with single quotes, e.g. click(start_box='<|box_start|>(640,360)<|box_end|>').
Escape a single quote inside text as \\'. End type or fill content with \\n to press Enter."""


def coordinate_line(config: HarnessConfig) -> str:
    if config.coordinate_convention == "norm1000":
        return (
            "Coordinates: normalised 0-1000 on both axes of the screenshot (x to the right, y down, "
            "origin at the top-left)."
        )
    if config.coordinate_convention == "norm999":
        return (
            "Coordinates: normalised 0-999 on both axes of the screenshot, a 1000-cell grid (x to the right, "
            "y down, origin at the top-left)."
        )
    return (
        "Coordinates: pixels of the screenshot image (x to the right, y down, origin at the top-left); "
        "use the size of the image you are shown."
    )


def action_line(spec: ActionSpec, config: HarnessConfig) -> str:
    budget = ""
    if spec.budget is not None and config.on(Component.budgets):
        budget = f" At most {spec.budget} per task."
    return f"- {spec.signature}  # {spec.purpose}{budget}"


REF_LINES = (
    "References: each snapshot line of an element ends with [ref=…] (e12, or f3e12 inside a frame). Name a "
    "target by copying its ref exactly, e.g. click(ref='e12'). Refs are valid only for the latest snapshot; "
    "a stale ref is refused, never guessed. Lines ending in '… N nodes omitted' were cut for size."
)

TOOL_USE = """Each reply: one or two sentences of thought (what you see and what you will do next), then
exactly one tool call. Only the first tool call of a reply is executed; the result of each call tells you
what actually happened."""


def secrets_lines(config: HarnessConfig) -> str:
    """The secrets the task may type, by name: the model never sees a value, and writes the
    placeholder in the text of type or fill; the harness types the value on its origins only."""
    listed = "\n".join(
        f"- {name}: typed only on {', '.join(s.origins)}" for name, s in config.secrets.items()
    )
    first = next(iter(config.secrets))
    return (
        "## Secrets\n"
        f"You do not know these values; write {placeholder(first)} (with the secret's name) in the text "
        f"you type, e.g. fill(..., content='{placeholder(first)}'), and the harness types the value. "
        "Elsewhere the typing is refused. Never ask for or guess a secret's value.\n" + listed
    )


def system_prompt(
    specs: Sequence[ActionSpec],
    config: HarnessConfig,
    mode: ObservationMode | None = None,
    *,
    tools: bool = False,
) -> str:
    """The prompt for the text grammar, or with `tools` for native tool use (the actions are the
    tools, described by their own definitions; everything else is the same text). `mode` (default:
    the config's observation mode) says what the model sees and how it names targets."""
    mode = mode or get_mode(config.observation)
    if tools:
        parts = [
            f"You are a web agent. {mode.intro} and operate the "
            "website only through the tools you are given, one call per reply, to complete the user's task.",
            TOOL_USE,
            coordinate_line(config) + " A point is written [x, y].",
        ]
    else:
        parts = [
            f"You are a web agent. {mode.intro} and operate the "
            "website only through the actions below, one per reply, to complete the user's task.",
            GRAMMAR,
            "## Actions\n" + "\n".join(action_line(s, config) for s in specs),
            coordinate_line(config),
        ]
    if mode.refs:
        parts.append(REF_LINES)
    if config.on(Component.tool_triggers):
        rules = [s.rule for s in specs if s.rule]
        if mode.snapshot and config.on(Component.snapshot_guards):
            rules += list(GUARD_RULES)
        if rules:
            parts.append("## Tool rules\n" + "\n".join(f"- {r}" for r in rules))
    if config.on(Component.hard_constraints):
        lines = [f"{i}. {c}" for i, c in enumerate(hard_constraints(config.on), 1)]
        parts.append("## Hard constraints\n" + "\n".join(lines))
    if config.secrets:
        parts.append(secrets_lines(config))
    parts.append(
        f"Budget: at most {config.max_steps} steps and {int(config.max_seconds)} seconds for the task."
    )
    return "\n\n".join(parts)
