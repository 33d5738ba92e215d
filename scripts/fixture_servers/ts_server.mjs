// Fixture MCP server for the TypeScript SDK (@modelcontextprotocol/sdk), high-level API.
//
// scripts/record_fixtures.py copies this file into the npm prefix that holds the SDK release
// under test (so that `import "@modelcontextprotocol/sdk/..."` and `import "zod"` resolve to
// that release) and runs it over stdio:
//
//     node ts_server.mjs <server-version>
//
// The same source runs on SDK 1.20.x (zod 3) and on newer releases (zod 3 or 4).
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { z } from "zod";

const version = process.argv[2] ?? "0.0.0";
const server = new McpServer({ name: "fixture-ts-server", version });

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
    return {
      content: [{ type: "text", text: JSON.stringify(structuredContent) }],
      structuredContent,
    };
  },
);

server.registerTool(
  "divide",
  {
    description: "Divide a by b. Throws (tool execution error) when b is 0.",
    inputSchema: { a: z.number(), b: z.number() },
  },
  async ({ a, b }) => {
    if (b === 0) {
      throw new Error("Division by zero");
    }
    return { content: [{ type: "text", text: String(a / b) }] };
  },
);

await server.connect(new StdioServerTransport());
