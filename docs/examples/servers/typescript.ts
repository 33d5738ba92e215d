import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { z } from "zod";

const server = new McpServer({ name: "rail-booking", version: "2.4.0" });

server.registerTool(
  "book_train",
  {
    description: "Book train seats. date must be YYYY-MM-DD.",
    inputSchema: {
      from: z.string().length(3).describe("station code"),
      to: z.string().length(3).describe("station code"),
      date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/, "date must be YYYY-MM-DD"),
      seats: z.number().int().min(1).max(6).default(1),
    },
  },
  async ({ from, to, date, seats }) => {
    // A rule the schema cannot express. Answer with a result the model can read;
    // do not throw new McpError(ErrorCode.InvalidParams, ...).
    const today = new Date().toISOString().slice(0, 10);
    if (date < today) {
      return {
        content: [{ type: "text", text: `date ${date} is in the past; today is ${today}` }],
        isError: true,
      };
    }
    return {
      content: [{ type: "text", text: `Booked ${seats} seat(s) ${from}->${to} on ${date}` }],
    };
  },
);

await server.connect(new StdioServerTransport());
