"""What the model is shown at each step: the prompt, the task, the text history, a window of
the last N screenshots, and the feedback on its last reply.

The text history is kept whole (it is small and carries the model's own plan) until the
context nears the model's budget; then `observation/compress.py` replaces the older turns
by a summary (`summary`, covering the steps before `first_step`). Images are the expensive
part, so only the last `screenshot_window` are sent.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from PIL import Image

from webfovea.models.base import ModelInput


@dataclass
class History:
    window: int
    replies: list[str] = field(default_factory=list)  # cleaned Thought/Action text per step
    images: list[Image.Image] = field(default_factory=list)
    summary: str | None = None  # stands for the steps before `first_step` once compressed
    first_step: int = 1  # 1-based step number of replies[0]
    # Only the latest snapshot stays in context; each earlier one becomes this one-line stub.
    stubs: list[str] = field(default_factory=list)
    # The last input held back an unchanged screenshot (unchanged_view_text): the window already
    # ends with that view, so the step keeps no copy of the image it did not send.
    held: bool = False

    def add(self, reply: str, image: Image.Image | None, stub: str = "") -> None:
        self.replies.append(reply)
        self.stubs.append(stub)
        if image is not None and not self.held:
            self.images.append(image)
            self.images = self.images[-max(self.window, 1) :]
        self.held = False  # read once: the step after this one decides afresh

    def replace_older(self, keep: int, summary: str) -> int:
        """Keep the last `keep` replies verbatim; `summary` stands for the rest. Returns how many went."""
        keep = max(0, min(keep, len(self.replies)))
        dropped = len(self.replies) - keep
        self.replies = self.replies[dropped:]
        self.first_step += dropped
        self.summary = summary
        return dropped

    def model_input(
        self,
        *,
        system: str,
        task: str,
        current: Image.Image | None,
        feedback: str | None,
        step: int,
        snapshot: str | None = None,
        snapshot_title: str | None = None,
    ) -> ModelInput:
        images = list(self.images[-(self.window - 1) :]) if self.window > 1 and current is not None else []
        if current is not None:
            images.append(current)
        elif self.held:  # the view did not change: the window as it was, the last image still the view
            images = list(self.images[-max(self.window, 1) :])
        return ModelInput(
            system=system,
            task=task,
            history=list(self.replies),
            images=images,
            feedback=feedback,
            step=step,
            summary=self.summary,
            history_start=self.first_step,
            snapshot=snapshot,
            snapshot_stubs=list(self.stubs) if any(self.stubs) else [],
            snapshot_title=snapshot_title,
        )
