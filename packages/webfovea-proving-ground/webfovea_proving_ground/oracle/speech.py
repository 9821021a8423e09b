"""How the oracle talks: reading the prompt it was given and writing UI-TARS replies.

The oracle learns what it may do only from the prompt text (docs/contracts.md §2),
exactly like a real model, and writes `Thought: ...\\nAction: name(key='value', ...)`.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field

_ACTION_LINE = re.compile(r"^\s*-\s*`?([a-z_][a-z0-9_]*)\(")
_COORD_LINE = re.compile(r"^\s*Coordinates:\s*(.*)$", re.IGNORECASE | re.MULTILINE)

BOX_START, BOX_END = "<|box_start|>", "<|box_end|>"


@dataclass(frozen=True)
class PromptView:
    """What the prompt offers: action names (with their signature lines) and the coordinate space."""

    actions: dict[str, str] = field(default_factory=dict)  # name -> the prompt's line for it
    convention: str = "pixels"  # "pixels" of the image, "norm1000" or "norm999"

    def offers(self, name: str) -> bool:
        return name in self.actions

    def takes(self, name: str, param: str) -> bool:
        """Whether the prompt's signature for `name` shows the keyword `param`."""
        return f"{param}=" in self.actions.get(name, "")


def read_prompt(system: str) -> PromptView:
    """Offered actions: `- name(` lines under the `## Actions` heading, until the next heading."""
    actions: dict[str, str] = {}
    in_actions = False
    for line in system.splitlines():
        stripped = line.strip()
        if stripped.startswith("#"):
            in_actions = stripped.lstrip("#").strip().lower().startswith("actions")
            continue
        if in_actions:
            m = _ACTION_LINE.match(line)
            if m:
                actions.setdefault(m.group(1), stripped)
    convention = "pixels"
    m = _COORD_LINE.search(system)
    if m and re.search(r"0\s*-\s*999|0\s*to\s*999", m.group(1), re.IGNORECASE):
        convention = "norm999"
    elif m and re.search(r"normali[sz]ed|0\s*-\s*1000|0\s*to\s*1000", m.group(1), re.IGNORECASE):
        convention = "norm1000"
    return PromptView(actions=actions, convention=convention)


def quote(text: str) -> str:
    """A single-quoted argument with the escapes the parser decodes (\\n \\' \\\\)."""
    return "'" + text.replace("\\", "\\\\").replace("'", "\\'").replace("\n", "\\n") + "'"


def box(point: tuple[int, int]) -> str:
    return f"{BOX_START}({point[0]},{point[1]}){BOX_END}"


def call(name: str, **args: str | tuple[int, int] | list[tuple[int, int]]) -> str:
    """`name(k='v', ...)`: points become boxes, lists of points a space-separated box string."""
    parts = []
    for key, value in args.items():
        if isinstance(value, tuple):
            parts.append(f"{key}={quote(box(value))}")
        elif isinstance(value, list):
            parts.append(f"{key}={quote(' '.join(box(p) for p in value))}")
        else:
            parts.append(f"{key}={quote(value)}")
    return f"{name}({', '.join(parts)})"


def reply(thought: str, action: str) -> str:
    return f"Thought: {thought}\nAction: {action}"


# A few phrasings per situation, so replies read like a model's and not like a template;
# the choice is seeded, so a run is reproducible.
_THOUGHTS: dict[str, tuple[str, ...]] = {
    "click": (
        "I need to click {label}.",
        "Next I'll click {label}.",
        "Clicking {label} should move this forward.",
    ),
    "select": ("I'll choose '{option}' in {label}.", "The {label} dropdown needs '{option}'."),
    "select_open": ("I'll open {label} to pick '{option}'.",),
    "select_pick": ("Now I'll click '{option}' in the list.",),
    "fill": ("I'll enter '{content}' into {label}.", "{label} needs '{content}'."),
    "focus": ("I'll click into {label} first.",),
    "type": ("Now I'll type '{content}'.", "Typing '{content}'."),
    "enter": ("I'll press Enter to submit.",),
    "hover": (
        "The value shows on hover, so I'll hover over {label}.",
        "Hovering over {label} to see its value.",
    ),
    "scroll": (
        "{label} is not visible yet; I'll scroll {direction}.",
        "I need to scroll {direction} to reach {label}.",
    ),
    "find_text": ("I'll search the page for '{text}'.", "Let me find '{text}' on the page."),
    "read_text": ("I'll read the text near '{near}' to verify the value.",),
    "click_many": ("I'll select every matching tile.",),
    "drag": ("I'll drag {label} onto {onto}.", "Dragging {label} over to {onto}."),
    "wait": ("The page is still loading; I'll wait.", "Waiting for the content to appear."),
    "answer": (
        "The value is visible: {content}.",
        "I can read the answer now: {content}.",
        "Found it: {content}.",
    ),
    "giveup": ("I could not find the value on the page.",),
}


def thought(kind: str, rng: random.Random, **fields: str) -> str:
    template = rng.choice(_THOUGHTS[kind])
    safe = {k: _short(v) for k, v in fields.items()}
    text = template.format(**safe)
    return text[:1].upper() + text[1:]


def _short(text: str, limit: int = 48) -> str:
    text = " ".join(str(text).split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def describe(label: str, tag: str) -> str:
    """'the "Apply" button' style phrase for thoughts."""
    kind = {
        "select": "dropdown",
        "input": "field",
        "textarea": "box",
        "button": "button",
        "a": "link",
        "iframe": "frame",
        "canvas": "chart",
        "svg": "chart",
        "rect": "bar",
        "path": "bar",
    }.get(tag, "")
    label = _short(label, 40) if label else ""
    if label and kind:
        return f'the "{label}" {kind}'
    if label:
        return f'"{label}"'
    return f"the {kind or 'element'}"
