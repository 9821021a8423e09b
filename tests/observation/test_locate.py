"""locate(description) on real Chromium: the gridded screenshot goes to a model that reads the
image, its 0-1000 answer is mapped back to the viewport, and the returned start_box point lies
inside the target — in the four corners and the centre, after a scroll, at a non-default
viewport size — while nothing on the page is clicked."""

from __future__ import annotations

import re

import pytest
from PIL import Image

from tests.support.servers import serve_pages
from tests.support.shared_browser import harness_on
from webfovea.actions.locate import parse_answer, to_viewport
from webfovea.models.base import ModelInput, ModelReply, Usage
from webfovea.observation.grid import COLUMNS, ROWS, draw_grid, find_lines

ASYNC = pytest.mark.asyncio(loop_scope="session")

# Five targets, each drawn in a colour of its own, placed 1,500 px down a tall page (reached
# by scrolling); every click anywhere is counted.
COLOURS = {
    "red": (220, 30, 30),
    "green": (20, 170, 60),
    "blue": (30, 60, 220),
    "orange": (250, 140, 0),
    "purple": (120, 40, 160),
}
PLACES = {
    "red": "left:8px;top:1508px",
    "green": "right:8px;top:1508px",
    "blue": "left:8px;bottom:8px",
    "orange": "right:8px;bottom:8px",
    "purple": "left:calc(50% - 30px);top:calc(1500px + 50vh - 20px)",
}
PAGE = """<!doctype html><html><body style="margin:0;height:3000px;position:relative;background:#fafafa">
<div id=count>0</div>
{boxes}
<script>
let clicks = 0;
document.addEventListener('click', () => {{ clicks += 1; document.getElementById('count').textContent = clicks; }});
window.scrollTo(0, 1500);
</script></body></html>"""


def page_html(viewport_h: int) -> str:
    boxes = []
    for name, rgb in COLOURS.items():
        place = PLACES[name].replace("bottom:8px", f"top:{1500 + viewport_h - 48}px")
        boxes.append(
            f'<div id={name} style="position:absolute;{place};width:60px;height:40px;'
            f'background:rgb{rgb}"></div>'
        )
    return PAGE.format(boxes="\n".join(boxes))


class ColourReader:
    """A stand-in vision model that reads the image it is sent: it finds the described colour's
    pixels and names their centre in 0-1000 by the grid lines drawn on the image."""

    def __init__(self) -> None:
        self.inputs: list[ModelInput] = []

    async def next_reply(self, inp: ModelInput) -> ModelReply:
        self.inputs.append(inp)
        image = inp.images[-1].convert("RGB")
        name = next(n for n in COLOURS if n in inp.task)
        box = _bbox(image, COLOURS[name])
        if box is None:
            return ModelReply("Point: none", Usage(10, 2))
        cols, rows = find_lines(image) or ([], [])
        assert len(cols) == COLUMNS - 1 and len(rows) == ROWS - 1
        w, h = image.size
        cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
        return ModelReply(
            f"Box: {box}\nPoint: ({round(cx / w * 1000)}, {round(cy / h * 1000)})", Usage(100, 9)
        )

    async def aclose(self) -> None:
        pass


def _bbox(image: Image.Image, rgb: tuple[int, int, int]) -> tuple[int, int, int, int] | None:
    mask = Image.eval(image.convert("RGB"), lambda v: v)  # a copy
    px = mask.load()
    w, h = mask.size
    xs, ys = [], []
    for y in range(0, h, 2):
        for x in range(0, w, 2):
            p = px[x, y]
            if all(abs(a - b) <= 12 for a, b in zip(p, rgb, strict=True)):
                xs.append(x)
                ys.append(y)
    return (min(xs), min(ys), max(xs), max(ys)) if xs else None


def test_answer_parser_and_mapping():
    assert parse_answer("Box: (1, 2, 3, 4)\nPoint: (500, 250)").point == (500, 250)
    assert parse_answer("the centre is (10, 990)").point == (10, 990)
    assert parse_answer("Point: none").missing
    assert "outside" in (parse_answer("Point: (1200, 40)").problem or "")
    assert parse_answer("I am not sure").problem
    assert to_viewport((1000, 1000), 1000, 700) == (999, 699)  # clipped to the viewport
    assert to_viewport((500, 500), 1000, 700) == (500, 350)


