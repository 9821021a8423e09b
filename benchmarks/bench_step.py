"""Cost of one harness round trip vs one raw CDP screenshot, side by side in one run.

    .venv/bin/python benchmarks/bench_step.py [--steps 40]

On a quiet local page, measures per step: observe() (capture + downscale) + step(click)
(parse, map, fingerprints, click, settle, feedback), next to the raw cost of one CDP
Page.captureScreenshot of the same page, interleaved so machine noise hits both alike.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.support.servers import serve_pages  # noqa: E402
from webfovea.browser.session import BrowserSession  # noqa: E402
from webfovea.config import make_config  # noqa: E402
from webfovea.harness import Harness  # noqa: E402

PAGE = """<html><body style="margin:0;font:16px sans-serif"><h1>Quiet page</h1>
<p>""" + " ".join(f"word{i}" for i in range(400)) + """</p>
<button id=b style="position:absolute;left:900px;top:600px;width:200px;height:60px"
 onclick="this.dataset.n = (+this.dataset.n || 0) + 1">Button</button></body></html>"""


async def main(steps: int) -> None:
    with serve_pages({"/": PAGE}) as srv:
        session = await BrowserSession.launch(offline=True)  # a local page: no name needs resolving
        try:
            page = await session.fresh_page()
            h = await Harness.on_page(page, make_config("webfovea"))
            await h.goto(srv.url("/"))
            cdp = await page.context.new_cdp_session(page)
            shots, step_s, obs_s = [], [], []
            reply = "Thought: press it\nAction: click(start_box='<|box_start|>(750,472)<|box_end|>')"
            for i in range(steps + 3):
                t0 = time.perf_counter()
                await cdp.send("Page.captureScreenshot", {"format": "png", "optimizeForSpeed": True})
                t1 = time.perf_counter()
                await h.observe()
                t2 = time.perf_counter()
                res = await h.step(reply)
                t3 = time.perf_counter()
                assert res.error is None, res.error
                if i >= 3:  # warm-up
                    shots.append(t1 - t0)
                    obs_s.append(t2 - t1)
                    step_s.append(t3 - t1)
            clicks = await page.eval_on_selector("#b", "b => +b.dataset.n")
        finally:
            await session.close()
    ms = lambda v: statistics.median(v) * 1000  # noqa: E731
    print(f"steps measured: {len(step_s)} (clicks that landed: {clicks})")
    print(f"raw CDP captureScreenshot   median {ms(shots):7.1f} ms")
    print(f"observe() alone             median {ms(obs_s):7.1f} ms")
    print(f"observe() + step(click)     median {ms(step_s):7.1f} ms")
    print(f"ratio step / screenshot     {ms(step_s) / ms(shots):.2f}x  (target <= 3x)")


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--steps", type=int, default=40)
    asyncio.run(main(ap.parse_args().steps))
