"""The A/B comparison: the same tasks, budgets and seeds in every arm, read back from the arms'
run folders into `ab.json` (format: docs/ab.md).

Per arm: pass rate, steps, input tokens and observation bytes per step, seconds per step,
the rates of stale references, truncated observations and guard firings when the step
records carry them (optional fields, so a vision-only build reports null), statuses, and pass
rates per failure class. Per pair of arms: the tasks one fixed and the other broke, paired
by (seed, task), with an exact McNemar test, overall and per failure class; and for a suite
whose tasks carry variants (`pair_of`, `primitive`: BreakingWeb's `--pairing official`), per primitive:
each arm's paired drop (clean − intervention pass rate), the difference of the two drops with a
paired bootstrap interval, and fixed/broken among the intervention runs with McNemar.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from math import comb
from pathlib import Path
from typing import Any

from webfovea.record import read_result, read_run_tasks, read_summary_file, write_json_atomic
from webfovea.record.atomic import RecordError
from webfovea.record.confined import UnsafeFile, read_text
from webfovea.record.schema import TRAJECTORY_JSONL
from webfovea.stats import bootstrap

AB_JSON = "ab.json"
AB_VERSION = 1
# Optional step-record fields an observation mode may write; counted when present.
STALE_FIELDS = ("stale_ref", "stale_reference")
TRUNCATED_FIELDS = ("snapshot_truncated", "truncated")
GUARD_FIELDS = ("guards", "guard_firings")
SNAPSHOT_BYTES_FIELDS = ("snapshot_bytes", "shown_bytes")


def mcnemar_exact(fixed: int, broken: int) -> float:
    """Two-sided exact McNemar p-value: the binomial test of the discordant pairs against 1/2."""
    n = fixed + broken
    if n == 0:
        return 1.0
    k = min(fixed, broken)
    tail = sum(comb(n, i) for i in range(k + 1)) / 2**n
    return min(1.0, float(f"{2 * tail:.6g}"))  # significant digits: tiny p stays non-zero


@dataclass
class Outcome:
    """One (seed, task) of one arm."""

    passed: bool
    classes: list[str]
    status: str
    primitive: str | None = None  # a paired intervention run: its family's primitive
    pair_of: str | None = None  # ... and its clean run's task id


def _steps(task_dir: Path) -> list[dict[str, Any]]:
    """Raw step records (optional fields a newer writer added survive, unlike StepRecord)."""
    path = task_dir / TRAJECTORY_JSONL
    out: list[dict[str, Any]] = []
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except OSError:
        return out
    for line in lines:
        try:
            out.append(json.loads(line))
        except ValueError:  # a torn last line
            continue
    return out


def _first(step: dict[str, Any], names: tuple[str, ...]) -> Any:
    return next((step[n] for n in names if step.get(n) is not None), None)


def _count(value: Any) -> int:
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, (int, float)):
        return int(value)
    if isinstance(value, dict):  # firings by kind
        return sum(_count(v) for v in value.values())
    if isinstance(value, list):
        return len(value)
    if isinstance(value, str):  # a reason (a stale ref's): one occurrence
        return int(bool(value))
    return 0


def _rate(part: float, whole: float) -> float | None:
    return round(part / whole, 4) if whole else None


def arm_stats(runs: dict[int, Path]) -> tuple[dict[str, Any], dict[tuple[int, str], Outcome]]:
    """The arm's figures over its runs (one folder per seed), and each (seed, task)'s outcome."""
    outcomes: dict[tuple[int, str], Outcome] = {}
    steps = prompt_tokens = obs_bytes = 0
    seconds = 0.0
    stale = truncated = guards = compressions = 0
    seen = {"stale": False, "truncated": False, "guards": False}
    statuses: dict[str, int] = {}
    paired: dict[str, Any] = {}
    for seed, run_dir in sorted(runs.items()):
        loaded = read_summary_file(run_dir)
        if loaded is None:
            continue
        if loaded[0].extensions and len(runs) == 1:
            paired = {"extensions": loaded[0].extensions}  # each plug-in's block, as its summary has it
        variants = _variants(run_dir)
        for tid, row in loaded[0].per_task.items():
            prim, clean = variants.get(tid, (None, None))
            outcomes[(seed, tid)] = Outcome(row.passed, list(row.failure_classes), row.status, prim, clean)
            statuses[row.status] = statuses.get(row.status, 0) + 1
            task_dir = run_dir / tid
            result = read_result(task_dir)
            if result is not None:
                steps += result.steps
                prompt_tokens += result.usage.prompt_tokens
                seconds += result.seconds
            for rec in _steps(task_dir):
                # Structured/hybrid steps keep their snapshot figures in `snapshot_info`
                # (truncated, guards by kind, shown_bytes): read them like top-level fields.
                rec = {**(rec.get("snapshot_info") or {}), **{k: v for k, v in rec.items() if v is not None}}
                shot = rec.get("screenshot")
                if shot and (task_dir / shot).is_file():
                    obs_bytes += (task_dir / shot).stat().st_size
                obs_bytes += _count(_first(rec, SNAPSHOT_BYTES_FIELDS))
                for key, names in (
                    ("stale", STALE_FIELDS),
                    ("truncated", TRUNCATED_FIELDS),
                    ("guards", GUARD_FIELDS),
                ):
                    value = _first(rec, names)
                    if value is None:
                        continue
                    seen[key] = True
                    if key == "stale":
                        stale += _count(value)
                    elif key == "truncated":
                        truncated += _count(value)
                    else:
                        guards += _count(value)
                compressions += int(bool(rec.get("compression")))
    n = len(outcomes)
    passed = sum(o.passed for o in outcomes.values())
    stats = {
        "tasks": n,
        "passed": passed,
        "pass_rate": _rate(passed, n) or 0.0,
        "steps": steps,
        "steps_per_task": _rate(steps, n),
        "input_tokens_per_step": _rate(prompt_tokens, steps),
        "observation_bytes_per_step": _rate(obs_bytes, steps),
        "seconds_per_step": _rate(seconds, steps),
        "stale_ref_rate": _rate(stale, steps) if seen["stale"] else None,
        "truncation_rate": _rate(truncated, steps) if seen["truncated"] else None,
        "guard_firings": guards if seen["guards"] else None,
        "compressions": compressions,
        "statuses": dict(sorted(statuses.items())),
        "per_failure_class": _per_class(outcomes),
        **paired,
    }
    return stats, outcomes


def _variants(run_dir: Path) -> dict[str, tuple[str, str]]:
    """{intervention task id: (primitive, clean task id)} from the run's tasks.json."""
    try:
        tasks = read_run_tasks(run_dir) or []
    except RecordError:
        return {}
    out = {}
    for t in tasks:
        extra = t.model_extra or {}
        if extra.get("pair_of") and extra.get("primitive"):
            out[t.task_id] = (str(extra["primitive"]), str(extra["pair_of"]))
    return out


