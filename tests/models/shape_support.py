"""What the reply-shape tests share: a loopback page that reports what reached it, points on the
image the model is sent, and reading a task folder back."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any
from urllib.parse import unquote

from webfovea.models.conventions import conventions_for

# The input reports every value it holds to the server (`/typed?v=`), the button what it saved
# (`/saved?v=`): the server's log is what reached the page, keystroke by keystroke. The reports go
# one after another: sent at once, a threaded server logged "Ada Lovelac" after "Ada Lovelace".
PAGE = """<html><body style="margin:0;font:16px sans-serif">
<script>let sent = Promise.resolve();</script>
<input id=name style="position:absolute;left:400px;top:200px;width:400px;height:40px"
  oninput="const v = this.value; sent = sent.then(() => fetch('/typed?v='+encodeURIComponent(v)))">
<button id=go style="position:absolute;left:400px;top:300px;width:200px;height:50px"
  onclick="fetch('/saved?v='+encodeURIComponent(document.getElementById('name').value));
           document.getElementById('log').textContent='saved'">Save</button>
<div id=log style="position:absolute;left:400px;top:400px">none</div></body></html>"""
PAGES = {"/": PAGE, "/typed": "ok", "/saved": "ok"}
NAME_CSS = (600, 220)  # the input's centre, CSS px of the 1920x1080 viewport
GO_CSS = (500, 325)


def point(model: str, css: tuple[int, int]) -> list[int]:
    """A CSS point of the viewport in pixels of the screenshot the model's row is sent."""
    w, _ = conventions_for(model).provider_size(1440, 810)
    return [round(css[0] * w / 1920), round(css[1] * w / 1920)]


def values(log: list[str], route: str) -> list[str]:
    """The values the page sent to `route` (`/typed`, `/saved`), in order."""
    return [unquote(p.split("?v=", 1)[1]) for p in log if p.startswith(route + "?v=")]


def read(task_dir: Path) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    result = json.loads((task_dir / "result.json").read_text())
    lines = (task_dir / "trajectory.jsonl").read_text().splitlines()
    return result, [json.loads(line) for line in lines]
