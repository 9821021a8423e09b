"""Seed 003's Figure 5, the failure landscape over runs (§4), from the intervention runs of each
run's pairs:

- (a) failure-mode composition: per run, each failure mode's share of its failed intervention
  runs (Table 3 as shares), each mode with its class (belief, action, overreach; eval/taxonomy.py);
- (b) calibration: per run, the finish rate (intervention runs that ended with done, i.e.
  status `finished`, over all its intervention runs) against P(failed | declared done) (of
  those, the share that failed — Table 4's FPR), with the run's modality;
- (c) the failure classes aggregated by harness modality: text-based runs pooled, GUI-only runs
  (screenshots only: `v-` rows) pooled; each class's count and share of the pooled failures.
"""

from __future__ import annotations

from typing import Any

from webfovea.eval.html import text as esc
from webfovea.eval.taxonomy import GROUPS
from webfovea_breakingweb.report.failures import CLASSES, UNLABELLED
from webfovea_breakingweb.report.runs import Run

DEFINITION = (
    "Figure 5 (seed 003 §4): the failure landscape. (a) failure-mode composition: each mode's "
    "share of a run's failed intervention runs, with its class (belief, action, overreach); (b) "
    "calibration: finish rate (intervention runs that ended with done, over all of them) against "
    "P(failed | declared done) (the share of those that failed), text-based runs as circles, "
    "GUI-only as squares; (c) failure class aggregated by harness modality (text-based, GUI-only)."
)
MODALITIES = ("text", "gui")


def modality(run: Run) -> str:
    return "gui" if run.gui_only else "text"


def _share(k: int, n: int) -> float | None:
    return round(k / n, 4) if n else None


def _class(mode: str) -> str:
    return (GROUPS.get(mode) if mode != UNLABELLED else None) or "other"


def composition(runs: list[Run]) -> list[dict[str, Any]]:
    rows = []
    for r in runs:
        failed = [p.under for p in r.pairs if not p.under.passed]
        counts: dict[str, int] = {}
        for row in failed:
            mode = row.taxonomy or UNLABELLED
            counts[mode] = counts.get(mode, 0) + 1
        modes = {
            m: {"n": k, "share": _share(k, len(failed)), "class": _class(m)}
            for m, k in sorted(counts.items())
        }
        rows.append({"run": r.label, "modality": modality(r), "failed": len(failed), "modes": modes})
    return rows


def calibration(runs: list[Run]) -> list[dict[str, Any]]:
    rows = []
    for r in runs:
        under = [p.under for p in r.pairs]
        done = [x for x in under if x.status == "finished"]
        failed_done = sum(not x.passed for x in done)
        rows.append(
            {
                "run": r.label,
                "modality": modality(r),
                "n": len(under),
                "declared_done": len(done),
                "finish_rate": _share(len(done), len(under)),
                "failed_done": failed_done,
                "p_failed_given_done": _share(failed_done, len(done)),
            }
        )
    return rows


