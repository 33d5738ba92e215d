// Fixture MCP server for the TypeScript SDK over Streamable HTTP (one session), for probe tests.
//
// Copied beside the node_modules of the SDK release under test (as ts_server.mjs is) and run as
//
//     node ts_http_server.mjs <mode>        # mode: "sse" (answers as event streams) or "json"
//
// It listens on 127.0.0.1 on a free port and prints "listening <port>" on stdout when ready.
import { randomUUID } from "node:crypto";
import { createServer } from "node:http";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { z } from "zod";

const mode = process.argv[2] ?? "sse";
const server = new McpServer({ name: `fixture-ts-http-${mode}`, version: "1.0.0" });

server.registerTool(
  "book_flight",
  {
    description: "Book a flight. date must be YYYY-MM-DD.",
    inputSchema: {
      from: z.string().length(3),
      date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
      passengers: z.number().int().min(1).max(9).default(1),
    },
  },
  async ({ from, date, passengers }) => ({
    content: [{ type: "text", text: `Booked ${passengers} seat(s) from ${from} on ${date}` }],
  }),
);

const transport = new StreamableHTTPServerTransport({
  sessionIdGenerator: () => randomUUID(),
  enableJsonResponse: mode === "json",
});
await server.connect(transport);

const http = createServer(async (req, res) => {
  let body = "";
  for await (const chunk of req) body += chunk;
  const parsed = body ? JSON.parse(body) : undefined;
  await transport.handleRequest(req, res, parsed);
});
http.listen(0, "127.0.0.1", () => {
  process.stdout.write(`listening ${http.address().port}\n`);
});
