"""Run some tasks of a finished run again, the way the run ran them, then judge them the way it
was judged: `webfovea manual --retries N` re-runs the tasks whose trajectory was not judged
successful. The tasks go through the normal runner (app/run.py) on freshly started sites when
the run was over the proving ground, with the run's recorded model and harness config."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from webfovea.app.errors import AppError
from webfovea.app.reporter import Reporter
from webfovea.app.run import RunPlan, run_and_summarise
from webfovea.app.sites import proving_ground
from webfovea.config import HarnessConfig
from webfovea.record import RecordError, read_run_info, read_run_tasks, read_summary_file
from webfovea.task import Task


@dataclass
class RecordedRun:
    """What a run folder says about how its tasks ran and were judged."""

    tasks: dict[str, Task]
    model: str | None
    config: HarnessConfig | None
    suite: str | None
    seed: int
    meta: dict[str, Any]
    judge: dict[str, Any]  # the run's judge summary (method, judge_model, protocol, filter); {} if none


def _judge_summary(run_dir: Path) -> dict[str, Any]:
    import json

    path = Path(run_dir) / "judge" / "summary.json"
    try:
        data = json.loads(path.read_text(encoding="utf-8")) if path.is_file() else {}
    except (OSError, ValueError):
        data = {}
    return data if isinstance(data, dict) else {}


def read_recorded(run_dir: Path) -> RecordedRun:
    try:
        tasks = read_run_tasks(run_dir) or []
        info = read_run_info(run_dir)
        summary = read_summary_file(run_dir)
    except RecordError as e:
        raise AppError(str(e)) from None
    meta: dict[str, Any] = dict(summary[0].meta.model_extra or {}) if summary is not None else {}
    if summary is not None:
        meta["model"] = summary[0].meta.model
    config = None
    if info is not None and info.config:
        try:
            config = HarnessConfig.model_validate(info.config)
        except ValueError:
            config = None  # a config of another version: the model's defaults are used
    return RecordedRun(
        tasks={t.task_id: t for t in tasks},
        model=(info.model if info is not None else None) or meta.get("model"),
        config=config,
        suite=(info.suite if info is not None else None) or meta.get("suite"),
        seed=int(meta.get("seed") or 0),
        meta=meta,
        judge=_judge_summary(run_dir),
    )


def _fresh(suite: Any, handle: Any, seed: int, faults: list[str]) -> dict[str, Task]:
    """Every task the suite may have run, on the running sites (fault variants too)."""
    tasks = list(suite.replay_tasks(handle, seed))
    if faults:
        from webfovea_proving_ground.oracle.faults import with_faults

        tasks = with_faults(tasks, faults)
    return {t.task_id: t for t in tasks}


def rerun(
    recorded: RecordedRun, task_ids: list[str], out_dir: Path, *, model: str | None, reporter: Reporter
) -> list[str]:
    """Run the tasks again into `out_dir`; the ids that could be run (a task the run's tasks.json
    does not hold cannot)."""
    from webfovea.app.config import build_config
    from webfovea.suites import SUITES, site_task_suite

    wanted = [recorded.tasks[t] for t in task_ids if t in recorded.tasks]
    if not wanted:
        return []
    model = model or recorded.model
    if not model:
        raise AppError("the run does not record its model; give --model SPEC for the re-runs")
    config = recorded.config or build_config(model, "webfovea", None, None, None)
    plan = RunPlan(model=model, config=config, meta={**recorded.meta, "model": model, "rerun_of": "manual"})
    suite = SUITES.get(recorded.suite) if recorded.suite else None
    if suite is None and any(t.site for t in wanted):
        suite = site_task_suite()  # a task file over the proving ground: its sites' tasks by id
    if suite is None:
        run_and_summarise(wanted, out_dir, plan, reporter=reporter)
        return [t.task_id for t in wanted]
    faults = [str(f) for f in recorded.meta.get("faults") or []]
    with proving_ground(recorded.seed, reporter=reporter) as handle:
        fresh = _fresh(suite, handle, recorded.seed, faults)
        tasks = [fresh.get(t.task_id, t) for t in wanted]  # the sites' new ports
        run_and_summarise(tasks, out_dir, plan, handle, reporter)
    return [t.task_id for t in tasks]
