"""The routines a route can hand a step to instead of a model: each reads the page as it is
(never acts on it) and answers with a CSS point to act at, or why it found none.

- `visible_text`: a rule. The visible, topmost button or link (or `role=button`, an input
  button) whose text is exactly the route's text, case and spaces aside — a known banner's
  "Accept all". Read in the harness's isolated world, like every probe of the page.
- `template_point`: classical vision. The templates file's widget found in the viewport
  (vision/matching.py), at its `click` point: the best match.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from playwright.async_api import Page

from webfovea.actions.templates import find_in_view
from webfovea.browser.world import JSError, PageUnresponsive, worlds
from webfovea.vision.match import TemplateError
from webfovea.vision.templates import TemplateSet

_VISIBLE_TEXT = """(wanted) => {
  const norm = (s) => (s || '').replace(/\\s+/g, ' ').trim().toLowerCase();
  const want = norm(wanted);
  const sel = 'button, a, [role=button], input[type=button], input[type=submit]';
  for (const el of document.querySelectorAll(sel)) {
    const text = norm(el.tagName === 'INPUT' ? el.value : el.innerText);
    if (text !== want) continue;
    const r = el.getBoundingClientRect();
    if (r.width < 2 || r.height < 2) continue;
    const x = r.left + r.width / 2, y = r.top + r.height / 2;
    if (x < 0 || y < 0 || x >= innerWidth || y >= innerHeight) continue;
    const top = document.elementFromPoint(x, y);
    if (!top || !(top === el || el.contains(top))) continue;  // covered: not what a click reaches
    return [x, y];
  }
  return null;
}"""


_ELEMENT_AT = """(x, y) => {
  let el = document.elementFromPoint(x, y);
  const sel = 'button, a, [role=button], [role=link], input, select, label, li, td';
  const hit = el && el.closest(sel);
  el = hit || el;
  if (!el) return null;
  const r = el.getBoundingClientRect();
  const text = (el.tagName === 'INPUT' ? el.value : el.innerText) || el.getAttribute('aria-label') || '';
  return {box: [r.left, r.top, r.right, r.bottom], text: text.replace(/\\s+/g, ' ').trim().slice(0, 80)};
}"""


@dataclass(frozen=True)
class Hit:
    """The element under a point: its CSS box and its visible text (or label)."""

    box: tuple[float, float, float, float]
    text: str


async def element_at(page: Page, x: float, y: float) -> Hit | None:
    try:
        w = worlds(page)
        got = await w.call(await w.main(), _ELEMENT_AT, x, y, timeout=3.0)
    except (JSError, PageUnresponsive):
        return None
    if not isinstance(got, dict) or not isinstance(got.get("box"), list) or len(got["box"]) != 4:
        return None
    x1, y1, x2, y2 = (float(v) for v in got["box"])
    return Hit((x1, y1, x2, y2), str(got.get("text") or ""))


@dataclass(frozen=True)
class Found:
    """A routine's answer: the CSS point to act at and what it saw (the record's reason), or
    `point=None` and why not."""

    point: tuple[float, float] | None
    why: str
    detail: dict[str, Any] | None = None


async def visible_text(page: Page, text: str) -> Found:
    try:
        w = worlds(page)
        point = await w.call(await w.main(), _VISIBLE_TEXT, text, timeout=3.0)
    except (JSError, PageUnresponsive) as e:
        return Found(None, f"the page could not be read ({e})")
    if not isinstance(point, list) or len(point) != 2:
        return Found(None, f"no visible button or link reads {text!r}")
    x, y = float(point[0]), float(point[1])
    return Found((x, y), f"a visible button or link reads {text!r}")


async def template_point(page: Page, templates: TemplateSet, name: str, css: tuple[float, float]) -> Found:
    template = templates.get(name)
    if template is None:
        return Found(None, f"no template {name!r} (known: {', '.join(templates.names()) or 'none'})")
    try:
        found = await find_in_view(page, template, css, limit=1)
    except TemplateError as e:
        return Found(None, f"the template {name!r} cannot be searched: {e}")
    except TimeoutError:
        return Found(None, "the view could not be captured in time")
    if not found:
        return Found(None, f"the template {name!r} is not in the view")
    point, match = found[0]
    return Found(
        point,
        f"the template {name!r} matched (score {match.score:.2f}, scale {match.scale:.2f})",
        match.to_json(),
    )
