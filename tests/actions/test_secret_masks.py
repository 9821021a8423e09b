"""A secret is hidden by the field that holds it, wherever that field is drawn: in a scaled
frame (in-process or out-of-process), in a shadow root, after the page rewrote the value; and
a field that kept only part of it (`maxlength`) is never quoted back to the model."""

from __future__ import annotations

import pytest
from PIL import Image

from tests.support.servers import serve_pages, two_origins
from webfovea.browser.secret_fields import MASK
from webfovea.config import make_config
from webfovea.harness import Harness
from webfovea.secrets import scrub_text

pytestmark = pytest.mark.asyncio(loop_scope="session")

VALUE = "Mw3-quartz-58-fern"  # 18 characters
FIELD = (200, 100, 300, 40)  # the field inside each frame, CSS pixels of the frame
FRAME_PAGE = f"""<!doctype html><body style="margin:0;background:#fff">
<input id=f value="{VALUE}" style="position:absolute;left:{FIELD[0]}px;top:{FIELD[1]}px;width:{FIELD[2]}px;
height:{FIELD[3]}px;font-size:24px;border:0;background:#fff;color:#000"></body>"""
# Each frame is shown at half size: the field is drawn at half its own coordinates.
SCALED = "position:absolute;border:0;width:800px;height:300px;transform:scale(0.5);transform-origin:0 0"


def _covered(image: Image.Image, css_w: float, box: tuple[float, float, float, float]) -> set:
    s = image.width / css_w
    x, y, w, h = (round(v * s) for v in box)
    return {
        image.getpixel((px, py)) for px in range(x + 2, x + w - 2, 3) for py in range(y + 2, y + h - 2, 2)
    }


async def _harness(session, url: str, origins: list[str]) -> Harness:  # noqa: ANN001
    secrets = {"pw": {"value": VALUE, "origins": origins}}
    h = await Harness.on_page(await session.fresh_page(), make_config(secrets=secrets))
    await h.goto(url)
    return h


async def test_a_field_in_a_scaled_frame_is_masked_where_it_is_drawn(session) -> None:
    with two_origins({}, {"/": FRAME_PAGE}) as (a, b):
        main = f"""<!doctype html><body style="margin:0;background:#fff">
<iframe id=same src="{b.url("/")}" style="{SCALED};left:40px;top:60px"></iframe>
<iframe id=oopif src="{b.url("/", host="localhost")}" style="{SCALED};left:40px;top:400px"></iframe></body>"""
        with serve_pages({"/": main}) as c:
            h = await _harness(session, c.url("/"), [c.url("")])
            for frame in ("#same", "#oopif"):
                await h.page.frame_locator(frame).locator("#f").wait_for()
            obs = await h.observe()
            css_w = obs.shot.css_width
            for left, top in ((40, 60), (40, 400)):
                drawn = (left + FIELD[0] / 2, top + FIELD[1] / 2, FIELD[2] / 2, FIELD[3] / 2)
                assert _covered(obs.image, css_w, drawn) == {MASK}, (left, top)
            # What the frames show beside the field is not painted over.
            assert (
                obs.image.getpixel((round(45 * obs.image.width / css_w), round(65 * obs.image.width / css_w)))
                != MASK
            )


SHADOW = """<!doctype html><body style="margin:0;background:#fff"><div id=host></div>
<script>const root = document.getElementById('host').attachShadow({mode: 'open'});
root.innerHTML = '<input id=pw maxlength=12 style="position:absolute;left:100px;top:200px;width:400px;'
  + 'height:40px;font-size:24px">';
</script></body>"""
# A page that rewrites what was typed (reversed): only the field's identity still says it holds a secret.
REWRITER = SHADOW.replace(" maxlength=12", "").replace(
    "</script>",
    "root.getElementById('pw').addEventListener('input', (e) => "
    "{ e.target.value = e.target.value.split('').reverse().join(''); });</script>",
)


def _fill(h: Harness, css: tuple[float, float]) -> str:
    assert h.last is not None
    s = h.last.image.width / h.last.shot.css_width
    box = f"<|box_start|>({css[0] * s:.0f},{css[1] * s:.0f})<|box_end|>"
    return f"Thought: t\nAction: fill(start_box='{box}', content='<secret>pw</secret>')"


async def test_a_field_that_kept_a_prefix_is_never_quoted_and_stays_masked(session) -> None:
    with serve_pages({"/": SHADOW}) as srv:
        h = await _harness(session, srv.url("/"), [srv.url("")])
        await h.observe()
        res = await h.step(_fill(h, (300, 220)))
        kept = await h.page.locator("#host >> #pw").input_value()
        assert kept == VALUE[:12]  # the page's limit cut it
        assert (
            VALUE[:8] not in (res.feedback or "") and "did not take the whole of secret 'pw'" in res.feedback
        )
        obs = await h.observe()
        assert _covered(obs.image, obs.shot.css_width, (100, 200, 400, 40)) == {MASK}
        # Anywhere else text quotes it (a snapshot line, a URL), the prefix is scrubbed too.
        assert VALUE[:12] not in scrub_text(f'textbox "Passphrase": {VALUE[:12]}')


async def test_a_field_the_page_rewrote_is_masked_by_its_identity(session) -> None:
    with serve_pages({"/": REWRITER}) as srv:
        h = await _harness(session, srv.url("/"), [srv.url("")])
        await h.observe()
        res = await h.step(_fill(h, (300, 220)))
        assert await h.page.locator("#host >> #pw").input_value() == VALUE[::-1], res.feedback
        obs = await h.observe()
        assert _covered(obs.image, obs.shot.css_width, (100, 200, 400, 40)) == {MASK}
