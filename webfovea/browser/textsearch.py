"""find_text (Ctrl+F that returns no text) and read_text (DOM text near a label)."""

from __future__ import annotations

import asyncio
import re
from dataclasses import dataclass
from typing import Any

from playwright.async_api import Frame, Page

from webfovea.browser.frames import MAX_FRAME_DEPTH, frame_element, js, short_error

_TS = js("textsearch")
# Code points a custom web font may draw as digits: the BMP private-use area and planes 15-16.
_PUA = re.compile("[\ue000-\uf8ff\U000f0000-\U000ffffd\U00100000-\U0010fffd]")


@dataclass
class FindOutcome:
    found: bool
    total: int = 0
    index: int = -1  # which match (0-based, main frame first, document order) was revealed
    frame_url: str = ""
    error: str = ""


@dataclass
class ReadOutcome:
    found: bool
    text: str = ""
    replaced: int = 0  # private-use code points replaced by '?'
    matches: int = 0  # how many elements matched the label
    frame_url: str = ""
    error: str = ""


async def _shown(frame: Frame) -> bool:
    el = await frame_element(frame)
    try:
        box = None if el is None else await el.bounding_box()
    except Exception:
        return False
    return box is not None and box["width"] > 0 and box["height"] > 0


async def visible_frames(page: Page) -> list[Frame]:
    """The main frame and every displayed child frame, depth first in document-ish order."""
    out: list[Frame] = []

    async def walk(frame: Frame, depth: int) -> None:
        out.append(frame)
        if depth >= MAX_FRAME_DEPTH:
            return
        kids = [c for c in frame.child_frames if not c.is_detached()]
        shown = await asyncio.gather(*(_shown(c) for c in kids))
        for kid, ok in zip(kids, shown, strict=True):
            if ok:
                await walk(kid, depth + 1)

    await walk(page.main_frame, 0)
    return out


async def _count(frame: Frame, text: str) -> int:
    try:
        return int(await frame.evaluate(_TS, {"op": "count", "text": text}))
    except Exception:
        return 0


async def find_text(page: Page, text: str, occurrence: int = 0, *, highlight: bool = True) -> FindOutcome:
    """Scroll the `occurrence`-th match of `text` (case-insensitive, spaces collapsed) into the
    middle of the view, searching the main frame then child frames; wraps around like Ctrl+F."""
    if not text or not text.strip():
        return FindOutcome(False, error="find_text needs some text to look for")
    frames = await visible_frames(page)
    counts = await asyncio.gather(*(_count(f, text) for f in frames))
    total = sum(counts)
    if total == 0:
        return FindOutcome(False, error=f"{text!r} does not appear in the visible text of the page or its frames")
    index = occurrence % total
    k, at = index, 0
    while k >= counts[at]:  # which frame holds the index-th match, and its number there
        k -= counts[at]
        at += 1
    frame = frames[at]
    try:
        rect = await frame.evaluate(_TS, {"op": "reveal", "text": text, "index": k, "highlight": highlight})
        if rect is None:
            return FindOutcome(False, total=total, error="the page changed while searching; try again")
        await _reveal_up(frame, rect)
    except Exception as e:
        return FindOutcome(False, total=total, index=index, frame_url=frame.url,
                           error=f"the match could not be scrolled into view: {short_error(e)}")
    return FindOutcome(True, total=total, index=index, frame_url=frame.url)


async def _reveal_up(frame: Frame, rect: dict[str, float]) -> None:
    """Scroll each parent document so the child's rectangle is centred there too."""
    child = frame
    while child.parent_frame is not None:
        el = await frame_element(child)
        if el is None:
            return
        rect = await el.evaluate(_TS, {"rect": rect})
        child = child.parent_frame


def replace_private_use(text: str) -> tuple[str, int]:
    """Private-use code points (custom-font digits) -> '?', and how many there were."""
    return _PUA.subn("?", text)


async def read_text(page: Page, near: str, limit: int = 600) -> ReadOutcome:
    """Up to `limit` characters of visible DOM text at and after the best match of the label
    `near`: its table row or block, then what follows. Structure is kept whatever whitespace
    the HTML carries: table cells of one row are separated by ' | ' (a cell's inner blocks stay
    in the cell), rows and blocks by new lines, list items start with '- ', and a table row
    read ends with its column headers. Private-use characters become '?'."""
    if not near or not near.strip():
        return ReadOutcome(False, error="read_text needs a label to look near")
    limit = max(1, int(limit))
    frames = await visible_frames(page)

    async def read(frame: Frame) -> dict[str, Any] | None:
        try:
            return await frame.evaluate(_TS, {"op": "read", "text": near, "limit": limit})
        except Exception:
            return None

    results = await asyncio.gather(*(read(f) for f in frames))
    matches = sum(r["matches"] for r in results if r)
    best: tuple[int, Frame, dict[str, Any]] | None = None
    for frame, r in zip(frames, results, strict=True):
        if not r or not r["matches"]:
            continue
        score = 2 * bool(r["exact"]) + bool(r["in_view"])
        if best is None or score > best[0]:
            best = (score, frame, r)
    if best is None:
        return ReadOutcome(False, error=f"no visible text matches {near!r}")
    _, frame, r = best
    body = str(r["text"])
    heads = f"\n(columns: {r['headers']})" if r.get("headers") else ""
    if heads and len(heads) <= limit // 3:
        body = body[:limit - len(heads)].rstrip() + heads
    text, replaced = replace_private_use(body[:limit].rstrip())
    return ReadOutcome(True, text=text, replaced=replaced, matches=matches, frame_url=frame.url)
