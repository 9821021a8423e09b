"""The oracle against real pages in real Chromium, on two origins.

The test plays the harness: it sends screenshots, reads the oracle's reply and
performs the action itself (mouse/keyboard at the point mapped back by the size
of the image it sent). The oracle only reads the DOM.
"""

from __future__ import annotations

import io
import re
from collections.abc import Iterator

import pytest
import pytest_asyncio
from PIL import Image
from playwright.async_api import Page

from tests.support.servers import PageServer, two_origins
from webfovea.actions.catalog import offered, parser_specs
from webfovea.browser.session import BrowserSession
from webfovea.config import make_config
from webfovea.models.base import ModelError, ModelInput
from webfovea.observation.prompt import system_prompt
from webfovea.parsing import parse_reply
from webfovea.task import Task
from webfovea_proving_ground.oracle.model import OracleModel

pytestmark = pytest.mark.asyncio(loop_scope="session")

MAIN = """<!doctype html><html><head><style>
body{margin:0;font:16px sans-serif}
#btn{position:absolute;left:1500px;top:700px;width:120px;height:40px}
#country{position:absolute;left:300px;top:200px;width:200px}
#q{position:absolute;left:300px;top:300px;width:240px}
#out{position:absolute;left:600px;top:300px}
#val{position:absolute;left:900px;top:200px}
#box{position:absolute;left:1200px;top:100px;width:300px;height:150px;overflow:auto}
#dash{position:absolute;left:200px;top:800px;width:900px;height:260px;border:3px solid #888;padding:5px}
#far{position:absolute;left:400px;top:2600px}
#spacer{height:3000px}
</style></head><body>
<button id=btn onclick="this.dataset.n=(+this.dataset.n||0)+1;this.textContent='Clicked '+this.dataset.n">Apply</button>
<label>Country <select id=country><option value="">Choose</option><option value=FR>France</option>
<option value=VN>Viet Nam</option><option value=DE>Germany</option></select></label>
<form id=f onsubmit="event.preventDefault();document.getElementById('out').textContent=document.getElementById('q').value">
<input id=q placeholder="Search"></form>
<div id=out></div>
<div id=val>Population: 42</div>
<div id=box><div style="height:600px"></div><span id=deep>Deep 7</span></div>
<iframe id=dash src="http://localhost:FRAMEPORT/frame.html"></iframe>
<div id=far>Total: 1,234</div>
<div id=spacer></div>
<script>window.__mutations=0;new MutationObserver(r=>{window.__mutations+=r.length}).observe(document.documentElement,
{subtree:true,childList:true,attributes:true,characterData:true});</script>
</body></html>"""

FRAME = """<!doctype html><html><body style="margin:0;font:16px sans-serif">
<button id=inner style="position:absolute;left:400px;top:120px;width:100px;height:30px"
 onclick="window.n=(window.n||0)+1;this.textContent='Inner '+window.n">Open</button>
<div style="height:1200px"></div><p id=lower style="position:absolute;top:900px;left:20px;margin:0">Lower 99</p>
</body></html>"""

BTN = {"selector": "#btn"}
INNER = {"frame": ["iframe#dash"], "selector": "#inner"}
COUNTRY = {"selector": "#country"}
SEEN = {(1440, 810): (1440, 810), (1920, 1080): (1430, 804)}  # what a Claude-like provider shows the model
POINT = re.compile(r"<\|box_start\|>\((\d+),(\d+)\)<\|box_end\|>")


@pytest.fixture(scope="module")
def site() -> Iterator[tuple[PageServer, PageServer]]:
    main: dict[str, str | bytes] = {}
    frames: dict[str, str | bytes] = {"/frame.html": FRAME}
    with two_origins(main, frames) as (a, b):
        main["/"] = MAIN.replace("FRAMEPORT", str(b.port))  # the dicts are served live
        yield a, b


