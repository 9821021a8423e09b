"""`build_evidence` on a task whose capture.json is 50 MB (bench_view.py's generator: ~48,600
requests), both filters, CPU and wall seconds — the judge's and the viewer's evidence cost.

    PYTHONPATH=. .venv/bin/python benchmarks/bench_evidence.py [--capture-mb 50] [--dir D]

CPU seconds (time.process_time) are the number to compare on a shared machine: wall seconds
grow with the load. The token counter is warmed first (tiktoken, or its fallback, is looked up
once per process).
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from pathlib import Path

from bench_view import BIG, write_run

from webfovea.judge.evidence import build_evidence, count_tokens


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--capture-mb", type=int, default=50)
    ap.add_argument("--dir", type=Path, default=None)
    a = ap.parse_args()
    run = (a.dir or Path(tempfile.mkdtemp(prefix="bench-evidence-"))) / "run"
    write_run(run, 1, a.capture_mb)
    count_tokens("warm")
    out: dict[str, object] = {"capture_mb": round((run / BIG / "capture.json").stat().st_size / 2**20, 1)}
    for flt in ("webfovea", "naveval"):
        cpu, wall = time.process_time(), time.perf_counter()
        ev = build_evidence(run / BIG, flt=flt)
        out[flt] = {
            "cpu_s": round(time.process_time() - cpu, 2),
            "wall_s": round(time.perf_counter() - wall, 2),
            "kept": len(ev.requests),
            "dropped": len(ev.dropped),
            "tokens": ev.tokens,
        }
    print(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
