"""Saved logins: a task started from a Playwright storage state, or from a profile folder kept
between runs, is logged in on its first page; without them it is not. The cookie's value never
reaches the task folder."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from tests.support.scripted import ScriptedModel
from webfovea.agent import run_task
from webfovea.browser.session import BrowserLogin, BrowserSession
from webfovea.config import make_config
from webfovea.task import Task

pytestmark = pytest.mark.asyncio(loop_scope="module")

SID = "sid-7f3c2a9e41"


class _Site(BaseHTTPRequestHandler):
    def do_GET(self) -> None:  # noqa: N802 - stdlib name
        logged_in = f"sid={SID}" in (self.headers.get("Cookie") or "")
        if self.path == "/login":
            body = "<h1>Logged in</h1>"
            self.send_response(200)
            self.send_header("Set-Cookie", f"sid={SID}; Path=/; Max-Age=3600; HttpOnly")
        else:
            body = "<h1>Welcome back, Ada</h1>" if logged_in else "<h1>Please log in</h1>"
            self.send_response(200)
        data = body.encode()
        self.send_header("Content-Type", "text/html")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *args: object) -> None:
        pass


@contextmanager
def site() -> Iterator[str]:
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), _Site)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}"
    finally:
        httpd.shutdown()
        httpd.server_close()


async def _heading(login: BrowserLogin | None, url: str) -> str:
    s = await BrowserSession.launch(offline=True, login=login)
    try:
        page = await s.fresh_page()
        await page.goto(url)
        return await page.inner_text("h1")
    finally:
        await s.close()


async def test_a_storage_state_starts_the_task_logged_in(tmp_path: Path) -> None:
    with site() as base:
        s = await BrowserSession.launch(offline=True)
        page = await s.fresh_page()
        await page.goto(base + "/login")
        state = tmp_path / "state.json"
        await s.context.storage_state(path=str(state))  # type: ignore[union-attr]
        await s.close()
        assert await _heading(None, base + "/account") == "Please log in"

        model = ScriptedModel(["Thought: done\nAction: finished(content='ok')"])
        config = make_config(observation="structured", storage_state=str(state))
        task = Task(task_id="t", task="Who is logged in?", website=base + "/account")
        result = await run_task(task, tmp_path / "run", model=model, config=config, offline=True)
        assert result.status == "finished"
        assert "Welcome back, Ada" in (model.seen[0].snapshot or "")  # the first page the model saw
        for f in (tmp_path / "run").rglob("*"):  # the cookie's value is in no record
            if f.is_file():
                assert SID.encode() not in f.read_bytes(), f


async def test_a_profile_folder_keeps_the_login_between_runs(tmp_path: Path) -> None:
    profile = tmp_path / "profile"
    with site() as base:
        assert await _heading(BrowserLogin(user_data_dir=str(profile)), base + "/login") == "Logged in"
        assert (
            await _heading(BrowserLogin(user_data_dir=str(profile)), base + "/account") == "Welcome back, Ada"
        )
        assert await _heading(None, base + "/account") == "Please log in"


def test_bad_logins_are_refused_before_a_browser_starts(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="not a file"):
        BrowserLogin(storage_state=str(tmp_path / "missing.json"))
    (tmp_path / "s.json").write_text("{}")
    with pytest.raises(ValueError, match="not both"):
        BrowserLogin(storage_state=str(tmp_path / "s.json"), user_data_dir=str(tmp_path))
