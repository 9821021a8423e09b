"""find_text (Ctrl+F that returns no text) and read_text (DOM text near a label)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from playwright.async_api import Page

from webfovea.browser.frames import MAX_FRAME_DEPTH, js, short_error
from webfovea.browser.world import FrameRef, PageUnresponsive, Remote, worlds

_TS = js("textsearch")
# Code points a custom web font may draw as digits: the BMP private-use area and planes 15-16.
_PUA = re.compile("[\ue000-\uf8ff\U000f0000-\U000ffffd\U00100000-\U0010fffd]")

# The most page text one read shows the model; every action's note is held to this budget
# too (feedback/quote.py `capped`), so no tool hands the model more than a read would.
READ_CHARS = 600


@dataclass
class FindOutcome:
    found: bool
    total: int = 0
    index: int = -1  # which match (0-based, main frame first, document order) was revealed
    frame_url: str = ""
    error: str = ""
    page: str = ""  # the document page the match is on ("page 7 of 12"), when it is in one


@dataclass
class ReadOutcome:
    found: bool
    text: str = ""
    replaced: int = 0  # private-use code points replaced by '?'
    matches: int = 0  # how many elements matched the label
    frame_url: str = ""
    error: str = ""


@dataclass
class _Frame:
    ref: FrameRef
    url: str
    host: Remote | None = None  # its <iframe> element in the parent document
    parent: _Frame | None = None


# Displayed <iframe>/<frame> elements of a document (open shadow roots included), in order.
_KIDS = """() => { const out = [];
  const walk = (root) => { for (const e of root.querySelectorAll('*')) {
    if (e.tagName === 'IFRAME' || e.tagName === 'FRAME') { const r = e.getBoundingClientRect();
      if (r.width > 0 && r.height > 0) out.push(e); }
    if (e.shadowRoot) walk(e.shadowRoot); } };
  walk(document); return out; }"""


async def visible_frames(page: Page) -> list[_Frame]:
    """The main frame and every displayed child frame, depth first in document order, each in the
    harness's isolated world (a page cannot hide or fake frames from this walk)."""
    w = worlds(page)
    main = await w.main()
    out: list[_Frame] = []

    async def walk(frame: _Frame, depth: int) -> None:
        out.append(frame)
        if depth >= MAX_FRAME_DEPTH:
            return
        try:
            hosts = await w.handles(frame.ref, _KIDS)
        except PageUnresponsive:
            raise
        except Exception:
            return
        for host in hosts:
            try:
                ref = await w.frame_of(host)
                url = await w.url(ref) if ref is not None else ""
            except PageUnresponsive:
                raise
            except Exception:
                ref = None
            if ref is None:
                await w.release(host)
                continue
            await walk(_Frame(ref, url, host, frame), depth + 1)

    await walk(_Frame(main, page.main_frame.url), 0)
    return out


async def _release(page: Page, frames: list[_Frame]) -> None:
    await worlds(page).release(*(f.host for f in frames))


async def _count(page: Page, frame: _Frame, text: str) -> int:
    try:
        return int(await worlds(page).call(frame.ref, _TS, {"op": "count", "text": text}))
    except PageUnresponsive:
        raise
    except Exception:
        return 0


async def find_text(page: Page, text: str, occurrence: int = 0, *, highlight: bool = True) -> FindOutcome:
    """Scroll the `occurrence`-th match of `text` (case-insensitive, spaces collapsed) into the
    middle of the view, searching the main frame then child frames; wraps around like Ctrl+F."""
    if not text or not text.strip():
        return FindOutcome(False, error="find_text needs some text to look for")
    frames = await visible_frames(page)
    try:
        return await _find(page, frames, text, occurrence, highlight)
    finally:
        await _release(page, frames)


async def _find(page: Page, frames: list[_Frame], text: str, occurrence: int, highlight: bool) -> FindOutcome:
    absent = FindOutcome(
        False, error=f"{text!r} does not appear in the visible text of the page or its frames"
    )
    total: int | None = None  # one document: the walk that reveals the match also counts them
    index = k = occurrence
    frame = frames[0]
    if len(frames) > 1:
        counts = [await _count(page, f, text) for f in frames]
        total = sum(counts)
        if total == 0:
            return absent
        index = k = occurrence % total
        at = 0
        while k >= counts[at]:  # which frame holds the index-th match, and its number there
            k -= counts[at]
            at += 1
        frame = frames[at]
    try:
        arg = {"op": "reveal", "text": text, "index": k, "highlight": highlight, "wrap": total is None}
        rect = await worlds(page).call(frame.ref, _TS, arg)
        if rect is not None and total is None:
            total, index = int(rect.get("total") or 0), int(rect.get("index") or 0)
            if total == 0:
                return absent
        if rect is None:
            return FindOutcome(False, total=total or 0, error="the page changed while searching; try again")
        await _reveal_up(page, frame, rect)
    except PageUnresponsive:
        raise
    except Exception as e:
        return FindOutcome(
            False,
            total=total or 0,
            index=index,
            frame_url=frame.url,
            error=f"the match could not be scrolled into view: {short_error(e)}",
        )
    return FindOutcome(
        True, total=total or 0, index=index, frame_url=frame.url, page=str(rect.get("page") or "")
    )


async def _reveal_up(page: Page, frame: _Frame, rect: dict[str, float]) -> None:
    """Scroll each parent document so the child's rectangle is centred there too."""
    child = frame
    while child.parent is not None and child.host is not None:
        rect = await worlds(page).call_on(child.host, _TS, {"rect": rect})
        child = child.parent


def replace_private_use(text: str) -> tuple[str, int]:
    """Private-use code points (custom-font digits) -> '?', and how many there were."""
    return _PUA.subn("?", text)


async def read_text(page: Page, near: str, limit: int = READ_CHARS) -> ReadOutcome:
    """Up to `limit` characters of visible DOM text at and after the best match of the label
    `near`: its table row or block, then what follows. Structure is kept whatever whitespace
    the HTML carries: table cells of one row are separated by ' | ' (a cell's inner blocks stay
    in the cell), rows and blocks by new lines, list items start with '- ', and a table row
    read ends with its column headers. Private-use characters become '?'."""
    if not near or not near.strip():
        return ReadOutcome(False, error="read_text needs a label to look near")
    limit = max(1, int(limit))
    frames = await visible_frames(page)
    try:
        results = [await _read(page, f, near, limit) for f in frames]
    finally:
        await _release(page, frames)
    matches = sum(r["matches"] for r in results if r)
    best: tuple[int, _Frame, dict[str, Any]] | None = None
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
        body = body[: limit - len(heads)].rstrip() + heads
    text, replaced = replace_private_use(body[:limit].rstrip())
    return ReadOutcome(True, text=text, replaced=replaced, matches=matches, frame_url=frame.url)


async def _read(page: Page, frame: _Frame, near: str, limit: int) -> dict[str, Any] | None:
    try:
        found: dict[str, Any] | None = await worlds(page).call(
            frame.ref, _TS, {"op": "read", "text": near, "limit": limit}
        )
        return found
    except PageUnresponsive:
        raise
    except Exception:
        return None