@pytest_asyncio.fixture(loop_scope="session")
async def page(session: BrowserSession, site: tuple[PageServer, PageServer]) -> Page:
    p = await session.fresh_page()
    await p.goto(site[0].url("/"))
    await p.frame_locator("iframe#dash").locator("#inner").wait_for()
    return p


def prompt(disable: tuple[str, ...] = (), convention: str = "pixels") -> str:
    config = make_config(disable=list(disable), coordinate_convention=convention)
    return system_prompt(offered(config), config)


SPECS = parser_specs(offered(make_config()))


async def shot(page: Page, size: tuple[int, int] = (1440, 810)) -> Image.Image:
    img = Image.open(io.BytesIO(await page.screenshot(type="jpeg", quality=60)))
    return img if img.size == size else img.resize(size, Image.BILINEAR)


def make_task(plan: list[dict], **kw) -> Task:
    return Task(task_id=kw.pop("task_id", "t-oracle"), task="test task", website="http://x/", plan=plan, **kw)


async def ask(
    oracle: OracleModel,
    page: Page,
    system: str,
    step: int = 0,
    size=(1440, 810),
    image: Image.Image | None = None,
) -> str:
    image = image or await shot(page, size)
    inp = ModelInput(system=system, task="test task", history=[], images=[image], feedback=None, step=step)
    return (await oracle.next_reply(inp)).text


async def drive(page: Page, text: str, sent=(1440, 810)) -> str:
    """Act as a correct harness would: parse, map by sent-image/viewport ratio, perform."""
    parsed = parse_reply(text, SPECS)
    assert parsed.action is not None, parsed.rejection
    a = parsed.action
    vw, vh = await page.evaluate("[innerWidth, innerHeight]")

    def css(p: tuple[float, float]) -> tuple[float, float]:
        return p[0] * vw / sent[0], p[1] * vh / sent[1]

    if a.name == "click":
        await page.mouse.click(*css(a.args["start_box"]))
    elif a.name == "hover":
        await page.mouse.move(*css(a.args["start_box"]))
    elif a.name == "scroll":
        await page.mouse.move(*css(a.args["start_box"]))
        dy = {"down": 300, "up": -300}.get(a.args["direction"], 0)
        await page.mouse.wheel(0, dy)
        await page.wait_for_timeout(120)
    elif a.name == "type":
        content = a.args["content"]
        await page.keyboard.type(content.rstrip("\n"))
        if content.endswith("\n"):
            await page.keyboard.press("Enter")
    elif a.name == "wait":
        await page.wait_for_timeout(50)
    return a.name


async def dom_centre(page: Page, loc: dict) -> tuple[float, float]:
    """The element's centre in main-viewport CSS px, straight from getBoundingClientRect.

    Not Playwright's bounding_box(): for an element in an out-of-process iframe it
    ignores the iframe's border and padding (here 8 px off), which real clicks do not.
    """
    x = y = 0.0
    frame = page.main_frame
    for sel in loc.get("frame", []):
        ox, oy = await frame.eval_on_selector(
            sel,
            """e => { const r = e.getBoundingClientRect(), s = getComputedStyle(e);
            return [r.left + e.clientLeft + parseFloat(s.paddingLeft), r.top + e.clientTop + parseFloat(s.paddingTop)]; }""",
        )
        x, y = x + ox, y + oy
        frame = await (await frame.query_selector(sel)).content_frame()
    cx, cy = await frame.eval_on_selector(
        loc["selector"],
        """e => { const r = e.getBoundingClientRect();
        return [(r.left + r.right) / 2, (r.top + r.bottom) / 2]; }""",
    )
    return x + cx, y + cy


def centre_of(box: dict | None) -> tuple[float, float]:
    assert box is not None
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


