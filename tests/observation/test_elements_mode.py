"""Elements mode (the paper's hybrid): beside the screenshot, the interactive elements in view
with their points; a point clicked as listed lands on its element, in pixels and on the 0-1000
grid, and what is hidden, covered or out of view is not listed."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.support.servers import serve_pages
from webfovea.agent import run_task
from webfovea.config import make_config
from webfovea.models.base import ModelInput, ModelReply, Usage
from webfovea.observation.modes.elements import TITLE
from webfovea.task import Task

pytestmark = pytest.mark.asyncio(loop_scope="session")

PAGE = """<!doctype html><body style="margin:0">
<button id=save style="position:absolute;left:900px;top:500px;width:120px;height:40px"
 onclick="fetch('/hit?b=save')">Save</button>
<button style="position:absolute;left:100px;top:100px;width:120px;height:40px"
 onclick="fetch('/hit?b=covered')">Covered</button>
<div style="position:absolute;left:80px;top:80px;width:200px;height:100px;background:#eee"></div>
<button style="position:absolute;left:100px;top:3000px" onclick="fetch('/hit?b=far')">Far below</button>
<button style="display:none">Hidden</button>
<a href="#x" style="position:absolute;left:400px;top:700px">Read the report</a>
</body>"""


class ListReader:
    """Clicks the point the list gives for 'Save', then finishes: what the list says, done."""

    can_verify = False

    def __init__(self) -> None:
        self.seen: list[ModelInput] = []

    async def next_reply(self, inp: ModelInput) -> ModelReply:
        self.seen.append(inp)
        if len(self.seen) == 1:
            m = re.search(r'button "Save" at \((\d+), (\d+)\)', inp.snapshot or "")
            assert m is not None, inp.snapshot
            return ModelReply(f"Thought: t\nAction: click(start_box='({m[1]},{m[2]})')", Usage(1, 1))
        return ModelReply("Thought: t\nAction: finished(content='ok')", Usage(1, 1))

    async def aclose(self) -> None:
        pass


@pytest.mark.parametrize("convention", ["pixels", "norm1000"])
async def test_a_listed_point_lands_on_its_element(session, tmp_path: Path, convention: str) -> None:
    model = ListReader()
    with serve_pages({"/": PAGE, "/hit": "ok"}) as srv:
        task = Task(task_id="t", task="Press Save.", website=srv.url("/"))
        config = make_config(observation="elements", coordinate_convention=convention, verifier=False)
        result = await run_task(task, tmp_path / "t", model=model, config=config, session=session)
    assert result.status == "finished", result.error
    assert [p for p in srv.log if p.startswith("/hit")] == ["/hit?b=save"]
    listed = model.seen[0].snapshot or ""
    assert 'link "Read the report"' in listed
    assert "Covered" not in listed and "Far below" not in listed and "Hidden" not in listed
    assert len(model.seen[0].images) == 1  # the screenshot beside the list
    assert model.seen[0].snapshot_title == TITLE
