"""The system prompt, generated from the action specs and the switches."""

from __future__ import annotations

from collections.abc import Sequence

from webfovea.actions.spec import ActionSpec
from webfovea.config import Component, HarnessConfig

# Written from the challenge's validity criteria (step-by-step interaction, real-time
# autonomy, source compliance) and the paper's guardrails. Numbered: the model can cite them.
HARD_CONSTRAINTS = (
    "Stay on the task's website and the pages it links to; never leave it for another site.",
    "Do not use search engines, third-party sites or any other outside source of data.",
    "Do not type, guess or construct URLs; reach every page through the site's own links, menus and controls.",
    "Do not call data APIs, download endpoints or hidden URLs directly; use the page as a person would.",
    "Set every filter the task names (country, year, indicator, unit ...) through the page's own controls, exactly as named.",
    "Answer only from what you have seen on this site in this session; never from memory or prior knowledge.",
    "If the answer cannot be reached, call finished with an empty answer: finished(content='').",
    "Call finished only when the answer is visible on the current screenshot, with the task's filters still applied.",
    "Give exactly what the task asks for (the value, unit and format it asks for), without explanations.",
    "Do exactly one action per reply, and write nothing after it: the page's reaction comes in the next message.",
    "Never invent observations, page contents or results of actions you have not seen.",
    "If an action had no effect, do not repeat it unchanged: try a different element, tool or approach.",
    "Dismiss cookie banners and pop-ups through their own buttons before working with the page.",
    "Do not try to bypass logins, paywalls or rate limits; solve an image-grid CAPTCHA only by selecting its tiles.",
)

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
    return (
        "Coordinates: pixels of the screenshot image (x to the right, y down, origin at the top-left); "
        "use the size of the image you are shown."
    )


def action_line(spec: ActionSpec, config: HarnessConfig) -> str:
    budget = ""
    if spec.budget is not None and config.on(Component.budgets):
        budget = f" At most {spec.budget} per task."
    return f"- {spec.signature}  # {spec.purpose}{budget}"


def system_prompt(specs: Sequence[ActionSpec], config: HarnessConfig) -> str:
    parts = [
        "You are a web agent. You see screenshots of a browser page at a fixed size and operate the "
        "website only through the actions below, one per reply, to complete the user's task.",
        GRAMMAR,
        "## Actions\n" + "\n".join(action_line(s, config) for s in specs),
        coordinate_line(config),
    ]
    if config.on(Component.tool_triggers):
        rules = [s.rule for s in specs if s.rule]
        if rules:
            parts.append("## Tool rules\n" + "\n".join(f"- {r}" for r in rules))
    if config.on(Component.hard_constraints):
        lines = [f"{i}. {c}" for i, c in enumerate(HARD_CONSTRAINTS, 1)]
        parts.append("## Hard constraints\n" + "\n".join(lines))
    parts.append(
        f"Budget: at most {config.max_steps} steps and {int(config.max_seconds)} seconds for the task."
    )
    return "\n\n".join(parts)
