"""Elements mode (seed 000 §6.3's hybrid as written): the screenshot window of vision mode and,
beside the current screenshot, a list of the interactive elements in view with the point of
each on that screenshot; a target is a point, as in vision mode.

The list is taken after the capture, in CSS pixels of the viewport (`observe`), and written in
the coordinates the model writes when its input is built (`model_input`, through the capture's
own mapping `Shot.to_model`), so a listed point clicked as written lands on its element, with
or without coordinate alignment and in every coordinate convention. Elements hidden, outside
the view or covered at their centre by another element are not listed.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass

from PIL import Image
from playwright.async_api import Page

from webfovea.config import HarnessConfig
from webfovea.models.base import ModelInput
from webfovea.observation import snapshot as snapshots
from webfovea.observation.history import History
from webfovea.observation.modes.base import ObservationMode, Seen, held_image, with_unchanged

MAX_ELEMENTS = 150
TITLE = "Interactive elements in the current screenshot (x, y: the point to act on, as you write points)"
NONE = "(no interactive element is in view)"

# One pass in the page: every interactive element whose centre is in the viewport and hits it.
_LIST_JS = """(max) => {
  const sel = 'a[href],button,input:not([type=hidden]),select,textarea,summary,[role=button],'
    + '[role=link],[role=checkbox],[role=radio],[role=tab],[role=menuitem],[role=option],'
    + '[role=combobox],[role=textbox],[role=switch],[onclick],[contenteditable=true],[tabindex]';
  const W = innerWidth, H = innerHeight, out = [];
  for (const el of document.querySelectorAll(sel)) {
    if (out.length >= max) break;
    const r = el.getBoundingClientRect();
    if (r.width < 2 || r.height < 2) continue;
    const x = r.left + r.width / 2, y = r.top + r.height / 2;
    if (x < 0 || y < 0 || x >= W || y >= H) continue;
    const hit = document.elementFromPoint(x, y);
    if (!hit || !(hit === el || el.contains(hit) || hit.contains(el))) continue;
    const tag = el.tagName.toLowerCase();
    const role = el.getAttribute('role') || (tag === 'input' ? 'input ' + (el.type || 'text')
      : ({a: 'link', textarea: 'textbox', select: 'select'})[tag] || tag);
    const name = (el.getAttribute('aria-label') || el.innerText || el.getAttribute('placeholder')
      || el.getAttribute('title') || el.getAttribute('alt') || el.value || '').replace(/\\s+/g, ' ').trim();
    out.push([role, name.slice(0, 80), x, y]);
  }
  return {w: W, h: H, items: out};
}"""


async def list_elements(page: Page) -> dict[str, object]:
    """The interactive elements in view: {w, h, items: [[role, name, css_x, css_y], ...]}."""
    try:
        found = await page.evaluate(_LIST_JS, MAX_ELEMENTS)
    except Exception:
        return {"w": 0, "h": 0, "items": []}  # a page mid-navigation: the next step lists again
    return found if isinstance(found, dict) else {"w": 0, "h": 0, "items": []}


def element_lines(listed: str | None, seen: Seen) -> str:
    """The list as the model reads it: one line per element, its point in the model's coordinates."""
    try:
        data = json.loads(listed or "{}")
    except ValueError:
        return NONE
    items = data.get("items") or []
    if not items:
        return NONE
    shot = seen.shot
    lines = []
    for role, name, x, y in items:
        mx, my = shot.to_model(float(x), float(y)) if shot is not None else (float(x), float(y))
        label = json.dumps(name, ensure_ascii=False) if name else "(no name)"
        lines.append(f"- {role} {label} at ({round(mx)}, {round(my)})")
    return "\n".join(lines)


@dataclass(frozen=True)
class ElementsMode(ObservationMode):
    async def observe(self, page: Page, config: HarnessConfig) -> snapshots.Snapshot | None:
        t0 = time.monotonic()
        text = json.dumps(await list_elements(page), ensure_ascii=False)
        size = len(text.encode())
        ms = (time.monotonic() - t0) * 1000
        return snapshots.Snapshot(full=text, text=text, url=page.url, bytes=size, shown_bytes=size, ms=ms)

    def remember(
        self, history: History, reply: str, image: Image.Image, snapshot: snapshots.Snapshot | None, step: int
    ) -> None:
        history.add(reply, image)  # only the current view's list is shown

    def model_input(self, history: History, seen: Seen) -> ModelInput:
        current = held_image(history, seen)
        return history.model_input(
            system=seen.system,
            task=seen.task,
            current=current,
            feedback=with_unchanged(seen.feedback, history.held),
            step=seen.step,
            snapshot=element_lines(seen.snapshot, seen),
            snapshot_title=TITLE,
        )


MODE = ElementsMode(
    name="elements",
    summary="screenshots and a list of the interactive elements in view with their points (the paper's hybrid)",
    image=True,
    snapshot=False,
    refs=False,
    points=True,
    intro="You see screenshots of a browser page at a fixed size and, beside the current one, a list of "
    "the interactive elements in view with the point of each on it",
)
