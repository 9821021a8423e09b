"""Starting Playwright's driver (a Node.js process per BrowserSession) with Node's compile cache.

A launch-and-close costs 0.375 s of CPU on the 2-core machines (driver and Chromium; the most of
it the driver loading Playwright's JavaScript), 0.325 s when Node keeps its compiled code in a
folder between runs (`NODE_COMPILE_CACHE`, Node 22+; benchmarks/bench_launch.py). Playwright
hands the driver this process's environment and takes no env of its own, so the variable is set
for the moment the driver is spawned and taken away again. A user's own NODE_COMPILE_CACHE, or
Node's NODE_DISABLE_COMPILE_CACHE, wins; WEBFOVEA_NODE_CACHE=off leaves Node as it is. Node
writes each entry to a temporary file and renames it (nodejs/node#54971) and keeps one folder
per Node version, so workers and Playwright upgrades share the folder safely."""

from __future__ import annotations

import os
from pathlib import Path

from playwright.async_api import Playwright, async_playwright

from webfovea.user_cache import user_cache

CACHE_ENV = "NODE_COMPILE_CACHE"
SWITCH_ENV = "WEBFOVEA_NODE_CACHE"  # a folder, or off


def compile_cache_dir() -> Path | None:
    """The folder the driver's compile cache goes to (None: leave Node's environment alone)."""
    if os.environ.get(CACHE_ENV) or os.environ.get("NODE_DISABLE_COMPILE_CACHE"):
        return None
    return user_cache(SWITCH_ENV, "node-compile")


async def start_playwright() -> Playwright:
    """`async_playwright().start()`, its driver spawned with the compile cache."""
    folder = compile_cache_dir()
    if folder is None:
        return await async_playwright().start()
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError:  # an unwritable home costs the cache, not the launch
        return await async_playwright().start()
    os.environ[CACHE_ENV] = str(folder)
    try:
        return await async_playwright().start()
    finally:
        # Two launches at once on one loop: the second sees the first's value and leaves it, the
        # first takes it away: at worst one driver starts without the cache.
        if os.environ.get(CACHE_ENV) == str(folder):
            del os.environ[CACHE_ENV]
