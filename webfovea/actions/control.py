"""Waiting, history and the answer: wait, back, reload, finished."""

from __future__ import annotations

import asyncio

from webfovea.actions.spec import ActionSpec, ExecContext, Outcome
from webfovea.config import Component
from webfovea.types import Action, ParamSpec

WAIT_SECONDS = 2.0


async def exec_wait(ctx: ExecContext, action: Action) -> Outcome:
    await asyncio.sleep(WAIT_SECONDS)
    return Outcome(note=f"Waited {WAIT_SECONDS:g} s.")


async def exec_back(ctx: ExecContext, action: Action) -> Outcome:
    try:
        resp = await ctx.page.go_back(wait_until="commit", timeout=ctx.config.settle_max_ms)
    except Exception as e:
        return Outcome(ok=False, check_change=False, note=f"back failed: {str(e).splitlines()[0]}")
    if resp is None and not ctx.page.url:
        return Outcome(ok=False, check_change=False, note="back: there is no earlier page in this tab.")
    return Outcome(navigated=True)


async def exec_reload(ctx: ExecContext, action: Action) -> Outcome:
    try:
        await ctx.page.reload(wait_until="commit", timeout=ctx.config.settle_max_ms)
    except Exception as e:
        return Outcome(ok=False, check_change=False, note=f"reload failed: {str(e).splitlines()[0]}")
    return Outcome(navigated=True, check_change=False, note="Reloaded the page.")


async def exec_finished(ctx: ExecContext, action: Action) -> Outcome:
    answer = str(action.args.get("content") or "").strip()
    return Outcome(done=True, answer=answer, check_change=False, note="Answer submitted.")


SPECS = [
    ActionSpec(
        name="wait",
        params=(),
        signature="wait()",
        purpose="Wait for the page to finish loading (about 2 seconds).",
        execute=exec_wait,
        feedback="How long it waited; if nothing changed, a note saying so.",
        manual="Wait for the page to finish loading.",
        retry_when="unchanged",  # a wait that moved the page is reading on
        uitars="wait()",
    ),
    ActionSpec(
        name="back",
        aliases=("go_back", "navigate_back"),
        params=(),
        signature="back()",
        purpose="Go back to the previous page in this tab.",
        execute=exec_back,
        component=Component.back_reload,
        budget=15,
        feedback="If nothing changed, a note that there was no earlier page.",
    ),
    ActionSpec(
        name="reload",
        aliases=("refresh",),
        watch=False,
        params=(),
        signature="reload()",
        purpose="Reload the current page (when it is stuck or failed to load).",
        execute=exec_reload,
        component=Component.back_reload,
        budget=2,
        feedback="That the page was reloaded.",
    ),
    ActionSpec(
        name="finished",
        aliases=("finish", "done"),
        watch=False,
        params=(ParamSpec("content", "answer", optional=True),),
        signature="finished(content='your answer')",
        purpose="Submit the answer and end the task (content='' if the answer cannot be reached).",
        execute=exec_finished,
        feedback="Ends the task; nothing further is shown.",
        ends_task=True,
        retry_when="never",  # the end of the run, never a loop
        uitars="finished(content={content})",
    ),
]
