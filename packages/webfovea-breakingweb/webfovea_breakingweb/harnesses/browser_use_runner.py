"""`webfovea bench breakingweb --harness browser-use`: each task through browser-use's own agent
loop (browser_use_driver.py, in browser-use's own venv), its model a loopback OpenAI-compatible
server (openai_loopback.py) whose replies come from the oracle reading what browser-use sent
(browser_use_oracle.py). The run folder is every run's: result.json per task with the task
session's id, scored after the run by the same backend evaluator (`webfovea_after_tasks`), and
`harness_steps.jsonl`, one line per request browser-use made.

browser-use cannot live in webfovea's venv (it pins anthropic<2, webfovea needs >=2.10): its
interpreter is `$WEBFOVEA_BROWSER_USE_PYTHON`, else the venv benchmarks/bench_peers.py installs
(`~/.cache/webfovea-peers/venv`, `WEBFOVEA_PEERS_DIR`); `ensure_browser_use` installs it there.
"""

from __future__ import annotations

import functools
import json
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Mapping
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from webfovea.record import read_result, write_result
from webfovea.record.schema import TaskResult
from webfovea.task import Task
from webfovea_breakingweb.harnesses.browser_use_oracle import BrowserUseOracle
from webfovea_breakingweb.harnesses.openai_loopback import LoopbackChat
from webfovea_breakingweb.harnesses.runner import MAX_STEPS, STEPS_FILE, HarnessMismatch
from webfovea_breakingweb.scoring import attach_states

BROWSER_USE = "browser-use==0.13.14"  # the version benchmarks/bench_peers.py measures
DRIVER = Path(__file__).with_name("browser_use_driver.py")
VIEWPORT = (1280, 720)
PROFILE = "harness-browser-use"


class BrowserUseMissing(RuntimeError):
    """browser-use's interpreter is not there or cannot import it."""


def browser_use_python() -> Path:
    """The interpreter that imports browser_use (the venv's, never ours)."""
    given = os.environ.get("WEBFOVEA_BROWSER_USE_PYTHON")
    peers = Path(os.environ.get("WEBFOVEA_PEERS_DIR") or Path.home() / ".cache" / "webfovea-peers")
    python = Path(given) if given else peers / "venv" / "bin" / "python"
    if not _finds_browser_use(python):
        raise BrowserUseMissing(
            f"browser-use is not importable by {python}: install it in its own venv "
            f"(python -m venv {python.parent.parent} && {python} -m pip install {BROWSER_USE}), or "
            "point WEBFOVEA_BROWSER_USE_PYTHON at an interpreter that has it (docs/breakingweb.md)"
        )
    return python


@functools.cache
def _finds_browser_use(python: Path) -> bool:
    # find_spec, not an import: importing browser_use takes seconds on a loaded machine
    probe = "import importlib.util, sys; sys.exit(importlib.util.find_spec('browser_use') is None)"
    return (
        python.exists()
        and subprocess.run([str(python), "-c", probe], capture_output=True, check=False).returncode == 0
    )


def ensure_browser_use() -> Path:
    """browser-use's interpreter, installing it into the peers venv first if it is missing."""
    try:
        return browser_use_python()
    except BrowserUseMissing:
        if os.environ.get("WEBFOVEA_BROWSER_USE_PYTHON"):
            raise
        _finds_browser_use.cache_clear()
    peers = Path(os.environ.get("WEBFOVEA_PEERS_DIR") or Path.home() / ".cache" / "webfovea-peers")
    subprocess.run([sys.executable, "-m", "venv", str(peers / "venv")], check=True)
    subprocess.run(
        [str(peers / "venv" / "bin" / "python"), "-m", "pip", "install", "-q", BROWSER_USE], check=True
    )
    return browser_use_python()


def run_tasks(tasks: list[Task], out_dir: Path, run: Mapping[str, Any], *, time_cap_s: float) -> bool:
    """Every task not already done (a resume keeps earlier results unless `fresh`); True."""
    from webfovea.browser.session import find_chrome
    from webfovea_breakingweb.gym.sites import sites_for, use_sites

    python = browser_use_python()
    if run.get("handle") is not None:
        use_sites(run["handle"])
    handle = sites_for(int(run.get("seed", 0)))
    chromium = os.environ.get("WEBFOVEA_BROWSER_USE_CHROMIUM") or find_chrome(headless=False)
    max_steps = int(run.get("max_steps") or MAX_STEPS)
    for task in tasks:
        task_dir = Path(out_dir) / task.task_id
        earlier = None if run.get("fresh") else read_result(task_dir)
        if earlier is not None:
            if earlier.profile != PROFILE:  # never mix two harnesses in one run
                raise HarnessMismatch(
                    f"{out_dir} holds results of another harness ({earlier.profile}); "
                    "give this run its own --out, or --fresh to set them aside"
                )
            continue
        task_dir.mkdir(parents=True, exist_ok=True)
        result = run_one(task, task_dir, handle, python, chromium, max_steps, time_cap_s)
        result.model = str(run.get("model") or "oracle")
        result.profile = PROFILE
        write_result(task_dir, result)
        # Scored now, not only after the run: browser-use's tasks take minutes each, and a run
        # cut short then keeps its verdicts (a resume keeps a result that holds its state).
        with handle.control() as control:
            attach_states(Path(out_dir), [task], control)
    return True


