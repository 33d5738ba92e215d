"""A real MCP client over Streamable HTTP (the Python SDK) that prints what its caller gets.

Run with a Python that has the ``mcp`` package (not the project's venv)::

    python sdk_http_client.py '<calls as JSON>' URL

Like ``sdk_client.py``, but it connects to ``URL`` with the SDK's Streamable
HTTP client (``streamable_http_client``, ``streamablehttp_client`` before
mcp 2) and ends the session with DELETE when it leaves.
"""

from __future__ import annotations

import json
import sys
from typing import Any

import anyio
from mcp.client.session import ClientSession

try:  # mcp 2.x
    from mcp.client.streamable_http import streamable_http_client as connect
    from mcp.shared.exceptions import MCPError as ProtocolError
except ImportError:  # mcp 1.x
    from mcp.client.streamable_http import streamablehttp_client as connect  # type: ignore[no-redef]
    from mcp.shared.exceptions import McpError as ProtocolError  # type: ignore[no-redef]


async def main(calls: list[dict[str, Any]], url: str) -> dict[str, Any]:
    out: dict[str, Any] = {"calls": []}
    async with connect(url) as streams, ClientSession(streams[0], streams[1]) as session:
        init = await session.initialize()
        out["protocolVersion"] = init.protocol_version
        out["tools"] = [tool.name for tool in (await session.list_tools()).tools]
        for call in calls:
            try:
                result = await session.call_tool(call["name"], call["arguments"])
            except ProtocolError as exc:
                out["calls"].append(
                    {"error": {"code": exc.error.code, "message": exc.error.message}}
                )
            else:
                dumped = result.model_dump(mode="json", by_alias=True, exclude_none=True)
                out["calls"].append({"result": dumped})
    return out


if __name__ == "__main__":
    print(json.dumps(anyio.run(main, json.loads(sys.argv[1]), sys.argv[2])))
