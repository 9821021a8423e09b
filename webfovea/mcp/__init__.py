"""webfovea as an MCP server: the harness's actions as MCP tools, one task per client.

`tools.py` generates the tool list and input schemas from the action specs and turns a call
into the reply text it stands for; `task_session.py` owns the browser, the harness, the task
folder and the budgets; `server.py` speaks MCP (stdio, streamable HTTP) through the official
SDK (the `mcp` extra). docs/mcp.md describes the tools and what is recorded.
"""
