"""`webfovea bench` and `webfovea replay`: many tasks, scored, with a summary and a report."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from webfovea.cli.common import (
    AllowDomainOpt,
    BaseUrlOpt,
    CapOpt,
    CoordsOpt,
    DisableOpt,
    ModelOpt,
    ObservationOpt,
    OfflineOpt,
    ProfileOpt,
    VisionBaseUrlOpt,
    VisionModelOpt,
    build_config,
    check_model,
    check_out_dir,
    err,
    fail,
    go_offline,
    lit,
    out,
    vision_overrides,
)
from webfovea.config import HarnessConfig
from webfovea.task import Task

if TYPE_CHECKING:
    from webfovea.proving_ground.serve import SitesHandle
    from webfovea.record import Summary

SUITES = ("builtin", "hostile", "breakingweb", "documents")


@contextlib.contextmanager
def _proving_ground(seed: int, ports: tuple[int, int] = (0, 0)) -> Iterator[SitesHandle]:
    """The proving-ground sites for the length of a run; a taken port is a one-line error.

    The proving ground runs offline: its browsers resolve no name but localhost."""
    from webfovea.proving_ground.serve import start_sites

    go_offline()
    try:
        handle = start_sites(seed=seed, ports=ports)
    except OSError as e:
        raise fail(str(e)) from None
    with handle:
        out.print(f"proving ground: {handle.main_url} (frames from {handle.frame_url})")
        yield handle


@contextlib.contextmanager
def _tasks_for(
    suite_or_file: str,
    seed: int,
    ports: tuple[int, int],
    *,
    paired: bool = False,
    families: list[str] | None = None,
) -> Iterator[tuple[list[Task], SitesHandle | None]]:
    """The tasks of a suite (starting and stopping its sites) or of a task file, and the running
    sites when there are any (their request logs give the runs' truth, their control plane the
    backend state of stateful tasks)."""
    if suite_or_file == "hostile":
        from webfovea.proving_ground.suites.hostile import load_hostile_suite

        with _proving_ground(seed, ports) as handle:
            yield load_hostile_suite(handle), handle
        return
    if suite_or_file == "breakingweb":
        from webfovea.proving_ground.breakingweb.interventions import UnknownFamily
        from webfovea.proving_ground.breakingweb.suite import load_breakingweb_suite

        with _proving_ground(seed, ports) as handle:
            try:
                tasks = load_breakingweb_suite(handle, seed, paired=paired, families=families)
            except UnknownFamily as e:
                raise fail(str(e)) from None
            yield tasks, handle
        return
    if paired or families:
        raise fail("--paired and --families apply to the breakingweb suite only")
    if suite_or_file == "documents":  # issue 23: the document view's suite
        from webfovea.proving_ground.suites.documents import load_documents_suite

        with _proving_ground(seed, ports) as handle:
            yield load_documents_suite(handle, seed), handle
        return
    if suite_or_file in SUITES:
        from webfovea.proving_ground.suites.builtin import load_builtin_suite

        with _proving_ground(seed, ports) as handle:
            yield load_builtin_suite(handle, seed=seed), handle
        return
    path = Path(suite_or_file)
    if not path.exists():
        raise fail(
            f"{suite_or_file!r} is neither a built-in suite ({', '.join(SUITES)}) nor an existing task file"
        )
    from webfovea.eval.taskfile import TaskFileError, load_task_file
    from webfovea.proving_ground.sites import SITES

    try:
        tasks = load_task_file(path, known_sites={name for name, _, _ in SITES})
    except TaskFileError as e:
        raise fail(str(e)) from None
    if not any(t.site or t.website.startswith(PROVING_GROUND) for t in tasks):
        yield tasks, None
        return
    # Tasks over the proving ground: start its sites and point the placeholders at them.
    with _proving_ground(seed, ports) as handle:
        from webfovea.proving_ground.suites.builtin import with_sessions

        resolved = [
            t.model_copy(
                update={
                    "website": resolve_site_url(t.website, handle.main_url),
                    "allow_origins": [*t.allow_origins, handle.frame_url],
                }
            )
            for t in tasks
        ]
        yield with_sessions(resolved, handle, seed), handle


PROVING_GROUND = "http://proving-ground"


def resolve_site_url(website: str, main_url: str) -> str:
    """`http://proving-ground/stats/` in a task file -> the running proving ground's URL."""
    if website.startswith(PROVING_GROUND + "/") or website == PROVING_GROUND:
        return main_url + website[len(PROVING_GROUND) :]
    return website


