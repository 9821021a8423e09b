"""browser-use's click and page state, driven one line at a time by benchmarks/bench_peers.py.

Runs inside browser-use's own venv (never ours):

    <peers>/venv/bin/python benchmarks/peer_browser_use.py CHROMIUM URL WIDTHxHEIGHT

Reads commands on stdin — `ready`, `step`, `clicks`, `quit` — and answers each with one JSON
line on stdout (browser-use's own log lines are ignored by the reader). A step is what its agent
does after deciding to click: the click by element index through its event bus (as its
`click` tool dispatches it) and then the page state its agent reads next (the DOM tree with
indices and a screenshot, `get_browser_state_summary(include_screenshot=True)`).
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
import time
from typing import Any

os.environ.setdefault("ANONYMIZED_TELEMETRY", "false")
os.environ.setdefault("BROWSER_USE_LOGGING_LEVEL", "error")

from browser_use import BrowserProfile, BrowserSession  # type: ignore[import-not-found]  # noqa: E402
from browser_use.browser.events import ClickElementEvent  # type: ignore[import-not-found]  # noqa: E402


def say(answer: dict[str, Any]) -> None:
    sys.stdout.write(json.dumps(answer) + "\n")
    sys.stdout.flush()


def button_index(state: Any) -> int:
    for index, node in state.dom_state.selector_map.items():
        if (node.attributes or {}).get("id") == "b":
            return int(index)
    raise RuntimeError("the button is not among browser-use's interactive elements")


async def main(chromium: str, url: str, size: str) -> None:
    width, height = (int(v) for v in size.split("x"))
    profile = BrowserProfile(
        executable_path=chromium,
        headless=True,
        chromium_sandbox=False,  # Chromium refuses its sandbox as root (how these machines run it)
        viewport={"width": width, "height": height},
        window_size={"width": width, "height": height},
        user_data_dir=None,
        keep_alive=True,
    )
    session = BrowserSession(browser_profile=profile)
    await session.start()
    await session.navigate_to(url)
    state = await session.get_browser_state_summary(include_screenshot=True)
    loop = asyncio.get_running_loop()
    while True:
        line = (await loop.run_in_executor(None, sys.stdin.readline)).strip()
        try:
            if line == "ready":
                say({"ready": True})
            elif line == "step":
                t0 = time.perf_counter()
                node = state.dom_state.selector_map[button_index(state)]
                event = session.event_bus.dispatch(ClickElementEvent(node=node))
                await event
                await event.event_result(raise_if_any=True, raise_if_none=False)
                state = await session.get_browser_state_summary(include_screenshot=True)
                say({"seconds": time.perf_counter() - t0})
            elif line == "clicks":
                page = await session.get_current_page()
                n = await page.evaluate("() => +document.getElementById('b').dataset.n || 0")
                say({"clicks": int(n)})
            elif line in ("quit", ""):
                await session.kill()
                say({"bye": True})
                return
        except Exception as e:
            say({"error": f"{type(e).__name__}: {e}"})


if __name__ == "__main__":
    asyncio.run(main(*sys.argv[1:4]))
