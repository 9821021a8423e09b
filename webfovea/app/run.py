"""One run of tasks into one folder, then everything written after it: the model's quirks, each
run's truth from the sites' request log, what plug-ins score (`webfovea_after_tasks`: BreakingWeb's
backend state), summary.json, the plug-ins' end-of-run lines and report.html. `bench`, `replay` and every arm of `ab` run through here."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from webfovea.app.errors import AppError
from webfovea.app.reporter import Reporter
from webfovea.app.sites import port_aliases
from webfovea.config import HarnessConfig
from webfovea.guardrails.spend import SpendCap
from webfovea.plugins import plugin_manager
from webfovea.task import Task

if TYPE_CHECKING:
    from webfovea.record import Summary
    from webfovea.record.schema import TaskResult
    from webfovea.suites import Suite
    from webfovea_proving_ground.serve import SitesHandle


@dataclass
class RunPlan:
    """How one run goes: everything but its tasks, its folder and its sites."""

    model: str
    config: HarnessConfig
    meta: dict[str, Any] = field(default_factory=dict)  # summary.json's meta (suite, seed, ...)
    workers: int = 1
    cdp_urls: list[str] | None = None
    backend: str = "local"
    address: str | None = None  # Ray's
    base_url: str | None = None
    fresh: bool = False  # set an earlier run in the folder aside instead of resuming it
    run_cap: SpendCap | None = None  # the run's spending cap: no task starts once it is reached
    headed: bool = False  # launched browsers show their window
    # The suite's own harness for this run (Suite.runner), None: webfovea's.
    own_run: Callable[[list[Task], Path, Mapping[str, Any]], bool] | None = None


def run_and_summarise(
    tasks: list[Task],
    out_dir: Path,
    plan: RunPlan,
    handle: SitesHandle | None = None,
    reporter: Reporter | None = None,
    aliases: dict[str, str] | None = None,
) -> Summary:
    """`handle`: the running sites, whose request logs give the truth and whose per-start ports
    are left out of the resume check; `aliases`: other per-start addresses the tasks name (an
    outside source's server) -> stable names, left out of it too."""
    from webfovea.runner.api import RunOptions, run_tasks
    from webfovea.runner.errors import RunError

    reporter = reporter or Reporter()
    if plan.own_run is not None:
        complete = _own_run(tasks, out_dir, plan, handle)
        return _summarise(tasks, out_dir, plan, handle, reporter, complete)
    try:
        outcome = run_tasks(
            tasks,
            out_dir,
            RunOptions(
                model=plan.model,
                config=plan.config,
                workers=plan.workers,
                cdp_urls=plan.cdp_urls or None,
                backend=plan.backend,
                ray_address=plan.address,
                model_options={"base_url": plan.base_url} if plan.base_url else None,
                fresh=plan.fresh,
                # The proving ground's ports change with every start: not part of a task's identity.
                url_aliases={**(aliases or {}), **(port_aliases(handle) or {})} or None,
                state_passed=_live_state_judge(tasks, handle),
                run_cap=plan.run_cap,
                headed=plan.headed,
            ),
        )
    except RunError as e:
        raise AppError(str(e)) from None
    _say_what_ran(outcome.counts, len(tasks), out_dir, reporter)
    return _summarise(tasks, out_dir, plan, handle, reporter, outcome.complete, outcome.budget)


def _own_run(tasks: list[Task], out_dir: Path, plan: RunPlan, handle: SitesHandle | None) -> bool:
    assert plan.own_run is not None
    run = {
        "model": plan.model,
        "seed": plan.meta.get("seed", 0),
        "max_steps": plan.config.max_steps,
        "handle": handle,
        "fresh": plan.fresh,
    }
    from webfovea.suites import SuiteError

    try:
        return plan.own_run(tasks, out_dir, run)
    except SuiteError as e:  # the suite's harness refused the run (a model it cannot drive)
        raise AppError(str(e)) from None


def _summarise(
    tasks: list[Task],
    out_dir: Path,
    plan: RunPlan,
    handle: SitesHandle | None,
    reporter: Reporter,
    complete: bool,
    budget: dict[str, Any] | None = None,
) -> Summary:
    from webfovea.eval.report import write_report
    from webfovea.eval.summary import write_summary
    from webfovea.record import read_summary_file, write_model_quirks

    write_model_quirks(out_dir, [t.task_id for t in tasks])  # the oracle's quirks, next to its rates
    if handle is not None:
        _write_truths(tasks, out_dir, handle, reporter)
    plugin_manager().hook.webfovea_after_tasks(tasks=tasks, out_dir=out_dir, sites=handle)
    path = write_summary(out_dir, tasks, complete=complete, meta=plan.meta)
    loaded = read_summary_file(out_dir)
    if loaded is None:
        raise AppError(f"{path} was not written")
    summary = loaded[0]
    reporter.summary(summary)
    _warn_failures(summary, reporter)
    data = summary.model_dump(mode="json")
    for lines in plugin_manager().hook.webfovea_terminal_summary(summary=data):
        for line in lines or ():
            reporter.note(line)
    stopped = (budget or {}).get("stopped")
    if stopped:
        left = (budget or {}).get("not_started", 0)
        reporter.warn(
            "run budget",
            f"{stopped}; {left} task(s) not started (see {path}). The same command with a larger "
            "budget runs them.",
        )
    elif not complete:
        reporter.warn(
            "partial run",
            f"not every task has a final result; see {path}. Re-run the same command to resume.",
        )
    report = write_report(out_dir)
    reporter.note(f"summary: {path}")
    reporter.note(f"report:  {report}")
    return summary


# Endings whose error says what to do (the oracle without a plan, a bad key): said on the
# terminal, not only in result.json, once per distinct error.
_SAID_STATUSES = ("model_error", "error")
_SAID_AT_MOST = 3


def _warn_failures(summary: Summary, reporter: Reporter) -> None:
    by_error: dict[tuple[str, str], list[str]] = {}
    for tid, row in summary.per_task.items():
        if row.status in _SAID_STATUSES and row.error:
            by_error.setdefault((row.status, row.error.splitlines()[0]), []).append(tid)
    for (status, error), ids in list(by_error.items())[:_SAID_AT_MOST]:
        shown = ", ".join(ids[:3]) + (f" and {len(ids) - 3} more" if len(ids) > 3 else "")
        reporter.warn(status, f"{shown}: {error}")
    if len(by_error) > _SAID_AT_MOST:
        reporter.warn("more errors", f"{len(by_error) - _SAID_AT_MOST} other error(s): see each result.json")


def _live_state_judge(
    tasks: list[Task], handle: SitesHandle | None
) -> Callable[[Task, TaskResult], bool | None] | None:
    """A plug-in's judge of finished tasks for the progress line (None: none has one)."""
    judge: Callable[[Task, TaskResult], bool | None] | None = plugin_manager().hook.webfovea_live_judge(
        tasks=tasks, sites=handle
    )
    return judge


def _write_truths(tasks: list[Task], out_dir: Path, handle: SitesHandle, reporter: Reporter) -> None:
    """Each run's truth from the sites' own request log, into its result.json (and its fault)."""
    from webfovea.eval.truth import write_truths

    with handle.control() as control:
        counts = write_truths(tasks, out_dir, control.requests)
    if counts["valid"]:
        reporter.note(
            f"truth: {counts['valid']} run(s) labelled from the sites' request logs "
            f"({counts['nav_ok']} with the navigation right); {counts['invalid']} without a truth"
        )


def after_run(
    suite: Suite | None, handle: SitesHandle | None, tasks: list[Task], out_dir: Path, reporter: Reporter
) -> list[str]:
    """The suite's own post-run step (the hostile judge), while its sites still run."""
    if suite is None or suite.after is None:
        return []
    lines = suite.after(handle, tasks, out_dir)
    for line in lines:
        reporter.note(line)
    return lines


def _say_what_ran(counts: dict[str, int], total: int, out_dir: Path, reporter: Reporter) -> None:
    """A resume says how many tasks it ran, and a re-run that ran none says so — with whether
    the code changed since the earlier results (a resume keeps them: --fresh runs them again)."""
    from webfovea.record import read_run_info

    earlier = total - counts.get("pending", 0)
    if not earlier:
        return
    info = read_run_info(out_dir)
    before = [r.code for r in (info.previous_runs or []) if r.code] if info is not None else []
    changed = ""
    if info is not None and info.code and before and before[-1] != info.code:
        changed = f" The code changed since they ran ({before[-1]} -> {info.code})."
    if counts.get("pending", 0) == 0:
        reporter.warn(
            "nothing ran",
            f"all {total} tasks already had results in {out_dir}; the table is theirs.{changed} "
            "Pass --fresh to run them again.",
        )
    else:
        reporter.note(
            f"resumed: {earlier} of {total} tasks already had results; ran {counts['pending']}.{changed}"
        )
