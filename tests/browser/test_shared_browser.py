"""The tests' one browser per process (tests/support/shared_browser.py, the `session` fixture):
a module's cookies, storage, routes and tabs are not the next module's, the browser is, and a
module that loses the browser costs the next one a launch, not a failure."""

from __future__ import annotations

from tests.support.servers import serve_pages
from tests.support.shared_browser import WorkerBrowser

PAGE = "<title>T</title><p id=p>page</p>"


async def test_a_module_sees_nothing_an_earlier_module_left_in_the_shared_browser():
    worker = WorkerBrowser()
    try:
        with serve_pages({"/": PAGE}) as srv:
            first = await worker.module_session()
            browser = first.browser
            page = await first.fresh_page()
            await page.goto(srv.url("/"))
            await page.evaluate(
                "document.cookie = 'left=1; path=/'; localStorage.setItem('left', '1');"
                "sessionStorage.setItem('left', '1')"
            )
            await first.context.route("**/routed", lambda r: r.fulfill(body="from the first module"))
            other = await browser.new_context()  # a context the module opened itself
            await other.add_cookies([{"name": "own", "value": "1", "url": srv.url("/")}])
            assert await first.context.cookies() and len(browser.contexts) == 2
            await first.close()

            second = await worker.module_session()
            assert second.browser is browser  # no second launch
            assert browser.contexts == [second.context]  # the first module's contexts are gone
            page = await second.fresh_page()
            await page.goto(srv.url("/"))
            assert await second.context.cookies() == []
            held = await page.evaluate(
                "[document.cookie, localStorage.getItem('left'), sessionStorage.getItem('left')]"
            )
            assert held == ["", None, None]
            routed = await page.goto(srv.url("/routed"))
            assert routed is not None and "from the first module" not in await routed.text()
            assert await second.fresh_context() and browser.contexts == [second.context]
            await second.close()
            assert browser.is_connected()  # a module's close leaves the browser to the next
    finally:
        await worker.close()


async def test_a_module_that_closed_the_browser_costs_the_next_a_launch():
    worker = WorkerBrowser()
    try:
        first = await worker.module_session()
        lost = first.browser
        await lost.close()  # as a crash would
        await first.close()
        second = await worker.module_session()
        assert second.browser is not lost and second.browser.is_connected()
        page = await second.fresh_page()
        assert await page.evaluate("1 + 1") == 2
        await second.close()
    finally:
        await worker.close()
