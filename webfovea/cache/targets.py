"""What identified an action's target, and finding it again on the page of a later run.

A point names an element: the element under it (the interactive one it belongs to) is kept by
tag, role, accessible name, visible text, its id and a CSS-ish path, with where in its box the
point was. On replay the element is looked for by that identity and the point recomputed from
its current box, so a moved layout still replays and a renamed button does not. A snapshot ref
names a line of the AI snapshot: it is kept by its role, name and the roles and names of its
ancestors, and found again as the one line of the current snapshot with the same path.
Every probe runs in the harness's isolated world (`browser/world.py`).
"""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import parse_qsl, urlsplit

from playwright.async_api import Page

from webfovea.browser import snapshot_text as st
from webfovea.browser.frames import js
from webfovea.browser.world import PageUnresponsive, worlds

_PROBE = js("cached_target")
# A path segment that is an id, not a place: numbers, hex digests, UUIDs. The rest must match.
_ID_SEGMENT = re.compile(r"^(\d+|[0-9a-f]{8,}|[0-9a-f-]{32,36})$", re.IGNORECASE)


async def identify(page: Page, x: float, y: float) -> dict[str, Any] | None:
    """The identity of the element under a CSS point of the viewport; None when nothing is there."""
    w = worlds(page)
    try:
        found = await w.call(await w.main(), _PROBE, {"op": "identify", "x": x, "y": y})
    except PageUnresponsive:
        raise
    except Exception:  # noqa: BLE001 - an element we cannot name is not cached, never a failed step
        return None
    return found if isinstance(found, dict) else None


async def find(page: Page, identity: dict[str, Any]) -> tuple[tuple[float, float] | None, str]:
    """The CSS point to act at on the element with this identity now (scrolled into view when it
    was outside it), and how it was found; (None, why) when it is not on the page, is not the
    only one like it, or is covered."""
    w = worlds(page)
    try:
        got = await w.call(await w.main(), _PROBE, {"op": "find", "id": identity})
    except PageUnresponsive:
        raise
    except Exception as e:  # noqa: BLE001 - the page could not be asked: the model decides
        return None, f"the page could not be searched ({type(e).__name__})"
    if not isinstance(got, dict) or "x" not in got:
        return None, str((got or {}).get("why") or "not found")
    how = "same path" if got.get("same_path") else "same identity, other path"
    return (float(got["x"]), float(got["y"])), how + (", moved" if got.get("moved") else "")


async def page_text(page: Page) -> str:
    """The main document's visible text (for checking a replayed answer)."""
    w = worlds(page)
    try:
        return str(await w.call(await w.main(), _PROBE, {"op": "text"}) or "")
    except PageUnresponsive:
        raise
    except Exception:  # noqa: BLE001 - no text read: the answer is not confirmed
        return ""


def ref_path(snapshot: Any, ref: str) -> list[list[str]] | None:
    """The ref's line and its ancestors as [role, name, inline text] from the line outwards."""
    nodes = getattr(snapshot, "nodes", None) or []
    node = st.by_ref(nodes).get(ref)
    if node is None:
        return None
    return [[n.role, n.name, n.text] for n in [node, *st.ancestors(nodes, node.index)]]


def find_ref(snapshot: Any, path: list[list[str]]) -> tuple[str | None, str]:
    """The ref of the one line of the current snapshot whose path is `path`; else (None, why).
    A line with the same role, name and text under other ancestors counts when it is the only one."""
    nodes = getattr(snapshot, "nodes", None) or []
    role, name, text = path[0]
    alike = [n for n in nodes if n.ref and (n.role, n.name, n.text) == (role, name, text)]
    if not alike:
        return None, f"no {role} {name or text!r} in the snapshot"
    exact = [n for n in alike if ref_path(snapshot, n.ref or "") == path]
    pick = exact if len(exact) == 1 else alike if len(alike) == 1 else []
    if not pick:
        return None, f"{len(alike)} lines look like the {role} {name or text!r}"
    return pick[0].ref, "same path" if exact else "same line, other ancestors"


def url_matches(recorded: str, current: str) -> bool:
    """Same page in the URL's sense: origin, path (id-like segments aside) and query keys; the
    query's values and the fragment may differ."""
    a, b = urlsplit(recorded), urlsplit(current)
    if (a.scheme, a.netloc) != (b.scheme, b.netloc):
        return False
    pa, pb = a.path.rstrip("/").split("/"), b.path.rstrip("/").split("/")
    if len(pa) != len(pb):
        return False
    if any(
        x != y and not (_ID_SEGMENT.match(x) and _ID_SEGMENT.match(y)) for x, y in zip(pa, pb, strict=True)
    ):
        return False
    return {k for k, _ in parse_qsl(a.query, keep_blank_values=True)} == {
        k for k, _ in parse_qsl(b.query, keep_blank_values=True)
    }
