"""Stale-view rate: how often the effect of a step appears only after `step()` returned.

    .venv/bin/python benchmarks/bench_stale.py [--steps 10] [--delays 0,50,150,500]

On the proving ground's WebSocket order form (`/lab/ws?delay=MS`, the answer comes back over
a WebSocket after a server delay) and the same form inside an out-of-process iframe
(`/lab/ws-frame`), each step clicks Submit through the harness; right after `step()`
returns the page is checked for the answer. Printed for the full harness and with the
`settle_aware` switch off (a quiet window on the main frame only).
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from webfovea.browser.session import BrowserSession  # noqa: E402
from webfovea.config import make_config  # noqa: E402
from webfovea.harness import Harness  # noqa: E402
from webfovea_proving_ground.serve import start_sites  # noqa: E402


async def _frame(page, embedded: bool):  # noqa: ANN001, ANN202
    if not embedded:
        return page.main_frame
    for _ in range(100):
        kids = [f for f in page.frames if "/lab/ws" in f.url and f is not page.main_frame]
        if kids:
            await kids[0].wait_for_selector("#submit")
            return kids[0]
        await asyncio.sleep(0.05)
    raise RuntimeError("the order frame did not load")


async def run(
    session: BrowserSession, url: str, embedded: bool, steps: int, disable: list[str]
) -> tuple[int, float]:
    stale, seconds = 0, []
    for _ in range(steps):
        page = await session.fresh_page()
        h = await Harness.on_page(page, make_config(disable=disable))
        await h.goto(url)
        frame = await _frame(page, embedded)
        await asyncio.sleep(0.3)  # the socket connects
        box = await frame.locator("#submit").bounding_box()
        obs = await h.observe()
        assert box is not None
        x = (box["x"] + box["width"] / 2) * obs.image.size[0] / obs.shot.css_width
        y = (box["y"] + box["height"] / 2) * obs.image.size[1] / obs.shot.css_height
        t0 = time.monotonic()
        await h.step(f"Thought: submit\nAction: click(start_box='<|box_start|>({x:.0f},{y:.0f})<|box_end|>')")
        seconds.append(time.monotonic() - t0)
        if not (await frame.inner_text("#result")).strip():
            stale += 1
        await page.close()
    return stale, sorted(seconds)[len(seconds) // 2]


async def main(steps: int, delays: list[int]) -> None:
    with start_sites() as sites:
        session = await BrowserSession.launch()
        try:
            print(
                f"{'page':<14} {'delay ms':>8} {'stale (webfovea)':>17} {'step s':>7} {'stale (settle_aware off)':>25} {'step s':>7}"
            )
            for embedded in (False, True):
                for d in delays:
                    url = sites.url(f"/lab/{'ws-frame' if embedded else 'ws'}?delay={d}")
                    on = await run(session, url, embedded, steps, [])
                    off = await run(session, url, embedded, steps, ["settle_aware"])
                    name = "oopif form" if embedded else "main form"
                    print(
                        f"{name:<14} {d:>8} {on[0]:>10}/{steps:<6} {on[1]:>7.2f} {off[0]:>18}/{steps:<6} {off[1]:>7.2f}"
                    )
        finally:
            await session.close()


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--steps", type=int, default=10)
    ap.add_argument("--delays", default="0,50,150,500")
    a = ap.parse_args()
    asyncio.run(main(a.steps, [int(d) for d in a.delays.split(",")]))
