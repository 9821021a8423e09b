"""Cost of structured observation per step vs one raw screenshot, side by side in one run.

    .venv/bin/python benchmarks/bench_snapshot.py [--reps 15] [--pages stats,rankings,dashboard,struct/stations]

For each proving-ground page measures, interleaved so machine noise hits both alike:
- `snapshot`: what structured mode adds to an observation — `page.aria_snapshot(mode="ai",
  boxes=True)` + the guards' evaluation and annotation + truncation (observation/snapshot.take);
- `screenshot`: one raw CDP `Page.captureScreenshot` (PNG, optimizeForSpeed) of the same page.
Prints medians and 95th percentiles and the ratio (goal: <= 2x a screenshot on pages under 48 KB).
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from webfovea.browser.session import BrowserSession  # noqa: E402
from webfovea.config import make_config  # noqa: E402
from webfovea.observation.snapshot import take  # noqa: E402
from webfovea.proving_ground.serve import start_sites  # noqa: E402


def p95(xs: list[float]) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, round(0.95 * (len(xs) - 1)))]


async def measure(url: str, reps: int) -> dict[str, object]:
    config = make_config(observation="structured")
    session = await BrowserSession.launch(viewport=(1920, 1080))
    try:
        page = await session.fresh_page()
        await page.goto(url, wait_until="load")
        await asyncio.sleep(1.0)
        cdp = await page.context.new_cdp_session(page)
        snap_ms: list[float] = []
        shot_ms: list[float] = []
        info = None
        for _ in range(reps + 2):  # the first two warm up the injected script and the raster
            info = await take(page, config)
            t0 = time.perf_counter()
            await cdp.send("Page.captureScreenshot", {"format": "png", "optimizeForSpeed": True})
            shot_ms.append((time.perf_counter() - t0) * 1000)
            snap_ms.append(info.ms)
        snap_ms, shot_ms = snap_ms[2:], shot_ms[2:]
        assert info is not None
        return {
            "bytes": info.bytes,
            "shown": info.shown_bytes,
            "truncated": info.truncated,
            "guards": info.guard_firings,
            "snap_med": statistics.median(snap_ms),
            "snap_p95": p95(snap_ms),
            "shot_med": statistics.median(shot_ms),
            "shot_p95": p95(shot_ms),
        }
    finally:
        await session.close()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--reps", type=int, default=15)
    ap.add_argument("--pages", default="stats,rankings,dashboard,struct/seat,struct/stations")
    args = ap.parse_args()
    rows = []
    with start_sites() as sites:
        for path in args.pages.split(","):
            r = asyncio.run(measure(sites.url("/" + path.strip("/")), args.reps))
            rows.append((path, r))
            print(f"{path:<18} done", file=sys.stderr, flush=True)
    print(
        f"{'page':<18} {'snapshot B':>10} {'shown B':>8} {'trunc':>5} {'snap med':>9} {'snap p95':>9} "
        f"{'shot med':>9} {'shot p95':>9} {'ratio':>6}  guards"
    )
    for path, r in rows:
        ratio = float(r["snap_med"]) / max(float(r["shot_med"]), 0.01)  # type: ignore[arg-type]
        print(
            f"{path:<18} {r['bytes']:>10,} {r['shown']:>8,} {str(r['truncated'])[0]:>5} {r['snap_med']:>8.1f}ms "
            f"{r['snap_p95']:>8.1f}ms {r['shot_med']:>8.1f}ms {r['shot_p95']:>8.1f}ms {ratio:>5.2f}x  {r['guards']}"
        )


if __name__ == "__main__":
    main()
