"""Peak memory of one browser (PSS of the whole Chromium process tree) under candidate flags,
on the proving ground's heaviest pages, with a check that out-of-process iframes survive.

    .venv/bin/python benchmarks/bench_memory.py [--rounds 2] [--only NAME,...] [--flags "FLAGS"]

Each flag set launches its own Chromium with the project's launch flags (session.launch_args,
offline; a candidate's --disable-features is merged into the project's list; --without-ours
leaves out the features the project turns off for memory) plus the candidate,
visits the pages a worker visits (dashboard with its out-of-process frame, the long statistics
table, the filings viewer, the rankings font page, the lab's WebSocket form in a frame, the
3,000-row station register), one page at a time as the runner does, takes the AI snapshot
structured mode reads, and samples the tree after each page: PSS (shared pages split among
their users) and private memory (USS, which moves less with how many other Chromiums run on
the machine: only through code pages no other process maps). The Playwright driver and Python
are not counted here (see bench_workers.py). A flag set that puts the dashboard's frame into the main renderer (no
separate CDP target) is marked "OOPIF lost": such flags are not acceptable.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import shlex
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from playwright.async_api import async_playwright  # noqa: E402

from webfovea.browser import session  # noqa: E402
from webfovea.browser.session import browser_env, find_chrome, launch_args  # noqa: E402
from webfovea.runner.memory import Breakdown, role_of, tree_breakdown  # noqa: E402
from webfovea.runner.procs import cmdline, descendants  # noqa: E402
from webfovea_proving_ground.serve import start_sites  # noqa: E402

PAGES = [
    "/dashboard",
    "/stats?country=KE&indicator=cpi",
    "/filings?doc=km-2024",
    "/rankings",
    "/lab/ws-frame?delay=0",
    "/energy",
    "/gate",
    "/struct/stations",
]
CANDIDATES: list[tuple[str, list[str]]] = [
    ("baseline", []),
    ("no WebUI preload", ["--disable-features=PreloadTopChromeWebUI"]),
    ("no omnibox WebUI popups", ["--disable-features=WebUIOmniboxPopup,WebUIOmniboxAimPopup"]),
    ("no spare renderer", ["--disable-features=SpareRendererForSitePerProcess"]),
    ("in-process GPU", ["--in-process-gpu"]),
    ("no software rasterizer", ["--disable-software-rasterizer"]),
    ("no zygote", ["--no-zygote"]),
    ("no Translate", ["--disable-features=Translate"]),
    ("renderer limit 2", ["--renderer-process-limit=2"]),
    ("low-end device mode", ["--enable-low-end-device-mode"]),
    ("small JS heap", ["--js-flags=--max-old-space-size=128 --max-semi-space-size=2"]),
    ("JS semi-space 1 MiB", ["--js-flags=--max-semi-space-size=1"]),
    ("JS optimize for size", ["--js-flags=--optimize-for-size"]),
]


async def measure(sites, flags: list[str], rounds: int) -> tuple[Breakdown, bool]:  # noqa: ANN001
    home = tempfile.TemporaryDirectory(prefix="bench-mem-", ignore_cleanup_errors=True)
    async with async_playwright() as pw:
        exe = find_chrome()
        browser = await pw.chromium.launch(
            executable_path=exe, args=launch_args(True, flags, exe), env=browser_env(Path(home.name))
        )
        root = _browser_root()
        ctx = await browser.new_context(viewport={"width": 1920, "height": 1080})
        peak, oopif = Breakdown(), False
        for _ in range(rounds):
            for path in PAGES:
                page = await ctx.new_page()
                await page.goto(sites.url(path), wait_until="load")
                await page.aria_snapshot(mode="ai")  # what structured and hybrid modes read each step
                await page.wait_for_timeout(600)
                if path == "/dashboard":
                    frame = next((f for f in page.frames if f.parent_frame is not None), None)
                    try:
                        if frame is not None:
                            await (await ctx.new_cdp_session(frame)).detach()
                            oopif = True
                    except Exception:
                        oopif = False
                now = tree_breakdown(root) if root else Breakdown()
                if now.pss_mib > peak.pss_mib:
                    peak = now
                await page.close()
        await browser.close()
    home.cleanup()
    return peak, oopif


def _browser_root() -> int | None:
    """Our Chromium's browser process: the first one without --type= below this process (its
    parent is our Playwright driver), never another program's Chromium."""
    return next((p for p in descendants(os.getpid()) if role_of(cmdline(p)) == "browser"), None)


async def main(rounds: int, show_roles: bool) -> None:
    with start_sites() as sites:
        print(f"browser: {find_chrome()}")
        print(f"{'flags':<28} {'peak PSS MiB':>12} {'private MiB':>11} {'renderers':>9} {'OOPIF':>6}")
        for name, flags in CANDIDATES:
            peak, oopif = await measure(sites, flags, rounds)
            print(
                f"{name:<28} {peak.pss_mib:>12.0f} {peak.uss_mib:>11.0f} {peak.count.get('renderer', 0):>9}"
                f" {'kept' if oopif else 'LOST':>6}",
                flush=True,
            )
            if show_roles:
                print("\n".join("    " + line for line in peak.lines()), flush=True)
    print(f"load average at the end: {Path('/proc/loadavg').read_text().strip()}")


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--only", default="", help="comma-separated names of flag sets to run (default: all)")
    ap.add_argument(
        "--flags", default="", help="measure this one flag set (shell-quoted) next to the baseline"
    )
    ap.add_argument("--roles", action="store_true", help="print each peak's split by process role")
    ap.add_argument(
        "--without-ours",
        action="store_true",
        help="launch without the project's memory flags (session.MEMORY_DISABLED_FEATURES): the 'before'",
    )
    a = ap.parse_args()
    if a.without_ours:
        session.MEMORY_DISABLED_FEATURES = []  # launch_args reads it at each launch
    if a.flags:
        CANDIDATES[:] = [CANDIDATES[0], (a.flags, shlex.split(a.flags))]
    elif a.only:
        wanted = set(a.only.split(","))
        CANDIDATES[:] = [c for c in CANDIDATES if c[0] in wanted]
    asyncio.run(main(a.rounds, a.roles))
