"""The Anthropic conversation of one task: append-only, compacted, with cache breakpoints.

A sliding window of the last five screenshots changes the start of the prompt at every
step (the oldest image leaves), so a provider's prefix cache never hits. Here the
conversation only grows: each step appends the model's turn (its text and tool calls)
and one user turn (the result of every tool call, the new screenshot, the request for
the next step). Every `compact_every` steps all screenshots but the latest become one
fixed line of text in one go, so the prefix changes once per N steps, not every step. A
screenshot identical to the previous one is not sent again (one line says so). An image
the last action produced (zoom's crop) rides in that action's tool_result, as Claude's
computer tool expects for its own zoom; after a text-grammar reply it precedes the screenshot.

Breakpoints (at most three of the API's four): the end of tools + system (stable for the
whole task), the end of the history as of the last compaction, and the end of this
request (read back at the next step, found by the API's 20-block look-back).
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import Any

from webfovea.models.base import ModelInput, ToolCall
from webfovea.models.messages import closing_text, image_label, png_base64

STUB = "[earlier screenshot removed to save context; the text history above still describes it]"
SAME = "The page looks the same as in the previous screenshot."
NOT_EXECUTED = "Not executed: only the first tool call of a reply is executed (one action per step)."
_EPHEMERAL = {"type": "ephemeral"}


def image_block(data: str) -> dict[str, Any]:
    return {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": data}}


THINKING = ("thinking", "redacted_thinking")


@dataclass
class Reply:
    """The last response, kept until the next step shows it back."""

    text: str
    calls: list[ToolCall]
    thinking: list[dict[str, Any]]
    cut_off: bool


class Transcript:
    """The messages sent so far, as the API got them (without cache_control)."""

    def __init__(self) -> None:
        self.messages: list[dict[str, Any]] = []
        self._pending_tools: list[ToolCall] = []  # the last model turn's calls, each owed a result
        self._last_image: str | None = None
        self._compacted_at: int | None = None  # index of the last message before the last compaction
        self._reply: Reply | None = None  # the last response, shown at the next step
        self._cut_off = False  # the last model turn was cut off: its calls are answered as errors
        self.steps = 0

    def got_reply(
        self,
        text: str,
        tool_calls: list[ToolCall],
        content: list[dict[str, Any]] | None = None,
        cut_off: str | None = None,
    ) -> None:
        """Keep the response; it joins the conversation at the next step, when the harness's
        cleaned text of it (ModelInput.history[-1]) is known. `content`: the response's blocks,
        whose thinking blocks go back unchanged."""
        thinking = [copy.deepcopy(b) for b in content or [] if b.get("type") in THINKING]
        self._reply = Reply(text, list(tool_calls), thinking, cut_off is not None)

    def record_reply(
        self,
        text: str,
        tool_calls: list[ToolCall],
        cleaned: str | None = None,
        thinking: list[dict[str, Any]] | None = None,
    ) -> None:
        """The model's turn as it will be shown back: its thinking blocks unchanged and in order
        (the API requires them back in a tool-use turn, signature and all), then its text and
        tool calls (text grammar: the cleaned reply, so a dropped continuation is never re-read
        as the model's own)."""
        blocks: list[dict[str, Any]] = list(thinking or [])
        shown = text if tool_calls else (cleaned if cleaned is not None else text)
        if shown.strip():
            blocks.append({"type": "text", "text": shown})
        for call in tool_calls:
            blocks.append({"type": "tool_use", "id": call.id, "name": call.name, "input": call.input})
        if not any(b.get("type") not in THINKING for b in blocks):
            blocks.append({"type": "text", "text": "(empty reply)"})
        self.messages.append({"role": "assistant", "content": blocks})
        self._pending_tools = list(tool_calls)

    def compact(self) -> None:
        """Replace every image sent so far (zoom crops inside tool results too) by the stub, in one go."""
        for msg in self.messages:
            _stub_images(msg["content"])
        self._compacted_at = len(self.messages) - 1
        self._last_image = None  # "same as before" must not point at a removed image

    def user_turn(self, inp: ModelInput) -> None:
        """Append this step's user turn: results owed, the screenshot, the request."""
        blocks: list[dict[str, Any]] = []
        if not self.messages:
            blocks.append({"type": "text", "text": f"## Task\n{inp.task.strip()}"})
        attached: list[dict[str, Any]] = []
        for a in inp.attachments:
            attached += [{"type": "text", "text": a.label}, image_block(png_base64(a.image))]
        if self._pending_tools:
            first, *rest = self._pending_tools
            note = (inp.feedback or "").strip() or "Done."
            content: str | list[dict[str, Any]] = (
                [{"type": "text", "text": note}, *attached] if attached else note
            )
            attached = []
            result: dict[str, Any] = {"type": "tool_result", "tool_use_id": first.id, "content": content}
            if self._cut_off:  # the call was cut off mid-way and never ran
                result["is_error"] = True
            blocks.append(result)
            blocks += [
                {"type": "tool_result", "tool_use_id": c.id, "content": NOT_EXECUTED, "is_error": True}
                for c in rest
            ]
        elif inp.feedback and self.messages:
            blocks.append(
                {"type": "text", "text": f"## What happened after your last action\n{inp.feedback.strip()}"}
            )
        self._pending_tools, self._cut_off = [], False
        blocks += attached
        step = inp.step + 1
        if inp.images:
            data = png_base64(inp.images[-1])
            if data == self._last_image:
                blocks.append({"type": "text", "text": f"Step {step}: {SAME}"})
            else:
                blocks.append({"type": "text", "text": image_label(step, True)})
                blocks.append(image_block(data))
            self._last_image = data
        blocks.append({"type": "text", "text": closing_text(inp)})
        self.messages.append({"role": "user", "content": blocks})
        self.steps += 1

    def next_request(self, inp: ModelInput) -> list[dict[str, Any]]:
        """The messages for this step (compacting first when a compaction point is reached)."""
        if self._reply is not None:
            r = self._reply
            self.record_reply(r.text, r.calls, inp.history[-1] if inp.history else None, r.thinking)
            self._cut_off = r.cut_off
            self._reply = None
        every = max(1, inp.compact_every)
        if inp.step > 0 and inp.step % every == 0 and self.messages:
            self.compact()
        self.user_turn(inp)
        return self.with_breakpoints()

    def with_breakpoints(self) -> list[dict[str, Any]]:
        msgs = copy.deepcopy(self.messages)
        marks = [len(msgs) - 1]
        if self._compacted_at is not None and self._compacted_at < len(msgs) - 1:
            marks.insert(0, self._compacted_at)
        for index in marks:
            msgs[index]["content"][-1]["cache_control"] = dict(_EPHEMERAL)
        return msgs


def _stub_images(content: list[dict[str, Any]]) -> None:
    for i, block in enumerate(content):
        if block.get("type") == "image":
            content[i] = {"type": "text", "text": STUB}
        elif block.get("type") == "tool_result" and isinstance(block.get("content"), list):
            _stub_images(block["content"])


def system_blocks(text: str, *, cache: bool) -> list[dict[str, Any]]:
    block: dict[str, Any] = {"type": "text", "text": text}
    if cache:
        block["cache_control"] = dict(_EPHEMERAL)
    return [block]
