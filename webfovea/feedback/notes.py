"""The one place the model's feedback notes are written.

Every sentence the model reads about what happened to its last reply comes from here:
refusals (parser, guardrails), failures on the page, tool timeouts, and the note after an
executed action (the action's own result, plus "No detectable change ..." naming the
element under the point, plus the iframe-fallback notice). The `feedback_notes` switch is
applied here, once: off, the model is told only what an action itself reports on success
(a read-back, an option list) — as the reference agent, which told it nothing else.
"""

from __future__ import annotations

from dataclasses import dataclass

from playwright.async_api import Page

from webfovea.config import Component, HarnessConfig
from webfovea.feedback.element import ElementInfo, describe_at

Point = tuple[float, float]

IFRAME_DELIVERED = "The click was delivered to the element inside the embedded frame."


def not_executed(reason: str) -> str:
    """A reply the parser refused (unknown or forbidden action, unreadable arguments)."""
    return f"Not executed: {reason}"


def refused(action: str, reason: str) -> str:
    """An action a guardrail refused before it touched the page (bounds, budget)."""
    return f"{action} was not executed: {reason}"


def budget_spent(action: str, budget: int) -> str:
    return refused(action, f"its budget of {budget} calls for this task is spent. Use another way to make progress.")


def failed_on_page(action: str, error: BaseException) -> str:
    first = str(error).splitlines()[0][:300] if str(error) else type(error).__name__
    return f"{action} failed on the page: {first}"


def tool_timeout(seconds: float) -> str:
    return f"The action did not complete within {seconds:g} s and was cut off."


def _short_url(url: str, n: int = 120) -> str:
    return url if len(url) <= n else url[: n - 1] + "…"


def blocked_navigation(url: str, reason: str) -> str:
    """The site guard refused a top-level navigation or a new tab."""
    return (f"The page tried to open {_short_url(url)}, which was blocked: {reason}. You are still on the "
            "same page; use this site's own links and controls.")


def new_tab(url: str) -> str:
    return f"The page opened a new tab ({_short_url(url)}); you are now looking at it."


def tab_closed(url: str) -> str:
    return f"The tab you were on was closed; you are now looking at {_short_url(url)}."


def dialog_dismissed(kind: str, message: str) -> str:
    shown = f': "{message}"' if message else ""
    extra = " (a confirmation is never accepted for you)" if kind in ("confirm", "beforeunload") else ""
    return f"The page showed a {kind} dialog{shown}; it was dismissed{extra}."


def download_saved(name: str) -> str:
    return f"The page downloaded a file ({name}); it was kept."


def download_stopped(name: str, why: str) -> str:
    return f"A download ({name}) was stopped: {why}."


def typed_capped(sent: int, total: int) -> str:
    return f"Only the first {sent:,} of {total:,} characters were typed (the limit for one action)."


def page_unresponsive(seconds: float, dialogs: bool) -> str:
    why = "it kept opening dialogs" if dialogs else "an endless script or a frozen tab"
    return f"the page stopped responding for {seconds:g} s ({why})"


def no_change(action: str, element: ElementInfo | None) -> str:
    where = element.sentence() if element is not None else ""
    return f"No detectable change on the page after {action}. {where}".strip()


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

    async def after_action(
        self, page: Page, action: str, *, ok: bool, note: str, changed: bool | None, point: Point | None,
        fallback_used: bool,
    ) -> str:
        """The note after an executed action: its own result, then what the fingerprints say."""
        if not self.on:
            return note if ok else ""
        parts = [note] if note else []
        if changed is False:
            element = await _describe(page, point) if point is not None else None
            parts.append(no_change(action, element))
        if fallback_used and changed:
            parts.append(IFRAME_DELIVERED)
        return " ".join(p for p in parts if p)


async def _describe(page: Page, point: Point) -> ElementInfo | None:
    try:
        return await describe_at(page, *point)
    except Exception:
        return None
