"""A tiny MCP-ish stdio server for the relay tests (standard library only).

It answers like the TypeScript SDK 1.20 did: an invalid argument comes back as
JSON-RPC error -32602 "Invalid arguments for tool ...". Behaviours, chosen with
``--mode``:

* ``plain``: answer initialize, tools/list, ping and tools/call.
* ``ping-first``: before answering a tools/call, send the client a ``ping``
  with the SAME id as the call and wait for its answer (both requests are in
  flight at once with one id, one each way).
* ``crash``: a tools/call of ``crash`` makes the server write half a line and
  exit with code 3.
* ``chatty``: print a log line (not JSON) on stdout before each answer.

``--marker FILE`` appends what happened at the end (``eof``, ``SIGTERM``) to FILE.
"""

from __future__ import annotations

import argparse
import json
import signal
import sys
from pathlib import Path
from typing import Any

TOOLS = [
    {
        "name": "add",
        "description": "Add two numbers.",
        "inputSchema": {
            "type": "object",
            "properties": {"a": {"type": "number"}, "b": {"type": "number"}},
            "required": ["a", "b"],
            "additionalProperties": False,
            "$schema": "http://json-schema.org/draft-07/schema#",
        },
    },
    {
        "name": "echo",
        "description": "Echo the text back.",
        "inputSchema": {
            "type": "object",
            "properties": {"text": {"type": "string"}},
            "required": ["text"],
            "$schema": "http://json-schema.org/draft-07/schema#",
        },
    },
]

out = sys.stdout.buffer
marker: Path | None = None


def note(what: str) -> None:
    if marker is not None:
        with marker.open("a", encoding="utf-8") as f:
            f.write(what + "\n")


def send(message: dict[str, Any]) -> None:
    out.write(json.dumps(message, separators=(",", ":")).encode() + b"\n")
    out.flush()


def invalid(request_id: Any, tool: str, detail: str) -> dict[str, Any]:
    issues = json.dumps([{"code": "invalid_type", "message": detail}], indent=2)
    return {
        "jsonrpc": "2.0",
        "id": request_id,
        "error": {
            "code": -32602,
            "message": f"MCP error -32602: Invalid arguments for tool {tool}: {issues}",
        },
    }


def call(request_id: Any, params: dict[str, Any]) -> dict[str, Any]:
    name, args = params.get("name"), params.get("arguments") or {}
    if name == "add":
        if not all(isinstance(args.get(k), (int, float)) for k in ("a", "b")):
            return invalid(request_id, "add", "Expected number")
        text = str(args["a"] + args["b"])
    elif name == "echo":
        if not isinstance(args.get("text"), str):
            return invalid(request_id, "echo", "Expected string")
        text = args["text"]
    else:
        return {
            "jsonrpc": "2.0",
            "id": request_id,
            "error": {"code": -32602, "message": f"Tool {name} not found"},
        }
    return {
        "jsonrpc": "2.0",
        "id": request_id,
        "result": {"content": [{"type": "text", "text": text}]},
    }


def answer(message: dict[str, Any], mode: str, lines: Any) -> None:
    method, request_id = message.get("method"), message.get("id")
    if request_id is None or method is None:
        return  # a notification or a response: nothing to answer
    if mode == "chatty":
        out.write(b"server log: handling " + str(method).encode() + b"\n")
        out.flush()
    if method == "initialize":
        result: dict[str, Any] = {
            "protocolVersion": "2025-06-18",
            "capabilities": {"tools": {}},
            "serverInfo": {"name": "stdio-server", "version": "1.0.0"},
        }
        send({"jsonrpc": "2.0", "id": request_id, "result": result})
    elif method == "tools/list":
        send({"jsonrpc": "2.0", "id": request_id, "result": {"tools": TOOLS}})
    elif method == "ping":
        send({"jsonrpc": "2.0", "id": request_id, "result": {}})
    elif method == "tools/call":
        params = message.get("params") or {}
        if mode == "crash" and params.get("name") == "crash":
            out.write(b'{"jsonrpc":"2.0","id":')
            out.flush()
            note("crash")
            sys.exit(3)
        if mode == "ping-first":
            send({"jsonrpc": "2.0", "id": request_id, "method": "ping"})
            reply = json.loads(next(lines))  # the client's answer to our ping
            note(f"ping answered: {json.dumps(reply, sort_keys=True)}")
        send(call(request_id, params))
    else:
        send(
            {
                "jsonrpc": "2.0",
                "id": request_id,
                "error": {"code": -32601, "message": "Method not found"},
            }
        )


def main() -> int:
    global marker
    parser = argparse.ArgumentParser()
    parser.add_argument(
        "--mode", default="plain", choices=["plain", "ping-first", "crash", "chatty"]
    )
    parser.add_argument("--marker")
    args = parser.parse_args()
    marker = Path(args.marker) if args.marker else None

    def on_sigterm(signum: int, frame: object) -> None:
        note("SIGTERM")
        sys.exit(0)

    signal.signal(signal.SIGTERM, on_sigterm)
    lines = iter(sys.stdin.buffer.readline, b"")
    for line in lines:
        try:
            message = json.loads(line)
        except ValueError:
            continue  # blank or not JSON: nothing to answer
        if isinstance(message, dict):
            answer(message, args.mode, lines)
    note("eof")
    return 0


if __name__ == "__main__":
    sys.exit(main())
