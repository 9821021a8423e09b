"""Runner safety (inputs): ids that collide with the run's own files, numbers the CLI must
refuse, an `--out` that is a file, user text with Rich markup in it, NaN in a task file, and
no more workers than tasks. Each test asserts what really happened (exit code, files on disk,
processes started)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tests.runner.fake_agent import PAGE, make_tasks, run_task
from tests.support.servers import serve_pages
from webfovea.cli.main import app
from webfovea.config import make_config
from webfovea.eval.taskfile import TaskFileError, load_task_file
from webfovea.runner.api import RunError, RunOptions, run_tasks
from webfovea.runner.supervisor import Policy
from webfovea.task import Task, TaskIdError, check_task_id

FAST = Policy(stall_s=6.0, launch_s=60.0, task_grace_s=20.0, poll_s=0.2, stop_grace_s=10.0)


def _opts(**kw: object) -> RunOptions:
    return RunOptions(
        model="fake",
        config=make_config(),
        task_timeout_s=20.0,
        show_progress=False,
        policy=FAST,
        task_fn=run_task,
        **kw,
    )  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "bad",
    [
        "tasks.json",
        "queue.sqlite",
        "summary.json",
        "run.json",
        "report.html",
        "runner.log.jsonl",
        "Summary.JSON",
        "queue.sqlite-wal",
        "a\n",
        "a\r",
        "a\tb",
    ],
)
def test_ids_colliding_with_run_files_or_with_control_characters_are_refused(bad: str) -> None:
    with pytest.raises(TaskIdError):
        check_task_id(bad)


def test_runner_refuses_a_reserved_id_before_anything_is_written(tmp_path: Path) -> None:
    tasks = [Task(task_id="summary.json", task="t", website="http://127.0.0.1:9/")]
    with pytest.raises(RunError, match="file the run writes"):
        run_tasks(tasks, tmp_path / "o", _opts())
    assert not (tmp_path / "o" / "queue.sqlite").exists()


def test_a_file_task_id_with_a_trailing_newline_is_refused(tmp_path: Path) -> None:
    f = tmp_path / "t.json"
    f.write_text(json.dumps([{"task_id": "a\n", "task": "t", "website": "http://x.test/"}]))
    with pytest.raises(TaskFileError, match="cannot be a folder name"):
        load_task_file(f)


@pytest.mark.parametrize("literal", ["NaN", "Infinity", "-Infinity"])
def test_nan_in_a_task_file_is_refused_at_load(tmp_path: Path, literal: str) -> None:
    f = tmp_path / "t.json"
    f.write_text(
        '[{"task_id": "a", "task": "t", "website": "http://x.test/", "answer": X}]'.replace("X", literal)
    )
    with pytest.raises(TaskFileError, match="'answer' is not a finite number"):
        load_task_file(f)
    f.write_text(
        '[{"task_id": "a", "task": "t", "website": "http://x.test/", "extra": {"w": [1, X]}}]'.replace(
            "X", literal
        )
    )
    with pytest.raises(TaskFileError, match="'extra.w.1'"):
        load_task_file(f)


@pytest.mark.parametrize(
    "args, words",
    [
        (["bench", "builtin", "--workers", "0"], "--workers"),
        (["bench", "builtin", "--limit", "-2"], "--limit"),
        (["bench", "builtin", "--port", "99999"], "--port"),
        (["bench", "builtin", "--frame-port", "-1"], "--frame-port"),
        (["run", "--task", "t", "--url", "http://x.test/", "--max-steps", "0"], "--max-steps"),
        (["ab", "--max-steps", "0"], "--max-steps"),
        (["serve", "--port", "70000"], "--port"),
    ],
)
def test_cli_numbers_are_validated(args: list[str], words: str) -> None:
    res = CliRunner().invoke(app, args)
    assert res.exit_code == 2, res.output
    assert f"Invalid value for '{words}'" in res.output, res.output
    assert res.exception is None or isinstance(res.exception, SystemExit)


def test_out_pointing_at_a_file_is_a_clear_error(tmp_path: Path) -> None:
    f = tmp_path / "taken"
    f.write_text("x")
    for args in (
        ["bench", "builtin", "--out", str(f)],
        ["run", "--task", "t", "--url", "http://x.test/", "--model", "openai:gpt-4o", "--out", str(f)],
    ):
        res = CliRunner().invoke(app, args)
        assert res.exit_code == 2, res.output
        assert "is a file, not a folder" in " ".join(res.output.split()), res.output
    assert f.read_text() == "x"
    tasks = [Task(task_id="a", task="t", website="http://127.0.0.1:9/")]
    with pytest.raises(RunError, match="is a file"):
        run_tasks(tasks, f, _opts())


def test_messages_print_user_text_literally(tmp_path: Path) -> None:
    weird = tmp_path / "[/bold]x[red]y.json"
    res = CliRunner().invoke(app, ["bench", str(weird)])
    assert res.exit_code == 2, res.output
    assert res.exception is None or isinstance(res.exception, SystemExit), repr(res.exception)
    assert "[/bold]x[red]y.json" in res.output.replace("\n", ""), res.output


def test_workers_are_capped_at_the_number_of_tasks(tmp_path: Path) -> None:
    with serve_pages({"/": PAGE}) as srv:
        tasks = make_tasks(srv.url("/"), {"a": None, "b": None})
        outcome = run_tasks(tasks, tmp_path, _opts(workers=6))
    assert outcome.complete and {r.status for r in outcome.results.values()} == {"finished"}
    log = [json.loads(line) for line in (tmp_path / "runner.log.jsonl").read_text().splitlines()]
    assert len([e for e in log if e["event"] == "worker_start"]) == 2
    assert json.loads((tmp_path / "run.json").read_text())["workers"] == 2


@pytest.mark.parametrize(
    "args",
    [
        ["bench", "builtin", "--model", "bogus"],
        ["run", "--task", "t", "--url", "http://x.test/", "--model", "bogus:x"],
        ["bench", "builtin", "--model", "openai:gpt-4o"],
    ],
)
def test_a_bad_model_spec_or_a_missing_key_stops_before_any_browser(tmp_path: Path, args: list[str]) -> None:
    out = tmp_path / "o"
    res = CliRunner().invoke(
        app, [*args, "--out", str(out)], env={"OPENAI_API_KEY": None, "OPENAI_BASE_URL": None}
    )
    assert res.exit_code == 2, res.output
    assert "model" in res.output.lower() or "OPENAI_API_KEY" in res.output, res.output
    assert not out.exists()  # nothing started, nothing written