def test_grid_is_drawn_and_found_again():
    img = draw_grid(Image.new("RGB", (1440, 810), (255, 255, 255)))
    cols, rows = find_lines(img)
    assert cols[0] == 90 and rows[0] == round(810 / 12) and len(cols) == 15 and len(rows) == 11
    assert find_lines(Image.new("RGB", (200, 100), (255, 255, 255))) is None


@ASYNC
async def test_locate_across_the_viewport_after_scroll_at_small_viewport(session):
    vw, vh = 1000, 640
    with serve_pages({"/": page_html(vh)}) as srv:
        async with harness_on(session, srv.url("/"), observation="structured", viewport=(vw, vh)) as h:
            reader = ColourReader()
            h.use_vision(reader, label="colour-reader", separate=True)
            assert any(s.name == "locate" for s in h.specs) and "- locate(description=" in h.system_prompt
            for name in COLOURS:
                obs = await h.observe()
                assert await h.page.evaluate("scrollY") == 1500
                res = await h.step(f"Thought: where is it\nAction: locate(description='the {name} box')")
                assert res.outcome == "executed", res.feedback
                m = re.search(r"is at \((\d+),(\d+)\); use click\(start_box='\(\1,\2\)'\)", res.feedback)
                assert m, res.feedback
                x, y = obs.shot.to_css(float(m.group(1)), float(m.group(2)))
                hit = await h.page.evaluate("([x, y]) => document.elementFromPoint(x, y)?.id", [x, y])
                assert hit == name, (name, x, y, res.feedback)
                [call] = res.executed.outcome.response.calls
                assert (
                    call["purpose"] == "locate" and call["separate"] and call["usage"]["prompt_tokens"] == 100
                )
            assert await h.page.locator("#count").text_content() == "0"  # locate never clicks
            sent = reader.inputs[-1].images[-1]
            assert (
                find_lines(sent) is not None and sent.size == obs.image.size
            )  # the grid over the view as sent


@ASYNC
async def test_locate_bad_answers_click_nothing(session):
    class Says:
        def __init__(self, text: str) -> None:
            self.text = text

        async def next_reply(self, inp: ModelInput) -> ModelReply:
            return ModelReply(self.text, Usage(5, 1))

        async def aclose(self) -> None:
            pass

    with serve_pages({"/": page_html(600)}) as srv:
        async with harness_on(session, srv.url("/"), observation="structured", viewport=(900, 600)) as h:
            for text, said in [
                ("I think it is somewhere", "held no point"),
                ("Point: (1500, 20)", "outside"),
                ("Point: none", "was not found"),
            ]:
                h.use_vision(Says(text), separate=True)
                res = await h.step("Thought: t\nAction: locate(description='the red box')")
                assert res.outcome == "failed" and said in res.feedback, res.feedback
                assert "start_box" not in res.feedback
            assert await h.page.locator("#count").text_content() == "0"


@ASYNC
async def test_launch_with_vision_model_builds_the_second_client(session, monkeypatch):
    from tests.models.fake_llm import fake_llm, openai_ok

    monkeypatch.setenv("OPENAI_API_KEY", "k")
    with (
        serve_pages({"/": page_html(600)}) as srv,
        fake_llm([openai_ok("Box: (0,0,60,60)\nPoint: (30, 30)")]) as vlm,
    ):
        async with harness_on(
            session,
            srv.url("/"),
            observation="structured",
            viewport=(900, 600),
            vision_model="openai:v",
            vision_base_url=vlm.base_url,
        ) as h:
            res = await h.step("Thought: t\nAction: locate(description='the red box')")
            assert res.outcome == "executed" and "is at (" in res.feedback
            assert res.executed.outcome.response.calls[0]["model"] == "openai:v"
        [req] = vlm.received
        assert req.body["model"] == "v" and "the red box" in str(req.body)
