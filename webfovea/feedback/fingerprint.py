"""DOM fingerprints before/after an action, and whether anything changed.

A fingerprint is a few numbers per frame (URL, title, node count, visible-text length,
scroll offsets, inner scrolls, focus) that cost about a millisecond to read; the executor
takes one of the main frame and one of the child frame under the action's point.
"""

from __future__ import annotations

import asyncio
from typing import Any

from playwright.async_api import Frame, Page

from webfovea.browser.frames import frame_at_point, js, short_error

_FP = js("fingerprint")
_COMPARED = ("url", "title", "nodes", "text_len", "scroll_x", "scroll_y", "inner_scrolls")


async def fingerprint(frame: Frame) -> dict[str, Any]:
    """{url, title, nodes, text_len, scroll_x, scroll_y, inner_scrolls, focus} of one frame.

    focus is a short description of document.activeElement ('iframe…' when focus is in a
    child frame). A frame that cannot be read gives {'url', 'error'} instead.
    """
    try:
        fp = await frame.evaluate(_FP, {"op": "fp"})
    except Exception as e:
        return {"url": _url(frame), "error": short_error(e)}
    return fp if isinstance(fp, dict) else {"url": _url(frame), "error": "no document"}


async def text_hash(frame: Frame) -> str:
    """Hash of the frame's visible text plus SVG text/titles and tooltip/live-region nodes
    (with their visibility): changes when a hover reveals a value. '' when unreadable."""
    try:
        return str(await frame.evaluate(_FP, {"op": "hash"}))
    except Exception:
        return ""


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


def _frame_changed(before: dict[str, Any] | None, after: dict[str, Any] | None) -> bool:
    if before is None or after is None:
        return (before is None) != (after is None)
    if "error" in before or "error" in after:
        # An unreadable frame after the action usually means it navigated or went away.
        return before.get("url") != after.get("url") or ("error" in before) != ("error" in after)
    if any(before.get(k) != after.get(k) for k in _COMPARED):
        return True
    fb, fa = str(before.get("focus", "")), str(after.get("focus", ""))
    if fb != fa and not _focus_moved_into_frame(fb, fa):
        return True
    hb, ha = before.get("text_hash"), after.get("text_hash")
    return bool(hb and ha and hb != ha)


def changed(before: dict[str, Any], after: dict[str, Any]) -> bool:
    """Whether the page visibly reacted between two fingerprints_at() results.

    Focus moving into an iframe is not a change (a click on a frame does that by itself);
    a 'text_hash' (top level or per frame) is compared only when both sides have one.
    """
    if _frame_changed(before.get("main"), after.get("main")):
        return True
    if before.get("child_url") != after.get("child_url") and before.get("child") and after.get("child"):
        return True
    if _frame_changed(before.get("child"), after.get("child")):
        return True
    hb, ha = before.get("text_hash"), after.get("text_hash")
    return bool(hb and ha and hb != ha)
