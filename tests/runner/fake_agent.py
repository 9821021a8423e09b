"""A stand-in for webfovea.agent.run_task (same signature, same result.json contract) whose
faults are chosen per task via `task.quirks["fault"]`, so the runner's recovery can be
tested exactly. It really drives the worker's browser: opens the task URL, clicks a button
(which fires an XHR), reads the page's answer.

Each task leaves a trajectory.jsonl line and a screenshot, like a real task folder.
Faults: "suicide" (SIGKILL its own worker mid-task), "kill_browser" (SIGKILL the worker's
Chromium mid-task), "hang" (await forever: the per-task limit must cut it), "block" (a
synchronous sleep: heartbeats stop, the parent must kill the worker), "slow" (a few steps
of 1 s each).
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from webfovea.browser.session import BrowserSession
from webfovea.config import HarnessConfig
from webfovea.record.capture import start_capture
from webfovea.record.schema import StepRecord, TaskResult
from webfovea.runner.worker import browser_pid_of
from webfovea.task import Task

STARTS = "fake_starts"


def _write(task_dir: Path, res: TaskResult) -> None:
    (task_dir / "result.json").write_text(res.model_dump_json(indent=2))


async def run_task(
    task: Task,
    task_dir: Path,
    *,
    model: Any,
    config: HarnessConfig,
    session: BrowserSession | None = None,
    cdp_url: str | None = None,
    model_options: dict | None = None,
    capture: bool = True,
    on_step: Callable[[StepRecord], None] | None = None,
) -> TaskResult:
    task_dir = Path(task_dir)
    task_dir.mkdir(parents=True, exist_ok=True)
    with (task_dir / STARTS).open("a") as f:
        f.write(f"{os.getpid()}\n")
    fault = (task.model_extra or {}).get("quirks", {}).get("fault")
    res = TaskResult(task_id=task.task_id, status="error", task=task.task, model=str(model))
    cap = None
    t0 = time.monotonic()
    try:
        assert session is not None
        page = await session.fresh_page()
        cap = await start_capture(page, task_dir) if capture else None
        await page.goto(task.website)
        await page.click("#go")
        await page.wait_for_selector("#out:not(:empty)", timeout=5000)
        # The task folder's usual files, so a test can check they all reach the output folder.
        await page.screenshot(path=str(task_dir / "step_000.png"))
        rec = StepRecord(step=0, raw_reply="click", cleaned_reply="click")
        with (task_dir / "trajectory.jsonl").open("a") as f:
            f.write(rec.model_dump_json() + "\n")
        if on_step:
            on_step(rec)
        if fault == "suicide":
            os.kill(os.getpid(), signal.SIGKILL)
        elif fault == "kill_browser":
            pid = browser_pid_of(os.getpid())
            assert pid, "no browser process found under the worker"
            os.kill(pid, signal.SIGKILL)
            await asyncio.sleep(0.5)
            await page.evaluate("1+1")  # raises: the browser is gone
        elif fault == "hang":
            await asyncio.sleep(3600)
        elif fault == "block":
            time.sleep(3600)
        elif fault == "slow":
            for i in range(1, int((task.model_extra or {}).get("quirks", {}).get("steps", 4))):
                await asyncio.sleep(1.0)
                if on_step:
                    on_step(StepRecord(step=i, raw_reply="wait", cleaned_reply="wait"))
        res.answer = await page.inner_text("#out")
        res.status = "finished"
        res.steps = 1
    except asyncio.CancelledError:
        res.status, res.error = "interrupted", "cancelled"
        raise
    finally:
        res.seconds = round(time.monotonic() - t0, 3)
        _write(task_dir, res)
        if cap is not None:
            try:
                await asyncio.wait_for(cap.finish(), 5)
            except BaseException:
                pass
    return res


def starts(task_dir: Path) -> int:
    p = Path(task_dir) / STARTS
    return len(p.read_text().splitlines()) if p.exists() else 0


PAGE = """<!doctype html><title>fake</title>
<button id=go onclick="go()">go</button><div id=out></div>
<script>
async function go() {
  try { await fetch('/api?country=VN&token=abc', {headers: {Authorization: 'Bearer s3cret'}}); } catch (e) {}
  document.getElementById('out').textContent = 'VN';
}
</script>"""


def make_tasks(url: str, faults: dict[str, str | None], **quirks: Any) -> list[Task]:
    return [
        Task(
            task_id=tid,
            task=f"find the country code ({tid})",
            website=url,
            answer="VN",
            quirks={"fault": f, **quirks} if f else dict(quirks),
        )
        for tid, f in faults.items()
    ]


def dump(obj: Any) -> str:
    return json.dumps(obj, indent=1, default=str)
