"""`run_manuals`: Protocol II's manuals the way seed 004 makes them — `webfovea manual RUN` as a
Python call. Each trajectory judged successful is turned by the writer model into a manual;
each other task is re-run (then judged again) up to `retries` times, and what still has no
successful trajectory is listed for a person to refine.

OUT (default RUN/manuals):
  <task_id>.md        the manual (`bench --protocol II --manuals OUT` reads them)
  needs_review.json   the tasks without a manual: why, and every folder tried
  manuals.json        what was written, by which writer, from which folder
  retries/<n>/        the n-th re-run of the tasks still without a manual (a run folder, judged)
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from webfovea.app.errors import AppError
from webfovea.app.reporter import Reporter
from webfovea.app.reruns import RecordedRun, read_recorded, rerun
from webfovea.judge.manuals import NEEDS_REVIEW, SUMMARY, verdicts
from webfovea.judge.records import JudgeRecord
from webfovea.record import write_json_atomic, write_text_atomic
from webfovea.task import Task


@dataclass
class ManualOptions:
    run_dir: Path
    writer: str  # a model spec, built by the model factory (the oracle: deterministic)
    retries: int = 0
    out_dir: Path | None = None  # default RUN/manuals
    method: str | None = None  # the judge of the re-runs; default the run's (RUN/judge/summary.json)
    judge: str | None = None  # its model; default the run's
    model: str | None = None  # the agent of the re-runs; default the run's
    base_url: str | None = None  # the writer's and the judge's OpenAI-compatible endpoint


@dataclass
class Pending:
    task_id: str
    why: str
    tried: list[str] = field(default_factory=list)  # task folders, the run's first
    manual: str | None = None  # the manual written anyway (lines a person has to check)

    def to_json(self) -> dict[str, Any]:
        return {"task_id": self.task_id, "why": self.why, "tried": self.tried, "manual": self.manual}


@dataclass
class ManualResult:
    out_dir: Path
    written: dict[str, str] = field(default_factory=dict)  # task id -> the folder it came from
    needs_review: list[Pending] = field(default_factory=list)
    usage: dict[str, int] = field(default_factory=dict)


def _why(rec: JudgeRecord | None) -> str:
    if rec is None:
        return "not judged"
    if rec.verdict is None:
        return f"no verdict: {rec.error or 'unknown'}"
    return f"judged unsuccessful ({rec.method}): {(rec.reasoning or '').strip()[:300]}"


def _folders(run_dir: Path) -> dict[str, Path]:
    from webfovea.judge.run import record_ids, task_folders

    return {tid: f for f, tid in record_ids(task_folders(run_dir)).items()}


class _Writer:
    """One writer model per task (the oracle is built for its task); usage summed."""

    def __init__(self, o: ManualOptions, recorded: RecordedRun, reporter: Reporter) -> None:
        self.o, self.recorded, self.reporter = o, recorded, reporter
        self.usage = {"prompt_tokens": 0, "completion_tokens": 0, "calls": 0}

    def model(self, task: Task) -> Any:
        from webfovea.models.factory import make_model

        try:
            return make_model(self.o.writer, task=task, base_url=self.o.base_url)
        except ValueError as e:
            raise AppError(f"--writer: {e}") from None

    async def write(self, task_id: str, folder: Path, out: Path) -> tuple[str | None, list[int]]:
        """Write the manual from `folder`: (why it could not be, or None; the steps at a point
        the records name nothing at — the manual is written, a person checks those lines)."""
        from webfovea.judge.manuals.facts import read_trajectory_facts
        from webfovea.judge.manuals.writer import WriterError, write_manual
        from webfovea.models.base import ModelError

        traj = read_trajectory_facts(folder)
        task = self.recorded.tasks.get(task_id) or Task(task_id=task_id, task=traj.task, website=traj.start)
        model = self.model(task)
        try:
            written = await write_manual(model, traj, folder)
        except (ModelError, WriterError) as e:
            return f"the writer failed: {e}", []
        finally:
            if hasattr(model, "aclose"):
                await model.aclose()
        for key in ("prompt_tokens", "completion_tokens"):
            self.usage[key] += int(written.usage.get(key, 0))
        self.usage["calls"] += 1
        write_text_atomic(out / f"{task_id}.md", written.text)
        return None, [f.steps[-1] for f in traj.facts if f.unnamed]


def _judge(run: Path, recorded: RecordedRun, o: ManualOptions) -> dict[str, JudgeRecord]:
    from webfovea.judge.run import JudgeOptions, judge_run

    judged = recorded.judge
    method = o.method or judged.get("method")
    model = o.judge or (judged.get("judge_model") if judged.get("judge_model") != method else None)
    opts = JudgeOptions(
        method=str(method),
        judge=model,
        filter=str(judged.get("filter") or "webfovea"),
        protocol=str(judged.get("protocol") or "I"),
        base_url=o.base_url,
    )
    try:
        judge_run(run, opts)
    except ValueError as e:
        raise AppError(f"judging the re-run {run}: {e}") from None
    return verdicts(run)


def _check(o: ManualOptions, recorded: RecordedRun) -> None:
    if not o.run_dir.is_dir():
        raise AppError(f"{o.run_dir} is not a folder; give a run folder written by `webfovea bench`")
    if o.retries < 0:
        raise AppError("--retries must be 0 or more")
    if o.retries and not (o.method or recorded.judge.get("method")):
        raise AppError(
            "--retries judges each re-run: judge the run first (`webfovea judge run`) or give --method"
        )


def run_manuals(options: ManualOptions, reporter: Reporter | None = None) -> ManualResult:
    o, reporter = options, reporter or Reporter()
    recorded = read_recorded(o.run_dir) if o.run_dir.is_dir() else None
    if recorded is None:
        raise AppError(f"{o.run_dir} is not a folder; give a run folder written by `webfovea bench`")
    _check(o, recorded)
    folders = _folders(o.run_dir)
    if not folders:
        raise AppError(f"{o.run_dir} holds no task folders (sub-folders with result.json)")
    out = o.out_dir or o.run_dir / "manuals"
    out.mkdir(parents=True, exist_ok=True)
    writer = _Writer(o, recorded, reporter)
    writer.model(next(iter(recorded.tasks.values()), Task(task_id="t", task="", website="about:blank")))
    result = ManualResult(out)
    records = verdicts(o.run_dir)
    pending: dict[str, Pending] = {}
    flagged: dict[str, Pending] = {}

    def settle(candidates: dict[str, Path], records: dict[str, JudgeRecord]) -> None:
        for tid, folder in candidates.items():
            p = pending.setdefault(tid, Pending(tid, ""))
            p.tried.append(str(folder))
            rec = records.get(tid)
            if rec is None or rec.verdict is not True:
                p.why = _why(rec)
                continue
            failed, unnamed = asyncio.run(writer.write(tid, folder, out))
            if failed is not None:
                p.why = failed
                continue
            result.written[tid] = str(folder)
            reporter.note(f"manual: {tid} (from {folder})")
            del pending[tid]
            if unnamed:  # written, but a person has to name what those steps act on
                steps = ", ".join(str(n) for n in unnamed)
                flagged[tid] = Pending(
                    tid,
                    f"manual written; the records name no element at step(s) {steps}: "
                    "check those lines against the marked screenshots",
                    [str(folder)],
                    manual=f"{tid}.md",
                )

    settle(folders, records)
    for attempt in range(1, o.retries + 1):
        if not pending:
            break
        again = out / "retries" / str(attempt)
        reporter.note(f"retry {attempt}/{o.retries}: {len(pending)} task(s) without a manual -> {again}")
        ran = rerun(recorded, list(pending), again, model=o.model, reporter=reporter)
        if not ran:
            break
        records = _judge(again, recorded, o)
        settle({tid: f for tid, f in _folders(again).items() if tid in pending}, records)
    result.needs_review = sorted([*pending.values(), *flagged.values()], key=lambda p: p.task_id)
    result.usage = writer.usage
    write_json_atomic(out / NEEDS_REVIEW, [p.to_json() for p in result.needs_review])
    write_json_atomic(
        out / SUMMARY,
        {
            "run": str(o.run_dir),
            "writer": o.writer,
            "retries": o.retries,
            "written": result.written,
            "needs_review": len(result.needs_review),
            "usage": writer.usage,
        },
    )
    return result
