"""webfovea as an MCP server: the harness's actions as MCP tools, one task per client, or one
long-lived browser across tasks (`--browser`).

`tools.py` generates the tool list and input schemas from the action specs and turns a call
into the reply text it stands for; `task_session.py` owns the browser, the harness, the task
folder and the budgets; `calls.py` answers `observe` and the action tools; `server.py` speaks
MCP over stdio and `http_serving.py` over streamable HTTP, through the official SDK (the `mcp`
extra); `browser.py` and `browser_server.py` keep one browser across tasks and tabs.
docs/mcp.md describes the tools and what is recorded.
"""
