"""What is under a point, and the one sentence that names it in feedback notes."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from playwright.async_api import Page

from webfovea.browser.frames import frame_at_point, js, short_error
from webfovea.browser.world import PageUnresponsive, Remote, worlds
from webfovea.feedback.quote import page_text

_PICK = js("pick")

Point = tuple[float, float]


@dataclass(frozen=True)
class Where:
    """A point the harness acted at, in CSS pixels, and how to name any CSS point in the
    coordinates of the image the model was sent (`Shot.to_model`): the model reads points
    only in its own space, never the viewport's."""

    css: Point
    to_model: Callable[[float, float], Point] | None = None

    def shown(self, point: Point | None = None) -> Point:
        x, y = point if point is not None else self.css
        return self.to_model(x, y) if self.to_model is not None else (x, y)


@dataclass
class ElementInfo:
    x: float
    y: float
    ok: bool = True  # False when nothing could be found (error says why)
    tag: str = ""
    short: str = ""  # tag#id.class form
    role: str = ""
    name: str = ""  # accessible-ish name or visible text, at most 80 chars
    clickable: bool = False
    editable: bool = False
    is_select: bool = False
    in_svg_or_canvas: bool = False
    disabled: bool = False
    frame_url: str = ""
    is_child: bool = False
    covered_by: str | None = None  # a see-through overlay painted above the element
    error: str = ""

    def sentence(self, point: Point | None = None) -> str:
        """One sentence naming the element, e.g. for a 'nothing changed' note; `point` is the
        point in the model's image coordinates (default: the CSS point it was looked up at)."""
        px, py = point if point is not None else (self.x, self.y)
        where = f"The point ({round(px)}, {round(py)})"
        if not self.ok:
            return f"{where} could not be inspected ({self.error})."
        if not self.tag:
            return f"{where} is on no element of the page."
        what = f"<{self.tag}>"
        if self.role and self.role not in (self.tag, "textbox") and self.tag not in ("a", "button", "select"):
            what += f" (role {self.role})"
        if self.name:
            what += f" {page_text(self.name, 80)}"
        if self.is_select:
            kind = "a dropdown list; use select to choose an option"
        elif self.editable:
            kind = "an editable field"
        elif self.clickable:
            kind = "clickable"
        else:
            kind = "not clickable"
        if self.disabled:
            kind += ", disabled"
        text = f"{where} is on a {what} ({kind})"
        if self.in_svg_or_canvas:
            text += " inside a chart or drawing (SVG/canvas)"
        if self.is_child:
            text += f" inside the frame {self.frame_url}"
        if self.covered_by:
            text += f", under a transparent overlay <{self.covered_by}> that may catch clicks"
        return text + "."


async def describe_at(page: Page, x: float, y: float) -> ElementInfo:
    """The topmost element at (x, y), looking into frames and past see-through overlays."""
    hit = await frame_at_point(page, x, y)
    info = ElementInfo(x=x, y=y, frame_url=hit.url, is_child=hit.is_child)
    try:
        assert hit.ref is not None, "the page could not be inspected"
        d = await worlds(page).call(hit.ref, _PICK, {"op": "describe", "x": hit.local_x, "y": hit.local_y})
    except PageUnresponsive:
        raise
    except Exception as e:
        info.ok = False
        info.error = short_error(e)
        return info
    if not d:
        info.covered_by = hit.covered_by
        return info
    for key in (
        "tag",
        "short",
        "role",
        "name",
        "clickable",
        "editable",
        "is_select",
        "in_svg_or_canvas",
        "disabled",
    ):
        setattr(info, key, d.get(key) or type(getattr(info, key))())
    info.covered_by = d.get("covered_by") or hit.covered_by
    return info


# The topmost element at a point (into open shadow roots), and whether a held one is still it.
_TOP = """(x, y) => { let e = document.elementFromPoint(x, y);
  while (e && e.shadowRoot) { const d = e.shadowRoot.elementFromPoint(x, y); if (!d || d === e) break; e = d; }
  return e; }"""
_STILL = (
    """(held, x, y) => { const top = ("""
    + _TOP
    + """)(x, y);
  if (!top || top === held) return true;
  const act = 'a[href],button,input,select,textarea,label,summary,[role=button],[role=link],[role=menuitem],' +
    '[role=checkbox],[role=tab],[onclick],[tabindex]';
  const owner = (e) => (e.closest ? e.closest(act) : null);
  // Inside what the model aimed at (a control its hover revealed): still its target. Above it
  // from elsewhere, or its container taking over with another control: not.
  return held.contains(top) || (top.contains(held) && owner(top) === owner(held)); }"""
)


@dataclass
class Held:
    """The element under a point before the pointer arrived there."""

    chain: list[str]
    remote: Remote | None
    local: tuple[float, float]


async def hold_target(page: Page, x: float, y: float) -> Held | None:
    """Hold the element at (x, y) as the model saw it; None when it cannot be read."""
    try:
        hit = await frame_at_point(page, x, y)
        if hit.ref is None:
            return None
        remote = await worlds(page).handle(hit.ref, _TOP, hit.local_x, hit.local_y)
        return Held(list(hit.chain), remote, (hit.local_x, hit.local_y))
    except PageUnresponsive:
        raise
    except Exception:
        return None


async def target_swapped(page: Page, held: Held | None, x: float, y: float) -> ElementInfo | None:
    """After the pointer arrived: the element now at (x, y) when it is not the one held (another
    frame, or an element that is neither the held one nor shares its control), else None."""
    if held is None or held.remote is None:
        return None
    w = worlds(page)
    try:
        # Pointer moves reach the page with the next frame (rAF-aligned input): let it come.
        await w.animation_frames(2, timeout=0.5)
        hit = await frame_at_point(page, x, y)
        same = hit.chain == held.chain and bool(
            await w.call_on(held.remote, _STILL, hit.local_x, hit.local_y)
        )
    except PageUnresponsive:
        raise
    except Exception:
        return None  # the page went away under the pointer: the press will tell
    finally:
        await w.release(held.remote)
    return None if same else await describe_at(page, x, y)