def _run_and_summarise(
    tasks: list[Task],
    out_dir: Path,
    *,
    model: str,
    config: HarnessConfig,
    workers: int,
    cdp_urls: list[str] | None,
    backend: str,
    address: str | None,
    base_url: str | None,
    meta: dict[str, Any],
    handle: SitesHandle | None = None,
    fresh: bool = False,
    sites: SitesHandle | None = None,
) -> Summary | None:
    """`handle`: the running sites whose request logs give the truth; `sites` (or `handle`): the
    sites whose per-start ports are left out of the resume check."""
    from webfovea.eval.report import write_report
    from webfovea.eval.summary import format_summary_table, write_summary
    from webfovea.record import read_summary_file
    from webfovea.runner.api import RunError, RunOptions, run_tasks

    options: dict[str, Any] = {}
    if base_url:
        options["base_url"] = base_url
    try:
        outcome = run_tasks(
            tasks,
            out_dir,
            RunOptions(
                model=model,
                config=config,
                workers=workers,
                cdp_urls=cdp_urls or None,
                backend=backend,
                ray_address=address,
                model_options=options or None,
                fresh=fresh,
                # The proving ground's ports change with every start: not part of a task's identity.
                url_aliases=_port_aliases(sites or handle),
                state_passed=_live_state_judge(tasks, handle),
            ),
        )
    except RunError as e:
        raise fail(str(e)) from None
    from webfovea.record import write_model_quirks

    write_model_quirks(out_dir, [t.task_id for t in tasks])  # the oracle's quirks, next to its rates
    if handle is not None:
        _write_truths(tasks, out_dir, handle)
        if any((t.model_extra or {}).get("stateful_app") for t in tasks):
            from webfovea.proving_ground.breakingweb.scoring import attach_states

            with handle.control() as control:
                attach_states(out_dir, tasks, control)
    path = write_summary(out_dir, tasks, complete=outcome.complete, meta=meta)
    loaded = read_summary_file(out_dir)
    if loaded is None:
        raise fail(f"{path} was not written")
    summary = loaded[0]
    out.print(format_summary_table(summary))
    if not outcome.complete:
        err.print(
            f"[yellow]partial run:[/] not every task has a final result; see {lit(path)}. Re-run the same "
            "command to resume."
        )
    report = write_report(out_dir)
    out.print(f"summary: {lit(path)}")
    out.print(f"report:  {lit(report)}")
    return summary


def _live_state_judge(tasks: list[Task], handle: SitesHandle | None) -> Any:
    """The progress line's judge of stateful tasks by their backend state (None without them)."""
    if handle is None or not any((t.model_extra or {}).get("stateful_app") for t in tasks):
        return None
    from webfovea.proving_ground.breakingweb.scoring import live_state_judge

    return live_state_judge(handle)


def _port_aliases(sites: SitesHandle | None) -> dict[str, str] | None:
    if sites is None:
        return None
    return {sites.main_url: PROVING_GROUND, sites.frame_url: PROVING_GROUND + "-frames"}


def _with_docs(tasks: list[Task], docs: Path) -> list[Task]:
    """Protocol II: each task's manual appended to its instruction (tasks without one keep theirs)."""
    from webfovea.judge.manual import docs_for

    out_tasks, given = [], 0
    for t in tasks:
        manual = docs_for(t.task_id, docs)
        if manual:
            given += 1
            t = t.model_copy(
                update={"task": f"{t.task}\n\nOperational documentation for this site:\n{manual.strip()}"}
            )
        out_tasks.append(t)
    out.print(f"protocol II: {given} of {len(tasks)} tasks have a manual in {lit(docs)}")
    return out_tasks


def _fault_names(faults: str | None, model: str) -> list[str]:
    if not faults:
        return []
    if model != "oracle" and not model.startswith("oracle:"):
        raise fail("--faults makes the oracle follow fault plans: use it with --model oracle")
    from webfovea.proving_ground.oracle.faults import parse_faults

    try:
        return parse_faults(faults)
    except ValueError as e:
        raise fail(str(e)) from None


