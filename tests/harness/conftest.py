import pytest_asyncio

from webfovea.browser.session import BrowserSession


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def session():
    s = await BrowserSession.launch()
    yield s
    await s.close()
