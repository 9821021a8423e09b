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


def _exe(folder, name: str) -> str:
    path = folder / name
    path.write_text("#!/bin/sh\n")
    path.chmod(0o755)
    return str(path)


def test_find_chrome_prefers_a_headless_shell_for_headless_launches(tmp_path, monkeypatch):
    from webfovea.browser import session

    shell, full = _exe(tmp_path, "chromium-headless-shell"), _exe(tmp_path, "chromium")
    monkeypatch.delenv("WEBFOVEA_CHROME", raising=False)
    monkeypatch.setenv("PATH", str(tmp_path))
    monkeypatch.setenv("PLAYWRIGHT_BROWSERS_PATH", str(tmp_path / "none"))
    monkeypatch.setattr(session, "DEBIAN_SHELL_BINARY", str(tmp_path / "not-installed"))
    assert find_chrome() == shell
    assert find_chrome(headless=False) == full
    (tmp_path / "chromium-headless-shell").unlink()
    assert find_chrome() == full  # no shell: full Chromium serves headless launches too


async def test_a_headed_launch_refuses_a_headless_shell():
    import pytest

    from webfovea.browser.session import BrowserNotFound, is_headless_shell

    exe = find_chrome()
    if not is_headless_shell(exe):
        pytest.skip("no headless shell installed (scripts/setup installs Debian's chromium-headless-shell)")
    with pytest.raises(BrowserNotFound, match="WEBFOVEA_CHROME"):
        await BrowserSession.launch(headless=False, executable=exe)


async def test_the_launched_browser_keeps_cross_site_frames_out_of_process():
    """--site-per-process: the headless shell puts a cross-site frame into the page's renderer
    unless asked; the proving ground needs it in its own (a CDP session of its own)."""
    child = "<p id=c>child</p>"
    with serve_pages({"/child": child}) as inner:
        cross = inner.url("/child").replace("127.0.0.1", "localhost")
        with serve_pages({"/": f"<iframe src='{cross}'></iframe>"}) as outer:
            s = await BrowserSession.launch()
            try:
                page = await s.fresh_page()
                await page.goto(outer.url("/"), wait_until="load")
                frame = page.frames[1]
                assert await frame.inner_text("#c") == "child"
                assert s.context is not None
                session = await s.context.new_cdp_session(frame)  # raises for an in-process frame
                await session.detach()
            finally:
                await s.close()
