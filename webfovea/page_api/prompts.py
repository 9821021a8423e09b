"""What the model is told for each call (as the task of one step), and how an `observe` reply is
read into separate actions. The system prompt, the screenshot and the actions on offer are the
harness's own (`Harness.model_input`), so a reply is read and executed as in a task."""

from __future__ import annotations

import re

from webfovea.models.base import ModelReply, ToolCall
from webfovea.quoting import page_text

# One line of an observe reply that names an action ("Action: click(...)" or "2. click(...)").
_ACTION_LINE = re.compile(
    r"^\s*(?:[-*]|\d+[.)])?\s*(?:Action:\s*)?(?P<call>[a-z_]+\(.*\))\s*$", re.IGNORECASE
)


def act_task(instruction: str) -> str:
    return (
        f"Do this on the page, and only this: {page_text(instruction, 1000)}. Take the action that does it "
        "now; once it is done, call finished() with a short note of what you did."
    )


def extract_task(instruction_with_schema: str) -> str:
    return (
        "Read from the page, without changing it (scroll or zoom only if what you need is not in "
        f"view): {instruction_with_schema}"
    )


def observe_task(instruction: str, limit: int) -> str:
    return (
        f"Do not act. List up to {limit} actions on this page that would do: {page_text(instruction, 1000)}. "
        "Write each on its own line as `Action: <call>` in the action format, best first, and "
        "nothing is executed."
    )


def observed_calls(reply: ModelReply, limit: int) -> list[tuple[str, list[ToolCall] | None]]:
    """The separate actions of an observe reply, each as (reply text, tool calls) for the
    harness's parser: every tool call, else every line that holds a call."""
    if reply.tool_calls:
        return [("", [c]) for c in reply.tool_calls[:limit]]
    found: list[tuple[str, list[ToolCall] | None]] = []
    for line in reply.text.splitlines():
        m = _ACTION_LINE.match(line)
        if m is not None:
            found.append((f"Action: {m.group('call')}", None))
    return found[:limit]
