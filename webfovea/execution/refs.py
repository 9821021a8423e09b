"""Resolving a snapshot reference to the element it named, or refusing it as stale.

Playwright's `aria-ref=` engine consults only the latest snapshot taken in the frame and
only checks the element is still attached: a renamed button keeps resolving to itself. So
a ref is checked against the line it came from: the element must still exist (a short,
explicit timeout; never the 30 s default), and must still have that line's role and name.
Anything else is stale and never clicked: the model is told and reads a fresh snapshot.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

from playwright.async_api import Locator, Page

from webfovea.browser import snapshot_text as st

# Roles Playwright's role engine does not match by name (or at all): checked by presence only.
_PRESENCE_ONLY = frozenset({"generic", "text", "none", "presentation", "document", "iframe"})


class Printed(Protocol):
    """The snapshot the model read its refs in (`observation.snapshot.Snapshot`); a scoped one
    also has `scopes` (ref -> the XPath of the piece it was printed in)."""

    @property
    def nodes(self) -> list[st.Node]: ...


class StaleRef(Exception):
    """The reference does not name the element it named when the model read the snapshot."""

    def __init__(self, ref: str, why: str) -> None:
        super().__init__(f"{ref}: {why}")
        self.ref = ref
        self.why = why


@dataclass
class Target:
    ref: str
    role: str
    name: str
    locator: str | None  # a semantic locator (Playwright's normalize()) for replay by meaning
    point: tuple[float, float]  # CSS px of the main viewport: the element's centre after scrolling it in

    def to_json(self) -> dict[str, Any]:
        return {
            "ref": self.ref,
            "role": self.role,
            "name": self.name,
            "locator": self.locator,
            "point": [round(self.point[0], 1), round(self.point[1], 1)],
        }


T = TypeVar("T")


async def _bounded(coro: Awaitable[T], timeout_ms: int) -> T:
    return await asyncio.wait_for(coro, timeout_ms / 1000)


async def _same_element(loc: Locator, ref: str, node: st.Node, timeout_ms: int) -> None:
    """StaleRef unless the element still has the line's role and name.

    Its own snapshot (its subtree only: milliseconds even on a 3,000-row page, where a
    page-wide `get_by_role` query took over a second under load) prints the same ref exactly
    when role and name are unchanged: Playwright gives an element a new ref when either changes.
    """
    own = await loc.aria_snapshot(mode="ai", timeout=timeout_ms)
    first = next((n for n in st.parse(own) if n.role), None)
    if first is None or first.ref != ref or first.role != node.role or first.name != node.name:
        raise StaleRef(ref, f"the {node.role} '{node.name}' changed (renamed or re-rendered)")


async def resolve(page: Page, ref: str, snapshot: Printed | None, timeout_ms: int) -> Target:
    """The element's centre in CSS px, scrolled into view; StaleRef when it is gone or changed."""
    node = st.by_ref(snapshot.nodes).get(ref) if snapshot is not None else None
    if node is None:
        raise StaleRef(ref, "it is not in the latest snapshot (never printed there, or from an older one)")
    loc = page.locator(f"aria-ref={ref}")
    try:
        piece = (getattr(snapshot, "scopes", None) or {}).get(ref)
        if piece is not None:
            # A scoped snapshot: Playwright's ref table holds only the last piece taken; retake
            # this ref's piece (small) so `aria-ref=` reaches it again.
            text = await page.locator(piece).aria_snapshot(mode="ai", timeout=timeout_ms)
            if f"[ref={ref}]" not in text:
                raise StaleRef(ref, "the element is gone or changed (the page changed after the snapshot)")
        count = await _bounded(loc.count(), timeout_ms)
        if count and node.role and node.name and node.role not in _PRESENCE_ONLY:
            await _same_element(loc, ref, node, timeout_ms)
    except StaleRef:
        raise
    except TimeoutError:
        raise StaleRef(ref, "the page did not answer in time") from None
    except Exception as e:  # "Invalid frame in aria-ref selector": its frame was reloaded or removed
        raise StaleRef(
            ref,
            "its frame was reloaded or removed"
            if "frame" in str(e).lower()
            else str(e).strip().splitlines()[0][:120],
        ) from None
    if not count:
        raise StaleRef(ref, "the element is gone (the page changed after the snapshot)")
    try:
        await loc.scroll_into_view_if_needed(timeout=timeout_ms)
        box = await loc.bounding_box(timeout=timeout_ms)
    except Exception:
        box = None
    if not box or box["width"] <= 0 or box["height"] <= 0:
        raise StaleRef(ref, "the element has no visible box now")
    try:
        locator = str(await _bounded(loc.normalize(), timeout_ms))
    except Exception:
        locator = None
    return Target(
        ref, node.role, node.name, locator, (box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    )
