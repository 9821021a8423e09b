"""The site guard, enforced by the browser: the task stays on its site; evidence from the other
server's own access log, never from the harness's records."""

import json

import pytest

from tests.support.scripted import FINISH, ScriptedModel
from tests.support.servers import Redirect, serve_pages
from webfovea.agent import run_task
from webfovea.config import make_config
from webfovea.guardrails.site import SitePolicy, registrable
from webfovea.harness import Harness
from webfovea.task import Task

pytestmark = pytest.mark.asyncio(loop_scope="session")
ADMIN = "<html><body><p id=token>ADMIN-TOKEN-7d1e</p></body></html>"


class Scripted(ScriptedModel):
    def __init__(self, replies: list[str]) -> None:
        super().__init__(replies, then=FINISH)


def links(admin_url, frame_url=""):
    """A page whose controls each try to leave the site, at known CSS points (x=200, y=60+80*i)."""
    items = [
        f'<a href="{admin_url}/admin">admin link</a>',
        '<a href="/redir">redirecting link</a>',
        f'<form method=post action="{admin_url}/admin"><button>post form</button></form>',
        '<a href="/next" target=_blank>same-site new tab</a>',
        f"<button onclick=\"window.open('{admin_url}/admin?popup')\">admin pop-up</button>",
        '<a href="/next">same-site link</a>',
    ]
    rows = "".join(
        f'<div style="position:absolute;left:150px;top:{40 + 80 * i}px;font-size:24px">{it}</div>'
        for i, it in enumerate(items)
    )
    frame = (
        f'<iframe id=f src="{frame_url}" style="position:absolute;left:800px;top:40px"></iframe>'
        if frame_url
        else ""
    )
    return f"<html><body style='margin:0'>{rows}{frame}</body></html>"


ROWS = {"admin": 0, "redirect": 1, "post": 2, "tab": 3, "popup": 4, "same": 5}
NEXT = "<html><head><title>Next</title></head><body><p>second page</p></body></html>"


@pytest.fixture
def sites():
    with serve_pages({"/admin": ADMIN}) as admin:
        admin_url = f"http://127.0.0.1:{admin.port}"
        with serve_pages(
            {
                "/": links(admin_url, admin_url + "/admin?iframe"),
                "/next": NEXT,
                "/redir": Redirect(admin_url + "/admin?redirect"),
            }
        ) as site:
            yield site, admin


def click(row):
    y = 40 + 80 * ROWS[row] + 15
    return f"Thought: t\nAction: click(start_box='<|box_start|>({170 * 1440 / 1920:.0f},{y * 810 / 1080:.0f})<|box_end|>')"


async def guarded(session, url):
    ctx = await session.browser.new_context(viewport={"width": 1920, "height": 1080})
    page = await ctx.new_page()
    h = await Harness.on_page(page, make_config())
    await h.guard_site(url)
    await h.goto(url)
    return ctx, h


@pytest.mark.parametrize("row", ["admin", "redirect", "post", "popup"])
async def test_leaving_the_site_is_blocked_in_the_browser(session, sites, row):
    site, admin = sites
    ctx, h = await guarded(session, site.url("/"))
    try:
        await h.observe()
        res = await h.step(click(row))
        assert [p for p in admin.log if "iframe" not in p] == []  # the admin port never saw the request
        assert "was blocked" in res.feedback and "local or private address" in res.feedback
        assert h.page.url == site.url("/") and len(ctx.pages) == 1  # still on the page; no stray tab
        obs = await h.observe()
        assert obs.url == site.url("/")
    finally:
        await ctx.close()


async def test_iframes_and_same_site_links_keep_working(session, sites):
    site, admin = sites
    ctx, h = await guarded(session, site.url("/"))
    try:
        assert "/admin?iframe" in admin.log  # a subframe from another port still loads
        await h.observe()
        res = await h.step(click("same"))
        assert h.page.url == site.url("/next") and "blocked" not in res.feedback
    finally:
        await ctx.close()


async def test_a_new_tab_becomes_the_observed_page(session, sites):
    site, _ = sites
    ctx, h = await guarded(session, site.url("/"))
    try:
        await h.observe()
        res = await h.step(click("tab"))
        assert "opened a new tab" in res.feedback and h.page.url == site.url("/next")
        obs = await h.observe()
        assert obs.url == site.url("/next") and len(ctx.pages) == 2
    finally:
        await ctx.close()


async def test_run_task_records_blocks_and_the_new_tabs_first_navigation(session, tmp_path, sites):
    site, admin = sites
    task = Task(task_id="g", task="x", website=site.url("/"))
    res = await run_task(
        task,
        tmp_path / "g",
        session=session,
        model=Scripted([click("admin"), click("tab")]),
        config=make_config(),
    )
    assert res.status == "finished" and [p for p in admin.log if "iframe" not in p] == []
    cap = json.loads((tmp_path / "g" / "capture.json").read_text())
    assert [b["url"] for b in cap["blocks"]] == [f"http://127.0.0.1:{admin.port}/admin"]
    assert any(n["url"] == site.url("/next") and n.get("new_tab") for n in cap["navigations"])
    steps = [json.loads(line) for line in (tmp_path / "g" / "trajectory.jsonl").read_text().splitlines()]
    assert "was blocked" in steps[0]["feedback"] and "new tab" in steps[1]["feedback"]


async def test_policy_sites():
    p = SitePolicy("https://shop.example.co.uk/a", allow_domains=["partner.org"])
    assert registrable("a.b.example.co.uk") == "example.co.uk"
    for ok in (
        "https://www.example.co.uk/x",
        "http://example.co.uk",
        "https://cdn.partner.org/y",
        "about:blank",
    ):
        assert p.check(ok) is None, ok
    for bad in (
        "https://evil-example.co.uk/",
        "https://example.co.uk.evil.net/",
        "https://example.co.uk@evil.net/",
        "http://127.0.0.1:8080/admin",
        "http://192.168.1.1/",
        "file:///etc/passwd",
        "data:text/html,x",
        "view-source:https://example.co.uk/",
        "chrome://settings",
        "https://other.com/",
    ):
        assert p.check(bad) is not None, bad
        assert p.prefilter().match(bad), bad  # everything refused reaches the route handler
    assert not p.prefilter().match("https://www.example.co.uk/x")
    local = SitePolicy("http://127.0.0.1:8000/stats", allow_origins=["http://localhost:8001"])
    assert local.check("http://127.0.0.1:8000/x") is None and local.check("http://localhost:8001/doc") is None
    assert (
        local.check("http://127.0.0.1:8002/")
        and local.check("http://localhost:8000/")
        and local.check("https://a.com/")
    )


async def test_a_shared_browser_does_not_carry_a_guard_into_the_next_task(tmp_path, session):
    """The runner reuses one browser for many tasks: each task is guarded by its own site only."""
    nav = (
        "Thought: t\nAction: click(start_box='<|box_start|>(112,101)<|box_end|>')"  # (150, 135) CSS: the link
    )
    page = (
        '<html><body style="margin:0"><a href="/next" style="position:absolute;left:150px;top:120px;'
        'font-size:24px">next</a></body></html>'
    )
    with serve_pages({"/": page, "/next": NEXT}) as one, serve_pages({"/": page, "/next": NEXT}) as two:
        for i, site in enumerate((one, two)):
            task = Task(task_id=f"s{i}", task="x", website=site.url("/"))
            res = await run_task(
                task, tmp_path / f"s{i}", model=Scripted([nav]), config=make_config(), session=session
            )
            assert res.status == "finished" and "/next" in site.log, (i, res.error)
