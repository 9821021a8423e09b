"""`judge agree` on a run folder with truth in result.json and judge records."""

from __future__ import annotations

import json

import pytest

from webfovea.judge.agree import AgreementError, agreement
from webfovea.judge.records import JudgeRecord, write_judge_record
from webfovea.record import TaskResult, write_result


def _run(tmp_path, rows):
    """rows: (task_id, fault, nav_ok, answer_ok, verdict)."""
    run = tmp_path / "run"
    for tid, fault, nav, ans, verdict in rows:
        write_result(
            run / tid,
            TaskResult(
                task_id=tid,
                status="finished",
                fault=fault,
                truth={"nav_ok": nav, "answer_ok": ans, "valid": nav is not None},
            ),
        )
        write_judge_record(
            run / "judge", tid, JudgeRecord(task_id=tid, method="rule", judge_model="rule", verdict=verdict)
        )
    return run


ROWS = [
    ("a", None, True, True, True),
    ("b", None, True, True, True),
    ("c", "wrong_row", True, False, True),
    ("d", "wrong_filter", False, False, False),
    ("e", "from_memory", False, True, True),
    ("f", "stop_early", False, False, False),
    ("g", None, None, True, True),
    ("h", None, True, True, None),
]


def test_agreement_fields(tmp_path) -> None:
    run = _run(tmp_path, ROWS)
    r = agreement(run, bootstrap=200)
    assert r["n"] == 6 and r["positives"] == 3
    assert r["confusion"] == {"tp": 3, "fp": 1, "tn": 2, "fn": 0}
    assert r["agreement"] == pytest.approx(5 / 6, abs=1e-4)
    assert r["precision"] == 0.75 and r["recall"] == 1.0
    assert r["sr_difference"] == pytest.approx(1 / 6, abs=1e-4)
    assert r["excluded"] == {"no_verdict": 1, "no_truth": 1, "not_executable": 0}
    assert r["per_fault"]["none"] == {"n": 2, "agreement": 1.0, "positives": 2}
    assert r["per_fault"]["from_memory"]["agreement"] == 0.0
    lo, hi = r["ci95"]["agreement"]
    assert 0 <= lo <= r["agreement"] <= hi <= 1
    saved = json.loads((run / "judge" / "agreement.json").read_text())
    assert saved["kappa"] == r["kappa"] and agreement(run, bootstrap=200)["ci95"] == r["ci95"]  # seeded
    iii = agreement(run, protocol="III", bootstrap=0)
    assert iii["positives"] == 2 and iii["confusion"]["fp"] == 2  # wrong_row fails end to end


def test_kappa_is_null_with_one_class(tmp_path) -> None:
    run = _run(tmp_path, [("a", None, True, True, True), ("b", None, True, True, True)])
    r = agreement(run, bootstrap=50)
    assert r["kappa"] is None and r["agreement"] == 1.0


def test_human_labels(tmp_path) -> None:
    run = _run(tmp_path, ROWS)
    labels = tmp_path / "labels.jsonl"
    labels.write_text(
        '{"task_id": "a", "label": 1}\n{"task_id": "b", "label": 0}\n{"task_id": "d", "label": 2}\n'
    )
    r = agreement(run, truth=f"human:{labels}", bootstrap=0)
    assert r["n"] == 2 and r["excluded"]["not_executable"] == 1 and r["agreement"] == 0.5
    as_json = tmp_path / "labels.json"
    as_json.write_text(json.dumps({"a": 1, "c": 1, "summary": 0}))
    with pytest.raises(AgreementError, match="collides"):
        agreement(run, truth=f"human:{as_json}")
    as_json.write_text(json.dumps({"a": 3}))
    with pytest.raises(AgreementError, match="label"):
        agreement(run, truth=f"human:{as_json}")


def test_no_records_says_what_to_do(tmp_path) -> None:
    (tmp_path / "run").mkdir()
    with pytest.raises(AgreementError, match="judge run"):
        agreement(tmp_path / "run")


def test_report_shows_verdict_reasons_and_truth(tmp_path) -> None:
    from webfovea.eval.report import render_report

    run = _run(tmp_path, ROWS[:4])
    rec = JudgeRecord(
        task_id="d",
        method="naveval-webfovea",
        judge_model="openai:x",
        verdict=False,
        reasoning="no filter",
        details=[{"action": "country is VN", "passed": False, "reason": "request has AU"}],
    )
    write_judge_record(run / "judge", "d", rec)
    html = render_report(run)
    assert 'data-verdict="fail"' in html and "request has AU" in html and "navigation wrong" in html
    assert 'data-verdict="pass"' in html
