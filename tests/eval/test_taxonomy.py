"""The failure taxonomy and the stage label on recorded trajectories, and their way into the records."""

from __future__ import annotations

import json

import pytest

from tests.eval.synthetic import task, write_task, write_tasks_json
from webfovea.eval.summary import compute_summary
from webfovea.eval.taxonomy import Checks, classify, label_task, max_repeat, stage_of
from webfovea.record import StepRecord, TaskResult, read_result, write_result

CLICK = {"name": "click", "args": {"start_box": [400, 300]}}


def step(
    i: int,
    action: dict | None = CLICK,
    *,
    thought: str = "I click Apply.",
    outcome: str = "executed",
    point: list[float] | None = (533.0, 400.0),
    rejection: str | None = None,
    feedback: str = "",
    changed: bool | None = True,
    verify: bool = False,
) -> StepRecord:
    return StepRecord(
        step=i,
        raw_reply="",
        thought=thought,
        action=action,
        outcome=outcome,
        executed_point=list(point) if point else None,
        rejection=rejection,
        feedback=feedback,
        changed=changed,
        verification_requested=verify,
    )


def finished(i: int, thought: str, content: str = "done") -> StepRecord:
    return step(
        i, {"name": "finished", "args": {"content": content}}, thought=thought, point=None, changed=None
    )


def result(status: str = "finished", answer: str | None = "done", state: dict | None = None) -> TaskResult:
    return TaskResult(task_id="t", status=status, answer=answer, state=state)


FAIL, PASS = Checks(positives_ok=False), Checks(positives_ok=True)


def test_a_passed_run_has_no_labels():
    assert classify(result(), [finished(0, "Saved.")], PASS) is None
    assert stage_of(result(), [finished(0, "Saved.")], PASS, answer_expected=True) is None


@pytest.mark.parametrize(
    ("thought", "label"),
    [
        ("The request has been saved.", "misleading_success_taken"),
        ("The value is visible: 4.2.", "misleading_success_taken"),
        ("Submitted; the toast confirms it.", "misleading_success_taken"),
        ("I will stop here.", "premature_done"),
    ],
)
def test_finished_with_failed_checks_is_a_belief_failure(thought, label):
    steps = [step(0), finished(1, thought)]
    assert classify(result(), steps, FAIL) == label


def test_obligations_met_but_an_invariant_broken_is_overreach():
    res = result(
        state={
            "score": 1.0,
            "obligations_met": 2,
            "obligations_total": 2,
            "invariants_broken": ["request 3: status changed"],
        }
    )
    labels = label_task(res, [step(0), finished(1, "Saved.")], answer_passed=True, expected="done")
    assert (labels.taxonomy, labels.group) == ("silent_overreach", "overreach")


def test_state_wins_over_the_answer_score():
    res = result(state={"score": 0.5, "obligations_met": 1, "obligations_total": 2, "invariants_broken": []})
    labels = label_task(res, [step(0), finished(1, "All saved.")], answer_passed=True, expected="done")
    assert (labels.taxonomy, labels.group, labels.stage) == ("misleading_success_taken", "belief", "model")
    # A save that landed counts even when the run ran out of steps afterwards.
    done = result(
        status="max_steps",
        answer=None,
        state={"score": 1.0, "obligations_met": 2, "obligations_total": 2, "invariants_broken": []},
    )
    assert label_task(done, [step(0)] * 3, answer_passed=False, expected="done").taxonomy is None


def test_the_same_click_five_times_is_a_retry_loop():
    steps = [
        step(i, point=[533.0 + (i % 3), 400.0 - (i % 2)], changed=False, feedback="No detectable change.")
        for i in range(5)
    ]
    assert max_repeat(steps) == 5
    assert classify(result(status="max_steps", answer=None), steps + [step(5)] * 2, FAIL) == "retry_loop"
    # Scrolling on through a long page is reading, not retrying.
    scroll = {"name": "scroll", "args": {"direction": "down"}}
    reading = [step(i, scroll, point=None, changed=True) for i in range(8)]
    assert max_repeat(reading) == 0
    far = [step(i, point=[100.0 + 40 * i, 400.0]) for i in range(6)]
    assert max_repeat(far) == 1


def test_short_unfinished_runs_collapse_and_errors_mean_hallucinated_targets():
    assert classify(result(status="scroll_breaker", answer=None), [step(0), step(1)], FAIL) == "plan_collapse"
    errors = [step(i, outcome="failed", point=[100.0 * i, 50.0]) for i in range(3)] + [
        step(3 + i) for i in range(4)
    ]
    assert classify(result(status="max_steps", answer=None), errors, FAIL) == "selector_hallucination"
    assert (
        classify(
            result(status="max_steps", answer=None), [step(i, point=[60.0 * i, 9.0]) for i in range(9)], FAIL
        )
        == "abandoned_run"
    )
    # A harness halt is not the model's plan collapsing.
    assert classify(result(status="model_error", answer=None), [step(0)], FAIL) == "abandoned_run"


