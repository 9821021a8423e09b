"""One test at least per row of the paper's Table 2, each asserting the effect on the page."""

import pytest

from tests.harness import pages
from tests.support.servers import serve_pages, two_origins
from webfovea.config import make_config
from webfovea.harness import Harness

pytestmark = pytest.mark.asyncio(loop_scope="session")


def provider_view(size, max_long=1568, max_pixels=1_200_000):
    """The image size a Claude-class API shows the model (it downscales large images)."""
    w, h = size
    s = min(1.0, max_long / max(w, h), (max_pixels / (w * h)) ** 0.5)
    return w * s, h * s


async def centre(page, selector, frame_selector=None):
    if frame_selector:
        box_f = await page.locator(frame_selector).bounding_box()
        frame = page.frame_locator(frame_selector)
        box = await frame.locator(selector).bounding_box()  # main-viewport coordinates
        assert box_f is not None
    else:
        box = await page.locator(selector).bounding_box()
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def model_point(obs, css_xy, provider=True):
    """Where a model that sees the (provider-downscaled) image would point."""
    seen_w, seen_h = provider_view(obs.image.size) if provider else obs.image.size
    return css_xy[0] * seen_w / obs.shot.css_width, css_xy[1] * seen_h / obs.shot.css_height


def box(pt):
    return f"'<|box_start|>({pt[0]:.0f},{pt[1]:.0f})<|box_end|>'"


async def harness(session, url, **cfg):
    page = await session.fresh_page()
    h = await Harness.on_page(page, make_config(**cfg) if cfg else None)
    await h.goto(url)
    return h


# --- Execution: coordinate-space alignment -----------------------------------------------


async def test_reference_clicks_at_three_quarters_webfovea_hits(session):
    with serve_pages({"/": pages.BUTTON_FAR}) as srv:
        ref = await harness(session, srv.url("/"), profile="reference")
        obs = await ref.observe()
        assert obs.image.size == (1920, 1080)  # full size sent
        target = await centre(ref.page, "#far")
        res = await ref.step(f"Thought: click far\nAction: click(start_box={box(model_point(obs, target))})")
        x, y = res.executed.outcome.point
        factor = provider_view(obs.image.size)[0] / 1920
        assert 0.7 < factor < 0.8
        assert abs(x - target[0] * factor) < 3 and abs(y - target[1] * factor) < 3  # ~3/4 of the target
        assert await ref.page.text_content("#log") == "decoy clicked"

        wf = await harness(session, srv.url("/"))
        obs = await wf.observe()
        assert obs.image.size == (1440, 810)  # capped: the provider leaves it alone
        res = await wf.step(f"Thought: click far\nAction: click(start_box={box(model_point(obs, target))})")
        x, y = res.executed.outcome.point
        assert abs(x - target[0]) < 2 and abs(y - target[1]) < 2
        assert await wf.page.text_content("#log") == "far clicked"


async def test_norm1000_convention(session):
    with serve_pages({"/": pages.BUTTON_FAR}) as srv:
        h = await harness(session, srv.url("/"), coordinate_convention="norm1000")
        target = await centre(h.page, "#far")
        pt = (target[0] / 1920 * 1000, target[1] / 1080 * 1000)
        await h.observe()
        await h.step(f"Thought: t\nAction: click(start_box={box(pt)})")
        assert await h.page.text_content("#log") == "far clicked"
        assert "normalised 0-1000" in h.system_prompt


async def test_point_outside_image_is_rejected(session):
    with serve_pages({"/": pages.BUTTON_FAR}) as srv:
        h = await harness(session, srv.url("/"))
        await h.observe()
        res = await h.step("Thought: t\nAction: click(start_box='(1800,900)')")
        assert res.error and "outside the screenshot" in res.feedback and "1440" in res.feedback
        assert await h.page.text_content("#log") == "none"


# --- Parsing: tokens and invented continuations --------------------------------------------


