"""Observation tools: find_text (scroll a match into view) and read_text (DOM text near a label)."""

from __future__ import annotations

import asyncio

from webfovea.actions.spec import ActionSpec, ExecContext, Outcome
from webfovea.browser.textsearch import find_text, read_text
from webfovea.config import Component
from webfovea.documents import search
from webfovea.documents.document import Document
from webfovea.documents.views import document_at
from webfovea.types import Action, ParamSpec


async def _in_document(ctx: ExecContext, text: str) -> tuple[search.Hit, ...] | None:
    """Every match of `text` in the document the tab shows (every sheet, row and page), or None
    when the page is not a document view."""
    located = document_at(ctx.page)
    if located is None:
        return None
    doc, query = located
    return tuple(await asyncio.to_thread(search.search, doc, text, query))


def _whole(ctx: ExecContext, hits: tuple[search.Hit, ...], text: str) -> str:
    """What the document holds beyond the page shown: where, and how to get there."""
    located = document_at(ctx.page)
    return search.beyond_view(located[0], list(hits), text, located[1]) if located is not None else ""


async def exec_find_text(ctx: ExecContext, action: Action) -> Outcome:
    text = str(action.args.get("text", "")).strip()
    if not text:
        return Outcome(ok=False, check_change=False, note="find_text needs the text to look for.")
    key = text.lower()
    positions: dict[str, int] = ctx.state.setdefault("find_positions", {})  # the next match per text
    occurrence = positions.get(key, 0)
    res = await find_text(ctx.page, text, occurrence)
    if not res.found and occurrence > 0:
        res = await find_text(ctx.page, text, 0)  # wrap around, as Ctrl+F does
    hits = await _in_document(ctx, text)
    whole = _whole(ctx, hits, text) if hits else ""
    if not res.found:
        if whole:
            note = f"find_text: '{text}' is not on the part of the document shown on this page.{whole}"
            return Outcome(ok=False, check_change=False, note=note)
        return Outcome(ok=False, check_change=False, note=f"find_text: '{text}' was not found on this page.")
    positions[key] = res.index + 1
    ctx.response.add_read(f"find_text '{text}': match {res.index + 1} of {res.total}")
    where = " (inside an embedded frame)" if res.frame_url and res.frame_url != ctx.page.url else ""
    where += f" on {res.page}" if res.page else ""
    return Outcome(
        check_change=False,
        note=f"find_text: scrolled match {res.index + 1} of {res.total} into view{where}; look at the screenshot.{whole}",
    )


async def exec_read_text(ctx: ExecContext, action: Action) -> Outcome:
    near = str(action.args.get("near", "")).strip()
    if not near:
        return Outcome(ok=False, check_change=False, note="read_text needs a label to read near.")
    res = await read_text(ctx.page, near)
    if not res.found:
        hits = await _in_document(ctx, near)
        if hits:
            return _read_from_document(ctx, near, hits)
        return Outcome(
            ok=False, check_change=False, note=f"read_text: no text matching '{near}' on this page."
        )
    ctx.response.add_read(f"read_text near '{near}': {res.text}")
    note = f"read_text near '{near}' ({res.matches} match{'es' if res.matches != 1 else ''}): {res.text}"
    if res.replaced:
        note += (
            f" [{res.replaced} character(s) drawn by the site's custom font were replaced by '?': "
            "read those digits from the screenshot.]"
        )
    return Outcome(check_change=False, note=note)


def _read_from_document(ctx: ExecContext, near: str, hits: tuple[search.Hit, ...]) -> Outcome:
    """read_text on a label that is in the opened document but not on the page shown: the first
    matching row (or line) read from the document itself, with where it is."""
    hit = hits[0]
    place = f'sheet "{hit.sheet}", {hit.where}' if hit.sheet else hit.where
    body = hit.text[:600]
    if hit.columns and len(hit.columns) < 200:
        body += f"\n(columns: {hit.columns})"
    ctx.response.add_read(f"read_text near '{near}': {body}")
    others = f" Other matches: {search.places(_doc(ctx), list(hits[1:]))}." if len(hits) > 1 else ""
    away = "" if hit.shown else ", not shown on this page"
    note = (
        f"read_text near '{near}' (read from the document, {place}{away}; "
        f"{len(hits)} match{'es' if len(hits) != 1 else ''} in the whole document): {body}{others}"
    )
    return Outcome(check_change=False, note=note)


def _doc(ctx: ExecContext) -> Document:
    located = document_at(ctx.page)
    assert located is not None
    return located[0]


SPECS = [
    ActionSpec(
        name="find_text",
        watch=False,
        params=(ParamSpec("text", "text"),),
        signature="find_text(text='words on the page')",
        purpose="Like Ctrl+F: scroll the next match into view (also inside embedded frames). Returns no text.",
        execute=exec_find_text,
        component=Component.find_text,
        budget=10,
        rule="If the label, row or figure you need is not on screen, call find_text with it before scrolling.",
        feedback="Which match was scrolled into view, or that the text was not found.",
        manual="Search the page for '{text}'.",
    ),
    ActionSpec(
        name="read_text",
        watch=False,
        params=(ParamSpec("near", "text"),),
        signature="read_text(near='label')",
        purpose="Read up to 600 characters of page text near a label, to verify a value you see.",
        execute=exec_read_text,
        component=Component.read_text,
        budget=5,
        rule="If your answer is a specific value, call read_text once on its label before finished.",
        feedback="The text found (characters of custom fonts replaced by '?', with a count).",
        manual="Read the text next to '{near}'.",
    ),
]
