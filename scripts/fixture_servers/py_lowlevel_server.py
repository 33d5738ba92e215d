"""Fixture MCP server for the Python SDK (`mcp` 1.x), low-level API (`mcp.server.lowlevel.Server`).

scripts/record_fixtures.py runs this file with the Python of a venv that holds the `mcp`
release under test, over stdio:

    <venv>/bin/python py_lowlevel_server.py <server-version> sdk
    <venv>/bin/python py_lowlevel_server.py <server-version> errors

Its tools publish JSON Schemas (the low-level API takes them as written):

* `sdk`: the SDK's own `@server.call_tool()` decorator, which (from mcp 1.10) validates the
  arguments against the tool's inputSchema with python-jsonschema and answers a failure with
  an `isError` result "Input validation error: <jsonschema's message>".
* `errors`: a handler registered straight in `server.request_handlers`, the low-level hook a
  server uses to answer with JSON-RPC errors itself, as servers did before SEP-1303: it
  validates with python-jsonschema too and raises `McpError` with `-32602` and the SDK's own
  words, "Unknown tool: X" with `-32602`, and a failing backend with `-32603`.
"""

from __future__ import annotations

import sys
from typing import Any

import anyio
import jsonschema
import mcp.types as types
from mcp.server.lowlevel import Server
from mcp.server.stdio import stdio_server
from mcp.shared.exceptions import McpError

VERSION = sys.argv[1] if len(sys.argv) > 1 else "0.0.0"
MODE = sys.argv[2] if len(sys.argv) > 2 else "sdk"

TOOLS = [
    types.Tool(
        name="forecast",
        description="Weather forecast for a city, 1 to 14 days ahead.",
        inputSchema={
            "type": "object",
            "properties": {
                "city": {"type": "string", "minLength": 1},
                "days": {"type": "integer", "minimum": 1, "maximum": 14},
            },
            "required": ["city"],
        },
    ),
    types.Tool(
        name="get_stock",
        description="Units in stock for a SKU such as ABC-1234.",
        inputSchema={
            "type": "object",
            "properties": {"sku": {"type": "string", "pattern": r"^[A-Z]{3}-\d{4}$"}},
            "required": ["sku"],
        },
    ),
    types.Tool(
        name="reserve",
        description="Reserve units of a SKU.",
        inputSchema={
            "type": "object",
            "properties": {
                "sku": {"type": "string"},
                "qty": {"type": "integer", "minimum": 1},
                "mode": {"enum": ["hold", "buy"]},
            },
            "required": ["sku", "qty"],
            "additionalProperties": False,
        },
    ),
]
BY_NAME = {tool.name: tool for tool in TOOLS}


class BackendDown(Exception):
    """The weather service the tool calls is down (it is for one city, to record a failure)."""


def run_tool(name: str, arguments: dict[str, Any]) -> str:
    if name == "forecast":
        if arguments["city"] == "Atlantis":
            raise BackendDown("forecast backend unavailable: upstream timed out")
        return f"{arguments['city']}: sunny for {arguments.get('days', 1)} day(s)"
    if name == "get_stock":
        return f"{arguments['sku']}: 12 in stock"
    return f"reserved {arguments['qty']} of {arguments['sku']}"


server: Any
try:
    server = Server("fixture-py-lowlevel", version=VERSION)
except TypeError:  # releases whose constructor takes no version
    server = Server("fixture-py-lowlevel")


@server.list_tools()
async def list_tools() -> list[types.Tool]:
    return TOOLS


if MODE == "sdk":

    @server.call_tool()
    async def call_tool(name: str, arguments: dict[str, Any]) -> list[types.TextContent]:
        if name not in BY_NAME:
            raise ValueError(f"Unknown tool: {name}")
        return [types.TextContent(type="text", text=run_tool(name, arguments))]

else:

    async def handle_call(request: types.CallToolRequest) -> types.ServerResult:
        name = request.params.name
        arguments = request.params.arguments or {}
        tool = BY_NAME.get(name)
        if tool is None:
            raise McpError(
                types.ErrorData(code=types.INVALID_PARAMS, message=f"Unknown tool: {name}")
            )
        try:
            jsonschema.validate(instance=arguments, schema=tool.inputSchema)
        except jsonschema.ValidationError as exc:
            raise McpError(
                types.ErrorData(
                    code=types.INVALID_PARAMS, message=f"Input validation error: {exc.message}"
                )
            ) from exc
        try:
            text = run_tool(name, arguments)
        except BackendDown as exc:
            raise McpError(types.ErrorData(code=types.INTERNAL_ERROR, message=str(exc))) from exc
        return types.ServerResult(
            types.CallToolResult(content=[types.TextContent(type="text", text=text)])
        )

    server.request_handlers[types.CallToolRequest] = handle_call


async def main() -> None:
    async with stdio_server() as (read_stream, write_stream):
        await server.run(read_stream, write_stream, server.create_initialization_options())


if __name__ == "__main__":
    anyio.run(main)
