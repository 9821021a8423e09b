// The official TypeScript MCP client over streamable HTTP, first as an OAuth-capable client
// without the token (as the MCP Inspector connects), then with the bearer header. Prints one
// JSON line for tests/mcp/test_mcp_ts_client.py.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

const url = new URL(process.env.MCP_URL);
const oauth = [];
const callback = "http://localhost:6274/oauth/callback";
const provider = {
  get redirectUrl() { return callback; },
  get clientMetadata() { return { redirect_uris: [callback], client_name: "webfovea-ts-check" }; },
  clientInformation() { return undefined; },
  saveClientInformation() { oauth.push("saveClientInformation"); },
  tokens() { return undefined; },
  saveTokens() { oauth.push("saveTokens"); },
  redirectToAuthorization(to) { oauth.push(`redirectToAuthorization ${to}`); },
  saveCodeVerifier() { oauth.push("saveCodeVerifier"); },
  codeVerifier() { return "unused"; },
};
const out = { oauth };
try {
  await new Client({ name: "no-token", version: "0.0.0" }).connect(
    new StreamableHTTPClientTransport(url, { authProvider: provider }),
  );
  out.refused = null;
} catch (e) {
  out.refused = String(e?.message ?? e);
}
const headers = { Authorization: `Bearer ${process.env.MCP_TOKEN}` };
const client = new Client({ name: "with-token", version: "0.0.0" });
await client.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers } }));
out.version = client.getServerVersion()?.version ?? null;
out.tools = (await client.listTools()).tools.map((t) => t.name);
await client.close();
console.log(JSON.stringify(out));