@pytest.mark.parametrize("sent", [(1440, 810), (1920, 1080)])
@pytest.mark.parametrize("target", ["main", "cross-origin iframe"])
async def test_click_lands_on_dom_centre_in_the_seen_image(page: Page, sent, target):
    loc = BTN if target == "main" else INNER
    oracle = OracleModel(make_task([{"op": "click", "target": loc}]), page, seed=7)
    text = await ask(oracle, page, prompt(), size=sent)
    m = POINT.search(text)
    assert m and text.startswith("Thought: ") and "\nAction: click(start_box='" in text
    seen_w, seen_h = SEEN[sent]
    x, y = int(m.group(1)), int(m.group(2))
    cx, cy = x * 1920 / seen_w, y * 1080 / seen_h  # exact inverse of the seen-image transform
    el = page.locator("#btn") if target == "main" else page.frame_locator("iframe#dash").locator("#inner")
    tx, ty = await dom_centre(page, loc)
    tol = (oracle.jitter_px + 0.5) * 1920 / seen_w + 0.01
    assert abs(cx - tx) <= tol and abs(cy - ty) <= tol, (cx, cy, tx, ty)
    if sent == (1920, 1080):
        # A harness that believes the model saw the full screenshot clicks at ~3/4 of the target.
        assert abs(x / tx - 0.745) < 0.01 and abs(tx - x) > 100
    await page.mouse.click(cx, cy)
    assert (await el.inner_text()).startswith("Clicked 1" if target == "main" else "Inner 1")


async def test_normalised_coordinates(page: Page):
    oracle = OracleModel(make_task([{"op": "click", "target": BTN}]), page, seed=3)
    text = await ask(oracle, page, prompt(convention="norm1000"), size=(1920, 1080))
    x, y = map(int, POINT.search(text).groups())
    tx, ty = centre_of(await page.locator("#btn").bounding_box())
    tol = (oracle.jitter_px + 0.5) * 1920 / 1430 + 1920 / 1000
    assert abs(x * 1920 / 1000 - tx) <= tol and abs(y * 1080 / 1000 - ty) <= tol


async def test_select_offered_and_fallback_to_clicks(page: Page):
    plan = [
        {"op": "select", "target": COUNTRY, "option": "Vietnam", "expect": {"target": COUNTRY, "value": "VN"}}
    ]
    oracle = OracleModel(make_task(plan), page, seed=1)
    text = await ask(oracle, page, prompt())
    assert "Action: select(start_box='<|box_start|>(" in text and "option='Vietnam')" in text

    oracle = OracleModel(make_task(plan), page, seed=1)
    system = prompt(disable=("select",))
    first = await ask(oracle, page, system)
    assert "Action: click(" in first
    x, y = map(int, POINT.search(first).groups())
    sx, sy = centre_of(await page.locator("#country").bounding_box())
    assert abs(x * 1920 / 1440 - sx) < 4 and abs(y * 1080 / 810 - sy) < 4
    await drive(page, first)
    second = await ask(oracle, page, system, step=1)
    x2, y2 = map(int, POINT.search(second).groups())
    assert (
        "Action: click(" in second and y2 * 1080 / 810 > sy + 15
    )  # below the select, where "Viet Nam" would be
    await drive(page, second)
    # As on a real site, clicking where a native option would be drawn selects nothing.
    assert await page.eval_on_selector("#country", "e => e.value") == ""
    third = await ask(oracle, page, system, step=2)  # expect failed: it retries from the start
    y3 = int(POINT.search(third).group(2))
    assert "Action: click(" in third and abs(y3 * 1080 / 810 - sy) < 4


async def test_fill_fallback_types_and_answer_reads_result(page: Page):
    plan = [
        {
            "op": "fill",
            "target": {"selector": "#q"},
            "content": "Hanoi",
            "submit": True,
            "expect": {"target": {"selector": "#out"}, "text_contains": "Hanoi"},
        },
        {"op": "answer", "source": {"target": {"selector": "#out"}}},
    ]
    oracle = OracleModel(make_task(plan), page, seed=2)
    system = prompt(disable=("fill",))
    names, text = [], ""
    for step in range(6):
        text = await ask(oracle, page, system, step=step)
        if "finished(" in text:
            break
        names.append(await drive(page, text))
    assert names == ["click", "type"]
    assert "type(content='Hanoi\\n')" in oracle.actions_log[1]
    assert text.endswith("Action: finished(content='Hanoi')")


