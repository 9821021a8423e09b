"""Comparing two runs of one suite: exact +fixed/−broken numbers, and refusing different suites."""

import pytest

from tests.eval.synthetic import task, write_task
from webfovea.eval.compare import CompareError, compare_runs, format_comparison
from webfovea.eval.summary import write_summary

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
