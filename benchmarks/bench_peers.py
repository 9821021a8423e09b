"""One click and the next view, through webfovea and the tools users would pick instead.

    .venv/bin/python benchmarks/bench_peers.py [--steps 20] [--pages light,heavy] [--arms raw,vision,...]

The same light and heavy page (benchmarks/bench_step.py), the same click on the same button and
what the agent is shown next, through:
- `raw`: the floor — Playwright's mouse click and one CDP screenshot;
- `vision`, `structured`: webfovea's `observe()` + `step(click)` in both observation modes (the
  click by point, then by the snapshot's ref), with the settle wait, fingerprints, the pixel
  check and the feedback note;
- `browser-use`: its own click by element index and its page state (the DOM tree with indices
  plus a screenshot) — what its agent reads after every action — run in its own venv;
- `playwright-mcp`: `browser_click` by the snapshot's ref and then `browser_snapshot`, the
  page as its agent reads it next (the official `@playwright/mcp` server over stdio; since
  0.0.8x a click's reply links the new snapshot as a file instead of carrying it).

The peers are installed the first time into a separate folder (`--peers-dir`, default
~/.cache/webfovea-peers: a venv for browser-use, an npm folder for Playwright MCP) so nothing of
theirs enters our environment. Every arm uses the Debian Chromium (`--chromium`). Arms run in
blocks of `--block` steps in rotation, the first step of each block not counted, so machine
noise hits all alike; medians and the ratio to `raw` are printed and, with `--out`, written as
Markdown. An arm whose peer cannot be installed is reported as missing, never guessed.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.bench_step import HEAVY, LIGHT  # noqa: E402
from tests.support.servers import serve_pages  # noqa: E402
from webfovea.browser.session import BrowserSession  # noqa: E402
from webfovea.config import make_config  # noqa: E402
from webfovea.harness import Harness  # noqa: E402

PEERS_DIR = Path(os.environ.get("WEBFOVEA_PEERS_DIR", Path.home() / ".cache" / "webfovea-peers"))
BROWSER_USE = "browser-use==0.9.5"
PLAYWRIGHT_MCP = "@playwright/mcp@0.0.83"
DRIVER = Path(__file__).with_name("peer_browser_use.py")  # runs inside browser-use's venv
VIEWPORT = (1440, 810)


# -- installing the peers ------------------------------------------------------------------------
def ensure_browser_use(root: Path) -> Path | None:
    """The browser-use venv's python, installed once; None (with the reason printed) if it fails."""
    python = root / "venv" / "bin" / "python"
    probe = [str(python), "-c", "import browser_use"]
    if python.exists() and subprocess.run(probe, capture_output=True).returncode == 0:
        return python
    print(f"installing {BROWSER_USE} into {root / 'venv'} (once) ...", flush=True)
    subprocess.run([sys.executable, "-m", "venv", str(root / "venv")], check=True)
    out = subprocess.run(
        [str(python), "-m", "pip", "install", "-q", BROWSER_USE], capture_output=True, text=True
    )
    if out.returncode != 0 or subprocess.run(probe, capture_output=True).returncode != 0:
        print(f"browser-use could not be installed: {out.stderr.strip()[-400:]}", flush=True)
        return None
    return python


def ensure_playwright_mcp(root: Path) -> Path | None:
    """The `@playwright/mcp` command line script, installed once with npm; None if it fails."""
    folder = root / "npm"
    cli = folder / "node_modules" / "@playwright" / "mcp" / "cli.js"
    if cli.exists():
        return cli
    if shutil.which("npm") is None:
        print("npm is not installed: the playwright-mcp arm is left out", flush=True)
        return None
    print(f"installing {PLAYWRIGHT_MCP} into {folder} (once) ...", flush=True)
    folder.mkdir(parents=True, exist_ok=True)
    out = subprocess.run(
        ["npm", "install", "--prefix", str(folder), PLAYWRIGHT_MCP], capture_output=True, text=True
    )
    if out.returncode != 0 or not cli.exists():
        print(f"Playwright MCP could not be installed: {out.stderr.strip()[-400:]}", flush=True)
        return None
    return cli


