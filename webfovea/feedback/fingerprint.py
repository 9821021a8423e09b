"""DOM fingerprints before/after an action, and what changed between them.

A fingerprint of one frame is taken in one evaluation by the page-side recorder
(`browser/recorder.py`, natives captured before the page's scripts ran): URL, title, scroll
offsets, inner scrolls, focus, node count, a hash of the visible text (tooltips and SVG
labels with their visibility included), a hash of the form state (values, checked,
selected), the text selection, a hash of the ARIA state attributes
(`aria-selected/expanded/checked/pressed/current/valuenow`, `hidden`, `<details open>`) and,
given a point, the order and size of the elements around it plus the state of the element
there. The executor takes one of the main frame and one of the child frame under the point.

`diff()` lists what changed (`Change`); `changed()` says whether anything did. Elements that
were changing on their own before the action (a clock, a ticker) are reported as ambient
changes, which never count as the action's effect.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Any

from playwright.async_api import Frame, Page

from webfovea.browser import recorder
from webfovea.browser.frames import frame_at_point, short_error

# (key in the fingerprint, kind of change) in the order a note names them.
_FIELDS = (
    ("url", "url"),
    ("title", "title"),
    ("scroll_x", "scroll"),
    ("scroll_y", "scroll"),
    ("inner_scrolls", "inner_scroll"),
    ("forms", "form"),
    ("aria", "state"),
    ("sel", "selection"),
    ("near", "layout"),
    ("text", "text"),
    ("text_len", "text"),
    ("nodes", "nodes"),
)


@dataclass
class Change:
    kind: str  # url | title | unknown | scroll | inner_scroll | focus | form | state | selection | layout | text | nodes
    frame: str = "main"  # 'main' or 'child'
    ambient: bool = False  # explained by elements that were changing on their own
    data: dict[str, Any] = field(default_factory=dict)  # what the note needs (target state, regions ...)


async def fingerprint(frame: Frame, point: tuple[float, float] | None = None, **extra: Any) -> dict[str, Any]:
    """The fingerprint of one frame (see the module doc). A frame that cannot be read gives
    {'url', 'error'} instead. `point` is in the frame's own viewport."""
    arg: dict[str, Any] = dict(extra)
    if point is not None:
        arg["x"], arg["y"] = point
    try:
        fp = await recorder.call(frame, "fp", arg)
    except Exception as e:
        return {"url": _url(frame), "error": short_error(e) or "timeout"}
    if not isinstance(fp, dict):
        return {"url": _url(frame), "error": "no document"}
    return fp


async def text_hash(frame: Frame) -> str:
    """Hash of the frame's visible text plus SVG text/titles and tooltip/live-region nodes
    (with their visibility): changes when a hover reveals a value. '' when unreadable."""
    fp = await fingerprint(frame)
    return str(fp.get("text", ""))


async def fingerprints_at(page: Page, x: float, y: float) -> dict[str, Any]:
    """{'main': fingerprint(main frame), 'child': fingerprint(frame at the point) or None, 'child_url'}."""
    main, hit = await asyncio.gather(fingerprint(page.main_frame), frame_at_point(page, x, y))
    if not hit.is_child:
        return {"main": main, "child": None, "child_url": None}
    return {"main": main, "child": await fingerprint(hit.frame), "child_url": hit.url}


def _url(frame: Frame) -> str:
    try:
        return frame.url
    except Exception:
        return ""


def _focus_moved_into_frame(before: str, after: str) -> bool:
    return after.startswith("iframe") and not before.startswith("iframe")


def _target_change(b: dict[str, Any] | None, a: dict[str, Any] | None) -> dict[str, Any] | None:
    """The state of the element at the point, when it is the same element and its state moved."""
    if not b or not a or b.get("what") != a.get("what"):
        return None
    keys = ("checked", "pressed", "selected", "expanded", "value", "size")
    moved = {k: (b.get(k), a.get(k)) for k in keys if b.get(k) != a.get(k)}
    return {"target": a, "moved": moved} if moved else None


def frame_diff(
    before: dict[str, Any] | None, after: dict[str, Any] | None, frame: str = "main"
) -> list[Change]:
    """What changed in one frame between two fingerprints."""
    if before is None or after is None:
        return [Change("frame", frame)] if (before is None) != (after is None) else []
    if "error" in before or "error" in after:
        # An unreadable frame after the action usually means it navigated or went away.
        if before.get("url") != after.get("url") or ("error" in before) != ("error" in after):
            return [Change("url", frame, data={"url": after.get("url")})]
        # Unread on both sides is not "no change": unknown, and the pixel check decides.
        return [Change("unknown", frame, ambient=True, data={"error": after.get("error")})]
    regions = after.get("regions") or []
    mutated = [r for r in regions if r.get("text") or r.get("attrs")]
    only_ambient = bool(mutated) and all(r.get("ambient") for r in mutated)
    out: list[Change] = []
    for key, kind in _FIELDS:
        if (
            key not in before
            or key not in after
            or before[key] == after[key]
            or any(c.kind == kind for c in out)
        ):
            continue
        if key == "inner_scrolls" and any(c.kind == "scroll" for c in out):
            continue  # a window scroll already says it
        ambient = kind in ("text", "nodes", "state", "layout") and only_ambient
        data: dict[str, Any] = {}
        if kind == "url":
            data = {"url": after.get("url")}
        elif kind == "title":
            data = {"title": after.get("title")}
        elif kind == "selection":
            data = {"text": after.get("sel_text", "")}
        elif kind in ("text", "nodes", "state", "layout"):
            data = {"regions": [r for r in mutated if r.get("ambient") == ambient]}
        out.append(Change(kind, frame, ambient, data))
    fb, fa = str(before.get("focus", "")), str(after.get("focus", ""))
    if fb != fa and not _focus_moved_into_frame(fb, fa):
        # A click focuses the button or link it lands on: incidental, unless typing now goes somewhere new.
        editable = after.get("focus_edit", fa.startswith(("input", "textarea", "select")))
        out.append(
            Change("focus", frame, ambient=not editable, data={"focus": fa, "incidental": not editable})
        )
    tc = _target_change(before.get("target"), after.get("target"))
    if tc is not None:
        out.append(Change("target", frame, data=tc))
    hb, ha = before.get("text_hash"), after.get("text_hash")
    if hb and ha and hb != ha and not any(c.kind == "text" for c in out):
        out.append(Change("text", frame, only_ambient, {"regions": mutated}))
    return out


def diff(before: dict[str, Any], after: dict[str, Any]) -> list[Change]:
    """Every change between two fingerprints_at()-shaped results (main, child, text_hash)."""
    out = frame_diff(before.get("main"), after.get("main"), "main")
    if before.get("child_url") != after.get("child_url") and before.get("child") and after.get("child"):
        out.append(Change("url", "child", data={"url": after.get("child_url")}))
    out += frame_diff(before.get("child"), after.get("child"), "child")
    hb, ha = before.get("text_hash"), after.get("text_hash")
    if hb and ha and hb != ha and not any(c.kind == "text" for c in out):
        out.append(Change("text", "main"))
    return out


def changed(before: dict[str, Any], after: dict[str, Any]) -> bool:
    """Whether the page visibly reacted between two fingerprints_at() results.

    Focus moving into an iframe is not a change (a click on a frame does that by itself);
    changes explained only by elements that were changing on their own do not count; a
    'text_hash' (top level or per frame) is compared only when both sides have one.
    """
    return any(not c.ambient for c in diff(before, after))
