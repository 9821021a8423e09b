"""How the oracle finds things: read-only DOM geometry through a chain of frames.

Everything here only *reads* the page (querySelectorAll, getBoundingClientRect,
getComputedStyle, elementFromPoint, attribute/value reads). The oracle must never
change the page: only the harness acts, so any effect on the page is the harness's.

Geometry is in CSS pixels of the main viewport. A target is described by the
regions that clip it, outermost first: the main viewport, overflow containers,
each iframe's own viewport, overflow containers inside it, ... The target is in
view when its centre lies inside every region; otherwise the innermost region
that hides it is the one to scroll (see `scroll_plan`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from playwright.async_api import Frame, Page

from webfovea_proving_ground.sites.fonts import decode_pua

Rect = tuple[float, float, float, float]  # left, top, right, bottom

# Runs inside one frame. Returns the element's border box, its content box (used when
# it is an iframe: where the child document starts), the overflow ancestors that clip
# it (outermost first) and the frame's own viewport size.
_LOCATE_JS = """
([sel, nth]) => {
  let els;
  const qsa = (sel) => sel.split(' >> ').reduce((roots, part) => roots.flatMap((r) => Array.from((r.shadowRoot || r).querySelectorAll(part))), [document]);
  try { els = qsa(sel); } catch (e) { return {error: String(e.message || e)}; }
  const el = els[nth];
  if (!el) return {missing: true, count: els.length};
  const r = el.getBoundingClientRect();
  const cs = getComputedStyle(el);
  const px = v => parseFloat(v) || 0;
  const cl = r.left + el.clientLeft + px(cs.paddingLeft), ct = r.top + el.clientTop + px(cs.paddingTop);
  const content = [cl, ct, cl + el.clientWidth - px(cs.paddingLeft) - px(cs.paddingRight),
                   ct + el.clientHeight - px(cs.paddingTop) - px(cs.paddingBottom)];
  const clips = [];
  const de = document.documentElement;
  for (let a = el.parentElement; a && a !== document.body && a !== de; a = a.parentElement) {
    const s = getComputedStyle(a);
    if (s.overflowX === 'visible' && s.overflowY === 'visible') continue;
    const ar = a.getBoundingClientRect();
    const l = ar.left + a.clientLeft, t = ar.top + a.clientTop;
    clips.unshift([l, t, l + a.clientWidth, t + a.clientHeight]);
  }
  const txt = (el.getAttribute('aria-label') || (el.labels && el.labels[0] && el.labels[0].innerText)
               || el.innerText || el.getAttribute('placeholder') || el.getAttribute('title')
               || el.getAttribute('alt') || el.getAttribute('name') || el.id || el.tagName.toLowerCase());
  return {rect: [r.left, r.top, r.right, r.bottom], content, clips,
          vw: de.clientWidth || innerWidth, vh: de.clientHeight || innerHeight,
          tag: el.tagName.toLowerCase(), label: String(txt).replace(/\\s+/g, ' ').trim().slice(0, 60)};
}
"""

# A point of the main document where a wheel scrolls the page itself, not an iframe
# or an inner scroll box (a real model aims at page background, not at a widget).
_PAGE_SCROLL_POINT_JS = """
(cands) => {
  const scrolls = a => { const s = getComputedStyle(a);
    return /(auto|scroll)/.test(s.overflowY + s.overflowX) && (a.scrollHeight > a.clientHeight + 1 || a.scrollWidth > a.clientWidth + 1); };
  for (const [x, y] of cands) {
    let a = document.elementFromPoint(x, y), ok = true;
    for (; a && a !== document.body && a !== document.documentElement; a = a.parentElement) {
      if (a.tagName === 'IFRAME' || a.tagName === 'FRAME' || a.tagName === 'EMBED' || scrolls(a)) { ok = false; break; }
    }
    if (ok) return [x, y];
  }
  return cands[0];
}
"""

_READ_JS = """
([sel, nth, attr]) => {
  const qsa = (sel) => sel.split(' >> ').reduce((roots, part) => roots.flatMap((r) => Array.from((r.shadowRoot || r).querySelectorAll(part))), [document]);
  const el = qsa(sel)[nth];
  if (!el) return null;
  if (attr === 'text') return (el.innerText || el.textContent || '').replace(/\\s+/g, ' ').trim();
  if (attr === 'value') return el.value == null ? '' : String(el.value);
  const v = el.getAttribute(attr);
  return v == null ? '' : v;
}
"""

_STATE_JS = """
([sel, nth]) => {
  const qsa = (sel) => sel.split(' >> ').reduce((roots, part) => roots.flatMap((r) => Array.from((r.shadowRoot || r).querySelectorAll(part))), [document]);
  const el = qsa(sel)[nth];
  if (!el) return null;
  const r = el.getBoundingClientRect();
  const shown = el.checkVisibility ? el.checkVisibility({visibilityProperty: true, opacityProperty: true})
                                   : (r.width > 0 && r.height > 0);
  return {visible: !!shown && r.width > 0 && r.height > 0,
          value: el.value == null ? null : String(el.value),
          text: el.innerText || el.textContent || '', checked: !!el.checked};
}
"""

# Where the n-th option of a native <select> would be drawn if its list opened below
# it (what a model guesses when it has no select action), and which option that is.
_OPTION_JS = """
([sel, nth, wanted]) => {
  const qsa = (sel) => sel.split(' >> ').reduce((roots, part) => roots.flatMap((r) => Array.from((r.shadowRoot || r).querySelectorAll(part))), [document]);
  const el = qsa(sel)[nth];
  if (!el || !el.options) return null;
  const norm = s => s.normalize('NFKD').replace(/[\\u0300-\\u036f]/g, '').toLowerCase().replace(/[^a-z0-9]+/g, ' ').trim();
  const opts = Array.from(el.options).map(o => [o.text.trim(), o.value]);
  const w = norm(wanted);
  let i = opts.findIndex(([t, v]) => t === wanted || v === wanted);
  if (i < 0) i = opts.findIndex(([t]) => norm(t) === w);
  if (i < 0) i = opts.findIndex(([t]) => { const n = norm(t); return n && (n.includes(w) || w.includes(n)); });
  return {index: i, label: i >= 0 ? opts[i][0] : null, height: el.getBoundingClientRect().height};
}
"""


class GroundingError(ValueError):
    """A plan locator that cannot be used at all (bad selector, frame without a document)."""


@dataclass
class Located:
    """A target as the oracle sees it, in CSS px of the main viewport."""

    rect: Rect
    regions: list[Rect]  # clipping regions, outermost first (regions[0] = main viewport)
    frame: Frame
    selector: str
    nth: int
    label: str = ""
    tag: str = ""
    main_viewport: tuple[float, float] = (0.0, 0.0)  # window.innerWidth/innerHeight of the page
    frames_crossed: int = 0
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def centre(self) -> tuple[float, float]:
        left, top, right, bottom = self.rect
        return (left + right) / 2, (top + bottom) / 2


def _shift(r: Rect, dx: float, dy: float) -> Rect:
    return (r[0] + dx, r[1] + dy, r[2] + dx, r[3] + dy)


def _rect(v: list[float]) -> Rect:
    return (float(v[0]), float(v[1]), float(v[2]), float(v[3]))


def intersect(a: Rect, b: Rect) -> Rect:
    return (max(a[0], b[0]), max(a[1], b[1]), min(a[2], b[2]), min(a[3], b[3]))


def area(r: Rect) -> float:
    return max(0.0, r[2] - r[0]) * max(0.0, r[3] - r[1])


def contains(r: Rect, x: float, y: float, margin: float = 0.0) -> bool:
    return r[0] + margin <= x <= r[2] - margin and r[1] + margin <= y <= r[3] - margin


async def true_viewport(page: Page) -> tuple[float, float]:
    """The viewport as the screenshot shows it: read in the harness's isolated world, where a
    page that lies about innerWidth (the hostile suite) cannot fool the oracle either."""
    from webfovea.browser.world import worlds

    w = worlds(page)
    vw, vh = await w.call(await w.main(), "() => [innerWidth, innerHeight]")
    return float(vw), float(vh)


def _parse_locator(loc: dict[str, Any]) -> tuple[list[str], str, int]:
    if not isinstance(loc, dict) or not isinstance(loc.get("selector"), str):
        raise GroundingError(f"a locator needs a 'selector' string, got {loc!r}")
    frames = loc.get("frame") or []
    if isinstance(frames, str):
        frames = [frames]
    return list(frames), loc["selector"], int(loc.get("nth", 0) or 0)


async def resolve_frame(page: Page, chain: list[str]) -> tuple[Frame, list[dict[str, Any]]] | None:
    """Walk the iframe chain; returns the innermost frame and each iframe element's geometry."""
    frame = page.main_frame
    hops: list[dict[str, Any]] = []
    for sel in chain:
        info = await frame.evaluate(_LOCATE_JS, [sel, 0])
        if info.get("error"):
            raise GroundingError(f"bad frame selector {sel!r}: {info['error']}")
        if info.get("missing"):
            return None
        handle = await frame.query_selector(sel)
        child = await handle.content_frame() if handle else None
        if handle:
            await handle.dispose()
        if child is None:
            return None
        hops.append(info)
        frame = child
    return frame, hops


