"""What the MCP layer costs per call: `observe` and `click` through `webfovea mcp` (stdio,
the official SDK's client) against the same calls made on a `Harness` directly (observe,
and `step` with the tool call itself).

    .venv/bin/python benchmarks/bench_mcp.py [--rounds 20]

Prints the median milliseconds per call for both paths and the difference. The page is a
local button that toggles a counter, so every click changes the page.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

from mcp import Client, StdioServerParameters

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.support.servers import serve_pages  # noqa: E402
from webfovea import Harness  # noqa: E402
from webfovea.models.base import ToolCall  # noqa: E402

PAGE = """<html><body style="margin:0"><button id=b style="position:absolute;left:800px;top:500px;width:320px;
height:80px" onclick="this.textContent = +this.textContent + 1">0</button></body></html>"""
POINT = [720.0, 405.0]  # the button's centre in the 1440x810 image (CSS 960,540)


async def _timed(samples: list[float], coro) -> object:  # noqa: ANN001
    t0 = time.perf_counter()
    out = await coro
    samples.append((time.perf_counter() - t0) * 1000)
    return out


async def via_mcp(url: str, rounds: int, out: Path) -> tuple[list[float], list[float]]:
    params = StdioServerParameters(
        command=sys.executable,
        cwd=str(ROOT),
        env=dict(os.environ),
        args=["-m", "webfovea.cli", "mcp", "--url", url, "--out", str(out), "--offline"],
    )
    obs: list[float] = []
    clicks: list[float] = []
    async with Client(params) as client:
        for _ in range(rounds):
            await _timed(obs, client.call_tool("observe", {}))
            res = await _timed(clicks, client.call_tool("click", {"start_box": POINT}))
            assert not res.is_error
    return obs, clicks


async def direct(url: str, rounds: int) -> tuple[list[float], list[float]]:
    call = ToolCall("bench", "click", {"start_box": POINT})
    obs: list[float] = []
    clicks: list[float] = []
    async with Harness.launch(url) as h:
        for _ in range(rounds):
            await _timed(obs, h.observe())
            res = await _timed(clicks, h.step("", [call]))
            assert res.error is None, res.error
    return obs, clicks


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rounds", type=int, default=20)
    args = ap.parse_args()
    with serve_pages({"/": PAGE}) as site, tempfile.TemporaryDirectory() as tmp:
        m_obs, m_click = asyncio.run(via_mcp(site.url("/"), args.rounds, Path(tmp)))
        d_obs, d_click = asyncio.run(direct(site.url("/"), args.rounds))
    med = statistics.median
    print(
        f"{'call':<10}{'direct ms':>12}{'MCP ms':>10}{'overhead':>10}   (median of {args.rounds}, load {os.getloadavg()[0]:.1f})"
    )
    for name, d, m in (("observe", d_obs, m_obs), ("click", d_click, m_click)):
        print(f"{name:<10}{med(d):>12.1f}{med(m):>10.1f}{med(m) - med(d):>10.1f}")


if __name__ == "__main__":
    main()
