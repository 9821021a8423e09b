"""How soon a BreakingWeb React environment is ready after navigation (the bound asked of every
environment: "page ready in under 1 s"): a fresh session a load, `page.goto` to the page, then
the time until the view's content is drawn (a selector: the environment's first real view, not
its "Loading…" placeholder). Prints every load in ms and the median.

    .venv/bin/python benchmarks/breakingweb_page_ready.py finance '#positions tbody tr' [--loads 10]
    .venv/bin/python benchmarks/breakingweb_page_ready.py travel        # its default selector (READY)

The clock starts before `goto` (the HTML, the bundle, the session's intervention answer and the
view's first API reads all count) and stops when the selector is visible.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import time

from webfovea.browser.session import BrowserSession
from webfovea_breakingweb.apps import APPS
from webfovea_breakingweb.environments import READY
from webfovea_breakingweb.tasks import stateful_tasks
from webfovea_proving_ground.serve import start_sites


async def main(env: str, ready: str | None, loads: int, seed: int) -> int:
    ready = ready or READY.get(env)
    if ready is None:
        raise SystemExit(f"no default selector for {env!r}: give one (defaults: {', '.join(sorted(READY))})")
    if env not in APPS:
        raise SystemExit(f"unknown environment {env!r}; one of {', '.join(sorted(APPS))}")
    task = next(t.task_id for t in stateful_tasks(seed).values() if t.app == env)
    times: list[float] = []
    with start_sites(seed=seed) as sites:
        session = await BrowserSession.launch()
        try:
            for _ in range(loads + 1):  # the first load warms the server's caches: not counted
                with sites.control() as control:
                    sid = control.create(task, seed, None)["session_id"]
                page = await session.fresh_page()
                await page.context.add_cookies([{"name": "wf_session", "value": sid, "url": sites.main_url}])
                start = time.perf_counter()
                await page.goto(sites.url(APPS[env].path))
                await page.locator(ready).first.wait_for()
                times.append((time.perf_counter() - start) * 1000)
                await page.context.clear_cookies()
                await page.close()
        finally:
            await session.close()
    counted = times[1:]
    print(" ".join(f"{t:.0f}" for t in counted))
    print(
        f"{env}: page ready after navigation, median of {len(counted)} loads: {statistics.median(counted):.0f} ms"
    )
    return 0


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("env", help="an environment's name (finance, social…)")
    ap.add_argument(
        "ready", nargs="?", help="the selector whose visibility means the view is drawn (default: READY)"
    )
    ap.add_argument("--loads", type=int, default=10)
    ap.add_argument("--seed", type=int, default=0)
    a = ap.parse_args()
    raise SystemExit(asyncio.run(main(a.env, a.ready, a.loads, a.seed)))
