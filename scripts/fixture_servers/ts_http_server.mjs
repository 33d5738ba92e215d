// Fixture MCP server for the TypeScript SDK over Streamable HTTP (StreamableHTTPServerTransport).
//
// The HTTP tests copy this file into the npm prefix that holds the SDK release under test
// (.fixtures-work/ts-sdk-old, @modelcontextprotocol/sdk 1.20.2, which still answers invalid
// arguments with JSON-RPC error -32602) and run it:
//
//     node ts_http_server.mjs sse|json
//
// "sse" answers POSTs with text/event-stream and keeps an event store (resumption with
// Last-Event-ID works); "json" answers with application/json (enableJsonResponse). The server
// listens on a free loopback port and prints its URL (http://127.0.0.1:PORT/mcp) on stdout.
// The tools are those of ts_server.mjs, plus `count`, which sends a log notification every
// `delay` ms before it answers (a stream a client can drop and resume).
import http from "node:http";
import { randomUUID } from "node:crypto";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { InMemoryEventStore } from "@modelcontextprotocol/sdk/examples/shared/inMemoryEventStore.js";
import { isInitializeRequest } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";

const mode = process.argv[2] ?? "sse";

function makeServer() {
  const server = new McpServer(
    { name: "fixture-ts-http-server", version: "1.0.0" },
    { capabilities: { logging: {} } },
  );
  server.registerTool(
    "book_flight",
    {
      description: "Book a flight. date must be YYYY-MM-DD.",
      inputSchema: {
        from: z.string().length(3).describe("IATA origin code"),
        to: z.string().length(3).describe("IATA destination code"),
        date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
        passengers: z.number().int().min(1).max(9).default(1),
      },
    },
    async ({ from, to, date, passengers }) => ({
      content: [{ type: "text", text: `Booked ${passengers} seat(s) ${from}->${to} on ${date}` }],
    }),
  );
  server.registerTool(
    "add",
    {
      description: "Add two numbers (returns structured content).",
      inputSchema: { a: z.number(), b: z.number() },
      outputSchema: { sum: z.number() },
    },
    async ({ a, b }) => {
      const structuredContent = { sum: a + b };
      return { content: [{ type: "text", text: JSON.stringify(structuredContent) }], structuredContent };
    },
  );
  server.registerTool(
    "divide",
    {
      description: "Divide a by b. Throws (tool execution error) when b is 0.",
      inputSchema: { a: z.number(), b: z.number() },
    },
    async ({ a, b }) => {
      if (b === 0) throw new Error("Division by zero");
      return { content: [{ type: "text", text: String(a / b) }] };
    },
  );
  server.registerTool(
    "count",
    {
      description: "Send n log notifications, one every delay ms, then answer.",
      inputSchema: { n: z.number().int().min(1), delay: z.number().int().min(0) },
    },
    async ({ n, delay }, extra) => {
      for (let i = 1; i <= n; i++) {
        await extra.sendNotification({
          method: "notifications/message",
          params: { level: "info", data: `tick ${i}` },
        });
        await new Promise((resolve) => setTimeout(resolve, delay));
      }
      return { content: [{ type: "text", text: `counted to ${n}` }] };
    },
  );
  return server;
}

const transports = new Map();

async function readJson(req) {
  const chunks = [];
  for await (const chunk of req) chunks.push(chunk);
  const text = Buffer.concat(chunks).toString("utf8");
  return text ? JSON.parse(text) : undefined;
}

function refuse(res, status, message) {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify({ jsonrpc: "2.0", id: null, error: { code: -32000, message } }));
}

const httpServer = http.createServer(async (req, res) => {
  if (!req.url.startsWith("/mcp")) return refuse(res, 404, "not found");
  let body;
  try {
    body = req.method === "POST" ? await readJson(req) : undefined;
  } catch {
    return refuse(res, 400, "Parse error");
  }
  const sessionId = req.headers["mcp-session-id"];
  let transport = sessionId ? transports.get(sessionId) : undefined;
  if (!transport) {
    if (sessionId || req.method !== "POST" || !isInitializeRequest(body)) {
      return refuse(res, sessionId ? 404 : 400, "no such session");
    }
    transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      enableJsonResponse: mode === "json",
      eventStore: mode === "sse" ? new InMemoryEventStore() : undefined,
      onsessioninitialized: (id) => transports.set(id, transport),
    });
    transport.onclose = () => transports.delete(transport.sessionId);
    await makeServer().connect(transport);
  }
  await transport.handleRequest(req, res, body);
});

httpServer.listen(0, "127.0.0.1", () => {
  console.log(`http://127.0.0.1:${httpServer.address().port}/mcp`);
});
