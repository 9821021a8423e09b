"""The run's tables in the report: its facts, pass rates by group, costs, failures by kind
and the task list."""

from __future__ import annotations

from typing import Any

from webfovea.eval import html
from webfovea.eval.taxonomy import GROUPS

_e = html.text


def value_html(value: Any, *, answer: bool = False) -> str:
    """An answer or expected value, with 'nothing' made visible: no answer is not an empty answer."""
    if value is None:
        return "<i>(no answer)</i>" if answer else "<i>(empty)</i>"
    if value == "":
        return "<i>(empty)</i>"
    return _e(value)


def badge(passed: bool | None, how: str | None) -> str:
    if how == "unscored":
        return '<span class="badge" style="background:#777">UNSCORED</span>'
    return '<span class="badge pass">PASS</span>' if passed else '<span class="badge fail">FAIL</span>'


def failure_text(row: dict[str, Any]) -> str:
    return " · ".join(x for x in (row.get("taxonomy"), row.get("stage")) if x)


def meta_rows(summary: dict[str, Any]) -> str:
    meta = summary.get("meta") or {}
    rows = []
    for key in ("model", "profile", "disabled", "seed", "workers", "started", "ended"):
        value = meta.get(key)
        if key == "disabled":
            value = ", ".join(value or []) or "none"
        rows.append(f"<tr><td>{_e(key)}</td><td>{_e(value if value is not None else '—')}</td></tr>")
    for key, value in meta.items():
        if key not in ("model", "profile", "disabled", "seed", "workers", "started", "ended"):
            rows.append(f"<tr><td>{_e(key)}</td><td>{_e(value)}</td></tr>")
    return '<table class="meta">' + "".join(rows) + "</table>"


def group_table(title: str, groups: dict[str, dict[str, Any]]) -> str:
    if not groups:
        return ""
    rows = "".join(
        f"<tr><td>{_e(name)}</td><td class=num>{g['passed']}/{g['tasks']}</td>"
        f"<td class=num>{g['success_rate']:.1%}</td></tr>"
        for name, g in groups.items()
    )
    return (
        f"<h3>{_e(title)}</h3><table><tr><th>{_e(title.split()[-1])}</th><th class=num>passed</th>"
        f"<th class=num>success</th></tr>{rows}</table>"
    )


def _tokens_cell(r: dict[str, Any]) -> str:
    tokens = r.get("tokens") or {}
    if not tokens:
        return "<td class=num>—</td><td class=num>—</td>"
    cost = r.get("cost")
    return (
        f"<td class=num>{float(tokens.get('uncached_input_tokens_per_step') or 0):,.0f} / "
        f"{float(tokens.get('input_tokens_per_step') or 0):,.0f}</td>"
        f"<td class=num>{'—' if cost is None else f'${cost:.4f}'}</td>"
    )


def cost_rows(summary: dict[str, Any]) -> str:
    """The run's measured cost (eval/costs.py): tokens per step, cache reads, $ with --prices."""
    tokens = summary.get("tokens") or {}
    if not tokens:
        return ""
    keys = (
        "input_tokens_per_step",
        "uncached_input_tokens_per_step",
        "cache_read_fraction",
        "output_tokens_per_step",
        "cache_miss_calls",
        "estimated_calls",
        "cost",
    )
    rows = "".join(f"<tr><td>{_e(k)}</td><td>{_e(tokens.get(k, '—'))}</td></tr>" for k in keys if k in tokens)
    return f'<h3>Cost</h3><table class="meta">{rows}</table>'


def failure_table(summary: dict[str, Any]) -> str:
    """Why the failed tasks failed: seed 003's label (docs/glossary.md) (with its group) and the first stage that went wrong."""
    labels: dict[str, int] = summary.get("taxonomy") or {}
    stages: dict[str, int] = summary.get("stages") or {}
    if not labels and not stages:
        return ""
    rows = "".join(
        f"<tr><td>{_e(name)}</td><td>{_e(GROUPS.get(name) or '—')}</td><td class=num>{n}</td></tr>"
        for name, n in labels.items()
    )
    stage_rows = "".join(f"<tr><td>{_e(name)}</td><td class=num>{n}</td></tr>" for name, n in stages.items())
    return (
        '<h3>Why tasks failed</h3><table id="taxonomy"><tr><th>failure label</th><th>group</th>'
        f"<th class=num>tasks</th></tr>{rows}</table>"
        f'<table id="stages"><tr><th>first stage that went wrong</th><th class=num>tasks</th></tr>'
        f"{stage_rows}</table>"
    )


def task_table(per_task: dict[str, dict[str, Any]], anchors: dict[str, str]) -> str:
    rows = []
    for tid, r in per_task.items():
        rows.append(
            f'<tr class="task-row" data-task-id="{_e(tid)}"><td><a href="#{anchors[tid]}">{_e(tid)}</a></td>'
            f"<td>{badge(r.get('passed'), r.get('how'))}</td><td>{_e(r.get('status'))}</td>"
            f"<td>{value_html(r.get('answer'), answer=True)}</td><td>{value_html(r.get('expected'))}</td>"
            f"<td>{_e(r.get('how'))}</td><td>{_e(failure_text(r))}</td>"
            f"<td class=num>{_e(r.get('steps'))}</td><td class=num>{float(r.get('seconds') or 0):.1f}</td>"
            f"{_tokens_cell(r)}</tr>"
        )
    head = (
        "<tr><th>task</th><th>result</th><th>status</th><th>answer</th><th>expected</th><th>match</th>"
        "<th>failure</th><th class=num>steps</th><th class=num>seconds</th><th class=num>uncached / input tokens per step</th>"
        "<th class=num>cost</th></tr>"
    )
    return f'<table id="task-table">{head}{"".join(rows)}</table>'
