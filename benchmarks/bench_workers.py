"""Throughput and memory of the runner: tasks per minute and peak memory per worker for
1, 2 and 4 workers on the built-in suite with the oracle model. Not a timed test.

    .venv/bin/python benchmarks/bench_workers.py [--tasks N] [--workers 1,2,4]

Memory is sampled once a second: for each worker, the PSS (or RSS when PSS is unreadable)
summed over the worker process and all its descendants (Playwright driver, Chromium and
its renderers). The peak over the run is reported per worker, and the largest of those.
"""

from __future__ import annotations

import argparse
import os
import tempfile
import threading
import time
from pathlib import Path

from webfovea.config import make_config
from webfovea.envs.serve import start_sites
from webfovea.envs.suite import load_builtin_suite
from webfovea.runner.api import RunOptions, run_tasks
from webfovea.runner.queue import TaskQueue


def _children() -> dict[int, list[int]]:
    out: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                ppid = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            out.setdefault(ppid, []).append(int(entry.name))
    return out


def _mem_kib(pid: int) -> int:
    try:
        for line in (Path("/proc") / str(pid) / "smaps_rollup").read_text().splitlines():
            if line.startswith("Pss:"):
                return int(line.split()[1])
    except OSError:
        pass
    try:
        for line in (Path("/proc") / str(pid) / "status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


def tree_mem_mib(root: int) -> float:
    kids = _children()
    stack, total = [root], 0
    while stack:
        pid = stack.pop()
        total += _mem_kib(pid)
        stack.extend(kids.get(pid, []))
    return total / 1024


def bench(n_workers: int, n_tasks: int | None) -> dict[str, float]:
    os.environ["WEBFOVEA_OFFLINE"] = "1"  # the proving ground is local: its workers' browsers run offline
    with start_sites() as sites, tempfile.TemporaryDirectory(prefix="bench-workers-") as tmp:
        tasks = load_builtin_suite(sites)[:n_tasks] if n_tasks else load_builtin_suite(sites)
        out = Path(tmp) / "run"
        peaks: dict[str, float] = {}
        stop = threading.Event()

        def sample() -> None:
            while not stop.wait(1.0):
                try:
                    rows = TaskQueue(out).workers()
                except Exception:
                    continue
                for r in rows:
                    if r["pid"]:
                        peaks[r["worker_id"]] = max(peaks.get(r["worker_id"], 0.0), tree_mem_mib(r["pid"]))

        t = threading.Thread(target=sample, daemon=True)
        t0 = time.monotonic()
        t.start()
        try:
            outcome = run_tasks(
                tasks, out, RunOptions(model="oracle", config=make_config(), workers=n_workers, show_progress=False)
            )
        finally:
            stop.set()
            t.join(5)
        secs = time.monotonic() - t0
        passed = sum(r.status == "finished" for r in outcome.results.values())
    return {
        "workers": n_workers, "tasks": len(tasks), "finished": passed, "seconds": secs,
        "tasks_per_min": len(tasks) / secs * 60, "peak_mib_max": max(peaks.values(), default=0.0),
        "peak_mib_mean": sum(peaks.values()) / len(peaks) if peaks else 0.0,
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tasks", type=int, default=None, help="first N tasks of the built-in suite (default: all)")
    ap.add_argument("--workers", default="1,2,4", help="comma-separated worker counts")
    args = ap.parse_args()
    rows = [bench(int(n), args.tasks) for n in args.workers.split(",")]
    print(f"{'workers':>7} {'tasks':>5} {'finished':>8} {'seconds':>8} {'tasks/min':>9} {'peak MiB/worker (max / mean)':>30}")
    for r in rows:
        print(
            f"{r['workers']:>7} {r['tasks']:>5} {r['finished']:>8} {r['seconds']:>8.1f} {r['tasks_per_min']:>9.2f}"
            f" {r['peak_mib_max']:>20.0f} / {r['peak_mib_mean']:.0f}"
        )


if __name__ == "__main__":
    main()
