"""The history keeps past screenshots as their PNG, decoded only when a model looks again: a
1440x810 screenshot held decoded is 4.7 MB, its PNG about a tenth of that. The twin shows the same
pixels and is sent as the same bytes (a provider's prompt cache sees no change)."""

from __future__ import annotations

import gc
import io

import pytest
from PIL import Image, ImageDraw

from tests.support.servers import serve_pages
from webfovea import Harness
from webfovea.models import messages
from webfovea.observation.capture import Shot


def _decoded(im: Image.Image) -> bool:
    return getattr(im, "_im", None) is not None  # PIL's decoded pixels (None until load())


def _shot() -> Shot:
    im = Image.new("RGB", (1440, 810), "white")
    ImageDraw.Draw(im).text((40, 40), "Total 4,217", fill="black", font_size=40)
    buf = io.BytesIO()
    im.save(buf, format="PNG")
    png = buf.getvalue()
    decoded = Image.open(io.BytesIO(png)).convert("RGB")
    return Shot(decoded, 1920, 1080, 1.0, (1440, 810), "pixels", True, png=png)


def test_a_kept_screenshot_is_its_png_until_its_pixels_are_read():
    shot = _shot()
    sent = messages.png_base64(shot.image)  # the step's model call encoded it
    kept = shot.kept()
    assert kept is not shot.image and kept.size == (1440, 810) and not _decoded(kept)
    assert messages.png_base64(kept) == sent and not _decoded(kept)  # same bytes, never decoded
    assert kept.tobytes() == shot.image.tobytes()  # and the same pixels when a model does look


def test_without_its_own_png_the_decoded_image_is_kept():
    shot = _shot()
    shot.png = None  # masked or shrunk: the PNG no longer holds these pixels
    assert shot.kept() is shot.image


def test_an_encoding_whose_image_is_gone_is_not_kept():
    im = Image.new("RGB", (64, 64), "red")
    messages.png_base64(im)
    del im
    gc.collect()
    keep = Image.new("RGB", (64, 64), "blue")
    messages.png_base64(keep)  # the next encoding drops the text of every image that is gone
    assert all(ref() is not None for ref, _ in messages._PNG_CACHE.values())


PAGE = """<!doctype html><html><body style="margin:0;font:20px sans-serif">
<button id="b" style="position:absolute;left:600px;top:400px;width:200px;height:80px"
 onclick="this.textContent = 'Pressed ' + (++window.n || (window.n = 1))">Press</button></body></html>"""


@pytest.mark.asyncio(loop_scope="module")
@pytest.mark.browser
async def test_past_screenshots_in_the_window_stay_encoded_until_a_model_reads_them():
    with serve_pages({"/": PAGE}) as srv:
        async with Harness.launch(srv.url("/"), observation="vision") as h:
            for _ in range(3):
                await h.observe()
                h.model_input("t")
                await h.step("Thought: t\nAction: click(start_box='<|box_start|>(525,330)<|box_end|>')")
            obs = await h.observe()
            inp = h.model_input("t")
            past = inp.images[:-1]
            assert len(past) == 3 and inp.images[-1] is obs.image
            assert all(im.size == obs.image.size and not _decoded(im) for im in past)
            # Each past image is what its step's capture was: the second click's view differs
            # from the first's (the button's label), and reading it decodes it then.
            assert past[0].tobytes() != past[1].tobytes()
