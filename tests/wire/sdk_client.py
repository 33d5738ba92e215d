"""A real MCP client (the Python SDK's ``ClientSession``) that prints what its caller gets.

Run with a Python that has the ``mcp`` package (not the project's venv)::

    python sdk_client.py '<calls as JSON>' SERVER COMMAND...

``calls`` is a list of ``{"name": ..., "arguments": {...}}``. It starts the
server over stdio, initializes, lists the tools, makes each call and prints
one JSON object: the negotiated ``protocolVersion``, the ``tools`` and, for
each call, either the ``result`` that ``call_tool`` returned or the ``error``
(code and message) it raised.
"""

from __future__ import annotations

import json
import sys
from typing import Any

import anyio
from mcp.client.session import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client
from mcp.shared.exceptions import MCPError


async def main(calls: list[dict[str, Any]], command: list[str]) -> dict[str, Any]:
    params = StdioServerParameters(command=command[0], args=command[1:])
    out: dict[str, Any] = {"calls": []}
    async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
        init = await session.initialize()
        out["protocolVersion"] = init.protocol_version
        out["tools"] = [tool.name for tool in (await session.list_tools()).tools]
        for call in calls:
            try:
                result = await session.call_tool(call["name"], call["arguments"])
            except MCPError as exc:
                out["calls"].append(
                    {"error": {"code": exc.error.code, "message": exc.error.message}}
                )
            else:
                dumped = result.model_dump(mode="json", by_alias=True, exclude_none=True)
                out["calls"].append({"result": dumped})
    return out


if __name__ == "__main__":
    print(json.dumps(anyio.run(main, json.loads(sys.argv[1]), sys.argv[2:])))
