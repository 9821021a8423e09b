"""Honest endings: every way a page or a model can stall a task ends it quickly, under its real name."""

import json
import os
import signal
import subprocess
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from tests.models.fake_llm import Answer, fake_llm, openai_ok
from tests.support.scripted import FINISH, ScriptedModel
from tests.support.servers import serve_pages
from webfovea.agent import run_task
from webfovea.browser.session import HOME_PREFIX, OWNER_FILE, _owner_stamp, sweep_stale_homes
from webfovea.config import make_config
from webfovea.task import Task

BUTTON = '<button id=b style="position:absolute;left:100px;top:100px;width:300px;height:80px" onclick="{js}">go</button>'
CLICK = "Thought: t\nAction: click(start_box='<|box_start|>(187,105)<|box_end|>')"  # (250, 140) CSS
FAST = {"unresponsive_s": 2.0, "max_seconds": 120}


class Scripted(ScriptedModel):
    def __init__(self, replies: list[str]) -> None:
        super().__init__(replies, then=FINISH)


def page(js, extra=""):
    return (
        f"<html><body style='margin:0'><input id=q style='position:absolute;left:100px;top:300px'>"
        f"{BUTTON.format(js=js)}{extra}</body></html>"
    )


async def run(tmp_path, pages, replies, **cfg):
    with serve_pages(pages) as site:
        task = Task(task_id="t", task="x", website=site.url("/"))
        t0 = time.monotonic()
        res = await run_task(
            task, tmp_path / "t", model=Scripted(replies), config=make_config(**{**FAST, **cfg})
        )
        return res, time.monotonic() - t0, site.log


async def test_an_endless_script_ends_the_task_quickly_as_page_unresponsive(tmp_path):
    res, seconds, _ = await run(tmp_path, {"/": page("for(;;){}")}, [CLICK])
    assert res.status == "page_unresponsive" and "stopped responding" in res.error
    assert seconds < 30
    assert json.loads((tmp_path / "t" / "result.json").read_text())["status"] == "page_unresponsive"


async def test_a_dialog_storm_ends_the_task_as_page_unresponsive(tmp_path):
    res, seconds, _ = await run(tmp_path, {"/": page("for(;;){alert('again')}")}, [CLICK])
    assert res.status == "page_unresponsive" and seconds < 30


async def test_a_confirm_is_dismissed_and_its_text_fed_back(tmp_path):
    js = "fetch(confirm('Delete everything?') ? '/deleted' : '/kept')"
    res, _, log = await run(tmp_path, {"/": page(js), "/kept": "ok", "/deleted": "ok"}, [CLICK])
    assert "/kept" in log and "/deleted" not in log
    steps = [json.loads(x) for x in (tmp_path / "t" / "trajectory.jsonl").read_text().splitlines()]
    assert 'confirm dialog: "Delete everything?"; it was dismissed' in steps[0]["feedback"]
    assert res.status == "finished"


async def test_type_is_capped_with_a_note(tmp_path):
    fill = (
        "Thought: t\nAction: fill(start_box='<|box_start|>(100,232)<|box_end|>', content='"
        + "x" * 5000
        + "')"
    )
    with serve_pages({"/": page("")}) as site:
        task = Task(task_id="t", task="x", website=site.url("/"))
        values = []

        class Reader(Scripted):
            async def next_reply(self, inp):
                if not self.replies:
                    values.append(await pw_page.input_value("#q"))
                return await super().next_reply(inp)

        from webfovea.browser.session import BrowserSession

        session = await BrowserSession.launch()
        try:
            pw_page = None
            orig = session.fresh_page

            async def fresh():
                nonlocal pw_page
                pw_page = await orig()
                return pw_page

            session.fresh_page = fresh
            t0 = time.monotonic()
            await run_task(
                task,
                tmp_path / "t",
                model=Reader([fill]),
                config=make_config(max_type_chars=40),
                session=session,
            )
            assert time.monotonic() - t0 < 30
        finally:
            await session.close()
    assert values == ["x" * 40]
    steps = [json.loads(x) for x in (tmp_path / "t" / "trajectory.jsonl").read_text().splitlines()]
    assert "Only the first 40 of 5,000 characters were typed" in steps[0]["feedback"]


async def test_empty_model_replies_are_a_model_error_with_back_off(tmp_path):
    with serve_pages({"/": page("")}) as site, fake_llm([], default=openai_ok(None)) as llm:
        task = Task(task_id="t", task="x", website=site.url("/"))
        res = await run_task(
            task, tmp_path / "t", model="openai:m", config=make_config(), base_url=llm.base_url
        )
        gaps = [b.t - a.t for a, b in zip(llm.received, llm.received[1:], strict=False)]
    assert res.status == "model_error" and "empty reply 3 times" in res.error
    assert llm.attempts == 3 and all(g >= 1.5 for g in gaps), gaps  # backed off, not 80 calls in 10 s


