"""The education environment (Lectern, a React LMS) in real Chromium, judged from the server's
state: a student's flow (from a course's assignments, open one, hand in a text entry, comment on it)
changes the backend as it should; text typed by the harness reaches React's state (its
synthetic events), a value set by script does not. The checks every environment
shares (the oracle per tier, the same hashes twice, a client family) are in
test_react_envs_browser.py."""

from __future__ import annotations

from typing import Any

import pytest

from tests.breakingweb.react_env import changes as _changes
from tests.breakingweb.react_env import opener
from webfovea.browser.session import BrowserSession
from webfovea.execution.forms import fill_at
from webfovea_breakingweb.apps import APPS
from webfovea_proving_ground.serve import SitesHandle

pytestmark = pytest.mark.asyncio(loop_scope="session")
_open = opener("education")
SEED = 42  # the sites' seed (tests/proving_ground/conftest.py)


def _task(task_id: str) -> Any:
    return next(t for t in APPS["education"].tasks(SEED) if t.task_id == task_id)  # type: ignore[misc]


async def test_a_student_hands_in_a_text_entry_and_comments_on_it(
    sites: SitesHandle, session: BrowserSession
) -> None:
    task = _task("education-submit-text-01")
    aid = task.obligations[0]["fields"]["assignment"]
    cid = next(a.course for a in APPS["education"].initial("x", SEED).assignments if a.id == aid)  # type: ignore[attr-defined]
    page = await session.fresh_page()
    try:
        sid = await _open(page, sites, task.task_id, where=f"#/courses/{cid}/assignments")
        await page.click(f'#assignments tr[data-id="{aid}"] a.title')
        await page.click("#start")
        await page.click("#text-body")
        await page.keyboard.type("My answer, typed key by key.")
        await page.click("#submit-go")
        new = page.locator("#toast .ref")
        await new.wait_for()
        sub = (await new.text_content()) or ""
        # The page re-read the assignment: the attempt is in its history, the comment box below.
        await page.locator(f'#attempts li[data-id="{sub}"]').wait_for()
        await page.click("#comment-body")
        await page.keyboard.type("Submitted early this week.")
        await page.click("#comment-send")
        await page.locator('#comments li[data-id^="SC-"]').wait_for()
        created = {c["entity"]: c["after"] for c in _changes(sites, sid) if c["op"] == "create"}
        assert (created["submissions"]["id"], created["submissions"]["attempt"], created["submissions"]["body"]) == (
            sub, 1, "My answer, typed key by key."
        )  # fmt: skip
        assert (created["comments"]["submission"], created["comments"]["body"]) == (
            sub,
            "Submitted early this week.",
        )
        assert {c["op"] for c in _changes(sites, sid)} == {"create"}
    finally:
        await page.context.clear_cookies()


async def test_harness_typing_reaches_react_state_and_a_script_value_does_not(
    sites: SitesHandle, session: BrowserSession
) -> None:
    task = _task("education-reply-topic-01")
    did = task.obligations[0]["fields"]["topic"]
    page = await session.fresh_page()
    try:
        sid = await _open(page, sites, task.task_id, where=f"#/discussions/{did}")
        box, send = page.locator("#reply-body"), page.locator("#reply-send")
        await box.wait_for()
        assert await send.is_disabled()
        # A value written by script without input events: React's state never sees it.
        await box.evaluate("el => { el.value = 'set by script'; }")
        assert await send.is_disabled()
        r = await box.bounding_box()
        assert r
        typed = "Typed by the harness, key by key."
        done = await fill_at(page, r["x"] + 20, r["y"] + 10, typed)
        assert done.ok and done.value == typed, done
        assert await send.is_enabled()
        await send.click()
        await page.locator("#toast .ref").wait_for()
        created = [c["after"] for c in _changes(sites, sid) if c["op"] == "create"]
        assert [(e["topic"], e["body"], e["author"]) for e in created] == [(did, typed, "Jordan Reyes")]
    finally:
        await page.context.clear_cookies()