async def locate(page: Page, loc: dict[str, Any]) -> Located | None:
    """The target's box and clipping regions in main-viewport CSS px; None when it is not there."""
    chain, selector, nth = _parse_locator(loc)
    resolved = await resolve_frame(page, chain)
    if resolved is None:
        return None
    frame, hops = resolved
    info = await frame.evaluate(_LOCATE_JS, [selector, nth])
    if info.get("error"):
        raise GroundingError(f"bad selector {selector!r}: {info['error']}")
    if info.get("missing"):
        return None
    main_vw, main_vh = await true_viewport(page)
    infos = [*hops, info]  # infos[k] was measured inside frame k (0 = main document)
    regions: list[Rect] = [(0.0, 0.0, float(infos[0]["vw"]), float(infos[0]["vh"]))]
    dx = dy = 0.0
    for k, hop in enumerate(hops):
        regions.extend(_shift(_rect(c), dx, dy) for c in hop["clips"])
        dx, dy = hop["content"][0] + dx, hop["content"][1] + dy
        # The child document starts at its iframe's content box; its viewport size
        # (scrollbars excluded) was measured inside the child.
        child = infos[k + 1]
        regions.append((dx, dy, dx + float(child["vw"]), dy + float(child["vh"])))
    regions.extend(_shift(_rect(c), dx, dy) for c in info["clips"])
    return Located(
        rect=_shift(_rect(info["rect"]), dx, dy),
        regions=regions,
        frame=frame,
        selector=selector,
        nth=nth,
        label=info.get("label", ""),
        tag=info.get("tag", ""),
        main_viewport=(float(main_vw), float(main_vh)),
        frames_crossed=len(hops),
    )


