"""Fixtures every test area shares.

The tests run offline: every browser they (or the CLIs they start) launch resolves no name but
localhost. A test that needs a real name maps one itself (see tests/harness/test_offline.py).
"""

import os
from collections.abc import AsyncIterator

import pytest_asyncio

from webfovea.browser.session import OFFLINE_ENV, BrowserSession

os.environ[OFFLINE_ENV] = "1"


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def session() -> AsyncIterator[BrowserSession]:
    """One real headless Chromium per test module (launching one costs about a second)."""
    s = await BrowserSession.launch()
    try:
        yield s
    finally:
        await s.close()
