"""Memory per worker: a reused browser lets go of each task's objects, the launch keeps
Playwright's disabled features next to ours, and the breakdown names every process."""

import asyncio
import gc
import os
import subprocess
import sys
import weakref

import pytest

from tests.support.servers import serve_pages
from webfovea.browser.session import (
    MEMORY_DISABLED_FEATURES,
    MEMORY_ENABLED_FEATURES,
    MEMORY_JS_FLAGS,
    PLAYWRIGHT_DISABLED_FEATURES,
    BrowserSession,
    launch_args,
    playwright_enabled_features,
)
from webfovea.browser.world import worlds
from webfovea.runner.memory import (
    DRIVER_NODE_OPTIONS,
    DRIVER_PRELOAD,
    role_of,
    tree_breakdown,
    tune_driver_env,
)
from webfovea.runner.procs import cmdline, descendants

ASYNC = pytest.mark.asyncio(loop_scope="session")
PAGES = {"/": "<title>T</title><p>hello</p>", "/b": "<title>B</title><p>again</p>"}


class Held:
    """Stands for what a task's handlers keep reachable (its harness, its screenshots)."""


async def _tab_with_listener(session: BrowserSession, url: str) -> weakref.ref:
    page = await session.fresh_page()
    await page.goto(url)
    # As every task does: the page's worlds are kept per page for good (browser/world.py), so
    # the closed page object itself stays reachable.
    await worlds(page).main()
    held = Held()
    page.on("framenavigated", lambda _frame, held=held: None)  # never taken off, as a task might leave it
    return weakref.ref(held)


@ASYNC
async def test_a_closed_tab_lets_go_of_what_its_listeners_held(session):
    with serve_pages(PAGES) as srv:
        ref = await _tab_with_listener(session, srv.url("/"))
        gc.collect()
        assert ref() is not None  # the tab is open: its listener must still work
        page = await session.fresh_page()  # the next task's tab closes this one
        await page.goto(srv.url("/b"))
        gc.collect()
        assert ref() is None

        ref = await _tab_with_listener(session, srv.url("/"))
        await session.close_pages()  # what the worker does after each task
        gc.collect()
        assert ref() is None
        assert [p.url for p in session.context.pages] == ["about:blank"]
        assert await session.healthy()  # and the browser still works for the next task


def test_one_disabled_features_flag_with_playwrights_ours_and_the_users():
    args = launch_args(False, ["--disable-features=UserOne,UserTwo"])
    flags = [a for a in args if a.startswith("--disable-features=")]
    assert len(flags) == 1 and flags == [a for a in args if "disable-features" in a]
    names = flags[0].split("=", 1)[1].split(",")
    assert set(PLAYWRIGHT_DISABLED_FEATURES) | set(MEMORY_DISABLED_FEATURES) | {"UserOne", "UserTwo"} == set(
        names
    )
    assert len(names) == len(set(names))


def test_one_enabled_features_flag_with_playwrights_ours_and_the_users():
    args = launch_args(False, ["--enable-features=UserOne", "--enable-features=UserTwo"])
    flags = [a for a in args if a.startswith("--enable-features=")]
    assert len(flags) == 1
    names = flags[0].split("=", 1)[1].split(",")
    assert names == [*playwright_enabled_features(), *MEMORY_ENABLED_FEATURES, "UserOne", "UserTwo"]


def test_one_js_flags_flag_with_ours_first_and_the_users_after():
    args = launch_args(False, ["--js-flags=--max-old-space-size=512"])
    js = [a for a in args if a.startswith("--js-flags=")]
    assert js == [f"--js-flags={MEMORY_JS_FLAGS} --max-old-space-size=512"]


def _args(pid: int) -> list[str]:
    # Chromium rewrites its argv into one space-separated title
    return b" ".join(cmdline(pid)).decode(errors="replace").split(" ")


@ASYNC
async def test_the_browser_keeps_playwrights_disabled_features_and_ours(session):
    await session.fresh_page()
    tree = descendants(os.getpid())
    browser = next(p for p in tree if role_of(cmdline(p)) == "browser")
    given = [a.split("=", 1)[1].split(",") for a in _args(browser) if a.startswith("--disable-features=")]
    assert len(given) == 2  # Playwright's own, then ours (the one Chromium keeps)
    # A child process gets the browser's effective feature state on its command line.
    child = next(
        p for p in descendants(browser) if any(a.startswith("--disable-features=") for a in _args(p))
    )
    effective = (
        next(a for a in _args(child) if a.startswith("--disable-features=")).split("=", 1)[1].split(",")
    )
    missing = set(given[0]) - set(effective)
    assert not missing, f"Playwright disables more than PLAYWRIGHT_DISABLED_FEATURES lists: {missing}"
    assert set(MEMORY_DISABLED_FEATURES) <= set(effective)
    renderer = next(p for p in descendants(browser) if role_of(cmdline(p)) == "renderer")
    assert MEMORY_JS_FLAGS in " ".join(_args(renderer))  # V8 in the pages' renderers gets it
    # Playwright's enabled features survive ours (Chromium keeps the last flag), and ours work:
    # no network service process of its own.
    on = next(a for a in _args(child) if a.startswith("--enable-features=")).split("=", 1)[1].split(",")
    pw_on = [a.split("=", 1)[1].split(",") for a in _args(browser) if a.startswith("--enable-features=")][0]
    assert set(pw_on) <= set(on), (
        f"Playwright enables more than playwright_enabled_features() lists: {set(pw_on) - set(on)}"
    )
    assert set(MEMORY_ENABLED_FEATURES) <= set(on)
    assert not [p for p in descendants(browser) if role_of(cmdline(p)) == "network"]


