"""The report over runs written out: Markdown, one CSV per table and a self-contained HTML
page (inline SVG bars, no script, no external file). Every string from a run — labels, folder
names, family names — goes through webfovea/eval/html.py's `text` in the HTML: run folders
are written by runs that read hostile pages."""

from __future__ import annotations

import csv
import io
from typing import Any

from webfovea.eval.html import text as esc
from webfovea_breakingweb.report import human, landscape

DEFINITIONS = {
    "table2": "Table 2 (seed 003 §3): per primitive, the pass rate (score 1.0, nothing broken) on "
    "the clean and on the intervention condition, per run; drop = clean − intervention over the "
    "same pairs; n = pairs. GUI-only runs (screenshots only) are labelled v-<model>.",
    "figure4a": "Figure 4(a): primitive vulnerability matrix; each cell is the mean paired score "
    "drop (clean − intervention, partial credit) of the pairs whose variant targets that "
    "primitive, with its 95% paired bootstrap interval; * marks the run's largest drop.",
    "figure4b": "Figure 4(b): stressor families ranked by failure mass (n × failure rate = failed "
    "intervention runs), pooled over the runs, over families with n ≥ 50 intervention runs.",
    "figure4c": "Figure 4(c): where costs land by environment: each run's intervention pass rate "
    "per app (clean pass and n = pairs beside it).",
    "table3": "Table 3 (seed 003 §4): the failed intervention runs of each run by failure mode "
    "(docs/taxonomy.md; unlabelled: the run recorded none).",
    "table4": "Table 4: the failed intervention runs split into belief (declared success, goal not "
    "reached), action (no coherent success claim) and overreach (an invariant broken); other = a "
    "label in no group or none. FPR: among intervention runs that ended with done, the share failed.",
    "robustness": "Robustness checks (seed 003 §3): Spearman ρ between the pass-drop and "
    "score-drop orderings (primitives: macro over runs; families), the drop with pass = score ≥ "
    "0.5, balanced macro-averages (each family weighted alike) against pooled drops, and seeded "
    "random half-family splits (share of halves in which a primitive is top-3 by drop).",
}


def _pct(x: float | None) -> str:
    return "" if x is None else f"{100 * x:.1f}"


def _ci(ci: list[float] | None) -> str:
    return f"[{ci[0]:+.2f}, {ci[1]:+.2f}]" if ci else ""


def _num(x: float | None) -> str:
    return "" if x is None else f"{x:+.3f}"


def _cell2(c: dict[str, Any] | None) -> str:
    if c is None:
        return "–"
    return f"{_pct(c['clean_pass'])} → {_pct(c['intervention_pass'])} (n={c['n']})"


def _cell4c(c: dict[str, Any] | None) -> str:
    return "–" if c is None else f"{_pct(c['intervention_pass'])} (clean {_pct(c['clean_pass'])}, n={c['n']})"


def _failure_md(rep: dict[str, Any]) -> list[str]:
    t3, t4 = rep["table3"], rep["table4"]
    out = [
        "",
        "## Table 3: failure modes of the failed intervention runs",
        "",
        f"> {DEFINITIONS['table3']}",
        "",
    ]
    out += ["| run | failed | " + " | ".join(t3["modes"]) + " |", "|---|---|" + "---|" * len(t3["modes"])]
    for row in t3["rows"]:
        out.append(
            f"| {row['run']} | {row['failed']} | "
            + " | ".join(str(row["modes"].get(m, 0)) for m in t3["modes"])
            + " |"
        )
    out += ["", "## Table 4: belief vs action failures", "", f"> {DEFINITIONS['table4']}", ""]
    out += [
        "| run | failed | " + " | ".join(t4["classes"]) + " | FPR (done) |",
        "|---|---|" + "---|" * (len(t4["classes"]) + 1),
    ]
    for row in t4["rows"]:
        cells = [f"{_pct(row[c + '_share'])}%" if row["failed"] else "–" for c in t4["classes"]]
        fpr = "–" if row["done_fpr"] is None else f"{_pct(row['done_fpr'])}% of {row['declared_done']}"
        out.append(f"| {row['run']} | {row['failed']} | " + " | ".join(cells) + f" | {fpr} |")
    return out


