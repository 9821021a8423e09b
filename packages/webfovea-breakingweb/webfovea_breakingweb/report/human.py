"""Seed 003's Human-140 results (§5) from a people's run (`--harness human`) beside the agents':

- Table 5: per condition (clean, intervention) and attempt (cold, warm), the pass rate, the
  median wall-clock seconds and the median raw browser events (clicks, keys, navigations) of
  the people's attempts; with the clean − intervention pass drop per attempt and its 95% paired
  bootstrap interval over the panel's pairs;
- Figure 6(a): the time of the successful intervention runs (median and quartiles, n) and the
  intervention pass rate on the panel's pairs, for the people (cold, warm) and each agent run;
- Figure 6(b): per primitive, the people's warm pass drop against the agents' mean pass drop
  (each base task's drop averaged over the agent runs), each the mean over the panel's base
  tasks with a 95% bootstrap interval over those base tasks.
"""

from __future__ import annotations

from statistics import median, quantiles
from typing import Any

from webfovea.eval.html import text as esc
from webfovea.stats import bootstrap
from webfovea_breakingweb.paired import Pair, group
from webfovea_breakingweb.report.runs import Run

DEFINITION_T5 = (
    "Table 5 (seed 003 §5): the Human-140 panel; per condition and attempt (cold: the person's "
    "first; warm: the same task-condition again after the backend reset), the pass rate, Time = "
    "median wall-clock seconds, Events = median raw browser events (clicks, key presses, "
    "navigations on the app's window); drop = clean − intervention pass over the same pairs, "
    "95% paired bootstrap."
)
DEFINITION_F6 = (
    "Figure 6 (seed 003 §5): people against agents on the panel's intervention runs. (a) time of "
    "the successful intervention runs (median, quartiles) and the intervention pass rate; (b) per "
    "primitive, the people's warm pass drop against the agents' mean pass drop, each a mean over "
    "the panel's base tasks with a 95% bootstrap interval over those base tasks; the 1:1 diagonal "
    "marks equal cost."
)


def _rate(xs: list[bool]) -> float | None:
    return round(sum(xs) / len(xs), 4) if xs else None


def _median(xs: list[float]) -> float | None:
    return round(float(median(xs)), 3) if xs else None


def _quartiles(xs: list[float]) -> dict[str, float | None]:
    if not xs:
        return {"q1_seconds": None, "q3_seconds": None}
    q = quantiles(xs, n=4, method="inclusive") if len(xs) > 1 else [xs[0], xs[0], xs[0]]
    return {"q1_seconds": round(q[0], 3), "q3_seconds": round(q[2], 3)}


def _events(row: Any) -> float | None:
    v = (row.model_extra or {}).get("events")
    return float(v) if v is not None else None


def _clean_rows(r: Run) -> list[Any]:
    """Each base task's clean row once (a base paired with several variants counts once)."""
    seen: dict[str, Any] = {}
    for base, p in zip(r.bases, r.pairs, strict=True):
        seen.setdefault(base, p.clean)
    return list(seen.values())


def table5(runs: list[Run]) -> dict[str, Any] | None:
    people = [r for r in runs if r.human]
    if not people:
        return None
    rows, drops = [], {}
    for which in ("cold", "warm"):
        mine = [r for r in people if r.attempt == which]
        pairs = [p for r in mine for p in r.pairs]
        for cond, task_rows in (
            ("clean", [row for r in mine for row in _clean_rows(r)]),
            ("intervention", [p.under for p in pairs]),
        ):
            events = [e for e in (_events(x) for x in task_rows) if e is not None]
            rows.append(
                {
                    "condition": cond,
                    "attempt": which,
                    "n": len(task_rows),
                    "pass": _rate([x.passed for x in task_rows]),
                    "median_seconds": _median([x.seconds for x in task_rows]),
                    "median_events": _median(events),
                }
            )
        s = group(pairs, f"table5|{which}")
        drops[which] = {"n": s.pairs, "drop": s.delta, "drop_ci": s.delta_ci}
    rows.sort(key=lambda r: (r["condition"] != "clean", r["attempt"] != "cold"))  # the paper's order
    return {"runs": [r.label for r in people], "rows": rows, "drops": drops}


