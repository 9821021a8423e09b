"""The `winner` profile (seed 002's choices, outside the challenge's rules) on real Chromium:
evaluate(script) in the main frame with its output compressed to 24,000 bytes, goto(url) only to
URLs seen on the page, the labels in the records and the report; the default profiles still
refuse both."""

from __future__ import annotations

import json
import time

import pytest

from tests.support.scripted import ScriptedModel
from tests.support.servers import serve_pages
from webfovea.actions.catalog import offered
from webfovea.agent import run_task
from webfovea.config import make_config
from webfovea.eval.report import write_report
from webfovea.execution import script as script_mod
from webfovea.execution.script import compress_output
from webfovea.harness import Harness
from webfovea.models.base import Usage
from webfovea.observation.prompt import system_prompt
from webfovea.task import Task

pytestmark = pytest.mark.asyncio(loop_scope="session")

HOME = """<html><head><title>Home page</title></head><body>
<ul><li>one</li><li>two</li><li>three</li></ul><p id=x>original</p>
<a href="/b">Next page</a><p>Archive: PAGE_C</p></body></html>"""
B = "<html><head><title>Page B</title></head><body><p>This is B.</p></body></html>"
C = "<html><head><title>Page C</title></head><body><p>This is C.</p></body></html>"


def pages() -> dict[str, str]:
    return {"/": HOME, "/b": B, "/c": C, "/secret": "<p>secret</p>"}


async def harness(session, url, profile):
    page = await session.fresh_page()
    h = await Harness.on_page(page, make_config(profile))
    await h.goto(url)
    return h


def act(call: str) -> str:
    return f"Thought: next.\nAction: {call}"


async def serve_home():
    """The home page names page C's absolute URL in its text (so the URL is 'seen', not linked)."""
    served = pages()
    srv = serve_pages(served)
    site = srv.__enter__()
    served["/"] = HOME.replace("PAGE_C", site.url("/c"))  # the server reads this dict per request
    return srv, site


async def test_evaluate_reads_and_operates_the_page_in_the_main_frame(session):
    srv, site = await serve_home()
    try:
        h = await harness(session, site.url("/"), "winner")
        res = await h.step(act("evaluate(script='document.title')"))
        assert res.outcome == "executed" and "Home page" in res.feedback
        # A statement list with `return` runs as a function body.
        res = await h.step(
            act("evaluate(script='const n = document.querySelectorAll(\"li\").length; return n * 10')")
        )
        assert "30" in res.feedback
        res = await h.step(act('evaluate(script=\'document.getElementById("x").textContent = "changed"\')'))
        assert await h.page.inner_text("#x") == "changed"  # the effect is on the page
        res = await h.step(act("evaluate(script='throw new Error(\"boom\")')"))
        assert res.outcome == "failed" and "boom" in res.feedback
        # Sixty copies of one long text: the first stays, the rest become markers; it fits 24,000 bytes.
        res = await h.step(
            act("evaluate(script='Array.from({length: 60}, (_, i) => ({i, text: \"y\".repeat(1000)}))')")
        )
        assert (
            "repeated long text" in res.feedback
            and "[omitted: the same 1000-byte text as $[0].text]" in res.feedback
        )
        assert len(res.feedback.encode()) < 24_000 + 500
    finally:
        srv.__exit__(None, None, None)


async def test_a_script_that_never_returns_is_cut_at_the_timeout(session, monkeypatch):
    monkeypatch.setattr(script_mod, "SCRIPT_TIMEOUT_S", 1.0)  # the real 10 s, shortened for the test
    srv, site = await serve_home()
    try:
        h = await harness(session, site.url("/"), "winner")
        t0 = time.monotonic()
        res = await h.step(act("evaluate(script='new Promise(() => {})')"))
        assert time.monotonic() - t0 < 8  # not the 180 s tool timeout
        assert res.outcome == "failed" and "did not return within 1 s and was stopped" in res.feedback
        res = await h.step(act("evaluate(script='document.title')"))  # the page still answers
        assert res.outcome == "executed" and "Home page" in res.feedback
    finally:
        srv.__exit__(None, None, None)


