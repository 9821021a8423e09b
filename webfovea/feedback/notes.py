"""The one place the model's feedback notes are written.

Every sentence the model reads about what happened to its last reply comes from here:
refusals (parser, guardrails), failures on the page, tool timeouts, and the note after an
executed action (the action's own result, plus what the fingerprints say — sentences made in
feedback/change_notes.py — plus the iframe-fallback notice). The `feedback_notes` switch is
applied here, once: off, the model is told only what an action itself reports on success
(a read-back, an option list) — as the reference agent, which told it nothing else.
"""

from __future__ import annotations

from dataclasses import dataclass

from playwright.async_api import Page

from webfovea.config import Component, HarnessConfig
from webfovea.feedback.change_notes import SAID_BY_ACTION, kept_changing, no_change, on_its_own, what_changed
from webfovea.feedback.element import ElementInfo, Where, describe_at
from webfovea.feedback.quote import page_text
from webfovea.feedback.watch import Verdict

Point = tuple[float, float]
_SQ = "'"  # names and values are single-quoted in notes

IFRAME_DELIVERED = "The click was delivered to the element inside the embedded frame."


def not_executed(reason: str) -> str:
    """A reply the parser refused (unknown or forbidden action, unreadable arguments)."""
    return f"Not executed: {reason}"


def cut_off(why: str) -> str:
    """A reply the provider cut off (the output limit, a filter): half a call must not run."""
    return (
        f"your last reply was cut off before it was complete ({why}), so nothing of it was run. "
        "Reply again with one complete action, and keep the reasoning short"
    )


def refused(action: str, reason: str) -> str:
    """An action a guardrail refused before it touched the page (bounds, budget)."""
    return f"{action} was not executed: {reason}"


def budget_spent(action: str, budget: int) -> str:
    return refused(
        action, f"its budget of {budget} calls for this task is spent. Use another way to make progress."
    )


def secret_unknown(name: str, known: list[str]) -> str:
    """A `<secret>NAME</secret>` the task was given no secret for."""
    have = ", ".join(known) if known else "none"
    return f"there is no secret named '{name}' (the secrets of this task: {have}); nothing was typed."


def secret_without_value(name: str) -> str:
    """A secret known by name whose value this run was not given (a config read back from JSON)."""
    return f"the value of secret '{name}' was not given to this run; nothing was typed."


def secret_refused(name: str, origin: str, origins: list[str]) -> str:
    """A secret named on a page (or in a frame) outside the origins it may be typed on."""
    return (
        f"secret '{name}' may be typed only on {', '.join(origins)}, and this field is on {origin}; "
        "nothing was typed. Go to the right site first."
    )


def secret_no_field() -> str:
    """`type` with a secret while no element holds the focus: there is no field to bind it to."""
    return "no field holds the focus, so no secret was typed; use fill on the field instead."


def secret_focus_moved(name: str) -> str:
    """The focus left the field a secret was checked for before or while it was typed."""
    return (
        f"the focus left the field before secret '{name}' was typed, so it was not typed and typing "
        "stopped there; the page moved the focus. Fill the field again and check where the focus is."
    )


def secret_cut(name: str) -> str:
    """The field took only part of a secret (a length limit, a page editing the input)."""
    return f"the field did not take the whole of secret '{name}' (it may limit its length); check the field."


def stale_ref(ref: str, why: str) -> str:
    return (
        f"Reference {ref} is no longer on the page ({why}); nothing was done. "
        "Use a reference from the fresh snapshot below."
    )


def stale_refs_spent(budget: int) -> str:
    return f"Stopped: {budget} stale or unknown references were sent; the task cannot go on by guessing."


def needs_target(action: str) -> str:
    return f"{action} needs a target: ref='e12' from the snapshot, or start_box. Nothing was done."


def failed_on_page(action: str, error: BaseException) -> str:
    first = str(error).splitlines()[0][:300] if str(error) else type(error).__name__
    return f"{action} failed on the page: {first}"


def tool_timeout(seconds: float) -> str:
    return f"The action did not complete within {seconds:g} s and was cut off."


def _short_url(url: str, n: int = 120) -> str:
    return url if len(url) <= n else url[: n - 1] + "…"


def blocked_navigation(url: str, reason: str) -> str:
    """The site guard refused a top-level navigation or a new tab."""
    return (
        f"The page tried to open {_short_url(url)}, which was blocked: {reason}. You are still on the "
        "same page; use this site's own links and controls."
    )


def new_tab(url: str) -> str:
    return f"The page opened a new tab ({_short_url(url)}); you are now looking at it."


def tab_closed(url: str) -> str:
    return f"The tab you were on was closed; you are now looking at {_short_url(url)}."


def dialog_dismissed(kind: str, message: str) -> str:
    shown = f": {page_text(message)}" if message else ""
    extra = " (a confirmation is never accepted for you)" if kind in ("confirm", "beforeunload") else ""
    return f"The page showed a {kind} dialog{shown}; it was dismissed{extra}."


# A file name is the page's (its Content-Disposition, its link's `download`): quoted like any page
# text, so a name such as `x). Now call finished(` cannot close the sentence around it.
def download_saved(name: str) -> str:
    return f"The page downloaded a file ({page_text(name, 120)}); it was kept."


def download_stopped(name: str, why: str) -> str:
    return f"A download ({page_text(name, 120)}) was stopped: {why}."


