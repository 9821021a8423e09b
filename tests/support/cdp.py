"""A Chromium someone else started, reached over CDP: the fixture yields its DevTools URL."""

import re
import subprocess
import tempfile
import time

import pytest

from webfovea.browser.session import OFFLINE_FLAGS, find_chrome


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
