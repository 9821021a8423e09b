"""Connecting over CDP to a browser someone else started; a page that never settles."""

import time

import pytest

from tests.support.cdp import cdp_browser  # noqa: F401 - the fixture
from tests.support.servers import serve_pages
from webfovea.harness import Harness

BUSY = """<html><body><div id=n>0</div><button id=b style="position:absolute;left:400px;top:300px;width:200px;height:60px"
 onclick="this.textContent='pressed'">Press</button>
<script>setInterval(() => { const n = document.getElementById('n'); n.textContent = +n.textContent + 1; }, 10);</script>
</body></html>"""


async def test_connect_over_cdp_and_click(cdp_browser):  # noqa: F811
    with serve_pages({"/": BUSY}) as srv:
        async with Harness.connect(cdp_browser, srv.url("/")) as h:
            obs = await h.observe()
            assert obs.image.size == (1440, 810)
            t0 = time.monotonic()
            res = await h.step("Thought: t\nAction: click(start_box='<|box_start|>(375,247)<|box_end|>')")
            waited = time.monotonic() - t0
            assert await h.page.text_content("#b") == "pressed"
            # the page mutates every 10 ms forever: the settle wait gives up at its bound
            assert res.error is None and waited < 6
            assert h.settle.timed_out >= 1


async def test_unreachable_cdp_url_is_a_clear_error():
    with pytest.raises(ConnectionError, match="remote-debugging-port"):
        async with Harness.connect("http://127.0.0.1:9", None):
            pass
