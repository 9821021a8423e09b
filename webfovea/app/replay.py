"""`run_replay`: the raw model replies recorded in an earlier run, re-run against the current
harness — `webfovea replay` as a Python call. A run of a registered suite replays against that
suite's tasks on freshly started sites (its `replay_options` say which: BreakingWeb's variants too)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from webfovea.app.config import build_config
from webfovea.app.errors import AppError
from webfovea.app.reporter import Reporter
from webfovea.app.run import RunPlan, after_run, run_and_summarise
from webfovea.app.sites import go_offline, proving_ground
from webfovea.record import Summary
from webfovea.suites import SUITES, site_task_suite
from webfovea.task import Task


@dataclass
class ReplayOptions:
    run_dir: Path  # an earlier run folder, with tasks.json
    profile: str = "webfovea"
    disable: list[str] = field(default_factory=list)
    out_dir: Path | None = None  # default <run_dir>-replay
    seed: int = 0  # the proving ground's, if the run was on it
    coords: str | None = None
    cap: str | None = None
    offline: bool = False


@dataclass
class ReplayResult:
    out_dir: Path
    summary: Summary
    after: list[str] = field(default_factory=list)  # what the suite's post-run step reported


def _recorded(run_dir: Path) -> tuple[list[Task], str | None, str | None, bool]:
    """The run's tasks, its suite, its observation mode and whether its verifier was on."""
    from webfovea.record import RecordError, read_run_info, read_run_tasks, read_summary_file

    try:
        tasks = read_run_tasks(run_dir)
        info = read_run_info(run_dir)
        summary = read_summary_file(run_dir)
    except RecordError as e:
        raise AppError(str(e)) from None
    if not tasks:
        raise AppError(f"{run_dir} has no tasks.json; replay needs a run folder written by `webfovea bench`")
    # The suite: run.json's when its writer said, else the summary's meta (`bench` writes it there).
    suite = info.suite if info is not None else None
    if suite is None and summary is not None:
        suite = (summary[0].meta.model_extra or {}).get("suite")
    observation = (info.config or {}).get("observation") if info is not None else None
    verifier = info is not None and "verifier" in ((info.config or {}).get("components") or [])
    return tasks, suite, observation, verifier


def run_replay(options: ReplayOptions, reporter: Reporter | None = None) -> ReplayResult:
    o, reporter = options, reporter or Reporter()
    if o.offline:
        go_offline()
    tasks, suite_name, observation, verified = _recorded(o.run_dir)
    out_dir = o.out_dir or o.run_dir.with_name(o.run_dir.name + "-replay")
    model = f"replay:{o.run_dir}"
    # A run whose verifier was on: its recorded verdicts are given again (a replay cannot
    # verify), so a rejected answer is rejected again and the recorded steps after it follow.
    verifier = {"verifier_model": model} if verified else {}
    # Recorded replies name targets the way the run's observation mode did (points or refs).
    config = build_config(
        model, o.profile, o.disable or None, o.coords, o.cap, observation=observation, **verifier
    )
    plan = RunPlan(model=model, config=config, meta={"model": model, "replay_of": str(o.run_dir)})
    suite = SUITES.get(suite_name) if suite_name else None
    if suite is None and any(t.site for t in tasks):
        suite = site_task_suite()  # a task file over the proving ground: its sites' tasks by id
    if suite is None:
        return ReplayResult(out_dir, run_and_summarise(tasks, out_dir, plan, reporter=reporter))
    with proving_ground(o.seed, reporter=reporter) as handle:
        fresh = {t.task_id: t for t in suite.replay_tasks(handle, o.seed)}
        tasks = [fresh.get(t.task_id, t) for t in tasks]  # the sites' new ports
        summary = run_and_summarise(tasks, out_dir, plan, handle, reporter)
        after = after_run(suite, handle, tasks, out_dir, reporter)
    return ReplayResult(out_dir, summary, after)
