"""Cached workflows on real Chromium: a first run fills the cache; a second run on the same
site replays it with no model call and the server receives the same form; a renamed button
makes the run replay up to it and ask the model from there (and the healed entry replays
next time); a moved layout still replays, at the elements' new places."""

from __future__ import annotations

import json
import re
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs

import pytest

from webfovea.agent import run_task
from webfovea.browser.session import BrowserSession
from webfovea.config import make_config
from webfovea.models.base import ModelInput, ModelReply, Usage
from webfovea.record import read_trajectory
from webfovea.task import Task

pytestmark = pytest.mark.asyncio(loop_scope="session")

VW, VH = 1920, 1080  # the shared session's viewport (the config's default)
NAME = "Ada Lovelace"


def _receipt(name: str) -> str:
    return f"RC-{sum(map(ord, name)) % 10000:04d}"


class _Site:
    """A form whose button label and layout a test changes between runs; it keeps every post."""

    def __init__(self) -> None:
        self.label = "Send"
        self.left, self.top = 100, 120
        self.posts: list[str] = []
        self.updated = "09:00"

    def report(self) -> str:
        return f"""<html><body style="margin:0;font:16px sans-serif">
<p id=news style="margin:0;height:1500px">Updated at {self.updated}: figures below.</p>
<p>Report total: 4242</p></body></html>"""

    def input_at(self) -> tuple[int, int]:
        return self.left + 150, self.top + 15

    def button_at(self) -> tuple[int, int]:
        return self.left + 80, self.top + 100

    def form(self) -> str:
        return f"""<html><body style="margin:0;font:16px sans-serif">
<form method=post action=/send>
<label style="position:absolute;left:{self.left - 60}px;top:{self.top + 5}px" for=name>Name</label>
<input id=name name=name autocomplete=off style="position:absolute;left:{self.left}px;top:{self.top}px;width:300px;height:30px">
<button type=submit style="position:absolute;left:{self.left}px;top:{self.top + 80}px;width:160px;height:40px">{self.label}</button>
</form></body></html>"""


@contextmanager
def serve(site: _Site) -> Iterator[str]:
    class Handler(BaseHTTPRequestHandler):
        def _send(self, body: str) -> None:
            data = body.encode()
            self.send_response(200)
            self.send_header("Content-Type", "text/html")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def do_GET(self) -> None:  # noqa: N802 - stdlib name
            self._send(site.report() if self.path.startswith("/report") else site.form())

        def do_POST(self) -> None:  # noqa: N802 - stdlib name
            n = int(self.headers.get("Content-Length") or 0)
            name = parse_qs(self.rfile.read(n).decode()).get("name", [""])[0]
            site.posts.append(name)
            self._send(f"<html><body><h1>Thanks</h1><p>Your receipt: {_receipt(name)}</p></body></html>")

        def log_message(self, *args: object) -> None:
            pass

    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}/form"
    finally:
        httpd.shutdown()
        httpd.server_close()


Reply = Callable[[ModelInput], str]


class PageModel:
    """A scripted model whose replies may name a point in CSS px (scaled to the image it is sent)."""

    can_verify = False  # a script: the verifier stays off for it (models/base.py verify_refusal)

    def __init__(self, replies: list[Reply]) -> None:
        self.replies = list(replies)
        self.calls = 0

    async def next_reply(self, inp: ModelInput) -> ModelReply:
        self.calls += 1
        if not self.replies:
            raise AssertionError(f"the model was called ({self.calls}) where the cache should have answered")
        return ModelReply(self.replies.pop(0)(inp), Usage(10, 5))

    async def aclose(self) -> None:
        pass


def click(at: Callable[[], tuple[int, int]]) -> Reply:
    def reply(inp: ModelInput) -> str:
        s = inp.images[-1].width / VW
        x, y = at()
        return f"Thought: click\nAction: click(start_box='<|box_start|>({x * s:.0f},{y * s:.0f})<|box_end|>')"

    return reply


