"""Plan ops that read: find_text, read_text, wait, and answer (the value read from the DOM now,
so a harness failure earlier yields a wrong answer)."""

from __future__ import annotations

from typing import Any

from pydantic import model_validator

from webfovea_proving_ground.oracle.grounding import Located, expectation_holds, in_view, locate, read_value
from webfovea_proving_ground.oracle.host import Emit, View
from webfovea_proving_ground.oracle.ops.base import OpContext, PlanOp, PlanStep
from webfovea_proving_ground.oracle.speech import call, thought
from webfovea_proving_ground.plan import Locator


class FindText(PlanStep):
    text: str
    target: Locator  # where the text is


class ReadText(PlanStep):
    near: str


class Wait(PlanStep):
    until: dict[str, Any] | None = None  # an expectation (docs/contracts.md §1)


class Answer(PlanStep):
    source: dict[str, Any] | None = None  # {target, attr, regex, decode, ...}
    value: str | None = None  # a literal, only for empty-answer tasks

    @model_validator(mode="after")
    def _one_of(self) -> Answer:
        if self.source is None and self.value is None:
            raise ValueError("an answer step needs a source or a value")
        return self


async def find_text(o: OpContext, step: FindText, view: View, index: int) -> Emit | None:
    loc = await locate(o.page, step.target)
    if loc is not None and in_view(loc):
        return None
    if view.prompt.offers("find_text") and o.state.attempts <= o.retries:
        # Not a "main" action: the step is done when the target is in view, not by `expect`.
        o.state.attempts += 1
        return Emit(
            thought("find_text", view.rng, text=step.text), call("find_text", text=step.text), main=False
        )
    got = await o.moves.reach(step.target, view, label=f"'{step.text}'")
    return None if isinstance(got, Located) else got


async def read_text(o: OpContext, step: ReadText, view: View, index: int) -> Emit | None:
    if not view.prompt.offers("read_text") or o.state.attempts > 0:
        return None
    return Emit(thought("read_text", view.rng, near=step.near), call("read_text", near=step.near))


async def wait(o: OpContext, step: Wait, view: View, index: int) -> Emit | None:
    if await expectation_holds(o.page, step.until):
        return None
    if o.state.waits >= int(o.knobs["max_waits_per_step"]) * 2 or not view.prompt.offers("wait"):
        return None
    o.state.waits += 1
    return Emit(thought("wait", view.rng), "wait()", main=False)


async def answer(o: OpContext, step: Answer, view: View, index: int) -> Emit | None:
    source = step.source
    if source is None:
        return o.finish(view, index, str(step.value))
    if o.refs.used(view):
        said = await o.refs.answer(source, view, index)
        if said is not None:
            return said
    # The thought must not name the value before the oracle "sees" it.
    got = await o.moves.reach(source["target"], view, whole=True, label="the value I need")
    if isinstance(got, Emit):
        return got
    if got is None:  # never saw it: a real model would not know the value either
        return o.finish(view, index, "", giveup=True)
    value = await o.misreads.answer_instead(o.page, source, index)
    if value == "":  # hidden under the dialog it left open
        return o.finish(view, index, "", giveup=True)
    if value is None:
        value = await read_value(o.page, source)
    return o.finish(view, index, value or "")


OPS = (
    PlanOp("find_text", FindText, find_text),
    PlanOp("read_text", ReadText, read_text),
    PlanOp("wait", Wait, wait),
    PlanOp("answer", Answer, answer),
)
