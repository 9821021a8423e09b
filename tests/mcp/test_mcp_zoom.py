"""zoom as an MCP tool (the SDK's in-memory client, a browser over CDP): the result of the call
carries the magnified crop beside the note, the step record keeps it as step_NNN_zoom.png, and
a bad region is an error with one sentence and no image."""

from __future__ import annotations

import base64
import io
import json

from mcp import Client, types
from PIL import Image

from tests.support.cdp import cdp_browser  # noqa: F401 - the fixture
from tests.support.servers import serve_pages
from webfovea.mcp.server import build_server
from webfovea.mcp.task_session import Launch, McpTask
from webfovea.observation.sizing import harness_config
from webfovea.task import Task

PAGE = """<html><body style="margin:0;background:#fff">
<div style="position:absolute;left:400px;top:300px;font:6px sans-serif;white-space:nowrap">Total 9,431.27</div>
</body></html>"""


async def test_zoom_tool_returns_the_crop_and_records_it(tmp_path, cdp_browser):  # noqa: F811
    with serve_pages({"/": PAGE}) as site:
        task = McpTask(
            Task(task_id="z", task="x", website=site.url("/")),
            tmp_path / "z",
            harness_config(),
            launch=Launch(cdp_url=cdp_browser),
        )
        await task.start()
        try:
            async with Client(build_server(task)) as client:
                tools = {t.name: t for t in (await client.list_tools()).tools}
                assert tools["zoom"].input_schema["properties"]["region"]["maxItems"] == 4
                await client.call_tool("observe", {})
                # 400,300 CSS px of 1920x1080 is 300,225 in the 1440x810 image.
                res = await client.call_tool("zoom", {"region": [295, 220, 345, 232]})
                assert not res.is_error, res.content
                text, image = res.content
                assert isinstance(text, types.TextContent) and text.text.startswith("zoom: the region")
                assert isinstance(image, types.ImageContent) and image.mime_type == "image/png"
                crop = Image.open(io.BytesIO(base64.b64decode(image.data)))
                assert crop.width >= 8 * 50 * 4 / 3 - 2  # 50 image px = 66.7 CSS px, at 8x
                bad = await client.call_tool("zoom", {"region": [345, 220, 295, 232]})
                assert (
                    bad.is_error and len(bad.content) == 1 and "nothing was captured" in bad.content[0].text
                )
        finally:
            await task.close("interrupted", "test over")
    steps = [json.loads(line) for line in (tmp_path / "z" / "trajectory.jsonl").read_text().splitlines()]
    assert [s["outcome"] for s in steps] == ["executed", "rejected"]
    assert steps[0]["zoom"]["file"] == "step_000_zoom.png" and steps[1]["zoom"] is None
    saved = Image.open(tmp_path / "z" / steps[0]["zoom"]["file"])
    assert saved.size == crop.size and list(saved.size) == steps[0]["zoom"]["image_size"]
