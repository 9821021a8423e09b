"""The server's tools in process (the SDK's in-memory client) on a browser reached over CDP:
the coordinate space follows the config, a dropdown is set through `select`, and a click on
nothing is reported as such, with every step in the task folder."""

from __future__ import annotations

import json

from mcp import Client

import webfovea
from tests.support.cdp import cdp_browser  # noqa: F401 - the fixture
from tests.support.servers import serve_pages
from webfovea.mcp.server import build_server
from webfovea.mcp.task_session import Launch, McpTask
from webfovea.observation.sizing import harness_config
from webfovea.task import Task

PAGE = """<html><body style="margin:0;font:20px sans-serif">
<button style="position:absolute;left:860px;top:500px;width:200px;height:80px"
 onclick="this.textContent='pressed'; fetch('/hit?from=centre')">Centre</button>
<select style="position:absolute;left:100px;top:100px;width:300px;height:50px" onchange="fetch('/chose?v=' + this.value)">
  <option value="">pick</option><option value="fr">France</option><option value="vn">Viet Nam</option>
</select></body></html>"""


async def test_tools_in_process_over_cdp_with_norm1000_points(tmp_path, cdp_browser):  # noqa: F811
    config = harness_config(coordinate_convention="norm1000")
    with serve_pages({"/": PAGE, "/hit": "ok", "/chose": "ok"}) as site:
        task = McpTask(
            Task(task_id="t", task="x", website=site.url("/")),
            tmp_path / "t",
            config,
            launch=Launch(cdp_url=cdp_browser),
        )
        await task.start()
        try:
            async with Client(build_server(task), mode="legacy") as client:
                assert client.server_info is not None and client.server_info.version == webfovea.__version__
                seen = await client.call_tool("observe", {})
                assert seen.structured_content["coordinates"] == "norm1000"
                # 0-1000 on both axes: the centre of the page is (500, 500), whatever the image size.
                hit = await client.call_tool("click", {"start_box": [500, 500]})
                assert not hit.is_error, hit.content
                assert "/hit?from=centre" in site.log
                # The select box spans x 100-400, y 100-150 CSS px of 1920x1080.
                chose = await client.call_tool("select", {"start_box": [130, 116], "option": "viet nam"})
                assert "Selected 'Viet Nam'" in chose.content[0].text
                assert "/chose?v=vn" in site.log
                nothing = await client.call_tool("click", {"start_box": [900, 900]})
                assert nothing.structured_content["outcome"] == "no_effect"
                assert nothing.content[0].text.startswith("No detectable change on the page after click.")
        finally:
            await task.close("interrupted", "test over")
    steps = [json.loads(line) for line in (tmp_path / "t" / "trajectory.jsonl").read_text().splitlines()]
    assert [s["outcome"] for s in steps] == ["executed", "executed", "no_effect"]
    assert steps[0]["executed_point"] == [960.0, 540.0]
    assert json.loads((tmp_path / "t" / "result.json").read_text())["status"] == "interrupted"


async def test_an_mcp_task_is_guarded_like_a_bench_task(tmp_path, cdp_browser):  # noqa: F811
    # Another local service on another port: the site guard must keep the client's clicks off it.
    admin = "<html><body><p id=token>ADMIN-TOKEN-2b7c</p></body></html>"
    with serve_pages({"/": "<p>admin</p>", "/admin": admin}) as other:
        link = (
            f'<a href="{other.url("/admin")}" style="position:absolute;left:0;top:0;width:1920px;'
            'height:1080px;display:block">admin</a>'
        )
        with serve_pages({"/": f"<html><body style='margin:0'>{link}</body></html>"}) as site:
            task = McpTask(
                Task(task_id="g", task="x", website=site.url("/")),
                tmp_path / "g",
                harness_config(),
                launch=Launch(cdp_url=cdp_browser),
            )
            await task.start()
            try:
                async with Client(build_server(task)) as client:
                    res = await client.call_tool("click", {"start_box": [500, 500]})
                    text = res.content[0].text
                    assert "ADMIN-TOKEN" not in text and task.harness.page.url == site.url("/")
                    seen = await client.call_tool("observe", {})
                    assert seen.structured_content["url"] == site.url("/")
            finally:
                await task.close("interrupted", "test over")
        assert [p for p in other.log if "admin" in p] == []
