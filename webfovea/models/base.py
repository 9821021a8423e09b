"""What every model receives and returns. A model sees images and text only."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol

from PIL import Image


@dataclass
class ModelInput:
    system: str  # generated action/constraint prompt
    task: str  # the task instruction
    history: list[str]  # cleaned text of earlier replies (Thought/Action), oldest first
    images: list[Image.Image]  # last N screenshots as sent, oldest first; the last is the current view
    feedback: str | None  # the note about the last action, if any
    step: int  # 0-based step index
    # Structured/hybrid observation: the snapshot text exactly as the model is given it (None
    # in vision mode), and per earlier step the one-line stub its snapshot became.
    snapshot: str | None = None
    snapshot_stubs: list[str] = field(default_factory=list)


@dataclass
class Usage:
    prompt_tokens: int = 0
    completion_tokens: int = 0

    def to_json(self) -> dict[str, int]:
        return {"prompt_tokens": self.prompt_tokens, "completion_tokens": self.completion_tokens}


@dataclass
class ModelReply:
    text: str
    usage: Usage = field(default_factory=Usage)


class ModelError(RuntimeError):
    """The model could not produce a reply (after retries). Ends the task as a recorded failure."""


class Model(Protocol):
    async def next_reply(self, inp: ModelInput) -> ModelReply: ...

    async def aclose(self) -> None: ...
