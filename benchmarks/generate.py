"""Deterministic generator of realistic MCP transcripts for the benchmark.

A session: initialize, a tools/list with a few tools (one with an output
schema), then a mix of traffic: valid calls with text or structured
results, ~10% calls with invalid arguments answered with -32602 (TypeScript
SDK wording), unknown tools, server-to-client requests (ping, sampling) with
ids that collide with the client's, progress notifications, string and
integer ids. Each session is about 1,000 messages; messages average about
1.1 KB, as in the traces teams keep; the same seed gives the same bytes.

Usage:
    python benchmarks/generate.py MESSAGES OUT.jsonl [--seed N]
"""

from __future__ import annotations

import argparse
import json
import random
from collections.abc import Iterator
from pathlib import Path

TOOLS = [
    {
        "name": "search_docs",
        "description": "Full-text search over the documentation.",
        "inputSchema": {
            "type": "object",
            "properties": {
                "query": {"type": "string", "minLength": 2},
                "limit": {"type": "integer", "minimum": 1, "maximum": 50},
            },
            "required": ["query"],
            "additionalProperties": False,
        },
    },
    {
        "name": "book_flight",
        "description": "Book a flight. date must be YYYY-MM-DD.",
        "inputSchema": {
            "type": "object",
            "properties": {
                "from": {"type": "string", "minLength": 3, "maxLength": 3},
                "to": {"type": "string", "minLength": 3, "maxLength": 3},
                "date": {"type": "string", "pattern": "^\\d{4}-\\d{2}-\\d{2}$"},
                "passengers": {"type": "integer", "minimum": 1, "maximum": 9},
            },
            "required": ["from", "to", "date"],
        },
    },
    {
        "name": "add",
        "description": "Add two numbers.",
        "inputSchema": {
            "type": "object",
            "properties": {"a": {"type": "number"}, "b": {"type": "number"}},
            "required": ["a", "b"],
        },
        "outputSchema": {
            "type": "object",
            "properties": {"sum": {"type": "number"}},
            "required": ["sum"],
        },
    },
]
WORDS = [
    "alpha",
    "beta",
    "gamma",
    "delta",
    "protocol",
    "schema",
    "server",
    "client",
    "tool",
    "result",
    "error",
    "session",
    "request",
    "response",
    "transport",
    "stream",
    "capability",
    "resource",
    "prompt",
    "sampling",
    "elicitation",
    "notification",
    "progress",
    "cancel",
    "cursor",
    "page",
    "catalog",
    "argument",
    "validation",
    "model",
    "context",
    "retry",
    "timeout",
]


def _dumps(message: dict) -> str:
    return json.dumps(message, separators=(",", ":"))


def _zod_dump(tool: str, path: str, message: str) -> str:
    issues = [
        {
            "code": "invalid_type",
            "expected": "number",
            "received": "string",
            "path": [path],
            "message": message,
        }
    ]
    return f"MCP error -32602: Invalid arguments for tool {tool}: " + json.dumps(issues, indent=2)


