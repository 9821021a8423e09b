"""The verifier (guardrails/verifier.py) and the evidence of an answer (guardrails/evidence.py),
on real Chromium and loopback pages, with scripted models that record what they were shown."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.support.scripted import ScriptedModel
from tests.support.servers import serve_pages
from webfovea.agent import run_task
from webfovea.config import make_config
from webfovea.eval.report import write_report
from webfovea.feedback.notes import VERIFIER_OPENING
from webfovea.guardrails.verifier import PURPOSE, off_for_spec
from webfovea.models.base import ModelInput, ModelReply
from webfovea.task import Task

pytestmark = pytest.mark.asyncio(loop_scope="session")

SECRET = "my private reasoning zebra-17"  # in every agent thought: the verifier must never see it
PAGE = """<h1>Consumer prices</h1>
<div id="kf">Key figures: headline CPI 9.9</div>
<table><tr><th>Country</th><th>CPI</th></tr>
<tr><td>Viet Nam</td><td>3.4</td></tr><tr><td>Peru</td><td id="v">…</td></tr></table>
<script>fetch('/api/cpi.json').then(r => r.json()).then(d => { document.getElementById('v').textContent = d.peru; });</script>"""
API = json.dumps({"peru": "2.1", "viet_nam": "3.4"}).encode()
ACCEPT = "VERDICT: accept\nREASON: the Peru row shows it.\nLOOK AT: -"
REJECT = (
    "VERDICT: reject\nREASON: 9.9 is the key-figures box, not Peru's row.\nLOOK AT: the Peru row of the table"
)


def act(action: str) -> str:
    return f"Thought: {SECRET}\nAction: {action}"


class Roles:
    """The task's model: acting replies from `agent`, verifier questions to `verifier`."""

    def __init__(self, agent: ScriptedModel, verifier: ScriptedModel) -> None:
        self.agent, self.verifier = agent, verifier

    async def next_reply(self, inp: ModelInput) -> ModelReply:
        return await (self.verifier if inp.purpose == PURPOSE else self.agent).next_reply(inp)

    async def aclose(self) -> None:
        pass


def _task(url: str) -> Task:
    return Task(task_id="t", task="What is the CPI of Peru?", website=url, answer="2.1")


async def _run(session, tmp_path: Path, agent: list[str], verdicts: list[str], **cfg):
    model = Roles(ScriptedModel(agent), ScriptedModel(verdicts))
    config = make_config(disable=cfg.pop("disable", ["ocr_check"]), **cfg)
    with serve_pages({"/": PAGE, "/api/cpi.json": API}) as srv:
        result = await run_task(
            _task(srv.url("/")), tmp_path / "t", model=model, config=config, session=session
        )
    return result, model


async def test_a_wrong_answer_is_rejected_and_the_agent_goes_on_to_the_right_one(session, tmp_path):
    result, model = await _run(
        session,
        tmp_path,
        [act("read_text(near='Peru')"), act("finished(content='9.9')"), act("finished(content='2.1')")],
        [REJECT, ACCEPT],
    )
    assert result.status == "finished" and result.answer == "2.1"
    told = model.agent.seen[2].feedback or ""
    assert told.startswith(VERIFIER_OPENING) and "Look at: the Peru row of the table" in told
    assert result.verification is not None
    assert [v["verdict"] for v in result.verification["verdicts"]] == ["reject", "accept"]
    assert result.verification["rejections"] == 1 and not result.verification["disputed"]
    # counted apart from the task model's calls
    assert result.verifier_usage is not None and result.verifier_usage.model_calls == 2
    assert result.usage.model_calls == 3
    steps = [json.loads(x) for x in (tmp_path / "t" / "trajectory.jsonl").read_text().splitlines()]
    assert steps[1]["verifier_rejected"] and steps[1]["verifier"]["verdict"]["verdict"] == "reject"
    assert steps[2]["verifier"]["verdict"]["verdict"] == "accept"


async def test_the_verifier_sees_the_evidence_and_no_thoughts(session, tmp_path):
    _, model = await _run(
        session, tmp_path, [act("read_text(near='Peru')"), act("finished(content='2.1')")], [ACCEPT]
    )
    assert model.verifier.calls == 1  # a right answer: accepted in one call
    inp = model.verifier.seen[0]
    shown = "\n".join([inp.system, inp.task, *inp.history, inp.feedback or "", inp.summary or ""])
    assert SECRET not in shown and inp.history == [] and not inp.tools
    assert "What is the CPI of Peru?" in inp.task and "\n2.1\n" in inp.task
    assert "read_text near 'Peru'" in inp.task and "2.1" in inp.task.split("Page text the agent read:")[1]
    assert "Page URL: http://127.0.0.1:" in inp.task
    assert len(inp.images) == 1 and inp.images[0].size == model.agent.seen[1].images[-1].size


