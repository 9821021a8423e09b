"""`run_bench`: a suite (or a task file) run, scored and summarised — `webfovea bench` as a
Python call. The options are `BenchOptions`, field for field the command's options."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from webfovea.app.config import (
    DEFAULT_MODEL,
    build_config,
    check_model,
    routed,
    summary_overrides,
    verifier_overrides,
    vision_overrides,
)
from webfovea.app.errors import AppError
from webfovea.app.inputs import check_protocol, fault_names, oracle_via_spec, read_prices, with_docs
from webfovea.app.reporter import Reporter
from webfovea.app.run import RunPlan, after_run, run_and_summarise
from webfovea.app.sites import go_offline
from webfovea.app.sources import slug, source_of
from webfovea.app.tasks import only, open_tasks
from webfovea.config import HarnessConfig
from webfovea.guardrails.spend import PriceError, SpendCap
from webfovea.record import Summary
from webfovea.secrets import Secret
from webfovea.suites import SUITES, SuiteError, SuiteOptions
from webfovea.task import Task

BACKENDS = ("local", "ray")


@dataclass
class BenchOptions:
    """What to run and how; the defaults are the command's."""

    suite: str  # a registered suite's name (`webfovea plugins` lists them) or a task file
    model: str | None = None  # the act role; None: the routes file's `act`, else oracle
    profile: str = "webfovea"
    disable: list[str] = field(default_factory=list)
    observation: str | None = None  # default: the profile's
    workers: int = 1
    out_dir: Path | None = None  # default runs/<suite>-<profile>
    cdp_urls: list[str] = field(default_factory=list)
    backend: str = "local"  # or ray
    address: str | None = None  # Ray's
    seed: int | None = None  # None: the suite's default, else 0
    ports: tuple[int, int] = (0, 0)  # main and frame sites (0 = free)
    base_url: str | None = None
    coords: str | None = None
    cap: str | None = None
    compare_with: Path | None = None
    offline: bool = False
    allow_domains: list[str] = field(default_factory=list)
    workspace: str | None = None  # files the upload action may give (None: not offered)
    storage_state: str | None = None  # saved logins: a Playwright storage state file
    user_data_dir: str | None = None  # ... or a profile folder (one sub-folder per worker)
    secrets: dict[str, Secret] = field(default_factory=dict)  # typed by name, on their origins only
    limit: int | None = None
    only: str | None = None
    faults: str | None = None
    protocol: str | None = None  # WebRetriever's I, II or III (app/protocols.py); None: the suite's scoring
    judge: str | None = None  # Protocols I/II: the judge model (NavEval); None: the rule judge
    judge_base_url: str | None = None
    docs: Path | None = None
    via: str | None = None
    prices: Path | None = None
    # The suite's own options (its plug-in declares them: `webfovea_suite_options`), by name.
    suite_options: dict[str, Any] = field(default_factory=dict)
    max_steps: int | None = None  # None: the suite's default, else the profile's
    vision_model: str | None = None
    vision_base_url: str | None = None
    verifier: str | None = None  # --verifier SPEC (None: the task's model)
    verifier_base_url: str | None = None
    summary_model: str | None = None  # --summary-model SPEC or "rule" (None: the task's model)
    summary_base_url: str | None = None
    # --models FILE: a routes.toml, a model per role (models/routes.py); the fields above win over it
    models: Path | None = None
    fresh: bool = False
    # Spending caps: a task's (it ends `budget_exceeded`) and the run's (no task starts once the
    # tasks' recorded spend reaches it); money is counted with `prices`, which a money cap needs.
    max_tokens: int | None = None
    max_cost: float | None = None
    run_max_tokens: int | None = None
    run_max_cost: float | None = None
    headed: bool = False  # launched browsers show their window


