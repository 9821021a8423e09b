"""The record format: every schema round-trips through its one writer and reader, the atomic
writer never exposes half a file, the trajectory reader survives a torn last line."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from webfovea.config import ALL_COMPONENTS, ablated_components, make_config
from webfovea.eval.report import read_steps
from webfovea.models.replay import ReplayModel
from webfovea.record import (
    CaptureFile,
    RecordError,
    RunInfo,
    StepRecord,
    Summary,
    TaskResult,
    TrajectoryError,
    append_step,
    check_result,
    failure_result,
    mark_run_ended,
    new_run_info,
    read_capture,
    read_result,
    read_run_info,
    read_run_tasks,
    read_summary_file,
    read_trajectory,
    write_capture,
    write_json_atomic,
    write_result,
    write_run_info,
    write_run_tasks,
    write_summary_file,
    write_text_atomic,
)
from webfovea.task import Task, TaskIdError, check_task_id, check_task_ids

ALL = sorted(c.value for c in ALL_COMPONENTS)


def step(i: int, reply: str = "Thought: x\nAction: wait()") -> StepRecord:
    return StepRecord(
        step=i,
        raw_reply=reply,
        cleaned_reply=reply,
        thought="x",
        action={"name": "wait", "args": {}},
        usage={"prompt_tokens": 10 + i, "completion_tokens": 2},
        seconds=0.5,
    )


def leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.endswith(".tmp"))


# ---------------------------------------------------------------- the atomic writer


def test_failed_write_keeps_the_old_file_and_leaves_no_temp_file(tmp_path, monkeypatch):
    target = tmp_path / "result.json"
    write_json_atomic(target, {"v": 1})

    def broken_replace(src, dst):
        raise OSError("disk full")

    monkeypatch.setattr(os, "replace", broken_replace)
    with pytest.raises(OSError, match="disk full"):
        write_json_atomic(target, {"v": 2, "pad": "x" * 100_000})
    assert json.loads(target.read_text()) == {"v": 1}
    assert leftovers(tmp_path) == []


def test_concurrent_writers_never_expose_a_partial_file(tmp_path):
    target = tmp_path / "run.json"
    write_json_atomic(target, {"writer": -1, "pad": ""})
    stop = threading.Event()
    torn: list[str] = []

    def writer(n: int) -> None:
        for i in range(40):
            write_json_atomic(target, {"writer": n, "i": i, "pad": "é" * (50_000 + 997 * n)})

    def reader() -> None:
        while not stop.is_set():
            text = target.read_text(encoding="utf-8")
            try:
                json.loads(text)
            except ValueError:
                torn.append(text[-40:])

    threads = [threading.Thread(target=writer, args=(n,)) for n in range(3)]
    watch = threading.Thread(target=reader)
    watch.start()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    stop.set()
    watch.join()
    assert torn == []
    assert leftovers(tmp_path) == []
    assert json.loads(target.read_text())["i"] == 39


def test_text_writer_creates_the_folder_and_honours_the_umask(tmp_path):
    path = write_text_atomic(tmp_path / "a" / "b" / "report.html", "<p>hi</p>")
    assert path.read_text() == "<p>hi</p>"
    umask = os.umask(0)
    os.umask(umask)
    assert path.stat().st_mode & 0o777 == 0o666 & ~umask  # readable like any other file, not 0600


# ---------------------------------------------------------------- trajectory.jsonl


def test_torn_last_line_is_dropped_by_every_reader(tmp_path):
    task_dir = tmp_path / "run" / "t1"
    task_dir.mkdir(parents=True)
    for i in range(3):
        append_step(task_dir, step(i, f"Thought: é{i}\nAction: wait()"))
    whole = step(3, "Thought: ééé\nAction: wait()").model_dump_json().encode()
    with (task_dir / "trajectory.jsonl").open("ab") as f:
        f.write(whole[: whole.index("é".encode()) + 1])  # killed mid-line, inside a 2-byte character
    assert [s.step for s in read_trajectory(task_dir)] == [0, 1, 2]
    assert [s.step for s in read_steps(task_dir)] == [0, 1, 2]  # the report
    replay = ReplayModel(task_dir)  # replay
    assert [r.text for r in replay.replies] == [f"Thought: é{i}\nAction: wait()" for i in range(3)]
    assert [r.usage.prompt_tokens for r in replay.replies] == [10, 11, 12]


def test_complete_last_record_without_newline_is_kept(tmp_path):
    path = tmp_path / "trajectory.jsonl"
    path.write_text(step(0).model_dump_json() + "\n" + step(1).model_dump_json())
    assert [s.step for s in read_trajectory(path)] == [0, 1]


def test_bad_middle_line_is_an_error_unless_lenient(tmp_path):
    path = tmp_path / "trajectory.jsonl"
    path.write_text(
        "\n".join(
            [
                step(0).model_dump_json(),
                '{"step": 1, "raw_rep',
                step(2).model_dump_json(),
                json.dumps({"step": 3, "raw_reply": 5}),
            ]
        )
        + "\n"
    )
    with pytest.raises(TrajectoryError, match=r"line 2 is not valid JSON"):
        read_trajectory(path)
    assert [s.step for s in read_trajectory(path, strict=False)] == [0, 2]
    path.write_text(json.dumps({"step": 3, "raw_reply": 5}) + "\n")
    with pytest.raises(TrajectoryError, match=r"line 1 has a malformed raw_reply field"):
        read_trajectory(path)


def test_missing_trajectory_is_empty_and_legacy_records_read(tmp_path):
    assert read_trajectory(tmp_path) == []
    (tmp_path / "trajectory.jsonl").write_text(json.dumps({"step": 0, "raw_reply": "Action: wait()"}) + "\n")
    [old] = read_trajectory(tmp_path)
    assert (old.raw_reply, old.cleaned_reply, old.usage) == ("Action: wait()", "", {})


# ---------------------------------------------------------------- round trips


def test_result_round_trip_records_the_whole_config(tmp_path):
    config = make_config("reference")
    res = failure_result(
        Task(task_id="t", task="q", website="http://x/"),
        "t",
        "worker_lost",
        "gone",
        config=config,
        model="oracle",
    )
    write_result(tmp_path, res)
    back = read_result(tmp_path)
    assert back == res
    data = json.loads((tmp_path / "result.json").read_text())
    assert data["disabled"] == ALL and data["profile"] == "reference"
    assert data["config"] == config.model_dump(mode="json")
    assert data["config"]["components"] == [] and data["config"]["max_steps"] == 40
    assert (
        list(data)[: len(TaskResult.model_fields) - 1] == list(TaskResult.model_fields)[:-1]
    )  # old keys first


def test_unreadable_result_says_why_and_reads_as_none(tmp_path):
    assert check_result(tmp_path) == (None, None)
    (tmp_path / "result.json").write_text('{"task_id": "a", "stat')
    res, why = check_result(tmp_path)
    assert res is None and why.startswith("unreadable result.json:")
    assert read_result(tmp_path) is None


def test_capture_round_trip_keeps_its_shape(tmp_path):
    empty = CaptureFile()
    write_capture(tmp_path, empty)
    assert json.loads((tmp_path / "capture.json").read_text()) == {
        "requests": [],
        "navigations": [],
        "downloads": [],
    }
    cap = CaptureFile(
        requests=[{"url": "http://x/api", "method": "GET", "body_json": None, "at": 1.5}],
        note="exported by the parent",
    )
    write_capture(tmp_path, cap)
    assert read_capture(tmp_path) == cap
    data = json.loads((tmp_path / "capture.json").read_text())
    assert data["requests"][0]["body_json"] is None and "error" not in data  # nulls inside entries stay


def test_run_info_round_trip_and_history(tmp_path):
    assert read_run_info(tmp_path) is None
    first = new_run_info(
        model="oracle",
        config=make_config("reference"),
        workers=1,
        backend="local",
        tasks=3,
        queue_at_start={"pending": 3, "done": 0, "lost": 0, "requeued": 0},
    )
    write_run_info(tmp_path, first)
    assert read_run_info(tmp_path) == first
    data = json.loads((tmp_path / "run.json").read_text())
    assert data["disabled"] == ALL and data["ended_at"] is None
    assert "previous_runs" not in data and "interrupted" not in data
    ended = mark_run_ended(tmp_path, interrupted=True)
    assert ended is not None and ended.interrupted is True and ended.ended_at
    assert read_run_info(tmp_path) == ended

    second = new_run_info(model="oracle", config=make_config(disable=["select"]), workers=2)
    write_run_info(tmp_path, second)
    third = new_run_info(model="oracle", config=make_config(), workers=4, future_key={"kept": True})
    write_run_info(tmp_path, third)
    got = read_run_info(tmp_path)
    assert got is not None and got.workers == 4 and got.model_extra == {"future_key": {"kept": True}}
    assert [(r.workers, r.disabled) for r in got.previous_runs or []] == [(1, ALL), (2, ["select"])]
    assert got.previous_runs[0].interrupted is True and got.previous_runs[0].previous_runs is None
    mark_run_ended(tmp_path, interrupted=False)
    assert len(read_run_info(tmp_path).previous_runs) == 2  # an update is not a new run


def test_unreadable_run_json_does_not_stop_a_new_run(tmp_path):
    (tmp_path / "run.json").write_text("{")
    with pytest.raises(RecordError):
        read_run_info(tmp_path)
    assert mark_run_ended(tmp_path, interrupted=False) is None
    write_run_info(tmp_path, RunInfo(model="m"))
    assert read_run_info(tmp_path).model == "m"


def test_tasks_round_trip(tmp_path):
    assert read_run_tasks(tmp_path) is None
    tasks = [Task(task_id="a", task="q", website="http://x/", answer=["1", "2"], failure_classes=["select"])]
    write_run_tasks(tmp_path, tasks)
    assert read_run_tasks(tmp_path) == tasks
    (tmp_path / "tasks.json").write_text('{"not": "a list"}')
    with pytest.raises(RecordError, match="not a list of tasks"):
        read_run_tasks(tmp_path)


def test_summary_round_trip_complete_and_partial(tmp_path):
    data = {
        "tasks": 2,
        "passed": 1,
        "failed": 1,
        "success_rate": 0.5,
        "complete": True,
        "missing": 1,
        "statuses": {"finished": 1, "missing": 1},
        "steps_total": 3,
        "seconds_total": 4.5,
        "meta": {
            "model": "oracle",
            "profile": "webfovea",
            "disabled": ["select"],
            "seed": 0,
            "workers": 1,
            "started": "2026-01-01T10:00:00+00:00",
            "ended": None,
            "suite": "builtin",
        },
        "per_task": {
            "a": {
                "task": "q",
                "expected": ["x", 2],
                "category": None,
                "failure_classes": [],
                "status": "finished",
                "answer": "x, 2",
                "score": 1.0,
                "passed": True,
                "how": "list",
                "steps": 3,
                "seconds": 4.5,
                "error": None,
                "taxonomy": None,
                "stage": None,
            },
            "b": {
                "task": "q",
                "expected": None,
                "category": "c",
                "failure_classes": ["select"],
                "status": "missing",
                "answer": None,
                "score": 0.0,
                "passed": False,
                "how": "empty",
                "steps": 0,
                "seconds": 0.0,
                "error": "no result.json",
                "detail": "why",
                "taxonomy": None,
                "stage": None,
            },
        },
        "per_failure_class": {"select": {"tasks": 1, "passed": 0, "success_rate": 0.0}},
        "per_category": {"c": {"tasks": 1, "passed": 0, "success_rate": 0.0}},
        "taxonomy": {},
        "taxonomy_groups": {},
        "stages": {},
    }
    summary = Summary.model_validate(data)
    path = write_summary_file(tmp_path, summary)
    assert path.name == "summary.json" and json.loads(path.read_text()) == data  # nothing added, nothing lost
    assert read_summary_file(tmp_path) == (summary, False)

    partial = summary.model_copy(
        update={"complete": False, "note": "PARTIAL RUN: 1 of 2 tasks have no result"}
    )
    path = write_summary_file(tmp_path, partial)
    assert path.name == "summary.partial.json" and not (tmp_path / "summary.json").exists()
    assert read_summary_file(tmp_path) == (partial, True)
    path.write_text('{"tasks": 3, "per_ta')
    with pytest.raises(RecordError, match="summary.partial.json"):
        read_summary_file(tmp_path)
    path.unlink()
    assert read_summary_file(tmp_path) is None


# ---------------------------------------------------------------- config and task ids


def test_disabled_is_every_component_off():
    assert make_config("reference").disabled() == ALL
    assert make_config().disabled() == []
    assert make_config(disable=["select", "fill"]).disabled() == ["fill", "select"]
    assert make_config("reference").model_dump(mode="json")["components"] == []
    assert make_config(disable=["hover"]).model_dump(mode="json")["components"] == [
        c for c in ALL if c != "hover"
    ]
    # labels name only what was turned off beyond the profile
    assert ablated_components("reference", ALL) == []
    assert ablated_components("webfovea", ["fill", "select"]) == ["fill", "select"]
    assert ablated_components("custom", ["x"]) == ["x"]


@pytest.mark.parametrize("bad", ["", ".", "..", "../etc", "a/b", "-x", ".hidden", "a" * 201, "sp ace"])
def test_one_task_id_rule(bad):
    with pytest.raises(TaskIdError, match="cannot be a folder name"):
        check_task_id(bad)


def test_task_ids_unique():
    check_task_ids(["a", "b.1", "C_2-x"])
    with pytest.raises(TaskIdError, match="'a' appears more than once"):
        check_task_ids(["a", "b", "a"])


def test_record_imports_nothing_but_task_and_config():
    """Layering: every other part depends on record/, so record/ must not depend on them
    (but the bottom: task, config and the secrets every record is scrubbed of)."""
    code = (
        "import sys, webfovea.record, webfovea.record.writer, webfovea.record.capture\n"
        "bad = sorted(m for m in sys.modules if m.startswith('webfovea.')\n"
        "             and m.split('.')[1] not in ('record', 'task', 'config', 'secrets'))\n"
        "print(bad, any(m.startswith('playwright') for m in sys.modules))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[] False"