async def test_script_output_is_compressed_to_the_budget():
    text, done = compress_output({"rows": [{"t": f"{i}" + "z" * 5000} for i in range(40)]})
    assert len(text.encode()) <= 24_000 and "long fields shortened" in done
    assert json.loads(text)["rows"][39]["t"].startswith("39")  # structure kept, every entry still there
    text, done = compress_output("q" * 100_000)
    assert len(text.encode()) <= 24_000 and "cut" in text and done == ["cut to 24,000 bytes"]
    assert compress_output({"a": 1}) == ('{"a": 1}', [])


async def test_goto_opens_only_urls_seen_on_the_page(session):
    srv, site = await serve_home()
    try:
        h = await harness(session, site.url("/"), "winner")
        res = await h.step(act("goto(url='/secret')"))
        assert res.outcome == "rejected" and "does not appear on this page" in res.feedback
        assert h.page.url == site.url("/") and "/secret" not in site.log  # nothing was opened
        res = await h.step(act("goto(url='/b')"))  # a link on the page
        assert res.outcome == "executed" and h.page.url == site.url("/b")
        res = await h.step(
            act(f"goto(url='{site.url('/c')}')")
        )  # written in the first page's text, seen before
        assert res.outcome == "executed" and h.page.url == site.url("/c")
        res = await h.step(act("goto(url='javascript:alert(1)')"))
        assert res.outcome == "rejected" and "not an http(s) address" in res.feedback
    finally:
        srv.__exit__(None, None, None)


@pytest.mark.parametrize("profile", ["webfovea", "reference"])
async def test_default_profiles_keep_the_closed_action_set(session, profile):
    srv, site = await serve_home()
    try:
        h = await harness(session, site.url("/"), profile)
        res = await h.step(act("goto(url='/b')"))  # the reason is recorded even when notes are off
        assert res.outcome == "rejected" and "URL navigation is not available" in (res.error or "")
        res = await h.step(act('evaluate(script=\'document.getElementById("x").textContent = "changed"\')'))
        assert res.outcome == "rejected" and "JavaScript is not available" in (res.error or "")
        assert h.page.url == site.url("/") and await h.page.inner_text("#x") == "original"
        assert "/b" not in site.log
    finally:
        srv.__exit__(None, None, None)


async def test_winner_prompt_offers_the_tools_and_relaxes_only_the_url_rule():
    winner, ours = make_config("winner"), make_config("webfovea")
    wp, op = system_prompt(offered(winner), winner), system_prompt(offered(ours), ours)
    assert "- evaluate(script=" in wp and "- goto(url=" in wp and "goto) only addresses you have seen" in wp
    assert "- evaluate(" not in op and "- goto(" not in op and "Do not type, guess or construct URLs" in op
    assert winner.outside_rules() == ["evaluate", "goto_seen_url"] and ours.outside_rules() == []
    # The extra tools are not counted as components of ours (which of ours the winner leaves off:
    # tests/package/test_profiles.py).
    assert not {"evaluate", "goto_seen_url"} & set(winner.disabled())


async def test_records_and_report_label_a_winner_run_outside_the_rules(session, tmp_path):
    srv, site = await serve_home()
    try:
        task = Task(task_id="w1", task="What is the title?", website=site.url("/"))
        model = ScriptedModel(
            usage=Usage(5, 1),
            replies=[act("evaluate(script='document.title')"), act("finished(content='Home page')")],
        )
        res = await run_task(
            task, tmp_path / "w1", model=model, config=make_config("winner"), session=session, capture=False
        )
    finally:
        srv.__exit__(None, None, None)
    assert res.status == "finished" and res.answer == "Home page"
    result = json.loads((tmp_path / "w1" / "result.json").read_text())
    assert result["outside_rules"] == ["evaluate", "goto_seen_url"] and result["profile"] == "winner"
    steps = [json.loads(line) for line in (tmp_path / "w1" / "trajectory.jsonl").read_text().splitlines()]
    assert "Home page" in steps[0]["feedback"]
    html = write_report(tmp_path).read_text()
    assert 'id="outside-rules"' in html and "evaluate, goto_seen_url" in html
