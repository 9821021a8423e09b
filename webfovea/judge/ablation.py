"""WebRetriever's ablation table (seed 004, Tables 5 and 6) from three finished runs of the same
tasks: Protocol I ± documentation, Protocol II ± documentation, Protocol III ± the extraction
requirement.

The runs (app/protocol_ablation.py makes them, one parent folder):
  I/    `bench --protocol I`: no manuals; its judge records (RUN/judge) are navigation success
  II/   `bench --protocol II --manuals DIR`: the same tasks with the manuals; judged the same way
  III/  `bench --protocol III`: the answers scored (summary.json `per_task`) and, for the row
        without extraction, the same trajectories judged for navigation (RUN/judge)

On one task set the paper's two documentation comparisons read the same two runs (its
Protocol I and II task sets overlap only in part): "I, add documentation" is the II run and
"II, remove documentation" the I run. Removing extraction re-scores the very same
trajectories, so that difference is the gap between reaching the page and delivering the
answer, not a separate model's. Each changed condition is paired task by task with its
protocol's own condition: the difference, its 95% paired bootstrap interval and the exact
McNemar p of the discordant tasks.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from webfovea.eval.ab import mcnemar_exact
from webfovea.judge.records import read_judge_records
from webfovea.stats import BOOTSTRAP, bootstrap

ARMS = ("I", "II", "III")
NAVIGATION, ANSWER = "navigation", "answer"

# (protocol, condition, arm, outcome, index of the row it is paired with or None)
ROWS: tuple[tuple[str, str, str, str, int | None], ...] = (
    ("I", "without documentation (as defined)", "I", NAVIGATION, None),
    ("I", "add documentation", "II", NAVIGATION, 0),
    ("II", "with documentation (as defined)", "II", NAVIGATION, None),
    ("II", "remove documentation", "I", NAVIGATION, 2),
    ("III", "require extraction (as defined)", "III", ANSWER, None),
    ("III", "remove extraction requirement", "III", NAVIGATION, 4),
)


class AblationError(ValueError):
    """A run folder the table cannot be read from; the message names it."""


def _json(path: Path) -> dict[str, Any]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as e:
        raise AblationError(f"{path}: cannot be read ({e})") from None
    if not isinstance(data, dict):
        raise AblationError(f"{path}: not a JSON object")
    return data


def outcomes(run: Path, outcome: str) -> dict[str, bool | None]:
    """Per task: success under `outcome` — the judge's navigation verdict (None: no verdict) or
    the scored answer (summary.json `per_task[...].passed`)."""
    if outcome == NAVIGATION:
        folder = run / "judge"
        if not folder.is_dir():
            raise AblationError(f"{run} was never judged for navigation (no judge/ folder)")
        return {tid: r.verdict for tid, r in read_judge_records(folder).items()}
    per_task = _json(run / "summary.json").get("per_task") or {}
    return {tid: bool(row.get("passed")) for tid, row in per_task.items() if isinstance(row, dict)}


def spend(run: Path) -> dict[str, Any]:
    """What an arm used: the agent's tokens (and cost, when the run was given prices) and the
    navigation judge's tokens."""
    from webfovea.eval.costs import TokenTally, task_tally
    from webfovea.judge.run import task_folders

    total = TokenTally()
    for folder in task_folders(run):
        total.merge(task_tally(folder))
    summary = _json(run / "summary.json") if (run / "summary.json").exists() else {}
    judge = _json(run / "judge" / "summary.json") if (run / "judge" / "summary.json").exists() else {}
    usage = judge.get("usage") or {}
    return {
        "input_tokens": total.prompt,
        "output_tokens": total.output,
        "cost": (summary.get("tokens") or {}).get("cost"),
        "judge_tokens": int(usage.get("prompt_tokens", 0)) + int(usage.get("completion_tokens", 0)),
    }


def _row(
    protocol: str, condition: str, arm: str, outcome: str, got: dict[str, bool | None]
) -> dict[str, Any]:
    known = [v for v in got.values() if v is not None]
    passed = sum(1 for v in known if v)
    return {
        "protocol": protocol,
        "condition": condition,
        "arm": arm,
        "outcome": outcome,
        "n": len(known),
        "passed": passed,
        "success": round(passed / len(known), 4) if known else None,
        "no_outcome": len(got) - len(known),
    }


