"""The email environment (a React app) in real Chromium, judged from the server's state: a
person's flow (search, open a conversation, reply, label, archive) changes the backend as it
should; text typed by the harness reaches React's state (its synthetic events), a value set by
script does not; the oracle passes one task per tier T1-T3; the same seed twice gives the same
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
from webfovea_breakingweb.apps import APPS
from webfovea_breakingweb.obligations import score_state
from webfovea_breakingweb.suite import load_breakingweb_suite
from webfovea_breakingweb.tasks import stateful_tasks
from webfovea_breakingweb.tiers import TIERS
from webfovea_proving_ground.serve import SitesHandle

pytestmark = pytest.mark.asyncio(loop_scope="module")


def tier_sample(*tiers: str) -> list[str]:
    """The first email task of each tier named (seed 0). Every template once, T4 and T5
    included, is the benchmark command `webfovea bench breakingweb --only 'email-*-01'`."""
    picked: dict[str, str] = {}
    for t in stateful_tasks(0).values():
        if t.app == "email":
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
    await page.goto(sites.url("/env/email" + where))
    return sid


def _changes(sites: SitesHandle, sid: str) -> list[dict]:
    with sites.control() as control:
        return [c for c in control.diff(sid)["diff"] if c["entity"] != "_settings"]


async def test_a_person_searches_replies_labels_and_archives(
    sites: SitesHandle, session: BrowserSession
) -> None:
    box = APPS["email"].initial("email", sites.seed)
    t = next(x for x in box.threads if x.inbox and not x.trashed and not x.read and "Work" not in x.labels)  # type: ignore[attr-defined]
    page = await session.fresh_page()
    try:
        sid = await _open(page, sites, "email-reply-01")
        await page.click("#search-q")
        await page.keyboard.type(t.subject)
        await page.click("#search-go")
        await page.click(f'tr.thread[data-id="{t.id}"] a.subject')
        await page.locator(f'#thread.read[data-id="{t.id}"]').wait_for()  # opening marks it read
        await page.click("#reply")
        await page.click("#reply-body")
        await page.keyboard.type("On it, thanks.")
        await page.click("#reply-send")
        new = (await page.locator("#toast .ref").text_content()) or ""
        await page.locator(f'article.message[data-id="{new}"]').wait_for()  # drawn after the re-read
        await page.select_option("#t-label", "Work")
        await page.click("#t-label-apply")
        await page.locator('#t-labels .chip[data-label="Work"]').wait_for()
        await page.click("#t-archive")
        await page.locator("#t-inbox").wait_for()  # drawn from the re-read: archived on the server
        await page.click("#nav-inbox")
        await page.locator("#threads").wait_for()
        assert await page.locator(f'tr.thread[data-id="{t.id}"]').count() == 0
        changes = _changes(sites, sid)
        updates = {
            (c["field"], str(c["after"])) for c in changes if c["op"] == "update" and c["field"] != "last"
        }
        assert updates == {("read", "True"), ("labels", str([*t.labels, "Work"])), ("inbox", "False")}
        created = [c["after"] for c in changes if c["op"] == "create"]
        assert [(m["id"], m["thread"], m["body"]) for m in created] == [(new, t.id, "On it, thanks.")]
    finally:
        await page.context.clear_cookies()


async def test_harness_typing_reaches_react_state_and_a_script_value_does_not(
    sites: SitesHandle, session: BrowserSession
) -> None:
    page = await session.fresh_page()
    try:
        sid = await _open(page, sites, "email-compose-01", where="#/compose")
        to, send = page.locator("#c-to"), page.locator("#c-send")
        await to.wait_for()
        assert await send.is_disabled()
        # A value written by script without input events: React's state never sees it.
        await to.evaluate("el => { el.value = 'script@x.example'; }")
        assert await send.is_disabled()
        r = await to.bounding_box()
        assert r
        typed = "ada.berg@northwind.example"
        done = await fill_at(page, r["x"] + 20, r["y"] + 10, typed)
        assert done.ok and done.value == typed, done
        assert await send.is_enabled()
        await page.click("#c-subject")
        await page.keyboard.type("Typed")
        await send.click()
        await page.locator("#toast .ref").wait_for()
        created = [
            c["after"] for c in _changes(sites, sid) if c["op"] == "create" and c["entity"] == "messages"
        ]
        assert [(m["to"], m["subject"]) for m in created] == [(typed, "Typed")]
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
    """The T1 sample, twice: it passes both times with the same hashes."""
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
        await _open(page, sites, "email-compose-01")
        await page.locator("#threads").wait_for()
        assert await page.locator("#iv-cookies").count() == 0
        await page.context.clear_cookies()
        sid = await _open(page, sites, "email-compose-01", "client/cookie_banner")
        await page.locator("#iv-cookies").wait_for()
        await page.click("#iv-cookies .iv-reject")
        await page.locator("#iv-cookies").wait_for(state="hidden")
        with sites.control() as control:
            assert [e.get("event") for e in control.audit(sid)["audit"]] == [
                "cookies_shown",
                "cookies_chosen",
            ]
    finally:
        await page.context.clear_cookies()
