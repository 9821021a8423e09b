"""Built-in plans, executed step by step at the DOM level, reach the expected answers.

This is not the oracle (which speaks through the harness); it is a direct check of the
suite itself: each locator resolves when its step comes, each `expect` becomes true,
each option the task spells is found the way the harness's `select` finds it (exact,
then normalised, then substring), and the value read at the end equals the answer.
To stay quick, one task of each shape (site, start page, sequence of ops) runs; the
option spellings of all tasks are checked in test_suite.py.
"""

from __future__ import annotations

import asyncio
import re
import time
from typing import Any
from urllib.parse import urlparse

import pytest
from playwright.async_api import Locator, Page

from webfovea.browser.session import BrowserSession
from webfovea.execution.forms import match_option
from webfovea.task import Task
from webfovea_proving_ground.serve import SitesHandle
from webfovea_proving_ground.sites.rankings import decode_pua
from webfovea_proving_ground.suites.builtin import load_builtin_suite

pytestmark = pytest.mark.asyncio(loop_scope="session")
SEED = 1
PARALLEL = 4


def locate(page: Page, loc: dict[str, Any]) -> Locator:
    scope: Any = page
    for sel in loc.get("frame", []):
        scope = scope.frame_locator(sel)
    return scope.locator(loc["selector"]).nth(loc.get("nth", 0))


async def holds(page: Page, cond: dict[str, Any]) -> bool:
    if "all" in cond:
        return all([await holds(page, c) for c in cond["all"]])
    if "url_contains" in cond:
        return cond["url_contains"] in page.url
    el = locate(page, cond["target"])
    if await el.count() == 0:
        return False
    if cond.get("visible") and not await el.is_visible():
        return False
    if "value" in cond and (await el.evaluate("e => e.value") or "").strip() != cond["value"]:
        return False
    if "text_contains" in cond and cond["text_contains"] not in (await el.inner_text()):
        return False
    return True


async def until(page: Page, cond: dict[str, Any], timeout: float = 20.0) -> bool:
    deadline = time.monotonic() + timeout
    while True:
        try:
            if await holds(page, cond):
                return True
        except Exception:
            pass  # a frame navigating away mid-check
        if time.monotonic() > deadline:
            return False
        await asyncio.sleep(0.1)


async def choose_option(el: Locator, said: str) -> None:
    options = await el.evaluate(
        "s => [...s.options].map(o => ({text: o.text, value: o.value, disabled: o.disabled}))"
    )
    index, _, error = match_option(options, said)  # the harness's own matcher
    assert index is not None, error
    await el.select_option(index=index)


async def dom_click(el: Locator) -> None:
    """A DOM click (overlays are the harness's business). A link that navigates the top page
    can detach the clicked frame before the evaluate returns; the click has then happened and
    the step's `expect` checks its effect."""
    try:
        await el.evaluate("e => e.click()")
    except Exception as e:
        if "detached" not in str(e) and "context was destroyed" not in str(e):
            raise


async def run_step(page: Page, step: dict[str, Any], seed: int) -> str | None:
    op = step["op"]
    if op in ("click", "select", "fill", "hover", "scroll_to", "find_text"):
        el = locate(page, step["target"])
        await el.wait_for(state="attached", timeout=30_000)
    if op == "click":
        await dom_click(el)
    elif op == "select":
        await choose_option(el, step["option"])
    elif op == "fill":
        kind = await el.evaluate("e => e.isContentEditable ? 'editable' : e.type")
        if kind == "date":
            await el.fill(step["content"])
        else:
            await el.evaluate("e => { e.focus(); if ('value' in e) e.value = ''; else e.textContent = ''; }")
            await page.keyboard.type(step["content"])
        if step.get("submit"):
            await page.keyboard.press("Enter")
    elif op == "hover":
        await el.hover()
    elif op in ("scroll_to", "find_text"):
        await el.scroll_into_view_if_needed()
    elif op == "click_many":
        for t in step["targets"]:
            await dom_click(locate(page, t))
    elif op == "wait":
        assert await until(page, step["until"]), f"wait never satisfied: {step['until']}"
    elif op == "back":
        await page.go_back(wait_until="domcontentloaded")
    elif op == "answer":
        if "value" in step:
            return str(step["value"])
        src = step["source"]
        el = locate(page, src["target"])
        await el.wait_for(state="attached", timeout=30_000)
        attr = src.get("attr", "text")
        text = (
            await el.inner_text()
            if attr == "text"
            else await el.evaluate("(e, a) => e[a] ?? e.getAttribute(a)", attr)
        )
        if src.get("regex"):
            m = re.search(src["regex"], text)
            assert m, f"{src['regex']!r} not in {text!r}"
            text = m.group(1) if m.groups() else m.group(0)
        if src.get("decode") == "pua_font":
            text = decode_pua(text, src.get("seed", seed))
        return text.strip()
    if "expect" in step:
        assert await until(page, step["expect"]), f"{op}: expectation never held: {step['expect']}"
    return None


async def run_task(page: Page, task: Task, seed: int) -> str | None:
    await page.goto(task.website)
    answer = None
    for i, step in enumerate(task.plan):
        try:
            answer = await run_step(page, step, seed)
        except Exception as e:
            raise AssertionError(
                f"{task.task_id} step {i} ({step['op']}): {str(e).splitlines()[0]}"
            ) from None
    return answer


def one_per_shape(tasks: list[Task]) -> list[Task]:
    seen: set[tuple] = set()
    out = []
    for t in tasks:
        shape = (t.site, urlparse(t.website).path, tuple(s["op"] for s in t.plan))
        if shape not in seen:
            seen.add(shape)
            out.append(t)
    return out


async def test_plans_reach_their_answers(sites: SitesHandle, session: BrowserSession) -> None:
    suite = one_per_shape(load_builtin_suite(sites))
    assert len(suite) >= 25
    sem = asyncio.Semaphore(PARALLEL)
    problems: list[str] = []
    assert session.context is not None

    async def one(task: Task) -> None:
        async with sem:
            page = await session.context.new_page()  # type: ignore[union-attr]
            try:
                got = await run_task(page, task, SEED)
                if got != task.answer:
                    problems.append(f"{task.task_id}: got {got!r}, expected {task.answer!r}")
            except AssertionError as e:
                problems.append(str(e))
            finally:
                await page.close()

    await asyncio.gather(*(one(t) for t in suite))
    assert not problems, "\n".join(problems)
