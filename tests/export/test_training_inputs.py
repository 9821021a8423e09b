"""The SFT export's user message is what the model was sent: a scripted model records every
input of a real task (a zoom, a scroll, a click, an answer), and each exported record's system
prompt, text (images as `<image>` tags) and images equal that input's."""

from __future__ import annotations

import io
import json
from pathlib import Path

from PIL import Image, ImageChops

from tests.support.scripted import ScriptedModel
from tests.support.servers import serve_pages
from webfovea.agent import run_task
from webfovea.config import make_config
from webfovea.export.training import TrainingOptions, export_training
from webfovea.models.base import ModelInput
from webfovea.models.messages import openai_messages
from webfovea.task import Task

PAGE = (
    "<html><body style='margin:0;height:3000px'><h1>Prices</h1>"
    "<button id=b style='position:absolute;left:100px;top:300px;width:200px;height:60px' "
    "onclick=\"document.body.insertAdjacentHTML('beforeend','<p>done</p>')\">Go</button></body></html>"
)
REPLIES = [
    "Thought: look closer.\nAction: zoom(region='<|box_start|>(0,0,400,300)<|box_end|>')",
    "Thought: press it.\nAction: click(start_box='<|box_start|>(150,247)<|box_end|>')",
    "Thought: more below.\nAction: scroll(start_box='<|box_start|>(700,400)<|box_end|>', direction='down')",
    "Thought: seen it.\nAction: finished(content='done')",
]


def as_sent(inp: ModelInput) -> tuple[str, str, list[Image.Image]]:
    """(system, user text with an <image> tag per image, the images) of the request as built."""
    system, user = openai_messages(inp)
    text = "\n".join("<image>" if p["type"] == "image_url" else p["text"] for p in user["content"])
    return system["content"], text, [a.image for a in inp.attachments] + list(inp.images)


def same_pixels(a: Image.Image, b: Image.Image) -> bool:
    return a.size == b.size and ImageChops.difference(a.convert("RGB"), b.convert("RGB")).getbbox() is None


async def test_each_record_is_the_input_the_model_was_sent(tmp_path: Path) -> None:
    model = ScriptedModel(REPLIES)
    run = tmp_path / "run"
    with serve_pages({"/": PAGE}) as site:
        task = Task(task_id="t", task="Press Go and say what appears.", website=site.url("/"))
        res = await run_task(task, run / "t", model=model, config=make_config(max_seconds=120))
    assert res.status == "finished"
    (run / "summary.json").write_text(json.dumps({"per_task": {"t": {"passed": True}}}))
    out = tmp_path / "sft"
    summary = export_training([run], out, TrainingOptions())
    rows = [json.loads(line) for line in (out / "sft.jsonl").read_text().splitlines()]
    assert summary.records == len(rows) == len(model.seen) == len(REPLIES)
    assert any(inp.attachments for inp in model.seen), "the zoom attached no crop"
    for row, inp in zip(rows, model.seen, strict=True):
        system, text, images = as_sent(inp)
        assert row["messages"][0]["content"] == system
        assert row["messages"][1]["content"] == text
        assert len(row["images"]) == len(images)
        for rel, image in zip(row["images"], images, strict=True):
            assert same_pixels(Image.open(io.BytesIO((out / rel).read_bytes())), image), rel
