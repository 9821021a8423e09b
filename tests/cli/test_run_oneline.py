"""`webfovea run "TASK" --url URL --model SPEC`: the one-line agent on the command line, and
`--headed` reaching the browser launch of `run` and of `bench`'s workers (a headless shell named
as the browser is refused for a headed launch: proof the window was asked for)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tests.support.servers import serve_pages
from webfovea.browser.session import find_chrome, is_headless_shell
from webfovea.cli.main import app

PAGE = """<html><body style="margin:0"><button style="position:absolute;left:800px;top:600px;width:200px;height:80px"
 onclick="fetch('/hit')">Go</button></body></html>"""


def _script(tmp_path: Path) -> Path:
    script = tmp_path / "steps.txt"
    script.write_text(
        "Thought: press it\\nAction: click(start_box='<|box_start|>(675,480)<|box_end|>')\n"
        "Action: finished(content='pressed')\n"
    )
    return script


def test_run_takes_the_task_as_its_argument(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)  # no --out: a new folder under ./runs/browse/
    with serve_pages({"/": PAGE, "/hit": "ok"}) as site:
        res = CliRunner().invoke(
            app, ["run", "Press Go", "--url", site.url("/"), "--model", f"script:{_script(tmp_path)}"]
        )
        assert "/hit" in site.log
    assert res.exit_code == 0, res.output[-2000:]
    assert "status: finished  answer: 'pressed'  steps: 2" in res.output and "tokens: 0" in res.output
    (folder,) = (tmp_path / "runs" / "browse").iterdir()
    assert folder.name.endswith("-press-go") and f"written: runs/browse/{folder.name}" in res.output
    result = json.loads((folder / "result.json").read_text())
    assert result["task"] == "Press Go" and result["answer"] == "pressed"
    twice = CliRunner().invoke(app, ["run", "A", "--task", "B", "--url", "http://127.0.0.1:9/"])
    assert twice.exit_code == 2 and "give the task once" in twice.output


@pytest.fixture
def headless_shell(monkeypatch: pytest.MonkeyPatch) -> str:
    exe = find_chrome()
    if not is_headless_shell(exe):
        pytest.skip("no headless shell installed (scripts/setup installs Debian's chromium-headless-shell)")
    monkeypatch.setenv("WEBFOVEA_CHROME", exe)
    return exe


def test_headed_reaches_the_launch_of_run(tmp_path: Path, headless_shell: str) -> None:
    res = CliRunner().invoke(
        app,
        ["run", "Press Go", "--url", "http://127.0.0.1:9/", "--model", f"script:{_script(tmp_path)}",
         "--headed", "--out", str(tmp_path / "t")],
    )  # fmt: skip
    assert res.exit_code == 1
    result = json.loads((tmp_path / "t" / "result.json").read_text())
    assert result["status"] == "error" and "cannot show a window" in result["error"]


async def test_headed_reaches_the_launch_of_a_bench_worker(tmp_path: Path, headless_shell: str) -> None:
    from webfovea.config import make_config
    from webfovea.documents import ocr
    from webfovea.runner.worker import BrowserUnavailable, Worker, WorkerSpec

    spec = WorkerSpec("w0", "oracle", make_config(), work_dir=str(tmp_path), headed=True, browser_attempts=1)
    try:
        worker = Worker(spec)
        with pytest.raises(BrowserUnavailable, match="cannot show a window"):
            await worker._open_browser()
    finally:
        ocr.read_through(None)  # a worker sends its OCR to its driver; this process reads again
    headless = Worker(WorkerSpec("w1", "oracle", make_config(), work_dir=str(tmp_path), browser_attempts=1))
    try:
        session = await headless._open_browser()  # the same shell serves a headless launch
        await session.close()
    finally:
        ocr.read_through(None)
