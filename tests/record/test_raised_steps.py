"""The click that freezes the renderer, or starts an alert storm, is recorded: the task ends
`page_unresponsive` with that step in its trajectory, as the server saw the click."""

from __future__ import annotations

import pytest

from tests.support.scripted import ScriptedModel as Scripted
from tests.support.servers import serve_pages
from webfovea.agent import run_task
from webfovea.config import make_config
from webfovea.record.files import read_trajectory
from webfovea.task import Task

BUTTON = 'style="position:absolute;left:50px;top:50px;width:200px;height:60px"'
PAGES = {
    "/frozen": f"""<html><body style="margin:0"><button {BUTTON}
      onclick="navigator.sendBeacon('/clicked'); for (;;) {{}}">Show</button></body></html>""",
    "/storm": f"""<html><body style="margin:0"><button {BUTTON}
      onclick="navigator.sendBeacon('/clicked'); for (;;) alert('still there?')">Show</button></body></html>""",
    "/clicked": "ok",
}
CLICK = "Thought: show it\nAction: click(start_box='<|box_start|>(150,80)<|box_end|>')"


@pytest.mark.parametrize("page", ["/frozen", "/storm"])
async def test_the_action_that_breaks_the_page_is_recorded(tmp_path, page):
    cfg = make_config().model_copy(update={"unresponsive_s": 2.0})
    with serve_pages(PAGES) as site:
        task = Task(task_id="f", task="show the data", website=site.url(page))
        res = await run_task(task, tmp_path / "f", model=Scripted([CLICK], then=CLICK), config=cfg)
        assert "/clicked" in site.log  # the click really happened
    assert res.status == "page_unresponsive", (res.status, res.error)
    (step,) = read_trajectory(tmp_path / "f")
    assert res.steps == 1
    assert step.action is not None and step.action["name"] == "click"
    assert step.executed_point is None and step.outcome == "failed"
    assert "did not complete" in step.feedback and step.screenshot == "step_000.png"
    assert (tmp_path / "f" / "step_000.png").exists()
