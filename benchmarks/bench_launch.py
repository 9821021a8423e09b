"""What one browser launch costs in CPU, with and without Node's compile cache for the driver.

    .venv/bin/python benchmarks/bench_launch.py [--rounds 5] [--launches 4]

Each round starts two fresh Python processes, interleaved: one with WEBFOVEA_NODE_CACHE=off, one
with the cache (a folder filled once before the first round). Each process launches Chromium
`--launches` times through BrowserSession (driver + browser + one page), closes it, and reports
the CPU of everything it started (Node, Chromium: reaped children). Prints the median CPU
seconds per launch-and-close of each arm and their ratio.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import resource
import statistics
import subprocess
import sys
import tempfile


async def _launches(n: int) -> None:
    from webfovea.browser.session import BrowserSession

    for _ in range(n):
        session = await BrowserSession.launch()
        page = await session.fresh_page()
        await page.goto("data:text/html,<h1>hello</h1>")
        await session.close()


def _child(n: int) -> None:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    asyncio.run(_launches(n))
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
    print(f"{cpu / n:.4f}")


def _run(n: int, cache: str) -> float:
    env = {**os.environ, "WEBFOVEA_NODE_CACHE": cache}
    out = subprocess.run(
        [sys.executable, __file__, "--child", str(n)], env=env, capture_output=True, text=True, check=True
    )
    return float(out.stdout.strip().splitlines()[-1])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--launches", type=int, default=4, help="launches per process")
    ap.add_argument("--child", type=int, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        _child(args.child)
        return
    with tempfile.TemporaryDirectory(prefix="bench-node-cache-") as folder:
        _run(1, folder)  # fill the cache once, as the first launch on a machine does
        plain, cached = [], []
        for i in range(args.rounds):
            plain.append(_run(args.launches, "off"))
            cached.append(_run(args.launches, folder))
            print(f"round {i + 1}/{args.rounds}: off {plain[-1]:.3f} s, cache {cached[-1]:.3f} s", flush=True)
    p, c = statistics.median(plain), statistics.median(cached)
    print(f"CPU per launch-and-close, median of {args.rounds}: off {p:.3f} s, cache {c:.3f} s ({c / p:.2f}x)")


if __name__ == "__main__":
    main()