@ASYNC
async def test_breakdown_names_each_process_of_the_tree(session):
    with serve_pages(PAGES) as srv:
        page = await session.fresh_page()
        await page.goto(srv.url("/"))
        b = tree_breakdown(os.getpid())
    for role in ("python", "node driver", "browser", "renderer", "gpu"):
        assert b.pss.get(role, 0) > 0, (role, b.lines())
    assert not [r for r in b.pss if r.startswith("other")], b.lines()
    assert abs(b.pss_mib - sum(b.pss.values()) / 1024) < 1e-9 and b.uss_mib <= b.pss_mib + 1
    assert b.lines()[-1].startswith("total")


RELEASE = """
import os
from webfovea.runner.memory import release_memory, smaps_kib, tune_allocator
tune_allocator()
rss = lambda: smaps_kib(os.getpid())["Rss"] // 1024
base = rss()
blocks = [bytes(2000) for _ in range(60_000)]  # ~120 MiB of blocks too big for pymalloc
keep = blocks[::100]  # a few survivors pin the heap: glibc alone gives nothing back
del blocks
before = rss()
release_memory()
print(base, before, rss())
"""


def test_release_memory_gives_freed_heap_back():
    out = subprocess.run(
        [sys.executable, "-c", RELEASE], capture_output=True, text=True, timeout=60, check=True
    )
    base, before, after = map(int, out.stdout.split())
    assert before - base > 80, out.stdout  # the freed blocks were still resident
    assert after - base < 20, out.stdout


def test_allocator_tuning_is_harmless_before_the_event_loop():
    code = (
        "from webfovea.runner.memory import tune_allocator, release_memory; import asyncio; tune_allocator();"
        "print(asyncio.run(asyncio.to_thread(lambda: sum(range(10)))))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True)
    assert out.stdout.strip() == "45"


def test_roles_from_chromium_titles():
    assert (
        role_of([b"/usr/lib/chromium/chromium --type=renderer --top-chrome-webui --lang=en"])
        == "renderer (webui)"
    )
    assert (
        role_of(
            [
                b"/usr/lib/chromium/chromium",
                b"--type=utility",
                b"--utility-sub-type=network.mojom.NetworkService",
            ]
        )
        == "network"
    )
    assert role_of([b"/x/driver/node", b"/x/cli.js", b"run-driver"]) == "node driver"
    assert role_of([b"/usr/lib/chromium/chromium", b"--headless", b"--no-sandbox"]) == "browser"
    assert role_of([b"/usr/lib/chromium/chrome_crashpad_handler", b"--monitor-self"]) == "crashpad"


def test_driver_node_options_added_once_and_never_over_the_users():
    env = {"NODE_OPTIONS": "--trace-warnings"}
    tune_driver_env(env)
    tune_driver_env(env)
    preload = f"--require {DRIVER_PRELOAD}"
    assert env["NODE_OPTIONS"] == f"--trace-warnings {DRIVER_NODE_OPTIONS} {preload}"
    mine = {"NODE_OPTIONS": "--max-semi-space-size=8"}
    tune_driver_env(mine)
    assert mine["NODE_OPTIONS"] == f"--max-semi-space-size=8 --jitless --expose-gc {preload}"
    jit = {"NODE_OPTIONS": "--no-jitless --max-semi-space-size=8 --expose-gc"}
    tune_driver_env(jit)
    assert jit["NODE_OPTIONS"] == f"--no-jitless --max-semi-space-size=8 --expose-gc {preload}"
    empty: dict[str, str] = {}
    tune_driver_env(empty)
    assert empty["NODE_OPTIONS"] == f"{DRIVER_NODE_OPTIONS} {preload}"
    off = {"WEBFOVEA_DRIVER_PRELOAD": "off"}
    tune_driver_env(off)
    assert off["NODE_OPTIONS"] == DRIVER_NODE_OPTIONS


@ASYNC
async def test_a_closed_page_leaves_the_worlds_table(session):
    from webfovea.browser import world

    with serve_pages(PAGES) as srv:
        page = await session.fresh_page()
        await page.goto(srv.url("/"))
        await worlds(page).main()
        assert page in world._WORLDS
        await page.close()
        await asyncio.sleep(0.1)  # the close event reaches the listener
        assert page not in world._WORLDS  # its value held the page: the weak key alone never let go