def by_modality(comp: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    out = {}
    for mod in MODALITIES:
        rows = [c for c in comp if c["modality"] == mod]
        counts = dict.fromkeys(CLASSES, 0)
        for c in rows:
            for m in c["modes"].values():
                counts[m["class"]] += m["n"]
        failed = sum(c["failed"] for c in rows)
        out[mod] = {
            "runs": [c["run"] for c in rows],
            "failed": failed,
            "classes": {k: {"n": v, "share": _share(v, failed)} for k, v in counts.items()},
        }
    return out


def figure5(runs: list[Run]) -> dict[str, Any]:
    comp = composition(runs)
    return {"composition": comp, "calibration": calibration(runs), "by_modality": by_modality(comp)}


def _pct(x: float | None) -> str:
    return "–" if x is None else f"{100 * x:.1f}%"


def markdown_lines(f5: dict[str, Any]) -> list[str]:
    out = [
        "",
        "## Figure 5: failure landscape",
        "",
        f"> {DEFINITION}",
        "",
        "### (a) failure-mode composition",
        "",
    ]
    out += ["| run | modality | failed | modes (share of failed, class) |", "|---|---|---|---|"]
    for c in f5["composition"]:
        modes = "; ".join(f"{m} {_pct(v['share'])} ({v['class']})" for m, v in c["modes"].items()) or "–"
        out.append(f"| {c['run']} | {c['modality']} | {c['failed']} | {modes} |")
    out += ["", "### (b) calibration", ""]
    out += ["| run | modality | n | finish rate | P(failed \\| declared done) |", "|---|---|---|---|---|"]
    for c in f5["calibration"]:
        out.append(
            f"| {c['run']} | {c['modality']} | {c['n']} | {_pct(c['finish_rate'])} ({c['declared_done']}) "
            f"| {_pct(c['p_failed_given_done'])} ({c['failed_done']} of {c['declared_done']}) |"
        )
    out += ["", "### (c) failure class by modality", ""]
    out += [
        "| modality | runs | failed | " + " | ".join(CLASSES) + " |",
        "|---|---|---|" + "---|" * len(CLASSES),
    ]
    for mod, m in f5["by_modality"].items():
        cells = [f"{m['classes'][k]['n']} ({_pct(m['classes'][k]['share'])})" for k in CLASSES]
        out.append(f"| {mod} | {len(m['runs'])} | {m['failed']} | " + " | ".join(cells) + " |")
    return out


def csv_rows(f5: dict[str, Any]) -> dict[str, tuple[list[str], list[list[Any]]]]:
    """{file name: (header, rows)}: the three panels in long form."""
    a = [
        [c["run"], c["modality"], m, v["class"], v["n"], v["share"]]
        for c in f5["composition"]
        for m, v in c["modes"].items()
    ]
    b = [
        [
            c["run"],
            c["modality"],
            c["n"],
            c["declared_done"],
            c["finish_rate"],
            c["failed_done"],
            c["p_failed_given_done"],
        ]
        for c in f5["calibration"]
    ]
    cc = [
        [mod, len(m["runs"]), m["failed"], k, v["n"], v["share"]]
        for mod, m in f5["by_modality"].items()
        for k, v in m["classes"].items()
    ]
    return {
        "figure5a.csv": (["run", "modality", "failure_mode", "class", "n", "share_of_failed"], a),
        "figure5b.csv": (
            ["run", "modality", "n", "declared_done", "finish_rate", "failed_done", "p_failed_given_done"],
            b,
        ),
        "figure5c.csv": (["modality", "runs", "failed", "class", "n", "share"], cc),
    }


def calibration_svg(rows: list[dict[str, Any]]) -> str:
    """Figure 5(b): finish rate (x) against P(failed | declared done) (y), both 0..1; a circle
    per text-based run, a square per GUI-only run, labelled."""
    size, pad = 300, 40
    parts = [
        f'<rect x="{pad}" y="10" width="{size}" height="{size}" fill="none" stroke="#999"/>',
        f'<text x="{pad + size / 2 - 30}" y="{size + 40}" font-size="12">finish rate</text>',
        f'<text x="2" y="{size / 2}" font-size="12" transform="rotate(-90 12 {size / 2})">P(failed | done)</text>',
    ]
    for r in rows:
        if r["finish_rate"] is None or r["p_failed_given_done"] is None:
            continue
        x = pad + r["finish_rate"] * size
        y = 10 + (1 - r["p_failed_given_done"]) * size
        mark = (
            f'<rect x="{x - 5:.1f}" y="{y - 5:.1f}" width="10" height="10" fill="#4f81bd"/>'
            if r["modality"] == "gui"
            else f'<circle cx="{x:.1f}" cy="{y:.1f}" r="5" fill="#c0504d"/>'
        )
        parts.append(mark + f'<text x="{x + 8:.1f}" y="{y + 4:.1f}" font-size="11">{esc(r["run"])}</text>')
    return f'<svg xmlns="http://www.w3.org/2000/svg" width="{size + 200}" height="{size + 50}">{"".join(parts)}</svg>'
