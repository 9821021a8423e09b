"""`webfovea bench`: many tasks, scored, with a summary and a report."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

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
from webfovea.cli.runs import (
    _fault_names,
    _judge_hostile,
    _only,
    _read_prices,
    _run_and_summarise,
    _tasks_for,
    _with_docs,
    oracle_via_spec,
)

if TYPE_CHECKING:
    pass


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