def run_one(  # noqa: PLR0913 - the task, where it writes, where browser-use lives, the caps
    task: Task, task_dir: Path, handle: Any, python: Path, chromium: str, max_steps: int, time_cap_s: float
) -> TaskResult:
    started, t0 = datetime.now(UTC).isoformat(), time.monotonic()
    result = TaskResult(
        task_id=task.task_id, status="error", task=task.task, website=task.website, started_at=started
    )
    if task.session is None:
        raise ValueError(f"{task.task_id} is not a stateful BreakingWeb task")
    live = _LivePage()
    oracle = BrowserUseOracle(list((task.model_extra or {}).get("plan") or []), live.page)
    with handle.control() as control:
        body = control.create(task.task_id, task.session.seed, task.session.variant)
    result.session_id = str(body["session_id"])
    cookie = {"name": body["cookie"]["name"], "value": body["cookie"]["value"], "url": handle.main_url}
    outcome: dict[str, Any] = {}
    try:
        with LoopbackChat(oracle.reply, on_stop=live.close) as chat:
            job = {
                "chromium": chromium, "url": task.website, "cookie": cookie, "task": task.task,
                "base_url": chat.base_url, "max_steps": max_steps, "viewport": list(VIEWPORT),
                "time_cap_s": time_cap_s,
            }  # fmt: skip
            outcome = _drive(python, job, live, task_dir, time_cap_s + 120)
        result.steps = int(outcome.get("steps") or 0)
        result.status = outcome.get("status") or "error"
        result.error = outcome.get("error") or (chat.errors[0] if chat.errors else None)
        result.answer = outcome.get("answer") if outcome.get("success") else None
    except Exception as e:  # noqa: BLE001 - the result must say what happened
        result.status, result.error = "error", f"{type(e).__name__}: {e}"
    finally:
        _write_steps(task_dir, oracle.log, outcome.get("actions") or [])
        result.seconds = round(time.monotonic() - t0, 3)
        result.ended_at = datetime.now(UTC).isoformat()
    return result


class _LivePage:
    """The oracle's read-only view of browser-use's browser (a CDP connection made on first use,
    in the chat server's thread, where every request is answered)."""

    def __init__(self) -> None:
        self.cdp_url: str | None = None
        self.ready = threading.Event()
        self._pw: Any = None
        self._browser: Any = None

    def page(self, url: str) -> Any:
        if not self.ready.wait(timeout=60) or self.cdp_url is None:
            raise LookupError("browser-use's browser did not say where it listens")
        if self._browser is None:
            from playwright.sync_api import sync_playwright

            self._pw = sync_playwright().start()
            self._browser = self._pw.chromium.connect_over_cdp(self.cdp_url)
        pages = [p for c in self._browser.contexts for p in c.pages]
        same = [p for p in pages if p.url == url] or [p for p in pages if p.url.startswith("http")]
        if not same:
            raise LookupError(f"no page at {url!r} in browser-use's browser")
        return same[-1]

    def close(self) -> None:
        if self._pw is not None:
            self._pw.stop()  # disconnects; browser-use's browser is its own to close
        self._pw = self._browser = None


def _drive(
    python: Path, job: dict[str, Any], live: _LivePage, task_dir: Path, timeout_s: float
) -> dict[str, Any]:
    """Run the driver; its last `result` line (an error outcome when there is none)."""
    env = {**os.environ, "PYTHONPATH": ""}  # browser-use's venv only: none of our packages
    with (task_dir / "browser_use.log").open("w", encoding="utf-8") as log:
        proc = subprocess.Popen(
            [str(python), str(DRIVER), json.dumps(job)],
            stdout=subprocess.PIPE,
            stderr=log,
            text=True,
            env=env,
            start_new_session=True,  # its own process group: a kill takes browser-use's browser too
        )
        timer = threading.Timer(timeout_s, os.killpg, (proc.pid, signal.SIGKILL))
        timer.start()
        outcome: dict[str, Any] = {"status": "error", "error": "browser-use ended without a result"}
        try:
            assert proc.stdout is not None
            for line in proc.stdout:
                try:
                    msg = json.loads(line)
                except json.JSONDecodeError:
                    log.write(line)
                    continue
                if "cdp_url" in msg:
                    live.cdp_url = str(msg["cdp_url"])
                    live.ready.set()
                elif "result" in msg:
                    outcome = msg["result"]
        finally:
            timer.cancel()
            proc.wait()
        if proc.returncode not in (0, None) and outcome.get("error") is None and "status" not in outcome:
            outcome["error"] = f"browser-use exited with {proc.returncode}"
    return outcome


def _write_steps(task_dir: Path, oracle_log: list[dict[str, Any]], actions: list[dict[str, Any]]) -> None:
    with (task_dir / STEPS_FILE).open("w", encoding="utf-8") as out:
        for n, line in enumerate(oracle_log, 1):
            ran = actions[n] if n < len(actions) else None  # actions[0]: the opening navigate
            out.write(json.dumps({"step": n, **line, "browser_use_ran": ran}) + "\n")
