"""--vision-model: look and locate go to a second real client (a fake OpenAI-compatible server on
loopback); the task's model never receives their images, and the records keep both usages apart."""

import json
import os
import subprocess
import sys

from tests.models.fake_llm import fake_llm, openai_ok
from tests.support.servers import serve_pages

PAGE = """<html><body style="margin:0;height:2400px"><div id=count>0</div>
<div style="position:absolute;left:860px;top:490px;width:200px;height:100px;background:#d22">Target</div>
<script>let n = 0; document.addEventListener('click', () => { n += 1; count.textContent = n; });</script>
</body></html>"""


def _images(body: dict) -> int:
    return sum(
        1
        for m in body["messages"]
        if isinstance(m.get("content"), list)
        for p in m["content"]
        if p.get("type") == "image_url"
    )


def test_vision_model_answers_look_and_locate(tmp_path):
    main = [
        openai_ok("Thought: find it\nAction: locate(description='the red Target box')", 1000, 20),
        openai_ok("Thought: read it\nAction: look(question='What colour is the box?')", 1000, 20),
        openai_ok("Thought: done\nAction: finished(content='red')", 1000, 20),
    ]
    vision = [
        openai_ok("Box: (440, 450, 550, 545)\nPoint: (500, 500)", 700, 9),
        openai_ok("The box is red.", 650, 5),
    ]
    with serve_pages({"/": PAGE}) as site, fake_llm(main) as llm, fake_llm(vision) as vlm:
        res = subprocess.run(
            [
                sys.executable,
                "-m",
                "webfovea.cli",
                "run",
                "--task",
                "what colour is the box",
                "--url",
                site.url("/"),
                "--model",
                "openai:main-model",
                "--base-url",
                llm.base_url,
                "--observation",
                "structured",
                "--vision-model",
                "openai:vision-model",
                "--vision-base-url",
                vlm.base_url,
                # the servers reply from fixed lists: no verifier call to spend a reply on
                "--disable",
                "verifier",
                "--out",
                str(tmp_path / "t"),
            ],
            capture_output=True,
            text=True,
            timeout=120,
            env={**os.environ, "OPENAI_API_KEY": "k"},
        )
        assert res.returncode == 0, res.stderr + res.stdout
        main_bodies = [r.body for r in llm.received]
        vision_bodies = [r.body for r in vlm.received]
    # The task's model: three calls, text only (structured mode; look/locate answered elsewhere).
    assert len(main_bodies) == 3 and all(_images(b) == 0 for b in main_bodies)
    assert all(b["model"] == "main-model" for b in main_bodies)
    # The vision model: the gridded screenshot with the description, then the look question.
    assert [b["model"] for b in vision_bodies] == ["vision-model", "vision-model"]
    assert all(_images(b) == 1 for b in vision_bodies)
    assert "the red Target box" in json.dumps(vision_bodies[0]) and "What colour" in json.dumps(
        vision_bodies[1]
    )
    # Its answers reach the task's model as text only.
    assert "is at (720,405)" in json.dumps(main_bodies[1]) and "The box is red." in json.dumps(main_bodies[2])
    assert "scrolled 0 of 2400 px" in json.dumps(main_bodies[2])
    folder = tmp_path / "t"
    result = json.loads((folder / "result.json").read_text())
    assert result["status"] == "finished" and result["answer"] == "red"
    assert result["usage"]["model_calls"] == 3 and result["usage"]["prompt_tokens"] == 3000
    assert result["vision_usage"]["model_calls"] == 2 and result["vision_usage"]["prompt_tokens"] == 1350
    assert result["config"]["vision_model"] == "openai:vision-model"
    steps = [json.loads(line) for line in (folder / "trajectory.jsonl").read_text().splitlines()]
    assert (
        steps[0]["vision"][0]["purpose"] == "locate"
        and steps[0]["vision"][0]["usage"]["prompt_tokens"] == 700
    )
    assert (
        steps[1]["vision"][0]["purpose"] == "look" and steps[1]["vision"][0]["raw_reply"] == "The box is red."
    )
    assert steps[0]["usage"]["prompt_tokens"] == 1000 and steps[2].get("vision") is None


def test_vision_base_url_needs_vision_model():
    res = subprocess.run(
        [
            sys.executable,
            "-m",
            "webfovea.cli",
            "run",
            "--task",
            "x",
            "--url",
            "http://127.0.0.1:9/",
            "--model",
            "openai:m",
            "--vision-base-url",
            "http://127.0.0.1:9",
        ],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert res.returncode == 2 and "--vision-base-url needs --vision-model" in res.stderr
