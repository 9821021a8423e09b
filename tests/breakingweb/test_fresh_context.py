"""Each run of a task bound to a server-side session starts in a browser context of its own
(seed 003 §3: fresh backend state, browser context and conversation per run): what an
earlier task on the same worker's browser left — cookies, local storage — is gone."""

from __future__ import annotations

from pathlib import Path

import pytest

from webfovea.agent import run_task
from webfovea.browser.binding import SECRET_ENV
from webfovea.browser.session import BrowserSession
from webfovea.config import HarnessConfig
from webfovea_breakingweb.suite import load_breakingweb_suite
from webfovea_proving_ground.serve import SitesHandle

pytestmark = pytest.mark.asyncio(loop_scope="module")


async def test_a_stateful_task_starts_in_a_new_context(
    sites: SitesHandle, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(SECRET_ENV, sites.control_secret)
    task = next(t for t in load_breakingweb_suite(sites) if t.task_id == "case-resolve-01")
    session = await BrowserSession.launch()
    try:
        earlier = session.context
        assert earlier is not None
        await earlier.add_cookies([{"name": "left_by_earlier_task", "value": "1", "url": sites.main_url}])
        page = await session.fresh_page()
        await page.goto(sites.url("/"))
        await page.evaluate("localStorage.setItem('earlier', '1')")
        result = await run_task(
            task, tmp_path / "t", model="oracle", config=HarnessConfig(max_steps=10), session=session
        )
        assert result.status == "finished" and result.session_id
        assert session.context is not earlier
        names = {c["name"] for c in await session.context.cookies()}
        assert "left_by_earlier_task" not in names and "wf_session" in names  # only this run's session
        page = await session.fresh_page()
        await page.goto(sites.url("/"))
        assert await page.evaluate("localStorage.getItem('earlier')") is None
    finally:
        await session.close()


async def test_a_profile_folder_keeps_its_context(tmp_path: Path) -> None:
    from webfovea.browser.session import BrowserLogin

    session = await BrowserSession.launch(login=BrowserLogin(None, str(tmp_path / "profile")))
    try:
        before = session.context
        assert await session.fresh_context() is False and session.context is before
    finally:
        await session.close()