async def test_contaminated_reply_never_types_the_token(session):
    with serve_pages({"/": pages.SEARCH}) as srv:
        h = await harness(session, srv.url("/"))
        obs = await h.observe()
        pt = model_point(obs, await centre(h.page, "#q"))
        await h.step(f"Thought: focus\nAction: click(start_box={box(pt)})<|eot_id|>")
        await h.observe()
        res = await h.step("Thought: search\nAction: type(content='ottawa<|eot_id|>\\n')<|end_of_turn|><br>")
        assert await h.page.input_value("#q") == "ottawa"
        assert await h.page.text_content("#log") == "searched:ottawa"  # Enter on trailing \n
        assert "<|eot_id|>" not in res.parsed.cleaned and "<|eot_id|>" not in h.history.replies[-1]

        ref = await harness(session, srv.url("/"), profile="reference")
        obs = await ref.observe()
        pt = model_point(obs, await centre(ref.page, "#q"), provider=False)
        await ref.step(f"Thought: focus\nAction: click(start_box={box(pt)})")
        await ref.observe()
        await ref.step("Thought: search\nAction: type(content='ottawa<|eot_id|>\\n')")
        assert await ref.page.input_value("#q") == "ottawa<|eot_id|>"  # the paper's failure
        assert await ref.page.text_content("#log") == "none"  # and Enter never sent


async def test_invented_continuation_executes_only_first_action(session):
    with serve_pages({"/": pages.BUTTON_FAR}) as srv:
        h = await harness(session, srv.url("/"))
        obs = await h.observe()
        pt = model_point(obs, await centre(h.page, "#far"))
        reply = (
            f"Thought: click it\nAction: click(start_box={box(pt)})\n"
            "Observation: the page shows the total 999.\nThought: done\nAction: finished(content='999')"
        )
        res = await h.step(reply)
        assert res.action.name == "click" and not res.done and res.answer is None
        assert await h.page.text_content("#log") == "far clicked"
        assert "999" not in h.history.replies[-1]


# --- Execution: select, fill, date, overlay, contenteditable --------------------------------


async def test_select_native_dropdown_normalised_and_events(session):
    with serve_pages({"/": pages.FORM}) as srv:
        h = await harness(session, srv.url("/"))
        obs = await h.observe()
        pt = model_point(obs, await centre(h.page, "#country"))
        res = await h.step(f"Thought: t\nAction: select(start_box={box(pt)}, option='Vietnam')")
        assert await h.page.input_value("#country") == "VN"
        assert await h.page.text_content("#log") == "country=VN"  # change event fired
        assert "Viet Nam" in res.feedback
        await h.observe()
        res = await h.step(f"Thought: t\nAction: select(start_box={box(pt)}, option='Atlantis')")
        assert res.executed.outcome.ok is False
        assert "Available options" in res.feedback and "Germany" in res.feedback
        assert await h.page.input_value("#country") == "VN"


async def test_fill_date_overlay_contenteditable_and_non_editable(session):
    with serve_pages({"/": pages.FORM}) as srv:
        h = await harness(session, srv.url("/"))
        obs = await h.observe()
        pt = model_point(obs, await centre(h.page, "#date"))
        res = await h.step(f"Thought: t\nAction: fill(start_box={box(pt)}, content='05/01/2023')")
        assert await h.page.input_value("#date") == "2023-05-01"
        assert "2023-05-01" in res.feedback
        # a transparent overlay sits over the name box: a click would not focus it, fill does
        obs = await h.observe()
        pt = model_point(obs, await centre(h.page, "#name"))
        res = await h.step(f"Thought: t\nAction: fill(start_box={box(pt)}, content='Ada Lovelace')")
        assert await h.page.input_value("#name") == "Ada Lovelace"
        assert "'Ada Lovelace'" in res.feedback
        obs = await h.observe()
        pt = model_point(obs, await centre(h.page, "#ce"))
        await h.step(f"Thought: t\nAction: fill(start_box={box(pt)}, content='note')")
        assert (await h.page.text_content("#ce")).strip() == "note"
        obs = await h.observe()
        pt = model_point(obs, await centre(h.page, "#plain"))
        res = await h.step(f"Thought: t\nAction: fill(start_box={box(pt)}, content='x')")
        assert res.executed.outcome.ok is False and "fill failed" in res.feedback


