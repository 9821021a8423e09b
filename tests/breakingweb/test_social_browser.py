"""The social environment (a React app) in real Chromium, judged from the server's state: a
person's flow (search, open a post, upvote, reply to a comment) changes the backend as it
should; text typed by the harness reaches React's state (its synthetic events), a value set
by script does not; the oracle passes one task per tier; the same seed twice gives the same
hashes; a client-layer family shows only when the session registers it."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.async_api import Page

from webfovea.agent import run_task
from webfovea.browser.binding import SECRET_ENV
from webfovea.browser.session import BrowserSession
from webfovea.config import HarnessConfig
from webfovea.execution.forms import fill_at
from webfovea_breakingweb.obligations import score_state
from webfovea_breakingweb.suite import load_breakingweb_suite
from webfovea_breakingweb.tasks import stateful_tasks
from webfovea_breakingweb.tiers import TIERS
from webfovea_proving_ground.serve import SitesHandle

pytestmark = pytest.mark.asyncio(loop_scope="module")


def tier_sample(*tiers: str) -> list[str]:
    """The first social task of each tier named (seed 0). The tests run T1 (twice, for the
    hashes), T2 and T3; every template once, T4 and T5 included, is the benchmark command
    `webfovea bench breakingweb --seed 0 --only 'social-*-01'` (a T5 plan alone is 20 actions)."""
    picked: dict[str, str] = {}
    for t in stateful_tasks(0).values():
        if t.app == "social":
            picked.setdefault(t.targets["tier"], t.task_id)
    assert set(picked) == set(TIERS)
    return [picked[t] for t in tiers]


async def _open(
    page: Page, sites: SitesHandle, task_id: str, variant: str | None = None, where: str = ""
) -> str:
    with sites.control() as control:
        sid = control.create(task_id, sites.seed, variant)["session_id"]
    await page.context.add_cookies(
        [{"name": "wf_session", "value": sid, "url": sites.main_url, "httpOnly": True}]
    )
    await page.goto(sites.url("/env/social" + where))
    return sid


def _changes(sites: SitesHandle, sid: str) -> list[dict]:
    with sites.control() as control:
        return [c for c in control.diff(sid)["diff"] if c["entity"] != "_settings"]


async def test_a_person_opens_a_post_upvotes_it_and_replies_to_a_comment(
    sites: SitesHandle, session: BrowserSession
) -> None:
    task = stateful_tasks(0)["social-reply-01"]
    post, parent = task.obligations[0]["id"], task.obligations[1]["fields"]["parent"]
    title = next(p.title for p in task_state().posts if p.id == post)
    page = await session.fresh_page()
    try:
        sid = await _open(page, sites, task.task_id)
        await page.click("#search-q")
        await page.keyboard.type(title)
        await page.click("#search-go")
        await page.click(f'article.post[data-id="{post}"] a.title')
        await page.click("#post-up")
        await page.locator('#post-up[aria-pressed="true"]').wait_for()
        await page.click(f'.comment[data-id="{parent}"] > .actions .reply')
        await page.click(f"#reply-{parent}")
        await page.keyboard.type("Thanks, that helped!")
        await page.click(f'.comment[data-id="{parent}"] > .reply-form .reply-submit')
        await page.locator("#toast .ref").wait_for()
        new = (await page.text_content("#toast .ref")) or ""
        # Drawn nested under the comment it answers, after the page re-read the post.
        await page.locator(f'.comment[data-id="{parent}"] .comment[data-id="{new}"]').wait_for()
        changes = _changes(sites, sid)
        score = next(p.score for p in task_state().posts if p.id == post)
        assert {(c["id"], c["field"], c["after"]) for c in changes if c["op"] == "update"} == {
            (post, "my_vote", 1), (post, "score", score + 1)
        }  # fmt: skip
        created = [c["after"] for c in changes if c["op"] == "create"]
        assert [(k["id"], k["parent"], k["body"]) for k in created] == [(new, parent, "Thanks, that helped!")]
    finally:
        await page.context.clear_cookies()


def task_state():  # noqa: ANN201 - the seeded forum of seed 0, as the sessions start
    from webfovea_breakingweb.apps import APPS

    return APPS["social"].initial("social", 0)


async def test_harness_typing_reaches_react_state_and_a_script_value_does_not(
    sites: SitesHandle, session: BrowserSession
) -> None:
    task = stateful_tasks(0)["social-comment-01"]
    post = task.obligations[0]["fields"]["post"]
    page = await session.fresh_page()
    try:
        sid = await _open(page, sites, task.task_id, where=f"#/p/{post}")
        box, send = page.locator("#comment-body"), page.locator("#comment-submit")
        await box.wait_for()
        assert await send.is_disabled()
        # A value written by script without input events: React's state never sees it.
        await box.evaluate("el => { el.value = 'set by script'; }")
        assert await send.is_disabled() and (await page.text_content("#comment-count")) == "0 / 10000"
        r = await box.bounding_box()
        assert r
        typed = "Typed by the harness, key by key."
        done = await fill_at(page, r["x"] + 20, r["y"] + 10, typed)
        assert done.ok and done.value == typed, done
        assert (await page.text_content("#comment-count")) == f"{len(typed)} / 10000"
        assert await send.is_enabled()
        await send.click()
        await page.locator("#toast .ref").wait_for()
        created = [c["after"] for c in _changes(sites, sid) if c["op"] == "create"]
        assert [k["body"] for k in created] == [typed]
    finally:
        await page.context.clear_cookies()


async def _oracle(task_id: str, sites: SitesHandle, session: BrowserSession, out: Path) -> tuple:
    task = next(t for t in load_breakingweb_suite(sites, seed=0) if t.task_id == task_id)
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
        await _open(page, sites, "social-comment-01")
        await page.locator("#posts").wait_for()
        assert await page.locator("#iv-cookies").count() == 0
        await page.context.clear_cookies()
        sid = await _open(page, sites, "social-comment-01", "client/cookie_banner")
        await page.locator("#iv-cookies").wait_for()
        await page.click("#iv-cookies .iv-reject")
        await page.locator("#iv-cookies").wait_for(state="hidden")
        with sites.control() as control:
            events = [e.get("event") for e in control.audit(sid)["audit"]]
        assert events == ["cookies_shown", "cookies_chosen"]
    finally:
        await page.context.clear_cookies()
    # A swallowed click acts on a React button too: the first click on Comment sends nothing.
    # (A fresh page: a hash change alone would keep the page, and the plan, already loaded.)
    page = await session.fresh_page()
    try:
        post = stateful_tasks(0)["social-comment-01"].obligations[0]["fields"]["post"]
        sid = await _open(page, sites, "social-comment-01", "client/swallowed_click", where=f"#/p/{post}")
        await page.click("#comment-body")
        await page.keyboard.type("Once")
        await page.click("#comment-submit")
        await page.locator("#comment-submit").click()
        await page.locator("#toast .ref").wait_for()
        assert len([c for c in _changes(sites, sid) if c["op"] == "create"]) == 1
        with sites.control() as control:
            assert [e.get("event") for e in control.audit(sid)["audit"]] == ["click_swallowed"]
    finally:
        await page.context.clear_cookies()
