"""`bench breakingweb --harness human` under Xvfb, with a scripted person attached to the headed
browser over CDP (the endpoint the run writes to human_browser.json): two tasks (a base task and
its official variant), each taken cold and then warm after the backend reset. The person walks
the task's plan on the app's window (clicks), presses a key and reloads once (a key press and a
navigation), and ends in the task window; on the variant's cold attempt they give up at once
(Infeasible). The backend evaluator scores every attempt; time and raw events are recorded."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from webfovea.browser.session import BrowserNotFound, find_chrome, is_headless_shell
from webfovea_breakingweb.gym.plan_steps import run_step
from webfovea_breakingweb.gym.plan_walker import run_plan
from webfovea_breakingweb.people.attempts import read_attempts
from webfovea_breakingweb.report import build_report
from webfovea_breakingweb.tasks import find_task


def _full_chromium() -> bool:
    try:
        return not is_headless_shell(find_chrome(headless=False))
    except BrowserNotFound:
        return False


pytestmark = [
    pytest.mark.skipif(
        shutil.which("xvfb-run") is None, reason="Xvfb is not installed (scripts/setup installs it)"
    ),
    pytest.mark.skipif(not _full_chromium(), reason="no full Chromium for a headed window"),
]

BASE = "req-create-01"


def _pages(browser: Any) -> tuple[Any, Any, dict[str, Any]] | None:
    """(task window, app window, what the task window shows), once both are up."""
    panel = app = shown = None
    for ctx in browser.contexts:
        for page in ctx.pages:
            try:
                data = page.evaluate("() => document.body && document.body.dataset.bw")
            except Exception:  # noqa: BLE001 - a page navigating right now
                continue
            if data:
                panel, shown = page, json.loads(data)
            elif page.url.startswith("http"):
                app = page
    return (panel, app, shown) if panel is not None and app is not None and shown else None


def _person(cdp_url: str, plan: list[dict[str, Any]], proc: subprocess.Popen[str]) -> list[tuple[int, str]]:
    """Take every attempt the run shows until it ends; the (task, attempt) pairs taken."""
    from playwright.sync_api import sync_playwright

    taken: list[tuple[int, str]] = []
    with sync_playwright() as pw:
        browser = pw.chromium.connect_over_cdp(cdp_url)
        while proc.poll() is None and len(taken) < 4:
            found = _pages(browser)
            if found is None or (found[2]["index"], found[2]["attempt"]) in taken:
                time.sleep(0.2)
                continue
            panel, app, shown = found
            which = (shown["index"], shown["attempt"])
            if shown["index"] == 2 and shown["attempt"] == "cold":  # the variant (ids sort after their base)
                panel.click("#infeasible")  # gives up without touching the app
            else:
                app.reload()
                app.wait_for_load_state("load")
                try:
                    run_plan(app, plan, lambda step: run_step(app, step))  # noqa: B023 - run now
                except Exception:  # noqa: BLE001 - a person carries on when a step fails
                    pass
                app.keyboard.press("Shift")
                panel.fill("#answer", "submitted")
                panel.click("#done")
            taken.append(which)
        browser.close()
    return taken


def test_a_person_takes_each_task_cold_then_warm(tmp_path: Path) -> None:
    out = tmp_path / "people"
    env = {**os.environ}
    cmd = [
        "xvfb-run",
        "-a",
        sys.executable,
        "-m",
        "webfovea.cli",
        "bench",
        "breakingweb",
        "--pairing",
        "official",
        "--apps",
        "requests",
        "--limit",
        "1",
        "--harness",
        "human",
        "--time-cap",
        "90",
        "--out",
        str(out),
    ]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env)
    try:
        endpoint = out / "human_browser.json"
        deadline = time.monotonic() + 240
        while not endpoint.exists() and proc.poll() is None and time.monotonic() < deadline:
            time.sleep(0.2)
        assert endpoint.exists(), (
            proc.communicate(timeout=30)[0][-3000:] if proc.poll() is not None else "no endpoint"
        )
        st = find_task(42, BASE)
        assert st is not None
        taken = _person(json.loads(endpoint.read_text())["cdp_url"], list(st.plan), proc)
        output = proc.communicate(timeout=240)[0]
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 0, output[-3000:]
    assert "the rows above are the cold attempts" in output  # the end-of-run table says so
    variant = next(p.name for p in out.iterdir() if p.name.startswith(f"{BASE}--"))
    assert taken == [(1, "cold"), (1, "warm"), (2, "cold"), (2, "warm")]

    clean = read_attempts(out / BASE)
    assert clean is not None and clean.family is None
    cold, warm = clean.attempts
    # the plan done on the clean app: the backend evaluator passes both attempts
    assert (cold.ending, cold.passed, warm.ending, warm.passed) == ("done", True, "done", True)
    assert cold.answer == "submitted" and cold.seconds > 0 and warm.seconds > 0
    for a in (cold, warm):  # the plan's clicks, the one key press, the reload (and the app's own routes)
        assert a.events.clicks >= 2 and a.events.keys == 1 and a.events.navigations >= 1, a.events
    under = read_attempts(out / variant)
    assert under is not None and under.family
    gave_up, again = under.attempts
    # gave up at once: nothing stored, nothing clicked; the reset gave the warm attempt fresh state
    assert (gave_up.ending, gave_up.passed, gave_up.events.total) == ("infeasible", False, 0)
    assert again.ending == "done" and again.events.clicks >= 2

    summary = json.loads((out / "summary.json").read_text())
    assert summary["meta"]["model"] == "human" and summary["meta"]["harness"] == "human"
    rows = summary["per_task"]  # result.json is the cold attempt, scored by the run as any run
    assert rows[BASE]["passed"] is True and rows[variant]["passed"] is False
    result = json.loads((out / BASE / "result.json").read_text())
    assert result["state"]["passed"] and result["profile"] == "harness-human"
    # the report over runs reads the people's run: Table 5 from the attempts just recorded
    t5 = build_report([str(out)])["table5"]
    got = {(r["condition"], r["attempt"]): (r["n"], r["pass"]) for r in t5["rows"]}
    assert got[("clean", "cold")] == (1, 1.0) and got[("intervention", "cold")] == (1, 0.0)
    assert got[("clean", "warm")] == (1, 1.0) and got[("intervention", "warm")] == (1, float(again.passed))
