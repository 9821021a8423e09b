"""A small run folder for the viewer's tests: three tasks with marked screenshots, two judges
that disagree on one task, a capture with requests, and a manuals folder."""

from __future__ import annotations

import json
import shutil
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from tests.eval.synthetic import task, write_task, write_tasks_json
from webfovea.judge.compare import JUDGES_DIR
from webfovea.judge.records import JudgeRecord, JudgeSummary, write_judge_record, write_summary
from webfovea.view.server import make_server, url_of

STEPS = [
    {
        "thought": "The table is <b>below</b>",
        "action": {"name": "scroll", "args": {"direction": "down"}},
        "action_text": "scroll(down)",
        "feedback": "the page scrolled",
    },
    {
        "thought": "Pick Viet Nam",
        "action": {"name": "click", "args": {"start_box": [700, 400]}},
        "action_text": "click(700, 400)",
        "feedback": "the row opened",
        "point": [700.0, 400.0],
    },
]
# (task id, answer, status, rule's verdict, naveval's verdict)
TASKS = [
    ("cpi-vn", "3.4", "finished", True, True),
    ("gdp-th", "7.1", "finished", True, False),  # the judges disagree
    ("pop-la", None, "max_steps", False, False),
]
MANUAL = "# How to: Show CPI for Viet Nam\nStart at the site's page /stats.\n1. Click the row Viet Nam.\n"


def _judge(run: Path, method: str, verdicts: dict[str, bool]) -> None:
    out = run / JUDGES_DIR / method
    records = []
    for tid, verdict in verdicts.items():
        rec = JudgeRecord(
            task_id=tid, method=method, judge_model=method, verdict=verdict, reasoning=f"{method} on {tid}"
        )
        write_judge_record(out, tid, rec)
        records.append(rec)
    write_summary(out, JudgeSummary.of(records, method, method, "I", "webfovea"))


def build_run(run: Path) -> Path:
    tasks = [task(tid, answer) for tid, answer, *_ in TASKS]
    write_tasks_json(run, tasks)
    for t, (_, answer, status, *_) in zip(tasks, TASKS, strict=True):
        write_task(run, t, answer=answer, status=status, steps=STEPS)
    capture = {
        "requests": [
            {
                "url": "http://127.0.0.1:9/api/table?country=VN&indicator=cpi",
                "method": "GET",
                "resource_type": "fetch",
                "query_params": [["country", "VN"], ["indicator", "cpi"]],
                "headers": {"user-agent": "x"},
            }
        ],
        "navigations": [{"url": "http://127.0.0.1:9/cpi-vn"}],
    }
    (run / "cpi-vn" / "capture.json").write_text(json.dumps(capture), encoding="utf-8")
    _judge(run, "rule", {tid: rule for tid, _, _, rule, _ in TASKS})
    _judge(run, "naveval", {tid: nav for tid, _, _, _, nav in TASKS})
    shutil.copytree(run / JUDGES_DIR / "rule", run / "judge")  # `judge run` without --out: the same method
    manuals = run / "manuals"
    manuals.mkdir()
    (manuals / "cpi-vn.md").write_text(MANUAL, encoding="utf-8")
    (manuals / "gdp-th.md").write_text(MANUAL.replace("CPI", "GDP"), encoding="utf-8")
    (manuals / "needs_review.json").write_text(
        json.dumps([{"task_id": "gdp-th", "why": "check step 1", "tried": [], "manual": "gdp-th.md"}]),
        encoding="utf-8",
    )
    return run


@contextmanager
def serving(*runs: Path) -> Iterator[str]:
    """The viewer on a free loopback port, in a thread of the test process; yields its URL."""
    httpd, _ = make_server(list(runs))
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield url_of(httpd)
    finally:
        httpd.shutdown()
        httpd.server_close()
