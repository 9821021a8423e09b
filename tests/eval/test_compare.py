"""Comparing two runs of one suite: exact +fixed/−broken numbers, and refusing different suites."""

import pytest

from tests.eval.synthetic import task, write_task
from webfovea.eval.compare import CompareError, compare_runs, format_comparison
from webfovea.eval.summary import write_summary
from webfovea.record.schema import StepRecord, TaskResult
from webfovea.record.writer import TaskRecorder
from webfovea.task import Task

SUITE = [task(f"t{i:02d}", str(i)) for i in range(10)]


def make(run, passing, *, profile, disabled=(), complete=True, tasks=SUITE):
    for t in tasks:
        write_task(
            run, t, answer=t.answer if t.task_id in passing else "wrong", profile=profile, disabled=disabled
        )
    write_summary(run, tasks, complete=complete, meta={})


def test_fixed_and_broken(tmp_path):
    ref, wf = tmp_path / "ref", tmp_path / "wf"
    make(ref, {"t00", "t01", "t02"}, profile="reference")
    make(wf, {"t00", "t02", "t03", "t04", "t05", "t06", "t07", "t08", "t09"}, profile="webfovea")
    c = compare_runs(ref, wf)
    assert (c.passed_a, c.passed_b, c.total) == (3, 9, 10)
    assert c.fixed == ["t03", "t04", "t05", "t06", "t07", "t08", "t09"]
    assert c.broken == ["t01"]
    text = format_comparison(c)
    assert text.splitlines()[0] == "webfovea 9/10 vs reference 3/10: +7/−1"
    assert "broken: t01" in text and "fixed:  t03, t04" in text


def test_ablation_label_and_no_change(tmp_path):
    a, b = tmp_path / "a", tmp_path / "b"
    make(a, {"t00", "t01"}, profile="webfovea")
    make(b, {"t00", "t01"}, profile="webfovea", disabled=("select",))
    c = compare_runs(a, b)
    assert format_comparison(c) == "webfovea −select 2/10 vs webfovea 2/10: +0/−0"


def test_partial_run_is_flagged(tmp_path):
    a, b = tmp_path / "a", tmp_path / "b"
    make(a, {"t00"}, profile="reference")
    make(b, {"t00", "t01"}, profile="webfovea", complete=False)
    text = format_comparison(compare_runs(a, b))
    assert text.startswith("webfovea 2/10 vs reference 1/10: +1/−0")
    assert "warning: partial run (webfovea)" in text


def test_different_suites_are_refused(tmp_path):
    a, b = tmp_path / "a", tmp_path / "b"
    make(a, set(), profile="reference")
    make(b, set(), profile="webfovea", tasks=SUITE[:8] + [task("other", "1")])
    with pytest.raises(CompareError) as e:
        compare_runs(a, b)
    msg = str(e.value)
    assert "not runs of the same suite" in msg and "2 task(s) only in the first (t08, t09)" in msg
    assert "1 only in the second (other)" in msg and "\n" not in msg


def test_run_without_summary_is_refused(tmp_path):
    (tmp_path / "empty").mkdir()
    with pytest.raises(CompareError, match="no summary.json"):
        compare_runs(tmp_path / "empty", tmp_path / "empty")
    with pytest.raises(CompareError, match="no such run folder"):
        compare_runs(tmp_path / "nope", tmp_path / "empty")


def test_same_profile_runs_are_told_apart_by_folder(tmp_path):
    a, b = tmp_path / "seed0", tmp_path / "seed1"
    make(a, {"t00"}, profile="webfovea")
    make(b, {"t01"}, profile="webfovea")
    assert format_comparison(compare_runs(a, b), list_tasks=False) == (
        "webfovea (seed1) 1/10 vs webfovea (seed0) 1/10: +1/−1"
    )


def _run_with_usage(run, per_task: dict[str, tuple[bool, list[dict]]], profile: str) -> None:
    tasks = []
    for tid, (passed, usages) in per_task.items():
        rec = TaskRecorder(run / tid)
        for i, usage in enumerate(usages):
            rec.append(StepRecord(step=i, raw_reply="x", usage=usage))
        rec.write_result(
            TaskResult(
                task_id=tid,
                status="finished",
                answer="1" if passed else "2",
                steps=len(usages),
                profile=profile,
            )
        )
        tasks.append(Task(task_id=tid, task="t", website="http://x", answer="1"))
    write_summary(run, tasks, complete=True, meta={})


def _usage(uncached: int, read: int = 0, written: int = 0) -> dict:
    return {
        "prompt_tokens": uncached + read + written,
        "completion_tokens": 30,
        "input_tokens": uncached,
        "cache_read_input_tokens": read,
        "cache_creation_input_tokens": written,
    }


def test_input_cost_is_set_side_by_side_on_the_tasks_both_passed(tmp_path):
    paper, ours = tmp_path / "paper", tmp_path / "ours"
    # The baseline fails t1 after a long, dear run; the candidate passes both.
    _run_with_usage(paper, {"t0": (True, [_usage(6000)] * 2), "t1": (False, [_usage(9000)] * 10)}, "paper")
    _run_with_usage(
        ours,
        {"t0": (True, [_usage(0, 0, 4000), _usage(0, 4000, 1600)]), "t1": (True, [_usage(0, 0, 4000)])},
        "webfovea",
    )
    c = compare_runs(paper, ours)
    assert c.both_passed == 1
    assert c.units_a == 12000.0  # t0 only: 2 x 6,000 uncached
    assert c.units_b == 4000 * 1.25 + 4000 * 0.1 + 1600 * 1.25  # 7,400: written x 1.25, read x 0.1
    assert c.cost_ratio == pytest.approx(7400 / 12000)
    assert "input cost on the 1 tasks both passed: 7,400 vs 12,000 price units per task (0.62x)" in (
        format_comparison(c)
    )


def test_no_cost_line_when_a_run_recorded_no_tokens(tmp_path):
    a, b = tmp_path / "a", tmp_path / "b"
    make(a, {"t00"}, profile="reference")
    make(b, {"t00"}, profile="webfovea")
    c = compare_runs(a, b)
    assert c.units_a is None and c.cost_ratio is None and "price units" not in format_comparison(c)