def _write_truths(tasks: list[Task], out_dir: Path, handle: SitesHandle) -> None:
    """Each run's truth from the sites' own request log, into its result.json (and its fault)."""
    from webfovea.eval.truth import write_truths

    with handle.control() as control:
        counts = write_truths(tasks, out_dir, control.requests)
    if counts["valid"]:
        out.print(
            f"truth: {counts['valid']} run(s) labelled from the sites' request logs "
            f"({counts['nav_ok']} with the navigation right); {counts['invalid']} without a truth"
        )


def bench(
    suite_or_file: Annotated[
        str, typer.Argument(help="'builtin' or a task file (WebRetriever JSON list or JSONL).")
    ],
    model: ModelOpt = "oracle",
    profile: ProfileOpt = "webfovea",
    disable: DisableOpt = None,
    workers: Annotated[int, typer.Option("--workers", min=1, help="Browsers running at once.")] = 1,
    out_dir: Annotated[
        Path | None, typer.Option("--out", help="Run folder (default runs/<suite>-<profile>).")
    ] = None,
    cdp_url: Annotated[
        list[str] | None, typer.Option("--cdp-url", help="Browser endpoint(s) to use (repeatable).")
    ] = None,
    backend: Annotated[str, typer.Option("--backend", help="local (default) or ray.")] = "local",
    address: Annotated[str | None, typer.Option("--address", help="Ray cluster address.")] = None,
    seed: Annotated[int, typer.Option("--seed", help="Proving-ground data seed.")] = 0,
    port: Annotated[
        int,
        typer.Option("--port", min=0, max=65535, help="Main sites port for the built-in suite (0 = free)."),
    ] = 0,
    frame_port: Annotated[
        int, typer.Option("--frame-port", min=0, max=65535, help="Frame sites port (0 = free).")
    ] = 0,
    base_url: BaseUrlOpt = None,
    coords: CoordsOpt = None,
    cap: CapOpt = None,
    compare_with: Annotated[
        Path | None, typer.Option("--compare-with", help="Print +fixed/-broken against this earlier run.")
    ] = None,
    offline: OfflineOpt = False,
    allow_domain: AllowDomainOpt = None,
    limit: Annotated[
        int | None,
        typer.Option(
            "--limit",
            min=1,
            help="Run only the first N tasks (with --faults: N "
            "tasks that declare a truth, spread across the sites, each "
            "with its faults).",
        ),
    ] = None,
    only: Annotated[
        str | None,
        typer.Option(
            "--only",
            help="Run only the tasks whose id matches one of these "
            "comma-separated patterns (shell-style: "
            "'struct-*,lab-ws-01'); applied before --limit.",
        ),
    ] = None,
    faults: Annotated[
        str | None,
        typer.Option(
            "--faults",
            help="Oracle fault plans: all, or a list of "
            "wrong_filter,wrong_row,from_memory,applied_then_cleared,"
            "stop_early,never_applied. Each task runs clean and with "
            "each applicable fault (labelled trajectories for judges).",
        ),
    ] = None,
    protocol: Annotated[
        str,
        typer.Option(
            "--protocol",
            help="I = navigation, II = navigation with documentation "
            "(needs --docs), III = end to end. Recorded in the "
            "summary; judge each protocol apart.",
        ),
    ] = "I",
    docs: Annotated[
        Path | None,
        typer.Option(
            "--docs",
            help="Protocol II: a folder of manuals, <task_id>.md "
            "(from `webfovea manual`), added to each task's "
            "instruction.",
        ),
    ] = None,
    via: Annotated[
        str | None,
        typer.Option(
            "--via",
            help="With --model oracle: answer through the real client of "
            "this provider (anthropic or openai) and a loopback API that bills tokens "
            "by "
            "its rules.",
        ),
    ] = None,
    prices: Annotated[
        Path | None,
        typer.Option(
            "--prices",
            help="JSON prices per million tokens (input, output, "
            "cache_read, cache_write): summary.json gets the cost.",
        ),
    ] = None,
    paired: Annotated[
        bool,
        typer.Option(
            "--paired",
            help="breakingweb: run each task clean and under each "
            "applicable intervention family, each from fresh state.",
        ),
    ] = False,
    families: Annotated[
        str | None,
        typer.Option(
            "--families",
            help="breakingweb: comma-separated families (e.g. fabricated_success,save_drift); default all.",
        ),
    ] = None,
    observation: ObservationOpt = None,
    vision_model: VisionModelOpt = None,
    vision_base_url: VisionBaseUrlOpt = None,
    fresh: Annotated[
        bool,
        typer.Option(
            "--fresh",
            help="Start again in --out: an earlier run there is moved "
            "to <out>/.earlier/<n>/ (a resume with another model, configuration "
            "or changed tasks is refused without it).",
        ),
    ] = False,
) -> None:
    """Run a suite of tasks, score the answers, write summary.json and report.html.

    Suites: 'builtin', 'hostile', and 'breakingweb' (stateful apps scored by backend state;
    --paired adds per-family drops, see docs/breakingweb.md)."""
    if offline:
        go_offline()
    if workers < 1:
        raise fail("--workers must be at least 1")
    if via is not None:
        model = oracle_via_spec(model, via)
    price_table = _read_prices(prices)
    # What the options themselves get wrong first; then the model (its key) before any browser.
    if protocol not in ("I", "II", "III"):
        raise fail(f"unknown protocol {protocol!r}; use I, II or III")
    if (protocol == "II") != (docs is not None):
        raise fail("Protocol II needs --docs DIR, and --docs means Protocol II: give both or neither")
    if docs is not None and not docs.is_dir():
        raise fail(
            f"--docs {docs} is not a folder of <task_id>.md manuals (write them with `webfovea manual`)"
        )
    fault_names = _fault_names(faults, model)
    check_model(model, base_url)
    if backend not in ("local", "ray"):
        raise fail(f"unknown backend {backend!r}; use local or ray")
    config = build_config(
        model,
        profile,
        disable,
        coords,
        cap,
        observation=observation,
        **({"allow_domains": list(allow_domain)} if allow_domain else {}),
        **vision_overrides(vision_model, vision_base_url),
    )
    tag = (
        profile
        + ("" if observation in (None, "vision") else f"-{observation}")
        + "".join(f"-no-{d}" for d in (disable or []))
    )
    out_dir = out_dir or Path("runs") / f"{Path(suite_or_file).stem}-{tag}"
    check_out_dir(out_dir)
    # profile and disabled are not passed: the summary takes them from the run's recorded config.
    meta = {
        "model": model,
        "seed": seed,
        "workers": workers,
        "backend": backend,
        "suite": suite_or_file,
        "prices": price_table,
    }
    meta["protocol"] = protocol
    if fault_names:
        meta["faults"] = fault_names
    if paired:
        meta["paired"] = True
    family_list = [f.strip() for f in families.split(",") if f.strip()] if families else None
    with _tasks_for(suite_or_file, seed, (port, frame_port), paired=paired, families=family_list) as (
        tasks,
        handle,
    ):
        if only:
            tasks = _only(tasks, only)
        if limit and paired:  # the first N tasks with all their variants: no variant without its clean run
            kept = [t.task_id for t in tasks if not (t.model_extra or {}).get("pair_of")][:limit]
            tasks = [t for t in tasks if (t.model_extra or {}).get("pair_of", t.task_id) in kept]
        elif fault_names:
            from webfovea.proving_ground.oracle.faults import spread, with_faults

            tasks = with_faults(spread(tasks, limit), fault_names)
        elif limit:
            tasks = tasks[:limit]
        if docs is not None:
            tasks = _with_docs(tasks, docs)
        out.print(
            f"{len(tasks)} tasks -> {lit(out_dir)}  (model {lit(model)}, profile {lit(profile)}, "
            f"observation {lit(config.observation)}"
            + (f", disabled {lit(', '.join(disable))}" if disable else "")
            + ")"
        )
        summary = _run_and_summarise(
            tasks,
            out_dir,
            model=model,
            config=config,
            workers=workers,
            cdp_urls=cdp_url,
            backend=backend,
            address=address,
            base_url=base_url,
            meta=meta,
            handle=handle,
            fresh=fresh,
        )
        if suite_or_file == "hostile":
            _judge_hostile(handle, tasks, out_dir)
    if compare_with is not None and summary is not None:
        from webfovea.eval.compare import CompareError, compare_runs, format_comparison

        try:
            out.print(format_comparison(compare_runs(compare_with, out_dir)), markup=False, highlight=False)
        except CompareError as e:
            err.print(f"[yellow]no comparison:[/] {lit(e)}")
    if summary is not None and not summary.complete:
        raise typer.Exit(3)


