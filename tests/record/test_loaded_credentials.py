"""Every credential the harness loads is scrubbed from every file it writes: a `--storage-state`
cookie and local-storage value the page echoes (in a request it sends, in the answer), a
provider-shaped key glued into a URL's query string; and the workflow cache stays readable
with a secret that reads like a number."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.support.scripted import PointingModel
from tests.support.servers import serve_pages
from webfovea.agent import run_task
from webfovea.cache.store import CachedStep, Entry, load, save
from webfovea.config import make_config
from webfovea.record.redact import redact_url
from webfovea.secrets import Secret, remember
from webfovea.task import Task

COOKIE = "SESS-9f8e7d6c5b4a3210"
STORED = "LS-token-7c6b5a49382716"
GOOGLE = "AIzaSyD-" + "k3Jm9PqR2sT5vW8xY1zA4bC6dE7fG0h"  # AIza + 35 characters
PAGE = f"""<!doctype html><body><h1 id=who></h1><script>
const sid = document.cookie.split('; ').find((c) => c.startsWith('sid=')).slice(4);
const tok = localStorage.getItem('tok');
document.getElementById('who').textContent = 'Signed in: ' + sid + ' / ' + tok;
fetch('/api?x=' + encodeURIComponent(sid) + '&y=' + tok + '&q=center' + '{GOOGLE}');
</script></body>"""


@pytest.mark.asyncio(loop_scope="module")
async def test_a_storage_states_cookie_and_local_storage_leave_no_file(tmp_path: Path) -> None:
    with serve_pages({"/": PAGE, "/api": "{}"}) as srv:
        state = tmp_path / "state.json"
        state.write_text(
            json.dumps(
                {
                    "cookies": [
                        {
                            "name": "sid",
                            "value": COOKIE,
                            "domain": "127.0.0.1",
                            "path": "/",
                            "expires": -1,
                            "httpOnly": False,
                            "secure": False,
                            "sameSite": "Lax",
                        }
                    ],
                    "origins": [{"origin": srv.url(""), "localStorage": [{"name": "tok", "value": STORED}]}],
                }
            )
        )
        model = PointingModel([("wait", None, ""), ("finished", None, f"content='{COOKIE} {STORED}'")])
        task = Task(task_id="t", task="Who is signed in?", website=srv.url("/"))
        config = make_config(storage_state=str(state))
        result = await run_task(task, tmp_path / "t", model=model, config=config)
    assert result.status == "finished", result.error
    assert any(p.startswith("/api?x=" + COOKIE) for p in srv.log), srv.log  # the browser had them
    files = [p for p in (tmp_path / "t").rglob("*") if p.is_file()]
    assert {"capture.json", "result.json"} <= {p.name for p in files}
    for p in files:
        data = p.read_bytes()
        for value in (COOKIE, STORED, GOOGLE):
            assert value.encode() not in data, (p.name, value)
    assert "<secret>storage.sid</secret>" in (tmp_path / "t" / "result.json").read_text()


def test_a_provider_key_glued_into_a_query_value_is_redacted() -> None:
    for url in (f"https://maps.example/?q=center{GOOGLE}", f"https://x.example/p/{GOOGLE}/tile"):
        assert GOOGLE not in redact_url(url), url


def test_the_cache_stays_readable_with_a_secret_that_reads_like_a_number(tmp_path: Path) -> None:
    # A value unlikely elsewhere: the scrub is process-wide, and other tests write records too.
    remember({"pin": Secret(value="90817", origins=["https://example.org"])})
    step = CachedStep(
        "click", {"start_box": {"point": [90817.0, 20.0], "target": None}}, "http://x/", None, [90817.0, 20.0]
    )
    typed = CachedStep("fill", {"content": "<secret>pin</secret>", "year": "90817"}, "http://x/?y=90817")
    save(tmp_path, Entry("k", "Book it", "http://x/", "vision", [step, typed]))
    got = load(tmp_path, "k")
    assert got is not None and got.steps[0] == step
    assert got.steps[1].args["year"] == "<secret>pin</secret>"  # the value itself is not kept


def test_the_runners_log_lines_go_through_the_same_scrub(tmp_path: Path) -> None:
    from webfovea.runner.supervisor import Events

    remember({"log_pw": Secret(value="Hq2-runner-log-osprey", origins=["https://example.org"])})
    Events(tmp_path).write("task_failed", error=f"fill failed near 'Hq2-runner-log-osprey' ({GOOGLE})")
    line = json.loads((tmp_path / "runner.log.jsonl").read_text())
    assert line["error"] == "fill failed near '<secret>log_pw</secret>' ([redacted])", line


@pytest.mark.asyncio(loop_scope="module")
async def test_a_kept_profiles_saved_login_leaves_no_file(tmp_path: Path) -> None:
    from webfovea.browser.session import BrowserLogin, BrowserSession

    profile = str(tmp_path / "profile")
    with serve_pages({"/": PAGE, "/api": "{}"}) as srv:
        # Log in once, as a user does by hand before handing the profile to webfovea.
        first = await BrowserSession.launch(login=BrowserLogin(user_data_dir=profile))
        try:
            assert first.context is not None
            await first.context.add_cookies(
                [{"name": "sid", "value": COOKIE, "url": srv.url("/"), "expires": 4102444800}]
            )
        finally:
            await first.close()
        model = PointingModel([("wait", None, ""), ("finished", None, f"content='{COOKIE}'")])
        task = Task(task_id="t", task="Who is signed in?", website=srv.url("/"))
        result = await run_task(task, tmp_path / "t", model=model, config=make_config(user_data_dir=profile))
    assert result.status == "finished", result.error
    assert any(p.startswith("/api?x=" + COOKIE) for p in srv.log), srv.log  # the profile was logged in
    for p in (p for p in (tmp_path / "t").rglob("*") if p.is_file()):
        assert COOKIE.encode() not in p.read_bytes(), p.name