def say(line: str) -> Reply:
    return lambda inp: f"Thought: next\nAction: {line}"


def full_run(site: _Site) -> list[Reply]:
    return [
        click(site.input_at),
        say(f"type(content='{NAME}')"),
        click(site.button_at),
        say(f"finished(content='{_receipt(NAME)}')"),
    ]


def _config() -> Any:
    return make_config(viewport_width=VW, viewport_height=VH)


async def _run(site_url: str, out: Path, cache: Path, model: PageModel, session: BrowserSession) -> Any:
    task = Task(task_id="t", task="Send the form as Ada Lovelace and report the receipt.", website=site_url)
    return await run_task(task, out, model=model, config=_config(), session=session, cache=cache)


async def test_an_unchanged_site_replays_with_no_model_call(tmp_path: Path, session: BrowserSession) -> None:
    site = _Site()
    with serve(site) as url:
        first = PageModel(full_run(site))
        r1 = await _run(url, tmp_path / "r1", tmp_path / "cache", first, session)
        assert r1.status == "finished" and r1.answer == _receipt(NAME)
        assert (
            first.calls == 4
            and r1.cache is not None
            and r1.cache["written"]
            and r1.cache["cached_steps"] == 0
        )
        [entry] = list((tmp_path / "cache").glob("*.json"))
        steps = json.loads(entry.read_text())["steps"]
        assert [s["action"] for s in steps] == ["click", "type", "click", "finished"]
        assert steps[2]["args"]["start_box"]["target"]["name"] == "Send"

        again = PageModel([])
        r2 = await _run(url, tmp_path / "r2", tmp_path / "cache", again, session)
        assert again.calls == 0 and r2.usage.model_calls == 0
        assert r2.status == "finished" and r2.answer == _receipt(NAME)
        assert site.posts == [NAME, NAME]  # the server received the same form twice
        assert r2.cache is not None and r2.cache["cached_steps"] == 4 and r2.cache["model_from_step"] is None
        recs = read_trajectory(tmp_path / "r2" / "trajectory.jsonl")
        assert all(rec.cached is not None for rec in recs)
        assert [rec.cached["entry_step"] for rec in recs if rec.cached] == [0, 1, 2, 3]


async def test_a_renamed_button_falls_back_to_the_model_from_that_step(
    tmp_path: Path, session: BrowserSession
) -> None:
    site = _Site()
    with serve(site) as url:
        await _run(url, tmp_path / "r1", tmp_path / "cache", PageModel(full_run(site)), session)
        site.label = "Submit"
        heal = PageModel([click(site.button_at), say(f"finished(content='{_receipt(NAME)}')")])
        r2 = await _run(url, tmp_path / "r2", tmp_path / "cache", heal, session)
        assert r2.status == "finished" and r2.answer == _receipt(NAME)
        assert heal.calls == 2 and r2.usage.model_calls == 2
        assert r2.cache is not None and r2.cache["cached_steps"] == 2 and r2.cache["model_from_step"] == 2
        assert "Send" in r2.cache["why"] and r2.cache["written"]
        recs = read_trajectory(tmp_path / "r2" / "trajectory.jsonl")
        assert [rec.cached is not None for rec in recs] == [True, True, False, False]
        assert site.posts == [NAME, NAME]

        # The entry was rewritten by the run that healed it: the renamed site replays now.
        r3 = await _run(url, tmp_path / "r3", tmp_path / "cache", PageModel([]), session)
        assert r3.status == "finished" and r3.usage.model_calls == 0 and site.posts == [NAME] * 3


