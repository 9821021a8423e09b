"""The oracle's plan (docs/contracts.md §1) on BrowserGym's sync page: run directly by
`cheat`, or grounded to the bid grammar one step at a time (`bid_action`) by an agent that
reads the plan and names each target by the bid BrowserGym marked on it.

A plan's steps: click, fill (+ Enter), select, hover, drag (its `menu`: the clicks that do the
same move) and answer (the text its `source` reads, or a literal `value`), each with an
`expect` that holds once the page reacted (target + visible / text_contains / value / checked,
or `all` of several).
"""

from __future__ import annotations

import re
import time
from typing import Any

from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Locator, Page

BID_ATTRIBUTE = "bid"  # browsergym.core.constants.BROWSERGYM_ID_ATTRIBUTE

Step = dict[str, Any]


def locate(page: Page, loc: dict[str, Any]) -> Locator:
    scope: Any = page
    for frame in loc.get("frame") or []:
        scope = scope.frame_locator(frame)
    return scope.locator(loc["selector"]).nth(int(loc.get("nth", 0)))  # type: ignore[no-any-return]


def holds(page: Page, expect: dict[str, Any]) -> bool:
    """Whether the expectation holds on the page now (docs/contracts.md §1, `E`)."""
    if "all" in expect:
        return all(holds(page, e) for e in expect["all"])
    if "url_contains" in expect:
        return str(expect["url_contains"]) in page.url
    if "target" not in expect:
        return True
    el = locate(page, expect["target"])
    if el.count() == 0:
        return expect.get("visible") is False
    if "visible" in expect and el.is_visible() != bool(expect["visible"]):
        return False
    if "text_contains" in expect and str(expect["text_contains"]) not in el.inner_text():
        return False
    if "value" in expect and el.input_value() != str(expect["value"]):
        return False
    return not ("checked" in expect and el.is_checked() != bool(expect["checked"]))


def wait_expect(page: Page, expect: dict[str, Any] | None, timeout_s: float = 8.0) -> bool:
    """Whether the step's expectation came to hold within the timeout (polled)."""
    if not expect:
        return True
    deadline = time.monotonic() + timeout_s
    while True:
        try:
            if holds(page, expect):
                return True
        except PlaywrightError:
            pass  # the page navigated while it was read: try again
        if time.monotonic() > deadline:
            return False
        page.wait_for_timeout(50)


def answer_of(page: Page, source: dict[str, Any]) -> str:
    """The answer as the page shows it (the oracle's `read_value`, synchronously)."""
    if "value" in source and "target" not in source:
        return str(source["value"])
    el = locate(page, source["target"])
    attr = source.get("attr") or "text"
    text = el.inner_text() if attr == "text" else str(el.get_attribute(attr) or "")
    if source.get("regex"):
        m = re.search(source["regex"], text)
        text = "" if m is None else (m.group(1) if m.groups() else m.group(0))
    return text.strip()


def atomic(plan: list[Step]) -> list[Step]:
    """The plan with one browser action per step: a drag becomes its menu's clicks, a fill
    with submit a fill and an Enter (`op: press`); each part keeps the step's expectation last."""
    out: list[Step] = []
    for step in plan:
        if step["op"] == "drag":
            menu = step.get("menu") or []
            out += [{"op": "click", "target": m} for m in menu[:-1]]
            out.append({"op": "click", "target": menu[-1], "expect": step.get("expect")})
        elif step["op"] == "fill" and step.get("submit"):
            out.append({**step, "submit": False, "expect": None})
            out.append(
                {"op": "press", "target": step["target"], "key": "Enter", "expect": step.get("expect")}
            )
        else:
            out.append(step)
    return out


def run_step(page: Page, step: Step) -> str | None:
    """Run one atomic step on the page; the answer text for an answer step."""
    op = step["op"]
    if op == "answer":
        return answer_of(page, step.get("source") or {"value": step.get("value", "")})
    el = locate(page, step["target"])
    if op == "click":
        el.click()
    elif op == "fill":
        el.fill(str(step["content"]))
    elif op == "press":
        el.press(str(step["key"]))
    elif op == "select":
        _select(el, str(step["option"]))
    elif op == "hover":
        el.hover()
    else:
        raise ValueError(f"plan op {op!r} has no sync runner")
    return None


def _select(el: Locator, option: str) -> None:
    try:
        el.select_option(label=option, timeout=2000)
    except PlaywrightError:
        el.select_option(value=option)


def bid_of(page: Page, loc: dict[str, Any]) -> str:
    """The bid BrowserGym's last observation marked on the element (it stays on the DOM)."""
    bid = locate(page, loc).get_attribute(BID_ATTRIBUTE, timeout=5000)
    if bid is None:
        raise LookupError(f"no bid on {loc['selector']!r}: observe the page first")
    return bid


def bid_action(page: Page, step: Step) -> str:
    """One atomic step as a call of the bid grammar (Table 8), its target named by bid."""
    op = step["op"]
    if op == "answer":
        return f"send_msg_to_user({run_step(page, step)!r})"
    bid = bid_of(page, step["target"])
    if op == "click":
        return f"click({bid!r})"
    if op == "fill":
        return f"fill({bid!r}, {str(step['content'])!r})"
    if op == "press":
        return f"press({bid!r}, {str(step['key'])!r})"
    if op == "select":
        return f"select_option({bid!r}, {str(step['option'])!r})"
    if op == "hover":
        return f"hover({bid!r})"
    raise ValueError(f"plan op {op!r} has no bid action")
