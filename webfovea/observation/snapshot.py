"""Taking the AI snapshot the model reads in structured and hybrid modes.

Playwright's own snapshot, in process: `page.aria_snapshot(mode="ai")` (no Node MCP
server). When the guards found something it is taken with boxes, so the findings can be matched to
lines; the boxes are then removed from the text the model reads. `Snapshot.full` is the untruncated,
annotated text (`find` and `snapshot(ref)` search it; it is saved as
step_NNN.snapshot.yml); `Snapshot.text` is exactly what the model is given.

Taking a snapshot replaces the page's reference table (only the latest snapshot's refs
resolve), so nothing else in the harness may take one between observations. On a big page
(`snapshot_scoping`) the snapshot is scoped instead (observation/scope.py): pieces near the
view, landmarks and small subtrees, never the whole tree; each ref then records the piece it
came from (`Snapshot.scopes`) so resolving it can retake that piece.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from playwright.async_api import Page

from webfovea.browser.snapshot_text import Node, parse, strip_boxes
from webfovea.config import Component, HarnessConfig
from webfovea.observation import guards, scope
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
    # snapshot_scoping: ref -> the XPath of the piece it was printed in (empty: a whole-page snapshot)
    scopes: dict[str, str] = field(default_factory=dict)
    scoped: bool = False
    doc: str = ""  # the scoped document's identity (pinned `find` pieces belong to it)
    _nodes: list[Node] | None = None

    async def reach(self, page: Page, text: str, timeout_ms: int) -> None:
        """A scoped snapshot brings in the rows of the page containing `text` (find's search)."""
        if not self.scoped:
            return
        try:
            found = await scope.extend(page, text, timeout_ms)
        except Exception:
            return  # find then searches what the snapshot holds
        known = set(self.scopes.values())
        new = [(sel, body) for sel, body in found if sel not in known and body.strip()]
        scopes: dict[str, str] = {}
        for sel, body in new:
            scope.note_refs(body, sel, scopes)
        scope.pin(page, self.doc, [sel for sel, _ in new])
        self.add_lines("\n".join(scope.indent(body.strip(), 1) for _, body in new), scopes)

    def add_lines(self, text: str, scopes: dict[str, str]) -> None:
        """Lines `find` brought in from outside the scoped view: searchable and resolvable from now on."""
        if text.strip():
            self.full = self.full.rstrip("\n") + "\n- (found outside the view):\n" + text
            self._nodes = None
        for ref, sel in scopes.items():
            self.scopes.setdefault(ref, sel)

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
            "scoped": self.scoped,
        }


EMPTY_PAGE = "- document: (no accessible content: the page is empty or still loading; use look or wait)"


async def take(page: Page, config: HarnessConfig) -> Snapshot:
    """The snapshot of the page now; on failure a one-line text saying so (never raises)."""
    t0 = time.monotonic()
    url = page.url
    guarding = config.on(Component.snapshot_guards)
    findings = await guards.find(page) if guarding else []
    scoped: scope.Scoped | None = None
    try:
        steps = None
        if config.on(Component.snapshot_scoping):
            settings = scope.ScopeSettings(
                threshold=config.snapshot_scope_elements, budget=config.snapshot_scope_bytes
            )
            doc, steps = await scope.plan(page, settings)
            steps = scope.with_pinned(page, doc, steps) if steps is not None else None
        # Boxes only when a guard found something to place on a line: they cost time on big pages.
        if steps is not None:
            scoped = await scope.take(
                page, steps, bool(findings), config.snapshot_timeout_ms, doc, settings.budget
            )
            raw = scoped.text
        else:
            raw = await page.aria_snapshot(
                mode="ai", boxes=bool(findings), timeout=config.snapshot_timeout_ms
            )
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
    budget = config.snapshot_budget_bytes
    if scoped is not None:
        # What is on screen is never cut to the scoped budget: over it, only the whole-snapshot budget holds.
        budget = min(budget, max(config.snapshot_scope_bytes, size if scoped.at_floor else 0))
        truncated, omitted = scoped.omitted > 0, scoped.omitted
    if config.on(Component.snapshot_truncation) or scoped is not None:
        cut = truncate(full, budget)
        shown, truncated, omitted = cut.text, truncated or cut.truncated, omitted + cut.omitted
    snap = Snapshot(
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
    if scoped is not None:
        snap.scopes, snap.scoped, snap.doc = scoped.scopes, True, doc
    return snap