def _judge_hostile(handle: Any, tasks: list[Task], out_dir: Path) -> None:
    """Per attack, whether the guard held: judged from the sites' own log, the task folders, the clock."""
    from webfovea.proving_ground.suites.hostile import judge, write_verdicts

    verdicts = judge(handle, tasks, out_dir)
    for v in verdicts:
        mark = "[green]held[/]" if v.held else "[red]FAILED[/]"
        out.print(f"  {lit(v.attack):<11} {mark}  {lit(v.evidence)}", highlight=False)
    out.print(
        f"hostile: {sum(v.held for v in verdicts)}/{len(verdicts)} guards held -> "
        f"{write_verdicts(out_dir, verdicts)}"
    )


def _only(tasks: list[Task], patterns: str) -> list[Task]:
    """The tasks whose id (or, for a paired variant, whose clean task's id) matches a pattern."""
    from fnmatch import fnmatchcase

    wanted = [p.strip() for p in patterns.split(",") if p.strip()]
    kept = [
        t
        for t in tasks
        if any(
            fnmatchcase(t.task_id, p) or fnmatchcase(str((t.model_extra or {}).get("pair_of", "")), p)
            for p in wanted
        )
    ]
    if not kept:
        sample = ", ".join(t.task_id for t in tasks[:5])
        raise fail(f"--only {patterns!r} matches none of the {len(tasks)} tasks (ids look like: {sample}, …)")
    return kept


