"""The oracle's plan operations: one method per plan step kind (click, hover, select, fill,
type, scroll_to, find_text, back, read_text, click_many, wait, answer), each turning the
current plan step into what a model would say next, from what the model was shown.

`OracleModel` (proving_ground/oracle/model.py) inherits them; `Emit` is one reply, `View` how the oracle
looks at the current screenshot."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from webfovea.proving_ground.oracle.grounding import (
    Located,
    expectation_holds,
    in_view,
    locate,
    option_slot,
    read_value,
)
from webfovea.proving_ground.oracle.speech import PromptView, call, describe, thought


@dataclass
class Emit:
    thought: str
    action: str
    main: bool = True  # the step's effective action: check `expect` on the next call
    has_argument: bool = False  # carries a text argument (contamination goes inside it)
    final: bool = False  # finished(...)


@dataclass
class View:
    """How the oracle looks at the current screenshot."""

    prompt: PromptView
    seen_w: int
    seen_h: int
    rng: random.Random
    snapshot: str | None = None  # the snapshot text it was given (structured/hybrid)
    feedback: str | None = None  # the note on its last action (find/snapshot results live here)
    has_image: bool = True


class PlanOps:
    """Mixed into OracleModel, which provides page, knobs, speak, _phase, _reach, _finish, …"""

    async def _op_click(self, step: dict[str, Any], view: View, index: int) -> Emit | None:
        target = await self._misreads.lookalike_target(self.page, step["target"], index)
        got = await self._reach_target(target, view, Emit)
        if not isinstance(got, tuple):
            return got
        loc, ref = got
        return Emit(
            thought("click", view.rng, label=describe(loc.label, loc.tag)),
            self.speak("click", **self._target_args(loc, ref, view, index)),
        )

    async def _op_hover(self, step: dict[str, Any], view: View, index: int) -> Emit | None:
        got = await self._reach_target(step["target"], view, Emit)
        if not isinstance(got, tuple):
            return got
        loc, ref = got
        name = "hover" if view.prompt.offers("hover") else "click"
        return Emit(
            thought(name, view.rng, label=describe(loc.label, loc.tag)),
            self.speak(name, **self._target_args(loc, ref, view, index)),
        )

    async def _op_select(self, step: dict[str, Any], view: View, index: int) -> Emit | None:
        target = await self._misreads.adjacent_target(self.page, step["target"], index)
        target = await self._misreads.lookalike_target(self.page, target, index)
        reached = await self._reach_target(target, view, Emit)
        if not isinstance(reached, tuple):
            return reached
        got, ref = reached
        option = str(step["option"])
        label = describe(got.label, got.tag)
        if view.prompt.offers("select"):
            return Emit(
                thought("select", view.rng, label=label, option=option),
                self.speak("select", **self._target_args(got, ref, view, index), option=option),
            )
        # No select action: do what a model does on a real site: open the list, then click
        # where the option would be drawn. On a native select this changes nothing.
        if self._phase == 0:
            self._phase = 1
            return Emit(
                thought("select_open", view.rng, label=label, option=option),
                call("click", start_box=self._point(got, view)),
                main=False,
            )
        slot = await option_slot(got, option) or {}
        row = max(0, int(slot.get("index", 0) or 0))
        x = got.centre[0]
        y = min(got.rect[3] + (row + 0.5) * float(self.knobs["option_row_px"]), got.main_viewport[1] - 4)
        return Emit(
            thought("select_pick", view.rng, option=slot.get("label") or option),
            call("click", start_box=self._point(got, view, (x, y))),
        )

    def _content(self, step: dict[str, Any], index: int) -> tuple[str, bool]:
        """The text to type, with the submitting newline; and whether Enter must follow separately."""
        content = str(step.get("content", ""))
        submit = bool(step.get("submit"))
        if submit and self.knobs["submit_with_newline"]:
            return content + "\n", False
        return content, submit

    async def _op_fill(self, step: dict[str, Any], view: View, index: int) -> Emit | None:
        target = await self._misreads.adjacent_target(self.page, step["target"], index)
        reached = await self._reach_target(target, view, Emit)
        if not isinstance(reached, tuple):
            return reached
        got, ref = reached
        content, enter_after = self._content(step, index)
        label = describe(got.label, got.tag)
        if view.prompt.offers("fill"):
            if self._phase == 1 and enter_after:
                return self._enter(view)
            written = self._quirks.in_argument(index, content)
            if enter_after and view.prompt.offers("hotkey"):
                self._phase = 1
                return Emit(
                    thought("fill", view.rng, label=label, content=step.get("content", "")),
                    self.speak("fill", **self._target_args(got, ref, view, index), content=written),
                    main=False,
                    has_argument=True,
                )
            return Emit(
                thought("fill", view.rng, label=label, content=step.get("content", "")),
                self.speak("fill", **self._target_args(got, ref, view, index), content=written),
                has_argument=True,
            )
        # No fill action: click into the field, then type.
        if self._phase == 0:
            self._phase = 1
            return Emit(
                thought("focus", view.rng, label=label),
                call("click", start_box=self._point(got, view)),
                main=False,
            )
        return self._type(step, view, index, next_phase=2)

    async def _op_type(self, step: dict[str, Any], view: View, index: int) -> Emit | None:
        return self._type(step, view, index, next_phase=1)

    def _type(self, step: dict[str, Any], view: View, index: int, *, next_phase: int) -> Emit:
        content, enter_after = self._content(step, index)
        if enter_after and self._phase == next_phase:
            return self._enter(view)
        written = self._quirks.in_argument(index, content)
        said = thought("type", view.rng, content=step.get("content", ""))
        if enter_after and view.prompt.offers("hotkey"):
            self._phase = next_phase
            return Emit(said, call("type", content=written), main=False, has_argument=True)
        return Emit(said, call("type", content=written), has_argument=True)

    def _enter(self, view: View) -> Emit:
        return Emit(thought("enter", view.rng), call("hotkey", key="enter"))

    async def _op_scroll_to(self, step: dict[str, Any], view: View, index: int) -> Emit | None:
        got = await self._reach(step["target"], view)
        return None if isinstance(got, Located) else got

    async def _op_find_text(self, step: dict[str, Any], view: View, index: int) -> Emit | None:
        loc = await locate(self.page, step["target"])
        if loc is not None and in_view(loc):
            return None
        if view.prompt.offers("find_text") and self._attempts <= self.retries:
            # Not a "main" action: the step is done when the target is in view, not by `expect`.
            self._attempts += 1
            return Emit(
                thought("find_text", view.rng, text=str(step["text"])),
                call("find_text", text=str(step["text"])),
                main=False,
            )
        got = await self._reach(step["target"], view, label=f"'{step['text']}'")
        return None if isinstance(got, Located) else got

    async def _op_back(self, step: dict[str, Any], view: View, index: int) -> Emit | None:
        if not view.prompt.offers("back"):
            return None
        return Emit("I have what I needed here; I'll go back to the previous page.", "back()")

    async def _op_read_text(self, step: dict[str, Any], view: View, index: int) -> Emit | None:
        if not view.prompt.offers("read_text") or self._attempts > 0:
            return None
        return Emit(
            thought("read_text", view.rng, near=str(step["near"])), call("read_text", near=str(step["near"]))
        )

    async def _op_click_many(self, step: dict[str, Any], view: View, index: int) -> Emit | None:
        located: list[Located] = []
        for target in step["targets"]:
            got = await self._reach(target, view)
            if not isinstance(got, Located):
                return got
            located.append(got)
        if not located:
            return None
        if view.prompt.offers("click_many"):
            return Emit(
                thought("click_many", view.rng),
                call("click_many", points=[self._point(loc, view) for loc in located]),
            )
        loc = located[min(self._phase, len(located) - 1)]
        last = self._phase >= len(located) - 1
        self._phase += 1
        return Emit(
            thought("click", view.rng, label=describe(loc.label, loc.tag)),
            call("click", start_box=self._point(loc, view)),
            main=last,
        )

    async def _op_wait(self, step: dict[str, Any], view: View, index: int) -> Emit | None:
        if await expectation_holds(self.page, step.get("until")):
            return None
        if self._waits >= int(self.knobs["max_waits_per_step"]) * 2 or not view.prompt.offers("wait"):
            return None
        self._waits += 1
        return Emit(thought("wait", view.rng), "wait()", main=False)

    async def _op_answer(self, step: dict[str, Any], view: View, index: int) -> Emit | None:
        if "value" in step and "source" not in step:
            return self._finish(view, index, str(step["value"]))
        source = step["source"]
        if self._refs(view):
            said = await self._answer_structured(step, view, index, Emit)
            if said is not None:
                return said
        # The thought must not name the value before the oracle "sees" it.
        got = await self._reach(source["target"], view, whole=True, label="the value I need")
        if isinstance(got, Emit):
            return got
        if got is None:  # never saw it: a real model would not know the value either
            return self._finish(view, index, "", giveup=True)
        value = await self._misreads.answer_instead(self.page, source, index)
        if value == "":  # hidden under the dialog it left open
            return self._finish(view, index, "", giveup=True)
        if value is None:
            value = await read_value(self.page, source)
        return self._finish(view, index, value or "")
