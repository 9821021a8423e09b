"""How `observe` and the action tools of one task are answered: each action call a step of
the task's harness, its feedback note the result. Shared by the one-task server and the
long-lived browser (`browser_server.py`), so both answer a call the same way."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Sequence
from typing import Any

import mcp_types as types

from webfovea.actions.spec import ActionSpec
from webfovea.harness import StepResult
from webfovea.mcp.task_session import McpTask, ObserveFailed, TaskClosed
from webfovea.mcp.tools import OBSERVE, ToolArgumentError, check_arguments, point_words
from webfovea.models.base import ToolCall
from webfovea.models.messages import png_base64
from webfovea.secrets import scrub_data, scrub_text


def text_result(
    text: str, *, error: bool = False, data: dict[str, Any] | None = None
) -> types.CallToolResult:
    return types.CallToolResult(
        content=[types.TextContent(text=text)], is_error=error, structured_content=data
    )


def scrubbed(result: types.CallToolResult) -> types.CallToolResult:
    """What the client is told, with every secret value replaced by its placeholder: the client
    is the model here, and the model never sees a value (webfovea/secrets.py)."""
    for c in result.content:
        if isinstance(c, types.TextContent):
            c.text = scrub_text(c.text)
    if result.structured_content is not None:
        result.structured_content = scrub_data(result.structured_content)
    return result


def _step_data(task: McpTask, res: StepResult) -> dict[str, Any]:
    return {
        "step": task.steps,
        "outcome": res.outcome,
        "done": task.closed,
        "status": task.result.status if task.closed else "running",
        "answer": task.result.answer if task.closed else None,
    }


def _step_text(task: McpTask, res: StepResult, url: str | None) -> str:
    """The harness's feedback note (it writes one when something needs saying: nothing changed,
    a read-back, a refusal), the page's URL, and how the task ended if it did."""
    text = res.feedback or (res.error or "Done.")
    if url and not task.closed:
        text += f"\nURL: {url}"
    if task.closed:
        text += "\n" + task.closed_note()
    return text


class TaskTools:
    """`observe` and one tool per offered action, answered for one task."""

    def __init__(self, task: McpTask, specs: Sequence[ActionSpec]) -> None:
        self.task = task
        self.by_name = {s.name: s for s in specs}

    async def observe(self) -> types.CallToolResult:
        task = self.task
        obs = await task.observe()
        # The encoding the model clients send (PNG), off the event loop: other calls keep moving.
        png = await asyncio.to_thread(png_base64, obs.image)
        h = task.harness
        w, h_px = obs.image.size
        note = (h.last_feedback if h is not None else None) or (
            "(no action yet)" if task.steps == 0 else "(nothing to report: it ran and the page reacted)"
        )
        text = (
            f"URL: {obs.url}\nStep: {task.steps} of at most {task.config.max_steps}\n"
            f"Image: {w}x{h_px} px; points are {point_words(task.config)}.\nLast action: {note}"
        )
        data = {
            "url": obs.url,
            "step": task.steps,
            "image_width": w,
            "image_height": h_px,
            "coordinates": task.config.coordinate_convention,
        }
        return types.CallToolResult(
            content=[types.ImageContent(data=png, mime_type="image/png"), types.TextContent(text=text)],
            structured_content=data,
        )

    async def step_result(self, res: StepResult, *, error: bool) -> types.CallToolResult:
        task = self.task
        url = task.harness.page.url if task.harness is not None and not task.closed else None
        out = text_result(_step_text(task, res, url), error=error, data=_step_data(task, res))
        attached = res.executed.outcome.response.attachments if res.executed is not None else []
        for a in attached:  # zoom's crop (any attachment) is the call's result, as a computer-tool zoom's is
            png = await asyncio.to_thread(png_base64, a.image)
            out.content.append(types.ImageContent(data=png, mime_type="image/png"))
        return out

    async def answer(self, name: str, args: dict[str, Any] | None, *extra: str) -> types.CallToolResult:
        """The call's result (secrets scrubbed); `extra`: further tool names the server offers."""
        return scrubbed(await self._answer(name, args, extra))

    async def _answer(
        self, name: str, args: dict[str, Any] | None, extra: Sequence[str]
    ) -> types.CallToolResult:
        task = self.task
        try:
            if name == OBSERVE:
                return await self.observe()
            spec = self.by_name.get(name)
            as_written = (
                f"Action: {name}({json.dumps(args or {}, ensure_ascii=False)})"  # recorded as raw_reply
            )
            if spec is None:
                offered = ", ".join([*extra, OBSERVE, *self.by_name])
                res = await task.reject(as_written, f"Unknown tool `{name}`. Tools: {offered}.")
                return await self.step_result(res, error=True)
            try:
                checked = check_arguments(spec, args, task.config)
            except ToolArgumentError as e:
                res = await task.reject(as_written, str(e))
                return await self.step_result(res, error=True)
            res = await task.act(ToolCall(f"mcp-{task.steps}", name, checked))
            failed = res.outcome in ("failed", "rejected") or (res.error is not None and not res.done)
            return await self.step_result(res, error=failed)
        except TaskClosed as e:
            return text_result(str(e), error=True, data={"done": True, "status": task.result.status})
        except ObserveFailed as e:
            return text_result(str(e), error=True)
