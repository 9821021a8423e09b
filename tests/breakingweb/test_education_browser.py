"""The education environment (Lectern, a React LMS) in real Chromium, judged from the server's
state: a student's flow (from a course's assignments, open one, hand in a text entry, comment on it)
changes the backend as it should; text typed by the harness reaches React's state (its
synthetic events), a value set by script does not; the oracle passes one task per tier T1-T3;
the same seed twice gives the same hashes; a client-layer family shows only when the session
registers it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.async_api import Page

from webfovea.agent import run_task
from webfovea.browser.binding import SECRET_ENV
from webfovea.browser.session import BrowserSession
from webfovea.config import HarnessConfig
from webfovea.execution.forms import fill_at
from webfovea_breakingweb.apps import APPS
from webfovea_breakingweb.obligations import score_state
from webfovea_breakingweb.suite import breakingweb_task
from webfovea_breakingweb.tasks import stateful_tasks
from webfovea_proving_ground.serve import SitesHandle

pytestmark = pytest.mark.asyncio(loop_scope="module")
SEED = 42  # the sites' seed (tests/proving_ground/conftest.py)


def tier_sample(*tiers: str) -> list[str]:
    """The first education task of each tier named. The tests run T1 (twice, for the hashes),
    T2 and T3; every template once, T4 and T5 included, is the benchmark command
    `webfovea bench breakingweb --seed 42 --only 'education-*-01'`."""
    picked: dict[str, str] = {}
    for t in APPS["education"].tasks(SEED):  # type: ignore[misc]
        picked.setdefault(t.targets["tier"], t.task_id)
    return [picked[t] for t in tiers]


def _task(task_id: str) -> Any:
    return next(t for t in APPS["education"].tasks(SEED) if t.task_id == task_id)  # type: ignore[misc]


async def _open(
    page: Page, sites: SitesHandle, task_id: str, variant: str | None = None, where: str = ""
) -> str:
    stateful_tasks(sites.seed)  # the catalogue built here, not inside the control call's timeout
    with sites.control() as control:
        sid = control.create(task_id, sites.seed, variant)["session_id"]
    await page.context.add_cookies(
        [{"name": "wf_session", "value": sid, "url": sites.main_url, "httpOnly": True}]
    )
    await page.goto(sites.url("/env/education" + where))
    return sid


def _changes(sites: SitesHandle, sid: str) -> list[dict[str, Any]]:
    with sites.control() as control:
        return [c for c in control.diff(sid)["diff"] if c["entity"] != "_settings"]


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


async def _oracle(task_id: str, sites: SitesHandle, session: BrowserSession, out: Path) -> tuple[Any, ...]:
    task = breakingweb_task(sites, SEED, task_id)
    result = await run_task(task, out, model="oracle", config=HarnessConfig(max_steps=40), session=session)
    with sites.control() as control:
        diff, audit = control.diff(result.session_id), control.audit(result.session_id)
    extra = task.model_extra or {}
    return score_state(diff["diff"], extra["obligations"], extra["noise"]), diff, audit


@pytest.mark.parametrize("task_id", tier_sample("T2", "T3"))
async def test_the_oracle_passes_one_task_per_tier(
    task_id: str, sites: SitesHandle, session: BrowserSession, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(SECRET_ENV, sites.control_secret)
    state, _, _ = await _oracle(task_id, sites, session, tmp_path)
    assert state.passed, state


async def test_same_seed_twice_same_hashes(
    sites: SitesHandle, session: BrowserSession, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(SECRET_ENV, sites.control_secret)
    seen = []
    for run in range(2):
        state, diff, audit = await _oracle(tier_sample("T1")[0], sites, session, tmp_path / str(run))
        seen.append(
            (
                state.passed,
                diff["initial_sha256"],
                diff["final_sha256"],
                diff["diff_sha256"],
                audit["audit_sha256"],
            )
        )
    assert seen[0] == seen[1] and seen[0][0] and seen[0][1] != seen[0][2]


async def test_a_client_family_shows_only_when_the_session_registers_it(
    sites: SitesHandle, session: BrowserSession
) -> None:
    page = await session.fresh_page()
    try:
        await _open(page, sites, "education-favorite-01")
        await page.locator("#courses").wait_for()
        assert await page.locator("#iv-cookies").count() == 0
        await page.context.clear_cookies()
        sid = await _open(page, sites, "education-favorite-01", "client/cookie_banner")
        await page.locator("#iv-cookies").wait_for()
        await page.click("#iv-cookies .iv-reject")
        await page.locator("#iv-cookies").wait_for(state="hidden")
        with sites.control() as control:
            events = [e.get("event") for e in control.audit(sid)["audit"]]
        assert events == ["cookies_shown", "cookies_chosen"]
    finally:
        await page.context.clear_cookies()
