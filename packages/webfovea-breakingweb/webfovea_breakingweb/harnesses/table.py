"""The harness × condition table: the same decision-maker through several harnesses on the same
BreakingWeb tasks, each run clean and under its official intervention (runs of `webfovea bench
breakingweb --pairing official [--harness ...]`). Per harness: clean pass, intervention pass, Δ
with its 95% paired bootstrap interval (webfovea/stats.py, paired.py's `group`), the failed
intervention runs split into belief failures (the agent declared success: send_msg_to_user /
finished, and the backend says otherwise — seed 003 §4) and action failures (it never got there:
step or time cap, report_infeasible, an error); and the harness effect: each harness's clean and
intervention pass against the first harness's on the tasks both ran, with a paired interval.

Every output says the decision-maker is an instrument. Reads summary.json only: any finished run
is tabulated again without the apps.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from webfovea.record import TaskRow, read_summary_file
from webfovea.stats import bootstrap
from webfovea_breakingweb.harnesses.oracle import INSTRUMENT
from webfovea_breakingweb.paired import Pair, group

VARIANT_SEP = "--"  # suite.py: a variant's id is <task>--<family short name>


class TableError(ValueError):
    """A run folder that cannot be tabulated; the message says which and why."""


@dataclass
class HarnessRun:
    label: str
    folder: Path
    rows: dict[str, TaskRow]
    model: str
    wall_s: float | None


def harness_label(meta: dict[str, Any], rows: dict[str, Any], folder: Path) -> str:
    harness = meta.get("harness") or "webfovea"
    if harness == "gui":
        return f"gui ({meta.get('model_family') or 'claude'})"
    if harness != "webfovea":
        return str(harness)
    observation = None
    for tid in rows:
        try:
            cfg = json.loads((folder / tid / "result.json").read_text(encoding="utf-8")).get("config") or {}
        except (OSError, ValueError):
            continue
        observation = cfg.get("observation")
        break
    return f"webfovea {observation or 'vision'}"


def load_run(spec: str) -> HarnessRun:
    """`RUN` or `RUN=LABEL`: a finished run folder."""
    folder, _, label = spec.partition("=")
    path = Path(folder)
    found = read_summary_file(path)
    if found is None:
        raise TableError(f"{path}: no summary.json (is it a finished `webfovea bench` run?)")
    summary = found[0]
    meta = dict(summary.meta or {})
    if meta.get("suite") != "breakingweb" or not meta.get("paired"):
        raise TableError(f"{path}: not a paired BreakingWeb run (`bench breakingweb --pairing official`)")
    rows = dict(summary.per_task)
    # The tasks' own seconds, summed: a resumed run's summary spans the pause between its parts.
    wall = sum(float(r.seconds) for r in rows.values())
    return HarnessRun(label or harness_label(meta, rows, path), path, rows, str(meta.get("model", "")), wall)


def pairs(rows: dict[str, TaskRow]) -> dict[str, Pair]:
    """{clean task id: its pair} for every variant whose clean run is in the rows."""
    out = {}
    for tid, row in sorted(rows.items()):
        base, sep, family = tid.partition(VARIANT_SEP)
        if sep and base in rows:
            out[base] = Pair(family, "", "", rows[base], row)
    return out


def _is_belief(row: TaskRow) -> bool:
    return row.status == "finished" and bool(row.answer)  # an empty finish is a give-up


def harness_row(run: HarnessRun) -> dict[str, Any]:
    ps = pairs(run.rows)
    if not ps:
        raise TableError(f"{run.folder}: no clean/intervention pair with both runs")
    stats = group(list(ps.values()), f"harness|{run.label}")
    failed = [p.under for p in ps.values() if not p.under.passed]
    failed_clean = [p.clean for p in ps.values() if not p.clean.passed]
    belief = sum(_is_belief(r) for r in failed)
    return {
        "harness": run.label,
        "run": str(run.folder),
        "model": run.model,
        "pairs": stats.pairs,
        "clean_pass": stats.clean_pass,
        "intervention_pass": stats.intervention_pass,
        "delta": stats.delta,
        "delta_ci": stats.delta_ci,
        "belief_failures": belief,
        "action_failures": len(failed) - belief,
        "clean_belief_failures": sum(_is_belief(r) for r in failed_clean),
        "clean_action_failures": len(failed_clean) - sum(_is_belief(r) for r in failed_clean),
        "wall_s": None if run.wall_s is None else round(run.wall_s, 1),
    }


def _mean(xs: list[float]) -> float:
    return round(sum(xs) / len(xs), 4) if xs else 0.0


def harness_effect(ref: HarnessRun, other: HarnessRun) -> dict[str, Any]:
    """`other` − `ref` on the pairs both ran: clean and intervention pass, paired intervals."""
    a, b = pairs(ref.rows), pairs(other.rows)
    common = sorted(set(a) & set(b))
    clean = [float(b[t].clean.passed) - float(a[t].clean.passed) for t in common]
    under = [float(b[t].under.passed) - float(a[t].under.passed) for t in common]
    return {
        "harness": other.label,
        "against": ref.label,
        "pairs": len(common),
        "clean_diff": _mean(clean),
        "clean_diff_ci": bootstrap(clean, f"harness-effect|clean|{ref.label}|{other.label}"),
        "intervention_diff": _mean(under),
        "intervention_diff_ci": bootstrap(under, f"harness-effect|under|{ref.label}|{other.label}"),
    }


def harness_table(specs: list[str]) -> dict[str, Any]:
    if not specs:
        raise TableError("give at least one run folder")
    runs = [load_run(s) for s in specs]
    return {
        "decision_maker": INSTRUMENT,
        "harnesses": [harness_row(r) for r in runs],
        "harness_effect": [harness_effect(runs[0], r) for r in runs[1:]],
    }


def _pct(x: float) -> str:
    return f"{100 * x:.0f}%"


def _ci(ci: list[float]) -> str:
    return f"[{ci[0]:+.2f}, {ci[1]:+.2f}]" if ci else ""


def markdown(table: dict[str, Any]) -> str:
    lines = [
        f"> {table['decision_maker']}",
        "",
        "| harness | pairs | clean pass | intervention pass | Δ [95% paired CI] | belief failures | action failures | task time (sum) |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for r in table["harnesses"]:
        wall = "" if r["wall_s"] is None else f"{r['wall_s']:.0f} s"
        lines.append(
            f"| {r['harness']} | {r['pairs']} | {_pct(r['clean_pass'])} | {_pct(r['intervention_pass'])} | "
            f"{r['delta']:+.2f} {_ci(r['delta_ci'])} | {r['belief_failures']} | {r['action_failures']} | {wall} |"
        )
    if table["harness_effect"]:
        ref = table["harness_effect"][0]["against"]
        lines += [
            "",
            f"Harness effect against {ref} (same pairs; pass-rate difference, 95% paired bootstrap):",
            "",
            "| harness | pairs | clean | intervention |",
            "|---|---|---|---|",
        ]
        for e in table["harness_effect"]:
            lines.append(
                f"| {e['harness']} | {e['pairs']} | {e['clean_diff']:+.2f} {_ci(e['clean_diff_ci'])} | "
                f"{e['intervention_diff']:+.2f} {_ci(e['intervention_diff_ci'])} |"
            )
    lines += ["", "Belief and action failures count the failed intervention runs."]
    return "\n".join(lines) + "\n"


def terminal(table: dict[str, Any]) -> Any:
    """A Rich renderable: the table with the instrument's note as its caption."""
    from rich.table import Table

    t = Table(title="harness × condition", caption=table["decision_maker"])
    for col in ("harness", "pairs", "clean", "interv.", "Δ [95% CI]", "belief", "action", "task time"):
        t.add_column(col, no_wrap=col == "harness")
    for r in table["harnesses"]:
        t.add_row(
            r["harness"],
            str(r["pairs"]),
            _pct(r["clean_pass"]),
            _pct(r["intervention_pass"]),
            f"{r['delta']:+.2f} {_ci(r['delta_ci'])}",
            str(r["belief_failures"]),
            str(r["action_failures"]),
            "" if r["wall_s"] is None else f"{r['wall_s']:.0f} s",
        )
    return t