def _pages(numbers: list[int]) -> str:
    shown = ", ".join(str(n) for n in numbers[:10]) + (", ..." if len(numbers) > 10 else "")
    return f"page{'s' if len(numbers) > 1 else ''} {shown}"


def document_opened(  # noqa: PLR0913 - one sentence from the document's facts
    name: str, what: str, extent: str, size: str, scanned: list[int], ocr: list[int]
) -> str:
    """A download that is a document, now shown in this tab (webfovea/documents/)."""
    said = (
        f"The page yielded {page_text(name, 120)} ({what}, {extent}, {size}); it is now open in this tab as a page you can "
        "scroll, search and read; going back returns to the page before."
    )
    if scanned:
        said += f" Scanned {_pages(scanned)}: no text layer, read from the image."
    if ocr:
        said += f" Scanned {_pages(ocr)}: text recognised by OCR, which may contain errors."
    return said


def document_refused(name: str, why: str) -> str:
    return f"The page yielded {page_text(name, 120)}, which was kept but not opened as a document: {why}."


def typed_capped(sent: int, total: int) -> str:
    return f"Only the first {sent:,} of {total:,} characters were typed (the limit for one action)."


def page_unresponsive(seconds: float, dialogs: bool) -> str:
    why = "it kept opening dialogs" if dialogs else "an endless script or a frozen tab"
    return f"the page stopped responding for {seconds:g} s ({why})"


# The `verify` gate's one sentence (guardrails/verify.py). Its opening words are part of the
# oracle's contract (docs/contracts.md §2): the oracle checks the state only when it reads them.
VERIFY_OPENING = "Before this task ends, check the real state"


def verify_request(url: str | None) -> str:
    """The held `finished`: the page now shows what the site really holds; compare, then answer again."""
    where = f"the harness opened {url}" if url else "the harness reloaded the page"
    return (
        f"{VERIFY_OPENING}: {where} to show what the site actually holds now; compare it with what you "
        "meant to save or submit and call finished again only if it matches, otherwise redo what is missing."
    )


# The verifier's rejection (guardrails/verifier.py). Its opening words are part of the oracle's
# contract: the oracle looks again only when it reads them.
VERIFIER_OPENING = "An independent check did not accept your answer"


def verifier_rejected(reason: str, look_at: str, left: int, ocr_note: str | None = None) -> str:
    """A `finished` the verifier rejected: why, where to look, how many rejections are left."""
    text = f"{VERIFIER_OPENING}: {reason or 'it does not match the evidence'}"
    text = text.rstrip(".") + "."
    if look_at:
        text += f" Look at: {look_at.rstrip('.')}."
    if ocr_note:
        text += f" {ocr_note}"
    after = (
        "Check the value on the page and call finished again with the right answer"
        if left
        else "Check the value on the page; your next finished stands as it is"
    )
    return f"{text} {after}."


def ocr_mismatch(note: str) -> str:
    """A `finished` held once by the OCR cross-check (no verifier): its note, and what to do."""
    return f"{note} Check the value on the screen and call finished again (the same answer if it is right)."


def answer_invalid(error: str) -> str:
    """A `finished` whose content does not meet the task's answer schema (guardrails/answer.py)."""
    return (
        f"Not accepted as the answer: {error}. Call finished again with one JSON value that meets "
        "the schema given with the task."
    )


@dataclass
class Notes:
    """Writes the feedback of one harness, under its `feedback_notes` switch."""

    config: HarnessConfig

    @property
    def on(self) -> bool:
        return self.config.on(Component.feedback_notes)

    def refusal(self, text: str) -> str:
        """What the model is told about a refusal or failure ('' when notes are off)."""
        return text if self.on else ""

    async def after_action(  # noqa: PLR0913 -- its one caller is execution/executor.py
        self,
        page: Page,
        action: str,
        *,
        ok: bool,
        note: str,
        changed: bool | None,
        point: Where | None,
        fallback_used: bool,
        verdict: Verdict | None = None,
        still_changing_s: float | None = None,
        held_by: str = "dom",
    ) -> str:
        """The note after an executed action: its own result, then what the fingerprints say."""
        if not self.on:
            return note if ok else ""
        parts = [note] if note else []
        if changed is False:
            element = await _describe(page, point.css) if point is not None else None
            parts.append(no_change(action, element, point.shown() if point is not None else None))
            if verdict is not None:
                parts.append(on_its_own(verdict.ambient, point))
        elif changed and verdict is not None:
            effects = verdict.effects
            if note:  # the action's own note already reports the field it changed
                effects = [c for c in effects if c.kind not in SAID_BY_ACTION]
            parts.append(what_changed(effects))
        if fallback_used and changed:
            parts.append(IFRAME_DELIVERED)
        if still_changing_s is not None:
            parts.append(kept_changing(still_changing_s, held_by))
        return " ".join(p for p in parts if p)


async def _describe(page: Page, point: Point) -> ElementInfo | None:
    try:
        return await describe_at(page, *point)
    except Exception:
        return None


def target_swapped(action: str, now: ElementInfo) -> str:
    """The element under the point changed when the pointer arrived: the press was not made."""
    return (
        f"{action} was not pressed: when the pointer arrived, the page put another element under the "
        f"point than the one you saw. {now.sentence()} Look at the new screenshot before pressing again."
    )
