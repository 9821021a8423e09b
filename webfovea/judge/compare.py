"""`webfovea judge compare LABELS RUN... --methods …`: WebRetriever's judge table.

For each method, every task folder of every run is paired with its label, and the table gives
the agreement rate (AR) with the labels, the false-accept rate (labelled failures the judge
passed: fp / (fp + tn)) and the false-reject rate (labelled successes it failed: fn / (fn + tp)),
read per label since failures dominate; Cohen's κ; a bootstrap 95% interval of AR
(webfovea/stats.py); AR per run and its mean over runs (the seed's "average AR" over agents).

Labels (`LABELS`): a label file (judge/labels.py: JSONL or CSV; `unsure` left out and counted),
`beside` (each run's own RUN_DIR/labels.jsonl), `site` (the proving ground's own request log,
result.json `truth`, as `judge agree` reads it) or `webretriever:FILE` (WebRetriever's and
Online-Mind2Web's released 0/1/2 labels; 2, not executable, counts as unsure).

Verdicts: a method's records are RUN_DIR/judges/<method>/, else RUN_DIR/judge/ when its summary
names the method; a run without them is judged now into RUN_DIR/judges/<method>/ when the method
asks no model or a `--judge` model is given. A record without a verdict (an unparsed reply, a
failed call) is left out and counted — an unparsed reply apart — never read as a failure.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from webfovea.judge import catalog
from webfovea.judge.agree import human_labels, kappa, site_truth
from webfovea.judge.labels import LABEL_FILE, Label, LabelFileError, read_labels
from webfovea.judge.records import JudgeRecord, read_judge_records
from webfovea.judge.run import JUDGE_DIR, JudgeOptions, judge_run, record_ids, task_folders
from webfovea.record import read_result
from webfovea.stats import BOOTSTRAP, bootstrap

JUDGES_DIR = "judges"  # RUN_DIR/judges/<method>/: one method's records, side by side


class CompareError(ValueError):
    """The table cannot be made; the message says what to do."""


@dataclass
class JudgeSetup:
    judge: str | None = None  # model spec for methods that have no records yet
    base_url: str | None = None
    protocol: str = "I"
    workers: int = 4


@dataclass
class _Tally:
    pairs: list[tuple[bool, bool]] = field(default_factory=list)  # (verdict, label)
    per_run: dict[str, list[tuple[bool, bool]]] = field(default_factory=dict)
    excluded: dict[str, int] = field(
        default_factory=lambda: {"unsure": 0, "no_label": 0, "unparsed": 0, "no_verdict": 0}
    )
    models: set[str] = field(default_factory=set)


def _rate(num: int, den: int) -> float | None:
    return round(num / den, 4) if den else None


def row_of(method: str, pairs: list[tuple[bool, bool]], seed: int) -> dict[str, Any]:
    """One method's numbers from its (verdict, label) pairs."""
    tp = sum(j and t for j, t in pairs)
    fp = sum(j and not t for j, t in pairs)
    tn = sum(not j and not t for j, t in pairs)
    fn = sum(not j and t for j, t in pairs)
    agree = [1.0 if j == t else 0.0 for j, t in pairs]
    return {
        "method": method,
        "n": len(pairs),
        "labelled_success": tp + fn,
        "labelled_failure": fp + tn,
        "ar": _rate(tp + tn, len(pairs)),
        "ar_ci95": bootstrap(agree, f"{seed}:{method}") or None,
        "far": _rate(fp, fp + tn),
        "frr": _rate(fn, fn + tp),
        "kappa": kappa(pairs),
        "confusion": {"tp": tp, "fp": fp, "tn": tn, "fn": fn},
    }


def _labels_for(spec: str) -> dict[str, Label] | None:
    """The labels a spec names for every run (None: `site` or `beside`, read per run)."""
    if spec in ("site", "beside"):
        return None
    if spec.startswith("webretriever:"):
        path = Path(spec.partition(":")[2])
        try:
            raw = human_labels(path)
        except ValueError as e:
            raise LabelFileError(str(e)) from None
        words = {0: "failure", 1: "success", 2: "unsure"}
        return {t: Label(t, words[v], note="not executable" if v == 2 else "") for t, v in raw.items()}
    return read_labels(Path(spec))


def records_dir(run: Path, method: str) -> Path | None:
    """Where a run keeps this method's records, if anywhere."""
    own = run / JUDGES_DIR / method
    if (own / "summary.json").is_file():
        return own
    summary = run / JUDGE_DIR / "summary.json"
    try:
        if json.loads(summary.read_text(encoding="utf-8")).get("method") == method:
            return run / JUDGE_DIR
    except (OSError, ValueError, AttributeError):
        pass
    return None


def _records(run: Path, method: str, setup: JudgeSetup) -> dict[str, JudgeRecord]:
    found = records_dir(run, method)
    if found is None:
        needs_model = catalog.get(method).model
        if needs_model and not setup.judge:
            raise CompareError(
                f"{run} has no verdicts of {method}: give --judge MODEL_SPEC to judge it now, or run "
                f"`webfovea judge run {run} --method {method} --judge SPEC --out {run / JUDGES_DIR / method}`"
            )
        found = run / JUDGES_DIR / method
        opts = JudgeOptions(
            method=method,
            judge=setup.judge if needs_model else None,
            protocol=setup.protocol,
            workers=setup.workers,
            base_url=setup.base_url,
            out_dir=found,
        )
        judge_run(run, opts)
    return read_judge_records(found)


