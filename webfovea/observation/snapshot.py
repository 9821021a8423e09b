"""Taking the AI snapshot the model reads in structured and hybrid modes.

Playwright's own snapshot, in process: `page.aria_snapshot(mode="ai")` (no Node MCP
server). When the guards found something it is taken with boxes, so the findings can be matched to
lines; the boxes are then removed from the text the model reads. `Snapshot.full` is the untruncated,
annotated text (`find` and `snapshot(ref)` search it; it is saved as
step_NNN.snapshot.yml); `Snapshot.text` is exactly what the model is given.

Taking a snapshot replaces the page's reference table (only the latest snapshot's refs
resolve), so nothing else in the harness may take one between observations.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from playwright.async_api import Page

from webfovea.browser.snapshot_text import Node, parse, strip_boxes
from webfovea.config import Component, HarnessConfig
from webfovea.observation import guards
from webfovea.observation.truncate import truncate


@dataclass
class Snapshot:
    full: str  # untruncated, annotated, without boxes
    text: str  # exactly what the model is given
    url: str
    bytes: int  # UTF-8 bytes of `full`
    shown_bytes: int
    ms: float  # snapshot + guards + truncation
    truncated: bool = False
    omitted: int = 0
    guard_firings: dict[str, int] = field(default_factory=dict)
    error: str | None = None
    _nodes: list[Node] | None = None

    @property
    def nodes(self) -> list[Node]:
        if self._nodes is None:
            self._nodes = parse(self.full)
        return self._nodes

    def to_json(self) -> dict[str, object]:
        return {
            "bytes": self.bytes,
            "shown_bytes": self.shown_bytes,
            "ms": round(self.ms, 1),
            "truncated": self.truncated,
            "omitted_nodes": self.omitted,
            "guards": self.guard_firings,
            "error": self.error,
        }


EMPTY_PAGE = "- document: (no accessible content: the page is empty or still loading; use look or wait)"


async def take(page: Page, config: HarnessConfig) -> Snapshot:
    """The snapshot of the page now; on failure a one-line text saying so (never raises)."""
    t0 = time.monotonic()
    url = page.url
    guarding = config.on(Component.snapshot_guards)
    findings = await guards.find(page) if guarding else []
    try:
        # Boxes only when a guard found something to place on a line: they cost time on big pages.
        raw = await page.aria_snapshot(mode="ai", boxes=bool(findings), timeout=config.snapshot_timeout_ms)
    except Exception as e:  # a timeout or a page mid-navigation: the model is told, the task goes on
        first = str(e).strip().splitlines()[0][:160] if str(e).strip() else type(e).__name__
        text = f"- document: (the snapshot failed: {first}; use wait, then look again)"
        return Snapshot(
            text,
            text,
            url,
            len(text.encode()),
            len(text.encode()),
            (time.monotonic() - t0) * 1000,
            error=first,
        )
    report = guards.GuardReport()
    if guarding:
        raw = guards.annotate(raw, findings, report)
    full = strip_boxes(raw).strip() or EMPTY_PAGE
    size = len(full.encode("utf-8"))
    shown, truncated, omitted = full, False, 0
    if config.on(Component.snapshot_truncation):
        cut = truncate(full, config.snapshot_budget_bytes)
        shown, truncated, omitted = cut.text, cut.truncated, cut.omitted
    return Snapshot(
        full,
        shown,
        url,
        size,
        len(shown.encode("utf-8")),
        (time.monotonic() - t0) * 1000,
        truncated,
        omitted,
        dict(report.firings),
    )
