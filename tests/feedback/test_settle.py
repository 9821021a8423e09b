"""The settle wait on the widget lab: the observation after `step()` already shows the result
(WebSocket answers in the main frame and in an out-of-process frame, hover delays, debounced
autocomplete, CSS transitions); quiet pages return at once; a hostile page can neither hang
nor shorten the wait."""

from __future__ import annotations

import time

import pytest

from tests.feedback.conftest import act, open_lab
from tests.support.servers import serve_pages
from webfovea.config import make_config
from webfovea.harness import Harness

pytestmark = pytest.mark.asyncio(loop_scope="session")


async def _order(session, sites, path: str, frame: str | None, **cfg):
    h = await open_lab(session, sites, path, **cfg)
    if frame:
        f = h.page.frame_locator(frame)
        await f.locator("#submit").wait_for()
    await h.page.wait_for_timeout(200)  # the socket connects
    res = await act(h, "click", "#submit", frame)
    loc = (h.page.frame_locator(frame) if frame else h.page).locator("#result")
    return h, res, (await loc.inner_text()).strip()


@pytest.mark.parametrize("delay", [0, 50, 150, 500])
async def test_websocket_answer_is_in_the_view_after_step(session, sites, delay):
    for path, frame in ((f"/lab/ws?delay={delay}", None), (f"/lab/ws-frame?delay={delay}", "#order-frame")):
        h, res, shown = await _order(session, sites, path, frame)
        assert shown.startswith("Order accepted"), (path, shown)
        assert res.outcome == "executed" and "No detectable change" not in res.feedback
        obs = await h.observe()  # the capture taken once the answer was in is the one reused
        assert h.reused_captures == 1 and obs.image is not None


async def test_without_the_switch_the_answer_comes_too_late(session, sites):
    # 1.5 s: the plain quiet wait returns long before; a loaded machine cannot make it look "in time".
    _, _, shown = await _order(session, sites, "/lab/ws?delay=1500", None, disable=["settle_aware"])
    assert shown == ""


async def test_hover_menu_opens_within_the_step(session, sites):
    h = await open_lab(session, sites, "/lab/menu")
    res = await act(h, "hover", "#menu-top")
    assert await h.page.locator("#submenu a").first.is_visible()
    assert res.executed.changed is True and "timer" in h.settle.last.waited_for


async def test_debounced_autocomplete_is_in_the_view_after_fill(session, sites):
    h = await open_lab(session, sites, "/lab/autocomplete")
    res = await act(h, "fill", "#port-q", content="ha")
    assert await h.page.locator("#port-suggestions li").count() == 2
    assert res.outcome == "executed" and res.executed.changed is True


async def test_transition_has_ended_when_step_returns(session, sites):
    h = await open_lab(session, sites, "/lab/order")
    await act(h, "click", "#show-options")
    height = await h.page.eval_on_selector("#options", "e => e.getBoundingClientRect().height")
    assert height == 240 and "animation" in h.settle.last.waited_for


async def test_quiet_page_returns_at_once(session, sites):
    h = await open_lab(session, sites, "/lab/text")
    # What the wait waited for, not how long the wall clock says (a loaded machine stretches
    # every wait; the speed itself is measured in benchmarks/bench_step.py).
    for _ in range(3):
        t0 = time.monotonic()
        await act(h, "click", "h1")
        report = h.settle.last
        assert not report.timed_out
        assert not {"request", "websocket", "timer", "animation"} & set(report.waited_for), report.waited_for
        assert time.monotonic() - t0 < 10  # only a hang guard


HOSTILE = """<html><body><button id=b style="position:absolute;left:300px;top:300px;width:200px;height:60px">Go</button>
<p id=out style="position:absolute;left:300px;top:400px"></p>
<script>
const realST = setTimeout;
document.getElementById('b').onclick = () => realST(() => { document.getElementById('out').textContent = 'answered'; }, 400);
Date.now = () => 0; performance.now = () => 0;
window.requestAnimationFrame = () => 0;
window.MutationObserver = function () { this.observe = () => {}; this.disconnect = () => {}; };
window.setTimeout = (f) => 0; window.clearTimeout = () => {};
</script></body></html>"""


async def test_hostile_page_cannot_shorten_or_hang_the_wait(session):
    with serve_pages({"/": HOSTILE}) as srv:
        page = await session.fresh_page()
        h = await Harness.on_page(page, make_config())
        await h.goto(srv.url("/"))
        await h.observe()
        t0 = time.monotonic()
        res = await h.step("Thought: t\nAction: click(start_box='<|box_start|>(300,247)<|box_end|>')")
        assert time.monotonic() - t0 < 3.5
        # the page's own timer was captured before it overrode setTimeout: it is still seen and awaited
        assert await page.text_content("#out") == "answered"
        assert res.executed.changed is True


LINKED = {
    "/": "<html><body><a id=next href='/next'>Next</a><button id=stay>Stay</button></body></html>",
    "/next": "<html><head><title>Next</title></head><body><h1>Next page</h1></body></html>",
}


async def test_a_navigation_waits_at_least_the_minimum_and_other_actions_do_not(session):
    # The paper's adaptive wait lasts 1 to 8 s after a navigation (seed 000 §4.6): `settle_min_ms`
    # is that minimum. A static page is settled at once, so only the minimum can hold the step.
    with serve_pages(LINKED) as srv:
        page = await session.fresh_page()
        h = await Harness.on_page(page, make_config("webfovea", settle_min_ms=1200))
        await h.goto(srv.url("/"))
        res = await act(h, "click", "#stay")  # a click that stays on the page is not held
        assert res.outcome == "executed" and "minimum" not in h.settle.last.waited_for
        t0 = time.monotonic()
        res = await act(h, "click", "#next")
        navigated = time.monotonic() - t0
        assert page.url == srv.url("/next") and res.outcome == "executed"
        assert h.settle.last.seconds >= 1.2 and navigated >= 1.2  # not before the minimum
        assert "minimum" in h.settle.last.waited_for


async def test_the_paper_profile_waits_one_second_after_a_navigation(session):
    with serve_pages(LINKED) as srv:
        page = await session.fresh_page()
        h = await Harness.on_page(page, make_config("paper"))
        await h.goto(srv.url("/"))
        res = await act(h, "click", "#next")
        assert page.url == srv.url("/next") and res.outcome == "executed"
        assert h.settle.last.seconds >= 1.0


UNREAD_BODY = """<!doctype html><body><button id="go" style="font-size:30px">Send</button>
<p id="out">waiting</p><script>
document.getElementById('go').onclick = () => {
  // The response is used for its status only: its body is never read.
  fetch('/big').then(r => { document.getElementById('out').textContent = 'sent: ' + r.status; });
};
</script></body>"""


async def test_a_response_whose_body_is_never_read_ends_the_wait(session):
    """A fetch whose body the page never reads has no 'request finished': the request counts as
    done once its response is in, so the step neither waits its full bound nor says the page
    kept changing."""
    with serve_pages({"/": UNREAD_BODY, "/big": b"x" * (64 << 20)}) as srv:
        page = await session.fresh_page()
        h = await Harness.on_page(page, make_config())
        await h.goto(srv.url("/"))
        res = await act(h, "click", "#go")
        assert (await page.locator("#out").inner_text()) == "sent: 200"
        assert not h.settle.last.timed_out, h.settle.last
        assert "never went quiet" not in res.feedback
        assert h.settle.last.seconds < 2.0, h.settle.last
