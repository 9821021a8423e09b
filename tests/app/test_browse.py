"""The one-line agent (`webfovea.browse`, `browse_sync`) on real Chromium and loopback pages: it
answers a page's question with a typed value, a token budget ends a task `budget_exceeded` after
the step whose recorded spend reached it (in the default folder, runs/browse/<time>-<words>), and
a money budget without prices is refused before any browser."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from pydantic import BaseModel

import webfovea
from tests.support.scripted import ScriptedModel
from tests.support.servers import serve_pages
from webfovea.app.errors import AppError
from webfovea.models.base import ModelInput, ModelReply, Usage

PAGE = """<html><body><h1>Lumen</h1>
<p>Lumen is a small town on the coast. Population: <b>48210</b> (census of 2021).</p>
<p>Its harbour dates from 1820.</p></body></html>"""


class Town(BaseModel):
    population: int


class ReadingModel:
    """Answers from what it is shown: the number after "Population:" in the page's snapshot."""

    can_verify = False

    def __init__(self) -> None:
        self.seen: list[ModelInput] = []

    async def next_reply(self, inp: ModelInput) -> ModelReply:
        self.seen.append(inp)
        m = re.search(r"Population:\D*(\d+)", inp.snapshot or "")
        if m is None:
            return ModelReply("Thought: not shown yet\nAction: wait()", Usage(50, 5))
        answer = json.dumps({"population": int(m.group(1))}).replace("'", "\\'")
        return ModelReply(f"Thought: it says so\nAction: finished(content='{answer}')", Usage(50, 5))

    async def aclose(self) -> None:
        pass


async def test_the_one_line_agent_answers_the_pages_question_with_a_typed_value(tmp_path: Path) -> None:
    model = ReadingModel()
    with serve_pages({"/": PAGE}) as site:
        res = await webfovea.browse(
            "How many people live in Lumen?",
            url=site.url("/"),
            model=model,
            answer_schema=Town,
            observation="structured",  # any HarnessConfig field is a keyword
            out=tmp_path / "lumen",
        )
    assert res.ok and res.status == "finished", (res.status, res.error)
    assert res.value == Town(population=48210)  # the page's number, as the caller's type
    assert json.loads(res.answer or "") == {"population": 48210}
    assert res.folder == tmp_path / "lumen" and res.steps == 1 and res.tokens == 55
    assert res.cost is None  # no prices given
    written = json.loads((tmp_path / "lumen" / "result.json").read_text())
    assert written["answer_value"] == {"population": 48210} and written["status"] == "finished"
    assert "48210" in (model.seen[0].snapshot or "")  # the answer came from the page it was shown


def test_a_token_budget_ends_the_task_after_the_step_that_reached_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)  # the default task folder is under ./runs/browse/
    # 110 tokens a call: 220 after two steps (< 250), 330 after three: no fourth call.
    model = ScriptedModel([], then="Thought: look\nAction: find_text(text='harbour')", usage=Usage(100, 10))
    prices = {"input": 3.0, "output": 15.0}
    with serve_pages({"/": PAGE}) as site:
        res = webfovea.browse_sync(
            "Look around forever", url=site.url("/"), model=model, max_tokens=250, prices=prices
        )
    assert model.calls == 3
    assert res.status == "budget_exceeded" and res.steps == 3 and res.tokens == 330
    assert res.cost == pytest.approx((300 * 3.0 + 30 * 15.0) / 1e6)
    assert res.folder.parent == Path("runs/browse") and res.folder.name.endswith("-look-around-forever")
    written = json.loads((res.folder / "result.json").read_text())
    assert written["status"] == "budget_exceeded" and written["steps"] == 3
    assert "token budget of 250 reached: 330 tokens spent" in written["error"]
    assert written["config"]["max_tokens"] == 250 and written["config"]["prices"]["input"] == 3.0
    lines = (res.folder / "trajectory.jsonl").read_text().splitlines()
    assert len(lines) == 3


def test_a_money_budget_without_prices_is_refused_before_any_browser(tmp_path: Path) -> None:
    with pytest.raises(AppError, match="no known price"):
        webfovea.browse_sync(
            "Find it", url="http://127.0.0.1:9/", model=ScriptedModel([]), max_cost=0.5, out=tmp_path / "x"
        )
    assert not (tmp_path / "x").exists()
    with pytest.raises(AppError, match="url must be an http"):
        webfovea.browse_sync("Find it", url="file:///etc/passwd", model=ScriptedModel([]))
