"""The model judges end to end against fake OpenAI-compatible and Anthropic servers on loopback:
the prompt carries the four channels and the image, retries, the unparsable-verdict path, the
cache, and a replayed judge that reproduces the recorded verdicts."""

from __future__ import annotations

import json
import shutil

from tests.judge import folders
from tests.models.fake_llm import anthropic_ok, error, fake_llm, openai_ok
from webfovea.judge.records import read_judge_records
from webfovea.judge.run import JudgeOptions, judge_run

FAST = {"base_delay_s": 0.05, "max_delay_s": 0.1, "timeout_s": 5.0}
YES = '```json\n{"all_passed": True, "score": 0.9, "reasoning": "filters sent", "details": [{"action": "country", "passed": True, "reason": "request"}]}\n```'
NO = '{"all_passed": false, "score": 0.2, "reasoning": "no filter", "details": []}'


def _run(tmp_path):
    run = tmp_path / "run"
    folders.ours(run / "t-ours")
    folders.webretriever(run / "t-wr")
    return run


def _user_text(body: dict) -> str:
    msgs = body["messages"]
    content = msgs[-1]["content"]
    return "\n".join(p.get("text", "") for p in content if p.get("type") == "text")


def test_openai_judge_retries_reads_python_literals_and_caches(tmp_path) -> None:
    run = _run(tmp_path)
    with fake_llm([error(503, "busy"), openai_ok(YES), openai_ok(NO)]) as srv:
        opts = JudgeOptions(
            method="naveval-webfovea",
            judge="openai:judge-model",
            base_url=srv.base_url,
            workers=1,
            model_options=FAST,
        )
        summary = judge_run(run, opts)
        bodies = [r.body for r in srv.received]
    assert summary.n == 2 and summary.judged == 2 and summary.passed == 1 and summary.usage["calls"] == 2
    first = bodies[1]
    assert (
        first["messages"][0]["role"] == "system" and "benchmark validator" in first["messages"][0]["content"]
    )
    text = _user_text(first)
    for channel in ("- task:", "- url trajectory:", "- network requests:", "- last screenshot:"):
        assert channel in text
    assert any(
        p.get("type") == "image_url" and p["image_url"]["url"].startswith("data:image/png;base64,")
        for p in first["messages"][-1]["content"]
    )
    records = read_judge_records(run / "judge")
    verdicts = sorted(r.verdict for r in records.values())
    assert verdicts == [False, True]
    rec = next(r for r in records.values() if r.verdict)
    assert rec.details[0]["action"] == "country" and rec.evidence_sha256 and rec.calls[0]["raw_reply"]
    # Same evidence, same judge: answered from the cache, the dead endpoint is never asked.
    with fake_llm([], default=error(500, "down")) as srv2:
        again = judge_run(
            run,
            JudgeOptions(
                method="naveval-webfovea",
                judge="openai:judge-model",
                base_url=srv2.base_url,
                workers=2,
                model_options=FAST,
            ),
        )
        assert srv2.attempts == 0
    assert again.cached == 2 and again.passed == 1


def test_unparsable_verdict_is_asked_again_then_null(tmp_path) -> None:
    run = tmp_path / "run"
    folders.ours(run / "t1")
    with fake_llm([openai_ok("It looks fine to me."), openai_ok("Yes, success.")]) as srv:
        summary = judge_run(
            run,
            JudgeOptions(
                method="naveval-webfovea", judge="openai:j", base_url=srv.base_url, model_options=FAST
            ),
        )
        reask = _user_text(srv.received[1].body)
    assert "could not be read" in reask and "It looks fine to me." in reask
    rec = read_judge_records(run / "judge")["t1"]
    assert rec.verdict is None and "unparsable verdict after one re-ask" in rec.error
    assert summary.no_verdict == 1 and summary.judged == 0 and summary.failed == 0
    assert rec.unparsed and summary.unparsed == 1
    assert len(rec.calls) == 2


def test_failing_endpoint_gives_a_record_not_a_crash(tmp_path) -> None:
    run = tmp_path / "run"
    folders.ours(run / "t1")
    with fake_llm([], default=error(500, "down")) as srv:
        summary = judge_run(
            run,
            JudgeOptions(
                method="naveval-webfovea",
                judge="openai:j",
                base_url=srv.base_url,
                model_options={**FAST, "max_attempts": 2},
            ),
        )
        assert srv.attempts == 2
    rec = read_judge_records(run / "judge")["t1"]
    assert rec.verdict is None and "judge model failed" in rec.error and summary.no_verdict == 1


