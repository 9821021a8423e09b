"""The proving-ground sites in real Chromium: each trap really behaves as a live site does.

One browser and one pair of servers for the module; each test takes a fresh page.
"""

from __future__ import annotations

import io
import socket
from urllib.parse import parse_qs, urlparse

import httpx
import pytest
import pytest_asyncio
from PIL import Image, ImageChops, ImageStat
from playwright.async_api import Frame, Page

from webfovea.browser.session import BrowserSession
from webfovea_proving_ground.serve import PortInUseError, SitesHandle, start_sites
from webfovea_proving_ground.sites import filings, forms, gate, rankings, slow
from webfovea_proving_ground.sites.data import BY_CODE, world
from webfovea_proving_ground.sites.images import captcha_solution
from webfovea_proving_ground.sites.stats import table_data

pytestmark = pytest.mark.asyncio(loop_scope="session")
SEED = 3


@pytest_asyncio.fixture(loop_scope="session")
async def page(session: BrowserSession) -> Page:
    return await session.fresh_page()


async def centre(page: Page, selector: str, frame_selector: str | None = None) -> tuple[float, float]:
    """Centre of an element in page (viewport) coordinates, also inside an iframe."""
    loc = (page.frame_locator(frame_selector) if frame_selector else page).locator(selector).first
    box = await loc.bounding_box()
    assert box is not None, selector
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def child_frame(page: Page, url_prefix: str) -> Frame:
    frames = [f for f in page.frames if f.url.startswith(url_prefix)]
    assert frames, [f.url for f in page.frames]
    return frames[0]


async def test_port_in_use_is_a_clear_error(sites: SitesHandle) -> None:
    with pytest.raises(PortInUseError, match=rf"port {sites.main_port} is already in use"):
        start_sites(seed=0, ports=(sites.main_port, 0))
    with socket.socket() as s:  # the free port taken before the failure was released again
        s.bind(("127.0.0.1", 0))
        s.listen(1)
        busy = s.getsockname()[1]
        with pytest.raises(OSError, match=rf"port {busy} is already in use"):
            start_sites(seed=0, ports=(0, busy))


async def test_index_lists_sites_and_urls(sites: SitesHandle) -> None:
    assert sites.main_url.startswith("http://127.0.0.1:") and sites.frame_url.startswith("http://localhost:")
    assert sites.url("stats") == sites.main_url + "/stats"
    html = httpx.get(sites.url("/")).text
    for path in (
        "/stats",
        "/dashboard",
        "/rankings",
        "/filings",
        "/gate",
        "/shipments",
        "/energy",
        "/register",
    ):
        assert f'href="{path}"' in html


async def test_stats_select_apply_issues_xhr_and_changes_table(sites: SitesHandle, page: Page) -> None:
    requests: list[str] = []
    page.on("request", lambda r: requests.append(r.url) if "/stats/api/table?" in r.url else None)
    await page.goto(sites.url("/stats"))
    period = "2024-03"
    cell = page.locator(f'#results tr[data-period="{period}"] td.value')
    await cell.wait_for(state="attached")
    w = world(SEED)
    default = dict(table_data(w, "AU", "cpi", "M", "2015-01-01", "2025-12-31")["rows"])[period]
    assert await cell.text_content() == default
    # The option text is the statistics office's spelling, not the task's.
    assert "Viet Nam" in await page.locator("#country option[value=VN]").text_content()
    await page.select_option("#country", "VN")
    await page.fill("#date-from", "2023-01-01")
    await page.click("#apply")
    await page.locator("#caption", has_text="Viet Nam").wait_for()
    expected = table_data(w, "VN", "cpi", "M", "2023-01-01", "2025-12-31")
    assert await cell.text_content() == dict(expected["rows"])[period] != default
    assert await page.locator("#avg").text_content() == expected["summary"]["avg"]
    q = parse_qs(urlparse(requests[-1]).query)
    assert q["country"] == ["VN"] and q["indicator"] == ["cpi"] and q["from"] == ["2023-01-01"]
    # The answer row is far below the fold.
    box = await page.locator('#results tr[data-period="2025-06"]').bounding_box()
    assert box is not None and box["y"] > 1080
    csv = httpx.get(sites.url(await page.locator("#csv").get_attribute("href") or "")).text
    assert f'{period},"{dict(expected["rows"])[period]}"' in csv


async def test_stats_autocomplete_appears_on_keyup(sites: SitesHandle, page: Page) -> None:
    await page.goto(sites.url("/stats"))
    await page.locator("#indicator-q").focus()
    await page.keyboard.type("unemploy")
    item = page.locator('#suggestions li[data-code="unemp"]')
    await item.wait_for()
    await item.click()
    assert await page.input_value("#indicator") == "unemp"
    assert "Unemployment" in (await page.locator("#indicator-chip").text_content() or "")