def _tally(
    runs: list[Path], method: str, spec: str, shared: dict[str, Label] | None, setup: JudgeSetup
) -> _Tally:
    tally = _Tally()
    for run in runs:
        records = _records(run, method, setup)
        labels = shared
        if spec == "beside":
            labels = read_labels(run / LABEL_FILE)
        folders = task_folders(run)
        ids = record_ids(folders)
        pairs = tally.per_run.setdefault(str(run), [])
        for folder in folders:
            tid = ids[folder]
            if labels is None:
                truth = site_truth(read_result(folder), setup.protocol)
            else:
                label = labels.get(tid)
                truth = None if label is None else label.success
                if label is not None and truth is None:
                    tally.excluded["unsure"] += 1
                    continue
            if truth is None:
                tally.excluded["no_label"] += 1
                continue
            rec = records.get(tid)
            if rec is None or rec.verdict is None:
                tally.excluded["unparsed" if rec is not None and rec.unparsed else "no_verdict"] += 1
                continue
            tally.models.add(rec.judge_model)
            pairs.append((bool(rec.verdict), truth))
        tally.pairs += pairs
    return tally


def _shared_ids(runs: list[Path]) -> set[str]:
    seen: dict[str, str] = {}
    clash = set()
    for run in runs:
        for tid in record_ids(task_folders(run)).values():
            if tid in seen and seen[tid] != str(run):
                clash.add(tid)
            seen[tid] = str(run)
    return clash


def compare(
    labels: str, runs: list[Path], methods: list[str], setup: JudgeSetup | None = None, *, seed: int = 0
) -> dict[str, Any]:
    """The judge table: one row per method (fields: docs/judge.md, "The judge table")."""
    setup = setup or JudgeSetup()
    if not methods:
        raise CompareError("give at least one method (--methods naveval,webjudge,...)")
    for m in methods:
        catalog.get(m)  # an unknown name is a ValueError naming the others
    runs = [Path(r) for r in runs]
    for run in runs:
        if not run.is_dir() or not task_folders(run):
            raise CompareError(f"{run} is not a run folder (sub-folders with result.json)")
    shared = _labels_for(labels)
    if shared is not None and len(runs) > 1 and (clash := _shared_ids(runs) & set(shared)):
        raise CompareError(
            f"task id(s) {', '.join(sorted(clash)[:5])} are in more than one run, and one label file "
            "cannot say which run a label is for: label each run beside it (RUN_DIR/labels.jsonl) "
            "and give `beside`"
        )
    rows = []
    for method in methods:
        tally = _tally(runs, method, labels, shared, setup)
        row = row_of(method, tally.pairs, seed)
        per_run = {r: {"n": len(p), "ar": row_of(method, p, seed)["ar"]} for r, p in tally.per_run.items()}
        ars = [v["ar"] for v in per_run.values() if v["ar"] is not None]
        rows.append(
            {
                **row,
                "judge_model": ", ".join(sorted(tally.models)) or None,
                "avg_ar": round(sum(ars) / len(ars), 4) if ars else None,
                "per_run": per_run,
                "excluded": tally.excluded,
            }
        )
    return {
        "labels": labels,
        "runs": [str(r) for r in runs],
        "protocol": setup.protocol,
        "bootstrap": BOOTSTRAP,
        "seed": seed,
        "methods": rows,
    }


def _pct(v: float | None) -> str:
    return "n/a" if v is None else f"{v * 100:.1f}"


def table_cells(row: dict[str, Any]) -> list[str]:
    """A row as the table shows it: AR, FAR, FRR and average AR in percent, κ as a number."""
    ci = row["ar_ci95"]
    ex = row["excluded"]
    return [
        row["method"],
        row["judge_model"] or "-",
        str(row["n"]),
        _pct(row["ar"]),
        f"{_pct(ci[0])}-{_pct(ci[1])}" if ci else "n/a",
        _pct(row["far"]),
        _pct(row["frr"]),
        "n/a" if row["kappa"] is None else f"{row['kappa']:.3f}",
        _pct(row["avg_ar"]),
        str(ex["unparsed"]),
        str(ex["no_verdict"]),
        str(ex["unsure"]),
        str(ex["no_label"]),
    ]


HEADERS = [
    "method",
    "judge",
    "n",
    "AR %",
    "AR 95% CI",
    "FAR %",
    "FRR %",
    "kappa",
    "avg AR % (runs)",
    "unparsed",
    "no verdict",
    "unsure",
    "no label",
]


def markdown(report: dict[str, Any]) -> str:
    lines = [
        f"# Judge table: labels {report['labels']}, protocol {report['protocol']}",
        "",
        "| " + " | ".join(HEADERS) + " |",
        "|" + "---|" * len(HEADERS),
    ]
    lines += [
        "| " + " | ".join(c.replace("|", "\\|") for c in table_cells(r)) + " |" for r in report["methods"]
    ]
    lines += [
        "",
        "AR: agreement with the labels; FAR: labelled failures judged successful, fp / (fp + tn); FRR: "
        f"labelled successes judged failed, fn / (fn + tp); 95% CI of AR: {report['bootstrap']} bootstrap "
        f"resamples (seed {report['seed']}). Runs: {', '.join(report['runs'])}.",
    ]
    return "\n".join(lines) + "\n"


def write_outputs(report: dict[str, Any], out: Path) -> tuple[Path, Path]:
    """OUT.json and OUT.md (OUT without a suffix)."""
    from webfovea.record import write_json_atomic

    out.parent.mkdir(parents=True, exist_ok=True)
    js = write_json_atomic(out.with_suffix(".json"), report)
    md = out.with_suffix(".md")
    md.write_text(markdown(report), encoding="utf-8")
    return js, md
