"""`webfovea ab`: the same tasks, budgets and seeds in every arm, then one comparison (ab.json +
report.html). Arms are profiles, observation modes or NAME=PROFILE[:KEY=VALUE,...] specs
(webfovea/eval/arms.py); docs/ab.md describes the output."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from webfovea.cli.common import (
    BaseUrlOpt,
    CapOpt,
    CoordsOpt,
    ModelOpt,
    VisionBaseUrlOpt,
    VisionModelOpt,
    check_out_dir,
    err,
    fail,
    lit,
    out,
    vision_overrides,
)
from webfovea.cli.runs import _only, _run_and_summarise, _tasks_for
from webfovea.config import HarnessConfig

ORACLE_LABEL = (
    "ORACLE NUMBERS: the oracle is a test instrument that always decides right; these figures "
    "measure the harness in each arm, not a real model"
)


def _is_oracle(model: str) -> bool:
    # The model *kind* (the spec's prefix), the one the factory registers: a label, not behaviour.
    return model.split(":", 1)[0].strip().lower() == "oracle"


def ab(
    suite_or_file: Annotated[str, typer.Argument(help="'builtin' or a task file (as for `webfovea bench`).")],
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
    model: ModelOpt = "oracle",
    seeds: Annotated[
        int,
        typer.Option(
            "--seeds",
            min=1,
            help="Repeats with proving-ground seeds 0..N-1; tasks are paired by (seed, task).",
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
    max_steps: Annotated[int, typer.Option("--max-steps", min=1, help="Step budget of every arm.")] = 80,
    max_seconds: Annotated[
        float, typer.Option("--max-seconds", min=1.0, help="Seconds per task in every arm.")
    ] = 1800.0,
    base_url: BaseUrlOpt = None,
    coords: CoordsOpt = None,
    cap: CapOpt = None,
    vision_model: VisionModelOpt = None,
    vision_base_url: VisionBaseUrlOpt = None,
) -> None:
    """Run every arm on the same tasks, budgets and seeds; compare them (pass rates, paired
    fixed/broken with an exact McNemar test, cost per step) in OUT/ab.json and OUT/report.html."""
    from webfovea.eval.ab import build_ab, format_ab, write_ab
    from webfovea.eval.arms import ArmError, arm_config, parse_arms
    from webfovea.eval.report import write_report

    if seeds < 1:
        raise fail("--seeds must be at least 1")
    if workers < 1:
        raise fail("--workers must be at least 1")
    budgets = {"max_steps": max_steps, "max_seconds": max_seconds}
    try:
        parsed = parse_arms(arms, arm)
        configs: dict[str, HarnessConfig] = {
            a.name: arm_config(a, model=model, budgets=budgets, coords=coords, cap=cap) for a in parsed
        }
    except ArmError as e:
        raise fail(str(e)) from None
    vision = vision_overrides(vision_model, vision_base_url)  # every arm asks the same vision model
    configs = {name: c.model_copy(update=vision) for name, c in configs.items()}
    check_out_dir(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    seed_list = list(range(seeds))
    tasks_per_seed = 0
    for seed in seed_list:
        with _tasks_for(suite_or_file, seed, (0, 0)) as (tasks, handle):
            if only:
                tasks = _only(tasks, only)
            if limit:
                tasks = tasks[:limit]
            tasks_per_seed = len(tasks)
            for a in parsed:
                run_dir = out_dir / a.name if seeds == 1 else out_dir / a.name / f"seed-{seed}"
                out.print(f"[bold]arm {a.name}[/] (seed {seed}): {len(tasks)} tasks -> {lit(run_dir)}")
                run_meta = {
                    "model": model,
                    "seed": seed,
                    "workers": workers,
                    "suite": suite_or_file,
                    "arm": a.name,
                }
                summary = _run_and_summarise(
                    tasks,
                    run_dir,
                    model=model,
                    config=configs[a.name],
                    workers=workers,
                    cdp_urls=None,
                    backend="local",
                    address=None,
                    base_url=base_url,
                    meta=run_meta,
                    handle=handle,
                )
                if summary is not None and not summary.complete:
                    err.print(f"[yellow]arm {a.name} is partial[/]: missing tasks count as failed in ab.json")
    meta: dict[str, Any] = {
        "suite": suite_or_file,
        "model": model,
        "tasks_per_seed": tasks_per_seed,
        "limit": limit,
        "only": only,
        "budgets": budgets,
    }
    if _is_oracle(model):
        meta["label"] = ORACLE_LABEL
    arm_info = [
        (a.name, {"spec": a.to_json(), "outside_rules": configs[a.name].outside_rules()}) for a in parsed
    ]
    data = build_ab(out_dir, arm_info, seed_list, meta)
    path = write_ab(out_dir, data)
    report = write_report(out_dir)
    for line in format_ab(data):
        out.print(line, markup=False, highlight=False)
    if meta.get("label"):
        out.print("(oracle numbers: the harness is measured, not a model)", markup=False)
    out.print(f"ab.json: {lit(path)}")
    out.print(f"report:  {lit(report)}")
