"""`webfovea bench`: many tasks, scored, with a summary and a report (`webfovea.app.run_bench`)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from webfovea.cli.common import (
    AllowDomainOpt,
    BaseUrlOpt,
    CapOpt,
    ConsoleReporter,
    CoordsOpt,
    DisableOpt,
    HeadedOpt,
    MaxCostOpt,
    MaxTokensOpt,
    ModelOpt,
    ModelsOpt,
    ObservationOpt,
    OfflineOpt,
    ProfileOpt,
    SecretsOpt,
    StorageStateOpt,
    SummaryModelOpt,
    UserDataDirOpt,
    VerifierOpt,
    VisionBaseUrlOpt,
    VisionModelOpt,
    WorkspaceOpt,
    app_errors,
    login_overrides,
    secrets_overrides,
)
from webfovea.console import make_console
from webfovea.suites import SUITES


def bench(
    suite_or_file: Annotated[
        str,
        typer.Argument(
            help=f"A suite ({', '.join(SUITES.names())}) or a task file (WebRetriever JSON list or JSONL)."
        ),
    ],
    model: ModelOpt = None,
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
    seed: Annotated[
        int | None,
        typer.Option("--seed", help="Proving-ground data seed (default: the suite's own, else 0)."),
    ] = None,
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
    workspace: WorkspaceOpt = None,
    storage_state: StorageStateOpt = None,
    user_data_dir: UserDataDirOpt = None,
    secrets: SecretsOpt = None,
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
        str | None,
        typer.Option(
            "--protocol",
            help="WebRetriever's protocols: I = navigation success, judged (the rule judge on the "
            "proving ground, NavEval with --judge elsewhere), answers not in the outcome; II = I with "
            "the reviewed manuals (needs --manuals); III = the answers scored and queued for people to "
            "verify in `webfovea view`. Default: the suite's own scoring only.",
        ),
    ] = None,
    judge: Annotated[
        str | None,
        typer.Option(
            "--judge", help="Protocols I/II: the judge model spec (NavEval); default: the rule judge."
        ),
    ] = None,
    judge_base_url: Annotated[
        str | None, typer.Option("--judge-base-url", help="The --judge model's endpoint, when it needs one.")
    ] = None,
    docs: Annotated[
        Path | None,
        typer.Option(
            "--manuals",
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
            "this provider (anthropic, openai or gemini) and a loopback API that bills tokens "
            "by "
            "its rules.",
        ),
    ] = None,
    prices: Annotated[
        Path | None,
        typer.Option(
            "--prices",
            help="JSON prices per million tokens (input, output, "
            "cache_read, cache_write): summary.json gets the cost; --max-cost and --run-max-cost are counted with them.",
        ),
    ] = None,
    max_steps: Annotated[
        int | None,
        typer.Option(
            "--max-steps",
            min=1,
            help="Step budget per task (default: the suite's own, else the profile's).",
        ),
    ] = None,
    list_catalogue: Annotated[
        bool,
        typer.Option(
            "--list",
            help="Print what the suite, task source or task file holds (its tasks, their counts, "
            "what the suite's plug-in adds) and exit; starts no browser, runs nothing.",
        ),
    ] = False,
    as_json: Annotated[
        bool, typer.Option("--json", help="With --list: the listing as JSON (docs/guide.md).")
    ] = False,
    observation: ObservationOpt = None,
    vision_model: VisionModelOpt = None,
    vision_base_url: VisionBaseUrlOpt = None,
    verifier: VerifierOpt = None,
    summary_model: SummaryModelOpt = None,
    models: ModelsOpt = None,
    fresh: Annotated[
        bool,
        typer.Option(
            "--fresh",
            help="Start again in --out: an earlier run there is moved "
            "to <out>/.earlier/<n>/ (a resume with another model, configuration "
            "or changed tasks is refused without it).",
        ),
    ] = False,
    max_tokens: MaxTokensOpt = None,
    max_cost: MaxCostOpt = None,
    run_max_tokens: Annotated[
        int | None,
        typer.Option(
            "--run-max-tokens",
            min=1,
            help="Token budget of the whole run: once the tasks' recorded tokens reach it, no task "
            "starts (running ones end on their own); the rest stay pending for a re-run.",
        ),
    ] = None,
    run_max_cost: Annotated[
        float | None,
        typer.Option(
            "--run-max-cost",
            min=0.0,
            help="Money budget of the whole run in $, counted with --prices (needed): once reached, no task starts.",
        ),
    ] = None,
    headed: HeadedOpt = False,
    suite_options: dict[str, Any] | None = None,  # the plug-ins' own options (cli/suite_options.py)
) -> None:
    if list_catalogue or as_json:
        _list(suite_or_file, seed, as_json, list_catalogue, dict(suite_options or {}))
        return
    from webfovea.app.bench import BenchOptions, run_bench

    options = BenchOptions(
        suite=suite_or_file,
        model=model,
        profile=profile,
        disable=list(disable or []),
        observation=observation,
        workers=workers,
        out_dir=out_dir,
        cdp_urls=list(cdp_url or []),
        backend=backend,
        address=address,
        seed=seed,
        ports=(port, frame_port),
        base_url=base_url,
        coords=coords,
        cap=cap,
        compare_with=compare_with,
        offline=offline,
        allow_domains=list(allow_domain or []),
        workspace=str(workspace) if workspace else None,
        **login_overrides(storage_state, user_data_dir),
        **secrets_overrides(secrets),
        limit=limit,
        only=only,
        faults=faults,
        protocol=protocol,
        judge=judge,
        judge_base_url=judge_base_url,
        docs=docs,
        via=via,
        prices=prices,
        max_steps=max_steps,
        suite_options=dict(suite_options or {}),
        vision_model=vision_model,
        vision_base_url=vision_base_url,
        verifier=verifier,
        summary_model=summary_model,
        models=models,
        fresh=fresh,
        max_tokens=max_tokens,
        max_cost=max_cost,
        run_max_tokens=run_max_tokens,
        run_max_cost=run_max_cost,
        headed=headed,
    )
    with app_errors():
        result = run_bench(options, ConsoleReporter())
    if not result.summary.complete:
        raise typer.Exit(3)


def _list(source: str, seed: int | None, as_json: bool, listed: bool, options: dict[str, Any]) -> None:
    import json

    from webfovea.app.catalogue import list_source, listing_tables
    from webfovea.suites import SuiteOptions

    if not listed:
        raise typer.BadParameter("--json goes with --list", param_hint="--json")
    with app_errors():
        data = list_source(source, seed, SuiteOptions(options))
    if as_json:
        typer.echo(json.dumps(data, indent=2, ensure_ascii=False))
        return
    console = make_console()
    for table in listing_tables(data):
        console.print(table)


def _help() -> str:
    suites = "; ".join(f"'{s.name}' ({s.description})" for s in SUITES.values())
    return (
        f"Run a suite of tasks, score the answers, write summary.json and report.html.\n\nSuites: {suites}."
    )


bench.__doc__ = _help()
