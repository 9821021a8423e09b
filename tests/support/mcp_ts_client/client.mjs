// The official TypeScript MCP client drives `webfovea mcp --browser` over stdio and prints
// what it saw as one JSON line (tests/mcp/test_mcp_ts_client.py asserts on it).
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

const [command, ...args] = JSON.parse(process.env.MCP_SERVER_CMD);
const transport = new StdioClientTransport({
  command,
  args,
  env: process.env,
  cwd: process.env.MCP_SERVER_CWD,
  stderr: "inherit",
});
const client = new Client({ name: "webfovea-ts-check", version: "0.0.0" });
await client.connect(transport);
const text = (r) => r.content.filter((c) => c.type === "text").map((c) => c.text).join("\n");
const out = { version: client.getServerVersion()?.version ?? null };
const tools = (await client.listTools()).tools;
out.tools = tools.map((t) => t.name);
out.titles = tools.map((t) => `${t.title ?? ""} ${t.description ?? ""}`).join("\n");
const went = await client.callTool({ name: "navigate", arguments: { url: process.env.MCP_PAGE } });
out.navigated = !went.isError;
const snap = text(await client.callTool({ name: "page_snapshot", arguments: {} }));
const ref = snap.match(/button "Count"[^\n]*\[ref=(e\d+)\]/)?.[1];
out.ref = ref ?? null;
const clicked = await client.callTool({ name: "click", arguments: { ref } });
out.clicked = !clicked.isError;
out.click_note = text(clicked);
const done = await client.callTool({ name: "finished", arguments: { content: "from node" } });
out.status = done.structuredContent?.status ?? null;
await client.close();
console.log(JSON.stringify(out));