async def test_the_papers_verifier_sees_only_task_final_screenshot_and_answer(session, tmp_path):
    _, model = await _run(
        session,
        tmp_path,
        [act("click(start_box='(200,200)')"), act("read_text(near='Peru')"), act("finished(content='2.1')")],
        [ACCEPT],
        verifier_evidence="paper",
    )
    inp = model.verifier.seen[0]
    assert "What is the CPI of Peru?" in inp.task and "\n2.1\n" in inp.task
    # no page text, URL or cross-check: the evidence the full verifier gets is left out
    assert "read_text" not in inp.task and "Page URL" not in inp.task and "page text" not in inp.system
    # the final screenshot as the agent was sent it, without the ring where it last acted
    sent = model.agent.seen[2].images[-1].convert("RGB")
    assert list(inp.images[0].convert("RGB").getdata()) == list(sent.getdata())


async def test_evidence_files_exist_and_the_report_shows_them(session, tmp_path):
    result, _ = await _run(
        session, tmp_path, [act("read_text(near='Peru')"), act("finished(content='2.1')")], [ACCEPT]
    )
    folder = tmp_path / "t"
    ev = json.loads((folder / "result.json").read_text())["evidence"]
    assert ev["screenshot"] == "evidence.png" and (folder / "evidence.png").stat().st_size > 1000
    assert ev["url"].endswith("/") and ev["text_read"] and "2.1" in ev["text_read"][0]
    assert ev["request"]["url"].endswith("/api/cpi.json") and ev["request"]["status"] == 200
    html = write_report(tmp_path).read_text()
    assert 'alt="evidence: evidence.png"' in html and "/api/cpi.json" in html
    assert 'data-disputed="false"' in html


async def test_the_third_finished_stands_and_is_marked_disputed(session, tmp_path):
    result, model = await _run(
        session,
        tmp_path,
        [act("finished(content='9.9')"), act("finished(content='9.9')"), act("finished(content='9.9')")],
        [REJECT, REJECT],
    )
    assert result.status == "finished" and result.answer == "9.9" and result.steps == 3
    assert model.verifier.calls == 2  # the third is not asked: it stands
    assert result.verification is not None and result.verification["disputed"] is True
    assert "your next finished stands" in (model.agent.seen[2].feedback or "")
    html = write_report(tmp_path).read_text()
    assert 'data-disputed="true"' in html


async def test_an_unreadable_verdict_counts_as_accept_with_a_note(session, tmp_path):
    result, _ = await _run(session, tmp_path, [act("finished(content='2.1')")], ["I think it is fine?"])
    assert result.status == "finished" and result.steps == 1
    assert result.verification is not None
    assert "unreadable verifier reply" in result.verification["verdicts"][0]["note"]


async def test_with_the_verifier_off_no_call_and_no_verification(session, tmp_path):
    result, model = await _run(
        session, tmp_path, [act("finished(content='9.9')")], [], disable=["verifier", "ocr_check"]
    )
    assert result.status == "finished" and model.verifier.calls == 0
    assert result.verification is None and result.verifier_usage is None
    assert result.evidence is not None  # the evidence is kept whatever the verifier


async def test_a_model_that_replays_a_script_is_not_asked_and_the_record_says_why(session, tmp_path):
    agent = ScriptedModel([act("finished(content='9.9')")])  # declares can_verify = False
    with serve_pages({"/": PAGE, "/api/cpi.json": API}) as srv:
        result = await run_task(
            _task(srv.url("/")), tmp_path / "t", model=agent, config=make_config(), session=session
        )
    assert result.status == "finished" and agent.calls == 1  # no verifier call took a reply
    assert result.verification is None and result.verifier_usage is None
    assert result.verifier_off == "verifier off: ScriptedModel replays a script; give --verifier SPEC"
    assert json.loads((tmp_path / "t" / "result.json").read_text())["verifier_off"] == result.verifier_off


def test_the_default_per_model_kind() -> None:
    on = make_config()
    assert off_for_spec(on, "replay:runs/x") == (
        "verifier off: model kind replay replays a script; give --verifier SPEC"
    )
    assert off_for_spec(on, "oracle:realistic=true") is None  # the oracle checks against the truth
    assert off_for_spec(on, "openai:gpt-4o") is None
    assert off_for_spec(make_config(verifier_model="oracle"), "replay:runs/x") is None
    assert off_for_spec(make_config(disable=["verifier"]), "replay:runs/x") is None