def robustness_lines(rb: dict[str, Any]) -> list[str]:
    op, of = rb["ordering_primitives"], rb["ordering_families"]
    th, bm, hs = rb["threshold_0_5"], rb["balanced_macro"], rb["half_family_splits"]
    return [
        f"Spearman ρ, pass-drop vs score-drop ordering: primitives {op['rho']} "
        f"({len(op['groups'])} cells), families {of['rho']} ({len(of['groups'])})",
        f"threshold 0.5: drop {_num(th['threshold_drop'])} against the strict {_num(th['strict_drop'])} "
        f"(retained {th['retained']}; {th['pairs']} pairs)",
        f"balanced macro-average vs pooled, largest difference: {_num(bm['max_abs_diff'])}",
        f"half-family splits ({hs['splits']} over {hs['families']} families): full top-3 "
        f"{', '.join(hs['full_top'])}; share of halves each stays top-3: "
        + ", ".join(f"{k} {100 * v:.0f}%" for k, v in hs["stable"].items()),
    ]


def markdown(rep: dict[str, Any]) -> str:
    t2, f4a, f4b = rep["table2"], rep["figure4a"], rep["figure4b"]
    out = [
        "# BreakingWeb: report over runs",
        "",
        f"seed {rep['seed']}, pairing {rep['pairing']}, catalogue {rep['catalogue'] or 'not recorded'}",
        "",
        "## Table 2: per-primitive pass rate (%), clean → intervention",
        "",
        f"> {DEFINITIONS['table2']}",
        "",
        "| run | " + " | ".join(t2["primitives"]) + " |",
        "|---|" + "---|" * len(t2["primitives"]),
    ]
    for row in t2["rows"]:
        out.append(
            f"| {row['run']} | " + " | ".join(_cell2(row["cells"][p]) for p in t2["primitives"]) + " |"
        )
    out += [
        "",
        "## Figure 4(a): primitive vulnerability matrix (mean paired score drop)",
        "",
        f"> {DEFINITIONS['figure4a']}",
        "",
        "| primitive | " + " | ".join(f4a["runs"]) + " |",
        "|---|" + "---|" * len(f4a["runs"]),
    ]
    for prim in f4a["primitives"]:
        cells = []
        for run in f4a["runs"]:
            c = f4a["cells"][prim].get(run)
            star = "*" if f4a["row_max"].get(run) == prim else ""
            cells.append(
                "–" if c is None else f"{_num(c['score_drop'])}{star} {_ci(c['score_drop_ci'])} (n={c['n']})"
            )
        out.append(f"| {prim} | " + " | ".join(cells) + " |")
    out += ["", "## Figure 4(b): top-5 families by failure mass", "", f"> {DEFINITIONS['figure4b']}", ""]
    if f4b["note"]:
        out += [f"**Below threshold:** {f4b['note']}.", ""]
    out += ["| family | layer | primitive | n | failure rate | mass |", "|---|---|---|---|---|---|"]
    for f in f4b["top"]:
        out.append(
            f"| {f['family']} | {f['layer']} | {f['primitive']} | {f['n']} | {_pct(f['failure_rate'])}% | {f['mass']} |"
        )
    f4c = rep["figure4c"]
    out += [
        "",
        "## Figure 4(c): intervention pass rate (%) per environment",
        "",
        f"> {DEFINITIONS['figure4c']}",
        "",
        "| environment | " + " | ".join(f4c["runs"]) + " |",
        "|---|" + "---|" * len(f4c["runs"]),
    ]
    for env in f4c["environments"]:
        out.append(f"| {env} | " + " | ".join(_cell4c(f4c["cells"][env].get(r)) for r in f4c["runs"]) + " |")
    out += _failure_md(rep)
    out += landscape.markdown_lines(rep["figure5"])
    out += human.markdown_lines(rep["table5"], rep["figure6"])
    out += ["", "## Robustness checks", "", f"> {DEFINITIONS['robustness']}", ""]
    out += [f"- {line}" for line in robustness_lines(rep["robustness"])]
    return "\n".join(out) + "\n"


def _csv(header: list[str], rows: list[list[Any]]) -> str:
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(header)
    w.writerows(rows)
    return buf.getvalue()