# -- the arms: each takes one counted step and says how long it took ------------------------------
class Raw:
    """Each arm has its own browser, as each peer has: no arm's tab sits behind another's."""

    name = "raw"

    async def open(self, url: str) -> None:
        self.session = await BrowserSession.launch(viewport=VIEWPORT, offline=True)
        self.page = await self.session.fresh_page()
        await self.page.goto(url, wait_until="load")
        self.cdp = await self.page.context.new_cdp_session(self.page)
        box = await self.page.locator("#b").bounding_box()
        assert box is not None
        self.point = (box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)

    async def step(self) -> float:
        t0 = time.perf_counter()
        await self.page.mouse.click(*self.point)
        await self.cdp.send("Page.captureScreenshot", {"format": "png", "optimizeForSpeed": True})
        return time.perf_counter() - t0

    async def clicks(self) -> int:
        return int(await self.page.evaluate("+document.getElementById('b').dataset.n || 0"))

    async def close(self) -> None:
        await self.session.close()


class Webfovea(Raw):
    def __init__(self, mode: str) -> None:
        self.mode = mode
        self.name = mode

    async def open(self, url: str) -> None:
        self.session = await BrowserSession.launch(viewport=VIEWPORT, offline=True)
        self.page = await self.session.fresh_page()
        # a run of clicks that change nothing the model sees would trip the loop breaker
        config = make_config("webfovea", observation=self.mode, disable=["loop_breaker"])
        self.h = await Harness.on_page(self.page, config)
        await self.h.goto(url)

    async def step(self) -> float:
        t0 = time.perf_counter()
        obs = await self.h.observe()
        if self.mode == "vision":
            box = await self.page.locator("#b").bounding_box()
            assert box is not None and obs.shot is not None
            sx = obs.image.size[0] / obs.shot.css_width
            x, y = (box["x"] + box["width"] / 2) * sx, (box["y"] + box["height"] / 2) * sx
            reply = f"Thought: press it\nAction: click(start_box='<|box_start|>({x:.0f},{y:.0f})<|box_end|>')"
        else:
            m = re.search(r'button "Button".*?\[ref=(e\d+)\]', obs.snapshot or "")
            assert m, (obs.snapshot or "")[:2000]
            reply = f"Thought: press it\nAction: click(ref='{m.group(1)}')"
        res = await self.h.step(reply)
        assert res.error is None, res.error
        return time.perf_counter() - t0


class PlaywrightMcp:
    name = "playwright-mcp"

    def __init__(self, cli: Path, chromium: str) -> None:
        self.cli, self.chromium = cli, chromium

    async def open(self, url: str) -> None:
        from contextlib import AsyncExitStack

        from mcp import ClientSession, StdioServerParameters
        from mcp.client.stdio import stdio_client

        # --no-sandbox: Chromium refuses its sandbox as root (how these machines run it)
        args = [str(self.cli), "--headless", "--isolated", "--no-sandbox", "--executable-path", self.chromium]
        args += ["--output-dir", str(PEERS_DIR / "mcp-output")]
        args += ["--viewport-size", f"{VIEWPORT[0]}x{VIEWPORT[1]}"]
        self.stack = AsyncExitStack()
        read, write = await self.stack.enter_async_context(
            stdio_client(StdioServerParameters(command="node", args=args))
        )
        self.mcp = await self.stack.enter_async_context(ClientSession(read, write))
        await self.mcp.initialize()
        await self._call("browser_navigate", url=url)
        self.ref = self._ref(await self._call("browser_snapshot"))

    async def _call(self, tool: str, **args: Any) -> str:
        res = await self.mcp.call_tool(tool, args)
        text = "\n".join(getattr(c, "text", "") for c in res.content)
        if getattr(res, "is_error", None) or getattr(res, "isError", None):
            raise RuntimeError(f"{tool}: {text[:500]}")
        return text

    @staticmethod
    def _ref(text: str) -> str:
        m = re.search(r'button "Button".*?\[ref=(e\d+)\]', text)
        assert m, text[:2000]
        return m.group(1)

    async def step(self) -> float:
        t0 = time.perf_counter()
        await self._call("browser_click", element="Button", target=self.ref)
        snapshot = await self._call("browser_snapshot")
        took = time.perf_counter() - t0
        self.ref = self._ref(snapshot)  # the ref as the agent reads it next
        return took

    async def clicks(self) -> int:
        out = await self._call(
            "browser_evaluate", function="() => +document.getElementById('b').dataset.n || 0"
        )
        m = re.search(r"\b(\d+)\b", out.split("Result", 1)[-1])
        return int(m.group(1)) if m else -1

    async def close(self) -> None:
        await self.stack.aclose()


