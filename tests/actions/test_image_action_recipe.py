"""The recipe "an action that shows the model an image" needs one module and one registration.

tests/actions/snap_region.py is such a module, written as one under `actions/` would be, and
`catalog.register` adds it the way `_MODULES` adds the built-in ones. On a real page in real
Chromium it is offered in the prompt, parsed, executed, its crop goes with the next model
input only (into the provider's messages), and the step record lists it with its saved file —
while harness/core.py and executor.py never mention it.
"""

from __future__ import annotations

import base64
import io
from pathlib import Path

import pytest
from PIL import Image, ImageChops

from tests.actions import snap_region
from tests.support.servers import serve_pages
from webfovea import Harness
from webfovea.actions import catalog
from webfovea.config import make_config
from webfovea.driving.records import step_record
from webfovea.models.base import ModelReply
from webfovea.models.messages import openai_messages
from webfovea.record.writer import TaskRecorder

ASYNC = pytest.mark.asyncio(loop_scope="session")
PKG = Path(__file__).resolve().parents[2] / "webfovea"

PAGE = """<!doctype html><html><body style="margin:0;background:#fff">
<div style="position:absolute;left:30px;top:40px;width:90px;height:60px;background:rgb(20,120,220)"></div>
</body></html>"""


@pytest.fixture(scope="module")
def site():
    with serve_pages({"/": PAGE}) as srv:
        yield srv


@pytest.fixture
def registered():
    catalog.register(snap_region)
    try:
        yield
    finally:
        catalog.unregister(snap_region)
    assert "snap_region" not in catalog.BY_NAME


def _same(a: Image.Image, b: Image.Image) -> bool:
    return a.size == b.size and ImageChops.difference(a.convert("RGB"), b.convert("RGB")).getbbox() is None


@ASYNC
async def test_a_registered_image_action_reaches_the_model_and_the_record(
    session, site, registered, tmp_path
):
    page = await session.fresh_page()
    h = await Harness.on_page(page, make_config("webfovea"))
    await h.goto(site.url("/"))
    assert "snap_region(region=" in h.system_prompt  # offered and described like a built-in action
    obs = await h.observe()
    reply = "Thought: look closer\nAction: snap_region(region='(0,0,200,150)')"
    res = await h.step(reply)
    assert res.outcome == "executed", res.feedback
    assert res.feedback.startswith("snap_region: the region (0, 0, 200, 150) is attached.")
    expected = obs.image.crop((0, 0, 200, 150))

    # The next model input carries the crop, labelled, and the provider's messages hold it.
    await h.observe()
    inp = h.model_input("read the box")
    assert len(inp.attachments) == 1 and _same(inp.attachments[0].image, expected)
    assert inp.attachments[0].label.startswith("Region (0, 0, 200, 150)")
    parts = openai_messages(inp)[1]["content"]
    urls = [p["image_url"]["url"] for p in parts if p["type"] == "image_url"]
    assert len(urls) == len(inp.images) + 1
    sent = Image.open(io.BytesIO(base64.b64decode(urls[0].split(",", 1)[1])))
    assert _same(sent, expected)

    # The step record lists it and the crop is saved beside the step's screenshots.
    rec = step_record(1, ModelReply(reply), res, TaskRecorder(tmp_path))
    assert rec.attachments == [
        {
            "kind": "snap_region",
            "label": inp.attachments[0].label,
            "region": [0, 0, 200, 150],
            "file": "step_001_snap_region.png",
        }
    ]
    assert _same(Image.open(tmp_path / "step_001_snap_region.png"), expected)
    assert rec.zoom is None

    # One step only: the next input no longer carries it.
    other = await h.step("Action: wait()")
    await h.observe()
    assert h.model_input("t").attachments == []
    assert (
        step_record(2, ModelReply("Action: wait()"), other, TaskRecorder(tmp_path / "b")).attachments is None
    )
    await page.close()


def test_the_stages_never_name_it():
    for path in ("harness/core.py", "execution/executor.py"):
        assert "snap_region" not in (PKG / path).read_text()
