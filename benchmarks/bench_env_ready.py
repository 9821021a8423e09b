"""How long a BreakingWeb React environment takes to be ready after a navigation: from
`page.goto` to its first content drawn (the shell, the bundle, the dispatch-list call and the
first read), over fresh pages of one real headless Chromium on loopback.

    python benchmarks/bench_env_ready.py education ".course-card" --loads 10
    python benchmarks/bench_env_ready.py social "article.post"

Each load is a fresh session (a fresh state) and a fresh page; the first load also warms the
browser and the server, so the median is reported beside every load's time (ms)."""

from __future__ import annotations

import argparse
import asyncio
import statistics
import time

from webfovea.browser.session import BrowserSession
from webfovea_breakingweb.apps import APPS
from webfovea_breakingweb.tasks import stateful_tasks
from webfovea_proving_ground.serve import start_sites


async def measure(env: str, ready: str, loads: int, seed: int) -> list[float]:
    app = APPS[env]
    task_id = app.tasks(seed)[0].task_id  # type: ignore[misc]
    stateful_tasks(seed)  # the catalogue the first session would build, built before the clock runs
    times: list[float] = []
    with start_sites(seed=seed) as sites:
        session = await BrowserSession.launch()
        try:
            for _ in range(loads):
                with sites.control() as control:
                    sid = control.create(task_id, seed, None)["session_id"]
                page = await session.fresh_page()
                await page.context.add_cookies(
                    [{"name": "wf_session", "value": sid, "url": sites.main_url, "httpOnly": True}]
                )
                start = time.perf_counter()
                await page.goto(sites.url(app.path))
                await page.locator(ready).first.wait_for()
                times.append((time.perf_counter() - start) * 1000)
                await page.context.clear_cookies()
                await page.close()
        finally:
            await session.close()
    return times


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("env", help="a React environment's name, e.g. education")
    ap.add_argument("ready", help="a CSS selector drawn once the first read is in, e.g. .course-card")
    ap.add_argument("--loads", type=int, default=10)
    ap.add_argument("--seed", type=int, default=42)
    args = ap.parse_args()
    if args.env not in APPS:
        raise SystemExit(f"unknown environment {args.env!r}; one of {', '.join(sorted(APPS))}")
    times = asyncio.run(measure(args.env, args.ready, args.loads, args.seed))
    print(
        f"{args.env}: page ready after navigation, {len(times)} loads (ms): {', '.join(f'{t:.0f}' for t in times)}"
    )
    print(f"median {statistics.median(times):.0f} ms, min {min(times):.0f}, max {max(times):.0f}")


if __name__ == "__main__":
    main()
