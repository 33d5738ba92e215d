// A real MCP client over Streamable HTTP (the TypeScript SDK) that prints what its caller gets.
//
// The HTTP tests copy this file into the npm prefix of the SDK release (so the imports resolve
// there) and run it:
//
//     node ts_http_client.mjs '<calls as JSON>' URL
//
// It connects with StreamableHTTPClientTransport, initializes, lists the tools, makes each call
// and prints one JSON object: protocolVersion, tools and, per call, the result callTool returned
// or the error (code and message) it threw. It ends the session with DELETE.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

const calls = JSON.parse(process.argv[2]);
const transport = new StreamableHTTPClientTransport(new URL(process.argv[3]));
const client = new Client({ name: "ts-http-client", version: "1.0.0" });
await client.connect(transport);
const out = { protocolVersion: transport.protocolVersion, calls: [] };
out.tools = (await client.listTools()).tools.map((tool) => tool.name);
for (const call of calls) {
  try {
    out.calls.push({ result: await client.callTool(call) });
  } catch (error) {
    out.calls.push({ error: { code: error.code, message: error.message } });
  }
}
await transport.terminateSession();
await client.close();
console.log(JSON.stringify(out));
