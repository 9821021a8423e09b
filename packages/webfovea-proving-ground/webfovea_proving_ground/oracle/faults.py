"""Oracle fault plans: labelled trajectories on demand, for measuring judges.

A fault plan is the task's own plan rewritten the way agents go wrong; the oracle follows it
like any plan and still speaks like a model. The fault is recorded on the task (`fault`) and
in result.json, never shown to a judge; the truth of each run comes from the server's log, not
from the fault's name (a fault that happens not to change what the server saw is labelled by
what the server saw).

  wrong_filter          the adjacent option in a select (or the adjacent list item) instead of the asked one
  wrong_row             right filters, but the value is read from the next table row
  from_memory           no navigation: answer at once (with the expected value: the hardest case)
  applied_then_cleared  after the last change, the page is reloaded from the site's menu (filters reset)
  stop_early            the plan's last step before the answer is skipped
  never_applied         the filters are set in the page but never applied (no Apply click, no Enter)

Only tasks that declare a navigation truth get fault variants.
"""

from __future__ import annotations

import copy
import hashlib
import re
from collections.abc import Callable
from typing import Any
from urllib.parse import urlsplit

from webfovea.task import Task
from webfovea_proving_ground.plan import L, Step, answer_value, click
from webfovea_proving_ground.sites.data import COUNTRIES, FREQUENCIES, INDICATORS
from webfovea_proving_ground.sites.layout import NAV

FAULTS = ("wrong_filter", "wrong_row", "from_memory", "applied_then_cleared", "stop_early", "never_applied")
CHANGES = {"click", "select", "fill", "click_many"}  # ops that change what the page (and server) holds

# Select boxes / list items whose options we know: (selector pattern, [(value, text the task would say)]).
_COUNTRY = [(c.code, c.option) for c in COUNTRIES]
_OPTIONS: list[tuple[re.Pattern[str], list[tuple[str, str]]]] = [
    (re.compile(r"^#country(-a|-b)?$"), _COUNTRY),
    (re.compile(r"^#freq$"), list(FREQUENCIES.items())),
    (re.compile(r"^#cmp-indicator$"), [(k, v) for k, v in INDICATORS.items() if k != "exports"]),
]
_CODE_ITEM = re.compile(r'^(#country-list li|#suggestions li)\[data-code="([^"]+)"\]$')
_ROW = re.compile(r'(tr\[data-[a-z-]+="[^"]*"\])')


def _adjacent(options: list[tuple[str, str]], value: str) -> tuple[str, str] | None:
    values = [v for v, _ in options]
    if value not in values:
        return None
    i = values.index(value)
    return options[i + 1] if i + 1 < len(options) else options[i - 1] if i else None


def _quiet_after(plan: list[Step], index: int) -> list[Step]:
    """Steps after `index` without their expectations and without waits: they describe the
    right state, which a faulted run never reaches (the oracle would retry them in vain)."""
    out = plan[: index + 1]
    for step in plan[index + 1 :]:
        if step["op"] == "wait":
            continue
        out.append({k: v for k, v in step.items() if k != "expect"})
    return out


def _wrong_filter(plan: list[Step], task: Task) -> list[Step] | None:
    for i, step in enumerate(plan):
        sel = step.get("target", {}).get("selector", "")
        if step["op"] == "select":
            want = (step.get("expect") or {}).get("value")
            table = next((opts for pat, opts in _OPTIONS if pat.match(sel)), None)
            other = _adjacent(table, want) if table and want else None
            if other:
                new = {**step, "option": other[1], "expect": {**step["expect"], "value": other[0]}}
                return _quiet_after([*plan[:i], new, *plan[i + 1 :]], i)
        m = _CODE_ITEM.match(sel) if step["op"] == "click" else None
        if m:
            table = _COUNTRY if m.group(1).startswith("#country") else [(k, v) for k, v in INDICATORS.items()]
            other = _adjacent(table, m.group(2))
            if other:
                target = {**step["target"], "selector": f'{m.group(1)}[data-code="{other[0]}"]'}
                new = {k: v for k, v in step.items() if k != "expect"} | {"target": target}
                return _quiet_after([*plan[:i], new, *plan[i + 1 :]], i)
    return None


def _wrong_row(plan: list[Step], task: Task) -> list[Step] | None:
    last = plan[-1]
    sel = last.get("source", {}).get("target", {}).get("selector", "")
    m = _ROW.search(sel)
    if not m:
        return None
    row = m.group(1)
    out = copy.deepcopy(plan)
    for step in out:
        for loc in [step.get("target"), step.get("source", {}).get("target")]:
            if isinstance(loc, dict) and row in loc.get("selector", ""):
                loc["selector"] = loc["selector"].replace(row, row + " + tr")  # the next row
    return out


