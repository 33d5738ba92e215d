"""Small transcripts written by the tests, so that their findings are known exactly."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

SELECT = ("--select", "MCP101,MCP104,MCP301")
"""The rules these tests are about; other rules (and new ones) stay out of the counts."""

TOOL = {
    "name": "create_issue",
    "inputSchema": {
        "type": "object",
        "properties": {"repo": {"type": "string"}, "title": {"type": "string"}},
        "required": ["repo", "title"],
    },
}


def _line(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"))


def session(version: str = "2025-11-25", *, first_id: int = 3, broken: bool = True) -> str:
    """A session with a tool failure (MCP104, info), a noise line (MCP301, error) and an
    input validation error as a protocol error (MCP101: error from 2025-11-25, warning before).

    Lines: 6 MCP104 (request ``first_id``), 7 MCP301 (if ``broken``), 9 (or 8) MCP101
    (request ``first_id + 1``).
    """
    lines = [
        _line(
            {
                "jsonrpc": "2.0",
                "id": 1,
                "method": "initialize",
                "params": {
                    "protocolVersion": version,
                    "capabilities": {},
                    "clientInfo": {"name": "c", "version": "1"},
                },
            }
        ),
        _line(
            {
                "jsonrpc": "2.0",
                "id": 1,
                "result": {
                    "protocolVersion": version,
                    "capabilities": {"tools": {}},
                    "serverInfo": {"name": "s", "version": "1"},
                },
            }
        ),
        _line({"jsonrpc": "2.0", "id": 2, "method": "tools/list", "params": {}}),
        _line({"jsonrpc": "2.0", "id": 2, "result": {"tools": [TOOL]}}),
        _line(
            {
                "jsonrpc": "2.0",
                "id": first_id,
                "method": "tools/call",
                "params": {
                    "name": "create_issue",
                    "arguments": {"repo": "octo/demo", "title": "Bug"},
                },
            }
        ),
        _line(
            {
                "jsonrpc": "2.0",
                "id": first_id,
                "error": {
                    "code": -32603,
                    "message": "GitHub API request failed: HTTP 503 Service Unavailable",
                },
            }
        ),
    ]
    if broken:
        lines.append("this line is log noise, not JSON")
    lines += [
        _line(
            {
                "jsonrpc": "2.0",
                "id": first_id + 1,
                "method": "tools/call",
                "params": {"name": "create_issue", "arguments": {"repo": "octo/demo"}},
            }
        ),
        _line(
            {
                "jsonrpc": "2.0",
                "id": first_id + 1,
                "error": {
                    "code": -32602,
                    "message": "MCP error -32602: Invalid arguments for tool create_issue: title: Required",
                },
            }
        ),
    ]
    return "\n".join(lines) + "\n"


def clean_session() -> str:
    """A session with nothing to report."""
    lines = session(broken=False).splitlines()[:5]
    lines.append(
        _line(
            {
                "jsonrpc": "2.0",
                "id": 3,
                "result": {"content": [{"type": "text", "text": "ok"}], "isError": False},
            }
        )
    )
    return "\n".join(lines) + "\n"


def write(folder: Path, name: str, text: str) -> Path:
    """Write ``text`` to ``folder/name`` (creating folders) and return the path."""
    path = folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path
