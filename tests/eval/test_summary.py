"""The run summary on synthetic run folders: scoring, missing tasks, partial runs, the table."""

import json

from rich.console import Console

from tests.eval.synthetic import task, write_task
from webfovea.eval.summary import build_summary, format_summary_table, load_summary, write_summary

META = {"model": "oracle", "profile": "webfovea", "disabled": [], "seed": 7, "workers": 2}


def make_run(run):
    tasks = [
        task("a", "Viet Nam", category="form interaction", classes=("select",)),
        task("b", "1234567", category="document extraction", classes=("find_text", "iframe")),
        task("c", "2023-05-01", category="chart analysis", classes=("hover",)),
        task("d", ["Paris", "London"], category="complete data retrieval", classes=("select",)),
        task("e", "42", category="chart analysis", classes=("hover",)),
        task("f", None, category="document extraction", classes=()),  # empty-answer task
    ]
    write_task(run, tasks[0], answer="viet nam")
    write_task(run, tasks[1], answer="1,234,000")  # 0.05% off: passes
    write_task(run, tasks[2], answer="May 2, 2023")  # wrong day
    write_task(run, tasks[3], answer="London; Paris", seconds=3.25)
    # e has no result.json at all
    write_task(run, tasks[5], answer=None, status="max_steps")  # ran out: not an empty answer
    return tasks


def test_summary_scores_every_task(tmp_path):
    tasks = make_run(tmp_path)
    s = build_summary(tmp_path, tasks, complete=True, meta=META)
    assert (s["tasks"], s["passed"], s["failed"]) == (6, 3, 3)
    assert s["success_rate"] == 0.5
    assert s["complete"] is True and s["missing"] == 1
    pt = s["per_task"]
    assert pt["a"]["passed"] and pt["a"]["how"] == "exact"
    assert pt["b"]["passed"] and pt["b"]["how"] == "numeric" and pt["b"]["answer"] == "1,234,000"
    assert not pt["c"]["passed"] and pt["c"]["expected"] == "2023-05-01"
    assert pt["d"]["passed"] and pt["d"]["how"] == "list" and pt["d"]["seconds"] == 3.25
    assert pt["e"] == {**pt["e"], "status": "missing", "passed": False, "score": 0.0, "steps": 0}
    assert pt["f"]["status"] == "max_steps" and not pt["f"]["passed"]
    assert pt["a"]["category"] == "form interaction" and pt["b"]["failure_classes"] == ["find_text", "iframe"]
    assert s["per_failure_class"]["select"] == {"tasks": 2, "passed": 2, "success_rate": 1.0}
    assert s["per_failure_class"]["hover"] == {"tasks": 2, "passed": 0, "success_rate": 0.0}
    assert s["per_failure_class"]["iframe"] == {"tasks": 1, "passed": 1, "success_rate": 1.0}
    assert s["per_category"]["chart analysis"] == {"tasks": 2, "passed": 0, "success_rate": 0.0}
    assert s["statuses"] == {"finished": 4, "missing": 1, "max_steps": 1}
    assert s["meta"]["seed"] == 7 and s["meta"]["workers"] == 2
    assert s["meta"]["started"] == "2026-01-01T10:00:00" and s["meta"]["ended"] == "2026-01-01T10:05:00"


def test_empty_answer_task_passes_only_when_finished_empty(tmp_path):
    t = task("f", None)
    write_task(tmp_path, t, answer="")
    assert build_summary(tmp_path, [t], complete=True, meta={})["per_task"]["f"]["passed"]
    write_task(tmp_path, t, answer="", status="timeout")
    assert not build_summary(tmp_path, [t], complete=True, meta={})["per_task"]["f"]["passed"]


def test_complete_run_writes_summary_json(tmp_path):
    tasks = make_run(tmp_path)
    (tmp_path / "summary.partial.json").write_text("{}")  # left by an earlier interrupted attempt
    path = write_summary(tmp_path, tasks, complete=True, meta=META)
    assert path == tmp_path / "summary.json"
    assert not (tmp_path / "summary.partial.json").exists()
    data = json.loads(path.read_text())
    assert data["passed"] == 3 and data["tasks"] == 6 and data["complete"] is True
    assert load_summary(tmp_path) == (data, False)


def test_partial_run_never_writes_summary_json(tmp_path):
    tasks = make_run(tmp_path)
    (tmp_path / "summary.json").write_text('{"complete": true}')  # stale: must not survive
    path = write_summary(tmp_path, tasks, complete=False, meta=META)
    assert path.name == "summary.partial.json"
    assert not (tmp_path / "summary.json").exists()
    data = json.loads(path.read_text())
    assert data["complete"] is False and data["missing"] == 1
    assert "PARTIAL" in data["note"] and "1 of 6 tasks" in data["note"]
    assert load_summary(tmp_path)[1] is True


def test_unreadable_result_is_reported(tmp_path):
    t = task("a", "1")
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "result.json").write_text('{"task_id": "a", "stat')
    row = build_summary(tmp_path, [t], complete=False, meta={})["per_task"]["a"]
    assert row["status"] == "unreadable" and "unreadable result.json" in row["error"] and not row["passed"]


def test_summary_table_text(tmp_path):
    tasks = make_run(tmp_path)
    s = build_summary(tmp_path, tasks, complete=False, meta=META)
    console = Console(width=120, record=True, color_system=None)
    console.print(format_summary_table(s))
    text = console.export_text()
    assert "3/6" in text and "50.0%" in text and "PARTIAL (1 tasks missing)" in text
    assert "class: select" in text and "2/2" in text and "category: chart analysis" in text