def per_primitive_pairs(
    a: dict[tuple[int, str], Outcome], b: dict[tuple[int, str], Outcome]
) -> dict[str, dict[str, Any]]:
    """Per primitive, over the intervention runs both arms ran with their clean runs: each arm's
    paired drop, B's drop minus A's with a 95% paired bootstrap interval, and fixed/broken among
    the intervention runs (fixed: A failed, B passed) with an exact McNemar test."""
    by_prim: dict[str, list[tuple[tuple[int, str], tuple[int, str]]]] = {}
    for key, o in a.items():
        clean = (key[0], o.pair_of or "")
        if o.primitive and key in b and clean in a and clean in b:
            by_prim.setdefault(o.primitive, []).append((clean, key))
    out = {}
    for prim, keys in sorted(by_prim.items()):
        da = [int(a[c].passed) - int(a[k].passed) for c, k in keys]
        db = [int(b[c].passed) - int(b[k].passed) for c, k in keys]
        fixed = sum(1 for _, k in keys if not a[k].passed and b[k].passed)
        broken = sum(1 for _, k in keys if a[k].passed and not b[k].passed)
        n = len(keys)
        out[prim] = {
            "pairs": n,
            "a_intervention_pass": round(sum(a[k].passed for _, k in keys) / n, 4),
            "b_intervention_pass": round(sum(b[k].passed for _, k in keys) / n, 4),
            "a_delta": round(sum(da) / n, 4),
            "b_delta": round(sum(db) / n, 4),
            "delta_difference": round((sum(db) - sum(da)) / n, 4),
            "delta_difference_ci": bootstrap([y - x for x, y in zip(da, db, strict=True)], f"ab|{prim}"),
            "fixed": fixed,
            "broken": broken,
            "mcnemar_p": mcnemar_exact(fixed, broken),
        }
    return out


def _per_class(outcomes: dict[tuple[int, str], Outcome]) -> dict[str, dict[str, Any]]:
    counts: dict[str, list[int]] = {}
    for o in outcomes.values():
        for c in o.classes:
            t = counts.setdefault(c, [0, 0])
            t[0] += 1
            t[1] += int(o.passed)
    return {c: {"tasks": t, "passed": p, "pass_rate": _rate(p, t)} for c, (t, p) in sorted(counts.items())}


def _label(key: tuple[int, str], seeds: int) -> str:
    return key[1] if seeds <= 1 else f"{key[1]}@seed{key[0]}"


