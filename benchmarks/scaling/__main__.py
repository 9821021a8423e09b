"""How each cost grows with the work: cost curves for every size.

    .venv/bin/python benchmarks/scaling [CURVE ...] [--quick] [--reps N] [--out DIR]

CURVE is any of dom, rows, pdf, csv, queue, workers, judge (default: all). Each prints its
points as it goes, then writes DIR/NAME.json (points, the fitted log-log slope and what it
means) and DIR/NAME.svg (a log-log chart). `--quick` runs the small end of every range (a
minute or two); the full ranges are the issue's: 1k → 200k DOM elements, 100 → 50,000 rows,
1 → 1,000 PDF pages, 1k → 1M CSV rows, 10 → 10,000 tasks, 1 → 8 workers, 1 → 100 MB captures.
Run it on a quiet machine: the load is printed first and saved with the points.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path[:0] = [str(HERE), str(ROOT)]

import browser_curves  # noqa: E402
import file_curves  # noqa: E402
import runner_curves  # noqa: E402
from fit import Curve, svg  # noqa: E402

FULL = {
    "dom": ([1_000, 5_000, 20_000, 50_000, 100_000, 200_000], browser_curves.run_dom),
    "rows": ([100, 1_000, 3_000, 10_000, 50_000], browser_curves.run_rows),
    "pdf": ([1, 10, 100, 300, 1_000], file_curves.run_pdf),
    "csv": ([1_000, 10_000, 100_000, 300_000, 1_000_000], file_curves.run_csv),
    "queue": ([10, 100, 1_000, 10_000], runner_curves.run_queue),
    "workers": ([1, 2, 4, 8], runner_curves.run_workers),
    "judge": ([1, 10, 50, 100], file_curves.run_judge),
}
QUICK = {
    "dom": [1_000, 5_000, 20_000],
    "rows": [100, 1_000, 3_000],
    "pdf": [1, 10, 50],
    "csv": [1_000, 10_000, 50_000],
    "queue": [10, 50, 200],
    "workers": [1, 2, 4],
    "judge": [1, 5, 10],
}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("curves", nargs="*", metavar="CURVE", help=f"any of {', '.join(FULL)} (default: all)")
    ap.add_argument("--quick", action="store_true", help="the small end of every range")
    ap.add_argument("--sizes", help="comma-separated sizes instead of the curve's range (one curve)")
    ap.add_argument("--reps", type=int, default=5, help="repetitions per point (median)")
    ap.add_argument("--out", type=Path, default=ROOT / "docs" / "results" / "scaling")
    a = ap.parse_args()
    unknown = [c for c in a.curves if c not in FULL]
    if unknown:
        ap.error(f"unknown curve {', '.join(unknown)}: use any of {', '.join(FULL)}")
    if a.sizes and len(a.curves) != 1:
        ap.error("--sizes needs exactly one CURVE")
    a.out.mkdir(parents=True, exist_ok=True)
    load = os.getloadavg()[0]
    print(f"load {load:.1f} on {os.cpu_count()} cores")
    for name in a.curves or list(FULL):
        sizes, fn = FULL[name]
        sizes = QUICK[name] if a.quick else sizes
        if a.sizes:
            sizes = [int(v) for v in a.sizes.split(",")]
        print(f"{name}: {', '.join(f'{s:,}' for s in sizes)}")
        t0 = time.perf_counter()
        curves: list[Curve] = fn(sizes, a.reps)
        for c in curves:
            data = {
                **c.as_json(),
                "load": round(load, 1),
                "quick": a.quick,
                "seconds": round(time.perf_counter() - t0, 1),
            }
            (a.out / f"{c.name}.json").write_text(json.dumps(data, indent=1) + "\n")
            (a.out / f"{c.name}.svg").write_text(svg(c) + "\n")
            print(f"  -> {c.name}: slope {data['exponent']} ({data['shape']})")


if __name__ == "__main__":
    main()
