"""Secrets: the model types `<secret>NAME</secret>`, the harness types the value on the secret's
origins only (refused elsewhere, in a frame of another origin too), the server receives it, and
the value is in no byte of the task folder, in no model input, and not in the screenshot the
model is sent (the field is painted over)."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from urllib.parse import quote, quote_plus

import pytest
from PIL import Image

from tests.support.scripted import PointingModel
from tests.support.servers import Redirect, serve_pages, two_origins
from webfovea.agent import run_task
from webfovea.browser.secret_fields import MASK
from webfovea.config import make_config
from webfovea.harness import Harness
from webfovea.secrets import SecretsError, load_secrets
from webfovea.task import Task

pytestmark = pytest.mark.asyncio(loop_scope="session")

VALUE = "Qz8#kite lamp!"  # a space, '#' and '!' so that every encoding of it differs
SPELLINGS = {VALUE, quote(VALUE), quote(VALUE, safe=""), quote_plus(VALUE), json.dumps(VALUE)[1:-1]}
# Fixed boxes (CSS pixels), so the scripted replies and the pixel check know where things are.
FORM = """<!doctype html><html><body style="margin:0;background:#fff">
<form method=post action="/login">
  <input id=user name=user style="position:absolute;left:100px;top:100px;width:400px;height:40px;font-size:24px">
  <input id=phrase name=phrase style="position:absolute;left:100px;top:200px;width:400px;height:40px;font-size:24px">
  <button id=go style="position:absolute;left:100px;top:300px;width:200px;height:50px">Log in</button>
