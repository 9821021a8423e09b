"""What the harness hands back: the observation the model is shown and the result of one step."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from PIL import Image

from webfovea.execution.executor import Executed
from webfovea.guardrails.evidence import Evidence
from webfovea.observation import snapshot as snapshots
from webfovea.observation.capture import Shot
from webfovea.types import Action, ParsedReply

# Why the harness ended a task (StepResult.stop_reason): the model's `finished`, or a guardrail
# that fired. webfovea/driving/endings.py maps each to the status result.json records.
StopReason = Literal["finished", "stale_refs", "scroll_breaker", "loop_breaker"]


@dataclass
class Observation:
    image: Image.Image  # exactly the image the model is sent
    shot: Shot
    url: str
    step: int
    # Structured/hybrid modes: the snapshot text exactly as the model is given it (None in
    # vision mode); `snapshot_info` keeps the untruncated text, size, time and guard firings.
    snapshot: str | None = None
    snapshot_info: snapshots.Snapshot | None = None
    # The pixel check of the last action found no change and this is the very capture it
    # compared: the view is the one the model saw last (unchanged_view_text sends a sentence).
    unchanged: bool = False


@dataclass
class StepResult:
    action: Action | None
    feedback: str
    done: bool = False
    answer: str | None = None
    error: str | None = None  # why the reply was not executed, or why the task must stop
    stop_reason: StopReason | None = None  # 'finished' or a guardrail that ended the task
    parsed: ParsedReply | None = None
    executed: Executed | None = None
    observation: Observation | None = None  # the view the reply was made against
    seconds: float = 0.0
    outcome: str | None = None  # executed | no_effect | failed | rejected (None: the task stopped)
    verification_requested: bool = False  # a finished held by the verify gate: the real state is shown
    answer_value: Any = None  # a `finished` that met the task's answer schema: the JSON value
    answer_invalid: str | None = None  # a `finished` refused by the answer gate: why
    # Captures since the previous step that had to be asked again or redone (Screen.counts());
    # None when every capture came back at the first request.
    capture: dict[str, int] | None = None
    # The answer of a `finished` and what it was read from (guardrails/evidence.py); the verifier's
    # call on it, {purpose, model, raw_reply, usage, verdict, ...} (guardrails/verifier.py);
    # whether it rejected the answer (the task goes on), or the OCR check held it once.
    evidence: Evidence | None = None
    verifier: dict[str, Any] | None = None
    verifier_rejected: bool = False
    ocr_held: bool = False
    hold_why: str | None = None  # why an answer check held this `finished` (the evidence against it)


@dataclass
class Launch:
    """Where `Harness.launch`/`connect` get their browser when started."""

    url: str | None
    cdp_url: str | None
    headless: bool = True
    executable: str | None = None
    offline: bool | None = None
