"""A tiny Streamable HTTP upstream for the HTTP proxy tests (starlette + uvicorn).

It answers like ``stdio_server.py`` (and the TypeScript SDK 1.20): an invalid
argument comes back as JSON-RPC error -32602. How it answers a POST is chosen
per request with the ``X-Fixture`` header, which the proxy passes through:

* ``json`` (default): ``application/json``; ``sse``: one ``text/event-stream``
  event (after a log notification); ``slow``: the JSON answer after 3 s;
  ``text``: ``text/plain`` that is not JSON; ``batch``: the request's batch
  answered with a JSON array.

Every answer carries ``Mcp-Session-Id: s-1`` and ``X-Seen-Authorization``
(what Authorization header arrived), a JSON answer two ``Set-Cookie`` headers.
``GET`` opens an event stream that never ends; ``DELETE`` answers 204. It prints its
URL (``http://127.0.0.1:PORT/mcp``) and serves until killed.
"""

from __future__ import annotations

import asyncio
import json
import socket
import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import uvicorn
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.routing import Route

sys.path.insert(0, str(Path(__file__).resolve().parent))
from stdio_server import TOOLS, call


def answer(message: dict[str, Any]) -> dict[str, Any]:
    method, request_id = message.get("method"), message.get("id")
    if method == "initialize":
        result = {
            "protocolVersion": "2025-06-18",
            "capabilities": {"tools": {}},
            "serverInfo": {"name": "http-upstream", "version": "1.0.0"},
        }
        return {"jsonrpc": "2.0", "id": request_id, "result": result}
    if method == "tools/list":
        return {"jsonrpc": "2.0", "id": request_id, "result": {"tools": TOOLS}}
    if method == "tools/call":
        return call(request_id, message.get("params") or {})
    return {
        "jsonrpc": "2.0",
        "id": request_id,
        "error": {"code": -32601, "message": "Method not found"},
    }


async def mcp(request: Request) -> Response:
    headers = {
        "mcp-session-id": "s-1",
        "x-seen-authorization": request.headers.get("authorization", ""),
    }
    if request.method == "DELETE":
        return Response(status_code=204, headers=headers)
    if request.method == "GET":  # the server's stream: a notification every 50 ms, for ever

        async def ticks() -> AsyncIterator[bytes]:
            n = 0
            while True:
                n += 1
                note = {
                    "jsonrpc": "2.0",
                    "method": "notifications/message",
                    "params": {"level": "info", "data": n},
                }
                yield f"id: t-{n}\ndata: {json.dumps(note)}\n\n".encode()
                await asyncio.sleep(0.05)

        return StreamingResponse(ticks(), media_type="text/event-stream", headers=headers)
    fixture = request.headers.get("x-fixture", "json")
    body = await request.body()
    if fixture == "text":
        return Response(b"plain text, not JSON\n", media_type="text/plain", headers=headers)
    message = json.loads(body)
    if fixture == "batch":
        return JSONResponse([answer(m) for m in message], headers=headers)
    if "id" not in message:
        return Response(status_code=202, headers=headers)
    if fixture == "slow":
        await asyncio.sleep(3)
    if fixture == "sse":

        async def events() -> AsyncIterator[bytes]:
            note = {
                "jsonrpc": "2.0",
                "method": "notifications/message",
                "params": {"level": "info", "data": "working"},
            }
            yield b"event: message\nid: e-1\ndata: " + json.dumps(note).encode() + b"\n\n"
            yield (
                b"event: message\nid: e-2\ndata: " + json.dumps(answer(message)).encode() + b"\n\n"
            )

        return StreamingResponse(events(), media_type="text/event-stream", headers=headers)
    response = JSONResponse(answer(message), headers=headers)
    response.set_cookie("first", "cookie-one")  # a header that comes twice
    response.set_cookie("second", "cookie-two")
    return response


async def main() -> None:
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)  # no Nagle delay on answers
    sock.listen(64)
    app = Starlette(routes=[Route("/mcp", mcp, methods=["GET", "POST", "DELETE"])])
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", lifespan="off"))
    print(f"http://127.0.0.1:{sock.getsockname()[1]}/mcp", flush=True)
    await server.serve(sockets=[sock])


if __name__ == "__main__":
    asyncio.run(main())
