"""The oracle speaking browser-use's grammar, as browser-use's `ChatOpenAI` asks it: each request
is the messages browser-use built (its system prompt, history and browser state with the
interactive elements as `[index]<tag …/>`) and the JSON schema of its `AgentOutput` (the actions
it offers, with their parameters). The reply is one `AgentOutput` as JSON with one action.

An instrument, not a model, under the rule every harness's oracle follows (oracle.py): it follows
the task's plan and grounds each target on the live page, read-only — here through a second CDP
connection to browser-use's own browser — but it names only what browser-use put in front of it:
an index is the target's backend node id (browser-use's own numbering, dom/serializer), used only
when that `[index]` is in the browser state it was sent; a target not listed is scrolled to first
(browser-use lists what is in view). An action is used only if the schema it was sent offers it.

Plan steps in browser-use's actions: click -> `click`, fill -> `input` (clear), Enter ->
`send_keys`, select -> `select_dropdown`, answer -> `done` (success true); browser-use has no
hover, so a hover step is passed over with a `wait`. Nothing to name -> `wait` (a look again),
then after a few tries `done` with success false, as the other oracles report infeasible.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Page

from webfovea_breakingweb.gym.plan_steps import Step, answer_of
from webfovea_breakingweb.gym.plan_walker import MAX_SCROLLS, PlanWalker
from webfovea_breakingweb.harnesses.oracle import GIVE_UP_AFTER

_SHOWN = re.compile(r"\[(\d+)\]<")
_CURRENT_TAB = re.compile(r"^Current tab: (\S+)", re.MULTILINE)
# The node the plan's selector names, through open shadow roots (Playwright's CSS pierces them;
# browser-use lists shadow content too), as a remote object whose backend node id CDP gives.
_DEEP_QUERY = """(([sel, nth]) => {
  const found = [];
  const walk = (root) => {
    root.querySelectorAll(sel).forEach((el) => found.push(el));
    root.querySelectorAll('*').forEach((el) => { if (el.shadowRoot) walk(el.shadowRoot); });
  };
  walk(document);
  return found[nth] || null;
})"""


class BrowserUseOracle:
    """`reply(body) -> str`: browser-use's request in, its `AgentOutput` JSON out."""

    def __init__(self, plan: list[Step], page_of: Callable[[str], Page]) -> None:
        """`page_of(url)`: the live page of browser-use's current tab (its URL as the state says)."""
        self.walker = PlanWalker(plan)
        self.page_of = page_of
        self.pending: Step | None = None
        self.scrolls = 0
        self.misses: list[str] = []
        self.log: list[dict[str, Any]] = []  # what each request showed and what was answered

    def reply(self, body: dict[str, Any]) -> str:
        schema = ((body.get("response_format") or {}).get("json_schema") or {}).get("schema")
        if schema is None:  # a plain completion (browser-use asks none with judge and compaction off)
            return ""
        offered = offered_actions(schema)
        state = last_user_text(body.get("messages") or [])
        shown = {int(n) for n in _SHOWN.findall(state)}
        try:
            action, why = self._decide(shown, current_url(state))
            if "wait" not in action:
                self.misses.clear()
        except (PlaywrightError, LookupError) as e:
            self.misses.append(str(e).splitlines()[0] if str(e) else type(e).__name__)
            if len(self.misses) < GIVE_UP_AFTER:
                action, why = {"wait": {"seconds": 1}}, f"look again: {self.misses[-1]}"
            else:
                text = f"cannot find what to act on: {self.misses[-1]}"[:200]
                action, why = _done(text, success=False), "give up"
        name = next(iter(action))
        if name not in offered:
            raise ValueError(f"browser-use did not offer the action {name!r} (offered: {sorted(offered)})")
        action = {name: {**_defaults(offered[name]), **action[name]}}
        self.log.append({"shown": len(shown), "action": action, "why": why})
        return json.dumps(agent_output(schema, action, why))

    def _decide(self, shown: set[int], url: str) -> tuple[dict[str, Any], str]:
        page = self.page_of(url)
        step = self.pending or self.walker.next_step(page)
        self.pending = None
        if step is None:
            return {"wait": {"seconds": 1}}, "the plan is done"
        op = step["op"]
        if op == "answer":
            text = answer_of(page, step.get("source") or {"value": step.get("value", "")})
            return _done(text, success=True), "plan step answer"
        if op == "press":  # the field just filled keeps the focus
            return {"send_keys": {"keys": str(step["key"])}}, "plan step press"
        if op == "hover":
            return {"wait": {"seconds": 1}}, "browser-use has no hover: step passed over"
        index = backend_node_id(page, step["target"])
        if index not in shown:
            if self.scrolls < MAX_SCROLLS:
                self.pending, self.scrolls = step, self.scrolls + 1
                return _scroll(page, step), "scroll the target into view"
            raise LookupError(f"{step['target']['selector']!r} is not among browser-use's elements")
        self.scrolls = 0
        if op == "click":
            return {"click": {"index": index}}, "plan step click"
        if op == "fill":
            return {"input": {"index": index, "text": str(step["content"]), "clear": True}}, "plan step fill"
        if op == "select":
            return {"select_dropdown": {"index": index, "text": str(step["option"])}}, "plan step select"
        raise ValueError(f"plan op {op!r} has no browser-use action")


