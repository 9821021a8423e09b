"""Observation tools: find_text (scroll a match into view) and read_text (DOM text near a label)."""

from __future__ import annotations

from webfovea.actions.spec import ActionSpec, ExecContext, Outcome
from webfovea.browser.textsearch import find_text, read_text
from webfovea.config import Component
from webfovea.types import Action, ParamSpec


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
    if not res.found:
        return Outcome(ok=False, check_change=False, note=f"find_text: '{text}' was not found on this page.")
    positions[key] = res.index + 1
    ctx.response.add_read(f"find_text '{text}': match {res.index + 1} of {res.total}")
    where = " (inside an embedded frame)" if res.frame_url and res.frame_url != ctx.page.url else ""
    where += f" on {res.page}" if res.page else ""
    return Outcome(
        check_change=False,
        note=f"find_text: scrolled match {res.index + 1} of {res.total} into view{where}; look at the screenshot.",
    )


async def exec_read_text(ctx: ExecContext, action: Action) -> Outcome:
    near = str(action.args.get("near", "")).strip()
    if not near:
        return Outcome(ok=False, check_change=False, note="read_text needs a label to read near.")
    res = await read_text(ctx.page, near)
    if not res.found:
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
