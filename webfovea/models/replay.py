"""`replay:PATH` — replay the raw replies of an earlier run, step by step.

Re-running recorded replies against the current harness shows what a harness
change does to the same decisions (the paper's offline token-stripping check
replayed 7,705 steps this way) without paying for a model.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from webfovea.models.base import (
    VERIFY_PURPOSE,
    ModelError,
    ModelInput,
    ModelReply,
    ToolCall,
    Usage,
    cut_off_of,
)
from webfovea.models.endpoint import ModelConfigError
from webfovea.record import TrajectoryError, read_result, read_trajectory
from webfovea.record.schema import RESULT_JSON, StepRecord
from webfovea.record.schema import TRAJECTORY_JSONL as TRAJECTORY


def find_trajectory(path: Path, task_id: str | None = None) -> Path:
    """The trajectory file a replay path names: the file itself, a task folder, or a run folder + task id."""
    path = Path(path).expanduser()
    if not path.exists():
        raise ModelConfigError(f"replay: {path} does not exist")
    if path.is_file():
        return path
    direct = path / TRAJECTORY
    if direct.is_file():
        return direct
    if task_id is not None:
        candidate = path / task_id / TRAJECTORY
        if candidate.is_file():
            return candidate
        raise ModelConfigError(f"replay: no {TRAJECTORY} for task {task_id!r} under run folder {path}")
    found = sorted(p for p in path.glob(f"*/{TRAJECTORY}") if p.is_file())
    if len(found) == 1:
        return found[0]
    if not found:
        raise ModelConfigError(
            f"replay: {path} holds no {TRAJECTORY} (neither a task folder nor a run folder)"
        )
    raise ModelConfigError(
        f"replay: {path} is a run folder with {len(found)} tasks; say which task to replay "
        "(the task id picks <run>/<task_id>/trajectory.jsonl)"
    )


def load_replies(path: Path) -> list[ModelReply]:
    """Raw replies and usage from a trajectory, in file order; a clear error names the bad line.

    A torn last line (a run killed mid-write) is dropped: the replay stops where the record does."""
    try:
        steps = read_trajectory(path)
    except TrajectoryError as exc:
        raise ModelConfigError(f"replay: {exc}") from None
    return [
        ModelReply(
            # A tool-call step replays its calls, with the text the model wrote beside them.
            text=s.thought if s.tool_calls else s.raw_reply,
            usage=Usage(s.usage.get("prompt_tokens", 0), s.usage.get("completion_tokens", 0)),
            tool_calls=[
                ToolCall(str(c.get("id")), str(c.get("name")), dict(c.get("input") or {}))
                for c in s.tool_calls or []
            ],
            notes=list(s.provider_notes or []),
            cut_off=cut_off_of(s.provider_notes),  # a reply withheld when recorded stays withheld
        )
        for s in steps
    ]


def _steps(path: Path) -> list[StepRecord]:
    try:
        return read_trajectory(path)
    except TrajectoryError as exc:
        raise ModelConfigError(f"replay: {exc}") from None


def load_summaries(path: Path) -> list[ModelReply | None]:
    """The recorded replies of history-compression calls, in order (None: that call failed)."""
    steps = _steps(path)
    out: list[ModelReply | None] = []
    for s in steps:
        event = s.compression
        if not event or not event.get("model_called"):
            continue
        raw, used = event.get("raw_reply"), event.get("usage") or {}
        out.append(
            None
            if raw is None
            else ModelReply(
                text=raw, usage=Usage(used.get("prompt_tokens", 0), used.get("completion_tokens", 0))
            )
        )
    return out


def load_vision_calls(path: Path) -> list[ModelReply | None]:
    """The recorded replies of look/locate calls (the step record's `vision`), in order (None:
    that call failed). A replay of a run with a separate vision model replays them as well."""
    steps = _steps(path)
    out: list[ModelReply | None] = []
    for s in steps:
        for call in s.vision or []:
            used = call.get("usage") or {}
            out.append(
                None
                if call.get("error")
                else ModelReply(
                    text=str(call.get("raw_reply") or ""),
                    usage=Usage(used.get("prompt_tokens", 0), used.get("completion_tokens", 0)),
                )
            )
    return out


def load_verifier_calls(path: Path) -> list[ModelReply | None]:
    """The recorded replies of the verifier's calls (the step record's `verifier`), in order
    (None: that call failed): `--verifier replay:PATH` gives a run's verdicts again."""
    out: list[ModelReply | None] = []
    for s in _steps(path):
        call = s.verifier
        if not call:
            continue
        used = call.get("usage") or {}
        out.append(
            None
            if call.get("error")
            else ModelReply(
                text=str(call.get("raw_reply") or ""),
                usage=Usage(used.get("prompt_tokens", 0), used.get("completion_tokens", 0)),
            )
        )
    return out