def backend_node_id(page: Page, target: dict[str, Any]) -> int:
    """The target's backend node id (CDP's; browser-use numbers its elements by it)."""
    if target.get("frame"):
        raise LookupError("targets inside frames are not grounded for browser-use yet")
    cdp = page.context.new_cdp_session(page)
    try:
        fn = cdp.send("Runtime.evaluate", {"expression": _DEEP_QUERY})["result"]["objectId"]
        args = [{"value": [target["selector"], int(target.get("nth", 0))]}]
        found = cdp.send(
            "Runtime.callFunctionOn",
            {"functionDeclaration": "function(a){return this(a)}", "objectId": fn, "arguments": args},
        )["result"]
        if found.get("subtype") == "null" or "objectId" not in found:
            raise LookupError(f"no element {target['selector']!r} on the page")
        node = cdp.send("DOM.describeNode", {"objectId": found["objectId"]})["node"]
        return int(node["backendNodeId"])
    finally:
        cdp.detach()


def _scroll(page: Page, step: Step) -> dict[str, Any]:
    """browser-use scrolls by pages: enough pages to bring the target's centre to mid-view."""
    from webfovea_breakingweb.gym.plan_steps import locate

    box = locate(page, step["target"]).bounding_box() or {"y": 0.0, "height": 0.0}
    view = page.viewport_size or {"height": 720}
    dy = box["y"] + box["height"] / 2 - view["height"] / 2
    pages = max(0.1, round(abs(dy) / view["height"], 1))
    return {"scroll": {"down": dy >= 0, "pages": pages, "index": None}}


def _done(text: str, *, success: bool) -> dict[str, Any]:
    return {"done": {"text": text, "success": success, "files_to_display": []}}


def offered_actions(schema: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """{action name: its parameter schema} from the `AgentOutput` schema browser-use sent."""
    items = schema["properties"]["action"]["items"]
    out: dict[str, dict[str, Any]] = {}
    for option in items.get("anyOf") or [items]:
        for name, spec in (option.get("properties") or {}).items():
            out[name] = spec
    return out


def _defaults(spec: dict[str, Any]) -> dict[str, Any]:
    """A strict schema asks every parameter: the ones the oracle does not set, at their defaults."""
    return {k: v["default"] for k, v in (spec.get("properties") or {}).items() if "default" in v}


def agent_output(schema: dict[str, Any], action: dict[str, Any], why: str) -> dict[str, Any]:
    """One `AgentOutput`: the action, the reason as its goal, the schema's other fields empty."""
    out: dict[str, Any] = {}
    for key, spec in schema.get("properties", {}).items():
        if key == "action":
            out[key] = [action]
        elif key in ("next_goal", "thinking", "memory", "evaluation_previous_goal"):
            out[key] = why if key == "next_goal" else ""
        else:
            out[key] = spec.get("default")
    return out


def last_user_text(messages: list[dict[str, Any]]) -> str:
    """The text of the last message carrying browser-use's browser state."""
    for m in reversed(messages):
        if m.get("role") != "user":
            continue
        content = m.get("content")
        parts = (
            [content]
            if isinstance(content, str)
            else [p.get("text", "") for p in content or [] if isinstance(p, dict) and p.get("type") == "text"]
        )
        text = "\n".join(parts)
        if "<browser_state>" in text:
            return text
    return ""


def current_url(state: str) -> str:
    """The URL of the tab browser-use calls current (`Current tab: ID`, then `Tab ID: URL - title`)."""
    m = _CURRENT_TAB.search(state)
    if m is None:
        return ""
    tab = re.search(rf"^Tab {re.escape(m.group(1))}: (\S+)", state, re.MULTILINE)
    return tab.group(1) if tab else ""
