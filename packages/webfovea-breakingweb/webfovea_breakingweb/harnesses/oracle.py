"""The one decision-maker every harness is measured with: the oracle, speaking each harness's
grammar from what that harness shows it. An instrument, not a model: it follows the task's plan
(docs/contracts.md §1) and grounds each target on the live page, read-only, as the webfovea oracle
grounds its points — but it names only what the harness put in front of it:

- text: a bid of the accessibility tree it was sent (the latest observation's text); a target
  whose bid that text does not show is scrolled to first (gym/plan_walker.py's `PlanBidAgent`);
- gui: a point of the screenshot it was sent, in its model family's coordinates (pixels, or the
  0–1000 grid, gym/viewports.py); a target whose centre lies outside the screenshot is scrolled
  to first. A fill is a click, a select-all and the typing; a select a click, the option's label
  typed and Enter, as a person does it with a keyboard.

It never clicks, types or scrolls itself: the harness runs what it answers.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Protocol

from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Locator, Page

from webfovea_breakingweb.gym.plan_steps import Step, answer_of, locate
from webfovea_breakingweb.gym.plan_walker import MAX_SCROLLS, PlanBidAgent, PlanWalker
from webfovea_breakingweb.gym.viewports import Viewport
from webfovea_breakingweb.harnesses.conversation import Sent

_ISO_DATE = re.compile(r"(\d{4})-(\d{2})-(\d{2})")
INSTRUMENT = (
    "The decision-maker is an instrument (the oracle: it follows each task's plan), not a model: "
    "these numbers measure the harnesses, not an agent."
)


class Decider(Protocol):
    def decide(self, sent: Sent) -> str: ...


def answer_action(page: Page, step: Step) -> str:
    """The answer read off the page; when what it reads is not there, it says it cannot."""
    try:
        return (
            f"send_msg_to_user({answer_of(page, step.get('source') or {'value': step.get('value', '')})!r})"
        )
    except PlaywrightError as e:
        return f"report_infeasible({('the answer is not on the page: ' + str(e).splitlines()[0])[:200]!r})"


def _date_as_shown(target: Locator, content: str) -> str | None:
    m = _ISO_DATE.fullmatch(content)
    if m is None or target.get_attribute("type") != "date":
        return None
    return f"{m.group(2)}{m.group(3)}{m.group(1)}"


GIVE_UP_AFTER = 3  # steps in a row with nothing to name: it says it cannot go on


def _not_found(e: Exception, misses: list[str]) -> str:
    """Nothing to name this step: look again (noop) a few times, then say so."""
    misses.append(str(e).splitlines()[0] if str(e) else type(e).__name__)
    if len(misses) < GIVE_UP_AFTER:
        return "noop()"
    return f"report_infeasible({('cannot find what to act on: ' + misses[-1])[:200]!r})"


class TextOracle:
    """The bid grammar, from the accessibility tree of the latest observation it was sent."""

    def __init__(self, plan: list[Step], page_of: Callable[[], Page]) -> None:
        self.agent = PlanBidAgent(plan, page_of)
        self.misses: list[str] = []

    def decide(self, sent: Sent) -> str:
        try:
            action, _ = self.agent.get_action({"axtree_txt": sent.messages[-1].text})
        except (PlaywrightError, LookupError) as e:  # what it reads is not there (yet)
            return _not_found(e, self.misses)
        self.misses.clear()
        return str(action)


class GuiOracle:
    """The coordinate grammar, from the screenshot it was sent (its size is the view)."""

    def __init__(self, plan: list[Step], page_of: Callable[[], Page], viewport: Viewport) -> None:
        self.walker = PlanWalker(plan)
        self.page_of = page_of
        self.viewport = viewport
        self.queue: list[str] = []  # the rest of a step spoken as several actions
        self.pending: Step | None = None
        self.scrolls = 0
        self.misses: list[str] = []

    def decide(self, sent: Sent) -> str:
        try:
            action = self._decide(sent)
        except (PlaywrightError, LookupError) as e:
            return _not_found(e, self.misses)
        if action != "noop()":
            self.misses.clear()
        return action

    def _decide(self, sent: Sent) -> str:
        shot = sent.messages[-1].image
        if shot is None:
            raise ValueError("the GUI oracle was sent no screenshot")
        if self.queue:
            return self.queue.pop(0)
        page = self.page_of()
        step = self.pending or self.walker.next_step(page)
        self.pending = None
        if step is None:
            return "noop()"
        if step["op"] == "answer":
            return answer_action(page, step)
        if step["op"] == "press":  # the field just filled still has the focus
            return f"keyboard_press({str(step['key'])!r})"
        w, h = int(shot.shape[1]), int(shot.shape[0])
        target = locate(page, step["target"])
        box = target.bounding_box()
        if box is None:
            return self._scroll_or(step, w, h, 0)
        cx, cy = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
        if not (0 <= cx < w and 0 <= cy < h):  # not in the screenshot: bring it into view first
            return self._scroll_or(step, w, h, round(cy - h / 2))
        self.scrolls = 0
        op = step["op"]
        typed = str(step.get("content", ""))
        if op == "fill" and (shown := _date_as_shown(target, typed)) is not None:
            # A date field shows mm/dd/yyyy: click its first segment, type the digits in that order.
            cx, typed = box["x"] + min(12.0, box["width"] / 4), shown
        x, y = self._point(cx, cy)
        at = f"{x}, {y}"
        if op == "fill":
            self.queue = ["keyboard_press('Control+a')", f"keyboard_type({typed!r})"]
        elif op == "select":
            self.queue = [f"keyboard_type({str(step['option'])!r})", "keyboard_press('Enter')"]
        elif op == "hover":
            return f"mouse_move({at})"
        elif op != "click":
            raise ValueError(f"plan op {op!r} has no coordinate action")
        return f"mouse_click({at})"

    def _scroll_or(self, step: Step, w: int, h: int, dy: int) -> str:
        if self.scrolls >= MAX_SCROLLS or dy == 0:
            self.scrolls = 0
            return "noop()"  # it cannot see the target: nothing to point at
        self.pending, self.scrolls = step, self.scrolls + 1
        x, y = self._point(w / 2, h / 2)
        return f"scroll_at({x}, {y}, 0, {dy})"

    def _point(self, px: float, py: float) -> tuple[float, float]:
        vp = self.viewport
        if vp.grid is None:
            return round(px, 1), round(py, 1)
        return round(px * vp.grid / vp.width, 1), round(py * vp.grid / vp.height, 1)
