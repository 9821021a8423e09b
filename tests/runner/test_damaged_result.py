"""A finished task whose result.json was cut in half (a crash, a full disk) is not turned
into `worker_lost` on resume: the queue saw it finish, so its status stands, the answer the
damaged file still holds is kept, and the damaged file is kept beside it."""

from __future__ import annotations

from pathlib import Path

from webfovea.record.files import read_result, write_result
from webfovea.record.schema import TaskResult
from webfovea.runner.queue import TaskQueue
from webfovea.task import Task

TASKS = [Task(task_id=f"t{i}", task=f"do {i}", website="http://127.0.0.1:1/") for i in range(2)]


def test_a_half_result_of_a_finished_task_keeps_its_status_on_resume(tmp_path: Path) -> None:
    q = TaskQueue(tmp_path)
    q.prepare(TASKS)
    q.register_worker("w0", 1, None)
    assert q.claim("w0") == "t0"
    write_result(tmp_path / "t0", TaskResult(task_id="t0", status="finished", answer="42 apples", steps=3))
    q.finish("t0", "finished")
    assert q.claim("w0") == "t1"  # started, then the run died: lost, as before
    q.close()
    path = tmp_path / "t0" / "result.json"
    text = path.read_bytes()
    path.write_bytes(text[: len(text) // 2])

    counts = TaskQueue(tmp_path).prepare(TASKS)
    assert counts["done"] == 1 and counts["lost"] == 1
    res = read_result(tmp_path / "t0")
    assert res is not None and res.status == "finished" and res.answer == "42 apples" and res.steps == 3
    assert "damaged" in (res.error or "")
    assert (tmp_path / "t0" / "result.json.damaged").read_bytes() == text[: len(text) // 2]
    lost = read_result(tmp_path / "t1")
    assert lost is not None and lost.status == "worker_lost"


def test_a_half_result_of_a_task_the_queue_never_saw_end_is_lost_and_kept(tmp_path: Path) -> None:
    q = TaskQueue(tmp_path)
    q.prepare(TASKS)
    q.register_worker("w0", 1, None)
    q.claim("w0")
    (tmp_path / "t0").mkdir()
    (tmp_path / "t0" / "result.json").write_text('{"task_id": "t0", "status": "fini')
    q.close()
    counts = TaskQueue(tmp_path).prepare(TASKS)
    assert counts["lost"] == 1
    res = read_result(tmp_path / "t0")
    assert res is not None and res.status == "worker_lost"
    assert (tmp_path / "t0" / "result.json.damaged").exists()


def test_a_damaged_run_json_is_kept_beside_the_new_one(tmp_path: Path) -> None:
    from webfovea.config import make_config
    from webfovea.record.run_files import new_run_info, read_run_info, write_run_info

    first = new_run_info(model="m1", config=make_config(), workers=1, tasks=2)
    write_run_info(tmp_path, first)
    text = (tmp_path / "run.json").read_bytes()
    (tmp_path / "run.json").write_bytes(text[: len(text) // 2])
    write_run_info(tmp_path, new_run_info(model="m2", config=make_config(), workers=1, tasks=2))
    info = read_run_info(tmp_path)
    assert info is not None and info.model == "m2"
    assert (tmp_path / "run.json.damaged").read_bytes() == text[: len(text) // 2]  # the history is kept
