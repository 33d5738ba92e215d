// Fixture MCP server for the TypeScript SDK (@modelcontextprotocol/sdk), high-level API, for
// the "session evidence" recording: the errors a server sends for a tool that exists, and
// those about something other than the arguments.
//
// scripts/record_fixtures.py copies this file into the npm prefix that holds the SDK release
// under test and runs it over stdio:
//
//     node ts_session_server.mjs <server-version>
//
// Tools: `forecast` (zod-validated arguments), `report` (declares an outputSchema; sends no
// structuredContent when asked for `{"structured": false}`, which the SDK answers with -32602),
// and `legacy` (registered, then disabled: the SDK answers "Tool legacy disabled").
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { z } from "zod";

const version = process.argv[2] ?? "0.0.0";
const server = new McpServer({ name: "fixture-ts-session-server", version });

server.registerTool(
  "forecast",
  {
    description: "Weather forecast for a city, 1 to 14 days ahead.",
    inputSchema: { city: z.string().min(1), days: z.number().int().min(1).max(14).optional() },
  },
  async ({ city, days }) => ({
    content: [{ type: "text", text: `${city}: sunny for ${days ?? 1} day(s)` }],
  }),
);

server.registerTool(
  "report",
  {
    description: "A structured weather report.",
    inputSchema: { structured: z.boolean() },
    outputSchema: { summary: z.string() },
  },
  async ({ structured }) =>
    structured
      ? { content: [{ type: "text", text: "sunny" }], structuredContent: { summary: "sunny" } }
      : { content: [{ type: "text", text: "sunny" }] },
);

const legacy = server.registerTool(
  "legacy",
  { description: "An old tool, disabled.", inputSchema: { q: z.string() } },
  async ({ q }) => ({ content: [{ type: "text", text: q }] }),
);
legacy.disable();

await server.connect(new StdioServerTransport());