async def test_fill_offered_submits_with_newline(page: Page):
    plan = [{"op": "fill", "target": {"selector": "#q"}, "content": "Ha'noi", "submit": True}]
    oracle = OracleModel(make_task(plan), page, seed=2)
    text = await ask(oracle, page, prompt())
    assert re.search(
        r"Action: fill\(start_box='<\|box_start\|>\(\d+,\d+\)<\|box_end\|>', content='Ha\\'noi\\n'\)$", text
    )
    parsed = parse_reply(text, SPECS)
    assert parsed.action.args["content"] == "Ha'noi\n"


async def snapshot(page: Page) -> dict:
    js = """() => ({html: document.documentElement.outerHTML, sx: scrollX, sy: scrollY,
      focus: document.activeElement && (document.activeElement.id || document.activeElement.tagName),
      values: Array.from(document.querySelectorAll('input,select,textarea')).map(e => e.value),
      inner: Array.from(document.querySelectorAll('*')).filter(e => e.scrollTop || e.scrollLeft).map(e => [e.id, e.scrollTop]),
      muts: window.__mutations})"""
    frame = page.frame_locator("iframe#dash")
    return {
        "main": await page.evaluate(js),
        "frame": await frame.locator("html").evaluate(
            "h => [h.outerHTML, scrollY, document.activeElement && document.activeElement.tagName]"
        ),
        "url": page.url,
    }


async def test_oracle_never_changes_the_page(page: Page):
    plan = [
        {"op": "scroll_to", "target": {"selector": "#far"}},
        {"op": "find_text", "text": "Lower 99", "target": {"frame": ["iframe#dash"], "selector": "#lower"}},
        {"op": "select", "target": COUNTRY, "option": "Germany"},
        {"op": "hover", "target": BTN},
        {"op": "fill", "target": {"selector": "#q"}, "content": "x", "submit": True},
        {"op": "answer", "source": {"target": {"selector": "#deep"}}},
    ]
    # Playwright's screenshot itself injects a style (caret hiding): take the image first.
    image = await shot(page)
    before = await snapshot(page)
    for system in (prompt(), prompt(disable=("select", "fill", "hover", "find_text"))):
        oracle = OracleModel(make_task(plan), page, seed=5, retries_per_step=0)
        for step in range(12):
            await ask(oracle, page, system, step=step, image=image)
        assert len(set(oracle.actions_log)) > 3  # it went through several kinds of replies
    after = await snapshot(page)
    assert (
        after["main"] == before["main"]
        and after["frame"] == before["frame"]
        and after["url"] == before["url"]
    )
    assert after["main"]["muts"] == before["main"]["muts"]


async def test_scrolls_page_then_inside_frame_until_source_is_visible(page: Page):
    plan = [
        {"op": "answer", "source": {"target": {"selector": "#far"}, "regex": r"Total: ([\d,]+)"}},
    ]
    oracle = OracleModel(make_task(plan), page, seed=4)
    system = prompt()
    text = await ask(oracle, page, system)
    assert "Action: scroll(" in text and "direction='down'" in text
    x, y = map(int, POINT.search(text).groups())
    kind = await page.evaluate("([x, y]) => document.elementFromPoint(x, y).tagName", [x * 4 / 3, y * 4 / 3])
    assert kind != "IFRAME"  # it turns the wheel over the page, not over the embedded frame
    for step in range(1, 20):
        await drive(page, text)
        text = await ask(oracle, page, system, step=step)
        if "finished(" in text:
            break
    assert text.endswith("finished(content='1,234')")
    box = await page.locator("#far").bounding_box()
    assert 0 <= box["y"] and box["y"] + box["height"] <= 1080

    # A source inside the cross-origin frame's own scroll area: the wheel turns inside the frame.
    await page.evaluate("scrollTo(0, 0)")
    oracle = OracleModel(
        make_task([{"op": "answer", "source": {"target": {"frame": ["iframe#dash"], "selector": "#lower"}}}]),
        page,
        seed=4,
    )
    text = await ask(oracle, page, system)
    x, y = map(int, POINT.search(text).groups())
    frame_box = await page.locator("#dash").bounding_box()
    assert frame_box["y"] < y * 4 / 3 < frame_box["y"] + frame_box["height"]
    for step in range(1, 20):
        await drive(page, text)
        text = await ask(oracle, page, system, step=step)
        if "finished(" in text:
            break
    assert text.endswith("finished(content='Lower 99')")


