"""The files a task folder holds. Other tools (report, runner, replay) read these shapes.

Task folder layout (one per task, `<out>/<task_id>/`):
  result.json        TaskResult
  trajectory.jsonl   one StepRecord per line
  step_000.png       screenshot as sent to the model at step 0
  step_000_marked.png  same, with the executed point marked (red dot and ring)
  capture.json       passive request capture (runner), when enabled
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field

Status = Literal[
    "finished",  # the model called finished(content)
    "max_steps",  # step budget spent
    "timeout",  # wall-clock budget spent
    "scroll_breaker",  # too many scrolls with no page change
    "model_error",  # the model endpoint failed after retries
    "browser_error",  # browser crashed or disconnected
    "tool_timeout",  # three consecutive tool timeouts
    "page_unresponsive",  # the page's main thread stopped answering (endless script, dialog storm)
    "interrupted",  # Ctrl-C / cancelled
    "worker_lost",  # written by the runner's parent for a task whose worker died
    "error",  # anything else (message in `error`)
]


class UsageTotals(BaseModel):
    prompt_tokens: int = 0
    completion_tokens: int = 0
    model_calls: int = 0


class TaskResult(BaseModel):
    task_id: str
    status: Status
    answer: str | None = None  # finished(content); None when the task ended otherwise
    steps: int = 0
    seconds: float = 0.0
    usage: UsageTotals = Field(default_factory=UsageTotals)
    error: str | None = None
    task: str | None = None
    website: str | None = None
    model: str | None = None
    profile: str | None = None
    disabled: list[str] = Field(default_factory=list)
    started_at: str | None = None  # ISO time
    ended_at: str | None = None


class StepRecord(BaseModel):
    step: int
    raw_reply: str
    cleaned_reply: str
    thought: str = ""
    action: dict[str, Any] | None = None  # Action.to_json()
    rejection: str | None = None
    executed_point: list[float] | None = None  # CSS pixels [x, y] where the action landed
    executed_points: list[list[float]] | None = None  # click_many / drag
    feedback: str = ""
    changed: bool | None = None
    fallback_used: bool | None = None  # the iframe DOM fallback delivered the click
    fingerprint_before: dict[str, Any] | None = None
    fingerprint_after: dict[str, Any] | None = None
    usage: dict[str, int] = Field(default_factory=dict)
    screenshot: str | None = None  # file name of the image as sent
    screenshot_marked: str | None = None
    image_size: list[int] | None = None  # [w, h] of the image as sent
    seconds: float = 0.0
