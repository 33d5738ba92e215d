import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { McpError } from "@modelcontextprotocol/sdk/types.js";

// Runs one tool call the model asked for and returns what goes back into the conversation.
export async function runToolCall(
  client: Client,
  call: { id: string; name: string; arguments: Record<string, unknown> },
) {
  try {
    const result = await client.callTool({ name: call.name, arguments: call.arguments });
    const text = (result.content as Array<{ type: string; text?: string }>)
      .filter((block) => block.type === "text")
      .map((block) => block.text)
      .join("\n");
    // isError: true is still a tool result. Give it to the model, marked as an error,
    // so it can correct the arguments and call again.
    return { toolCallId: call.id, content: text, isError: result.isError === true };
  } catch (error) {
    if (error instanceof McpError) {
      // A protocol error (unknown tool, malformed request, server error). Passing it on is
      // allowed too; the model is less likely to be able to fix it.
      return { toolCallId: call.id, content: `Tool call failed: ${error.message}`, isError: true };
    }
    throw error; // transport trouble: the host's problem, not the model's
  }
}
