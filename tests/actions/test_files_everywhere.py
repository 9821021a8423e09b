"""Files in every way a task is driven: the downloads a run kept are listed in result.json with
their paths, sizes and URLs; `upload` reaches the server in the hybrid mode (by reference and
by point) and through the MCP server's tools."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from mcp import Client

from tests.support.scripted import PointingModel
from tests.support.servers import serve_pages
from webfovea.agent import run_task
from webfovea.config import make_config
from webfovea.harness import Harness
from webfovea.mcp.server import build_server
from webfovea.mcp.task_session import McpTask
from webfovea.observation.sizing import harness_config
from webfovea.task import Task

pytestmark = pytest.mark.asyncio(loop_scope="session")

DATA = b"\x00\x01binary report\xff" * 64  # 1,024 bytes, not a document: saved, not opened
LINKS = """<!doctype html><html><body style="margin:0">
<a id=get href="/files/report.bin" download style="position:absolute;left:100px;top:100px;font-size:30px">Get the report</a>
</body></html>"""
# Fixed boxes (CSS px): the upload button at (100..400, 100..160), Send at (100..300, 300..350).
FORM = """<!doctype html><html><body style="margin:0">
<form method=post action="/upload" enctype="multipart/form-data">
  <label id=pick style="position:absolute;left:100px;top:100px;width:300px;height:60px;background:#36c;color:#fff;font-size:22px">
    Choose files<input id=file name=attachment type=file style="display:none"></label>
  <button id=send style="position:absolute;left:100px;top:300px;width:200px;height:50px">Send</button>
</form></body></html>"""


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    ws = tmp_path / "workspace"
    ws.mkdir()
    (ws / "report.csv").write_text("country,value\nVN,3.4\n")
    return ws


def _received(srv, name: str) -> bool:  # noqa: ANN001
    return any(
        path == "/upload" and f'filename="{name}"'.encode() in body and b"VN,3.4" in body
        for path, body in srv.bodies
    )


async def test_result_lists_the_downloads_with_paths_sizes_and_urls(session, tmp_path: Path) -> None:
    with serve_pages({"/": LINKS, "/files/report.bin": DATA}) as srv:
        model = PointingModel(
            [("click", (150, 115), ""), ("wait", None, ""), ("finished", None, "content='saved'")]
        )
        task = Task(task_id="t", task="Download the report.", website=srv.url("/"))
        result = await run_task(task, tmp_path / "t", model=model, config=make_config(), session=session)
    assert result.status == "finished", result.error
    assert result.downloads == [
        {"path": "downloads/01-report.bin", "bytes": len(DATA), "url": srv.url("/files/report.bin")}
    ]
    assert (tmp_path / "t" / "downloads" / "01-report.bin").read_bytes() == DATA
    on_disk = json.loads((tmp_path / "t" / "result.json").read_text())
    assert on_disk["downloads"][0]["path"] == "downloads/01-report.bin"


async def test_upload_in_the_hybrid_mode_by_reference_and_by_point(session, workspace: Path) -> None:
    with serve_pages({"/": FORM, "/upload": "thanks"}) as srv:
        config = make_config(workspace=str(workspace), observation="hybrid")
        h = await Harness.on_page(await session.fresh_page(), config)
        await h.goto(srv.url("/"))
        obs = await h.observe()
        assert "upload" in {s.name for s in h.specs}
        ref = re.search(r"\[ref=(e\d+)\][^\n]*Choose files", obs.snapshot or "")
        assert ref, obs.snapshot
        res = await h.step(f"Thought: attach\nAction: upload(ref='{ref[1]}', files='report.csv')")
        assert res.executed is not None and res.executed.outcome.ok, res.feedback
        assert await h.page.evaluate("document.getElementById('file').files[0].name") == "report.csv"
        await h.observe()
        s = h.last.image.width / 1920 if h.last is not None else 0.75
        await h.step(
            f"Thought: send\nAction: click(start_box='<|box_start|>({200 * s:.0f},{325 * s:.0f})<|box_end|>')"
        )
        assert _received(srv, "report.csv")
        # By point, on the page again.
        await h.goto(srv.url("/"))
        await h.observe()
        res = await h.step(
            f"Thought: attach\nAction: upload(start_box='<|box_start|>({250 * s:.0f},{130 * s:.0f})<|box_end|>', files='report.csv')"
        )
        assert res.executed is not None and res.executed.outcome.ok, res.feedback
        assert await h.page.evaluate("document.getElementById('file').files.length") == 1


async def test_upload_through_the_mcp_server(tmp_path: Path, workspace: Path) -> None:
    with serve_pages({"/": FORM, "/upload": "thanks"}) as srv:
        task = McpTask(
            Task(task_id="m", task="Attach the report and send it.", website=srv.url("/")),
            tmp_path / "m",
            harness_config(workspace=str(workspace)),
        )
        await task.start()
        try:
            async with Client(build_server(task)) as client:
                assert "upload" in {t.name for t in (await client.list_tools()).tools}
                seen = await client.call_tool("observe", {})
                s = seen.structured_content["image_width"] / 1920
                up = await client.call_tool(
                    "upload", {"start_box": [250 * s, 130 * s], "files": "report.csv"}
                )
                assert not up.is_error and "report.csv" in up.content[0].text, up.content
                sent = await client.call_tool("click", {"start_box": [200 * s, 325 * s]})
                assert not sent.is_error, sent.content
        finally:
            await task.close("interrupted", "test over")
    assert _received(srv, "report.csv")
    steps = [json.loads(line) for line in (tmp_path / "m" / "trajectory.jsonl").read_text().splitlines()]
    assert steps[0]["action"]["name"] == "upload" and steps[0]["action"]["args"]["files"] == "report.csv"
