"""`webfovea bench` and `webfovea replay`: many tasks, scored, with a summary and a report."""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from webfovea.cli.common import (
    BaseUrlOpt,
    CapOpt,
    CoordsOpt,
    DisableOpt,
    ModelOpt,
    ObservationOpt,
    ProfileOpt,
    build_config,
    err,
    fail,
    out,
)
from webfovea.config import HarnessConfig
from webfovea.task import Task

if TYPE_CHECKING:
    from webfovea.envs.serve import SitesHandle
    from webfovea.record import Summary

SUITES = ("builtin",)


@contextlib.contextmanager
def _proving_ground(seed: int, ports: tuple[int, int] = (0, 0)) -> Iterator[SitesHandle]:
    """The proving-ground sites for the length of a run; a taken port is a one-line error."""
    from webfovea.envs.serve import start_sites

    try:
        handle = start_sites(seed=seed, ports=ports)
    except OSError as e:
        raise fail(str(e)) from None
    from webfovea.browser.binding import SECRET_ENV

    previous = os.environ.get(SECRET_ENV)
    # Workers inherit it: they make each task's session (the sites' request log and state).
    os.environ[SECRET_ENV] = handle.control_secret
    try:
        with handle:
            out.print(f"proving ground: {handle.main_url} (frames from {handle.frame_url})")
            yield handle
    finally:
        if previous is None:
            os.environ.pop(SECRET_ENV, None)
        else:
            os.environ[SECRET_ENV] = previous


@contextlib.contextmanager
def _tasks_for(suite_or_file: str, seed: int, ports: tuple[int, int]) -> Iterator[list[Task]]:
    """The tasks of a suite (starting and stopping its sites) or of a task file."""
    if suite_or_file in SUITES:
        from webfovea.envs.suite import load_builtin_suite

        with _proving_ground(seed, ports) as handle:
            yield load_builtin_suite(handle, seed=seed)
        return
    path = Path(suite_or_file)
    if not path.exists():
        raise fail(
            f"{suite_or_file!r} is neither a built-in suite ({', '.join(SUITES)}) nor an existing task file"
        )
    from webfovea.envs.sites import SITES
    from webfovea.eval.taskfile import TaskFileError, load_task_file

    try:
        tasks = load_task_file(path, known_sites={name for name, _, _ in SITES})
    except TaskFileError as e:
        raise fail(str(e)) from None
    if not any(t.site or t.website.startswith(PROVING_GROUND) for t in tasks):
        yield tasks
        return
    # Tasks over the proving ground: start its sites and point the placeholders at them.
    with _proving_ground(seed, ports) as handle:
        from webfovea.envs.suite import with_sessions

        resolved = [t.model_copy(update={"website": resolve_site_url(t.website, handle.main_url)}) for t in tasks]
        yield with_sessions(resolved, handle, seed)


PROVING_GROUND = "http://proving-ground"


def resolve_site_url(website: str, main_url: str) -> str:
    """`http://proving-ground/stats/` in a task file -> the running proving ground's URL."""
    if website.startswith(PROVING_GROUND + "/") or website == PROVING_GROUND:
        return main_url + website[len(PROVING_GROUND):]
    return website


def _run_and_summarise(
    tasks: list[Task], out_dir: Path, *, model: str, config: HarnessConfig, workers: int,
    cdp_urls: list[str] | None, backend: str, address: str | None, base_url: str | None, meta: dict[str, Any],
) -> Summary | None:
    from webfovea.eval.report import write_report
    from webfovea.eval.summary import format_summary_table, write_summary
    from webfovea.record import read_summary_file
    from webfovea.runner.api import RunError, RunOptions, run_tasks

    options: dict[str, Any] = {}
    if base_url:
        options["base_url"] = base_url
    try:
        outcome = run_tasks(tasks, out_dir, RunOptions(
            model=model, config=config, workers=workers, cdp_urls=cdp_urls or None,
            backend=backend, ray_address=address, model_options=options or None,
        ))
    except RunError as e:
        raise fail(str(e)) from None
    path = write_summary(out_dir, tasks, complete=outcome.complete, meta=meta)
    loaded = read_summary_file(out_dir)
    if loaded is None:
        raise fail(f"{path} was not written")
    summary = loaded[0]
    out.print(format_summary_table(summary))
    if not outcome.complete:
        err.print(f"[yellow]partial run:[/] not every task has a final result; see {path}. Re-run the same "
                  "command to resume.")
    report = write_report(out_dir)
    out.print(f"summary: {path}")
    out.print(f"report:  {report}")
    return summary


