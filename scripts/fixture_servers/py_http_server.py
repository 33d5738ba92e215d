"""Fixture MCP server for the Python SDK (`mcp`) over Streamable HTTP.

The tools of py_server.py, served by the SDK's own streamable-http app on a free loopback port.
Run with the Python of a venv that holds the `mcp` release under test:

    <venv>/bin/python py_http_server.py [sse|json]

It prints its URL (http://127.0.0.1:PORT/mcp) on stdout and serves until killed.
"""

from __future__ import annotations

import socket
import sys
from pathlib import Path

import anyio
import uvicorn

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.argv[1:] = ["0.0.0", *sys.argv[1:]]  # py_server.py reads its version from argv[1]
from py_server import mcp  # noqa: E402

JSON_RESPONSE = sys.argv[2:3] == ["json"]


async def main() -> None:
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)  # no Nagle delay on answers
    sock.listen(64)
    app = mcp.streamable_http_app(json_response=JSON_RESPONSE)
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", lifespan="on"))
    print(f"http://127.0.0.1:{sock.getsockname()[1]}/mcp", flush=True)
    await server.serve(sockets=[sock])


if __name__ == "__main__":
    anyio.run(main)
