"""Your own tools: a Python function registered as an action is offered in the prompt, called
through the text grammar, a native tool call and the MCP server, recorded in the trajectory,
and a raised error becomes a note while the task goes on."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.support.scripted import ScriptedModel
from tests.support.servers import serve_pages
from webfovea.actions.catalog import register_tools, unregister_tools
from webfovea.actions.spec import ExecContext
from webfovea.actions.user_tools import user_tool
from webfovea.agent import run_task
from webfovea.config import make_config
from webfovea.harness import Harness
from webfovea.models.base import ToolCall
from webfovea.task import Task

pytestmark = pytest.mark.asyncio(loop_scope="session")

CALLS: list[tuple[str, str]] = []


async def two_factor_code(ctx: ExecContext, service: str) -> str:
    CALLS.append((service, ctx.page.url))
    if service == "broken":
        raise RuntimeError("the vault is locked")
    return f"The current code for {service} is 482913."


@pytest.fixture
def tool():
    CALLS.clear()
    module = register_tools(
        user_tool(
            "two_factor_code",
            two_factor_code,
            purpose="The current 2FA code for a service.",
            params=("service",),
        )
    )
    yield module
    unregister_tools(module)


PAGE = "<html><body><h1>Sign in</h1></body></html>"


async def test_text_and_native_calls_reach_the_function(session, tool) -> None:
    with serve_pages({"/": PAGE}) as srv:
        h = await Harness.on_page(await session.fresh_page(), make_config())
        await h.goto(srv.url("/"))
        assert "two_factor_code" in {s.name for s in h.specs}
        assert "two_factor_code(service='service')" in h.model_input("x").system
        assert any(t.name == "two_factor_code" for t in h.model_input("x").tools)
        await h.observe()
        res = await h.step("Thought: I need the code\nAction: two_factor_code(service='bank')")
        assert "482913" in res.feedback and CALLS == [("bank", srv.url("/"))]
        await h.observe()
        call = ToolCall(id="c1", name="two_factor_code", input={"service": "mail"})
        res = await h.step("", [call])
        assert "The current code for mail" in res.feedback
        await h.observe()
        res = await h.step("Thought: t\nAction: two_factor_code(service='broken')")
        assert res.executed is not None and not res.executed.outcome.ok
        assert "two_factor_code failed: the vault is locked" in res.feedback


async def test_a_run_records_the_tool_and_goes_on_after_its_error(session, tool, tmp_path: Path) -> None:
    model = ScriptedModel(
        [
            "Thought: t\nAction: two_factor_code(service='broken')",
            "Thought: t\nAction: two_factor_code(service='bank')",
            "Thought: t\nAction: finished(content='482913')",
        ]
    )
    with serve_pages({"/": PAGE}) as srv:
        task = Task(task_id="t", task="Get the code", website=srv.url("/"))
        result = await run_task(task, tmp_path / "t", model=model, config=make_config(), session=session)
    assert result.status == "finished" and result.answer == "482913"
    steps = [json.loads(line) for line in (tmp_path / "t" / "trajectory.jsonl").read_text().splitlines()]
    assert [s["action"]["name"] for s in steps] == ["two_factor_code", "two_factor_code", "finished"]
    assert "vault is locked" in steps[0]["feedback"] and "482913" in steps[1]["feedback"]
    assert "482913" in model.seen[2].feedback


async def relay_inbox(ctx: ExecContext, folder: str) -> str:
    # A tool that relays what a page or a mailbox holds: 50,000 characters, the last of them
    # a line only the end of the output carries.
    return "mail " * 10_000 + "SECRET-TAIL"


async def test_a_tools_output_is_held_to_read_texts_budget(session) -> None:
    from webfovea.browser.textsearch import READ_CHARS

    module = register_tools(user_tool("relay_inbox", relay_inbox, purpose="Mail.", params=("folder",)))
    try:
        with serve_pages({"/": PAGE}) as srv:
            h = await Harness.on_page(await session.fresh_page(), make_config())
            await h.goto(srv.url("/"))
            await h.observe()
            res = await h.step("Thought: t\nAction: relay_inbox(folder='in')")
    finally:
        unregister_tools(module)
    assert "SECRET-TAIL" not in res.feedback and "more characters cut]" in res.feedback
    assert len(res.feedback) < READ_CHARS + 200, len(res.feedback)


async def test_the_mcp_server_offers_the_tool(tmp_path: Path, tool, cdp_browser) -> None:  # noqa: F811
    from mcp import Client

    from webfovea.mcp.server import build_server
    from webfovea.mcp.task_session import Launch, McpTask
    from webfovea.observation.sizing import harness_config

    with serve_pages({"/": PAGE}) as srv:
        task = McpTask(
            Task(task_id="t", task="x", website=srv.url("/")), tmp_path / "t", harness_config(),
            launch=Launch(cdp_url=cdp_browser),
        )  # fmt: skip
        await task.start()
        try:
            async with Client(build_server(task)) as client:
                names = {t.name for t in (await client.list_tools()).tools}
                assert "two_factor_code" in names
                got = await client.call_tool("two_factor_code", {"service": "vpn"})
                assert not got.is_error and "code for vpn is 482913" in got.content[0].text
        finally:
            await task.close("interrupted", "test over")
    assert ("vpn", srv.url("/")) in CALLS


from tests.support.cdp import cdp_browser  # noqa: E402, F401 - the fixture

PLUGIN = """
from webfovea.actions.user_tools import user_tool

async def lookup_order(ctx, order: str) -> str:
    return f"Order {order} shipped on 2024-05-02 (asked on {ctx.page.url})."

SPECS = [user_tool("lookup_order", lookup_order, purpose="Look an order up in our database.", params=("order",))]
"""


async def test_a_tool_declared_by_an_entry_point_is_loaded_and_called(
    session, tmp_path: Path, monkeypatch
) -> None:
    # An installed package as importlib.metadata sees one: a module and a dist-info folder
    # whose entry_points.txt names it in the `webfovea.actions` group.
    import sys
    from importlib.metadata import entry_points

    from webfovea.actions import catalog

    (tmp_path / "wf_plugin_tools.py").write_text(PLUGIN)
    dist = tmp_path / "wf_plugin_tools-1.0.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: wf-plugin-tools\nVersion: 1.0\n")
    (dist / "entry_points.txt").write_text("[webfovea.actions]\norders = wf_plugin_tools\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    assert [ep.value for ep in entry_points(group="webfovea.actions") if ep.name == "orders"] == [
        "wf_plugin_tools"
    ]
    catalog.ACTIONS.rescan()  # the entry points looked at again, as in a fresh process
    try:
        with serve_pages({"/": PAGE}) as srv:
            h = await Harness.on_page(await session.fresh_page(), make_config())
            await h.goto(srv.url("/"))
            assert "lookup_order(order='order')" in h.model_input("x").system
            await h.observe()
            res = await h.step("Thought: look it up\nAction: lookup_order(order='A-17')")
            assert f"Order A-17 shipped on 2024-05-02 (asked on {srv.url('/')})" in res.feedback, res.feedback
    finally:
        module = sys.modules.pop("wf_plugin_tools", None)
        if module is not None:
            catalog.unregister(module)