def oracle_via_spec(model: str, via: str) -> str:
    """`oracle` + `--via anthropic` -> `oracle:via=anthropic,provider=<the served model's row>`."""
    from webfovea.models.conventions import conventions_for
    from webfovea.proving_ground.oracle.via import DEFAULT_VIA_MODEL

    if model != "oracle" and not model.startswith("oracle:"):
        raise fail("--via goes with --model oracle (a real model already talks to its provider)")
    if via not in DEFAULT_VIA_MODEL:
        raise fail(f"--via {via!r} is not served; use one of: {', '.join(DEFAULT_VIA_MODEL)}")
    options = model.partition(":")[2]
    row = conventions_for(DEFAULT_VIA_MODEL[via]).family
    extra = f"via={via}" + ("" if "provider=" in options else f",provider={row}")
    return f"oracle:{options + ',' if options else ''}{extra}"


def _read_prices(path: Path | None) -> dict[str, float] | None:
    if path is None:
        return None
    from webfovea.eval.costs import PriceError, read_prices

    try:
        return read_prices(path)
    except PriceError as e:
        raise fail(str(e)) from None


def replay(
    run_dir: Annotated[Path, typer.Argument(help="An earlier run folder (with tasks.json) to replay.")],
    profile: ProfileOpt = "webfovea",
    disable: DisableOpt = None,
    out_dir: Annotated[Path | None, typer.Option("--out", help="Where to write the replayed run.")] = None,
    seed: Annotated[
        int, typer.Option("--seed", help="Proving-ground seed, if the run was the built-in suite.")
    ] = 0,
    coords: CoordsOpt = None,
    cap: CapOpt = None,
    offline: OfflineOpt = False,
) -> None:
    """Re-run the raw model replies recorded in RUN_DIR against the current harness."""
    if offline:
        go_offline()
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
        from webfovea.proving_ground.breakingweb.suite import load_breakingweb_suite
        from webfovea.proving_ground.suites.builtin import load_builtin_suite

        with _proving_ground(seed) as handle:
            loaded = (
                load_breakingweb_suite(handle, seed, paired=True)
                if suite == "breakingweb"
                else load_builtin_suite(handle, seed=seed)
            )
            fresh = {t.task_id: t for t in loaded}
            tasks = [fresh.get(t.task_id, t) for t in tasks]  # the sites' new ports
            _run_and_summarise(
                tasks,
                out_dir,
                model=model,
                config=config,
                workers=1,
                cdp_urls=None,
                backend="local",
                address=None,
                base_url=None,
                meta=meta,
                handle=handle,
            )
        return
    _run_and_summarise(
        tasks,
        out_dir,
        model=model,
        config=config,
        workers=1,
        cdp_urls=None,
        backend="local",
        address=None,
        base_url=None,
        meta=meta,
    )