def csv_tables(rep: dict[str, Any]) -> dict[str, str]:
    """{file name: CSV text}: one long-form table per table/figure."""
    t2 = [
        [r["run"], p, c["n"], c["clean_pass"], c["intervention_pass"], c["drop"], *(c["drop_ci"] or ["", ""])]
        for r in rep["table2"]["rows"]
        for p, c in r["cells"].items()
        if c is not None
    ]
    f4a = rep["figure4a"]
    fa = [
        [
            prim,
            run,
            c["n"],
            c["score_drop"],
            *(c["score_drop_ci"] or ["", ""]),
            c["pass_drop"],
            f4a["row_max"].get(run) == prim,
        ]
        for prim, cells in f4a["cells"].items()
        for run, c in cells.items()
    ]
    f4b = rep["figure4b"]
    top = {f["family"] for f in f4b["top"]}
    fb = [
        [
            f["family"],
            f["layer"],
            f["primitive"],
            f["n"],
            f["failure_rate"],
            f["mass"],
            f["n"] >= f4b["min_bucket"],
            f["family"] in top,
        ]
        for f in f4b["ranking"]
    ]
    fc = [
        [env, run, c["n"], c["clean_pass"], c["intervention_pass"]]
        for env, cells in rep["figure4c"]["cells"].items()
        for run, c in cells.items()
    ]
    t3 = [[r["run"], m, n] for r in rep["table3"]["rows"] for m, n in r["modes"].items()]
    t4 = rep["table4"]
    t4cols = ["failed", *t4["classes"], *(f"{c}_share" for c in t4["classes"]), "declared_done", "done_fpr"]
    t4rows = [[r["run"], *(r[c] for c in t4cols)] for r in t4["rows"]]
    extra = {
        name: _csv(h, rows)
        for name, (h, rows) in {
            **landscape.csv_rows(rep["figure5"]),
            **human.csv_rows(rep["table5"], rep["figure6"]),
        }.items()
    }
    return {
        **extra,
        "table3.csv": _csv(["run", "failure_mode", "failed_runs"], t3),
        "table4.csv": _csv(["run", *t4cols], t4rows),
        "figure4c.csv": _csv(["environment", "run", "n", "clean_pass", "intervention_pass"], fc),
        "table2.csv": _csv(
            ["run", "primitive", "n", "clean_pass", "intervention_pass", "drop", "drop_ci_lo", "drop_ci_hi"],
            t2,
        ),
        "figure4a.csv": _csv(
            ["primitive", "run", "n", "score_drop", "ci_lo", "ci_hi", "pass_drop", "row_max"], fa
        ),
        "figure4b.csv": _csv(
            ["family", "layer", "primitive", "n", "failure_rate", "mass", "n_ge_50", "top5"], fb
        ),
    }


def _bars(items: list[tuple[str, float, str]], unit: float) -> str:
    """Horizontal bars: (label, value, caption); `unit` is the value drawn full width."""
    h, width = 22, 320
    rows = []
    for i, (label, value, caption) in enumerate(items):
        w = max(0.0, min(1.0, value / unit if unit else 0.0)) * width
        y = i * h
        rows.append(
            f'<text x="0" y="{y + 15}" font-size="12">{esc(label)}</text>'
            f'<rect x="260" y="{y + 4}" width="{w:.1f}" height="14" fill="#c0504d"/>'
            f'<text x="{264 + w:.1f}" y="{y + 15}" font-size="11">{esc(caption)}</text>'
        )
    return f'<svg xmlns="http://www.w3.org/2000/svg" width="860" height="{h * len(items) + 4}">{"".join(rows)}</svg>'


def _heat(v: float | None) -> str:
    if v is None:
        return "#eee"
    a = max(0.0, min(1.0, abs(v)))
    return f"rgba(192,80,77,{a:.2f})" if v > 0 else f"rgba(79,129,189,{a:.2f})"


def _md_tables_html(lines: list[str]) -> str:
    """Markdown headings, quotes and pipe tables (as `_failure_md` writes them) as HTML, escaped."""
    out, in_table = [], False
    for line in lines:
        if line.startswith("|"):
            if line.startswith("|---"):
                continue
            if not in_table:
                out.append("<table>")
                in_table = True
            out.append(
                "<tr>" + "".join(f"<td>{esc(c.strip())}</td>" for c in line.strip("|").split("|")) + "</tr>"
            )
            continue
        if in_table:
            out.append("</table>")
            in_table = False
        if line.startswith("## "):
            out.append(f"<h2>{esc(line[3:])}</h2>")
        elif line.startswith("### "):
            out.append(f"<h3>{esc(line[4:])}</h3>")
        elif line.startswith("> "):
            out.append(f"<p class='def'>{esc(line[2:])}</p>")
        elif line.strip():
            out.append(f"<p>{esc(line.removeprefix('- '))}</p>")
    if in_table:
        out.append("</table>")
    return "".join(out)


