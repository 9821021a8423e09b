"""Server-side sessions: the runner binds a browser to one, the sites log what they answered.

Judged from the server's own log (the control plane), never from the harness's capture.
"""

from __future__ import annotations

import json
from pathlib import Path

import httpx
import pytest

from webfovea.agent import run_task
from webfovea.browser.binding import SECRET_ENV, SessionBindError, bind_session
from webfovea.browser.session import BrowserSession
from webfovea.config import HarnessConfig
from webfovea.task import SessionSpec, Task
from webfovea_proving_ground.serve import SitesHandle
from webfovea_proving_ground.sessions import CONTROL_HEADER, SESSION_COOKIE
from webfovea_proving_ground.suites.builtin import load_builtin_suite

pytestmark = pytest.mark.asyncio(loop_scope="session")


@pytest.fixture
def secret(sites: SitesHandle, monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.setenv(SECRET_ENV, sites.control_secret)
    return sites.control_secret


async def test_control_plane_refuses_without_the_secret(sites: SitesHandle) -> None:
    r = httpx.post(sites.control_url, json={"task_id": "t", "seed": 0}, trust_env=False)
    assert r.status_code == 403
    r = httpx.post(
        sites.control_url, json={"task_id": "t"}, headers={CONTROL_HEADER: "guess"}, trust_env=False
    )
    assert r.status_code == 403
    r = httpx.post(
        sites.control_url, json={"seed": 0}, headers={CONTROL_HEADER: sites.control_secret}, trust_env=False
    )
    assert r.status_code == 422 and "task_id" in r.text


async def test_bound_browser_is_logged_by_the_server(
    sites: SitesHandle, session: BrowserSession, secret: str
) -> None:
    page = await session.fresh_page()
    task = Task(
        task_id="log-1",
        task="t",
        website=sites.url("/stats"),
        session=SessionSpec(control_url=sites.control_url, seed=sites.seed),
    )
    sid = await bind_session(page, task)
    assert sid and sid.startswith("ws-")
    await page.goto(task.website)
    await page.wait_for_load_state("networkidle")
    # The page's scripts cannot read the cookie: it binds the browser, it is not data for the page.
    assert SESSION_COOKIE not in await page.evaluate("document.cookie")
    with sites.control() as control:
        log = control.requests(sid)
    paths = [(e["method"], e["path"], e["fetch"]) for e in log]
    assert ("GET", "/stats", False) in paths
    assert all(e["status"] == 200 for e in log if e["path"] == "/stats")
    assert [e["ordinal"] for e in log] == list(range(len(log)))
    # Another session (another task) sees none of this browser's requests.
    with sites.control() as control:
        other = control.create("other", 0)
        assert control.requests(other["session_id"]) == []


async def test_missing_secret_is_a_clear_error(
    sites: SitesHandle, session: BrowserSession, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv(SECRET_ENV, raising=False)
    page = await session.fresh_page()
    task = Task(
        task_id="log-2",
        task="t",
        website=sites.url("/stats"),
        session=SessionSpec(control_url=sites.control_url),
    )
    with pytest.raises(SessionBindError, match=SECRET_ENV):
        await bind_session(page, task)


async def test_run_task_records_the_session(
    sites: SitesHandle, session: BrowserSession, secret: str, tmp_path: Path
) -> None:
    task = next(t for t in load_builtin_suite(sites) if t.site == "stats")
    assert task.session is not None and task.session.control_url == sites.control_url
    result = await run_task(
        task, tmp_path / task.task_id, model="oracle", config=HarnessConfig(max_steps=3), session=session
    )
    saved = json.loads((tmp_path / task.task_id / "result.json").read_text())
    assert saved["session_id"] == result.session_id and result.session_id
    with sites.control() as control:
        log = control.requests(result.session_id)
    assert any(
        e["method"] == "GET" and e["path"] == task.website.split(sites.main_url, 1)[1].split("?")[0]
        for e in log
    )