def session(rng: random.Random, number: int, size: int) -> Iterator[str]:
    yield _dumps(
        {
            "jsonrpc": "2.0",
            "id": 0,
            "method": "initialize",
            "params": {
                "protocolVersion": "2025-11-25",
                "capabilities": {"sampling": {}},
                "clientInfo": {"name": "bench-client", "version": "1.0"},
            },
        }
    )
    yield _dumps(
        {
            "jsonrpc": "2.0",
            "id": 0,
            "result": {
                "protocolVersion": "2025-11-25",
                "capabilities": {"tools": {"listChanged": True}},
                "serverInfo": {"name": f"bench-server-{number}", "version": "1.20.2"},
            },
        }
    )
    yield _dumps({"jsonrpc": "2.0", "method": "notifications/initialized"})
    yield _dumps({"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {}})
    yield _dumps({"jsonrpc": "2.0", "id": 1, "result": {"tools": TOOLS}})
    emitted, next_id = 5, 2
    while emitted < size:
        rid: int | str = next_id if rng.random() < 0.7 else f"req-{next_id}"
        next_id += 1
        roll = rng.random()
        if roll < 0.10:  # invalid arguments, old-SDK answer
            yield _dumps(
                {
                    "jsonrpc": "2.0",
                    "id": rid,
                    "method": "tools/call",
                    "params": {"name": "add", "arguments": {"a": "two", "b": 3}},
                }
            )
            yield _dumps(
                {
                    "jsonrpc": "2.0",
                    "id": rid,
                    "error": {
                        "code": -32602,
                        "message": _zod_dump("add", "a", "Expected number, received string"),
                    },
                }
            )
        elif roll < 0.12:  # unknown tool, a protocol error as it should be
            yield _dumps(
                {
                    "jsonrpc": "2.0",
                    "id": rid,
                    "method": "tools/call",
                    "params": {"name": "no_such_tool", "arguments": {}},
                }
            )
            yield _dumps(
                {
                    "jsonrpc": "2.0",
                    "id": rid,
                    "error": {
                        "code": -32602,
                        "message": "MCP error -32602: Tool no_such_tool not found",
                    },
                }
            )
        elif roll < 0.16:  # a server request whose id collides with the client's
            yield _dumps({"jsonrpc": "2.0", "id": 1, "method": "ping"})
            yield _dumps({"jsonrpc": "2.0", "id": 1, "result": {}})
        elif roll < 0.20:
            yield _dumps(
                {
                    "jsonrpc": "2.0",
                    "method": "notifications/progress",
                    "params": {
                        "progressToken": next_id,
                        "progress": rng.randint(1, 99),
                        "total": 100,
                    },
                }
            )
            emitted -= 1
        elif roll < 0.50:
            a, b = rng.randint(0, 999), rng.randint(0, 999)
            yield _dumps(
                {
                    "jsonrpc": "2.0",
                    "id": rid,
                    "method": "tools/call",
                    "params": {"name": "add", "arguments": {"a": a, "b": b}},
                }
            )
            yield _dumps(
                {
                    "jsonrpc": "2.0",
                    "id": rid,
                    "result": {
                        "content": [{"type": "text", "text": json.dumps({"sum": a + b})}],
                        "structuredContent": {"sum": a + b},
                    },
                }
            )
        else:
            query = " ".join(rng.choices(WORDS, k=rng.randint(2, 6)))
            yield _dumps(
                {
                    "jsonrpc": "2.0",
                    "id": rid,
                    "method": "tools/call",
                    "params": {
                        "name": "search_docs",
                        "arguments": {"query": query, "limit": rng.randint(1, 20)},
                    },
                }
            )
            # Search results are the bulk of real traffic: a few passages of text each.
            hits = [
                {
                    "type": "text",
                    "text": f"{w}: " + " ".join(rng.choices(WORDS, k=rng.randint(60, 400))),
                }
                for w in rng.choices(WORDS, k=rng.randint(1, 4))
            ]
            yield _dumps({"jsonrpc": "2.0", "id": rid, "result": {"content": hits}})
        emitted += 2


def generate(messages: int, seed: int = 1303) -> Iterator[str]:
    """Yield lines (without newlines) until ``messages`` messages are out."""
    rng = random.Random(seed)
    produced, number = 0, 0
    while produced < messages:
        number += 1
        for line in session(rng, number, min(1000, messages - produced)):
            if produced >= messages:
                return
            produced += 1
            yield line


# What the server sends of the generated traffic, besides its answers.
SERVER_SENDS = frozenset({"ping", "sampling/createMessage", "notifications/progress"})


def sent_by_server(lines: Iterator[str] | list[str]) -> Iterator[tuple[str, bool]]:
    """Each generated line with whether the server sent it, as a proxy between the two knows.

    Requests and notifications are the client's unless :data:`SERVER_SENDS` names them;
    a response is the side's that did not send the request it answers.
    """
    asked_by_server: set[str] = set()
    for line in lines:
        message = json.loads(line)
        request_id = json.dumps(message.get("id"))
        method = message.get("method")
        if method is not None:
            server = method in SERVER_SENDS
            if server and "id" in message:
                asked_by_server.add(request_id)
        elif request_id in asked_by_server:
            asked_by_server.discard(request_id)
            server = False
        else:
            server = True
        yield line, server


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("messages", type=int)
    parser.add_argument("out", type=Path)
    parser.add_argument("--seed", type=int, default=1303)
    args = parser.parse_args()
    with args.out.open("w", encoding="utf-8", newline="\n") as out:
        for line in generate(args.messages, args.seed):
            out.write(line + "\n")


if __name__ == "__main__":
    main()