def _from_memory(plan: list[Step], task: Task) -> list[Step] | None:
    if task.answer is None or len(plan) < 2:
        return None
    return [answer_value(str(task.answer))]


def _last_change(plan: list[Step]) -> int | None:
    idx = [i for i, s in enumerate(plan) if s["op"] in CHANGES]
    return idx[-1] if idx else None


def _applied_then_cleared(plan: list[Step], task: Task) -> list[Step] | None:
    i = _last_change(plan)
    path = urlsplit(task.website).path or "/"
    if i is None or path not in {href for href, _ in NAV}:
        return None
    reset = click(L(f'nav.main a[href="{path}"]'))  # the site's own menu: a fresh page, filters reset
    return _quiet_after([*plan[: i + 1], reset, *plan[i + 1 :]], i + 1)


def _stop_early(plan: list[Step], task: Task) -> list[Step] | None:
    if len(plan) < 2:
        return None
    return [*plan[:-2], plan[-1]]


def _never_applied(plan: list[Step], task: Task) -> list[Step] | None:
    i = _last_change(plan)
    if i is None:
        return None
    step = plan[i]
    if step["op"] == "fill" and step.get("submit"):
        new = {k: v for k, v in step.items() if k != "expect"} | {"submit": False}
        return _quiet_after([*plan[:i], new, *plan[i + 1 :]], i)
    if step["op"] == "click" and any(s["op"] in ("select", "fill") for s in plan[:i]):
        return _quiet_after([*plan[:i], *plan[i + 1 :]], i - 1)
    return None


_BUILDERS: dict[str, Callable[[list[Step], Task], list[Step] | None]] = {
    "wrong_filter": _wrong_filter,
    "wrong_row": _wrong_row,
    "from_memory": _from_memory,
    "applied_then_cleared": _applied_then_cleared,
    "stop_early": _stop_early,
    "never_applied": _never_applied,
}


def variant_id(task_id: str, fault: str) -> str:
    return f"{task_id}--v{hashlib.sha256(f'{task_id}|{fault}'.encode()).hexdigest()[:6]}"


def parse_faults(text: str) -> list[str]:
    """`all` or a comma-separated list of fault names; ValueError naming an unknown one."""
    names = list(FAULTS) if text.strip() == "all" else [f.strip() for f in text.split(",") if f.strip()]
    unknown = [f for f in names if f not in FAULTS]
    if unknown or not names:
        raise ValueError(
            f"unknown fault(s) {', '.join(unknown) or '(none given)'}; use all or a list of "
            f"{', '.join(FAULTS)}"
        )
    return names


def fault_plan(task: Task, fault: str) -> list[Step] | None:
    """The task's plan with `fault` applied, or None when the fault does not apply to it."""
    plan = (task.model_extra or {}).get("plan") or []
    return _BUILDERS[fault](copy.deepcopy(plan), task) if plan else None


def spread(tasks: list[Task], limit: int | None) -> list[Task]:
    """At most `limit` tasks that declare a truth, taken round-robin across sites so a short run
    still covers every site (suite order within a site)."""
    labelled = [t for t in tasks if (t.model_extra or {}).get("nav_truth")]
    if not limit or limit >= len(labelled):
        return labelled
    by_site: dict[str, list[Task]] = {}
    for t in labelled:
        by_site.setdefault(t.site or "", []).append(t)
    picked: list[Task] = []
    while len(picked) < limit:
        for queue in by_site.values():
            if queue and len(picked) < limit:
                picked.append(queue.pop(0))
    order = {t.task_id: i for i, t in enumerate(labelled)}
    return sorted(picked, key=lambda t: order[t.task_id])


def with_faults(tasks: list[Task], faults: list[str]) -> list[Task]:
    """Each task that declares a navigation truth, clean and with every applicable fault.

    A variant's id is `<task>--v<hash>`: it does not name the fault (a judge that saw folder
    names must not learn the label from them); `fault` on the task and in result.json does.
    Tasks without a truth are left out: their runs could not be labelled."""
    out: list[Task] = []
    for t in tasks:
        if not (t.model_extra or {}).get("nav_truth"):
            continue
        out.append(t)
        for fault in faults:
            plan = fault_plan(t, fault)
            if plan is not None:
                extra: dict[str, Any] = {"plan": plan, "fault": fault}
                out.append(t.model_copy(update={"task_id": variant_id(t.task_id, fault), **extra}))
    for i, t in enumerate(out):
        out[i] = t.model_copy(update={"task_index": i})
    return out
