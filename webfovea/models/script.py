"""`script:FILE` — replies read from a file, one per step: try any page without a key.

A user who wants to see what the harness does on their page, without an API key, writes
the replies a model would write and runs them (`webfovea run --model script:steps.txt`).
Two layouts, told apart by the file's suffix:

- `.jsonl`: one JSON value per line, a string (the reply) or an object with a `reply` string;
- anything else: one reply per non-blank line; `\\n` in a line stands for a line break (so a
  `Thought: ...\\nAction: ...` reply fits on one line) and a line starting with `#` is a comment.

The replies are given in order to the task's act calls; when they run out the task ends with
a model error naming the file (a script never invents a step). It cannot be the verifier
(it would hand the verifier its next line), nor answer look/locate or summary calls.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from webfovea.models.base import ModelError, ModelInput, ModelReply, Usage
from webfovea.models.endpoint import ModelConfigError

MAX_SCRIPT_BYTES = 1 << 20  # a script is typed by hand; anything larger is the wrong file


def _text_replies(text: str) -> list[str]:
    lines = (line.strip() for line in text.splitlines())
    return [line.replace("\\n", "\n") for line in lines if line and not line.startswith("#")]


def _jsonl_replies(text: str, path: Path) -> list[str]:
    replies = []
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            value: Any = json.loads(line)
        except json.JSONDecodeError as e:
            raise ModelConfigError(f"script: {path} line {number} is not JSON ({e.msg})") from None
        if isinstance(value, dict):
            value = value.get("reply")
        if not isinstance(value, str):
            raise ModelConfigError(
                f'script: {path} line {number} must be a JSON string or an object {{"reply": "..."}}'
            )
        replies.append(value)
    return replies


def load_script(path: Path) -> list[str]:
    """The replies a script file holds, in order; a clear error for a missing, unreadable or
    empty file."""
    path = Path(path).expanduser()
    if not path.exists():
        raise ModelConfigError(f"script: {path} does not exist (script:FILE names a file of replies)")
    if not path.is_file():
        raise ModelConfigError(f"script: {path} is not a regular file")
    if path.stat().st_size > MAX_SCRIPT_BYTES:
        raise ModelConfigError(f"script: {path} is larger than {MAX_SCRIPT_BYTES} bytes")
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        raise ModelConfigError(f"script: {path} cannot be read ({e})") from None
    replies = _jsonl_replies(text, path) if path.suffix.lower() == ".jsonl" else _text_replies(text)
    if not replies:
        raise ModelConfigError(
            f"script: {path} holds no reply (write one reply per line, e.g. Action: finished(content='done'))"
        )
    return replies


class ScriptModel:
    """Gives the script's replies in order, then fails: a script never invents a step."""

    can_verify = False
    replays = "a script file"

    def __init__(self, path: Path) -> None:
        self.path = Path(path).expanduser()
        self.replies = load_script(self.path)
        self._next = 0

    @property
    def remaining(self) -> int:
        return len(self.replies) - self._next

    async def next_reply(self, inp: ModelInput) -> ModelReply:
        if inp.purpose != "act":
            raise ModelError(
                f"script: {self.path} holds the task's act replies only; it cannot answer a "
                f"{inp.purpose!r} call (route that role to a real model: docs/models.md)"
            )
        if self._next >= len(self.replies):
            raise ModelError(
                f"script exhausted after {len(self.replies)} replies ({self.path}); "
                "end it with Action: finished(content='...')"
            )
        text = self.replies[self._next]
        self._next += 1
        return ModelReply(text=text, usage=Usage(estimated=True))

    def quirks(self) -> list[dict[str, Any]]:
        return []

    async def aclose(self) -> None:
        return None

    def __repr__(self) -> str:
        return f"ScriptModel({str(self.path)!r}, {len(self.replies)} replies)"
