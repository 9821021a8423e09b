"""`webfovea view` on a large run: the first page of 10,000 tasks, and a task whose capture.json
is 50 MB, timed over loopback HTTP against the real server (webfovea/view/server.py).

    PYTHONPATH=. .venv/bin/python benchmarks/bench_view.py [--tasks 10000] [--capture-mb 50] [--dir D]

Prints one JSON object: seconds from starting the server (the folder scan, the label file and
the judges' summaries read) to the first page's last byte, the first page's request alone, a
warm first page, a page deep in the list, a status-filtered page once the index is complete,
the large task's page — and whether capture.json was opened for it (an audit hook watches every
`open`) —, and its request evidence when asked for (that one reads the capture). The run is
written once into --dir (default a temporary folder) and reused when it is already there.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

from PIL import Image

from webfovea.judge.compare import JUDGES_DIR
from webfovea.view.server import make_server, url_of

BIG = "big-capture"


def _result(tid: str, status: str) -> str:
    return json.dumps(
        {
            "task_id": tid,
            "status": status,
            "answer": f"answer {tid}",
            "task": f"Find the value for {tid}",
            "website": "http://127.0.0.1:9/",
            "steps": 1,
            "seconds": 1.0,
        }
    )


def write_run(run: Path, tasks: int, capture_mb: int) -> None:
    if (run / "done").exists():
        return
    run.mkdir(parents=True, exist_ok=True)
    statuses = ("finished", "max_steps", "timeout")
    per_task, labels = {}, []
    for n in range(tasks):
        tid = f"task-{n:05d}"
        d = run / tid
        d.mkdir(exist_ok=True)
        (d / "result.json").write_text(_result(tid, statuses[n % 3]))
        # a trajectory the list must never read: large enough that reading 10,000 would show
        (d / "trajectory.jsonl").write_text(json.dumps({"step": 0, "raw_reply": "x" * 20_000}) + "\n")
        per_task[tid] = n % 2 == 0
        labels.append(
            json.dumps({"task_id": tid, "label": "success" if n % 5 else "failure", "labeller": "b"})
        )
    for method in ("rule", "naveval"):
        out = run / JUDGES_DIR / method
        out.mkdir(parents=True, exist_ok=True)
        verdicts = per_task if method == "rule" else {k: not v for k, v in per_task.items()}
        (out / "summary.json").write_text(json.dumps({"method": method, "per_task": verdicts}))
    (run / "labels.jsonl").write_text("\n".join(labels) + "\n")
    big = run / BIG
    big.mkdir(exist_ok=True)
    (big / "result.json").write_text(_result(BIG, "finished"))
    steps = []
    for i in range(5):
        Image.new("RGB", (1280, 720), (200, 210, 220 - i * 20)).save(big / f"step_{i:03d}.png")
        steps.append(
            json.dumps(
                {
                    "step": i,
                    "raw_reply": "Thought: t\nAction: scroll(down)",
                    "thought": "t",
                    "action": {"name": "scroll", "args": {"direction": "down"}},
                    "screenshot": f"step_{i:03d}.png",
                    "seconds": 1.0,
                }
            )
        )
    (big / "trajectory.jsonl").write_text("\n".join(steps) + "\n")
    one = {
        "url": "http://127.0.0.1:9/api/rows?page=1",
        "method": "GET",
        "resource_type": "fetch",
        "query_params": [["page", "1"]],
        "headers": {"user-agent": "x"},
        "body_json": {"pad": "y" * 900},
    }
    count = capture_mb * 1024 * 1024 // len(json.dumps(one))
    (big / "capture.json").write_text(json.dumps({"requests": [one] * count, "navigations": []}))
    (run / "done").write_text("")


def timed_get(url: str) -> tuple[float, int]:
    t = time.perf_counter()
    with urllib.request.urlopen(url, timeout=600) as r:
        body = r.read()
    return time.perf_counter() - t, len(body)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tasks", type=int, default=10_000)
    ap.add_argument("--capture-mb", type=int, default=50)
    ap.add_argument("--dir", type=Path, default=None)
    a = ap.parse_args()
    root = a.dir or Path(tempfile.mkdtemp(prefix="bench-view-"))
    run = root / "run"
    t = time.perf_counter()
    write_run(run, a.tasks, a.capture_mb)
    written = time.perf_counter() - t

    opened: list[str] = []
    sys.addaudithook(lambda ev, args: opened.append(str(args[0])) if ev == "open" and args else None)

    t = time.perf_counter()
    httpd, viewer = make_server([run])
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    url = url_of(httpd)
    first, size = timed_get(url + "run/0/")
    cold = time.perf_counter() - t
    trajectories_read = sum(1 for p in opened if p.endswith("trajectory.jsonl"))
    warm, _ = timed_get(url + "run/0/")
    deep, _ = timed_get(url + f"run/0/?page={a.tasks // 50}")
    t = time.perf_counter()
    viewer.runs[0].all_rows()
    index_wait = time.perf_counter() - t
    filtered, _ = timed_get(url + "run/0/?status=timeout&disagree=1")
    opened.clear()
    task, task_bytes = timed_get(url + f"run/0/task/{BIG}")
    capture_opened = any(p.endswith("capture.json") for p in opened)
    image, _ = timed_get(url + f"run/0/file/{BIG}/step_000.png")
    evidence, _ = timed_get(url + f"run/0/evidence/{BIG}")
    httpd.shutdown()
    print(
        json.dumps(
            {
                "tasks": a.tasks + 1,
                "capture_mb": round((run / BIG / "capture.json").stat().st_size / 2**20, 1),
                "run_written_s": round(written, 1),
                "first_page_cold_s": round(cold, 3),
                "first_page_request_s": round(first, 3),
                "first_page_bytes": size,
                "trajectories_read_for_first_page": trajectories_read,
                "first_page_warm_s": round(warm, 3),
                "last_page_s": round(deep, 3),
                "index_complete_after_s": round(index_wait, 3),
                "filtered_page_s": round(filtered, 3),
                "big_task_page_s": round(task, 3),
                "big_task_page_bytes": task_bytes,
                "capture_opened_for_task_page": capture_opened,
                "screenshot_s": round(image, 3),
                "request_evidence_on_demand_s": round(evidence, 3),
            },
            indent=1,
        )
    )


if __name__ == "__main__":
    main()