async def test_answer_is_read_from_the_dom_at_call_time(page: Page):
    plan = [
        {"op": "click", "target": BTN, "expect": {"target": BTN, "text_contains": "Clicked"}},
        {"op": "answer", "source": {"target": {"selector": "#val"}, "regex": r"(\d+)"}},
    ]
    oracle = OracleModel(make_task(plan, answer="999"), page, seed=6)
    await drive(page, await ask(oracle, page, prompt()))
    await page.evaluate("document.getElementById('val').textContent = 'Population: 43'")
    text = await ask(oracle, page, prompt(), step=1)
    assert text.endswith("Action: finished(content='43')") and "999" not in text


async def test_retries_a_step_whose_expectation_fails_then_moves_on(page: Page):
    plan = [
        {"op": "click", "target": BTN, "expect": {"target": BTN, "text_contains": "Clicked"}},
        {"op": "answer", "value": ""},
    ]
    oracle = OracleModel(make_task(plan), page, seed=6, retries_per_step=2)
    texts = [await ask(oracle, page, prompt(), step=i) for i in range(4)]  # the test never clicks
    assert [t.split("Action: ")[1].split("(")[0] for t in texts] == ["click", "click", "click", "finished"]


async def test_waits_for_a_late_element(page: Page):
    plan = [{"op": "answer", "source": {"target": {"selector": "#late"}}}]
    oracle = OracleModel(make_task(plan), page, seed=6)
    assert "Action: wait()" in await ask(oracle, page, prompt())
    await page.evaluate("document.body.insertAdjacentHTML('afterbegin', '<b id=late>ready 5</b>')")
    assert (await ask(oracle, page, prompt(), step=1)).endswith("finished(content='ready 5')")


async def test_bad_plan_and_bad_options_give_clear_errors(page: Page):
    with pytest.raises(ValueError, match="unknown oracle option"):
        OracleModel(make_task([]), page, jiter=1)
    with pytest.raises(ValueError, match="unknown oracle quirk"):
        OracleModel(make_task([], quirks={"bogus": 1}), page)
    oracle = OracleModel(make_task([{"op": "teleport"}]), page)
    with pytest.raises(ModelError, match="unknown plan op 'teleport'; known: click, "):
        await ask(oracle, page, prompt())
    oracle = OracleModel(make_task([{"op": "click", "target": {"selector": "#btn["}}]), page)
    with pytest.raises(ModelError, match="bad selector"):
        await ask(oracle, page, prompt())


async def test_click_many_and_its_fallback(page: Page):
    plan = [{"op": "click_many", "targets": [BTN, INNER]}, {"op": "answer", "value": ""}]
    oracle = OracleModel(make_task(plan), page, seed=8)
    text = await ask(oracle, page, prompt())
    parsed = parse_reply(text, SPECS)
    assert parsed.action.name == "click_many" and len(parsed.action.args["points"]) == 2
    for (x, y), loc in zip(parsed.action.args["points"], (BTN, INNER), strict=True):
        tx, ty = await dom_centre(page, loc)
        assert abs(x * 4 / 3 - tx) < 4 and abs(y * 4 / 3 - ty) < 4

    oracle = OracleModel(make_task(plan), page, seed=8)
    system = prompt(disable=("click_many",))
    texts = [await ask(oracle, page, system, step=i) for i in range(3)]
    assert [t.split("Action: ")[1].split("(")[0] for t in texts] == ["click", "click", "finished"]
