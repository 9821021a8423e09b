"""Peak memory of one browser (PSS of the whole Chromium process tree) under candidate flags,
on the proving ground's heaviest pages, with a check that out-of-process iframes survive.

    .venv/bin/python benchmarks/bench_memory.py [--rounds 2]

Each flag set launches its own Chromium (the project's offline flags plus the candidate),
visits the pages a worker visits (dashboard with its out-of-process frame, the long
statistics table, the filings viewer, the rankings font page, the lab's WebSocket form in a
frame), one page at a time as the runner does, and samples the tree's PSS after each load.
A flag set that puts the dashboard's frame into the main renderer (no separate CDP target)
is marked "OOPIF lost": such flags are not acceptable.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_workers import tree_mem_mib  # noqa: E402
from playwright.async_api import async_playwright  # noqa: E402

from webfovea.browser.session import OFFLINE_FLAGS, browser_env, find_chrome  # noqa: E402
from webfovea.envs.serve import start_sites  # noqa: E402

PAGES = ["/dashboard", "/stats?country=KE&indicator=cpi", "/filings?doc=km-2024", "/rankings",
         "/lab/ws-frame?delay=0", "/energy", "/gate"]
CANDIDATES: list[tuple[str, list[str]]] = [
    ("baseline", []),
    ("in-process GPU", ["--in-process-gpu"]),
    ("renderer limit 2", ["--renderer-process-limit=2"]),
    ("low-end device mode", ["--enable-low-end-device-mode"]),
    ("small JS heap", ["--js-flags=--max-old-space-size=128 --max-semi-space-size=2"]),
    ("in-process GPU + low-end", ["--in-process-gpu", "--enable-low-end-device-mode"]),
    ("in-process GPU + low-end + JS heap",
     ["--in-process-gpu", "--enable-low-end-device-mode", "--js-flags=--max-old-space-size=128 --max-semi-space-size=2"]),
]


def _browser_pid(browser) -> int | None:  # noqa: ANN001
    proc = getattr(getattr(browser, "_impl_obj", None), "_process", None)
    return getattr(proc, "pid", None)


async def measure(sites, flags: list[str], rounds: int) -> tuple[float, bool]:  # noqa: ANN001
    home = tempfile.TemporaryDirectory(prefix="bench-mem-", ignore_cleanup_errors=True)
    async with async_playwright() as pw:
        before = set(_pids())
        browser = await pw.chromium.launch(executable_path=find_chrome(), args=[*OFFLINE_FLAGS, *flags],
                                           env=browser_env(Path(home.name)))
        roots = [p for p in _pids() if p not in before and _is_chrome_root(p)]
        ctx = await browser.new_context(viewport={"width": 1920, "height": 1080})
        peak, oopif = 0.0, False
        for _ in range(rounds):
            for path in PAGES:
                page = await ctx.new_page()
                await page.goto(sites.url(path), wait_until="load")
                await page.wait_for_timeout(600)
                if path == "/dashboard":
                    frame = next((f for f in page.frames if f.parent_frame is not None), None)
                    try:
                        if frame is not None:
                            await (await ctx.new_cdp_session(frame)).detach()
                            oopif = True
                    except Exception:
                        oopif = False
                peak = max(peak, sum(tree_mem_mib(r) for r in roots))
                await page.close()
        await browser.close()
    home.cleanup()
    return peak, oopif


def _pids() -> list[int]:
    return [int(p.name) for p in Path("/proc").iterdir() if p.name.isdigit()]


def _is_chrome_root(pid: int) -> bool:
    try:
        cmd = (Path("/proc") / str(pid) / "cmdline").read_bytes().split(b"\0")
    except OSError:
        return False
    return bool(cmd) and b"chrom" in cmd[0] and not any(a.startswith(b"--type=") for a in cmd)


async def main(rounds: int) -> None:
    with start_sites() as sites:
        print(f"{'flags':<36} {'peak browser PSS MiB':>20} {'OOPIF':>6}")
        for name, flags in CANDIDATES:
            peak, oopif = await measure(sites, flags, rounds)
            print(f"{name:<36} {peak:>20.0f} {'kept' if oopif else 'LOST':>6}")


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--only", default="", help="comma-separated names of flag sets to run (default: all)")
    a = ap.parse_args()
    if a.only:
        wanted = set(a.only.split(","))
        CANDIDATES[:] = [c for c in CANDIDATES if c[0] in wanted]
    asyncio.run(main(a.rounds))
