"""What one Tesseract read costs, by OpenMP thread limit, on proving-ground screenshots.

    .venv/bin/python benchmarks/bench_ocr.py [--repeat 5] [--parallel 2]

The OCR cross-check reads the evidence screenshot of every `finished` with digits, and a
scanned PDF page is read when it is opened. This takes 1440x810 screenshots of the
proving ground's /stats and /rankings in headless Chromium and reads each `--repeat` times
with Tesseract's default thread count and with OMP_THREAD_LIMIT=1, interleaved, `--parallel`
reads at once (as several workers would). It prints the median wall seconds until the reads
returned and the CPU seconds per read.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import resource
import shutil
import statistics
import subprocess
import time
from concurrent.futures import ThreadPoolExecutor

from webfovea.app.sites import proving_ground
from webfovea.browser.session import BrowserSession
from webfovea.documents import ocr

PAGES = ("/stats", "/rankings")


async def _shots() -> dict[str, bytes]:
    out = {}
    with proving_ground(0) as handle:
        session = await BrowserSession.launch()
        try:
            page = await session.fresh_page()
            await page.set_viewport_size({"width": 1440, "height": 810})
            for path in PAGES:
                await page.goto(handle.main_url.rstrip("/") + path)
                out[path] = await page.screenshot()
        finally:
            await session.close()
    return out


def _read(png: bytes, limit: str | None) -> None:
    env = dict(os.environ)
    env.pop("OMP_THREAD_LIMIT", None)
    if limit:
        env["OMP_THREAD_LIMIT"] = limit
    exe = shutil.which("tesseract")
    assert exe
    subprocess.run(
        [exe, "stdin", "stdout", "--psm", "11", "tsv"], input=png, env=env, capture_output=True, check=True
    )


def _round(png: bytes, limit: str | None, parallel: int) -> tuple[float, float]:
    """(wall, CPU) seconds per read of `parallel` reads at once."""
    cpu0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    with ThreadPoolExecutor(parallel) as pool:
        list(pool.map(lambda _: _read(png, limit), range(parallel)))
    wall = time.perf_counter() - t0
    cpu1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (cpu1.ru_utime - cpu0.ru_utime) + (cpu1.ru_stime - cpu0.ru_stime)
    return wall, cpu / parallel


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--parallel", type=int, default=2, help="reads at once, as several workers")
    args = ap.parse_args()
    if not ocr.available():
        raise SystemExit("tesseract is not installed: apt-get install tesseract-ocr (scripts/setup does)")
    shots = asyncio.run(_shots())
    arms = {"default threads": None, "OMP_THREAD_LIMIT=1": "1"}
    for path, png in shots.items():
        for parallel in sorted({1, args.parallel}):
            got: dict[str, list[tuple[float, float]]] = {name: [] for name in arms}
            for _ in range(args.repeat):
                for name, limit in arms.items():  # interleaved: the machine's noise hits both arms
                    got[name].append(_round(png, limit, parallel))
            for name, rows in got.items():
                wall = statistics.median(w for w, _ in rows)
                cpu = statistics.median(c for _, c in rows)
                print(f"{path:10} x{parallel} {name:20} wall {wall:5.2f} s  CPU {cpu:5.2f} s per read")


if __name__ == "__main__":
    main()
