"""Connecting over CDP to a browser someone else started; a page that never settles."""

import re
import subprocess
import tempfile
import time

import pytest

from tests.support.servers import serve_pages
from webfovea.browser.session import OFFLINE_FLAGS, find_chrome
from webfovea.harness import Harness

BUSY = """<html><body><div id=n>0</div><button id=b style="position:absolute;left:400px;top:300px;width:200px;height:60px"
 onclick="this.textContent='pressed'">Press</button>
<script>setInterval(() => { const n = document.getElementById('n'); n.textContent = +n.textContent + 1; }, 10);</script>
</body></html>"""


@pytest.fixture
def cdp_browser():
    home = tempfile.TemporaryDirectory(ignore_cleanup_errors=True)
    proc = subprocess.Popen(
        [
            find_chrome(),
            "--headless",
            "--remote-debugging-port=0",
            f"--user-data-dir={home.name}",
            *OFFLINE_FLAGS,
            "about:blank",
        ],
        stderr=subprocess.PIPE,
        text=True,
    )
    url = None
    deadline = time.time() + 30
    while time.time() < deadline and url is None:
        line = proc.stderr.readline()
        m = re.search(r"DevTools listening on ws://([\d.]+:\d+)/", line)
        if m:
            url = f"http://{m.group(1)}"
    assert url, "Chromium did not report its DevTools port"
    yield url
    proc.kill()
    proc.wait()
    home.cleanup()


async def test_connect_over_cdp_and_click(cdp_browser):
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