def pair_stats(
    a: dict[tuple[int, str], Outcome], b: dict[tuple[int, str], Outcome], seeds: int
) -> dict[str, Any]:
    """B against baseline A over the (seed, task) pairs both ran: fixed = fail in A, pass in B."""
    keys = sorted(set(a) & set(b))
    fixed = [k for k in keys if not a[k].passed and b[k].passed]
    broken = [k for k in keys if a[k].passed and not b[k].passed]
    classes = sorted({c for k in keys for c in a[k].classes})
    per_class = {}
    for c in classes:
        f = sum(1 for k in fixed if c in a[k].classes)
        br = sum(1 for k in broken if c in a[k].classes)
        per_class[c] = {"fixed": f, "broken": br, "mcnemar_p": mcnemar_exact(f, br)}
    return {
        "pairs": len(keys),
        "passed_a": sum(a[k].passed for k in keys),
        "passed_b": sum(b[k].passed for k in keys),
        "both_passed": sum(a[k].passed and b[k].passed for k in keys),
        "both_failed": sum(not a[k].passed and not b[k].passed for k in keys),
        "fixed": [_label(k, seeds) for k in fixed],
        "broken": [_label(k, seeds) for k in broken],
        "mcnemar_p": mcnemar_exact(len(fixed), len(broken)),
        "per_failure_class": per_class,
        **({"per_primitive": prims} if (prims := per_primitive_pairs(a, b)) else {}),
    }


def build_ab(
    out_dir: Path, arms: list[tuple[str, dict[str, Any]]], seeds: list[int], meta: dict[str, Any]
) -> dict[str, Any]:
    """ab.json's content from the arms' run folders (`<out>/<arm>/` or `<out>/<arm>/seed-<k>/`)."""
    out_dir = Path(out_dir)
    entries: dict[str, Any] = {}
    outcomes: dict[str, dict[tuple[int, str], Outcome]] = {}
    for name, info in arms:
        runs = {s: arm_run_dir(out_dir, name, s, len(seeds)) for s in seeds}
        stats, outcomes[name] = arm_stats(runs)
        rels = [str(p.relative_to(out_dir)) for p in runs.values()]
        entries[name] = {**info, "runs": rels, **stats}
    names = [n for n, _ in arms]
    pairs = [
        {"a": x, "b": y, **pair_stats(outcomes[x], outcomes[y], len(seeds))}
        for i, x in enumerate(names)
        for y in names[i + 1 :]
    ]
    return {"version": AB_VERSION, **meta, "seeds": seeds, "arms": entries, "pairs": pairs}


def arm_run_dir(out_dir: Path, arm: str, seed: int, n_seeds: int) -> Path:
    return Path(out_dir) / arm if n_seeds <= 1 else Path(out_dir) / arm / f"seed-{seed}"


def write_ab(out_dir: Path, data: dict[str, Any]) -> Path:
    return write_json_atomic(Path(out_dir) / AB_JSON, data)


def read_ab_file(out_dir: Path) -> tuple[Any, str | None]:
    """ab.json's parsed content (any JSON: the report checks its shape), or None and why not
    in one line. Read inside the folder only (`record/confined.py`)."""
    try:
        return json.loads(read_text(Path(out_dir), AB_JSON)), None
    except FileNotFoundError:
        return None, "no ab.json"
    except UnsafeFile as e:
        return None, str(e)
    except (OSError, ValueError) as e:  # not UTF-8, not JSON, unreadable
        return None, f"not a readable JSON file ({' '.join(str(e).split())[:160]})"


def format_ab(data: dict[str, Any]) -> list[str]:
    """Plain-text lines for the terminal: one per arm, one per pair."""
    lines = []
    for name, a in data["arms"].items():
        lines.append(
            f"{name:<14} {a['passed']}/{a['tasks']} ({a['pass_rate']:.0%})  steps/task "
            f"{a['steps_per_task'] or 0:.1f}  tokens/step {a['input_tokens_per_step'] or 0:.0f}  "
            f"s/step {a['seconds_per_step'] or 0:.2f}"
        )
    for p in data["pairs"]:
        lines.append(
            f"{p['b']} vs {p['a']}: +{len(p['fixed'])}/−{len(p['broken'])}  "
            f"exact McNemar p={p['mcnemar_p']:.3g}  ({p['pairs']} paired tasks)"
        )
        for prim, q in (p.get("per_primitive") or {}).items():
            lines.append(
                f"  {prim:<15} drop {p['a']} {q['a_delta']:+.2f}  {p['b']} {q['b_delta']:+.2f}  "
                f"(+{q['fixed']}/−{q['broken']}, {q['pairs']} pairs)"
            )
    return lines
