"""What identified an action's target, and finding it again on the page of a later run.

A point names an element: the element under it (the interactive one it belongs to) is kept by
tag, role, accessible name, visible text, its id and a CSS-ish path, with where in its box the
point was. On replay the element is looked for by that identity and the point recomputed from
its current box, so a moved layout still replays and a renamed button does not. A point inside
an iframe names two: the iframe in the main document, and the element at the point inside the
frame's own document (`frame`); both must be found again, so a frame whose content changed
(a "Delete account" where "Save" was) does not replay. An answer names where it was read: the
elements whose visible text held it as a whole token, in the main document or a frame; on
replay each must hold it again — "12" is not confirmed by "120". A snapshot ref
names a line of the AI snapshot: it is kept by its role, name and the roles and names of its
ancestors, and found again as the one line of the current snapshot with the same path.
Every probe runs in the harness's isolated world (`browser/world.py`).
"""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import parse_qsl, urlsplit

from playwright.async_api import Frame, Page

from webfovea.browser import snapshot_text as st
from webfovea.browser.frames import frame_at_point, js
from webfovea.browser.world import PageUnresponsive, worlds

_PROBE = js("cached_target")
# A path segment that is an id, not a place: numbers, hex digests, UUIDs. The rest must match.
_ID_SEGMENT = re.compile(r"^(\d+|[0-9a-f]{8,}|[0-9a-f-]{32,36})$", re.IGNORECASE)


async def identify(page: Page, x: float, y: float) -> dict[str, Any] | None:
    """The identity of the element under a CSS point of the viewport; None when nothing is there.
    Over an iframe, `frame` holds the identity of the element at the point inside it too."""
    w = worlds(page)
    try:
        found = await w.call(await w.main(), _PROBE, {"op": "identify", "x": x, "y": y})
        if not isinstance(found, dict):
            return None
        hit = await frame_at_point(page, x, y)
        if hit.is_child and hit.ref is not None:
            inner = await w.call(hit.ref, _PROBE, {"op": "identify", "x": hit.local_x, "y": hit.local_y})
            found["frame"] = {
                "depth": len(hit.chain) - 1,
                "inner": inner if isinstance(inner, dict) else None,
            }
    except PageUnresponsive:
        raise
    except Exception:  # noqa: BLE001 - an element we cannot name is not cached, never a failed step
        return None
    return found


async def find(page: Page, identity: dict[str, Any]) -> tuple[tuple[float, float] | None, str]:
    """The CSS point to act at on the element with this identity now (scrolled into view when it
    was outside it), and how it was found; (None, why) when it is not on the page, is not the
    only one like it, or is covered — or, inside a frame, when the element inside is not."""
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
    point = (float(got["x"]), float(got["y"]))
    if identity.get("frame") is not None:
        inside, why = await _find_inside(page, point, identity["frame"])
        if inside is None:
            return None, why
        point, how = inside, f"{how}; {why}"
    return point, how + (", moved" if got.get("moved") else "")


async def _find_inside(
    page: Page, point: tuple[float, float], frame: dict[str, Any]
) -> tuple[tuple[float, float] | None, str]:
    """The element identified inside the frame at `point`, found again in the frame there now."""
    inner = frame.get("inner")
    if not isinstance(inner, dict):
        return None, "the element inside the frame was not identified when it was cached"
    hit = await frame_at_point(page, *point)
    if not hit.is_child or hit.ref is None or len(hit.chain) - 1 != frame.get("depth"):
        return None, "the frame it was inside is not at its place"
    w = worlds(page)
    try:
        got = await w.call(hit.ref, _PROBE, {"op": "find", "id": inner})
    except PageUnresponsive:
        raise
    except Exception as e:  # noqa: BLE001 - the frame could not be asked: the model decides
        return None, f"the frame could not be searched ({type(e).__name__})"
    if not isinstance(got, dict) or "x" not in got:
        return None, f"inside the frame: {(got or {}).get('why') or 'not found'}"
    at = (hit.origin[0] + float(got["x"]), hit.origin[1] + float(got["y"]))
    again = await frame_at_point(page, *at)  # the point reaches that frame, not a parent above it
    if again.chain != hit.chain:
        return None, "inside the frame: its element is outside the frame's visible part"
    return at, "same element inside the frame"


MAX_HOLDERS = 5  # elements kept per answer value: a value shown in more places is checked in these
MAX_FRAMES = 12  # documents searched for an answer: the main one and its first frames


def _documents(page: Page) -> list[Frame]:
    """The main document and its frames (a viewer's document inside an iframe)."""
    return [f for f in page.frames if not f.is_detached()][:MAX_FRAMES]


async def answer_holders(page: Page, forms: list[list[str]]) -> list[list[dict[str, Any]]] | None:
    """For each value of an answer (its accepted spellings), the elements whose visible text
    holds it as a whole token, in the main document or a frame: [{tag, path, html_id, frame}]
    (`frame`: the frame's URL, None for the main document; empty: none does). None when the
    page could not be asked."""
    w = worlds(page)
    found: list[list[dict[str, Any]]] = [[] for _ in forms]
    main = page.main_frame
    for frame in _documents(page):
        try:
            got = await w.call(
                await w.ref_of(frame), _PROBE, {"op": "holders", "forms": forms, "max": MAX_HOLDERS}
            )
        except PageUnresponsive:
            raise
        except Exception:  # noqa: BLE001 - a document not asked: its places are not kept
            if frame is main:
                return None
            continue
        if not isinstance(got, list) or len(got) != len(forms):
            continue
        url = None if frame is main else frame.url
        for kept, places in zip(found, got, strict=True):
            kept.extend({**at, "frame": url} for at in places[: MAX_HOLDERS - len(kept)])
    return found


def _document_of(page: Page, url: str | None) -> tuple[Frame | None, str]:
    """The document a holder was in: the main one, or the one frame of the same URL pattern."""
    if url is None:
        return page.main_frame, ""
    same = [f for f in _documents(page)[1:] if url_matches(url, f.url)]
    if len(same) != 1:
        return None, f"{len(same)} frames show the document it was read in ({url})"
    return same[0], ""


async def answer_confirmed(
    page: Page, forms: list[list[str]], holders: list[list[dict[str, Any]]] | None
) -> tuple[bool, str]:
    """Whether every value of a cached answer is shown again, as a whole token, by every element
    it was read from when it was cached; and how (or why not)."""
    if not forms:
        return False, "it holds no value to look for on the page"
    if holders is None or len(holders) != len(forms) or not all(holders):
        return False, "it was not read from an element of the page when it was cached"
    w = worlds(page)
    for value, places in zip(forms, holders, strict=True):
        for place in places:
            frame, why = _document_of(page, place.get("frame"))
            if frame is None:
                return False, why
            try:
                got = await w.call(
                    await w.ref_of(frame), _PROBE, {"op": "holds", "at": [place], "forms": value}
                )
            except PageUnresponsive:
                raise
            except Exception as e:  # noqa: BLE001 - not confirmed: the model answers
                return False, f"the page could not be asked ({type(e).__name__})"
            seen = got[0] if isinstance(got, list) and len(got) == 1 and isinstance(got[0], dict) else {}
            if not seen.get("found"):
                return False, f"the <{place.get('tag')}> it was read from is not on the page"
            if not seen.get("holds"):
                return False, f"the <{place.get('tag')}> it was read from now reads {seen.get('text', '')!r}"
    n = sum(len(at) for at in holders)
    return True, f"every value shown again as a whole token at the {n} element(s) it was read from"


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