def test_anthropic_judge_and_replay_reproduce_verdicts(tmp_path, monkeypatch) -> None:
    run = _run(tmp_path)
    with fake_llm([anthropic_ok(YES), anthropic_ok(NO)]) as srv:
        monkeypatch.setenv("ANTHROPIC_BASE_URL", srv.base_url)
        judge_run(
            run,
            JudgeOptions(
                method="naveval-webfovea", judge="anthropic:claude-x", workers=1, model_options=FAST
            ),
        )
        body = srv.received[0].body
    assert "benchmark validator" in body["system"]
    assert any(b["type"] == "image" for b in body["messages"][0]["content"])
    recorded = {k: r.verdict for k, r in read_judge_records(run / "judge").items()}
    copy = tmp_path / "copy"
    shutil.copytree(run, copy, ignore=shutil.ignore_patterns("judge"))
    judge_run(copy, JudgeOptions(method="naveval-webfovea", judge=f"replay:{run}", cache=False))
    replayed = {k: r.verdict for k, r in read_judge_records(copy / "judge").items()}
    assert replayed == recorded and sorted(recorded.values()) == [False, True]
    summary = json.loads((copy / "judge" / "summary.json").read_text())
    assert summary["judged_success_rate"] == 0.5


def test_webjudge_keeps_screenshots_scored_three_or_more(tmp_path) -> None:
    run = tmp_path / "run"
    folders.ours(run / "t1", steps=3)
    script = [
        openai_ok("1. country\n2. period"),
        openai_ok("Reasoning: form\nScore: 2"),
        openai_ok("Reasoning: filtered table\nScore: 4"),
        openai_ok("Reasoning: final\nScore: 5"),
        openai_ok('Thoughts: all filters applied\nStatus: "success"'),
    ]
    with fake_llm(script) as srv:
        summary = judge_run(
            run,
            JudgeOptions(
                method="webjudge-webfovea", judge="openai:j", base_url=srv.base_url, model_options=FAST
            ),
        )
        outcome = srv.received[-1].body["messages"][-1]["content"]
    assert summary.passed == 1
    assert sum(p.get("type") == "image_url" for p in outcome) == 2  # the 2-scored screenshot is left out


def test_webretriever_fail_is_not_judged_and_bad_folders_get_records(tmp_path) -> None:
    run = tmp_path / "run"
    f = folders.webretriever(run / "t-fail")
    data = json.loads((f / "result.json").read_text())
    (f / "result.json").write_text(json.dumps({**data, "status": "FAIL"}))
    (run / "broken").mkdir()
    (run / "broken" / "result.json").write_text("{not json")
    summary = judge_run(
        run, JudgeOptions(method="naveval-webfovea", judge="openai:j", base_url="http://127.0.0.1:9")
    )
    records = read_judge_records(run / "judge")
    assert records["t-fail"].verdict is False and records["t-fail"].usage["calls"] == 0
    assert records["broken"].verdict is None and "nothing to judge" in records["broken"].error
    assert summary.n == 2 and summary.no_verdict == 1 and summary.with_problems == 1


def test_replayed_judge_reproduces_the_recorded_agreement(tmp_path) -> None:
    from webfovea.judge.agree import agreement

    run = tmp_path / "run"
    for i, nav in enumerate([True, False, True, False]):
        f = folders.ours(run / f"t{i}")
        data = json.loads((f / "result.json").read_text())
        data["truth"] = {"nav_ok": nav, "answer_ok": True, "valid": True}
        data["answer"] = f"{i}.0"  # distinct evidence per task
        (f / "result.json").write_text(json.dumps(data))
    with fake_llm([openai_ok(YES), openai_ok(NO), openai_ok(NO), openai_ok(NO)]) as srv:
        judge_run(
            run,
            JudgeOptions(
                method="naveval-webfovea",
                judge="openai:j",
                base_url=srv.base_url,
                workers=1,
                protocol="III",
                model_options=FAST,
            ),
        )
    recorded = agreement(run, bootstrap=100)
    copy = tmp_path / "copy"
    shutil.copytree(run, copy, ignore=shutil.ignore_patterns("judge"))
    judge_run(
        copy, JudgeOptions(method="naveval-webfovea", judge=f"replay:{run}", protocol="III", cache=False)
    )
    replayed = agreement(copy, bootstrap=100)
    keep = ("n", "positives", "agreement", "kappa", "confusion", "per_fault", "ci95", "sr_difference")
    assert {k: replayed[k] for k in keep} == {k: recorded[k] for k in keep}
    assert recorded["n"] == 4