@pytest.mark.parametrize(
    ("steps", "status", "answer", "stage"),
    [
        (
            [step(0, None, rejection="Not executed: no action", outcome="rejected", point=None)],
            "max_steps",
            None,
            "parsing",
        ),
        (
            [step(0, outcome="rejected", rejection="click was not executed: outside the image")],
            "max_steps",
            None,
            "guardrail",
        ),
        ([step(0, outcome="failed")], "max_steps", None, "execution"),
        ([step(0, outcome="no_effect", changed=False, feedback="")], "max_steps", None, "feedback"),
        (
            [
                step(
                    0,
                    outcome="no_effect",
                    changed=False,
                    feedback="No detectable change on the page after click.",
                )
            ],
            "max_steps",
            None,
            "model",
        ),
        ([step(0)], "model_error", None, "model"),
        ([step(0)], "browser_error", None, "execution"),
        ([step(0)], "scroll_breaker", None, "guardrail"),
        (
            [step(0), finished(1, "I could not find the value on the page.", "")],
            "finished",
            "",
            "observation",
        ),
        (
            [
                step(0),
                finished(
                    1,
                    "Saved.",
                    "saved",
                ),
                finished(2, "Saved."),
            ],
            "finished",
            "done",
            "model",
        ),
    ],
)
def test_stage_is_the_first_step_that_went_wrong(steps, status, answer, stage):
    assert stage_of(result(status, answer), steps, FAIL, answer_expected=True) == stage


def test_the_verify_hold_is_not_a_failure():
    held = step(
        1, {"name": "finished", "args": {"content": "done"}}, point=None, outcome="executed", verify=True
    )
    assert stage_of(result(), [step(0), held, finished(2, "Saved.")], FAIL, answer_expected=True) == "model"


def test_summary_writes_labels_into_result_json_and_counts_them(tmp_path):
    run = tmp_path / "run"
    ok, wrong, stuck = task("ok", "4.2"), task("wrong", "4.2"), task("stuck", "7")
    write_tasks_json(run, [ok, wrong, stuck])
    click = {"action": CLICK, "thought": "I click Apply.", "action_text": "click(...)"}
    fin = {
        "action": {"name": "finished", "args": {"content": "4.2"}},
        "thought": "The value is visible: 4.2.",
        "action_text": "finished(content='4.2')",
    }
    write_task(run, ok, answer="4.2", steps=[click, fin])
    write_task(run, wrong, answer="5.0", steps=[click, {**fin, "thought": "The value is visible: 5.0."}])
    write_task(run, stuck, answer=None, status="max_steps", steps=[click, click])
    summary = compute_summary(run, [ok, wrong, stuck], complete=True, meta={})
    rows = summary.per_task
    assert (rows["ok"].taxonomy, rows["ok"].stage) == (None, None)
    assert (rows["wrong"].taxonomy, rows["wrong"].stage) == ("misleading_success_taken", "model")
    assert rows["stuck"].taxonomy == "plan_collapse"
    assert summary.taxonomy == {"misleading_success_taken": 1, "plan_collapse": 1}
    assert summary.taxonomy_groups == {"action": 1, "belief": 1}
    assert summary.stages == {"model": 2}
    on_disk = json.loads((run / "wrong" / "result.json").read_text())
    assert on_disk["taxonomy"] == "misleading_success_taken" and on_disk["stage"] == "model"
    assert read_result(run / "ok").taxonomy is None


def test_state_written_by_an_environment_survives_with_its_own_keys(tmp_path):
    res = result(
        state={
            "score": 1.0,
            "obligations_met": 1,
            "obligations_total": 1,
            "invariants_broken": [],
            "initial_sha256": "ab" * 32,
        }
    )
    write_result(tmp_path, res)
    back = read_result(tmp_path)
    assert back.state.obligations_total == 1 and back.state.model_extra["initial_sha256"] == "ab" * 32


def test_the_report_says_why_tasks_failed(tmp_path):
    from webfovea.eval.report import render_report
    from webfovea.eval.summary import write_summary

    run = tmp_path / "run"
    ok, wrong = task("ok", "4.2"), task("wrong", "4.2")
    write_tasks_json(run, [ok, wrong])
    fin = {
        "action": {"name": "finished", "args": {"content": "5.0"}},
        "thought": "The value is visible: 5.0.",
        "action_text": "finished(content='5.0')",
    }
    write_task(
        run, ok, answer="4.2", steps=[{**fin, "action": {"name": "finished", "args": {"content": "4.2"}}}]
    )
    write_task(run, wrong, answer="5.0", steps=[fin])
    write_summary(run, [ok, wrong], complete=True, meta={})
    html = render_report(run)
    assert 'id="taxonomy"' in html and 'id="stages"' in html
    assert "misleading_success_taken" in html and "belief" in html
    assert "misleading_success_taken · model" in html  # the failed task's row and section


def test_obligations_may_be_one_boolean_each():
    res = result(state={"score": 0.5, "obligations_met": [True, False], "invariants_broken": []})
    assert (
        label_task(res, [step(0), finished(1, "Saved.")], answer_passed=True, expected=None).taxonomy
        == "misleading_success_taken"
    )
    res = result(state={"score": 1.0, "obligations_met": [True, True], "invariants_broken": [{"id": 3}]})
    assert (
        label_task(res, [step(0), finished(1, "Saved.")], answer_passed=True, expected=None).taxonomy
        == "silent_overreach"
    )
    # No obligations (a retrieval task scored with state hashes only): the answer decides.
    res = result(state={"score": 0.0, "obligations_met": [], "invariants_broken": []})
    assert (
        label_task(res, [step(0), finished(1, "The value is 5.")], answer_passed=True, expected="5").taxonomy
        is None
    )