async def test_dashboard_overlay_swallows_physical_click_dom_click_works(
    sites: SitesHandle, page: Page
) -> None:
    await page.goto(sites.url("/dashboard"))
    detail = page.frame_locator("iframe#dash").locator("#detail h3")
    await detail.filter(has_text="Australia").wait_for()
    frame = child_frame(page, sites.frame_url)
    assert urlparse(frame.url).hostname == "localhost" != urlparse(page.url).hostname
    x, y = await centre(page, '#country-list li[data-code="KE"]', "iframe#dash")
    assert y > 600, "the embedded dashboard sits near the bottom of the viewport"
    await page.mouse.click(x, y)
    await page.wait_for_timeout(150)
    assert await detail.text_content() == "Australia"
    await frame.evaluate("document.querySelector('#country-list li[data-code=KE]').click()")
    assert await detail.text_content() == BY_CODE["KE"].option
    exports = await frame.locator('#detail [data-k="exports"]').text_content()
    assert exports == f"{world(SEED).trade['KE']['exports'][5]:.1f}"


async def test_dashboard_chart_value_only_on_hover(sites: SitesHandle, page: Page) -> None:
    await page.goto(sites.url("/dashboard"))
    frame_loc = page.frame_locator("iframe#dash")
    await frame_loc.locator("#chart rect.bar").first.wait_for()
    tip = frame_loc.locator("#tooltip")
    assert not await tip.is_visible()
    x, y = await centre(page, '#chart rect.bar[data-year="2021"]', "iframe#dash")
    await page.mouse.move(x, y)
    await tip.wait_for(state="visible")
    expected = f"{world(SEED).trade['AU']['exports'][2]:.1f}"
    assert await frame_loc.locator("#tooltip .val").text_content() == expected
    # A click lands on the bar (the mouse is already there) but leaves no value on screen.
    await page.mouse.click(x, y)
    await page.wait_for_timeout(100)
    assert not await tip.is_visible()
    assert await frame_loc.locator("#tooltip .val").text_content() == ""


async def test_rankings_font_draws_pua_as_digits(sites: SitesHandle, page: Page) -> None:
    await page.goto(sites.url("/rankings"))
    await page.evaluate("document.fonts.ready")
    city = rankings.ranking(SEED)[6]
    text = await page.locator(f'#rank-table tr[data-name="{city.name}"] td.score').text_content() or ""
    assert not any(ch.isdigit() for ch in text) and all(0xE000 <= ord(c) <= 0xE009 for c in text if c != ".")
    assert rankings.decode_pua(text, SEED) == city.score
    # Render the DOM text with the web font, the decoded digits and some wrong digits with
    # DejaVu Sans: the font's rendering matches the decoded digits, not the wrong ones.
    wrong = "".join(str((int(c) + 1) % 10) if c.isdigit() else c for c in city.score)
    await page.evaluate(
        """(texts) => texts.forEach(([id, font, t], k) => {
             const s = document.createElement('span'); s.id = id; s.textContent = t;
             s.style.cssText = `position:fixed;left:0;top:${k * 60}px;font:40px ${font};background:#fff;color:#000;padding:4px`;
             document.body.appendChild(s); })""",
        [["a", '"RankDigits"', text], ["b", '"DejaVu Sans"', city.score], ["c", '"DejaVu Sans"', wrong]],
    )
    shots = {k: Image.open(io.BytesIO(await page.locator(f"#{k}").screenshot())).convert("L") for k in "abc"}
    assert shots["a"].size == shots["b"].size

    def diff(x: str, y: str) -> float:
        size = (min(shots[x].width, shots[y].width), shots[x].height)
        return ImageStat.Stat(
            ImageChops.difference(shots[x].crop((0, 0, *size)), shots[y].crop((0, 0, *size)))
        ).mean[0]

    assert diff("a", "b") < 10 and diff("a", "b") * 2 < diff("a", "c")


async def test_filings_viewer_is_cross_origin_and_long(sites: SitesHandle, page: Page) -> None:
    await page.goto(sites.url("/filings?doc=nt-2024"))
    doc = page.frame_locator("iframe#doc")
    fact = doc.locator("#fact-headcount")
    await fact.wait_for(state="attached")
    frame = child_frame(page, sites.frame_url)
    assert urlparse(frame.url).netloc != urlparse(page.url).netloc
    height, top = await frame.evaluate(
        "[document.documentElement.scrollHeight, document.querySelector('#fact-headcount').getBoundingClientRect().top]"
    )
    viewer_h = (await page.locator("iframe#doc").bounding_box() or {})["height"]
    assert top > 80 * viewer_h, f"figure at {top}px: reachable in fewer than 80 viewer-height scrolls"
    assert height > top
    assert await fact.text_content() == filings.filings(SEED)["nt-2024"].facts["headcount"]


