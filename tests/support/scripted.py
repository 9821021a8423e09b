"""A model that answers from a list: the stand-in for a real model where a test needs exact
replies. It records every input it was shown, so a test can assert what the model saw."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from webfovea.models.base import ModelInput, ModelReply, Usage

FINISH = "Thought: x\nAction: finished(content='x')"


class ScriptedModel:
    """`then`: the reply once the list is used up (None: running out fails the test)."""

    can_verify = False  # a script cannot check an answer: the verifier stays off for it

    def __init__(
        self,
        replies: list[str],
        *,
        then: str | None = None,
        usage: Usage | None = None,
        on_call: Callable[[int, ModelInput], Awaitable[None]] | None = None,
    ) -> None:
        self.replies = list(replies)
        self.then = then
        self.usage = usage or Usage(1, 1)
        self.on_call = on_call
        self.calls = 0
        self.seen: list[ModelInput] = []

    async def next_reply(self, inp: ModelInput) -> ModelReply:
        self.calls += 1
        self.seen.append(inp)
        if self.on_call:
            await self.on_call(self.calls, inp)
        if self.replies:
            return ModelReply(self.replies.pop(0), self.usage)
        if self.then is None:
            raise AssertionError(f"the scripted model ran out of replies at call {self.calls}")
        return ModelReply(self.then, self.usage)

    async def aclose(self) -> None:
        pass


class PointingModel:
    """Replies written against CSS points of a 1920 px wide viewport, (action, point or None,
    the other arguments), mapped into the image it is sent; every input kept in `seen`."""

    can_verify = False

    def __init__(self, steps: list[tuple[str, tuple[float, float] | None, str]]) -> None:
        self.steps = list(steps)
        self.seen: list[ModelInput] = []

    async def next_reply(self, inp: ModelInput) -> ModelReply:
        self.seen.append(inp)
        action, point, rest = self.steps.pop(0)
        scale = inp.images[-1].width / 1920
        box = (
            f"start_box='<|box_start|>({point[0] * scale:.0f},{point[1] * scale:.0f})<|box_end|>', "
            if point
            else ""
        )
        return ModelReply(f"Thought: next\nAction: {action}({box}{rest})", Usage(1, 1))

    async def aclose(self) -> None:
        pass
