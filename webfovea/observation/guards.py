"""Guards the winner lacked: what the AI snapshot silently drops, annotated on its lines.

After each snapshot one evaluation per frame finds text in private-use ranges (custom-font
digits: the snapshot prints `""`, `"."`, `"+"`) and zero-width characters, canvas/SVG
graphics, and custom elements rendering a closed shadow root. Each finding is matched to
the snapshot line whose `[box=…]` equals the box of the element or its nearest ancestor;
the line gets an annotation naming the tool that can see it, and the prompt carries the
matching rule (`GUARD_RULES`). Findings with no line are listed at the end of the snapshot.
Only the main frame is examined: a child frame's boxes are relative to that frame.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from playwright.async_api import Page

from webfovea.browser.frames import js
from webfovea.browser.snapshot_text import box_of

_GUARDS_JS = js("snapshot_guards")

GUARD_RULES = (
    "A snapshot line marked [obfuscated text: …] hides characters drawn by a custom font: read its value "
    "with read_text (or look), never from the snapshot.",
    "A snapshot line marked [graphic …] is a chart or drawing the snapshot cannot show: use look, or hover "
    "its points, to read it.",
    "A snapshot line marked [closed shadow root …] has controls the snapshot cannot list: use look or locate, "
    "then act with start_box.",
)


@dataclass
class GuardReport:
    firings: Counter[str] = field(default_factory=Counter)  # text | graphic | closed_shadow
    annotated_lines: int = 0
    ms: float = 0.0


def _label(f: dict[str, Any]) -> str:
    kind = f.get("kind")
    if kind == "text":
        n = int(f.get("pua", 0)) + int(f.get("zw", 0))
        return f"[obfuscated text: {n} character{'s' if n != 1 else ''} hidden — use read_text]"
    if kind == "graphic":
        return f"[graphic: {f.get('tag')} {f.get('w')}×{f.get('h')} — use look or hover]"
    return f"[closed shadow root: <{f.get('tag')}> — use look or locate]"


def _key(box: Iterable[float | str]) -> tuple[int, ...]:
    """A box (a line's, or a finding's from the page) as whole pixels, to match one to the other."""
    return tuple(int(round(float(v))) for v in box)


async def find(page: Page) -> list[dict[str, Any]]:
    try:
        return list(json.loads(await page.main_frame.evaluate(_GUARDS_JS, {"max": 200})))
    except Exception:
        return []


def annotate(text_with_boxes: str, findings: list[dict[str, Any]], report: GuardReport) -> str:
    """The snapshot with each finding's annotation on its line (boxes still in the text)."""
    if not findings:
        return text_with_boxes
    lines = text_with_boxes.split("\n")
    at: dict[tuple[int, ...], int] = {}
    for i, line in enumerate(lines):
        b = box_of(line)
        if b is not None and b[2] > 0 and b[3] > 0:
            at.setdefault(_key(b), i)
    notes: dict[int, list[str]] = {}
    loose: list[str] = []
    for f in findings:
        report.firings[str(f.get("kind"))] += 1
        label = _label(f)
        hit = next((at[_key(b)] for b in f.get("boxes") or [] if _key(b) in at), None)
        if hit is None:
            near = f" near '{f['near']}'" if f.get("near") else ""
            loose.append(f"- {label[:-1]}{near}]")
        elif label not in notes.setdefault(hit, []):
            notes[hit].append(label)
    for i, labels in notes.items():
        line = lines[i]
        colon = line.endswith(":")
        body = line[:-1] if colon else line
        lines[i] = body + " " + " ".join(labels) + (":" if colon else "")
    report.annotated_lines = len(notes) + len(loose)
    return "\n".join(lines + loose)