def in_view(loc: Located, *, whole: bool = False, margin: float = 3.0) -> bool:
    """True when the target's centre (or, with whole=True, its whole box as far as it fits)
    is inside every clipping region: what a model would see on the screenshot."""
    return _first_hidden(loc, whole, margin) is None


def _first_hidden(loc: Located, whole: bool, margin: float = 3.0) -> tuple[float, float] | None:
    for i, (x, y) in enumerate(_probe_points(loc, whole)):
        # The centre must sit clearly inside; the edges only need to be on screen.
        m = margin if i == 0 else 0.0
        if not all(contains(r, x, y, m) for r in loc.regions):
            return x, y
    return None


def _probe_points(loc: Located, whole: bool) -> list[tuple[float, float]]:
    cx, cy = loc.centre
    if not whole:
        return [(cx, cy)]
    visible = loc.regions[0]
    for r in loc.regions[1:]:
        visible = intersect(visible, r)
    left, top, right, bottom = loc.rect
    # Points just inside the box's corners; a box larger than what can be shown at once
    # only needs the band around its centre.
    half_w = min((right - left) / 2 * 0.8, max(0.0, (visible[2] - visible[0]) / 2 - 4))
    half_h = min((bottom - top) / 2 * 0.8, max(0.0, (visible[3] - visible[1]) / 2 - 4))
    return [(cx, cy), (cx - half_w, cy - half_h), (cx + half_w, cy + half_h)]


@dataclass
class ScrollMove:
    point: tuple[float, float]  # CSS px of the main viewport where the wheel should turn
    direction: str  # up / down / left / right
    main_page: bool  # the main document scrolls (the point must avoid iframes and scroll boxes)


