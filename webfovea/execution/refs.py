"""Resolving a snapshot reference to the element it named, or refusing it as stale.

Playwright's `aria-ref=` engine consults only the latest snapshot taken in the frame and
only checks the element is still attached: a renamed button keeps resolving to itself. So
a ref is checked against the line it came from: the element must still exist (a short,
explicit timeout; never the 30 s default), and must still have that line's role and name.
Anything else is stale and never clicked: the model is told and reads a fresh snapshot.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Any

from playwright.async_api import Page

from webfovea.browser import snapshot_text as st

# Roles Playwright's role engine does not match by name (or at all): checked by presence only.
_PRESENCE_ONLY = frozenset({"generic", "text", "none", "presentation", "document", "iframe"})


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


async def _bounded(coro: Any, timeout_ms: int) -> Any:
    return await asyncio.wait_for(coro, timeout_ms / 1000)


async def resolve(page: Page, ref: str, snapshot: Any, timeout_ms: int) -> Target:
    """The element's centre in CSS px, scrolled into view; StaleRef when it is gone or changed."""
    node = st.by_ref(snapshot.nodes).get(ref) if snapshot is not None else None
    if node is None:
        raise StaleRef(ref, "it is not in the latest snapshot (never printed there, or from an older one)")
    loc = page.locator(f"aria-ref={ref}")
    try:
        count = await _bounded(loc.count(), timeout_ms)
        if count and node.role and node.name and node.role not in _PRESENCE_ONLY:
            same = page.get_by_role(node.role, name=node.name, exact=True)  # type: ignore[arg-type]
            if await _bounded(loc.and_(same).count(), timeout_ms) == 0:
                raise StaleRef(ref, f"the {node.role} '{node.name}' changed (renamed or re-rendered)")
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