</form></body></html>"""
PHRASE_BOX = (100, 200, 400, 40)


def _secrets(origin: str) -> dict:
    return {"phrase": {"value": VALUE, "origins": [origin]}}


async def test_typed_on_its_origin_received_and_never_recorded_or_shown(session, tmp_path: Path) -> None:
    pages = {"/": FORM, "/login": Redirect(f"/welcome?t={quote_plus(VALUE)}"), "/welcome": "<h1>Welcome</h1>"}
    with serve_pages(pages) as srv:
        model = PointingModel(
            [
                ("fill", (300, 120), "content='alice'"),
                ("fill", (300, 220), "content='<secret>phrase</secret>'"),
                ("click", (200, 325), ""),
                ("finished", None, "content='logged in'"),
            ]
        )
        task = Task(task_id="t", task="Log in as alice.", website=srv.url("/"))
        config = make_config(secrets=_secrets(srv.url("")))
        result = await run_task(task, tmp_path / "t", model=model, config=config, session=session)
    assert result.status == "finished", result.error
    (path, body), *_ = srv.bodies
    assert path == "/login" and f"phrase={quote_plus(VALUE)}".encode() in body  # the server got it
    assert any(p.startswith("/welcome?t=") for p in srv.log)
    # The model was told the name and the syntax, and saw its own placeholder come back.
    assert (
        "<secret>phrase</secret>" in model.seen[0].system and "phrase: typed only on" in model.seen[0].system
    )
    assert "<secret>phrase</secret>" in (model.seen[2].feedback or "")
    # No model input holds the value, in any spelling.
    for inp in model.seen:
        text = json.dumps(
            {k: v for k, v in dataclasses.asdict(inp).items() if k not in ("images", "attachments")}
        )
        assert not any(s in text or json.dumps(s)[1:-1] in text for s in SPELLINGS), text
    # The field is painted over in the screenshot the model was sent after typing it.
    image = model.seen[2].images[-1]
    scale = image.width / 1920
    x, y, w, h = (round(v * scale) for v in PHRASE_BOX)
    inside = {
        image.getpixel((px, py)) for px in range(x + 2, x + w - 2, 7) for py in range(y + 2, y + h - 2, 3)
    }
    assert inside == {MASK}, inside
    assert image.getpixel((x + 5, round(120 * scale))) != MASK  # the user field is not
    # And in the task folder's copy of it: a capture's own PNG is written as it is only when
    # nothing was painted on it (observation/capture.py Shot.png).
    with Image.open(tmp_path / "t" / "step_002.png") as recorded:
        assert recorded.size == image.size and recorded.convert("RGB").tobytes() == image.tobytes()
    # Every byte of the task folder (json, jsonl, yml, png, sqlite leftovers, all of it).
    files = [p for p in (tmp_path / "t").rglob("*") if p.is_file()]
    assert any(p.name == "capture.json" for p in files) and any(p.name == "trajectory.jsonl" for p in files)
    for p in files:
        data = p.read_bytes()
        for s in SPELLINGS:
            assert s.encode() not in data, (p.name, s)
    assert "<secret>phrase</secret>" in (tmp_path / "t" / "trajectory.jsonl").read_text()
    recorded = json.loads((tmp_path / "t" / "result.json").read_text())["config"]["secrets"]
    assert recorded == {"phrase": {"origins": [srv.url("")]}}


async def _harness(session, url: str, origin: str) -> Harness:  # noqa: ANN001
    h = await Harness.on_page(await session.fresh_page(), make_config(secrets=_secrets(origin)))
    await h.goto(url)
    await h.observe()
    return h


def _fill(h: Harness, css: tuple[float, float], content: str) -> str:
    assert h.last is not None
    s = h.last.image.width / h.last.shot.css_width
    return f"Thought: t\nAction: fill(start_box='<|box_start|>({css[0] * s:.0f},{css[1] * s:.0f})<|box_end|>', content='{content}')"


async def test_refused_on_another_origin_and_in_a_frame_of_one(session) -> None:
    frame_page = FORM.replace("<body", "<body id=inner")
    with two_origins({"/": FORM}, {"/": frame_page}) as (a, b):
        allowed = a.url("")
        # The same page on localhost: another origin, refused with a note, nothing typed.
        h = await _harness(session, a.url("/", host="localhost"), allowed)
        res = await h.step(_fill(h, (300, 220), "<secret>phrase</secret>"))
        assert res.outcome == "rejected" and "may be typed only on " + allowed in res.feedback, res.feedback
        assert f"this field is on http://localhost:{a.port}" in res.feedback
        assert await h.page.input_value("#phrase") == ""
        # The allowed page, but the field is in a frame of another origin: refused too.
        outer = f'<iframe src="{b.url("/")}" style="position:absolute;left:0;top:0;width:900px;height:500px;border:0"></iframe>'
        with serve_pages({"/": outer}) as c:
            h = await _harness(session, c.url("/"), c.url(""))
            await h.page.frame_locator("iframe").locator("#phrase").wait_for()
            await h.observe()
            res = await h.step(_fill(h, (300, 220), "<secret>phrase</secret>"))
            assert res.outcome == "rejected" and f"this field is on http://127.0.0.1:{b.port}" in res.feedback
            assert await h.page.frame_locator("iframe").locator("#phrase").input_value() == ""
        # An unknown name is refused with the names there are; `type` into the focused field works.
        h = await _harness(session, a.url("/"), allowed)
        res = await h.step(_fill(h, (300, 220), "<secret>pin</secret>"))
        assert "no secret named 'pin'" in res.feedback and "phrase" in res.feedback
        await h.page.focus("#phrase")
        await h.observe()
        res = await h.step("Thought: t\nAction: type(content='x<secret>phrase</secret>')")
        assert res.outcome != "rejected", res.feedback
        assert await h.page.input_value("#phrase") == "x" + VALUE


async def test_secrets_files_toml_and_json(tmp_path: Path) -> None:
    toml = tmp_path / "s.toml"
    toml.write_text(
        '[phrase]\nvalue = "val1"\norigins = ["https://*.example.org", "http://127.0.0.1:8000"]\n'
    )
    got = load_secrets(toml)
    assert got["phrase"].plain() == "val1" and got["phrase"].typable_on("https://a.example.org/login")
    assert not got["phrase"].typable_on("https://example.org.evil.test/")
    js = tmp_path / "s.json"
    js.write_text(json.dumps({"api": {"value": "val2", "origins": ["https://example.org/"]}}))
    assert load_secrets(js)["api"].origins == ["https://example.org"]
    js.write_text(
        json.dumps({"s": {"value": "val3", "origins": ["https://*.example.co.uk", "http://localhost:8000"]}})
    )
    assert load_secrets(js)["s"].typable_on("https://shop.example.co.uk/")
    for bad, why in (
        ({"x": {"value": "v"}}, "origins"),
        ({"x": {"value": "v", "origins": ["https://e.org/path"]}}, "not an origin"),
        ({"x y": {"value": "v", "origins": ["https://e.org"]}}, "secret name"),
        ({"x": {"origins": ["https://e.org"]}}, "no value"),
        ({"x": {"value": "v", "origins": ["https://e.org"]}}, "too short to hide"),
        # Origins name one site: never every site under a public suffix (the bundled list).
        ({"x": {"value": "val1", "origins": ["https://*.co.uk"]}}, "public suffix"),
        ({"x": {"value": "val1", "origins": ["https://*.github.io"]}}, "public suffix"),
        ({"x": {"value": "val1", "origins": ["https://*.com"]}}, "public suffix"),
        ({"x": {"value": "val1", "origins": ["https://co.uk"]}}, "public suffix"),
        ({"x": {"value": "val1", "origins": ["http://*.127.0.0.1"]}}, "public suffix"),
    ):
        js.write_text(json.dumps(bad))
        with pytest.raises(SecretsError, match=why):
            load_secrets(js)
