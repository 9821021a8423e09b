"""`webfovea judge …`: evidence (what a judge would see), run (judge a run), agree (the judge
against the truth), compare (the judge table against labels). docs/judge.md documents the
commands and every file they write."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from webfovea.cli.common import BaseUrlOpt, fail, out
from webfovea.cli.lazy import LAZY_GROUPS
from webfovea.judge import catalog as judge_methods

# Loaded only when `webfovea judge …` runs (cli/lazy.py): the catalogue imports every method.
judge_app = typer.Typer(no_args_is_help=True, help=LAZY_GROUPS["judge"].help)


def _methods_help() -> str:
    """--method's help, from the judge catalogue (judge/catalog.py): each method and what it does."""
    return "; ".join(f"{m.name}: {m.help}" for m in judge_methods.BY_NAME.values()) + "."


FilterOpt = Annotated[
    str,
    typer.Option(
        "--filter", help="Request filter: webfovea (default) or naveval (NavEval's published pipeline)."
    ),
]
ProtocolOpt = Annotated[
    str,
    typer.Option(
        "--protocol",
        help="I = navigation, II = navigation with documentation, "
        "III = end to end (the answer is judged too).",
    ),
]
MaxTokOpt = Annotated[
    int, typer.Option("--max-evidence-tokens", help="Drop the oldest requests past this budget.")
]


@judge_app.command("evidence")
def evidence(
    task_dir: Annotated[Path, typer.Argument(help="One task folder (ours or WebRetriever's).")],
    as_json: Annotated[
        bool, typer.Option("--json", help="One JSON object instead of the prompt text.")
    ] = False,
    flt: FilterOpt = "webfovea",
    protocol: ProtocolOpt = "I",
    max_tokens: MaxTokOpt = 120_000,
) -> None:
    """Print exactly what the judge would see for TASK_DIR, without calling a model."""
    from webfovea.judge.evidence import FILTERS, build_evidence
    from webfovea.judge.prompt import evidence_text

    if not task_dir.is_dir():
        raise fail(f"{task_dir} is not a folder; give one task folder of a run (it holds result.json)")
    if flt not in FILTERS:
        raise fail(f"unknown filter {flt!r}; use {' or '.join(FILTERS)}")
    ev = build_evidence(task_dir, flt=flt, max_tokens=max_tokens, with_answer=protocol == "III")
    if as_json:
        print(json.dumps({**ev.to_json(), "evidence_sha256": ev.digest()}, indent=2, ensure_ascii=False))
        return
    print(evidence_text(ev))
    print(
        f"\n[{len(ev.requests)} request(s) kept, {len(ev.dropped)} dropped; {ev.tokens} tokens ({ev.token_counter})]"
    )
    for d in ev.dropped:
        print(f"  dropped #{d['index']}: {d['reason']}  {d['url']}")
    for p in ev.problems:
        print(f"  missing: {p}")


@judge_app.command("run")
def run(
    run_dir: Annotated[Path, typer.Argument(help="A run folder (one sub-folder per task).")],
    method: Annotated[str, typer.Option("--method", help=_methods_help())] = "naveval-webfovea",
    judge: Annotated[
        str | None,
        typer.Option(
            "--judge",
            help="Judge model: openai:MODEL, anthropic:MODEL, replay:PATH (an earlier RUN_DIR/judge).",
        ),
    ] = None,
    workers: Annotated[int, typer.Option("--workers", help="Tasks judged at once.")] = 4,
    flt: FilterOpt = "webfovea",
    protocol: ProtocolOpt = "I",
    cache: Annotated[
        bool, typer.Option("--cache/--no-cache", help="Reuse verdicts of identical evidence.")
    ] = True,
    max_tokens: MaxTokOpt = 120_000,
    base_url: BaseUrlOpt = None,
    out_dir: Annotated[
        Path | None,
        typer.Option(
            "--out",
            help="Where the records go (default RUN_DIR/judge; `judge compare` reads RUN_DIR/judges/METHOD).",
        ),
    ] = None,
) -> None:
    """Judge every task folder of RUN_DIR; writes RUN_DIR/judge/<task_id>.json and summary.json."""
    from webfovea.judge.run import JudgeOptions, judge_run

    if not run_dir.is_dir():
        raise fail(f"{run_dir} is not a folder; give a run folder written by `webfovea bench`")
    if workers < 1:
        raise fail("--workers must be at least 1")
    opts = JudgeOptions(
        method=method,
        judge=judge,
        filter=flt,
        protocol=protocol,
        workers=workers,
        cache=cache,
        max_tokens=max_tokens,
        base_url=base_url,
        out_dir=out_dir,
    )
    done = [0]

    def progress(r: object) -> None:
        done[0] += 1
        verdict = getattr(r, "verdict", None)
        unparsed = getattr(r, "unparsed", False)
        word = "pass" if verdict else "fail" if verdict is False else "unparsed" if unparsed else "no verdict"
        out.print(
            f"[{done[0]}] {getattr(r, 'task_id', '?')}: {word}"
            + (" (cached)" if getattr(r, "cached", False) else ""),
            markup=False,
            highlight=False,
        )

    try:
        summary = judge_run(run_dir, opts, on_done=progress)
    except ValueError as e:
        raise fail(str(e)) from None
    rate = "n/a" if summary.judged_success_rate is None else f"{summary.judged_success_rate:.1%}"
    out.print(
        f"judged {summary.judged}/{summary.n} (no verdict: {summary.no_verdict}, of which unparsed: "
        f"{summary.unparsed}; with missing evidence: "
        f"{summary.with_problems}, cached: {summary.cached}); judged success rate {rate}; "
        f"tokens {summary.usage['prompt_tokens']}+{summary.usage['completion_tokens']} in "
        f"{summary.usage['calls']} call(s)"
    )
    out.print(f"written: {out_dir or run_dir / 'judge'}")
    from webfovea.eval.report import write_report

    try:  # the report shows each verdict and its reasons next to the task
        out.print(f"report:  {write_report(run_dir)}")
    except (OSError, ValueError) as e:
        out.print(f"report not rewritten: {e}", markup=False)