class _Files(BaseHTTPRequestHandler):
    sent: dict[str, int] = {}
    sizes = {"/small.csv": 10_000, "/big.bin": 8 * 1024 * 1024, "/third.csv": 10_000}

    def do_GET(self):  # noqa: N802
        if self.path == "/":
            links = "".join(f"<a id=d{i} href='{p}' download>{p}</a><br>" for i, p in enumerate(self.sizes))
            body = (
                f"<html><body>{links}<script>let i = 0; for (const a of document.querySelectorAll('a'))"
                " setTimeout(() => a.click(), 300 * ++i);</script></body></html>"
            ).encode()
            self.send_response(200)
            self.send_header("Content-Type", "text/html")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
            return
        size = self.sizes[self.path]
        self.send_response(200)
        self.send_header("Content-Type", "application/octet-stream")
        self.send_header("Content-Disposition", f"attachment; filename={self.path[1:]}")
        self.send_header("Content-Length", str(size))
        self.end_headers()
        sent = 0
        try:
            while sent < size:
                chunk = min(65536, size - sent)
                self.wfile.write(b"x" * chunk)
                sent += chunk
                time.sleep(0.01)  # ~6 MB/s: the cap has time to act
        except OSError:
            pass
        self.sent[self.path] = sent

    def log_message(self, *a):
        pass


async def test_downloads_are_capped_in_size_and_count_and_kept_in_the_task_folder(tmp_path):
    srv = ThreadingHTTPServer(("127.0.0.1", 0), _Files)
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    try:
        task = Task(task_id="t", task="x", website=f"http://127.0.0.1:{srv.server_address[1]}/")
        wait = "Thought: t\nAction: wait()"
        # The page starts a download every 300 ms; on a loaded machine three waits were not
        # always enough for all three to be reported, so wait more (the notes are what counts).
        res = await run_task(
            task,
            tmp_path / "t",
            model=Scripted([wait] * 6),
            config=make_config(max_downloads=2, max_download_mb=1),
        )
    finally:
        srv.shutdown()
    kept = sorted(p.name for p in (tmp_path / "t" / "downloads").iterdir())
    # small.csv is text: the document view opened it, and keeps what it showed beside it.
    assert kept == ["01-small.csv", "01-small.csv.view.html"] and res.status == "finished"
    assert _Files.sent["/big.bin"] < _Files.sizes["/big.bin"]  # the server saw the big one cut off
    feedback = " ".join(
        json.loads(x)["feedback"] for x in (tmp_path / "t" / "trajectory.jsonl").read_text().splitlines()
    )
    assert '("big.bin") was stopped: larger than 1 MB' in feedback
    assert '("third.csv") was stopped: more than 2 downloads' in feedback


def test_sigterm_writes_result_json_like_ctrl_c(tmp_path):
    with serve_pages({"/": page("")}) as site, fake_llm([], default=Answer(hang_s=60, body={})) as llm:
        proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "webfovea.cli",
                "run",
                "--task",
                "x",
                "--url",
                site.url("/"),
                "--model",
                "openai:m",
                "--base-url",
                llm.base_url,
                "--out",
                str(tmp_path / "t"),
            ],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        deadline = time.monotonic() + 60
        while not llm.received and time.monotonic() < deadline:  # the task is running: the model was asked
            time.sleep(0.1)
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=60)
    assert proc.returncode == 143, err
    assert json.loads((tmp_path / "t" / "result.json").read_text())["status"] == "interrupted"


def test_browser_folders_of_a_killed_process_are_swept():
    import shutil
    import tempfile
    from pathlib import Path

    tmp_path = Path(tempfile.mkdtemp(prefix="wf"))  # short: Chromium's sockets live under TMPDIR
    try:
        _sweep_after_kill(tmp_path)
    finally:
        shutil.rmtree(tmp_path, ignore_errors=True)


def _sweep_after_kill(tmp_path):
    code = (
        "import asyncio, sys\nfrom webfovea.browser.session import BrowserSession\n"
        "async def m():\n s = await BrowserSession.launch()\n print(s._home.name, flush=True)\n"
        " await asyncio.sleep(60)\nasyncio.run(m())"
    )
    proc = subprocess.Popen(
        [sys.executable, "-c", code],
        stdout=subprocess.PIPE,
        text=True,
        env={**os.environ, "TMPDIR": str(tmp_path)},
    )
    home = proc.stdout.readline().strip()
    assert home.startswith(str(tmp_path / HOME_PREFIX))
    assert sweep_stale_homes(tmp_path) == []  # its owner is alive: kept
    proc.kill()
    proc.wait(10)
    time.sleep(1)
    alive = tmp_path / (HOME_PREFIX + "mine")
    alive.mkdir()
    (alive / OWNER_FILE).write_text(_owner_stamp(os.getpid()))
    assert [str(p) for p in sweep_stale_homes(tmp_path)] == [home]
    assert not os.path.exists(home) and alive.exists()
