"""What one action tells the model besides its note, and what its step record keeps of it.

An action's executor adds to `ctx.response` (in the spirit of Playwright MCP's `Response`,
which a tool fills with `addResult`/`addImage` and the server serialises once):

    ctx.response.show_screenshot()                 # the current screenshot, in any mode
    ctx.response.attach("zoom", label, image, info)  # an image of its own (zoom's crop)
    ctx.response.add_call(call)                    # a model call made inside the action
    ctx.response.add_note("...")                   # one more sentence after Outcome.note
    ctx.response.add_read("...")                   # page text the action read for the model

The harness hands the response to the observation mode, which builds the next model input
from it (`observation/modes/base.py`); the agent writes the step record from it
(`driving.records.step_record`: `attachments`, `vision`). Neither reads which action made it, so an
action that shows the model something new is one module under `actions/`, with no field
added here or in the executor.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from PIL import Image

from webfovea.browser.textsearch import READ_CHARS
from webfovea.feedback.quote import NOTE_CHARS, capped
from webfovea.models.base import Attachment

__all__ = ["Attachment", "Response"]


@dataclass
class Response:
    # The current viewport screenshot goes with the next input even in a mode that shows no
    # images (structured: `look` without a separate vision model).
    screenshot: bool = False
    # Images of the action's own, sent with the next input only (beside the screenshots, or
    # inside the action's tool result), each saved as step_NNN_<kind>.png.
    attachments: list[Attachment] = field(default_factory=list)
    # Model calls made inside the action (look, locate), each {purpose, model, separate,
    # raw_reply, usage, seconds, error?, call_usage}: the step record's `vision`, the usage totals.
    calls: list[dict[str, Any]] = field(default_factory=list)
    # Sentences for the model after the action's own note (Outcome.note), in order.
    notes: list[str] = field(default_factory=list)
    # Page text the action read for the model (read_text's text, find_text's match): what an
    # answer may have been read from, shown to the verifier (guardrails/verifier.py).
    read: list[str] = field(default_factory=list)
    # The longest note the action may hand the model (`told` cuts the rest). An action whose
    # output has its own, larger budget says so here (a snapshot subtree, evaluate's result).
    note_chars: int = NOTE_CHARS

    def show_screenshot(self) -> None:
        self.screenshot = True

    def attach(
        self,
        kind: str,
        label: str,
        image: Image.Image,
        info: dict[str, Any] | None = None,
        record_as: str | None = None,
    ) -> Attachment:
        """An image for the model with the next input. `kind` names its file (step_NNN_<kind>.png)
        and its entry in the step record's `attachments`; `label` is the line the model reads
        beside it; `info` is what the record notes about it (`region_css` [x1, y1, x2, y2] is
        also outlined on the marked screenshot). `record_as`: a StepRecord field the entry is
        written under instead of the list (zoom's `zoom`, older than the list)."""
        attached = Attachment(label, image, dict(info or {}), kind=kind, record_as=record_as)
        self.attachments.append(attached)
        return attached

    def add_call(self, call: dict[str, Any]) -> None:
        self.calls.append(call)

    def add_note(self, text: str) -> None:
        if text:
            self.notes.append(text)

    def add_read(self, text: str) -> None:
        if text:
            self.read.append(text)

    def told(self, note: str) -> str:
        """The action's note (at most `note_chars`) followed by the sentences added here (each at
        most read_text's budget): what a tool or a page says reaches the model bounded."""
        added = [capped(t, READ_CHARS) for t in self.notes]
        return " ".join(t for t in (capped(note, self.note_chars), *added) if t)
