"""`run_protocol_ablation`: WebRetriever's ablation table (seed 004) from one call —
`webfovea ab SUITE --protocol-ablation --manuals DIR`.

Three bench runs of the same tasks, budgets and model in one parent folder (I/, II/, III/:
judge/ablation.py says what each row reads), then the table in OUT/ablation.json and
OUT/ablation.md. The III run is judged for navigation too, for the row without extraction.
Re-running the same command resumes each arm, as `bench` does.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from webfovea.app.bench import BenchOptions, run_bench
from webfovea.app.config import DEFAULT_MODEL
from webfovea.app.errors import AppError
from webfovea.app.inputs import check_protocol
from webfovea.app.protocols import NAVEVAL, RULE
from webfovea.app.reporter import Reporter

TABLE = "ablation"  # OUT/ablation.json, OUT/ablation.md


@dataclass
class AblationOptions:
    suite: str  # a registered suite or a task file, as for bench
    manuals: Path  # Protocol II's reviewed manuals (`webfovea manual` writes them)
    out_dir: Path = Path("runs/protocol-ablation")
    model: str | None = None
    judge: str | None = None  # navigation's judge model (NavEval); None: the rule judge
    judge_base_url: str | None = None
    limit: int | None = None
    only: str | None = None
    faults: str | None = None  # the oracle's fault plans (proving ground), as for bench
    seed: int | None = None
    workers: int = 1
    max_steps: int | None = None
    base_url: str | None = None
    prices: Path | None = None
    suite_options: dict[str, Any] = field(default_factory=dict)


@dataclass
class AblationResult:
    table: dict[str, Any]
    json_path: Path
    md_path: Path
    lines: list[str]


def _bench(o: AblationOptions, protocol: str, docs: Path | None) -> BenchOptions:
    return BenchOptions(
        o.suite,
        model=o.model,
        out_dir=o.out_dir / protocol,
        protocol=protocol,
        docs=docs,
        judge=o.judge if protocol != "III" else None,  # bench judges navigation under I/II only
        judge_base_url=o.judge_base_url if protocol != "III" else None,
        limit=o.limit,
        only=o.only,
        faults=o.faults,
        seed=o.seed,
        workers=o.workers,
        max_steps=o.max_steps,
        base_url=o.base_url,
        prices=o.prices,
        suite_options=dict(o.suite_options),
    )


def _judge_navigation(run: Path, o: AblationOptions) -> None:
    """The III run's trajectories judged for navigation alone, as Protocol I judges them."""
    from webfovea.judge.run import JudgeOptions, judge_run

    method = RULE if o.judge is None else NAVEVAL
    opts = JudgeOptions(method=method, judge=o.judge, base_url=o.judge_base_url, protocol="I")
    try:
        judge_run(run, opts)
    except (ValueError, OSError) as e:
        raise AppError(f"Protocol III without extraction: judging navigation failed: {e}") from None


def run_protocol_ablation(options: AblationOptions, reporter: Reporter | None = None) -> AblationResult:
    """Run arms I, II and III on the same tasks, then write and return the ablation table."""
    from webfovea.judge.ablation import AblationError, ablation_table, format_lines, markdown
    from webfovea.record import write_json_atomic, write_text_atomic

    o, reporter = options, reporter or Reporter()
    check_protocol("II", o.manuals)  # the manuals are checked before any arm runs
    if o.out_dir.exists() and not o.out_dir.is_dir():
        raise AppError(f"--out {o.out_dir} is a file, not a folder; give a folder path")
    for protocol, docs in (("I", None), ("II", o.manuals), ("III", None)):
        reporter.note(f"protocol ablation: arm {protocol} -> {o.out_dir / protocol}")
        run_bench(_bench(o, protocol, docs), reporter)
    _judge_navigation(o.out_dir / "III", o)
    model = o.model or DEFAULT_MODEL
    meta: dict[str, Any] = {
        "suite": o.suite,
        "model": model,
        "navigation_judge": RULE if o.judge is None else f"{NAVEVAL} ({o.judge})",
        "manuals": str(o.manuals),
        "limit": o.limit,
        "only": o.only,
        "faults": o.faults,
    }
    if model.split(":", 1)[0].strip().lower() == "oracle":
        from webfovea.app.ab import ORACLE_LABEL

        meta["label"] = ORACLE_LABEL
    try:
        table = ablation_table(o.out_dir, meta)
    except AblationError as e:
        raise AppError(str(e)) from None
    json_path = write_json_atomic(o.out_dir / f"{TABLE}.json", table)
    md_path = o.out_dir / f"{TABLE}.md"
    write_text_atomic(md_path, markdown(table))
    return AblationResult(table, json_path, md_path, format_lines(table))


__all__ = ["AblationOptions", "AblationResult", "run_protocol_ablation"]
