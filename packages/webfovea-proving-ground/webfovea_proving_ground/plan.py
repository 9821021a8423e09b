"""Oracle plans: the proving ground's own task data, and the helpers that write it.

Plans follow docs/contracts.md §1: semantic steps whose targets are locators
(`{"frame": [...], "selector": "...", "nth": 0}`). The helpers below build them so the task
definitions in `suites/tasks.py` read like instructions to a careful person.

A plan and its oracle quirks travel on the shared `Task` as environment fields
(`Task` keeps fields it does not know); `PlannedTask` reads them back typed.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field

from webfovea.task import Task

Locator = dict[str, Any]
Step = dict[str, Any]


class PlannedTask(BaseModel):
    """The proving-ground fields of a task, which only the oracle and the suite read."""

    task_id: str
    plan: list[Step] = Field(default_factory=list)
    quirks: dict[str, Any] = Field(default_factory=dict)  # oracle quirk overrides for this task

    @classmethod
    def of(cls, task: Task) -> PlannedTask:
        extra = task.model_extra or {}
        return cls(task_id=task.task_id, plan=extra.get("plan") or [], quirks=extra.get("quirks") or {})


CATEGORIES = (
    "document extraction",
    "form interaction",
    "multi-source comparison",
    "complete data retrieval",
    "chart analysis",
)
FAILURE_CLASSES = (
    "coordinates",
    "select",
    "fill",
    "date_input",
    "autocomplete",
    "token",
    "iframe",
    "hover",
    "find_text",
    "read_text",
    "font",
    "captcha",
    "slow",
    "consent",
    "long_page",
    "late_answer",
    "scroll_box",
    "hover_intent",
    "tabs",
    "shadow_dom",
    "stale_ref",
    "back",
    "label_layout",
    "document",  # the evidence is only in a PDF, spreadsheet or CSV download (webfovea/documents/)
)
# Ops that put the pointer somewhere: a click at 3/4 of the intended point misses their targets.
POINTER_OPS = {"click", "select", "fill", "hover", "click_many", "drag"}
DASH = ["iframe#dash"]
DOC = ["iframe#doc"]


def L(selector: str, frame: list[str] | None = None, nth: int = 0) -> Locator:  # noqa: N802 - reads as a noun
    loc: Locator = {"selector": selector}
    if frame:
        loc["frame"] = list(frame)
    if nth:
        loc["nth"] = nth
    return loc


def _step(op: str, expect: dict | None, **fields: Any) -> Step:
    step: Step = {"op": op, **{k: v for k, v in fields.items() if v is not None}}
    if expect is not None:
        step["expect"] = expect
    return step


def click(target: Locator, expect: dict | None = None) -> Step:
    return _step("click", expect, target=target)


def select(target: Locator, option: str, expect: dict | None = None) -> Step:
    return _step("select", expect, target=target, option=option)


def fill(target: Locator, content: str, submit: bool = False, expect: dict | None = None) -> Step:
    return _step("fill", expect, target=target, content=content, submit=submit)


def hover(target: Locator, expect: dict | None = None) -> Step:
    return _step("hover", expect, target=target)


def scroll_to(target: Locator) -> Step:
    return _step("scroll_to", None, target=target)


def back(expect: dict | None = None) -> Step:
    """Go back one page in the browser history (the flow relies on returning to a list)."""
    return _step("back", expect)


def find_text(text: str, target: Locator) -> Step:
    return _step("find_text", None, text=text, target=target)


def read_text(near: str) -> Step:
    return _step("read_text", None, near=near)


def click_many(targets: list[Locator], expect: dict | None = None) -> Step:
    return _step("click_many", expect, targets=targets)


def drag(
    source: Locator, target: Locator, menu: list[Locator] | None = None, expect: dict | None = None
) -> Step:
    """Press on `source`, move to `target`, release; `menu`: the clicks that do the same move."""
    return _step("drag", expect, source=source, target=target, menu=menu)


def wait(until: dict) -> Step:
    return _step("wait", None, until=until)


def answer(
    target: Locator, attr: str = "text", regex: str | None = None, decode: str | None = None, **extra: Any
) -> Step:
    source: dict[str, Any] = {"target": target, "attr": attr}
    if regex:
        source["regex"] = regex
    if decode:
        source["decode"] = decode
    source.update(extra)
    return _step("answer", None, source=source)


def answer_value(value: str) -> Step:
    return _step("answer", None, value=value)


def visible(target: Locator) -> dict:
    return {"target": target, "visible": True}


def value_is(target: Locator, value: str) -> dict:
    return {"target": target, "value": value}


def text_has(target: Locator, text: str) -> dict:
    return {"target": target, "text_contains": text}


def url_has(text: str) -> dict:
    return {"url_contains": text}


def first_target(plan: list[Step]) -> tuple[Step, Locator] | None:
    """The first step with a target, and that target (for cheap live checks)."""
    for step in plan:
        if "target" in step:
            return step, step["target"]
        if "targets" in step:
            return step, step["targets"][0]
        if step.get("op") == "wait" and "target" in step.get("until", {}):
            return step, step["until"]["target"]
        if step.get("op") == "answer" and "source" in step:
            return step, step["source"]["target"]
    return None


def with_pointer_class(classes: list[str], plan: list[Step]) -> list[str]:
    """Add `coordinates` to every task whose plan points somewhere; keep the order stable."""
    out = list(dict.fromkeys(classes))
    if any(s["op"] in POINTER_OPS for s in plan) and "coordinates" not in out:
        out.insert(0, "coordinates")
    return out


def check_suite(tasks: list[Task]) -> None:
    """Refuse a malformed suite early: duplicate ids, unknown categories or classes, no plan."""
    seen: set[str] = set()
    for t in tasks:
        if t.task_id in seen:
            raise ValueError(f"duplicate task id {t.task_id}")
        seen.add(t.task_id)
        if t.category not in CATEGORIES:
            raise ValueError(f"{t.task_id}: unknown category {t.category!r}")
        bad = [c for c in t.failure_classes if c not in FAILURE_CLASSES]
        if bad:
            raise ValueError(f"{t.task_id}: unknown failure classes {bad}")
        plan = PlannedTask.of(t).plan
        if not plan or plan[-1]["op"] != "answer":
            raise ValueError(f"{t.task_id}: a plan must end with an answer step")


# -- navigation truth: predicates over the session's server-side request log (webfovea/predicates.py)


def last_fetch(path: str, label: str | None = None, **query: Any) -> dict:
    """The last XHR/fetch to `path` carries these query values (the state the page shows)."""
    return _truth("last", path, True, query, label)


def any_fetch(path: str, label: str | None = None, **query: Any) -> dict:
    """Some XHR/fetch to `path` carried these query values (an operation that happened)."""
    return _truth("any", path, True, query, label)


def last_document(path: str, label: str | None = None, **query: Any) -> dict:
    """The last page load of `path` (a document, not a fetch) carried these query values."""
    return _truth("last", path, False, query, label)


def any_document(path: str, label: str | None = None, **query: Any) -> dict:
    return _truth("any", path, False, query, label)


def _truth(which: str, path: str, fetch: bool, query: dict[str, Any], label: str | None) -> dict:
    # Python names cannot be `from`: `from_` stands for it.
    q = {("from" if k == "from_" else k): v for k, v in query.items()}
    p: dict[str, Any] = {"which": which, "method": "GET", "path": path, "fetch": fetch}
    if q:
        p["query"] = q
    if label:
        p["label"] = label
    return p