async def test_a_moved_layout_still_replays_at_the_new_places(
    tmp_path: Path, session: BrowserSession
) -> None:
    site = _Site()
    with serve(site) as url:
        await _run(url, tmp_path / "r1", tmp_path / "cache", PageModel(full_run(site)), session)
        site.left, site.top = 600, 420  # the same form, elsewhere on the page
        r2 = await _run(url, tmp_path / "r2", tmp_path / "cache", PageModel([]), session)
        assert r2.status == "finished" and r2.usage.model_calls == 0 and site.posts == [NAME, NAME]
        recs = read_trajectory(tmp_path / "r2" / "trajectory.jsonl")
        bx, by = site.button_at()
        assert recs[2].executed_point is not None
        assert abs(recs[2].executed_point[0] - bx) < 3 and abs(recs[2].executed_point[1] - by) < 3
        assert recs[2].cached is not None and "moved" in recs[2].cached["found"]["start_box"]


async def test_an_answer_no_longer_on_the_page_is_asked_of_the_model(
    tmp_path: Path, session: BrowserSession
) -> None:
    site = _Site()
    with serve(site) as url:
        # The recorded answer is not what the page shows now: the model reads the page instead.
        stale = [*full_run(site)[:3], say("finished(content='RC-0000')")]
        await _run(url, tmp_path / "r1", tmp_path / "cache", PageModel(stale), session)
        answer = PageModel([say(f"finished(content='{_receipt(NAME)}')")])
        r2 = await _run(url, tmp_path / "r2", tmp_path / "cache", answer, session)
        assert answer.calls == 1 and r2.answer == _receipt(NAME)
        assert r2.cache is not None and r2.cache["cached_steps"] == 3 and "answer" in r2.cache["why"]


def _ref(inp: ModelInput, role: str, name: str) -> str:
    m = re.search(rf'- {role} "{re.escape(name)}"[^\n]*\[ref=(e\d+)\]', inp.snapshot or "")
    assert m is not None, inp.snapshot
    return m.group(1)


async def test_structured_mode_replays_by_the_refs_path(tmp_path: Path, session: BrowserSession) -> None:
    site = _Site()
    cfg = make_config(viewport_width=VW, viewport_height=VH, observation="structured")
    task = Task(task_id="t", task="Send the form (structured).", website="")
    with serve(site) as url:
        task = task.model_copy(update={"website": url})
        model = PageModel(
            [
                lambda inp: f"Thought: x\nAction: click(ref='{_ref(inp, 'textbox', 'Name')}')",
                say(f"type(content='{NAME}')"),
                lambda inp: f"Thought: x\nAction: click(ref='{_ref(inp, 'button', 'Send')}')",
                say(f"finished(content='{_receipt(NAME)}')"),
            ]
        )
        r1 = await run_task(
            task, tmp_path / "r1", model=model, config=cfg, session=session, cache=tmp_path / "c"
        )
        assert r1.status == "finished" and model.calls == 4
        r2 = await run_task(
            task, tmp_path / "r2", model=PageModel([]), config=cfg, session=session, cache=tmp_path / "c"
        )
        assert r2.status == "finished" and r2.usage.model_calls == 0 and site.posts == [NAME, NAME]


async def test_a_scroll_replays_though_the_text_under_its_point_changed(
    tmp_path: Path, session: BrowserSession
) -> None:
    site = _Site()
    with serve(site) as url:
        url = url.replace("/form", "/report")
        scroll = [
            lambda inp: (
                "Thought: down\nAction: scroll(start_box='<|box_start|>"
                f"({inp.images[-1].width // 2},{inp.images[-1].height // 3})<|box_end|>', direction='down')"
            ),
            say("finished(content='4242')"),
        ]
        r1 = await _run(url, tmp_path / "r1", tmp_path / "cache", PageModel(scroll), session)
        assert r1.status == "finished" and r1.cache is not None and r1.cache["written"]
        site.updated = "10:00"  # today's page: the paragraph under the wheel reads otherwise
        r2 = await _run(url, tmp_path / "r2", tmp_path / "cache", PageModel([]), session)
        assert r2.status == "finished" and r2.answer == "4242" and r2.usage.model_calls == 0
        first = read_trajectory(tmp_path / "r2" / "trajectory.jsonl")[0]
        assert first.cached is not None and "recorded point" in first.cached["found"]["start_box"]
