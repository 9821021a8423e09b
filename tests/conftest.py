"""Fixtures every test area shares."""

from collections.abc import AsyncIterator

import pytest_asyncio

from webfovea.browser.session import BrowserSession


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def session() -> AsyncIterator[BrowserSession]:
    """One real headless Chromium per test module (launching one costs about a second)."""
    s = await BrowserSession.launch()
    try:
        yield s
    finally:
        await s.close()
