"""The HTML report of an A/B run (`<out>/report.html`): a bar chart of pass rates per arm, overall
and per failure class, drawn as inline SVG; the per-arm figures; the paired comparison of every
two arms with its exact McNemar p. Self-contained like the run report: no script, no external
asset, every text escaped, every link http(s) or relative (`eval/html.py`); each arm's own
report sits in its run folder. An ab.json of the wrong shape is a report saying what is wrong.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, ValidationError

from webfovea.eval import html
from webfovea.eval.report.style import CSS

# Colour-blind-safe palette (Okabe-Ito), one colour per arm in order.
PALETTE = ("#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#F0E442", "#000000")
BAR_H, GAP, LABEL_W, CHART_W = 14, 10, 200, 420


def _e(value: Any) -> str:
    return html.text(None if value is None else str(value))


class _Shape(BaseModel):
    # Strict: a number written as a string would pass lax validation and then fail formatting.
    model_config = ConfigDict(strict=True, extra="allow")


class _Group(_Shape):
    tasks: int
    passed: int
    pass_rate: float | None


class _Spec(_Shape):
    profile: str = ""
    disable: list[str] = []
    overrides: dict[str, Any] = {}


class _Arm(_Shape):
    tasks: int
    passed: int
    pass_rate: float
    steps_per_task: float | None = None
    input_tokens_per_step: float | None = None
    observation_bytes_per_step: float | None = None
    seconds_per_step: float | None = None
    stale_ref_rate: float | None = None
    truncation_rate: float | None = None
    guard_firings: int | None = None
    compressions: int = 0
    runs: list[str] = []
    outside_rules: list[str] = []
    spec: _Spec | None = None
    per_failure_class: dict[str, _Group] = {}


class _Pair(_Shape):
    a: str
    b: str
    pairs: int
    passed_a: int
    passed_b: int
    fixed: list[str]
    broken: list[str]
    mcnemar_p: float


class _Budgets(_Shape):
    max_steps: int | None = None
    max_seconds: float = 0


class _Ab(_Shape):
    arms: dict[str, _Arm]
    pairs: list[_Pair] = []
    seeds: list[int | str] = []
    budgets: _Budgets | None = None
    suite: str | None = None
    label: str | None = None


def checked_ab(data: Any) -> tuple[dict[str, Any] | None, str | None]:
    """ab.json's content with every field the report reads present and of its type (absent
    optional ones filled in), or None and what is wrong with it, in one line."""
    try:
        return _Ab.model_validate(data).model_dump(), None
    except ValidationError as e:
        first = e.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or "the top level"
        more = f" (and {e.error_count() - 1} more)" if e.error_count() > 1 else ""
        return None, f"{where}: {first['msg']}{more}"


def render_ab_error(problem: str) -> str:
    """The report of an A/B folder whose ab.json cannot be shown: what is wrong, no traceback."""
    return _page(
        "webfovea A/B · ab.json unreadable",
        [
            "<h1>webfovea A/B</h1>",
            f'<div class="banner" id="ab-error">ab.json cannot be shown: {_e(problem)}. Rebuild it '
            "with `webfovea ab` (its arms' run folders keep their own reports).</div>",
        ],
    )


def _page(title: str, body: list[str]) -> str:
    return (
        "<!doctype html><html lang=en><head><meta charset=utf-8>"
        f"<title>{_e(title)}</title><style>{CSS}</style></head><body><main>"
        + "".join(body)
        + "</main></body></html>"
    )


def _num(value: Any, fmt: str = "{:.2f}") -> str:
    return "—" if value is None else fmt.format(value)


def bar_chart(data: dict[str, Any]) -> str:
    """Grouped horizontal bars: for 'all tasks' and each failure class, one bar per arm (pass rate)."""
    arms = list(data["arms"])
    groups: list[tuple[str, dict[str, tuple[float | None, int, int]]]] = [
        ("all tasks", {a: (v["pass_rate"], v["passed"], v["tasks"]) for a, v in data["arms"].items()})
    ]
    classes = sorted({c for v in data["arms"].values() for c in v.get("per_failure_class", {})})
    for c in classes:
        row = {}
        for a, v in data["arms"].items():
            g = v.get("per_failure_class", {}).get(c)
            row[a] = (g["pass_rate"], g["passed"], g["tasks"]) if g else (None, 0, 0)
        groups.append((c, row))
    group_h = len(arms) * BAR_H + GAP
    legend_h = 22
    height = legend_h + len(groups) * group_h + 24
    width = LABEL_W + CHART_W + 90
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="ab-chart" role="img" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" font-family="system-ui,sans-serif" font-size="12">',
        "<title>Pass rate per arm, overall and per failure class</title>",
    ]
    x = LABEL_W
    for i, a in enumerate(arms):
        colour = PALETTE[i % len(PALETTE)]
        parts.append(
            f'<rect x="{x}" y="4" width="12" height="12" fill="{colour}"/>'
            f'<text x="{x + 16}" y="14">{_e(a)}</text>'
        )
        x += 24 + 8 * len(a)
    y = legend_h
    for label, row in groups:
        parts.append(
            f'<text x="{LABEL_W - 8}" y="{y + len(arms) * BAR_H / 2 + 4:.0f}" text-anchor="end">{_e(label)}</text>'
        )
        for i, a in enumerate(arms):
            rate, passed, tasks = row[a]
            w = round(CHART_W * (rate or 0.0), 1)
            colour = PALETTE[i % len(PALETTE)]
            text = f"{passed}/{tasks}" if tasks else "n/a"
            parts.append(
                f'<rect class="bar" data-arm="{_e(a)}" data-group="{_e(label)}" x="{LABEL_W}" '
                f'y="{y + i * BAR_H}" width="{w}" height="{BAR_H - 2}" fill="{colour}">'
                f"<title>{_e(a)} · {_e(label)}: {text}</title></rect>"
                f'<text x="{LABEL_W + w + 4}" y="{y + i * BAR_H + BAR_H - 4}">{text}</text>'
            )
        y += group_h
    axis_y = y + 2
    for frac in (0.0, 0.5, 1.0):
        ax = LABEL_W + CHART_W * frac
        parts.append(
            f'<line x1="{ax}" y1="{legend_h}" x2="{ax}" y2="{axis_y}" stroke="#ccd" stroke-dasharray="2,3"/>'
            f'<text x="{ax}" y="{axis_y + 14}" text-anchor="middle">{frac:.0%}</text>'
        )
    parts.append("</svg>")
    return "".join(parts)


def _arm_table(data: dict[str, Any]) -> str:
    head = (
        "<tr><th>arm</th><th>config</th><th class=num>passed</th><th class=num>pass rate</th>"
        "<th class=num>steps/task</th><th class=num>input tokens/step</th><th class=num>obs. bytes/step</th>"
        "<th class=num>s/step</th><th class=num>stale refs</th><th class=num>truncated</th>"
        "<th class=num>guard firings</th><th class=num>compressions</th><th>run</th></tr>"
    )
    rows = []
    for name, a in data["arms"].items():
        spec = a.get("spec") or {}
        conf = spec.get("profile", "")
        if spec.get("disable"):
            conf += " −" + ", −".join(spec["disable"])
        if spec.get("overrides"):
            conf += " " + ", ".join(f"{k}={v}" for k, v in spec["overrides"].items())
        if a.get("outside_rules"):
            conf += " [outside the rules: " + ", ".join(a["outside_rules"]) + "]"
        links = " ".join(_run_link(r) for r in a.get("runs", []))
        rows.append(
            f'<tr class="arm-row" data-arm="{_e(name)}"><td>{_e(name)}</td><td>{_e(conf)}</td>'
            f"<td class=num>{a['passed']}/{a['tasks']}</td><td class=num>{a['pass_rate']:.1%}</td>"
            f"<td class=num>{_num(a['steps_per_task'], '{:.1f}')}</td>"
            f"<td class=num>{_num(a['input_tokens_per_step'], '{:.0f}')}</td>"
            f"<td class=num>{_num(a['observation_bytes_per_step'], '{:.0f}')}</td>"
            f"<td class=num>{_num(a['seconds_per_step'])}</td><td class=num>{_num(a['stale_ref_rate'], '{:.1%}')}</td>"
            f"<td class=num>{_num(a['truncation_rate'], '{:.1%}')}</td><td class=num>{_num(a['guard_firings'], '{}')}</td>"
            f"<td class=num>{a.get('compressions', 0)}</td><td>{links}</td></tr>"
        )
    return f'<table id="arms">{head}{"".join(rows)}</table>'


def _run_link(run: str) -> str:
    """A link to an arm's run report; a run path that could not be a safe relative link
    (`javascript:…`, another host, an absolute path) is shown as text only."""
    target = html.href(f"{run}/report.html")
    return f'<a href="{target}">{_e(run)}</a>' if target else f'<span class="run">{_e(run)}</span>'


def _pair_table(data: dict[str, Any]) -> str:
    head = (
        "<tr><th>B vs A</th><th class=num>paired</th><th class=num>A passed</th><th class=num>B passed</th>"
        "<th class=num>fixed (+)</th><th class=num>broken (−)</th><th class=num>exact McNemar p</th>"
        "<th>fixed</th><th>broken</th></tr>"
    )
    rows = [
        f'<tr class="pair-row"><td>{_e(p["b"])} vs {_e(p["a"])}</td><td class=num>{p["pairs"]}</td>'
        f"<td class=num>{p['passed_a']}</td><td class=num>{p['passed_b']}</td><td class=num>+{len(p['fixed'])}</td>"
        f"<td class=num>−{len(p['broken'])}</td><td class=num>{p['mcnemar_p']:.3g}</td>"
        f"<td>{_e(', '.join(p['fixed']))}</td><td>{_e(', '.join(p['broken']))}</td></tr>"
        for p in data["pairs"]
    ]
    return f'<table id="pairs">{head}{"".join(rows)}</table>'


def render_ab_report(raw: Any) -> str:
    data, problem = checked_ab(raw)
    if data is None:
        return render_ab_error(problem or "unreadable")
    title = f"webfovea A/B · {', '.join(data['arms'])} · {data.get('suite', '')}"
    label = data.get("label")
    outside = [n for n, a in data["arms"].items() if a.get("outside_rules")]
    banners = []
    if label:
        banners.append(f'<div class="banner" id="oracle-banner">{_e(label)}</div>')
    if outside:
        banners.append(
            f'<div class="banner" id="outside-rules">Outside the challenge\'s rules: {_e(", ".join(outside))} '
            "(script evaluation and/or URL navigation, the challenge winner's tools (seed 002), for comparison only)</div>"
        )
    b = data.get("budgets") or {}
    meta = (
        f"model {data.get('model')} · seeds {', '.join(map(str, data.get('seeds', [])))} · "
        f"{data.get('tasks_per_seed')} tasks per seed · budgets {b.get('max_steps')} steps, "
        f"{b.get('max_seconds', 0):g} s per task in every arm"
    )
    body = [
        f"<h1>{_e(title)}</h1>",
        f'<div class="kv">{_e(meta)}</div>',
        *banners,
        "<h2>Pass rate per arm</h2>",
        bar_chart(data),
        "<h2>Arms</h2>",
        _arm_table(data),
        "<h2>Paired comparison</h2>",
        _pair_table(data),
    ]
    return _page(title, body)
