"""`run_ab`: the same tasks, budgets and seeds in every arm, then one comparison (ab.json +
report.html) — `webfovea ab` as a Python call. Arms are profiles, observation modes or
NAME=PROFILE[:KEY=VALUE,...] specs (webfovea/eval/arms.py); docs/ab.md describes the output."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from webfovea.app.bench import suite_defaults
from webfovea.app.config import DEFAULT_MODEL, routed, summary_overrides, verifier_overrides, vision_overrides
from webfovea.app.errors import AppError
from webfovea.app.reporter import Reporter
from webfovea.app.run import RunPlan, run_and_summarise
from webfovea.app.tasks import only, open_tasks
from webfovea.config import HarnessConfig
from webfovea.eval.arms import Arm
from webfovea.suites import SUITES, SuiteOptions
from webfovea.task import Task

ORACLE_LABEL = (
    "ORACLE NUMBERS: the oracle is a test instrument that always decides right; these figures "
    "measure the harness in each arm, not a real model"
)


@dataclass
class AbOptions:
    suite: str  # a registered suite's name or a task file (as for run_bench)
    arms: str | None = None  # comma-separated profiles or observation modes; the first is the baseline
    arm: list[str] = field(default_factory=list)  # NAME=PROFILE[:KEY=VALUE,...] specs
    out_dir: Path = Path("runs/ab")
    model: str | None = None  # the act role; None: the routes file's `act`, else oracle
    seeds: int = 1  # proving-ground seeds 0..N-1; tasks are paired by (seed, task)
    limit: int | None = None  # the first N tasks of each seed
    only: str | None = None
    workers: int = 1  # per arm
    max_steps: int | None = None  # None: the suite's default, else 80
    # The suite's own options (its plug-in declares them), by name; every arm runs the same tasks.
    suite_options: dict[str, Any] = field(default_factory=dict)
    max_seconds: float = 1800.0
    base_url: str | None = None
    coords: str | None = None
    cap: str | None = None
    vision_model: str | None = None
    vision_base_url: str | None = None
    verifier: str | None = None  # --verifier SPEC: every arm whose `verifier` is on asks it
    verifier_base_url: str | None = None
    summary_model: str | None = None  # --summary-model SPEC or "rule": every arm's history summary
    summary_base_url: str | None = None
    models: Path | None = None  # --models FILE: a model per role (models/routes.py); options win


@dataclass
class AbResult:
    data: dict[str, Any]  # ab.json's content
    path: Path  # ab.json
    report: Path  # report.html
    lines: list[str]  # the terminal view (eval.ab.format_ab)


def _first(tasks: list[Task], n: int) -> list[Task]:
    """The first N tasks — with a pairing, the first N base tasks with all their variants."""
    if not any((t.model_extra or {}).get("pair_of") for t in tasks):
        return tasks[:n]
    kept = [t.task_id for t in tasks if not (t.model_extra or {}).get("pair_of")][:n]
    return [t for t in tasks if (t.model_extra or {}).get("pair_of", t.task_id) in kept]


def _is_oracle(model: str) -> bool:
    # The model *kind* (the spec's prefix), the one the factory registers: a label, not behaviour.
    return model.split(":", 1)[0].strip().lower() == "oracle"


def _configs(o: AbOptions, model: str, budgets: dict[str, Any]) -> tuple[list[Arm], dict[str, HarnessConfig]]:
    from webfovea.eval.arms import ArmError, arm_config, parse_arms

    try:
        parsed = parse_arms(o.arms, o.arm or None)
        configs: dict[str, HarnessConfig] = {
            a.name: arm_config(a, model=model, budgets=budgets, coords=o.coords, cap=o.cap) for a in parsed
        }
    except ArmError as e:
        raise AppError(str(e)) from None
    vision = vision_overrides(o.vision_model, o.vision_base_url)  # every arm asks the same vision model
    vision.update(verifier_overrides(o.verifier, o.verifier_base_url))
    vision.update(summary_overrides(o.summary_model, o.summary_base_url))
    return parsed, {name: c.model_copy(update=vision) for name, c in configs.items()}


def run_ab(options: AbOptions, reporter: Reporter | None = None) -> AbResult:
    """Run every arm on the same tasks, budgets and seeds; compare them (pass rates, paired
    fixed/broken with an exact McNemar test, cost per step) in OUT/ab.json and OUT/report.html."""
    from webfovea.eval.ab import build_ab, format_ab, write_ab
    from webfovea.eval.report import write_report

    o, reporter = routed(options), reporter or Reporter()  # each role's model, options over the file
    model = o.model or DEFAULT_MODEL
    if o.seeds < 1:
        raise AppError("--seeds must be at least 1")
    if o.workers < 1:
        raise AppError("--workers must be at least 1")
    first_seed, max_steps = suite_defaults(o.suite, None, o.max_steps)
    budgets = {"max_steps": max_steps or 80, "max_seconds": o.max_seconds}
    parsed, configs = _configs(o, model, budgets)
    if o.out_dir.exists() and not o.out_dir.is_dir():
        raise AppError(f"--out {o.out_dir} is a file, not a folder; give a folder path")
    o.out_dir.mkdir(parents=True, exist_ok=True)
    seed_list = list(range(first_seed, first_seed + o.seeds))  # from the suite's own seed
    tasks_per_seed = 0
    suite_options = SuiteOptions(dict(o.suite_options))
    suite = SUITES.get(o.suite)
    for seed in seed_list:
        with open_tasks(o.suite, seed, options=suite_options, reporter=reporter) as loaded:
            tasks = only(loaded.tasks, o.only) if o.only else loaded.tasks
            if o.limit:
                tasks = _first(tasks, o.limit)
            tasks_per_seed = len(tasks)
            for a in parsed:
                run_dir = o.out_dir / a.name if o.seeds == 1 else o.out_dir / a.name / f"seed-{seed}"
                reporter.note(f"arm {a.name} (seed {seed}): {len(tasks)} tasks -> {run_dir}")
                meta = {"model": model, "seed": seed, "workers": o.workers, "suite": o.suite, "arm": a.name}
                plan = RunPlan(
                    model=model, config=configs[a.name], meta=meta, workers=o.workers, base_url=o.base_url
                )
                summary = run_and_summarise(tasks, run_dir, plan, loaded.handle, reporter, loaded.aliases)
                if not summary.complete:
                    reporter.warn(f"arm {a.name} is partial", "missing tasks count as failed in ab.json")
    meta_ab: dict[str, Any] = {
        "suite": o.suite,
        "model": model,
        "tasks_per_seed": tasks_per_seed,
        "limit": o.limit,
        "only": o.only,
        "budgets": budgets,
        **(suite.meta(suite_options) if suite is not None else {}),
    }
    if _is_oracle(model):
        meta_ab["label"] = ORACLE_LABEL
    arm_info = [
        (a.name, {"spec": a.to_json(), "outside_rules": configs[a.name].outside_rules()}) for a in parsed
    ]
    data = build_ab(o.out_dir, arm_info, seed_list, meta_ab)
    path = write_ab(o.out_dir, data)
    report = write_report(o.out_dir)
    return AbResult(data, path, report, format_ab(data))