async def test_click_then_type_loses_keystrokes_under_overlay(session):
    """Why fill exists: the reference agent's click lands on the overlay, its keystrokes go nowhere."""
    with serve_pages({"/": pages.FORM}) as srv:
        h = await harness(session, srv.url("/"), profile="reference")
        obs = await h.observe()
        pt = model_point(obs, await centre(h.page, "#name"), provider=False)
        await h.step(f"Thought: t\nAction: click(start_box={box(pt)})")
        await h.observe()
        await h.step("Thought: t\nAction: type(content='Ada')")
        assert await h.page.input_value("#name") == ""


# --- Execution + feedback: iframe fallback, child-frame fingerprints, hover ------------------


async def test_iframe_click_under_overlay_falls_back_to_dom_click(session):
    with two_origins({"/": ""}, {"/dash": pages.DASH_INNER}) as (a, b):
        a.httpd.RequestHandlerClass.pages["/"] = pages.DASH_OUTER.format(frame=b.url("", host="localhost"))
        h = await harness(session, a.url("/"))
        obs = await h.observe()
        target = await centre(h.page, "li[data-c=VN]", "#dash")
        res = await h.step(f"Thought: t\nAction: click(start_box={box(model_point(obs, target))})")
        frame = h.page.frame_locator("#dash")
        assert await frame.locator("#sel").text_content() == "VN"  # the dashboard re-rendered
        assert res.executed.fallback_used and res.executed.changed
        assert "No detectable change" not in res.feedback

        off = await harness(session, a.url("/"), disable=["iframe_fallback"])
        obs = await off.observe()
        res = await off.step(f"Thought: t\nAction: click(start_box={box(model_point(obs, target))})")
        assert await off.page.frame_locator("#dash").locator("#sel").text_content() == "none"
        assert "No detectable change" in res.feedback and "frame" in res.feedback


async def test_hover_reveals_tooltip_and_counts_as_change(session):
    with two_origins({"/": ""}, {"/dash": pages.DASH_INNER}) as (a, b):
        a.httpd.RequestHandlerClass.pages["/"] = pages.DASH_OUTER.format(frame=b.url("", host="localhost"))
        h = await harness(session, a.url("/"))
        obs = await h.observe()
        target = await centre(h.page, "#bar", "#dash")
        res = await h.step(f"Thought: t\nAction: hover(start_box={box(model_point(obs, target))})")
        assert await h.page.frame_locator("#dash").locator("#tip").is_visible()
        assert res.executed.changed is True and "No detectable change" not in res.feedback


async def test_no_change_note_names_the_element(session):
    with serve_pages({"/": pages.FORM}) as srv:
        h = await harness(session, srv.url("/"))
        obs = await h.observe()
        pt = model_point(obs, await centre(h.page, "#plain"))
        res = await h.step(f"Thought: t\nAction: click(start_box={box(pt)})")
        assert res.executed.changed is False
        assert "No detectable change" in res.feedback and "Just text" in res.feedback


@pytest.mark.parametrize("profile", ["webfovea", "reference"])
async def test_notes_name_points_in_the_models_image_coordinates(session, profile):
    """The model wrote a point in the image it was sent; every note names that point, never the
    viewport's CSS pixels (1920x1080 here, the sent image 1440x810 with alignment on)."""
    with serve_pages({"/": pages.FORM}) as srv:
        h = await harness(session, srv.url("/"), profile=profile)
        obs = await h.observe()
        css = await centre(h.page, "#plain")
        pt = model_point(obs, css, provider=False)
        assert obs.shot.to_css(*pt) == pytest.approx(css)
        assert obs.shot.to_model(*css) == pytest.approx(pt)
        if profile == "reference":  # full-size image, no notes: only the mapping is shared
            return
        res = await h.step(f"Thought: t\nAction: click(start_box={box(pt)})")
        assert f"The point ({pt[0]:.0f}, {pt[1]:.0f})" in res.feedback
        assert f"({round(css[0])}, {round(css[1])})" not in res.feedback
        await h.observe()
        res = await h.step(f"Thought: t\nAction: select(start_box={box(pt)}, option='x')")
        assert f"The point ({pt[0]:.0f}, {pt[1]:.0f}) is on" in res.feedback
        assert f"({round(css[0])}, {round(css[1])})" not in res.feedback


