from mcp import ClientSession, MCPError


async def run_tool_call(session: ClientSession, call_id: str, name: str, arguments: dict) -> dict:
    """Run one tool call the model asked for; return the message for the conversation."""
    try:
        result = await session.call_tool(name, arguments)
    except MCPError as error:
        # A protocol error (unknown tool, malformed request, server error). Passing it on is
        # allowed; the model is less likely to be able to fix it.
        return {
            "tool_call_id": call_id,
            "content": f"Tool call failed: {error.error.message}",
            "is_error": True,
        }
    text = "\n".join(block.text for block in result.content if block.type == "text")
    # A result with is_error set (isError on the wire) is still a tool result. Give it to the
    # model so it can try again.
    return {"tool_call_id": call_id, "content": text, "is_error": bool(result.is_error)}
