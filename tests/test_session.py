from tests.support.servers import serve_pages
from webfovea.browser.session import BrowserSession, find_chrome


def test_find_chrome_env_missing(monkeypatch):
    import pytest

    from webfovea.browser.session import BrowserNotFound

    monkeypatch.setenv("WEBFOVEA_CHROME", "/nonexistent/chrome")
    with pytest.raises(BrowserNotFound, match="apt-get install"):
        find_chrome()


async def test_launch_and_health():
    with serve_pages({"/": "<title>T</title><p id=p>hello</p>"}) as srv:
        s = await BrowserSession.launch()
        try:
            page = await s.fresh_page()
            await page.goto(srv.url("/"))
            assert await page.title() == "T"
            assert await page.evaluate("[innerWidth, innerHeight]") == [1920, 1080]
            assert await s.healthy()
        finally:
            await s.close()
        assert not await s.healthy()