@judge_app.command("agree")
def agree(
    run_dir: Annotated[Path, typer.Argument(help="A judged run folder (RUN_DIR/judge exists).")],
    truth: Annotated[
        str,
        typer.Option(
            "--truth",
            help="programmatic (result.json truth) or human:FILE "
            "(JSON/JSONL task id -> 0 fail, 1 success, 2 not executable).",
        ),
    ] = "programmatic",
    protocol: Annotated[
        str | None,
        typer.Option(
            "--protocol", help="Which truth: I = nav_ok, III = nav_ok and answer_ok (default: the judge's)."
        ),
    ] = None,
    bootstrap: Annotated[
        int, typer.Option("--bootstrap", help="Bootstrap resamples for the 95% intervals.")
    ] = 2000,
    seed: Annotated[int, typer.Option("--seed", help="Bootstrap seed.")] = 0,
) -> None:
    """The judge's agreement with the truth: rate, kappa, confusion, per fault; RUN_DIR/judge/agreement.json."""
    from webfovea.judge.agree import AgreementError, agreement, format_agreement

    try:
        result = agreement(run_dir, truth=truth, protocol=protocol, bootstrap=bootstrap, seed=seed)
    except AgreementError as e:
        raise fail(str(e)) from None
    out.print(format_agreement(result), markup=False, highlight=False)
    out.print(f"written: {run_dir / 'judge' / 'agreement.json'}")


@judge_app.command("compare")
def compare(
    labels: Annotated[
        str,
        typer.Argument(
            help="A label file (JSONL or CSV: task_id, label success|failure|unsure, note, labeller, "
            "time), `beside` (each run's RUN_DIR/labels.jsonl), `site` (the proving ground's truth) "
            "or webretriever:FILE (released 0/1/2 labels)."
        ),
    ],
    runs: Annotated[list[Path], typer.Argument(help="Run folders (one sub-folder per task).")],
    methods: Annotated[
        str, typer.Option("--methods", help="Comma-separated judge methods, one table row each.")
    ],
    judge: Annotated[
        str | None,
        typer.Option(
            "--judge",
            help="Judge model for a method a run has no verdicts of yet (judged into "
            "RUN_DIR/judges/METHOD/); without it such a run is refused.",
        ),
    ] = None,
    protocol: ProtocolOpt = "I",
    workers: Annotated[int, typer.Option("--workers", help="Tasks judged at once.")] = 4,
    out_path: Annotated[Path, typer.Option("--out", help="Writes OUT.json and OUT.md.")] = Path(
        "judge-compare"
    ),
    seed: Annotated[int, typer.Option("--seed", help="Bootstrap seed.")] = 0,
    base_url: BaseUrlOpt = None,
) -> None:
    """WebRetriever's judge table: per method AR with the labels, false-accept and false-reject
    rates, Cohen's kappa, a bootstrap 95% CI; printed, and written as JSON and Markdown."""
    from rich import box
    from rich.table import Table

    from webfovea.judge.compare import CompareError, JudgeSetup, table_cells, write_outputs
    from webfovea.judge.compare import compare as make_table
    from webfovea.judge.labels import LabelFileError

    names = [m.strip() for m in methods.split(",") if m.strip()]
    setup = JudgeSetup(judge=judge, base_url=base_url, protocol=protocol, workers=max(1, workers))
    try:
        report = make_table(labels, runs, names, setup, seed=seed)
    except (CompareError, LabelFileError, ValueError) as e:
        raise fail(str(e)) from None
    table = Table(
        title=f"judge table, protocol {protocol} (percent)", title_justify="left", box=box.SIMPLE_HEAD
    )
    table.add_column("method", no_wrap=True)
    for h in ("n", "AR", "95% CI", "FAR", "FRR", "kappa", "avg AR"):
        table.add_column(h, justify="right", no_wrap=True)
    for row in report["methods"]:
        cells = table_cells(row)
        table.add_row(cells[0], *cells[2:9])
    out.print(table)
    for row in report["methods"]:
        ex = row["excluded"]
        out.print(
            f"{row['method']}: judge {row['judge_model'] or '-'}; left out: {ex['unparsed']} unparsed "
            f"replies, {ex['no_verdict']} other records without a verdict, {ex['unsure']} unsure, "
            f"{ex['no_label']} without a label",
            markup=False,
            highlight=False,
        )
    out.print(
        f"labels: {labels}. AR: agreement with the labels; FAR: labelled failures judged "
        "successful; FRR: labelled successes judged failed; avg AR: the mean of the runs' ARs.",
        markup=False,
        highlight=False,
    )
    js, md = write_outputs(report, out_path)
    out.print(f"written: {js} and {md}", markup=False, highlight=False)
