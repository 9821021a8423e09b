"""Fault plans rewrite the built-in plans; truth comes from a request log, the rule judge from the capture."""

from __future__ import annotations

from collections import Counter

import pytest

from webfovea.eval.truth import compute_truth
from webfovea.judge.folder import AgentRecord
from webfovea.judge.rule import rule_verdict
from webfovea.record.schema import TaskResult
from webfovea_proving_ground.oracle.faults import FAULTS, fault_plan, parse_faults, spread, with_faults
from webfovea_proving_ground.suites.tasks import build_tasks


class _Handle:
    def url(self, path: str) -> str:
        return "http://127.0.0.1:9" + path


@pytest.fixture(scope="module")
def suite():
    return build_tasks(_Handle(), 0)


def test_full_suite_yields_over_200_labelled_runs(suite) -> None:
    runs = with_faults(suite, list(FAULTS))
    assert len(runs) >= 200
    counts = Counter((t.model_extra or {}).get("fault") for t in runs)
    assert set(counts) == {None, *FAULTS} and all(counts[f] >= 10 for f in FAULTS)
    assert len({t.task_id for t in runs}) == len(runs)


def test_fault_plans(suite) -> None:
    vn = next(t for t in suite if t.task_id == "stats-select-01-vn")
    wrong = fault_plan(vn, "wrong_filter")
    assert wrong[0]["op"] == "select" and wrong[0]["expect"]["value"] not in ("VN", "AU")
    assert all("expect" not in s for s in wrong[1:])
    assert fault_plan(vn, "wrong_row")[-1]["source"]["target"]["selector"].endswith('"] + tr td.value')
    assert fault_plan(vn, "from_memory") == [{"op": "answer", "value": vn.answer}]
    cleared = fault_plan(vn, "applied_then_cleared")
    assert cleared[2]["target"]["selector"] == 'nav.main a[href="/stats"]'
    assert [s["op"] for s in fault_plan(vn, "never_applied")] == ["select", "scroll_to", "answer"]
    assert [s["op"] for s in fault_plan(vn, "stop_early")] == ["select", "click", "answer"]
    reg = next(t for t in suite if t.task_id == "register-search-01")
    assert fault_plan(reg, "never_applied")[0]["submit"] is False
    assert parse_faults("all") == list(FAULTS)
    with pytest.raises(ValueError, match="unknown fault"):
        parse_faults("wrong_filter,typo")


def test_spread_covers_sites(suite) -> None:
    picked = spread(suite, 8)
    assert len(picked) == 8 and len({t.site for t in picked}) >= 6


def _vn_task(suite):
    return next(t for t in suite if t.task_id == "stats-select-01-vn")


def test_truth_from_server_log(suite) -> None:
    task = _vn_task(suite)
    result = TaskResult(task_id=task.task_id, status="finished", answer=str(task.answer))
    good = [
        {
            "ordinal": 0,
            "method": "GET",
            "path": "/stats/api/table",
            "fetch": True,
            "query": {"country": "VN", "indicator": "cpi", "freq": "M"},
        }
    ]
    t = compute_truth(task, result, good)
    assert t["valid"] and t["nav_ok"] and t["answer_ok"]
    cleared = [*good, {**good[0], "ordinal": 1, "query": {"country": "AU", "indicator": "cpi", "freq": "M"}}]
    assert compute_truth(task, result, cleared)["nav_ok"] is False
    assert compute_truth(task, result, None)["valid"] is False


def test_rule_judge_reads_the_capture_only(suite) -> None:
    task = _vn_task(suite)
    preds = task.model_extra["nav_truth"]
    rec = AgentRecord(
        task_id=task.task_id,
        layout="webfovea",
        task=task.task,
        status="finished",
        answer="0",
        requests=[
            {
                "url": "http://127.0.0.1:9/stats/api/table?country=VN&indicator=cpi&freq=M",
                "method": "GET",
                "resource_type": "fetch",
            }
        ],
    )
    assert rule_verdict(rec, preds).all_passed
    rec.requests.append(
        {
            "url": "http://127.0.0.1:9/stats/api/table?country=AU&indicator=cpi&freq=M",
            "method": "GET",
            "resource_type": "fetch",
        }
    )
    assert not rule_verdict(rec, preds).all_passed
    iii = rule_verdict(rec, preds[:0] or preds, expected=task.answer, protocol="III")
    assert iii.answer_supported is False
    assert isinstance(rule_verdict(rec, None), str)