def scroll_plan(loc: Located, *, whole: bool = False, min_side: float = 24.0) -> ScrollMove | None:
    """The scroll that brings the target closer to view, or None when it is in view.

    The innermost region hiding the target is scrolled, at the centre of its visible
    part. If that region is itself out of sight, the region around it is scrolled
    towards it first.
    """
    hidden = _first_hidden(loc, whole)
    if hidden is None:
        return None
    x, y = hidden
    margin = 3.0 if hidden == loc.centre else 0.0
    k = max(i for i, r in enumerate(loc.regions) if not contains(r, x, y, margin))
    while True:
        region = loc.regions[k]
        visible = region
        for outer in loc.regions[:k]:
            visible = intersect(visible, outer)
        big_enough = visible[2] - visible[0] >= min_side and visible[3] - visible[1] >= min_side
        # The region that would scroll is out of sight: bring it into view first.
        rx, ry = (region[0] + region[2]) / 2, (region[1] + region[3]) / 2
        hiding = [i for i in range(k) if not contains(loc.regions[i], rx, ry, 0.0)]
        if k == 0 or big_enough or not hiding:
            return ScrollMove(
                point=((visible[0] + visible[2]) / 2, (visible[1] + visible[3]) / 2),
                direction=_direction(region, x, y),
                main_page=k == 0,
            )
        x, y, k = rx, ry, max(hiding)


def _direction(region: Rect, x: float, y: float) -> str:
    if y > region[3] - 3:
        return "down"
    if y < region[1] + 3:
        return "up"
    return "right" if x > region[2] - 3 else "left"


async def page_scroll_point(page: Page, near: tuple[float, float]) -> tuple[float, float]:
    """A point over the main document's own background near `near` (wheel scrolls the page)."""
    vw, vh = await page.main_frame.evaluate(
        "[document.documentElement.clientWidth, document.documentElement.clientHeight]"
    )
    cands = [near] + [
        (vw * fx, vh * fy) for fy in (0.5, 0.3, 0.7, 0.15, 0.85) for fx in (0.5, 0.08, 0.92, 0.3, 0.7)
    ]
    x, y = await page.main_frame.evaluate(_PAGE_SCROLL_POINT_JS, [[float(a), float(b)] for a, b in cands])
    return float(x), float(y)


async def read_value(page: Page, source: dict[str, Any]) -> str | None:
    """The answer text as the DOM holds it right now; None when the source is not there."""
    chain, selector, nth = _parse_locator(source["target"])
    resolved = await resolve_frame(page, chain)
    if resolved is None:
        return None
    frame, _ = resolved
    raw = await frame.evaluate(_READ_JS, [selector, nth, source.get("attr") or "text"])
    if raw is None:
        return None
    text = str(raw)
    if source.get("regex"):
        m = re.search(source["regex"], text)
        text = "" if m is None else (m.group(1) if m.groups() else m.group(0))
    if source.get("decode") == "pua_font":
        text = _decode_pua(text, int(source.get("seed", 0)))
    return text.strip()


def _decode_pua(text: str, seed: int) -> str:
    # The rankings site owns the glyph mapping (the oracle reads what a person would see).
    return str(decode_pua(text, seed))


async def expectation_holds(page: Page, cond: dict[str, Any] | None) -> bool:
    """Evaluate a plan expectation (docs/contracts.md §1) against the live DOM."""
    if not cond:
        return True
    if "all" in cond:
        return all([await expectation_holds(page, c) for c in cond["all"]])
    if "url_contains" in cond:
        return str(cond["url_contains"]) in page.url
    chain, selector, nth = _parse_locator(cond.get("target"))  # type: ignore[arg-type]
    resolved = await resolve_frame(page, chain)
    if resolved is None:
        return False
    state = await resolved[0].evaluate(_STATE_JS, [selector, nth])
    if state is None:  # no such element: only "not visible" holds (a dialog or form removed)
        return cond.get("visible") is False and not {"value", "text_contains", "checked"} & set(cond)
    if "visible" in cond and bool(state["visible"]) != bool(cond["visible"]):
        return False
    if "value" in cond and (state["value"] or "").strip() != str(cond["value"]).strip():
        return False
    if "text_contains" in cond and str(cond["text_contains"]) not in state["text"]:
        return False
    if "checked" in cond and bool(state["checked"]) != bool(cond["checked"]):
        return False
    return True


async def option_slot(loc: Located, option: str) -> dict[str, Any] | None:
    """Which option of a native select matches `option`, and its height (for the fallback)."""
    slot = await loc.frame.evaluate(_OPTION_JS, [loc.selector, loc.nth, option])
    return slot if isinstance(slot, dict) else None
