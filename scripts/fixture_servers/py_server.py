"""Fixture MCP server for the Python SDK (`mcp`), high-level API.

scripts/record_fixtures.py runs this file with the Python of a venv that holds the `mcp`
release under test, over stdio:

    <venv>/bin/python py_server.py <server-version>

It uses `FastMCP` (mcp 1.x) or its successor `MCPServer` (mcp 2.x, where `FastMCP` was
renamed); the tools are the same on both.
"""

from __future__ import annotations

import sys
from typing import Annotated, Any

from pydantic import BaseModel, Field

try:  # mcp 1.x
    from mcp.server.fastmcp import FastMCP as _Server
except ModuleNotFoundError:  # mcp 2.x
    from mcp.server.mcpserver import MCPServer as _Server

VERSION = sys.argv[1] if len(sys.argv) > 1 else "0.0.0"


def _make_server() -> Any:
    try:
        return _Server("fixture-py-server", version=VERSION)
    except TypeError:  # releases whose constructor takes no version
        return _Server("fixture-py-server")


mcp = _make_server()


class AddResult(BaseModel):
    """Output schema of `add`: {sum: number}."""

    sum: float


@mcp.tool(description="Book a flight. date must be YYYY-MM-DD.")
def book_flight(
    origin: Annotated[
        str,
        Field(validation_alias="from", min_length=3, max_length=3, description="IATA origin code"),
    ],
    to: Annotated[str, Field(min_length=3, max_length=3, description="IATA destination code")],
    date: Annotated[str, Field(pattern=r"^\d{4}-\d{2}-\d{2}$")],
    passengers: Annotated[int, Field(ge=1, le=9)] = 1,
) -> str:
    # `from` is a Python keyword: the parameter is `origin`, and the tool argument is `from`.
    return f"Booked {passengers} seat(s) {origin}->{to} on {date}"


@mcp.tool(description="Add two numbers (returns structured content).")
def add(a: float, b: float) -> AddResult:
    return AddResult(sum=a + b)


@mcp.tool(description="Divide a by b. Throws (tool execution error) when b is 0.")
def divide(a: float, b: float) -> str:
    if b == 0:
        raise ValueError("Division by zero")
    return str(a / b)


if __name__ == "__main__":
    mcp.run()