def html(rep: dict[str, Any]) -> str:
    t2, f4a, f4b = rep["table2"], rep["figure4a"], rep["figure4b"]
    parts = [
        "<!doctype html><html><head><meta charset='utf-8'><title>BreakingWeb: report over runs</title>",
        "<style>body{font-family:sans-serif;margin:2em}table{border-collapse:collapse}"
        "td,th{border:1px solid #ccc;padding:3px 6px;font-size:13px}.def{color:#555;max-width:60em}</style>",
        "</head><body><h1>BreakingWeb: report over runs</h1>",
        f"<p>seed {esc(rep['seed'])}, pairing {esc(rep['pairing'])}, catalogue {esc(rep['catalogue'] or 'not recorded')}</p>",
        f"<h2>Table 2: per-primitive pass rate (%)</h2><p class='def'>{esc(DEFINITIONS['table2'])}</p><table><tr><th>run</th>",
    ]
    parts += [f"<th>{esc(p)}</th>" for p in t2["primitives"]] + ["</tr>"]
    for row in t2["rows"]:
        parts.append(f"<tr><th>{esc(row['run'])}</th>")
        parts += [f"<td>{esc(_cell2(row['cells'][p]))}</td>" for p in t2["primitives"]]
        parts.append("</tr>")
    parts.append(
        f"</table><h2>Figure 4(a): primitive vulnerability matrix</h2><p class='def'>{esc(DEFINITIONS['figure4a'])}</p>"
    )
    parts.append(
        "<table><tr><th>primitive</th>" + "".join(f"<th>{esc(r)}</th>" for r in f4a["runs"]) + "</tr>"
    )
    for prim in f4a["primitives"]:
        parts.append(f"<tr><th>{esc(prim)}</th>")
        for run in f4a["runs"]:
            c = f4a["cells"][prim].get(run)
            v = None if c is None else c["score_drop"]
            star = "*" if f4a["row_max"].get(run) == prim else ""
            label = "–" if c is None else f"{_num(v)}{star} {_ci(c['score_drop_ci'])} n={c['n']}"
            parts.append(f"<td style='background:{_heat(v)}'>{esc(label)}</td>")
        parts.append("</tr>")
    parts.append(
        f"</table><h2>Figure 4(b): top-5 families by failure mass</h2><p class='def'>{esc(DEFINITIONS['figure4b'])}</p>"
    )
    if f4b["note"]:
        parts.append(f"<p><strong>Below threshold:</strong> {esc(f4b['note'])}.</p>")
    top = f4b["top"]
    unit = max((f["mass"] for f in top), default=1) or 1
    parts.append(
        _bars(
            [
                (
                    f"{f['family']} ({f['layer']})",
                    f["mass"],
                    f"{f['mass']} = {f['n']} × {_pct(f['failure_rate'])}%",
                )
                for f in top
            ],
            unit,
        )
    )
    f4c = rep["figure4c"]
    parts.append(
        f"<h2>Figure 4(c): intervention pass rate per environment</h2><p class='def'>{esc(DEFINITIONS['figure4c'])}</p>"
    )
    for env in f4c["environments"]:
        cells = f4c["cells"][env]
        parts.append(f"<h3>{esc(env)}</h3>")
        parts.append(_bars([(r, c["intervention_pass"], _cell4c(c)) for r, c in cells.items()], 1.0))
    parts.append(_md_tables_html(_failure_md(rep)))
    parts.append(_md_tables_html(landscape.markdown_lines(rep["figure5"])))
    parts.append(landscape.calibration_svg(rep["figure5"]["calibration"]))
    parts.append(_md_tables_html(human.markdown_lines(rep["table5"], rep["figure6"])))
    if rep["figure6"] is not None:
        parts.append(human.figure6b_svg(rep["figure6"]["b"]))
    parts.append(f"<h2>Robustness checks</h2><p class='def'>{esc(DEFINITIONS['robustness'])}</p>")
    parts.append(
        "<ul>" + "".join(f"<li>{esc(line)}</li>" for line in robustness_lines(rep["robustness"])) + "</ul>"
    )
    parts.append("</body></html>")
    return "".join(parts) + "\n"