def bench(
    suite_or_file: Annotated[str, typer.Argument(help="'builtin' or a task file (WebRetriever JSON list or JSONL).")],
    model: ModelOpt = "oracle",
    profile: ProfileOpt = "webfovea",
    disable: DisableOpt = None,
    workers: Annotated[int, typer.Option("--workers", help="Browsers running at once.")] = 1,
    out_dir: Annotated[Path | None, typer.Option("--out", help="Run folder (default runs/<suite>-<profile>).")] = None,
    cdp_url: Annotated[list[str] | None, typer.Option("--cdp-url", help="Browser endpoint(s) to use (repeatable).")] = None,
    backend: Annotated[str, typer.Option("--backend", help="local (default) or ray.")] = "local",
    address: Annotated[str | None, typer.Option("--address", help="Ray cluster address.")] = None,
    seed: Annotated[int, typer.Option("--seed", help="Proving-ground data seed.")] = 0,
    port: Annotated[int, typer.Option("--port", help="Main sites port for the built-in suite (0 = free).")] = 0,
    frame_port: Annotated[int, typer.Option("--frame-port", help="Frame sites port (0 = free).")] = 0,
    base_url: BaseUrlOpt = None,
    coords: CoordsOpt = None,
    cap: CapOpt = None,
    compare_with: Annotated[Path | None, typer.Option("--compare-with", help="Print +fixed/-broken against this earlier run.")] = None,
    limit: Annotated[int | None, typer.Option("--limit", help="Run only the first N tasks.")] = None,
    observation: ObservationOpt = "vision",
) -> None:
    """Run a suite of tasks, score the answers, write summary.json and report.html."""
    if workers < 1:
        raise fail("--workers must be at least 1")
    if backend not in ("local", "ray"):
        raise fail(f"unknown backend {backend!r}; use local or ray")
    config = build_config(model, profile, disable, coords, cap, observation=observation)
    tag = profile + ("" if observation == "vision" else f"-{observation}") + "".join(f"-no-{d}" for d in (disable or []))
    out_dir = out_dir or Path("runs") / f"{Path(suite_or_file).stem}-{tag}"
    # profile and disabled are not passed: the summary takes them from the run's recorded config.
    meta = {"model": model, "seed": seed, "workers": workers, "backend": backend, "suite": suite_or_file}
    with _tasks_for(suite_or_file, seed, (port, frame_port)) as tasks:
        if limit:
            tasks = tasks[:limit]
        out.print(f"{len(tasks)} tasks -> {out_dir}  (model {model}, profile {profile}, observation {observation}"
                  + (f", disabled {', '.join(disable)}" if disable else "") + ")")
        summary = _run_and_summarise(tasks, out_dir, model=model, config=config, workers=workers,
                                     cdp_urls=cdp_url, backend=backend, address=address, base_url=base_url,
                                     meta=meta)
    if compare_with is not None and summary is not None:
        from webfovea.eval.compare import CompareError, compare_runs, format_comparison

        try:
            out.print(format_comparison(compare_runs(compare_with, out_dir)), markup=False, highlight=False)
        except CompareError as e:
            err.print(f"[yellow]no comparison:[/] {e}")
    if summary is not None and not summary.complete:
        raise typer.Exit(3)


def replay(
    run_dir: Annotated[Path, typer.Argument(help="An earlier run folder (with tasks.json) to replay.")],
    profile: ProfileOpt = "webfovea",
    disable: DisableOpt = None,
    out_dir: Annotated[Path | None, typer.Option("--out", help="Where to write the replayed run.")] = None,
    seed: Annotated[int, typer.Option("--seed", help="Proving-ground seed, if the run was the built-in suite.")] = 0,
    coords: CoordsOpt = None,
    cap: CapOpt = None,
) -> None:
    """Re-run the raw model replies recorded in RUN_DIR against the current harness."""
    from webfovea.record import RecordError, read_run_info, read_run_tasks

    try:
        tasks = read_run_tasks(run_dir)
        run_info = read_run_info(run_dir)
    except RecordError as e:
        raise fail(str(e)) from None
    if not tasks:
        raise fail(f"{run_dir} has no tasks.json; replay needs a run folder written by `webfovea bench`")
    out_dir = out_dir or run_dir.with_name(run_dir.name + "-replay")
    model = f"replay:{run_dir}"
    # Recorded replies name targets the way the run's observation mode did (points or refs).
    recorded = (run_info.config or {}).get("observation") if run_info is not None else None
    config = build_config(model, profile, disable, coords, cap, observation=recorded)
    meta = {"model": model, "replay_of": str(run_dir)}
    suite = run_info.suite if run_info is not None else None
    if suite in SUITES or any(t.site for t in tasks):
        from webfovea.envs.suite import load_builtin_suite

        with _proving_ground(seed) as handle:
            fresh = {t.task_id: t for t in load_builtin_suite(handle, seed=seed)}
            tasks = [fresh.get(t.task_id, t) for t in tasks]  # the sites' new ports
            _run_and_summarise(tasks, out_dir, model=model, config=config, workers=1, cdp_urls=None,
                               backend="local", address=None, base_url=None, meta=meta)
        return
    _run_and_summarise(tasks, out_dir, model=model, config=config, workers=1, cdp_urls=None, backend="local",
                       address=None, base_url=None, meta=meta)
