"""A small stdio MCP server for probe tests, with no SDK: it speaks JSON-RPC lines itself.

    python careless_server.py lax     # validates nothing: runs every call, whatever the arguments
    python careless_server.py crash   # exits (code 3) when an argument has the wrong type
    python careless_server.py silent  # never answers a call whose "name" is not a string

Its tools publish strict input schemas; only its behaviour is careless.
"""

from __future__ import annotations

import json
import sys
from typing import Any

MODE = sys.argv[1] if len(sys.argv) > 1 else "lax"

TOOLS = [
    {
        "name": "greet",
        "description": "Greet someone.",
        "inputSchema": {
            "type": "object",
            "properties": {
                "name": {"type": "string", "minLength": 1, "maxLength": 20},
                "times": {"type": "integer", "minimum": 1, "maximum": 3},
            },
            "required": ["name"],
            "additionalProperties": False,
        },
    },
    {
        "name": "wipe",
        "description": "Pretends to delete everything (a destructive tool).",
        "inputSchema": {
            "type": "object",
            "properties": {"really": {"type": "boolean"}},
            "required": ["really"],
        },
        "annotations": {"destructiveHint": True},
    },
]


def send(message: dict[str, Any]) -> None:
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def call(params: dict[str, Any]) -> dict[str, Any] | None:
    name = params.get("name")
    arguments = params.get("arguments") or {}
    if name not in {tool["name"] for tool in TOOLS}:
        return {"error": {"code": -32602, "message": f"Tool {name} not found"}}
    if MODE == "crash" and any(
        not isinstance(v, (str, bool)) or v == 12345 for v in arguments.values()
    ):
        sys.exit(3)  # a handler that dies on a value it did not expect
    if MODE == "crash" and isinstance(arguments.get("times"), str):
        sys.exit(3)
    if MODE == "silent" and "name" in arguments and not isinstance(arguments["name"], str):
        return None  # a handler that hangs on a value it did not expect
    return {
        "result": {
            "content": [{"type": "text", "text": f"ran {name} with {json.dumps(arguments)}"}]
        }
    }


def main() -> None:
    for line in sys.stdin:
        try:
            message = json.loads(line)
        except ValueError:
            continue
        method, request_id = message.get("method"), message.get("id")
        if request_id is None:
            continue  # a notification
        if method == "initialize":
            answer: dict[str, Any] = {
                "result": {
                    "protocolVersion": "2025-11-25",
                    "capabilities": {"tools": {}},
                    "serverInfo": {"name": f"careless-{MODE}", "version": "1.0.0"},
                }
            }
        elif method == "tools/list":
            # Two pages, to exercise pagination.
            cursor = (message.get("params") or {}).get("cursor")
            page = TOOLS[1:] if cursor == "page-2" else TOOLS[:1]
            answer = {"result": {"tools": page, **({} if cursor else {"nextCursor": "page-2"})}}
        elif method == "tools/call":
            called = call(message.get("params") or {})
            if called is None:
                continue
            answer = called
        else:
            answer = {"error": {"code": -32601, "message": f"Method not found: {method}"}}
        send({"jsonrpc": "2.0", "id": request_id, **answer})


if __name__ == "__main__":
    main()
