"""The workflow cache replays on strong evidence only, on real Chromium and loopback pages: a
click inside an iframe replays only while the element inside the frame is the one clicked (not
when the frame now shows "Delete account" there); a cached answer replays only while the element
it was read from shows it as a whole token ("12" is not confirmed by "120"); and a run replayed
whole on an unchanged site makes no model call at all — the verifier is not asked again about an
answer the cache confirmed on the page."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.cache.test_workflow_cache import VH, VW, PageModel, Reply, say
from tests.support.servers import serve_pages
from webfovea.agent import run_task
from webfovea.browser.session import BrowserSession
from webfovea.config import make_config
from webfovea.guardrails.verifier import PURPOSE
from webfovea.models.base import ModelInput, ModelReply, Usage
from webfovea.record import read_trajectory
from webfovea.task import Task

pytestmark = pytest.mark.asyncio(loop_scope="session")

BUTTON = (140, 150)  # CSS px of the main viewport: the button inside the frame


def _frame(label: str, what: str) -> str:
    return f"""<html><body style="margin:0;font:16px sans-serif">
<button style="position:absolute;left:40px;top:60px;width:160px;height:40px"
 onclick="fetch('/clicked?what={what}')">{label}</button></body></html>"""


SETTINGS = """<html><body style="margin:0;font:16px sans-serif">
<p style="margin:0;height:40px">Account: <b>ada</b></p>
<iframe src="/frame" style="position:absolute;left:20px;top:70px;width:400px;height:200px;border:0"></iframe>
</body></html>"""


def _click_at(x: int, y: int) -> Reply:
    def reply(inp: ModelInput) -> str:
        s = inp.images[-1].width / VW
        return f"Thought: click\nAction: click(start_box='<|box_start|>({x * s:.0f},{y * s:.0f})<|box_end|>')"

    return reply


def _config(**kw: Any) -> Any:
    return make_config(viewport_width=VW, viewport_height=VH, **kw)


async def _run(url: str, out: Path, cache: Path, model: Any, session: BrowserSession, **cfg: Any) -> Any:
    task = Task(task_id="t", task="Save the settings and name the account.", website=url, answer="ada")
    return await run_task(task, out, model=model, config=_config(**cfg), session=session, cache=cache)


async def test_a_frame_whose_content_changed_is_not_clicked(tmp_path: Path, session: BrowserSession) -> None:
    pages: dict[str, str | bytes] = {
        "/": SETTINGS,
        "/frame": _frame("Save settings", "save"),
        "/clicked": "ok",
    }
    with serve_pages(pages) as srv:
        clicks = lambda: [p for p in srv.log if p.startswith("/clicked")]  # noqa: E731
        first = PageModel([_click_at(*BUTTON), say("finished(content='ada')")])
        r1 = await _run(srv.url("/"), tmp_path / "r1", tmp_path / "c", first, session)
        assert r1.status == "finished" and clicks() == ["/clicked?what=save"]
        # Unchanged: the click inside the frame and the answer replay, with no model call.
        r2 = await _run(srv.url("/"), tmp_path / "r2", tmp_path / "c", PageModel([]), session)
        assert r2.status == "finished" and r2.usage.model_calls == 0
        assert clicks() == ["/clicked?what=save"] * 2
        found = read_trajectory(tmp_path / "r2" / "trajectory.jsonl")[0].cached["found"]["start_box"]
        assert "inside the frame" in found

        # The same frame, at the same place, now holds another button where "Save settings" was.
        pages["/frame"] = _frame("Delete account", "delete")
        model = PageModel([say("finished(content='ada')")])
        r3 = await _run(srv.url("/"), tmp_path / "r3", tmp_path / "c", model, session)
        assert clicks() == ["/clicked?what=save"] * 2  # nothing was deleted
        assert r3.cache is not None and r3.cache["model_from_step"] == 0 and model.calls == 1
        assert "inside the frame" in r3.cache["why"] and "Save settings" in r3.cache["why"]


def _tickets(n: str) -> str:
    return f"<html><body style='font:20px sans-serif'><p>Open tickets: <b>{n}</b></p></body></html>"


async def test_yesterdays_12_is_not_confirmed_by_todays_120(tmp_path: Path, session: BrowserSession) -> None:
    pages: dict[str, str | bytes] = {"/": _tickets("12")}
    with serve_pages(pages) as srv:
        r1 = await _run(
            srv.url("/"), tmp_path / "r1", tmp_path / "c", PageModel([say("finished(content='12')")]), session
        )
        assert r1.status == "finished" and r1.cache is not None and r1.cache["written"]
        pages["/"] = _tickets("120")
        model = PageModel([say("finished(content='120')")])
        r2 = await _run(srv.url("/"), tmp_path / "r2", tmp_path / "c", model, session)
        assert model.calls == 1 and r2.answer == "120"
        assert r2.cache is not None and "now reads 'Open tickets: 120'" in r2.cache["why"]
        # Today's entry replays today's answer (a value split over inline pieces is read whole).
        pages["/"] = "<html><body style='font:20px sans-serif'><p>Open tickets: <b>12</b>0</p></body></html>"
        r3 = await _run(srv.url("/"), tmp_path / "r3", tmp_path / "c", PageModel([]), session)
        assert r3.answer == "120" and r3.usage.model_calls == 0


async def test_an_answer_read_inside_a_frame_is_confirmed_there(
    tmp_path: Path, session: BrowserSession
) -> None:
    viewer = "<html><body><h1>Filings</h1><iframe src='/doc' style='width:600px;height:200px'></iframe></body></html>"
    pages: dict[str, str | bytes] = {"/": viewer, "/doc": "<p>Headcount at year end: 7,672 FTE.</p>"}
    with serve_pages(pages) as srv:
        await _run(
            srv.url("/"),
            tmp_path / "r1",
            tmp_path / "c",
            PageModel([say("finished(content='7,672')")]),
            session,
        )
        r2 = await _run(srv.url("/"), tmp_path / "r2", tmp_path / "c", PageModel([]), session)
        assert r2.answer == "7,672" and r2.usage.model_calls == 0
        pages["/doc"] = "<p>Headcount at year end: 7,672.5 FTE.</p>"
        model = PageModel([say("finished(content='7,672.5')")])
        r3 = await _run(srv.url("/"), tmp_path / "r3", tmp_path / "c", model, session)
        assert model.calls == 1 and r3.answer == "7,672.5"


class Checked:
    """A model that acts from a script and checks answers (`can_verify`): every call counted."""

    can_verify = True

    def __init__(self, agent: list[Reply], verdicts: int) -> None:
        self.agent = PageModel(agent)
        self.verdicts = verdicts
        self.verify_calls = 0

    async def next_reply(self, inp: ModelInput) -> ModelReply:
        if inp.purpose != PURPOSE:
            return await self.agent.next_reply(inp)
        self.verify_calls += 1
        assert self.verify_calls <= self.verdicts, "the verifier was asked about a confirmed answer"
        return ModelReply("VERDICT: accept\nREASON: shown.\nLOOK AT: -", Usage(10, 5))

    async def aclose(self) -> None:
        pass


async def test_a_run_replayed_whole_makes_no_model_call(tmp_path: Path, session: BrowserSession) -> None:
    pages: dict[str, str | bytes] = {"/": _tickets("12")}
    with serve_pages(pages) as srv:
        first = Checked([say("finished(content='12')")], verdicts=1)
        r1 = await _run(srv.url("/"), tmp_path / "r1", tmp_path / "c", first, session)
        assert r1.status == "finished" and first.verify_calls == 1 and r1.verification is not None
        again = Checked([], verdicts=0)
        r2 = await _run(srv.url("/"), tmp_path / "r2", tmp_path / "c", again, session)
        assert r2.status == "finished" and r2.answer == "12"
        assert again.agent.calls == 0 and again.verify_calls == 0
        assert (
            r2.usage.model_calls == 0 and r2.verifier_usage is not None and r2.verifier_usage.model_calls == 0
        )
        assert r2.evidence is not None and "whole token" in r2.evidence["confirmed"]
        assert r2.verification is not None and r2.verification["verdicts"] == []