def _by_variant(r: Run) -> dict[str, Pair]:
    return dict(zip(r.ids, r.pairs, strict=True))


def figure6(runs: list[Run]) -> dict[str, Any] | None:
    people, agents = [r for r in runs if r.human], [r for r in runs if not r.human]
    warm = next((r for r in people if r.attempt == "warm"), None)
    if warm is None:
        return None
    panel = warm.ids  # the panel's pairs, by their intervention task id
    a = []
    for r in [*people, *agents]:
        mine = _by_variant(r)
        under = [mine[v].under for v in panel if v in mine]
        ok = sorted(x.seconds for x in under if x.passed)
        a.append(
            {
                "run": r.label,
                "human": r.human,
                "n": len(under),
                "intervention_pass": _rate([x.passed for x in under]),
                "successes": len(ok),
                "median_seconds": _median(ok),
                **_quartiles(ok),
            }
        )
    b: dict[str, Any] = {}
    human_pairs = _by_variant(warm)
    agent_pairs = [_by_variant(r) for r in agents]
    per_prim: dict[str, list[str]] = {}
    for v in panel:
        per_prim.setdefault(human_pairs[v].primitive, []).append(v)
    for prim, variants in sorted(per_prim.items()):
        h = [float(human_pairs[v].clean.passed) - float(human_pairs[v].under.passed) for v in variants]
        ag = []
        for v in variants:
            ds = [float(m[v].clean.passed) - float(m[v].under.passed) for m in agent_pairs if v in m]
            if ds:
                ag.append(sum(ds) / len(ds))
        b[prim] = {
            "n": len(variants),
            "human_warm_drop": round(sum(h) / len(h), 4),
            "human_warm_drop_ci": bootstrap(h, f"figure6|human|{prim}"),
            "agent_mean_drop": round(sum(ag) / len(ag), 4) if ag else None,
            "agent_mean_drop_ci": bootstrap(ag, f"figure6|agents|{prim}"),
            "agent_runs": len(agents),
        }
    return {"panel_pairs": len(panel), "a": a, "b": b}


def _pct(x: float | None) -> str:
    return "–" if x is None else f"{100 * x:.1f}%"


def _ci(ci: list[float] | None) -> str:
    return f" [{ci[0]:+.2f}, {ci[1]:+.2f}]" if ci else ""


def _num(x: float | None) -> str:
    return "–" if x is None else f"{x:g}"


def _quartile_range(r: dict[str, Any]) -> str:
    return "–" if r["q1_seconds"] is None else f"{_num(r['q1_seconds'])}–{_num(r['q3_seconds'])}"


def markdown_lines(t5: dict[str, Any] | None, f6: dict[str, Any] | None) -> list[str]:
    out = ["", "## Table 5: Human-140 panel summary", "", f"> {DEFINITION_T5}", ""]
    if t5 is None:
        return [*out, "No people's run in this report (`bench breakingweb --harness human`).", ""]
    out += ["| condition | attempt | n | pass | time (s) | events |", "|---|---|---|---|---|---|"]
    for r in t5["rows"]:
        out.append(
            f"| {r['condition']} | {r['attempt']} | {r['n']} | {_pct(r['pass'])} "
            f"| {_num(r['median_seconds'])} | {_num(r['median_events'])} |"
        )
    out.append("")
    for which, d in t5["drops"].items():
        out.append(f"- {which} drop: {d['drop']:+.3f}{_ci(d['drop_ci'])} over {d['n']} pairs")
    if f6 is None:
        return out
    out += [
        "",
        "## Figure 6: people against agents on the panel",
        "",
        f"> {DEFINITION_F6}",
        "",
        "### (a)",
        "",
    ]
    out += [
        "| run | n | intervention pass | successes | median s | quartiles s |",
        "|---|---|---|---|---|---|",
    ]
    for r in f6["a"]:
        out.append(
            f"| {r['run']} | {r['n']} | {_pct(r['intervention_pass'])} | {r['successes']} "
            f"| {_num(r['median_seconds'])} | {_quartile_range(r)} |"
        )
    out += ["", "### (b)", "", "| primitive | n | people warm drop | agents mean drop |", "|---|---|---|---|"]
    for prim, c in f6["b"].items():
        agent = (
            "–"
            if c["agent_mean_drop"] is None
            else f"{c['agent_mean_drop']:+.3f}{_ci(c['agent_mean_drop_ci'])}"
        )
        out.append(
            f"| {prim} | {c['n']} | {c['human_warm_drop']:+.3f}{_ci(c['human_warm_drop_ci'])} | {agent} |"
        )
    return out