async def test_captcha_rejects_wrong_set_and_accepts_right_set(sites: SitesHandle, page: Page) -> None:
    await page.goto(sites.url("/gate"))
    solution = captcha_solution(SEED)
    wrong = [i for i in range(9) if i not in solution][:2]
    for i in wrong:
        await page.mouse.click(*await centre(page, f'#grid .tile[data-i="{i}"]'))
    await page.click("#verify")
    await page.locator("#gate-error", has_text="try again").wait_for()
    assert "/gate/data" not in page.url
    assert await page.locator("#grid .tile.sel").count() == 0
    for i in solution:
        await page.mouse.click(*await centre(page, f'#grid .tile[data-i="{i}"]'))
    await page.click("#verify")
    await page.wait_for_url("**/gate/data?token=*")
    row = gate.port_rows(SEED)[0]
    assert (
        await page.locator(f'#ports tr[data-port="{row.port}"] td.clearance').text_content()
        == f"{row.clearance_h:.1f}"
    )
    r = httpx.get(sites.url("/gate/data?token=nope"), follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"] == "/gate"


async def test_consent_overlay_blocks_clicks_until_dismissed(sites: SitesHandle, page: Page) -> None:
    await page.goto(sites.url("/energy"))
    x, y = await centre(page, 'nav.main a[href="/stats"]')
    await page.mouse.click(x, y)
    await page.wait_for_timeout(200)
    assert urlparse(page.url).path == "/energy", "the backdrop must swallow the click"
    assert not await page.locator("#prices").is_visible()
    await page.mouse.click(*await centre(page, "#consent-accept"))
    await page.locator("#prices").wait_for()
    await page.mouse.click(*await centre(page, 'button.tab[data-tab="gas"]'))
    cell = page.locator('#prices tr[data-region="South"] td.price')
    assert await cell.text_content() == slow.energy_prices(SEED)["gas"]["South"][slow.ENERGY_MONTHS[-1]]


async def test_slow_page_spinner_then_lazy_rows(sites: SitesHandle, page: Page) -> None:
    await page.goto(sites.url("/shipments"))
    assert await page.locator("#spinner").is_visible()
    assert await page.locator("#ship tbody tr").count() == 0
    await page.locator("#ship").wait_for(state="visible", timeout=5000)
    assert await page.locator("#ship tbody tr").count() == slow.PAGE_SIZE
    await page.locator("#sentinel").scroll_into_view_if_needed()
    await page.locator("#ship tbody tr").nth(2 * slow.PAGE_SIZE - 1).wait_for(state="attached", timeout=3000)
    s = slow.shipments(SEED)[40]
    assert await page.locator(f'#ship tr[data-id="{s.sid}"] td.weight').text_content() == f"{s.weight_t:.1f}"


async def test_forms_physical_typing_is_lost_but_focused_typing_works(sites: SitesHandle, page: Page) -> None:
    await page.goto(sites.url("/register"))
    await page.mouse.click(*await centre(page, "#q"))
    await page.keyboard.type("Nordic")
    assert await page.input_value("#q") == "", "the transparent layer must swallow the click"
    await page.locator("#q").focus()
    await page.keyboard.type("Nordic\n")
    await page.wait_for_url("**/register?q=Nordic")
    hits = forms.search_companies(SEED, "Nordic")
    assert await page.locator("#reg-results td.reg").first.text_content() == hits[0].reg

    await page.goto(sites.url("/publications"))
    await page.mouse.click(*await centre(page, "#pub-q"))
    await page.keyboard.type("inflation")
    assert await page.input_value("#pub-q") == "" and await page.locator("#tips").is_visible()

    await page.goto(sites.url("/requests"))
    await page.mouse.click(*await centre(page, "#notes"))
    await page.keyboard.type("hello")
    assert (await page.locator("#notes").text_content() or "") == ""
    await page.mouse.click(*await centre(page, "#delivery"))
    await page.keyboard.type("2025-03-14")
    assert await page.input_value("#delivery") != "2025-03-14", "a mid-box click starts on a later segment"
    await page.fill("#delivery", "2025-03-14")
    await page.locator("#notes").focus()
    await page.keyboard.type("Quarterly CPI by region")
    await page.click("#submit-request")
    ref = forms.request_reference(SEED, "cpi-m", "2025-03-14", "Quarterly CPI by region")
    await page.locator("#confirmation .ref", has_text=ref).wait_for()


async def test_missing_font_source_is_a_clear_error(tmp_path) -> None:
    from webfovea_proving_ground.sites.fonts import FontSourceMissing, build_pua_font

    with pytest.raises(FontSourceMissing, match="apt-get install -y fonts-dejavu-core"):
        build_pua_font(SEED, tmp_path / "none.ttf")