class BrowserUse:
    """browser-use in its own venv, driven line by line (benchmarks/peer_browser_use.py)."""

    name = "browser-use"

    def __init__(self, python: Path, chromium: str) -> None:
        self.python, self.chromium = python, chromium

    async def open(self, url: str) -> None:
        self.proc = await asyncio.create_subprocess_exec(
            str(self.python),
            str(DRIVER),
            self.chromium,
            url,
            f"{VIEWPORT[0]}x{VIEWPORT[1]}",
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
        )
        await self._ask("ready")

    async def _ask(self, line: str) -> dict[str, Any]:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write((line + "\n").encode())
        await self.proc.stdin.drain()
        while True:
            raw = await asyncio.wait_for(self.proc.stdout.readline(), 120)
            if not raw:
                raise RuntimeError("the browser-use driver ended")
            if raw.startswith(b"{"):
                answer = json.loads(raw)
                if "error" in answer:
                    raise RuntimeError(f"browser-use: {answer['error']}")
                return answer

    async def step(self) -> float:
        return float((await self._ask("step"))["seconds"])

    async def clicks(self) -> int:
        return int((await self._ask("clicks"))["clicks"])

    async def close(self) -> None:
        try:
            await self._ask("quit")
        except Exception:
            pass
        await self.proc.wait()


# -- the run ---------------------------------------------------------------------------------------
async def run_page(arms: list[Any], url: str, steps: int, block: int) -> dict[str, list[float]]:
    times: dict[str, list[float]] = {a.name: [] for a in arms}
    for arm in arms:
        await arm.open(url)
    try:
        rounds = -(-steps // (block - 1))
        for r in range(rounds + 1):  # the first round warms every arm up
            for arm in arms:
                for i in range(block):
                    took = await arm.step()
                    if r > 0 and i > 0:
                        times[arm.name].append(took)
            print(f"  round {r}/{rounds} done", flush=True)
        for arm in arms:  # every arm really clicked every time: a benchmark of a no-op is worthless
            if hasattr(arm, "clicks"):
                n = await arm.clicks()
                assert n == (rounds + 1) * block, (
                    f"{arm.name}: {n} clicks took effect of {(rounds + 1) * block}"
                )
    finally:
        for arm in arms:
            await arm.close()
    return times


def table(results: dict[str, dict[str, list[float]]]) -> str:
    lines = ["| page | arm | median ms | × raw | steps |", "|---|---|---:|---:|---:|"]
    for page, times in results.items():
        raw = statistics.median(times["raw"]) if times.get("raw") else None
        for arm, vals in times.items():
            med = statistics.median(vals) * 1000
            ratio = f"{med / (raw * 1000):.2f}" if raw else "-"
            lines.append(f"| {page} | {arm} | {med:.1f} | {ratio} | {len(vals)} |")
    return "\n".join(lines)


async def main(a: argparse.Namespace) -> None:
    wanted = a.arms.split(",")
    root = Path(a.peers_dir)
    root.mkdir(parents=True, exist_ok=True)
    bu = ensure_browser_use(root) if "browser-use" in wanted else None
    mcp_cli = ensure_playwright_mcp(root) if "playwright-mcp" in wanted else None
    results: dict[str, dict[str, list[float]]] = {}
    with serve_pages({"/light": LIGHT, "/heavy": HEAVY}) as srv:
        for name in a.pages.split(","):
            arms: list[Any] = []
            for arm in wanted:
                if arm == "raw":
                    arms.append(Raw())
                elif arm in ("vision", "structured"):
                    arms.append(Webfovea(arm))
                elif arm == "browser-use" and bu is not None:
                    arms.append(BrowserUse(bu, a.chromium))
                elif arm == "playwright-mcp" and mcp_cli is not None:
                    arms.append(PlaywrightMcp(mcp_cli, a.chromium))
            print(f"{name}: {', '.join(x.name for x in arms)}", flush=True)
            results[name] = await run_page(arms, srv.url(f"/{name}"), a.steps, a.block)
    out = table(results)
    print(out)
    if a.out:
        Path(a.out).write_text(out + "\n")


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--steps", type=int, default=20, help="counted steps per arm and page")
    ap.add_argument("--block", type=int, default=5, help="steps per arm before the next arm's turn")
    ap.add_argument("--pages", default="light,heavy")
    ap.add_argument("--arms", default="raw,vision,structured,browser-use,playwright-mcp")
    ap.add_argument("--peers-dir", default=str(PEERS_DIR))
    ap.add_argument("--chromium", default=shutil.which("chromium") or "/usr/bin/chromium")
    ap.add_argument("--out", help="also write the table as Markdown here")
    asyncio.run(main(ap.parse_args()))
