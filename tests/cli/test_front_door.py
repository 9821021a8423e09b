"""`webfovea run` as a newcomer meets it, without an API key: a suite's task with the oracle
(the default model), any page with `script:FILE`, a clear word when the oracle has no plan,
and `webfovea report` on the folder `run` wrote. Real subprocesses, real Chromium."""

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tests.support.servers import serve_pages
from webfovea.cli.main import app

PAGE = """<html><body style="margin:0"><button style="position:absolute;left:800px;top:600px;width:200px;height:80px"
 onclick="fetch('/hit')">Go</button></body></html>"""


def cli(*args: str, cwd: Path | None = None, timeout: int = 300) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "webfovea.cli", *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        cwd=cwd,
        env={**os.environ, "COLUMNS": "250"},
    )


def test_run_a_suite_task_with_the_oracle_then_report_its_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "one"
    res = cli("run", "--suite-task", "builtin:stats-select-01-vn", "--out", str(out))
    assert res.returncode == 0, res.stdout[-2000:] + res.stderr[-2000:]
    result = json.loads((out / "result.json").read_text())
    assert result["status"] == "finished" and result["answer"] == "-1.1"
    assert result["task_id"] == "stats-select-01-vn"
    assert "passed (expected '-1.1')" in res.stdout
    # The folder `run` wrote is one task folder: the report shows that task, from a relative path too.
    # The command itself once; the relative paths through the same command in this process.
    for arg, cwd in ((str(out), None), ("one", tmp_path), (".", out)):
        (out / "report.html").unlink(missing_ok=True)
        if cwd is None:
            rep = cli("report", arg)
            assert rep.returncode == 0, rep.stderr
        else:
            monkeypatch.chdir(cwd)
            inproc = CliRunner().invoke(app, ["report", arg])
            assert inproc.exit_code == 0, inproc.output
        page = (out / "report.html").read_text()
        assert "Passed 0/1" in page and "Passed 0/0" not in page
        assert 'data-task-id="one"' in page and "ONE TASK" in page
        assert "-1.1" in page and len(re.findall(r'<img[^>]+alt="step \d+ screenshot"', page)) >= 2


def test_the_oracle_on_a_bare_task_and_url_says_what_to_do(tmp_path: Path) -> None:
    res = cli("run", "--task", "press go", "--url", "http://127.0.0.1:9/", "--out", str(tmp_path / "t"))
    assert res.returncode == 2
    text = " ".join(res.stderr.split())
    assert "--suite-task builtin:" in text and "script:FILE" in text and "openai:MODEL" in text
    assert not (tmp_path / "t").exists()  # refused before any browser started
    res = cli("run", "--suite-task", "builtin:no-such-task", "--out", str(tmp_path / "u"))
    assert res.returncode == 2 and "has no task 'no-such-task'" in " ".join(res.stderr.split())


def test_script_model_drives_any_page_without_a_key(tmp_path: Path) -> None:
    script = tmp_path / "steps.txt"
    script.write_text(
        "# press the button, then answer\n"
        "Thought: the button is in the middle\\nAction: click(start_box='<|box_start|>(675,480)<|box_end|>')\n"
        "\n"
        "Action: finished(content='ok')\n"
    )
    with serve_pages({"/": PAGE, "/hit": "ok"}) as site:
        res = cli(
            "run", "--task", "press go", "--url", site.url("/"), "--model", f"script:{script}",
            "--out", str(tmp_path / "t"),
        )  # fmt: skip
        assert "/hit" in site.log
    assert res.returncode == 0, res.stdout[-2000:] + res.stderr[-2000:]
    result = json.loads((tmp_path / "t" / "result.json").read_text())
    assert result["status"] == "finished" and result["answer"] == "ok" and result["steps"] == 2


def test_script_model_errors_name_the_file(tmp_path: Path) -> None:
    missing = tmp_path / "nope.txt"
    res = cli("run", "--task", "x", "--url", "http://127.0.0.1:9/", "--model", f"script:{missing}")
    assert res.returncode == 2 and f"{missing} does not exist" in "".join(res.stderr.split("\n"))
    empty = tmp_path / "empty.txt"
    empty.write_text("# nothing yet\n\n")
    res = cli("run", "--task", "x", "--url", "http://127.0.0.1:9/", "--model", f"script:{empty}")
    assert res.returncode == 2 and "holds no reply" in " ".join(res.stderr.split())


def test_bench_says_on_the_terminal_when_the_oracle_has_no_plan(tmp_path: Path) -> None:
    tasks = tmp_path / "tasks.json"
    tasks.write_text(
        json.dumps(
            [{"task_id": "free-1", "task": "What is shown?", "website": "http://proving-ground/stats"}]
        )
    )
    res = cli("bench", str(tasks), "--out", str(tmp_path / "run"))
    assert res.returncode == 0, res.stdout[-2000:] + res.stderr[-2000:]
    said = " ".join(res.stderr.split())
    assert "model_error: free-1: the oracle has no plan for task 'free-1'" in said
    result = json.loads((tmp_path / "run" / "free-1" / "result.json").read_text())
    assert result["status"] == "model_error" and result["answer"] is None
