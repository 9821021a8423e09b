"""The `webfovea` command line: run, bench, serve, report, compare, replay, mcp, ab."""

from __future__ import annotations

import asyncio
import contextlib
import signal
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from webfovea.cli import export_cmd, generate_cmd, manual_cmd, models_cmd, notes_cmd, plugins_cmd, view_cmd  # noqa: F401 - register their commands
from webfovea.cli.ab import ab
from webfovea.cli.bench import bench
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
    PricesOpt,
    ProfileOpt,
    SecretsOpt,
    StorageStateOpt,
    SummaryModelOpt,
    UserDataDirOpt,
    VerifierOpt,
    VisionBaseUrlOpt,
    VisionModelOpt,
    WorkspaceOpt,
    app,
    app_errors,
    build_config,
    check_model,
    check_out_dir,
    err,
    fail,
    lit,
    login_overrides,
    out,
    role_options,
    secrets_overrides,
    spend_overrides,
    summary_overrides,
    verifier_overrides,
    vision_overrides,
)
from webfovea.cli.mcp import mcp
from webfovea.cli.replay import replay
from webfovea.cli.suite_options import with_suite_options
from webfovea.task import Task

if TYPE_CHECKING:
    from webfovea.app.browse import BrowseResult
    from webfovea.record.schema import TaskResult


def _print_version(value: bool) -> None:
    if value:
        from webfovea import __version__

        out.print(f"webfovea {__version__}", markup=False, highlight=False)
        raise typer.Exit()


@app.callback()
def _options(
    version: Annotated[
        bool | None,
        typer.Option("--version", callback=_print_version, is_eager=True, help="Print the version and exit."),
    ] = None,
) -> None:
    """Reliable round trips for vision-based web agents, and an honest proving ground to measure them."""


