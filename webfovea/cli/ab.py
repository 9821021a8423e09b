"""`webfovea ab`: the same tasks, budgets and seeds in every arm, then one comparison (ab.json +
report.html), through `webfovea.app.run_ab`. docs/ab.md describes the output."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from webfovea.cli.common import (
    BaseUrlOpt,
    CapOpt,
    ConsoleReporter,
    CoordsOpt,
    ModelOpt,
    ModelsOpt,
    PricesOpt,
    SummaryModelOpt,
    VerifierOpt,
    VisionBaseUrlOpt,
    VisionModelOpt,
    app_errors,
    lit,
    out,
)


def ab(
    suite_or_file: Annotated[
        str,
        typer.Argument(
            help="A suite (`webfovea plugins` lists them) or a task file (as for `webfovea bench`)."
        ),
    ],
    arms: Annotated[
        str | None,
        typer.Option(
            "--arms",
            help="Comma-separated arms: profiles (webfovea, reference, winner) or observation modes "
            "(vision, structured, hybrid). The first is the baseline of every pair.",
        ),
    ] = None,
    arm: Annotated[
        list[str] | None,
        typer.Option(
            "--arm",
            help="One more arm, NAME=PROFILE[:KEY=VALUE,...], e.g. lean=webfovea:disable=select,fill or "
            "ws=winner:observation=structured (repeatable).",
        ),
    ] = None,
    out_dir: Annotated[
        Path, typer.Option("--out", help="Output folder: one run folder per arm, ab.json, report.html.")
    ] = Path("runs/ab"),
    model: ModelOpt = None,
    seeds: Annotated[
        int,
        typer.Option(
            "--seeds",
            min=1,
            help="Repeats with proving-ground seeds s..s+N-1 (s: the suite's own seed, else 0); "
            "tasks are paired by (seed, task).",
        ),
    ] = 1,
    limit: Annotated[
        int | None, typer.Option("--limit", min=1, help="Run only the first N tasks of each seed.")
    ] = None,
    only: Annotated[
        str | None,
        typer.Option(
            "--only",
            help="Run only the tasks whose id matches one of these "
            "comma-separated patterns (shell-style, as for `bench`); "
            "applied before --limit.",
        ),
    ] = None,
    workers: Annotated[int, typer.Option("--workers", min=1, help="Browsers running at once, per arm.")] = 1,
    max_steps: Annotated[
        int | None,
        typer.Option(
            "--max-steps",
            min=1,
            help="Step budget of every arm (default: the suite's own, else 80).",
        ),
    ] = None,
    max_seconds: Annotated[
        float, typer.Option("--max-seconds", min=1.0, help="Seconds per task in every arm.")
    ] = 1800.0,
    base_url: BaseUrlOpt = None,
    coords: CoordsOpt = None,
    cap: CapOpt = None,
    vision_model: VisionModelOpt = None,
    vision_base_url: VisionBaseUrlOpt = None,
    verifier: VerifierOpt = None,
    summary_model: SummaryModelOpt = None,
    models: ModelsOpt = None,
    protocol_ablation: Annotated[
        bool,
        typer.Option(
            "--protocol-ablation",
            help="WebRetriever's ablation table instead of arms: Protocol I ± manuals, II ± manuals, "
            "III ± the extraction requirement, three bench runs of the same tasks in OUT (I/, II/, "
            "III/), the table in OUT/ablation.json and .md. Needs --manuals.",
        ),
    ] = False,
    manuals: Annotated[
        Path | None,
        typer.Option("--manuals", help="--protocol-ablation: the reviewed manuals, <task_id>.md."),
    ] = None,
    judge: Annotated[
        str | None,
        typer.Option(
            "--judge",
            help="--protocol-ablation: navigation's judge model (NavEval); default: the rule judge.",
        ),
    ] = None,
    judge_base_url: Annotated[
        str | None, typer.Option("--judge-base-url", help="The --judge model's endpoint, when it needs one.")
    ] = None,
    faults: Annotated[
        str | None,
        typer.Option("--faults", help="--protocol-ablation: the oracle's fault plans, as for `bench`."),
    ] = None,
    prices: PricesOpt = None,
    suite_options: dict[str, Any] | None = None,  # the plug-ins' own options (cli/suite_options.py)
) -> None:
    """Run every arm on the same tasks, budgets and seeds; compare them (pass rates, paired
    fixed/broken with an exact McNemar test, cost per step) in OUT/ab.json and OUT/report.html."""
    from webfovea.app.ab import AbOptions, run_ab

    if protocol_ablation:
        if arms or arm or seeds != 1:
            raise typer.BadParameter(
                "--protocol-ablation runs its own three arms: drop --arms, --arm, --seeds"
            )
        if manuals is None:
            raise typer.BadParameter(
                "--protocol-ablation needs --manuals DIR (`webfovea manual` writes them)"
            )
        _ablation(
            suite_or_file,
            manuals,
            out_dir,
            model=model,
            judge=judge,
            judge_base_url=judge_base_url,
            limit=limit,
            only=only,
            faults=faults,
            workers=workers,
            max_steps=max_steps,
            base_url=base_url,
            prices=prices,
            suite_options=dict(suite_options or {}),
        )
        return
    if manuals is not None or judge is not None or faults is not None or prices is not None:
        raise typer.BadParameter("--manuals, --judge, --faults and --prices go with --protocol-ablation")

    options = AbOptions(
        suite=suite_or_file,
        arms=arms,
        arm=list(arm or []),
        out_dir=out_dir,
        model=model,
        seeds=seeds,
        limit=limit,
        only=only,
        workers=workers,
        max_steps=max_steps,
        max_seconds=max_seconds,
        suite_options=dict(suite_options or {}),
        base_url=base_url,
        coords=coords,
        cap=cap,
        vision_model=vision_model,
        vision_base_url=vision_base_url,
        verifier=verifier,
        summary_model=summary_model,
        models=models,
    )
    with app_errors():
        result = run_ab(options, ConsoleReporter())
    for line in result.lines:
        out.print(line, markup=False, highlight=False)
    if result.data.get("label"):
        out.print("(oracle numbers: the harness is measured, not a model)", markup=False)
    out.print(f"ab.json: {lit(result.path)}")
    out.print(f"report:  {lit(result.report)}")


def _ablation(suite: str, manuals: Path, out_dir: Path, **kw: Any) -> None:
    from webfovea.app.protocol_ablation import AblationOptions, run_protocol_ablation

    with app_errors():
        result = run_protocol_ablation(AblationOptions(suite, manuals, out_dir, **kw), ConsoleReporter())
    for line in result.lines:
        out.print(line, markup=False, highlight=False)
    if result.table.get("label"):
        out.print("(oracle numbers: the harness is measured, not a model)", markup=False)
    out.print(f"ablation.json: {lit(result.json_path)}")
    out.print(f"ablation.md:   {lit(result.md_path)}")
