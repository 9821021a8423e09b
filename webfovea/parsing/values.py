"""Argument values of the reply grammar: points, directions, keys and string literals.

Each converter returns None when the text is not a value of its kind, so the caller can
try an optional parameter's neighbour or say which argument is malformed.
"""

from __future__ import annotations

import re

from webfovea.types import Box, Point

_NUM = r"[-+]?(?:\d+(?:\.\d*)?|\.\d+)"
_SEP = r"\s*[,\s]\s*"
# Point forms, each one group of numbers: <point>x y</point>, <bbox>x1 y1 x2 y2</bbox>,
# and the innermost (…)/[…] holding 2–4 numbers (so [[1,2],[3,4]] yields two groups).
_GROUP_RE = re.compile(
    rf"<point>\s*({_NUM}{_SEP}{_NUM})\s*</point>"
    rf"|<bbox>\s*({_NUM}{_SEP}{_NUM}{_SEP}{_NUM}{_SEP}{_NUM})\s*</bbox>"
    rf"|[(\[]\s*({_NUM}(?:{_SEP}{_NUM}){{1,3}})\s*[)\]]",
    re.IGNORECASE,
)
_BARE_NUMBERS_RE = re.compile(rf"^\s*{_NUM}(?:{_SEP}{_NUM})*\s*$")
_NUM_RE = re.compile(_NUM)


def _numbers(text: str) -> list[float]:
    return [float(n) for n in _NUM_RE.findall(text)]


def _as_point(nums: list[float]) -> Point | None:
    if len(nums) == 2:
        return (nums[0], nums[1])
    if len(nums) == 4:  # a box: its centre is what the model points at
        return ((nums[0] + nums[2]) / 2, (nums[1] + nums[3]) / 2)
    return None


def _unwrap(text: str) -> str:
    text = text.replace("<|box_start|>", " ").replace("<|box_end|>", " ").strip()
    # A point the model quoted twice ("'(1,2)'") or wrapped in backticks.
    return text.strip("'\"` ")


def _groups(text: str) -> list[list[float]]:
    return [_numbers(next(g for g in m.groups() if g is not None)) for m in _GROUP_RE.finditer(text)]


def parse_point(text: str) -> Point | None:
    """One point in the model's space from any accepted form; a box becomes its centre."""
    text = _unwrap(text)
    groups = _groups(text)
    if len(groups) == 1:
        return _as_point(groups[0])
    if len(groups) == 2 and len(groups[0]) == len(groups[1]) == 2:
        # (x1,y1),(x2,y2): the two corners of a box, as older UI-TARS prompts wrote it.
        return _as_point(groups[0] + groups[1])
    if not groups and _BARE_NUMBERS_RE.match(text):
        return _as_point(_numbers(text))
    return None


def parse_box(text: str) -> Box | None:
    """A region (x1, y1, x2, y2) in the model's space: four numbers in one group, or two
    points. The corners stay as written; whether they make a region is the action's check."""
    text = _unwrap(text)
    groups = _groups(text)
    if not groups and _BARE_NUMBERS_RE.match(text):
        groups = [_numbers(text)]
    nums = [n for g in groups for n in g]
    if len(nums) != 4 or len(groups) not in (1, 2) or any(len(g) not in (2, 4) for g in groups):
        return None
    return nums[0], nums[1], nums[2], nums[3]


def parse_points(text: str) -> list[Point] | None:
    """Several points (click_many); each may be in any form parse_point accepts."""
    text = _unwrap(text)
    groups = _groups(text)
    if groups:
        points = [_as_point(g) for g in groups]
        if any(p is None for p in points):
            return None
        return [p for p in points if p is not None]
    if _BARE_NUMBERS_RE.match(text):
        nums = _numbers(text)
        if nums and len(nums) % 2 == 0:
            return [(nums[i], nums[i + 1]) for i in range(0, len(nums), 2)]
    return None


_DIRECTIONS = {
    "up": "up", "upward": "up", "upwards": "up", "↑": "up",
    "down": "down", "downward": "down", "downwards": "down", "↓": "down",
    "left": "left", "leftward": "left", "leftwards": "left", "←": "left",
    "right": "right", "rightward": "right", "rightwards": "right", "→": "right",
}  # fmt: skip
_DIRECTION_FILLER = {"scroll", "page", "the", "to", "toward", "towards", "a", "bit", "go", "move"}


def parse_direction(text: str) -> str | None:
    """'DOWN', 'scroll down', 'downwards', '↓' -> 'down'; None unless exactly one direction."""
    words = [w for w in re.split(r"[^a-z↑↓←→]+", _unwrap(text).lower()) if w]
    words = [w for w in words if w not in _DIRECTION_FILLER]
    if len(words) == 1 and words[0] in _DIRECTIONS:
        return _DIRECTIONS[words[0]]
    return None


_KEY_ALIASES = {
    "control": "ctrl", "ctl": "ctrl", "return": "enter", "esc": "escape",
    "cmd": "meta", "command": "meta", "super": "meta", "win": "meta", "windows": "meta",
    "option": "alt", "opt": "alt", "del": "delete", "ins": "insert",
    "pgup": "pageup", "page_up": "pageup", "pgdn": "pagedown", "pgdown": "pagedown", "page_down": "pagedown",
    "arrowup": "up", "arrowdown": "down", "arrowleft": "left", "arrowright": "right",
    "arrow_up": "up", "arrow_down": "down", "arrow_left": "left", "arrow_right": "right",
    "spacebar": "space", "bksp": "backspace",
}  # fmt: skip


def parse_key(text: str) -> str | None:
    """'Ctrl+C' -> 'ctrl c', 'Control-Shift-T' -> 'ctrl shift t', 'ctrl+-' -> 'ctrl -'."""
    text = _unwrap(text).lower()
    text = re.sub(r"\bpage[\s_-]+(up|down)\b", r"page\1", text)
    text = re.sub(r"\barrow[\s_-]+(up|down|left|right)\b", r"\1", text)
    keys: list[str] = []
    current = ""
    after_separator = True  # a '+'/'-' here is a key itself (ctrl++, '-'), not a separator
    for ch in text:
        if ch.isspace():
            if current:
                keys.append(current)
                current = ""
            after_separator = True
        elif ch in "+-":
            if current:
                keys.append(current)
                current = ""
                after_separator = True
            elif after_separator:
                keys.append(ch)
                after_separator = False
        else:
            current += ch
            after_separator = False
    if current:
        keys.append(current)
    # 'ctrl - c' written with spaces: a lone '-'/'+' between two named keys separates them.
    keys = [
        k for i, k in enumerate(keys)
        if not (k in "+-" and 0 < i < len(keys) - 1 and keys[i + 1] not in "+-" and keys[i - 1] not in "+-")
    ]  # fmt: skip
    keys = [_KEY_ALIASES.get(k, k) for k in keys]
    return " ".join(keys) if keys else None


_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "'": "'", '"': '"', "\\": "\\"}
_ESCAPE_RE = re.compile(r"\\(u[0-9a-fA-F]{4}|.)", re.DOTALL)


def decode_escapes(text: str) -> str:
    r"""Decode \n \t \r \' \" \\ and \uXXXX; any other backslash stays as written."""

    def _one(m: re.Match[str]) -> str:
        code = m.group(1)
        if len(code) == 5:
            return chr(int(code[1:], 16))
        return _ESCAPES.get(code, m.group(0))

    return _ESCAPE_RE.sub(_one, text)
