import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import {
  CallToolRequestSchema,
  ErrorCode,
  McpError,
} from "@modelcontextprotocol/sdk/types.js";

import { tools } from "./tools.js"; // name -> { schema, run }

const server = new Server(
  { name: "notes", version: "3.1.0" },
  { capabilities: { tools: {} } },
);

server.setRequestHandler(CallToolRequestSchema, async (request) => {
  const tool = tools[request.params.name];
  if (!tool) {
    // Unknown tool: still a protocol error after SEP-1303.
    throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${request.params.name}`);
  }
  const parsed = tool.schema.safeParse(request.params.arguments ?? {});
  if (!parsed.success) {
    // Bad arguments: a tool execution error the model can read.
    const problems = parsed.error.issues
      .map((issue) => `${issue.path.join(".") || "arguments"}: ${issue.message}`)
      .join("; ");
    return { content: [{ type: "text", text: `Invalid arguments: ${problems}` }], isError: true };
  }
  return tool.run(parsed.data);
});
