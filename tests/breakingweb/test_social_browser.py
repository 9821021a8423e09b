"""The social environment (a React app) in real Chromium, judged from the server's state: a
person's flow (search, open a post, upvote, reply to a comment) changes the backend as it
should; text typed by the harness reaches React's state (its synthetic events), a value set
by script does not. The checks every environment
shares (the oracle per tier, the same hashes twice, a client family) are in
test_react_envs_browser.py."""

from __future__ import annotations

import pytest

from tests.breakingweb.react_env import changes as _changes
from tests.breakingweb.react_env import opener
from webfovea.browser.session import BrowserSession
from webfovea.execution.forms import fill_at
from webfovea_breakingweb.tasks import stateful_tasks
from webfovea_proving_ground.serve import SitesHandle

pytestmark = pytest.mark.asyncio(loop_scope="session")
_open = opener("social")


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
