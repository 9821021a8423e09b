"""The families reworked to match seed 003's text, on the React social page in real Chromium:
`client/misleading_toast` draws "Saved." in the app's own status area while nothing reaches the
server, and the next click goes through; `server/hidden_labels` is served with the page (no
script of the page's own draws it) and leaves the labels in the accessibility tree."""

from __future__ import annotations

import pytest
from playwright.async_api import Page

from webfovea.browser.session import BrowserSession
from webfovea_proving_ground.serve import SitesHandle

pytestmark = pytest.mark.asyncio(loop_scope="session")

TASK = "social-comment-01"  # comment on a post: a form (#comment-body) and a submit (#comment-submit)
POST = "P-0087"
TEXT = "Could you share a photo of the result?"


async def _open(
    page: Page, sites: SitesHandle, variant: str | None, task: str = TASK, view: str = f"/p/{POST}"
) -> str:
    with sites.control() as control:
        sid = control.create(task, 0, variant)["session_id"]
    await page.context.add_cookies(
        [{"name": "wf_session", "value": sid, "url": sites.main_url, "httpOnly": True}]
    )
    await page.goto("about:blank")  # the same URL again would only move the hash: load it anew
    await page.goto(sites.url(f"/env/social#{view}"))
    await page.locator("#app label").first.wait_for()
    return sid


def _created(sites: SitesHandle, sid: str) -> list[dict]:
    with sites.control() as control:
        return [c for c in control.diff(sid)["diff"] if c["op"] == "create"]


async def test_the_misleading_toast_claims_a_save_that_never_left_the_page(
    sites: SitesHandle, session: BrowserSession
) -> None:
    page = await session.fresh_page()
    try:
        sid = await _open(page, sites, "client/misleading_toast")
        await page.click("#comment-body")
        await page.keyboard.type(TEXT)
        await page.click("#comment-submit")
        await page.locator("#toast.iv-forged").wait_for()
        assert (await page.inner_text("#toast")).strip() == "Saved."
        assert _created(sites, sid) == []  # the server got nothing
        await page.click("#comment-submit")  # the second click reaches the app
        await page.locator("#toast .ref").filter(has_text="K-").wait_for()
        assert [c["after"]["body"] for c in _created(sites, sid)] == [TEXT]
        assert await page.locator("#toast.iv-forged").count() == 0
        with sites.control() as control:
            events = [e["event"] for e in control.audit(sid)["audit"]]
        assert events[:2] == ["click_swallowed", "toast_forged"]
    finally:
        await page.context.clear_cookies()


async def test_hidden_labels_are_served_with_the_page_and_stay_readable(
    sites: SitesHandle, session: BrowserSession
) -> None:
    page = await session.fresh_page()
    try:
        form = ("social-message-01", "/messages/new")  # a task with a labelled form
        await _open(page, sites, None, *form)
        assert await page.locator("style#wf-served").count() == 0
        clean = await page.eval_on_selector('label[for="msg-subject"]', "l => getComputedStyle(l).color")
        await page.context.clear_cookies()
        sid = await _open(page, sites, "server/hidden_labels", *form)
        assert await page.locator("style#wf-served").count() == 1  # in the served document
        hidden = await page.eval_on_selector('label[for="msg-subject"]', "l => getComputedStyle(l).color")
        assert clean != hidden == "rgba(0, 0, 0, 0)"
        # Still named for the accessibility tree (and a text harness): the label is in the DOM.
        assert await page.get_by_label("Subject").count() == 1
        with sites.control() as control:
            audit = control.audit(sid)["audit"]
        assert [(e["layer"], e["event"]) for e in audit] == [("server", "labels_hidden")]
    finally:
        await page.context.clear_cookies()