@dataclass
class BenchResult:
    out_dir: Path
    summary: Summary
    after: list[str] = field(default_factory=list)  # what the suite's post-run step reported
    comparison: str | None = None  # against `compare_with`
    protocol: dict[str, Any] | None = (
        None  # the protocol's outcome (app/protocols.py), summary.json's `protocol`
    )


def suite_defaults(suite: str, seed: int | None, max_steps: int | None) -> tuple[int, int | None]:
    """The seed and step cap a run uses: the given ones, else the suite's own defaults
    (`Suite.default_seed`, `default_max_steps`), else seed 0 and the profile's cap (None)."""
    found = SUITES.get(suite) if suite else None
    if seed is None:
        seed = found.default_seed if found is not None and found.default_seed is not None else 0
    if max_steps is None and found is not None:
        max_steps = found.default_max_steps
    if max_steps is not None and max_steps < 1:
        raise AppError("--max-steps must be at least 1")
    return seed, max_steps


def _config(
    o: BenchOptions, model: str, max_steps: int | None = None, prices: dict[str, float] | None = None
) -> HarnessConfig:
    return build_config(
        model,
        o.profile,
        o.disable or None,
        o.coords,
        o.cap,
        observation=o.observation,
        **({"allow_domains": list(o.allow_domains)} if o.allow_domains else {}),
        **({"workspace": str(Path(o.workspace).resolve())} if o.workspace else {}),
        **({"storage_state": o.storage_state} if o.storage_state else {}),
        **({"user_data_dir": o.user_data_dir} if o.user_data_dir else {}),
        **({"secrets": dict(o.secrets)} if o.secrets else {}),
        **vision_overrides(o.vision_model, o.vision_base_url),
        **verifier_overrides(o.verifier, o.verifier_base_url),
        **summary_overrides(o.summary_model, o.summary_base_url),
        **({"max_steps": max_steps} if max_steps is not None else {}),
        **({"max_tokens": o.max_tokens} if o.max_tokens is not None else {}),
        # The prices go into the config (so into the resume check) only with a money cap.
        **({"max_cost": o.max_cost, "prices": prices} if o.max_cost is not None else {}),
    )


def run_cap(o: BenchOptions, prices: dict[str, float] | None) -> SpendCap | None:
    """The run's spending cap (None without one); a money cap without prices is refused."""
    if o.run_max_tokens is None and o.run_max_cost is None:
        return None
    try:
        return SpendCap(o.run_max_tokens, o.run_max_cost, prices)
    except PriceError as e:
        raise AppError(f"--run-max-cost: {e}" if o.run_max_cost is not None else str(e)) from None


def default_out_dir(o: BenchOptions) -> Path:
    tag = (
        o.profile
        + ("" if o.observation in (None, "vision") else f"-{o.observation}")
        + "".join(f"-no-{d}" for d in o.disable)
    )
    name = slug(o.suite) if source_of(o.suite) is not None else Path(o.suite).stem
    return Path("runs") / f"{name}-{tag}"


def _select(tasks: list[Task], o: BenchOptions, faults: list[str]) -> list[Task]:
    """--only, then --limit (with variants of tasks, `pair_of`: N clean tasks and their variants;
    with --faults: N tasks spread across the sites, each with its faults), then Protocol II's manuals."""
    if o.only:
        tasks = only(tasks, o.only)
    if o.limit and any(
        (t.model_extra or {}).get("pair_of") for t in tasks
    ):  # the first N tasks with all their variants: no variant without its clean run
        kept = [t.task_id for t in tasks if not (t.model_extra or {}).get("pair_of")][: o.limit]
        tasks = [t for t in tasks if (t.model_extra or {}).get("pair_of", t.task_id) in kept]
    elif faults:
        from webfovea_proving_ground.oracle.faults import spread, with_faults

        tasks = with_faults(spread(tasks, o.limit), faults)
    elif o.limit:
        tasks = tasks[: o.limit]
    return tasks


