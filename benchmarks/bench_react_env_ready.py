"""How long a React environment's page takes to be ready after navigation (issue 41: "each
environment's page ready in under 1 s after navigation"): a fresh session and a fresh page each
load, `page.goto(/env/<env>)` until the view's first drawn element shows (the shell, the bundle,
the dispatch-list call and the view's first read). Prints every load and the median.

    .venv/bin/python benchmarks/bench_react_env_ready.py healthcare '#home' [--loads 10] [--seed 42]
    .venv/bin/python benchmarks/bench_react_env_ready.py social '#posts'
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import time

from webfovea.browser.session import BrowserSession
from webfovea_breakingweb.apps import APPS
from webfovea_breakingweb.tasks import stateful_tasks
from webfovea_proving_ground.serve import start_sites


async def main(env: str, ready: str, loads: int, seed: int) -> int:
    if env not in APPS:
        raise SystemExit(f"unknown environment {env!r}; one of {', '.join(sorted(APPS))}")
    task_id = next(t for t, task in stateful_tasks(seed).items() if task.app == env)
    with start_sites(seed=seed) as sites:
        session = await BrowserSession.launch()
        took: list[float] = []
        try:
            for _ in range(loads):
                with sites.control() as control:
                    sid = control.create(task_id, seed, None)["session_id"]
                page = await session.fresh_page()
                await page.context.add_cookies(
                    [{"name": "wf_session", "value": sid, "url": sites.main_url, "httpOnly": True}]
                )
                start = time.perf_counter()
                await page.goto(sites.url(APPS[env].path))
                await page.locator(ready).first.wait_for()
                took.append((time.perf_counter() - start) * 1000)
                await page.context.clear_cookies()
                print(f"{env} ready in {took[-1]:.0f} ms", flush=True)
        finally:
            await session.close()
    print(
        f"{env}: median {statistics.median(took):.0f} ms over {loads} loads (min {min(took):.0f}, max {max(took):.0f})"
    )
    return 0


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("env", help="a React environment, e.g. healthcare")
    ap.add_argument("ready", help="a CSS selector the first view draws, e.g. '#home'")
    ap.add_argument("--loads", type=int, default=10)
    ap.add_argument("--seed", type=int, default=42)
    a = ap.parse_args()
    raise SystemExit(asyncio.run(main(a.env, a.ready, a.loads, a.seed)))
