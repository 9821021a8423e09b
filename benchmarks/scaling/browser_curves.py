"""Curves measured in real headless Chromium: a step against DOM size, a structured snapshot
against table rows.

- `dom`: a page of N elements (rows of spans, a button on top); per size, the median of
  observe() + step(click) over `reps` steps (as benchmarks/bench_step.py measures a step) and
  the PSS of this process's tree (Python, the Node driver, Chromium) after the steps.
- `rows`: a table of N rows and 6 columns; per size, the median time of one structured
  snapshot (observation/snapshot.take, scoping on as shipped) and the tokens the model is
  shown (characters / 4, as the loopback providers count).
"""

from __future__ import annotations

import asyncio
import math
import os
import statistics
import time

from fit import Curve

from tests.support.servers import serve_pages
from webfovea.browser.session import BrowserSession
from webfovea.config import make_config
from webfovea.harness import Harness
from webfovea.observation.snapshot import take
from webfovea.runner.procs import tree_memory_mib

CLICK = "Thought: press it\nAction: click(start_box='<|box_start|>(150,60)<|box_end|>')"
BUTTON = (
    "<button id=b style='position:fixed;left:150px;top:60px;width:160px;height:40px;z-index:9'"
    " onclick='this.dataset.n=(+this.dataset.n||0)+1'>Count</button>"
)


def dom_page(nodes: int) -> str:
    rows = max(1, nodes // 10)  # a row: one div and nine spans
    body = "".join(
        "<div class=r>" + "".join(f"<span>c{r}.{c}</span>" for c in range(9)) + "</div>" for r in range(rows)
    )
    return f"<html><body style='margin:0;font:13px sans-serif'>{BUTTON}<div style='padding-top:120px'>{body}</div></body></html>"


def table_page(rows: int) -> str:
    body = "".join(
        f"<tr><td>{r}</td><td>Item {r}</td><td>{r * 7 % 1000}</td><td>{r % 13}</td><td>Region {r % 9}</td>"
        f"<td><a href='#r{r}'>open</a></td></tr>"
        for r in range(rows)
    )
    return (
        "<html><body style='font:13px sans-serif'><h1>Register</h1><table><thead><tr><th>#</th><th>Name</th>"
        f"<th>Value</th><th>Code</th><th>Region</th><th></th></tr></thead><tbody>{body}</tbody></table></body></html>"
    )


async def dom_curve(sizes: list[int], reps: int) -> tuple[Curve, Curve]:
    step = Curve("dom_step", "A click step against DOM size", "DOM elements", "observe + click step, ms")
    mem = Curve(
        "dom_memory", "Process-tree memory against DOM size", "DOM elements", "PSS after the steps, MiB"
    )
    pages = {f"/d{n}": dom_page(n) for n in sizes}
    with serve_pages(pages) as srv:
        session = await BrowserSession.launch(offline=True)
        try:
            for n in sizes:
                page = await session.fresh_page()
                cfg = make_config("webfovea", disable=["loop_breaker"])
                h = await Harness.on_page(page, cfg)
                await h.goto(srv.url(f"/d{n}"))
                times = []
                for i in range(reps + 1):  # the first warms the injected scripts
                    t0 = time.perf_counter()
                    await h.observe()
                    res = await h.step(CLICK)
                    if i:
                        times.append((time.perf_counter() - t0) * 1000)
                    assert res.error is None, res.error
                clicks = await page.evaluate("+document.getElementById('b').dataset.n || 0")
                assert clicks == reps + 1, f"{clicks} clicks landed of {reps + 1}"
                step.points.append((n, statistics.median(times)))
                mem.points.append((n, tree_memory_mib(os.getpid())))
                print(
                    f"  dom {n:>7,}: step {step.points[-1][1]:7.1f} ms, tree PSS {mem.points[-1][1]:6.0f} MiB"
                )
                await page.close()
        finally:
            await session.close()
    return step, mem


async def rows_curve(sizes: list[int], reps: int) -> tuple[Curve, Curve]:
    ms = Curve("rows_snapshot", "A structured snapshot against table rows", "table rows", "snapshot, ms")
    tok = Curve("rows_tokens", "What the model is shown against table rows", "table rows", "snapshot tokens")
    pages = {f"/t{n}": table_page(n) for n in sizes}
    cfg = make_config(observation="structured")
    with serve_pages(pages) as srv:
        session = await BrowserSession.launch(offline=True)
        try:
            for n in sizes:
                page = await session.fresh_page()
                await page.goto(srv.url(f"/t{n}"), wait_until="load")
                times, shown = [], 0
                for i in range(reps + 1):
                    t0 = time.perf_counter()
                    snap = await take(page, cfg)
                    if i:
                        times.append((time.perf_counter() - t0) * 1000)
                    shown = math.ceil(len(snap.text) / 4)
                ms.points.append((n, statistics.median(times)))
                tok.points.append((n, shown))
                print(f"  rows {n:>7,}: snapshot {ms.points[-1][1]:8.1f} ms, {shown:,} tokens shown")
                await page.close()
        finally:
            await session.close()
    return ms, tok


def run_dom(sizes: list[int], reps: int) -> list[Curve]:
    return list(asyncio.run(dom_curve(sizes, reps)))


def run_rows(sizes: list[int], reps: int) -> list[Curve]:
    return list(asyncio.run(rows_curve(sizes, reps)))
