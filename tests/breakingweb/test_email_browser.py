"""The email environment (a React app) in real Chromium, judged from the server's state: a
person's flow (search, open a conversation, reply, label, archive) changes the backend as it
should; text typed by the harness reaches React's state (its synthetic events), a value set by
script does not. The checks every environment
shares (the oracle per tier, the same hashes twice, a client family) are in
test_react_envs_browser.py."""

from __future__ import annotations

import pytest

from tests.breakingweb.react_env import changes as _changes
from tests.breakingweb.react_env import opener
from webfovea.browser.session import BrowserSession
from webfovea.execution.forms import fill_at
from webfovea_breakingweb.apps import APPS
from webfovea_proving_ground.serve import SitesHandle

pytestmark = pytest.mark.asyncio(loop_scope="session")
_open = opener("email")


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
