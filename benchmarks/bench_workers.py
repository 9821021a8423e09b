"""Throughput and memory of the runner: tasks per minute and peak memory per worker for
1, 2 and 4 workers on the built-in suite with the oracle model. Not a timed test.

    .venv/bin/python benchmarks/bench_workers.py [--tasks N] [--workers 1,2,4] [--chrome-args FLAGS]

What is counted: once a second, for each worker, the PSS (/proc/PID/smaps_rollup: shared pages
split among the processes that map them) summed over the worker's whole process tree: the
worker's Python process, the Playwright node driver it starts, and Chromium (browser, GPU,
network/storage/other utility processes, zygotes, every renderer, crashpad). The driver of the
run (this process) and the sites' server are not counted. A worker's peak is the largest such
sum over the run; the table reports the largest and the mean of the workers' peaks, and the
private memory (USS: pages no other process maps) at the same samples, which moves less with
how many other Chromiums run on the machine (only through code pages no other process maps).
Every run starts with an empty OCR cache (the answer check's Tesseract reads count, as in a
first run on new pages). The peaks are of the samples taken while all the workers ran: once one
has left, the code pages it shared count in full to the others ("any sample" says how much).
Below the table: each role's share at the sample where the worst worker peaked.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from webfovea.browser.session import EXTRA_ARGS_ENV, find_chrome  # noqa: E402
from webfovea.config import make_config  # noqa: E402
from webfovea.documents.ocr_cache import ENV as OCR_CACHE_ENV  # noqa: E402
from webfovea.runner.api import RunOptions, run_tasks  # noqa: E402
from webfovea.runner.memory import Breakdown, tree_breakdown  # noqa: E402
from webfovea.runner.procs import tree_memory_mib  # noqa: E402
from webfovea.runner.queue import TaskQueue  # noqa: E402
from webfovea_proving_ground.serve import start_sites  # noqa: E402
from webfovea_proving_ground.suites.builtin import load_builtin_suite  # noqa: E402


def tree_mem_mib(root: int) -> float:
    """PSS of root and all its descendants, in MiB (bench_memory.py uses it for a browser tree)."""
    return tree_memory_mib(root)


def bench(n_workers: int, n_tasks: int | None) -> dict[str, Any]:
    os.environ["WEBFOVEA_OFFLINE"] = "1"  # the proving ground is local: its workers' browsers run offline
    with start_sites() as sites, tempfile.TemporaryDirectory(prefix="bench-workers-") as tmp:
        # An empty OCR cache each run: with the user's (warm from an earlier run) the answer
        # check's Tesseract reads, and their memory, would not happen at all.
        os.environ[OCR_CACHE_ENV] = str(Path(tmp) / "ocr")
        tasks = load_builtin_suite(sites)[:n_tasks] if n_tasks else load_builtin_suite(sites)
        out = Path(tmp) / "run"
        peaks: dict[str, Breakdown] = {}  # every sample
        peaks_full: dict[str, Breakdown] = {}  # while all the workers ran
        by_task: dict[str, tuple[float, float]] = {}  # task → (worker tree PSS, Python PSS) at its peak
        stop = threading.Event()

        def sample() -> None:
            while not stop.wait(1.0):
                try:
                    rows = TaskQueue(out).workers()
                except Exception:
                    continue
                alive = [r for r in rows if r["pid"] and Path(f"/proc/{r['pid']}").exists()]
                # Once a worker has left, the code pages it shared (Chromium's, Node's) count in
                # full to those still running: such samples are kept apart.
                full = len(alive) == n_workers
                for r in alive:
                    now = tree_breakdown(r["pid"])
                    now.label = r.get("task_id") or ""
                    if full and now.label and now.pss_mib > by_task.get(now.label, (0.0, 0.0))[0]:
                        by_task[now.label] = (now.pss_mib, now.pss.get("python", 0) / 1024)
                    for table in (peaks, peaks_full) if full else (peaks,):
                        best = table.get(r["worker_id"])
                        if best is None or now.pss_mib > best.pss_mib:
                            table[r["worker_id"]] = now

        t = threading.Thread(target=sample, daemon=True)
        t0 = time.monotonic()
        t.start()
        try:
            outcome = run_tasks(
                tasks,
                out,
                RunOptions(model="oracle", config=make_config(), workers=n_workers, show_progress=False),
            )
        finally:
            stop.set()
            t.join(5)
        secs = time.monotonic() - t0
        passed = sum(r.status == "finished" for r in outcome.results.values())
    headline = peaks_full or peaks  # one worker: every sample is "all the workers"
    worst = max(headline.values(), key=lambda b: b.pss_mib, default=Breakdown())
    n = len(headline) or 1
    return {
        "workers": n_workers,
        "tasks": len(tasks),
        "finished": passed,
        "seconds": secs,
        "tasks_per_min": len(tasks) / secs * 60,
        "peak_mib_max": worst.pss_mib,
        "peak_mib_mean": sum(b.pss_mib for b in headline.values()) / n,
        "uss_mib_max": worst.uss_mib,
        "uss_mib_mean": sum(b.uss_mib for b in headline.values()) / n,
        "peak_mib_max_any": max((b.pss_mib for b in peaks.values()), default=0.0),
        "worst": worst,
        "by_task": by_task,
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument(
        "--tasks", type=int, default=None, help="first N tasks of the built-in suite (default: all)"
    )
    ap.add_argument("--workers", default="1,2,4", help="comma-separated worker counts")
    ap.add_argument(
        "--chrome-args",
        default=None,
        help=f"extra Chromium flags for every worker's browser (sets ${EXTRA_ARGS_ENV}; shell-quoted)",
    )
    args = ap.parse_args()
    if args.chrome_args is not None:
        os.environ[EXTRA_ARGS_ENV] = args.chrome_args  # the workers inherit this process's environment
    print(f"browser: {find_chrome()}", flush=True)  # the headless shell and full Chromium differ by ~100 MiB
    rows = [bench(int(n), args.tasks) for n in args.workers.split(",")]
    print(
        f"{'workers':>7} {'tasks':>5} {'finished':>8} {'seconds':>8} {'tasks/min':>9}"
        f" {'peak PSS MiB/worker (max / mean)':>33} {'private MiB (max / mean)':>25} {'any sample':>10}"
    )
    for r in rows:
        print(
            f"{r['workers']:>7} {r['tasks']:>5} {r['finished']:>8} {r['seconds']:>8.1f} {r['tasks_per_min']:>9.2f}"
            f" {r['peak_mib_max']:>24.0f} / {r['peak_mib_mean']:<6.0f} {r['uss_mib_max']:>17.0f} / {r['uss_mib_mean']:<6.0f}"
            f" {r['peak_mib_max_any']:>10.0f}"
        )
    print(
        "peaks: samples taken while all the workers ran; 'any sample' also counts those after one left"
        " (the code pages it shared then count in full to the others)"
    )
    for r in rows:
        # Between tasks, e.g. once the other workers have left: their share of the code pages
        # Chromium and Node map then counts in full to this worker's PSS.
        at = f"task {r['worst'].label}" if r["worst"].label else "no task: between tasks"
        print(f"\n{r['workers']} worker(s): the worst worker at its peak ({at}), by process role")
        print("\n".join(r["worst"].lines()))
        top = sorted(r["by_task"].items(), key=lambda kv: -kv[1][0])[:6]
        print(
            "heaviest tasks (worker tree PSS MiB, of which Python): "
            + ", ".join(f"{t} {a:.0f} ({b:.0f})" for t, (a, b) in top)
        )
    print(f"\nload average at the end: {Path('/proc/loadavg').read_text().strip()}")


if __name__ == "__main__":
    main()
