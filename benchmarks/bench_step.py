"""Cost of one harness round trip vs one raw CDP screenshot, side by side in one run.

    .venv/bin/python benchmarks/bench_step.py [--steps 30] [--pages light,heavy] [--actions click,hover,type,scroll]
                                              [--capture-scaling browser|python]

For each page (a light one, whose raw screenshot costs ~25-30 ms, and a heavy one, ~80 ms:
thousands of nodes, gradients and shadows) and each action, measures per step
observe() + step(action) — parse, map, fingerprints, the action, settle, the next capture,
the pixel check, feedback — next to the raw cost of one full-size CDP Page.captureScreenshot of
the same page, interleaved in blocks so machine noise hits both alike (see `measure`). The
ratio is the step's cost in screenshots (goal: click <= 3x). Medians over `--steps` counted
steps and as many raw shots.
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

CONTROLS = """<button id=b style="position:absolute;left:900px;top:600px;width:200px;height:60px"
 onclick="this.dataset.n = (+this.dataset.n || 0) + 1">Button</button>
<input id=q style="position:absolute;left:900px;top:700px;width:300px;height:36px">"""

LIGHT = (
    """<html><body style="margin:0;font:16px sans-serif"><h1>Quiet page</h1>
<p>"""
    + " ".join(f"word{i}" for i in range(400))
    + "</p>"
    + CONTROLS
    + """<div style="height:3000px"></div>
</body></html>"""
)

HEAVY = (
    """<html><head><style>td { padding: 4px 8px; box-shadow: 0 1px 3px rgba(0,0,0,.3);
background: linear-gradient(135deg, #fdfbfb, #e4ebf5); border-radius: 4px; }
body { background: radial-gradient(circle at 30% 30%, #fff, #c9d6e8); }</style></head>
<body style="margin:0;font:14px sans-serif"><h1>Heavy page</h1><table>"""
    + "".join(
        "<tr>" + "".join(f"<td>r{r}c{c} {r * c % 97}</td>" for c in range(14)) + "</tr>" for r in range(400)
    )
    + "</table>"
    + CONTROLS.replace("position:absolute", "position:fixed")
    + "</body></html>"
)

# (reply, how many image pixels of a 1440x810 capture per CSS pixel: 0.75)
REPLIES = {
    "click": "Thought: press it\nAction: click(start_box='<|box_start|>(750,472)<|box_end|>')",
    "hover": "Thought: look\nAction: hover(start_box='<|box_start|>(750,472)<|box_end|>')",
    "type": "Thought: type\nAction: type(content='abc')",
    "scroll": "Thought: move\nAction: scroll(start_box='<|box_start|>(300,300)<|box_end|>', direction='{d}')",
}


async def measure(
    session: BrowserSession, url: str, action: str, steps: int, scaling: str, block: int = 5
) -> tuple[float, float, float]:
    """Medians of (raw shot, observe, observe + step), in ms.

    Raw shots and steps alternate in blocks of `block`, and the first of each block is not
    counted: a browser-scaled capture renders the page at another scale, so a full-size raw
    shot right after one (or a step right after raw shots) pays for re-rasterising the page —
    a cost neither has when it follows its own kind, as the steps of a run do. Blocks still
    interleave both through the run, so machine noise hits both alike."""
    page = await session.fresh_page()
    # The loop breaker would stop a run of clicks that change nothing the model can see (the
    # button only counts in a data attribute); it costs nothing per step, so it is off here.
    h = await Harness.on_page(
        page, make_config("webfovea", disable=["loop_breaker"], capture_scaling=scaling)
    )
    await h.goto(url)
    cdp = await page.context.new_cdp_session(page)
    if action == "type":
        await page.focus("#q")
    shots, step_s, obs_s = [], [], []
    rounds = -(-steps // (block - 1)) + 1  # the first round warms up
    k = 0
    for r in range(rounds):
        for i in range(block):
            t0 = time.perf_counter()
            await cdp.send("Page.captureScreenshot", {"format": "png", "optimizeForSpeed": True})
            if i > 0 and r > 0:
                shots.append(time.perf_counter() - t0)
        for i in range(block):
            reply = REPLIES[action].replace("{d}", "down" if k % 2 == 0 else "up")
            k += 1
            t1 = time.perf_counter()
            await h.observe()
            t2 = time.perf_counter()
            res = await h.step(reply)
            t3 = time.perf_counter()
            assert res.error is None, res.error
            if action == "type" and k % 10 == 9:
                await page.fill("#q", "")
            if i > 0 and r > 0:
                obs_s.append(t2 - t1)
                step_s.append(t3 - t1)
    await page.close()
    ms = lambda v: statistics.median(v) * 1000  # noqa: E731
    return ms(shots), ms(obs_s), ms(step_s)


async def main(steps: int, pages: list[str], actions: list[str], scaling: str) -> None:
    with serve_pages({"/light": LIGHT, "/heavy": HEAVY}) as srv:
        session = await BrowserSession.launch(offline=True)  # local pages: no name needs resolving
        try:
            print(f"capture_scaling={scaling}")
            print(
                f"{'page':<6} {'action':<7} {'raw shot ms':>11} {'observe ms':>10} {'observe+step ms':>15} {'ratio':>6}"
            )
            for name in pages:
                for action in actions:
                    shot, obs, step = await measure(session, srv.url(f"/{name}"), action, steps, scaling)
                    print(
                        f"{name:<6} {action:<7} {shot:>11.1f} {obs:>10.1f} {step:>15.1f} {step / shot:>5.2f}x"
                    )
        finally:
            await session.close()


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--steps", type=int, default=30)
    ap.add_argument("--pages", default="light,heavy")
    ap.add_argument("--actions", default="click,hover,type,scroll")
    ap.add_argument("--capture-scaling", choices=("browser", "python"), default=make_config().capture_scaling)
    a = ap.parse_args()
    asyncio.run(main(a.steps, a.pages.split(","), a.actions.split(","), a.capture_scaling))