@app.command()
def run(
    instruction: Annotated[
        str | None, typer.Argument(metavar="TASK", help='The task instruction, e.g. "Find …" (or --task).')
    ] = None,
    task: Annotated[
        str | None, typer.Option("--task", help="The task instruction (or the TASK argument).")
    ] = None,
    url: Annotated[str | None, typer.Option("--url", help="The start URL.")] = None,
    suite_task: Annotated[
        str | None,
        typer.Option(
            "--suite-task",
            help="Run one task of a suite instead of --task/--url: SUITE:TASK_ID "
            "(builtin:stats-select-01-vn). Its sites start for the run; the oracle (the default "
            "model) follows its plan.",
        ),
    ] = None,
    seed: Annotated[int, typer.Option("--seed", help="Seed of the suite's sites (--suite-task).")] = 0,
    model: ModelOpt = None,
    profile: ProfileOpt = "webfovea",
    disable: DisableOpt = None,
    out_dir: Annotated[
        Path | None,
        typer.Option(
            "--out", help="Task folder to write (default: a new runs/browse/<time>-<words of the task>)."
        ),
    ] = None,
    cdp_url: Annotated[str | None, typer.Option("--cdp-url", help="Use a running browser over CDP.")] = None,
    base_url: BaseUrlOpt = None,
    coords: CoordsOpt = None,
    cap: CapOpt = None,
    observation: ObservationOpt = None,
    vision_model: VisionModelOpt = None,
    vision_base_url: VisionBaseUrlOpt = None,
    verifier: VerifierOpt = None,
    summary_model: SummaryModelOpt = None,
    models: ModelsOpt = None,
    max_steps: Annotated[
        int | None, typer.Option("--max-steps", min=1, help="Step budget (default: profile's).")
    ] = None,
    max_tokens: MaxTokensOpt = None,
    max_cost: MaxCostOpt = None,
    prices: PricesOpt = None,
    headed: HeadedOpt = False,
    task_id: Annotated[str, typer.Option("--task-id", help="Id recorded in result.json.")] = "task",
    offline: OfflineOpt = False,
    allow_domain: AllowDomainOpt = None,
    workspace: WorkspaceOpt = None,
    storage_state: StorageStateOpt = None,
    user_data_dir: UserDataDirOpt = None,
    secrets: SecretsOpt = None,
    cache: Annotated[
        Path | None,
        typer.Option(
            "--cache",
            help="Workflow cache folder: replay this task's cached steps without a model call while "
            "their targets are found again; the model decides from the first step that does not match.",
        ),
    ] = None,
) -> None:
    """Run one task: an instruction and a start URL (`webfovea run "Find …" --url URL --model
    SPEC`), or a suite's task (--suite-task). Writes result.json, trajectory.jsonl and screenshots."""
    from webfovea.app.browse import browse, default_task_dir

    if instruction is not None and task is not None:
        raise fail("give the task once: as the TASK argument or as --task")
    task = instruction if instruction is not None else task
    _check_task_options(task, url, suite_task)
    if out_dir is not None:
        check_out_dir(out_dir)
    overrides: dict[str, object] = {"max_steps": max_steps} if max_steps else {}
    overrides.update(spend_overrides(max_tokens, max_cost, prices))
    if allow_domain:
        overrides["allow_domains"] = list(allow_domain)
    if workspace is not None:
        overrides["workspace"] = str(workspace.resolve())
    overrides.update(login_overrides(storage_state, user_data_dir))
    overrides.update(secrets_overrides(secrets))
    roles = role_options(
        models=models,
        model=model,
        base_url=base_url,
        vision_model=vision_model,
        vision_base_url=vision_base_url,
        verifier=verifier,
        summary_model=summary_model,
    )
    model, base_url = roles.model or "oracle", roles.base_url
    overrides.update(vision_overrides(roles.vision_model, roles.vision_base_url))
    overrides.update(verifier_overrides(roles.verifier, roles.verifier_base_url))
    overrides.update(summary_overrides(roles.summary_model, roles.summary_base_url))
    config = build_config(model, profile, disable, coords, cap, observation=observation, **overrides)
    if suite_task is None and model.partition(":")[0].strip().lower() == "oracle":
        raise fail(NO_ORACLE_PLAN)
    check_model(model, base_url)

    def progress(rec: object) -> None:
        from webfovea.record.schema import StepRecord

        assert isinstance(rec, StepRecord)
        act = rec.action["name"] if rec.action else "(rejected)"
        act += " (cache)" if rec.cached else ""
        fb = (rec.feedback or "")[:100]
        out.print(f"step {rec.step + 1:>3}  {act:<12} {fb}", markup=False, highlight=False)

    async def main() -> BrowseResult:
        # SIGTERM ends the task like Ctrl-C: cancelled, recorded as interrupted, result.json written.
        task = asyncio.current_task()
        assert task is not None
        with contextlib.suppress(NotImplementedError, RuntimeError):
            asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, task.cancel)
        return await browse(
            t,
            model=model,
            config=config,
            out=folder,
            cdp_url=cdp_url,
            on_step=progress,
            base_url=base_url,
            offline=True if offline else None,
            cache=cache,
            headless=not headed,
        )

    with _the_task(task, url, suite_task, seed, task_id) as t:
        folder = out_dir if out_dir is not None else default_task_dir(t.task)
        try:
            with app_errors():
                done = asyncio.run(main())
        except KeyboardInterrupt:
            err.print(f"interrupted; result written to {lit(folder / 'result.json')}")
            raise typer.Exit(130) from None
        except asyncio.CancelledError:
            err.print(f"terminated; result written to {lit(folder / 'result.json')}")
            raise typer.Exit(143) from None
    result = done.result
    spent = f"  tokens: {done.tokens:,}" + (f"  cost: ${done.cost:.4f}" if done.cost is not None else "")
    out.print(
        f"status: {result.status}  answer: {lit(repr(result.answer))}  steps: {result.steps}  "
        f"{result.seconds:.1f}s{spent}"
    )
    if suite_task is not None:
        _print_score(t, result)
    if result.cache is not None:
        out.print(
            f"cache: {result.cache['cached_steps']} steps replayed, {result.usage.model_calls} model calls"
            + (
                f" (the model from step {result.cache['model_from_step']})"
                if result.cache["model_from_step"] is not None
                else ""
            ),
            markup=False,
            highlight=False,
        )
    out.print(f"written: {lit(folder)}")
    if result.status == "budget_exceeded":
        err.print(f"[yellow]budget_exceeded:[/] {lit(result.error)}")
    if result.status in ("error", "model_error", "browser_error"):
        err.print(f"[red]{result.status}:[/] {lit(result.error)}")
        raise typer.Exit(1)


