"""`webfovea judge agree`: how far to trust a judge — its verdicts against the truth.

Truth is `programmatic` (result.json `truth`, from the sites' own request log: nav_ok for
Protocols I/II, nav_ok and answer_ok for III) or `human:FILE` (WebRetriever / Online-Mind2Web
labels: task id -> 0 fail, 1 success, 2 not executable; 2 is left out and counted apart).
Reports agreement, Cohen's kappa, the confusion matrix, precision/recall of the success
class, judged SR minus true SR, accuracy per fault, and bootstrap 95% intervals.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

from webfovea.judge.records import RESERVED, read_judge_records
from webfovea.judge.run import JUDGE_DIR, record_ids, task_folders
from webfovea.record import TaskResult, read_result, write_json_atomic


class AgreementError(ValueError):
    """Agreement cannot be computed; the message says what to do."""


def human_labels(path: Path) -> dict[str, int]:
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as e:
        raise AgreementError(f"cannot read {path}: {e.strerror}") from None
    rows: list[Any] = []
    try:
        data = json.loads(text)
        rows = [data] if isinstance(data, dict) else list(data)
    except ValueError:
        try:
            rows = [json.loads(line) for line in text.splitlines() if line.strip()]
        except ValueError as e:
            raise AgreementError(f"{path} is neither JSON nor JSONL: {e}") from None
    labels: dict[str, int] = {}
    for row in rows:
        if not isinstance(row, dict):
            raise AgreementError(f"{path}: each entry must be an object (task id -> label, or task_id/label)")
        if "task_id" in row:
            items = [(str(row["task_id"]), row.get("label", row.get("human_label", row.get("score"))))]
        else:
            items = [(str(k), v) for k, v in row.items()]
        for tid, label in items:
            if tid.lower() in RESERVED:
                raise AgreementError(
                    f"{path}: task id {tid!r} collides with the judge's own files; rename it"
                )
            if label not in (0, 1, 2):
                raise AgreementError(
                    f"{path}: label of {tid!r} is {label!r}; use 0 (fail), 1 (success), 2 (not executable)"
                )
            labels[tid] = int(label)
    return labels


def kappa(pairs: list[tuple[bool, bool]]) -> float | None:
    n = len(pairs)
    if not n:
        return None
    po = sum(j == t for j, t in pairs) / n
    pj, pt = sum(j for j, _ in pairs) / n, sum(t for _, t in pairs) / n
    pe = pj * pt + (1 - pj) * (1 - pt)
    if pe >= 1.0:  # one class only on both sides: kappa is undefined
        return None
    return round((po - pe) / (1 - pe), 4)


def pair_stats(pairs: list[tuple[bool, bool]]) -> dict[str, Any]:
    n = len(pairs)
    tp = sum(j and t for j, t in pairs)
    fp = sum(j and not t for j, t in pairs)
    tn = sum(not j and not t for j, t in pairs)
    fn = sum(not j and t for j, t in pairs)
    return {
        "n": n,
        "positives": tp + fn,
        "agreement": round((tp + tn) / n, 4) if n else None,
        "kappa": kappa(pairs),
        "confusion": {"tp": tp, "fp": fp, "tn": tn, "fn": fn},
        "precision": round(tp / (tp + fp), 4) if tp + fp else None,
        "recall": round(tp / (tp + fn), 4) if tp + fn else None,
        "judged_sr": round((tp + fp) / n, 4) if n else None,
        "true_sr": round((tp + fn) / n, 4) if n else None,
        "sr_difference": round((fp - fn) / n, 4) if n else None,
    }


def _bootstrap(pairs: list[tuple[bool, bool]], times: int, seed: int) -> dict[str, list[float] | None]:
    keys = ("agreement", "kappa", "sr_difference", "precision", "recall")
    if not pairs or times <= 0:
        return dict.fromkeys(keys)
    rng = random.Random(seed)
    samples: dict[str, list[float]] = {k: [] for k in keys}
    for _ in range(times):
        s = pair_stats([pairs[rng.randrange(len(pairs))] for _ in pairs])
        for k in keys:
            if s[k] is not None:
                samples[k].append(s[k])
    out: dict[str, list[float] | None] = {}
    for k, vals in samples.items():
        vals.sort()
        out[k] = (
            [round(vals[int(0.025 * (len(vals) - 1))], 4), round(vals[int(0.975 * (len(vals) - 1))], 4)]
            if vals
            else None
        )
    return out


def site_truth(result: TaskResult | None, protocol: str) -> bool | None:
    """What the proving ground's own request log says of a run (result.json `truth`): navigation
    right (Protocols I/II), and the answer too (III); None when the site could not tell."""
    t = (result.truth if result else None) or {}
    if not t.get("valid"):
        return None
    return bool(t.get("nav_ok")) and (protocol != "III" or bool(t.get("answer_ok")))


def agreement(
    run_dir: Path,
    *,
    truth: str = "programmatic",
    protocol: str | None = None,
    bootstrap: int = 2000,
    seed: int = 0,
) -> dict[str, Any]:
    run_dir = Path(run_dir)
    judge_dir = run_dir / JUDGE_DIR
    records = read_judge_records(judge_dir) if judge_dir.is_dir() else {}
    if not records:
        raise AgreementError(f"{judge_dir} holds no judge records; run `webfovea judge run {run_dir}` first")
    first = next(iter(records.values()))
    protocol = protocol or first.protocol
    human = human_labels(Path(truth[len("human:") :])) if truth.startswith("human:") else None
    if human is None and truth != "programmatic":
        raise AgreementError(f"unknown truth {truth!r}; use programmatic or human:FILE")
    pairs: list[tuple[bool, bool]] = []
    faults: dict[str, list[tuple[bool, bool]]] = {}
    excluded = {"no_verdict": 0, "no_truth": 0, "not_executable": 0}
    folders = task_folders(run_dir)
    ids = record_ids(folders)  # two folders with one task id: each has its own record
    for folder in folders:
        tid = ids[folder]
        rec = records.get(tid)
        if rec is None or rec.verdict is None:  # a folder linked out of the run has none
            excluded["no_verdict"] += 1
            continue
        result = read_result(folder)
        if human is not None:
            label = human.get(tid)
            if label is None:
                excluded["no_truth"] += 1
                continue
            if label == 2:
                excluded["not_executable"] += 1
                continue
            true = label == 1
        else:
            site = site_truth(result, protocol)
            if site is None:
                excluded["no_truth"] += 1
                continue
            true = site
        pair = (bool(rec.verdict), true)
        pairs.append(pair)
        faults.setdefault((result.fault if result else None) or "none", []).append(pair)
    if not pairs:
        raise AgreementError(
            "no task has both a verdict and a truth label; see the judge records' errors and "
            "result.json `truth` (bench the built-in suite to get programmatic truth)"
        )
    report = {
        "run": str(run_dir),
        "truth": truth,
        "protocol": protocol,
        "method": first.method,
        "judge_model": first.judge_model,
        "filter": first.filter,
        **pair_stats(pairs),
        "excluded": excluded,
        "per_fault": {
            f: {"n": len(p), "agreement": pair_stats(p)["agreement"], "positives": pair_stats(p)["positives"]}
            for f, p in sorted(faults.items())
        },
        "ci95": _bootstrap(pairs, bootstrap, seed),
        "bootstrap": bootstrap,
        "bootstrap_seed": seed,
    }
    write_json_atomic(judge_dir / "agreement.json", report)
    return report


def format_agreement(r: dict[str, Any]) -> str:
    def ci(k: str) -> str:
        v = r["ci95"].get(k)
        return f" [{v[0]:.3f}, {v[1]:.3f}]" if v else ""

    c = r["confusion"]
    kappa = "n/a (one class)" if r["kappa"] is None else f"{r['kappa']:.3f}{ci('kappa')}"
    lines = [
        f"{r['method']} judge ({r['judge_model']}) vs {r['truth']} truth, protocol {r['protocol']}",
        f"n {r['n']}  positives {r['positives']}  excluded {r['excluded']}",
        f"agreement {r['agreement']:.3f}{ci('agreement')}   kappa {kappa}",
        f"confusion tp {c['tp']}  fp {c['fp']}  tn {c['tn']}  fn {c['fn']}",
        f"precision {r['precision']}  recall {r['recall']}",
        f"judged SR {r['judged_sr']}  true SR {r['true_sr']}  difference {r['sr_difference']:+.3f}{ci('sr_difference')}",
        "per fault:",
    ]
    lines += [f"  {f:<22} n {v['n']:>4}  agreement {v['agreement']:.3f}" for f, v in r["per_fault"].items()]
    return "\n".join(lines)
