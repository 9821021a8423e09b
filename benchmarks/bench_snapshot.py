"""Cost of structured observation per step vs one raw screenshot, side by side in one run.

    .venv/bin/python benchmarks/bench_snapshot.py [--reps 7] [--pages stats,...,struct/stations] [--generated]

For each page measures, interleaved so machine noise hits all alike:
- `whole`: the snapshot as before scoping — `page.aria_snapshot(mode="ai")` of the whole tree
  + guards + truncation (observation/snapshot.take with `snapshot_scoping` off);
- `scoped cold`: the same with `snapshot_scoping` on and its piece cache emptied (a page seen for
  the first time); `scoped`: with the cache as a step finds it (nothing changed since the last);
  pages under `snapshot_scope_elements` are not scoped, so both equal `whole` there;
- `screenshot`: one raw CDP `Page.captureScreenshot` (PNG, optimizeForSpeed) of the same page.
Tokens: what the model is shown of the snapshot (characters / 4, as the loopback providers
count text) against one 1440x810 screenshot (w*h/750 = 1,556 tokens). Prints medians and the
ratios; the goal is <= 2x a screenshot in time and in tokens on every page. `--generated` adds
three generated big pages the scoping was never tuned on (tests/observation/test_scoped_snapshot.py).
"""

from __future__ import annotations

import argparse
import asyncio
import math
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from webfovea.browser.session import BrowserSession  # noqa: E402
from webfovea.config import make_config  # noqa: E402
from webfovea.observation import scope  # noqa: E402
from webfovea.observation.snapshot import take  # noqa: E402
from webfovea_proving_ground.serve import start_sites  # noqa: E402

SHOT_TOKENS = math.ceil(1440 * 810 / 750)
PAGES = (
    "stats,stats/compare,dashboard,rankings,filings,gate,shipments,energy,register,requests,publications,"
    "lab,struct/stations,struct/widgets,struct/seat,struct/reports,struct/contact"
)


def tokens(text: str) -> int:
    return math.ceil(len(text) / 4)


async def measure(url: str, reps: int) -> dict[str, float | int | bool]:
    whole_cfg = make_config(observation="structured", disable=["snapshot_scoping"])
    scoped_cfg = make_config(observation="structured")
    session = await BrowserSession.launch(viewport=(1920, 1080))
    try:
        page = await session.fresh_page()
        await page.goto(url, wait_until="load")
        await asyncio.sleep(1.0)
        cdp = await page.context.new_cdp_session(page)
        ms: dict[str, list[float]] = {"whole": [], "cold": [], "warm": [], "shot": []}
        last = {}
        for i in range(reps + 2):  # the first two warm up the injected scripts and the raster
            last["whole"] = await take(page, whole_cfg)
            scope._CACHE.pop(page, None)
            last["cold"] = await take(page, scoped_cfg)
            last["warm"] = await take(page, scoped_cfg)
            t0 = time.perf_counter()
            await cdp.send("Page.captureScreenshot", {"format": "png", "optimizeForSpeed": True})
            shot = (time.perf_counter() - t0) * 1000
            if i >= 2:
                for k in ("whole", "cold", "warm"):
                    ms[k].append(last[k].ms)
                ms["shot"].append(shot)
        med = {k: statistics.median(v) for k, v in ms.items()}
        return {
            "bytes": last["whole"].bytes,
            "scoped": last["warm"].scoped,
            "tok_whole": tokens(last["whole"].text),
            "tok_scoped": tokens(last["warm"].text),
            **{f"ms_{k}": v for k, v in med.items()},
        }
    finally:
        await session.close()


def generated_pages() -> dict[str, str]:
    from tests.observation.test_scoped_snapshot import big_page

    return {
        "/gen/table": big_page("table", 3000, 8, 60, 11),
        "/gen/grid": big_page("grid", 2500, 6, 40, 12),
        "/gen/list": big_page("list", 4000, 5, 60, 13),
    }


def report(rows: list[tuple[str, dict[str, float | int | bool]]]) -> None:
    print(
        f"{'page':<18} {'whole B':>9} {'sc':>2} {'whole ms':>9} {'cold ms':>8} {'step ms':>8} {'shot ms':>8} "
        f"{'time before':>11} {'after':>6} {'tok before':>10} {'after':>6}"
    )
    for path, r in rows:
        shot = max(float(r["ms_shot"]), 0.01)
        print(
            f"{path:<18} {r['bytes']:>9,} {'y' if r['scoped'] else '-':>2} {r['ms_whole']:>8.0f}ms "
            f"{r['ms_cold']:>6.0f}ms {r['ms_warm']:>6.0f}ms {r['ms_shot']:>6.0f}ms "
            f"{float(r['ms_whole']) / shot:>10.2f}x {float(r['ms_warm']) / shot:>5.2f}x "
            f"{float(r['tok_whole']) / SHOT_TOKENS:>9.2f}x {float(r['tok_scoped']) / SHOT_TOKENS:>5.2f}x"
        )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--reps", type=int, default=7)
    ap.add_argument("--pages", default=PAGES)
    ap.add_argument("--generated", action="store_true", help="add three generated big pages")
    args = ap.parse_args()
    rows = []
    with start_sites() as sites:
        for path in args.pages.split(","):
            rows.append((path, asyncio.run(measure(sites.url("/" + path.strip("/")), args.reps))))
            print(f"{path:<18} done", file=sys.stderr, flush=True)
    if args.generated:
        from tests.support.servers import serve_pages

        with serve_pages(generated_pages()) as srv:  # type: ignore[arg-type]
            for path in ("/gen/table", "/gen/grid", "/gen/list"):
                rows.append((path.strip("/"), asyncio.run(measure(srv.url(path), args.reps))))
                print(f"{path:<18} done", file=sys.stderr, flush=True)
    report(rows)


if __name__ == "__main__":
    main()