NO_ORACLE_PLAN = (
    "the oracle (the default model) follows a proving-ground task's plan and has none for "
    "--task/--url. Run a suite's task with it: --suite-task builtin:stats-select-01-vn (the sites "
    "start for the run); or give a real model (--model openai:MODEL, anthropic:MODEL), or "
    "--model script:FILE to try any page without a key (replies from a file, docs/models.md)"
)


def _check_task_options(task: str | None, url: str | None, suite_task: str | None) -> None:
    from urllib.parse import urlsplit

    if suite_task is not None:
        if task is not None or url is not None:
            raise fail("give either --suite-task or a task and --url, not both")
        return
    if task is None or url is None:
        raise fail('give the task and --url: webfovea run "Find …" --url URL (or --suite-task SUITE:TASK_ID)')
    if urlsplit(url).scheme not in ("http", "https") or not urlsplit(url).netloc:
        raise fail(
            f"--url must be an http(s) address, not {url[:60]!r} (file:, data:, view-source: are never opened)"
        )


@contextlib.contextmanager
def _the_task(
    task: str | None, url: str | None, suite_task: str | None, seed: int, task_id: str
) -> Iterator[Task]:
    """The task to run: the suite's (its own id), its sites running until the block ends; else
    --task/--url."""
    if suite_task is None:
        assert task is not None and url is not None
        yield Task(task_id=task_id, task=task, website=url)
        return
    from webfovea.app.suite_task import open_suite_task

    with app_errors(), open_suite_task(suite_task, seed, ConsoleReporter()) as t:
        yield t


def _print_score(task: Task, result: TaskResult) -> None:
    """A suite task's answer against its expected one (stateful tasks are scored by `bench`)."""
    from webfovea.eval.summary import score_result

    if task.answer is None or task.state_changing or result.state is not None:
        return
    score = score_result(task, result)
    verdict = "passed" if score.passed else "failed"
    out.print(f"{verdict} (expected {task.answer!r})", markup=False, highlight=False)


@app.command()
def serve(
    seed: Annotated[int, typer.Option(help="Seed for the generated data.")] = 0,
    port: Annotated[int, typer.Option(min=0, max=65535, help="Port of the main sites (127.0.0.1).")] = 8000,
    frame_port: Annotated[
        int, typer.Option(min=0, max=65535, help="Port of the embedded, cross-origin frames (localhost).")
    ] = 8001,
) -> None:
    """Serve the proving-ground sites until Ctrl-C."""
    from webfovea.app.sites import needs_proving_ground

    with app_errors(), needs_proving_ground("webfovea serve"):
        from webfovea_proving_ground.serve import serve_forever

    try:
        serve_forever(seed, (port, frame_port))
    except OSError as e:
        raise fail(str(e)) from None


@app.command()
def report(
    run_dir: Annotated[
        Path, typer.Argument(help="A bench output folder, or the task folder `webfovea run` wrote.")
    ],
    out_file: Annotated[
        Path | None, typer.Option("--out", help="HTML file (default RUN_DIR/report.html).")
    ] = None,
    inline: Annotated[
        bool,
        typer.Option(
            "--inline",
            help="Embed the screenshots (JPEG thumbnails) so the one file travels without the run "
            "folder; default: link them, loaded as they scroll into view.",
        ),
    ] = False,
) -> None:
    """Write the HTML report of a run (screenshots linked from the run folder, or --inline)."""
    from webfovea.eval.report import write_report

    if not run_dir.is_dir():
        raise fail(f"{run_dir} is not a folder")
    path = write_report(run_dir, out_file, images="inline" if inline else "lazy")
    out.print(f"report: {lit(path)}")


@app.command()
def compare(
    run_a: Annotated[Path, typer.Argument(help="Baseline run folder.")],
    run_b: Annotated[Path, typer.Argument(help="Run folder to compare against it.")],
) -> None:
    """Tasks fixed and broken between two runs of the same suite (+x/-y)."""
    from webfovea.eval.compare import CompareError, compare_runs, format_comparison

    try:
        out.print(
            format_comparison(compare_runs(run_a, run_b)), markup=False, highlight=False, soft_wrap=True
        )
    except CompareError as e:
        raise fail(str(e)) from None


app.command()(with_suite_options("bench", bench))
app.command()(replay)
app.command()(mcp)
app.command()(with_suite_options("ab", ab))


def main() -> None:
    try:
        app()
    except KeyboardInterrupt:
        sys.exit(130)