def csv_rows(
    t5: dict[str, Any] | None, f6: dict[str, Any] | None
) -> dict[str, tuple[list[str], list[list[Any]]]]:
    out: dict[str, tuple[list[str], list[list[Any]]]] = {}
    if t5 is not None:
        rows = [
            [r["condition"], r["attempt"], r["n"], r["pass"], r["median_seconds"], r["median_events"]]
            for r in t5["rows"]
        ]
        out["table5.csv"] = (["condition", "attempt", "n", "pass", "median_seconds", "median_events"], rows)
    if f6 is not None:
        a = [
            [
                r["run"],
                r["human"],
                r["n"],
                r["intervention_pass"],
                r["successes"],
                r["median_seconds"],
                r["q1_seconds"],
                r["q3_seconds"],
            ]
            for r in f6["a"]
        ]
        out["figure6a.csv"] = (
            [
                "run",
                "human",
                "n",
                "intervention_pass",
                "successes",
                "median_seconds",
                "q1_seconds",
                "q3_seconds",
            ],
            a,
        )
        b = [
            [
                prim,
                c["n"],
                c["human_warm_drop"],
                *(c["human_warm_drop_ci"] or ["", ""]),
                c["agent_mean_drop"],
                *(c["agent_mean_drop_ci"] or ["", ""]),
            ]
            for prim, c in f6["b"].items()
        ]
        out["figure6b.csv"] = (
            [
                "primitive",
                "n",
                "human_warm_drop",
                "human_ci_lo",
                "human_ci_hi",
                "agent_mean_drop",
                "agent_ci_lo",
                "agent_ci_hi",
            ],
            b,
        )
    return out


def figure6b_svg(b: dict[str, Any]) -> str:
    """Per primitive: the agents' mean drop (x) against the people's warm drop (y), both −1..1,
    with the 1:1 diagonal and each point's two intervals as bars."""
    size, pad = 300, 40

    def at(v: float) -> float:
        return (v + 1) / 2 * size

    parts = [
        f'<rect x="{pad}" y="10" width="{size}" height="{size}" fill="none" stroke="#999"/>',
        f'<line x1="{pad}" y1="{10 + size}" x2="{pad + size}" y2="10" stroke="#999" stroke-dasharray="4"/>',
        f'<text x="{pad + size / 2 - 50}" y="{size + 40}" font-size="12">agents mean drop</text>',
        f'<text x="2" y="{size / 2}" font-size="12" transform="rotate(-90 12 {size / 2})">people warm drop</text>',
    ]
    for prim, c in b.items():
        if c["agent_mean_drop"] is None:
            continue
        x, y = pad + at(c["agent_mean_drop"]), 10 + size - at(c["human_warm_drop"])
        for lo, hi, horizontal in ((*c["agent_mean_drop_ci"], True), (*c["human_warm_drop_ci"], False)):
            if horizontal:
                parts.append(
                    f'<line x1="{pad + at(lo):.1f}" y1="{y:.1f}" x2="{pad + at(hi):.1f}" y2="{y:.1f}" stroke="#888"/>'
                )
            else:
                parts.append(
                    f'<line x1="{x:.1f}" y1="{10 + size - at(lo):.1f}" x2="{x:.1f}" y2="{10 + size - at(hi):.1f}" stroke="#888"/>'
                )
        parts.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="4" fill="#c0504d"/>')
        parts.append(f'<text x="{x + 6:.1f}" y="{y - 4:.1f}" font-size="11">{esc(prim)}</text>')
    return f'<svg xmlns="http://www.w3.org/2000/svg" width="{size + 200}" height="{size + 50}">{"".join(parts)}</svg>'