# --- Observation: find_text, read_text ---------------------------------------------------------


async def test_find_text_scrolls_match_into_view_without_returning_text(session):
    with serve_pages({"/": pages.LONG}) as srv:
        h = await harness(session, srv.url("/"))
        assert not await _in_view(h.page, "#needle")
        await h.observe()
        res = await h.step("Thought: t\nAction: find_text(text='Total assets')")
        assert await _in_view(h.page, "#needle")
        assert "9,876" not in res.feedback


async def test_read_text_reports_private_use_digits(session):
    with serve_pages({"/": pages.PUA}) as srv:
        h = await harness(session, srv.url("/"))
        await h.observe()
        res = await h.step("Thought: t\nAction: read_text(near='Score')")
        assert "??.?" in res.feedback and "3 character(s)" in res.feedback


async def _in_view(page, sel):
    return await page.eval_on_selector(
        sel, "e => { const r = e.getBoundingClientRect(); return r.top >= 0 && r.bottom <= innerHeight; }"
    )


# --- Guardrails ----------------------------------------------------------------------------------


async def test_goto_and_browser_hotkeys_rejected_page_hotkeys_allowed(session):
    with serve_pages({"/": pages.SEARCH}) as srv:
        h = await harness(session, srv.url("/"))
        await h.observe()
        res = await h.step("Thought: shortcut\nAction: goto(url='http://example.com/api')")
        assert res.error and "URL" in res.feedback and h.page.url == srv.url("/")
        await h.observe()
        res = await h.step("Thought: t\nAction: hotkey(key='ctrl l')")
        assert "blocked" in res.feedback
        await h.observe()
        res = await h.step("Thought: t\nAction: hotkey(key='tab')")
        assert res.error is None
        assert await h.page.evaluate("document.activeElement.id") == "q"


async def test_budget_enforced_by_executor(session):
    with serve_pages({"/": pages.PUA}) as srv:
        h = await harness(session, srv.url("/"))
        for _ in range(5):
            await h.observe()
            assert (await h.step("Thought: t\nAction: read_text(near='Score')")).error is None
        await h.observe()
        res = await h.step("Thought: t\nAction: read_text(near='Score')")
        assert res.error and "budget of 5" in res.feedback


async def test_scroll_breaker_needs_no_change(session):
    with serve_pages({"/": pages.LONG}) as srv:
        h = await harness(session, srv.url("/"))
        stopped_at = None
        for i in range(200):
            await h.observe()
            res = await h.step("Thought: t\nAction: scroll(direction='down')")
            if res.done:
                stopped_at = i + 1
                break
        assert res.stop_reason == "scroll_breaker"
        # it scrolled for as long as the page moved: far more than 10 scrolls
        assert stopped_at > 20
        assert await h.page.evaluate("scrollY + innerHeight >= document.body.scrollHeight - 2")


async def test_back_navigates(session):
    with serve_pages({"/": pages.NAV, "/next": pages.NEXT}) as srv:
        h = await harness(session, srv.url("/"))
        obs = await h.observe()
        pt = model_point(obs, await centre(h.page, "#next"))
        await h.step(f"Thought: t\nAction: click(start_box={box(pt)})")
        assert h.page.url.endswith("/next")
        await h.observe()
        await h.step("Thought: t\nAction: back()")
        assert h.page.url == srv.url("/")


async def test_device_pixel_ratio_two_is_measured_at_run_time(session):
    """On a HiDPI page the harness still sends <= 1440x810 and maps by the CSS size it measures."""
    with serve_pages({"/": pages.BUTTON_FAR}) as srv:
        ctx = await session.browser.new_context(
            viewport={"width": 1920, "height": 1080}, device_scale_factor=2
        )
        try:
            page = await ctx.new_page()
            h = await Harness.on_page(page)
            await h.goto(srv.url("/"))
            obs = await h.observe()
            assert obs.shot.dpr == 2 and obs.image.size == (1440, 810)
            target = await centre(page, "#far")
            await h.step(f"Thought: t\nAction: click(start_box={box(model_point(obs, target))})")
            assert await page.text_content("#log") == "far clicked"
        finally:
            await ctx.close()