def paired(base: dict[str, bool | None], other: dict[str, bool | None], seed: str) -> dict[str, Any]:
    """`other` against `base` on the tasks both decided: the difference in success, its 95%
    paired bootstrap interval, and the exact McNemar p of the discordant tasks."""
    shared = sorted(t for t in base if base[t] is not None and other.get(t) is not None)
    diffs = [float(bool(other[t])) - float(bool(base[t])) for t in shared]
    gained = [t for t in shared if other[t] and not base[t]]
    lost = [t for t in shared if base[t] and not other[t]]
    return {
        "pairs": len(shared),
        "difference": round(sum(diffs) / len(diffs), 4) if diffs else None,
        "ci95": bootstrap(diffs, seed) or None,
        "gained": gained,
        "lost": lost,
        "mcnemar_p": mcnemar_exact(len(gained), len(lost)),
    }


def ablation_table(parent: Path, meta: dict[str, Any] | None = None) -> dict[str, Any]:
    """The table from PARENT/I, PARENT/II and PARENT/III (AblationError naming what is missing)."""
    parent = Path(parent)
    for arm in ARMS:
        if not (parent / arm / "summary.json").exists():
            raise AblationError(f"{parent / arm} is not a finished run (no summary.json)")
    got = [outcomes(parent / arm, outcome) for _, _, arm, outcome, _ in ROWS]
    rows = []
    for i, (protocol, condition, arm, outcome, base) in enumerate(ROWS):
        row = _row(protocol, condition, arm, outcome, got[i])
        if base is not None:
            row["vs"] = {"row": base, **paired(got[base], got[i], f"ablation|{i}")}
        rows.append(row)
    return {
        "version": 1,
        **(meta or {}),
        "arms": {arm: {"run": arm, **spend(parent / arm)} for arm in ARMS},
        "rows": rows,
        "bootstrap": BOOTSTRAP,
    }


def _pct(v: float | None) -> str:
    return "—" if v is None else f"{100 * v:.1f}"


def _diff(row: dict[str, Any]) -> str:
    vs = row.get("vs")
    if not vs or vs["difference"] is None:
        return ""
    ci = vs["ci95"]
    ci_text = f" [{100 * ci[0]:+.1f}, {100 * ci[1]:+.1f}]" if ci else ""
    return f"{100 * vs['difference']:+.1f}{ci_text}, p={vs['mcnemar_p']:.3g} (+{len(vs['gained'])}/−{len(vs['lost'])})"


HEADERS = ("protocol", "condition", "outcome", "SR %", "n", "Δ pp [95% CI], McNemar", "run")


def table_cells(row: dict[str, Any]) -> list[str]:
    return [
        row["protocol"],
        row["condition"],
        row["outcome"],
        _pct(row["success"]),
        str(row["n"]),
        _diff(row),
        row["arm"] + "/",
    ]


def _spend_line(name: str, a: dict[str, Any]) -> str:
    cost = "no prices" if a.get("cost") is None else f"${a['cost']:.4f}"
    return (
        f"run {name}/: agent {a['input_tokens']:,} input + {a['output_tokens']:,} output tokens, "
        f"{cost}; navigation judge {a['judge_tokens']:,} tokens"
    )


def format_lines(table: dict[str, Any]) -> list[str]:
    """The terminal view: one line per row, then each run's spend."""
    lines = []
    for row in table["rows"]:
        c = table_cells(row)
        lines.append(f"{c[0]:<4} {c[1]:<36} {c[2]:<10} {c[3]:>6}  n={c[4]:<4} {c[5]}")
    lines += [_spend_line(name, a) for name, a in table["arms"].items()]
    return lines


def markdown(table: dict[str, Any]) -> str:
    lines = [
        "# Protocol ablation (WebRetriever, seed 004: Tables 5 and 6)",
        "",
        "| " + " | ".join(HEADERS) + " |",
        "|" + "---|" * len(HEADERS),
    ]
    lines += ["| " + " | ".join(x.replace("|", "\\|") for x in table_cells(r)) + " |" for r in table["rows"]]
    lines += [
        "",
        "SR: success rate over the tasks with an outcome (navigation: the judge's verdict; answer: "
        "the suite's scoring). Δ: the changed condition minus its protocol's own, paired by task, "
        f"95% CI from {table['bootstrap']} paired bootstrap resamples, exact McNemar p (+gained/−lost). "
        "On one task set, the I and II rows read the same two runs.",
        "",
    ]
    lines += [f"- {_spend_line(name, a)}" for name, a in table["arms"].items()]
    if table.get("label"):
        lines += ["", f"**{table['label']}**"]
    return "\n".join(lines) + "\n"


__all__ = ["ARMS", "ROWS", "AblationError", "ablation_table", "format_lines", "markdown", "paired"]