def run_bench(options: BenchOptions, reporter: Reporter | None = None) -> BenchResult:
    """Run the suite's tasks, score the answers, write summary.json and report.html (AppError
    for options that cannot run, before any browser starts)."""
    o, reporter = routed(options), reporter or Reporter()  # each role's model, options over the file
    if o.offline:
        go_offline()
    if o.workers < 1:
        raise AppError("--workers must be at least 1")
    model = o.model or DEFAULT_MODEL
    model = oracle_via_spec(model, o.via) if o.via is not None else model
    price_table = read_prices(o.prices)
    # What the options themselves get wrong first; then the model (its key) before any browser.
    check_protocol(o.protocol, o.docs)
    if o.judge is not None and o.protocol not in ("I", "II"):
        raise AppError("--judge judges navigation under --protocol I or II; give one of them")
    if o.judge is not None:
        check_model(o.judge, o.judge_base_url)
    faults = fault_names(o.faults, model)
    check_model(model, o.base_url)
    if o.backend not in BACKENDS:
        raise AppError(f"unknown backend {o.backend!r}; use local or ray")
    seed, max_steps = suite_defaults(o.suite, o.seed, o.max_steps)
    suite, suite_options = SUITES.get(o.suite) if o.suite else None, SuiteOptions(dict(o.suite_options))
    config = _config(o, model, max_steps, price_table)
    cap = run_cap(o, price_table)
    out_dir = o.out_dir or default_out_dir(o)
    if out_dir.exists() and not out_dir.is_dir():
        raise AppError(f"--out {out_dir} is a file, not a folder; give a folder path")
    # profile and disabled are not passed: the summary takes them from the run's recorded config.
    try:
        own_run = suite.runner(suite_options) if suite is not None else None
        suite_meta = suite.meta(suite_options) if suite is not None else {}
    except SuiteError as e:
        raise AppError(str(e)) from None
    meta = {
        "model": model,
        "seed": seed,
        "workers": o.workers,
        "backend": o.backend,
        "suite": o.suite,
        "prices": price_table,
        "protocol": o.protocol,
        **({"faults": faults} if faults else {}),
        **suite_meta,
    }
    plan = RunPlan(
        model=model,
        config=config,
        meta=meta,
        workers=o.workers,
        cdp_urls=o.cdp_urls,
        backend=o.backend,
        address=o.address,
        base_url=o.base_url,
        fresh=o.fresh,
        run_cap=cap,
        headed=o.headed,
        own_run=own_run,
    )
    with open_tasks(o.suite, seed, o.ports, suite_options, reporter) as loaded:
        tasks = _select(loaded.tasks, o, faults)
        if o.docs is not None:
            tasks = with_docs(tasks, o.docs, reporter)
        how = (
            "the suite's own harness"
            if own_run is not None
            else f"profile {o.profile}, observation {config.observation}"
            + (f", disabled {', '.join(o.disable)}" if o.disable else "")
        )
        reporter.note(f"{len(tasks)} tasks -> {out_dir}  (model {model}, {how})")
        summary = run_and_summarise(tasks, out_dir, plan, loaded.handle, reporter, loaded.aliases)
        result = BenchResult(
            out_dir, summary, after_run(loaded.suite, loaded.handle, tasks, out_dir, reporter)
        )
    if o.protocol is not None:
        from webfovea.app.protocols import ProtocolJudge, finish_protocol

        result.protocol = finish_protocol(
            o.protocol, out_dir, ProtocolJudge(o.judge, o.judge_base_url), reporter
        )
    if o.compare_with is not None:
        result.comparison = _compare(o.compare_with, out_dir, reporter)
    return result


def _compare(earlier: Path, out_dir: Path, reporter: Reporter) -> str | None:
    from webfovea.eval.compare import CompareError, compare_runs, format_comparison

    try:
        text = format_comparison(compare_runs(earlier, out_dir))
    except CompareError as e:
        reporter.warn("no comparison", str(e))
        return None
    reporter.note(text)
    return text
