"""An MCP client from the official SDK drives `webfovea mcp` over stdio: it lists the tools,
looks at the page, finds the form's box and button by colour in the image it was sent, fills
and submits through the tools, and the page's own server receives the value. The task folder
is complete after the client disconnects."""

from __future__ import annotations

import base64
import io
import json
import os
import sys
from pathlib import Path

from mcp import Client, StdioServerParameters
from PIL import Image

from tests.support.servers import serve_pages
from webfovea.actions import catalog
from webfovea.config import make_config

FORM = """<html><body style="margin:0;font:20px sans-serif">
<form action="/submit" method="get" style="position:absolute;left:300px;top:200px">
  <input name="name" style="width:400px;height:60px;background:#ff00ff;border:0;font-size:24px">
  <button type="submit" style="display:block;margin-top:200px;width:200px;height:80px;background:#00ff00;border:0">Send</button>
</form></body></html>"""


def server_params(url: str, out: Path, *extra: str) -> StdioServerParameters:
    return StdioServerParameters(
        command=sys.executable,
        args=[
            "-m",
            "webfovea.cli",
            "mcp",
            "--url",
            url,
            "--out",
            str(out),
            "--task-id",
            "form",
            "--offline",
            *extra,
        ],
        env={k: v for k, v in os.environ.items() if k.startswith(("WEBFOVEA", "PYTHON", "PLAYWRIGHT"))},
        cwd=str(Path(__file__).resolve().parents[2]),
    )


def centre_of(image: Image.Image, rgb: tuple[int, int, int]) -> list[float]:
    """The centre of the pixels of one exact colour: where a model would point at that control."""
    xs, ys = [], []
    px = image.convert("RGB").load()
    for y in range(0, image.height, 2):
        for x in range(0, image.width, 2):
            if px[x, y] == rgb:
                xs.append(x)
                ys.append(y)
    assert xs, f"no {rgb} pixels in the image"
    return [sum(xs) / len(xs), sum(ys) / len(ys)]


def image_of(result) -> Image.Image:
    block = next(c for c in result.content if c.type == "image")
    assert block.mime_type == "image/png"
    return Image.open(io.BytesIO(base64.b64decode(block.data)))


def text_of(result) -> str:
    return "\n".join(c.text for c in result.content if c.type == "text")


async def test_client_fills_and_submits_a_form_over_stdio(tmp_path):
    with serve_pages({"/": FORM, "/submit": "<p>thanks</p>"}) as site:
        async with Client(server_params(site.url("/"), tmp_path)) as client:
            tools = (await client.list_tools()).tools
            names = [t.name for t in tools]
            assert names == ["observe", *(s.name for s in catalog.offered(make_config()))]
            fill = next(t for t in tools if t.name == "fill")
            assert fill.input_schema["required"] == ["start_box", "content"]

            seen = await client.call_tool("observe", {})
            assert not seen.is_error
            image = image_of(seen)
            assert image.size == (1440, 810)  # the default cap for the 1920x1080 viewport
            assert "URL: " + site.url("/") in text_of(seen)

            filled = await client.call_tool(
                "fill", {"start_box": centre_of(image, (255, 0, 255)), "content": "Ada Lovelace"}
            )
            assert not filled.is_error, text_of(filled)
            assert "The box now contains 'Ada Lovelace'" in text_of(filled)

            image = image_of(await client.call_tool("observe", {}))
            sent = await client.call_tool("click", {"start_box": centre_of(image, (0, 255, 0))})
            assert not sent.is_error, text_of(sent)
            assert "/submit?name=Ada+Lovelace" in site.log  # the site's server got the value

            wrong = await client.call_tool("type", {"text": "oops"})
            assert wrong.is_error and "Expected: type(content=" in text_of(wrong)
            unknown = await client.call_tool("goto", {"url": "http://example.com"})
            assert unknown.is_error and "Unknown tool `goto`" in text_of(unknown)
        # The client disconnected without `finished`: the task folder is closed all the same.
    task_dir = tmp_path / "form"
    result = json.loads((task_dir / "result.json").read_text())
    assert result["status"] == "interrupted" and "disconnected" in result["error"]
    assert result["steps"] == 4 and result["model"] == "mcp"
    steps = [json.loads(line) for line in (task_dir / "trajectory.jsonl").read_text().splitlines()]
    assert [s["action"]["name"] if s["action"] else None for s in steps] == ["fill", "click", None, None]
    assert steps[0]["raw_reply"].startswith("Action: fill(start_box='<|box_start|>(")
    assert steps[0]["outcome"] == "executed" and steps[2]["outcome"] == "rejected"
    assert (task_dir / steps[0]["screenshot"]).exists() and (
        task_dir / steps[1]["screenshot_marked"]
    ).exists()
    assert (task_dir / "capture.json").exists()


async def test_finished_closes_the_task_with_the_answer(tmp_path):
    with serve_pages({"/": FORM}) as site:
        # OCR off: "42" is nowhere on the form, so its cross-check would hold this finished once
        # (tests/guardrails/test_ocr_check.py); the point here is the task ending.
        params = server_params(site.url("/"), tmp_path, "--model", "openai:gpt-4o", "--disable", "ocr_check")
        async with Client(params) as client:
            image = image_of(await client.call_tool("observe", {}))
            assert image.size == (1365, 768)  # GPT-4o's row: short side 768, never resized by the provider
            done = await client.call_tool("finished", {"content": "42"})
            assert not done.is_error and done.structured_content["status"] == "finished"
            after = await client.call_tool("observe", {})
            assert after.is_error and "The task is over (status finished" in text_of(after)
    result = json.loads((tmp_path / "form" / "result.json").read_text())
    assert result["status"] == "finished" and result["answer"] == "42" and result["steps"] == 1
    assert result["model"] == "mcp:openai:gpt-4o" and result["config"]["conventions"] != "default"


async def test_the_step_budget_ends_the_task_as_in_bench(tmp_path):
    with serve_pages({"/": FORM}) as site:
        async with Client(server_params(site.url("/"), tmp_path, "--max-steps", "2")) as client:
            for _ in range(2):
                moved = await client.call_tool("hover", {"start_box": [10, 10]})
                assert not moved.is_error, text_of(moved)
            over = await client.call_tool("hover", {"start_box": [20, 20]})
            assert over.is_error and "status max_steps" in text_of(over)
            assert over.structured_content == {"done": True, "status": "max_steps"}
    result = json.loads((tmp_path / "form" / "result.json").read_text())
    assert result["status"] == "max_steps" and result["steps"] == 2
    assert result["config"]["max_steps"] == 2


def test_sigterm_writes_the_result(tmp_path):
    import signal
    import subprocess
    import time

    with serve_pages({"/": FORM}) as site:
        p = server_params(site.url("/"), tmp_path)
        proc = subprocess.Popen(
            [p.command, *p.args],
            cwd=p.cwd,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        deadline = time.monotonic() + 120
        while not site.log and time.monotonic() < deadline:  # the browser asked for the start page
            time.sleep(0.2)
        proc.send_signal(signal.SIGTERM)  # while opening the page, or serving: either way it is written
        out, err = proc.communicate(timeout=60)
    assert proc.returncode == 0 and out == b"", err
    result = json.loads((tmp_path / "form" / "result.json").read_text())
    assert result["status"] == "interrupted" and "stopped" in result["error"]
