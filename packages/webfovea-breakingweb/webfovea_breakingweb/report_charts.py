"""The run report's BreakingWeb section (eval/report/ calls `paired_section`): the pass-rate
and mean-score drops with their intervals per primitive and per layer as inline SVG bars, the
primitive × layer matrix as an SVG heat map, the per-family table with paired bars, and the
failure taxonomy per primitive. No scripts (the report has none); every text is escaped with
the report's own `esc`."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

Esc = Callable[[str], str]
LAYERS = ("seed", "server", "network", "client")


def _ci(ci: list[float] | None) -> str:
    return f" [{ci[0]:+.2f}, {ci[1]:+.2f}]" if ci and len(ci) == 2 else ""


def _pct(x: float | None) -> str:
    return "–" if x is None else f"{x:.0%}"


def drop_bars(title: str, groups: dict[str, dict[str, Any]], esc: Esc, anchor: str) -> str:
    """One row per group: Δ pass (blue) and Δ score (orange) as bars from a zero line, their
    95% intervals as whiskers; −1 … +1 across."""
    if not groups:
        return ""
    width, left, row_h = 560, 170, 34
    mid = left + (width - left) / 2
    scale = (width - left) / 2 - 10
    parts = [
        f'<line x1="{mid}" y1="4" x2="{mid}" y2="{row_h * len(groups) + 4}" stroke="#888" stroke-width="1"/>'
    ]
    for i, (name, g) in enumerate(groups.items()):
        y = 8 + i * row_h
        parts.append(f'<text x="4" y="{y + 14}" font-size="12">{esc(name)} (n={g["pairs"]})</text>')
        for j, (key, ci_key, colour) in enumerate(
            (("delta", "delta_ci", "#14507f"), ("score_delta", "score_delta_ci", "#d9822b"))
        ):
            v = g.get(key)
            if v is None:
                continue
            x0, x1 = sorted((mid, mid + v * scale))
            yy = y + 3 + j * 12
            parts.append(
                f'<rect x="{x0:.1f}" y="{yy}" width="{max(x1 - x0, 1):.1f}" height="10" fill="{colour}">'
                f"<title>{esc(name)} {key} {v:+.2f}{_ci(g.get(ci_key))}</title></rect>"
            )
            ci = g.get(ci_key) or []
            if len(ci) == 2:
                a, b = mid + ci[0] * scale, mid + ci[1] * scale
                parts.append(
                    f'<line x1="{a:.1f}" y1="{yy + 5}" x2="{b:.1f}" y2="{yy + 5}" stroke="#222" stroke-width="1"/>'
                )
    h = 12 + row_h * len(groups)
    return (
        f"<h3 id={anchor}>{esc(title)}</h3><p>Δ = clean − intervention: pass rate (blue) and mean score "
        "(orange), whiskers the 95% paired bootstrap interval; the line is no drop, right is a drop.</p>"
        f'<svg role="img" aria-label="{esc(title)}" width="{width}" height="{h}" '
        f'xmlns="http://www.w3.org/2000/svg">{"".join(parts)}</svg>'
    )


def _heat(v: float | None) -> str:
    if v is None:
        return "#f2f2f2"
    v = max(-1.0, min(1.0, v))
    if v >= 0:  # a drop: white to orange-red
        g, b = int(245 - 150 * v), int(235 - 200 * v)
        return f"rgb(250,{g},{b})"
    return f"rgb({int(235 + 20 * v)},{int(245 + 10 * v)},250)"  # a gain: pale blue


def matrix_svg(cells: dict[str, dict[str, dict[str, Any]]], esc: Esc) -> str:
    """The primitive × layer matrix: each cell the mean pass-rate drop, its score drop and n."""
    if not cells:
        return ""
    cw, ch, left, top = 120, 44, 130, 24
    parts = [
        f'<text x="{left + i * cw + cw / 2}" y="16" font-size="12" text-anchor="middle">{layer}</text>'
        for i, layer in enumerate(LAYERS)
    ]
    for r, (prim, row) in enumerate(cells.items()):
        y = top + r * ch
        parts.append(f'<text x="4" y="{y + ch / 2 + 4}" font-size="12">{esc(prim)}</text>')
        for c, layer in enumerate(LAYERS):
            g = row.get(layer)
            x = left + c * cw
            fill = _heat(g["delta"] if g else None)
            parts.append(f'<rect x="{x}" y="{y}" width="{cw - 2}" height="{ch - 2}" fill="{fill}"/>')
            if g:
                parts.append(
                    f'<text x="{x + cw / 2}" y="{y + 18}" font-size="12" text-anchor="middle">Δ {g["delta"]:+.2f}'
                    f"<title>{esc(prim)} × {layer}: Δ pass {g['delta']:+.2f}{_ci(g.get('delta_ci'))}, "
                    f"Δ score {g.get('score_delta') or 0:+.2f}{_ci(g.get('score_delta_ci'))}</title></text>"
                    f'<text x="{x + cw / 2}" y="{y + 34}" font-size="10" text-anchor="middle" fill="#444">'
                    f"score {g.get('score_delta') or 0:+.2f} · n={g['pairs']}</text>"
                )
    w, h = left + cw * len(LAYERS), top + ch * len(cells)
    return (
        "<h3 id=primitive-layer>Primitive × layer (paired drop)</h3><p>Each cell: the pass-rate drop "
        "over the pairs whose family has that primitive and layer, its score drop and the number of "
        "pairs; darker is a larger drop, grey no pairs.</p>"
        f'<svg role="img" aria-label="primitive by layer matrix" width="{w}" height="{h}" '
        f'xmlns="http://www.w3.org/2000/svg">{"".join(parts)}</svg>'
    )


def family_table(per_family: dict[str, dict[str, Any]], esc: Esc) -> str:
    """Per family: clean and intervention pass rates as paired bars, both drops with intervals."""
    if not per_family:
        return ""
    rows = []
    for name, f in per_family.items():
        bars = "".join(
            f'<div title="{label} {rate:.0%}" style="height:9px;margin:1px 0;width:{rate * 240:.0f}px;'
            f'background:{colour}"></div>'
            for label, rate, colour in (
                ("clean", f["clean_pass"], "#14507f"),
                ("intervention", f["intervention_pass"], "#d9822b"),
            )
        )
        score = f.get("score_delta")
        rows.append(
            f"<tr><td>{esc(name)}</td><td>{esc(f['layer'])}</td><td>{esc(f['primitive'])}</td>"
            f"<td class=num>{f['pairs']}</td><td style='width:250px'>{bars}</td>"
            f"<td class=num>{f['clean_pass']:.0%} → {f['intervention_pass']:.0%}</td>"
            f"<td class=num>{f['delta']:+.2f}{_ci(f.get('delta_ci'))}</td>"
            f"<td class=num>{'–' if score is None else f'{score:+.2f}'}{_ci(f.get('score_delta_ci'))}</td>"
            f"<td class=num>{_pct(f.get('overturn_rate'))}</td><td class=num>{_pct(f.get('done_fpr'))}</td></tr>"
        )
    return (
        "<h3 id=per-family>By intervention family (paired)</h3><p>Bars: clean (blue) and intervention "
        "(orange) pass rates.</p><table><tr><th>family</th><th>layer</th><th>primitive</th><th class=num>"
        "pairs</th><th>pass</th><th class=num>clean → intervention</th><th class=num>Δ pass [95% CI]</th>"
        "<th class=num>Δ score [95% CI]</th><th class=num>overturned</th><th class=num>done FPR</th></tr>"
        f"{''.join(rows)}</table>"
    )


def taxonomy_table(per_primitive: dict[str, dict[str, int]], esc: Esc) -> str:
    if not per_primitive:
        return ""
    labels = sorted({k for v in per_primitive.values() for k in v})
    head = "".join(f"<th class=num>{esc(k)}</th>" for k in labels)
    body = "".join(
        f"<tr><td>{esc(p)}</td>" + "".join(f"<td class=num>{v.get(k, 0)}</td>" for k in labels) + "</tr>"
        for p, v in per_primitive.items()
    )
    return (
        "<h3 id=failures-per-primitive>Failed intervention runs by failure mode, per primitive</h3>"
        f"<table><tr><th>primitive</th>{head}</tr>{body}</table>"
    )


def paired_section(summary: dict[str, Any], esc: Esc) -> str:
    """The whole section; empty for a run without pairs."""
    overall = summary.get("paired")
    if not summary.get("per_family"):
        return ""
    lead = ""
    if overall:
        lead = (
            f"<h2 id=paired>Paired interventions ({esc(str(summary.get('meta', {}).get('pairing') or 'sweep'))})</h2>"
            f"<p class=kv>{overall['pairs']} pairs · pass {overall['clean_pass']:.0%} → "
            f"{overall['intervention_pass']:.0%} (Δ {overall['delta']:+.2f}{_ci(overall.get('delta_ci'))}) · "
            f"mean score {overall.get('clean_score') or 0:.2f} → {overall.get('intervention_score') or 0:.2f} "
            f"(Δ {overall.get('score_delta') or 0:+.2f}{_ci(overall.get('score_delta_ci'))}) · overturned "
            f"{_pct(summary.get('overturned_share'))} · done-signal FPR {_pct(summary.get('done_signal_fpr'))}</p>"
        )
    return "".join(
        [
            lead,
            drop_bars("By primitive", summary.get("per_primitive") or {}, esc, "per-primitive"),
            drop_bars("By layer", summary.get("per_layer") or {}, esc, "per-layer"),
            matrix_svg(summary.get("primitive_layer") or {}, esc),
            family_table(summary.get("per_family") or {}, esc),
            taxonomy_table(summary.get("failures_per_primitive") or {}, esc),
        ]
    )
