"""The judge's files: one record per task and the summary (RUN_DIR/judge/). docs/judge.md
documents every field. One writer each, atomic like every record of a run."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field

from webfovea.judge.method import Judged
from webfovea.judge.verdict import Verdict
from webfovea.record import write_json_atomic
from webfovea.task import TaskIdError, check_task_id

RESERVED = frozenset({"summary", "agreement"})  # the judge's own files


class JudgeRecord(BaseModel):
    task_id: str
    method: str
    judge_model: str
    protocol: str = "I"
    filter: str = "webfovea"
    evidence_sha256: str | None = None
    verdict: bool | None = None  # all_passed; None = no verdict (error says why)
    score: float | None = None
    reasoning: str | None = None
    details: list[dict[str, Any]] = Field(default_factory=list)
    answer_supported: bool | None = None
    error: str | None = None
    unparsed: bool = False  # the judge replied, but its reply held no readable verdict (error says why)
    problems: list[str] = Field(default_factory=list)  # what the folder lacked
    dropped_requests: int = 0
    usage: dict[str, int] = Field(
        default_factory=lambda: {"prompt_tokens": 0, "completion_tokens": 0, "calls": 0}
    )
    latency_s: float = 0.0
    cached: bool = False
    calls: list[dict[str, Any]] = Field(default_factory=list)  # raw replies, for replay:PATH

    def set_verdict(self, v: Verdict) -> None:
        self.verdict = v.all_passed
        self.score = v.score
        self.reasoning = v.reasoning
        self.details = [d.model_dump() for d in v.details]
        self.answer_supported = v.answer_supported

    def fill(self, judged: Judged) -> None:
        if judged.verdict is not None:
            self.set_verdict(judged.verdict)
        self.error = judged.error
        self.unparsed = judged.unparsed
        self.calls = judged.calls
        self.usage = judged.usage()
        self.latency_s = judged.latency_s


class JudgeSummary(BaseModel):
    method: str
    judge_model: str
    protocol: str
    filter: str
    n: int
    judged: int  # records with a verdict
    passed: int
    failed: int
    no_verdict: int  # error: endpoint failed, verdict unreadable, nothing declared
    unparsed: int = 0  # of those, replies that held no readable verdict
    with_problems: int  # folders missing screenshots, capture, …
    cached: int
    judged_success_rate: float | None  # passed / judged
    usage: dict[str, int]
    per_task: dict[str, bool | None]

    @classmethod
    def of(cls, records: list[JudgeRecord], method: str, model: str, protocol: str, flt: str) -> JudgeSummary:
        judged = [r for r in records if r.verdict is not None]
        passed = sum(1 for r in judged if r.verdict)
        usage = {
            k: sum(r.usage.get(k, 0) for r in records)
            for k in ("prompt_tokens", "completion_tokens", "calls")
        }
        return cls(
            method=method,
            judge_model=model,
            protocol=protocol,
            filter=flt,
            n=len(records),
            judged=len(judged),
            passed=passed,
            failed=len(judged) - passed,
            no_verdict=len(records) - len(judged),
            unparsed=sum(1 for r in records if r.unparsed),
            with_problems=sum(1 for r in records if r.problems),
            cached=sum(1 for r in records if r.cached),
            judged_success_rate=round(passed / len(judged), 4) if judged else None,
            usage=usage,
            per_task={r.task_id: r.verdict for r in records},
        )


def safe_record_name(task_id: str, fallback: str) -> str:
    """The file stem for a task's record: its id when that is a safe folder name and not one of
    the judge's own files; else the folder's name."""
    for name in (task_id, fallback):
        try:
            check_task_id(name)
        except TaskIdError:
            continue
        if name.lower() not in RESERVED:
            return name
    raise ValueError(f"task id {task_id!r} collides with the judge's own files or is not a safe name")


def write_judge_record(out: Path, name: str, record: JudgeRecord) -> Path:
    return write_json_atomic(Path(out) / f"{name}.json", record)


def write_summary(out: Path, summary: JudgeSummary) -> Path:
    return write_json_atomic(Path(out) / "summary.json", summary)


def read_judge_records(out: Path) -> dict[str, JudgeRecord]:
    """Every task record of a judge folder, by task id."""
    records = {}
    for f in sorted(Path(out).glob("*.json")):
        if f.stem.lower() in RESERVED:
            continue
        try:
            r = JudgeRecord.model_validate_json(f.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
        records[r.task_id] = r
    return records