def recorded_model(trajectory: Path) -> str | None:
    """The model spec of the recorded run, from the task's result.json, when present and readable."""
    result = read_result(trajectory.parent)
    return result.model if result is not None else None


def recorded_model_of(path: Path) -> str | None:
    """The recorded model spec behind a replay path (file, task folder or run folder), if any.

    A run uses one model for all its tasks, so for a run folder any task's result.json answers.
    """
    path = Path(path).expanduser()
    if path.is_file():
        return recorded_model(path)
    if (path / RESULT_JSON).is_file():
        return recorded_model(path / TRAJECTORY)
    for result in sorted(path.glob(f"*/{RESULT_JSON}")):
        model = recorded_model(result.parent / TRAJECTORY)
        if model:
            return model
    return None


class ReplayModel:
    """Returns the recorded replies in order, then fails: a replay never invents a step.

    It cannot be the task's verifier (`can_verify`): asked to check an answer it would give
    the recorded run's next step. As `--verifier replay:PATH` it gives the recorded verdicts.

    The recorded usage is returned with each reply, so a replayed run reports the
    cost of the decisions it re-enacts. `source_model` is the recorded run's model
    spec (None when unknown): pass it to `conventions_for` to read coordinates the
    way the recorded model wrote them.
    """

    can_verify = False
    replays = "a recorded run"

    def __init__(self, path: Path, task_id: str | None = None) -> None:
        self.path = find_trajectory(Path(path), task_id)
        self.replies = load_replies(self.path)
        self.summaries = load_summaries(self.path)  # replies to history-compression calls
        self.vision_calls = load_vision_calls(self.path)  # replies to look/locate calls
        self._next_vision = 0
        self.verifier_calls = load_verifier_calls(self.path)
        self._next_verdict = 0
        self.source_model = recorded_model(self.path)
        self._next = 0
        self._next_summary = 0

    @property
    def remaining(self) -> int:
        return len(self.replies) - self._next

    async def next_reply(self, inp: ModelInput) -> ModelReply:
        if inp.purpose == "summary":  # a compression call replays the recorded summary
            if self._next_summary >= len(self.summaries):
                raise ModelError(f"replay: no recorded summary call left ({self.path})")
            summary = self.summaries[self._next_summary]
            self._next_summary += 1
            if summary is None:
                raise ModelError("replay: the recorded summary call failed")
            return summary
        if inp.purpose in ("locate", "look"):  # a look/locate call replays the recorded answer
            if self._next_vision >= len(self.vision_calls):
                raise ModelError(f"replay: no recorded {inp.purpose} call left ({self.path})")
            answer = self.vision_calls[self._next_vision]
            self._next_vision += 1
            if answer is None:
                raise ModelError(f"replay: the recorded {inp.purpose} call failed")
            return answer
        if inp.purpose == VERIFY_PURPOSE:  # --verifier replay:PATH: the recorded verdicts
            if self._next_verdict >= len(self.verifier_calls):
                raise ModelError(f"replay: no recorded verifier call left ({self.path})")
            verdict = self.verifier_calls[self._next_verdict]
            self._next_verdict += 1
            if verdict is None:
                raise ModelError("replay: the recorded verifier call failed")
            return verdict
        if self._next >= len(self.replies):
            raise ModelError(f"replay exhausted after {len(self.replies)} replies ({self.path})")
        reply = self.replies[self._next]
        self._next += 1
        return ModelReply(
            text=reply.text,
            usage=Usage(reply.usage.prompt_tokens, reply.usage.completion_tokens),
            tool_calls=list(reply.tool_calls),
            notes=list(reply.notes),
            cut_off=reply.cut_off,
        )

    def quirks(self) -> list[dict[str, Any]]:
        """Replayed replies carry no quirks of their own (the recorded run's are in its folder)."""
        return []

    async def aclose(self) -> None:
        return None

    def __repr__(self) -> str:
        return f"ReplayModel({str(self.path)!r}, {len(self.replies)} replies)"
