"""Kong Gateway log records of the AI MCP Proxy plugin (Kong 3.12 and later).

With ``config.logging.log_payloads: true`` on the ``ai-mcp-proxy`` plugin, every log
plugin (File Log, HTTP Log, TCP Log, ...) writes one JSON record per HTTP request whose
``ai.mcp`` member holds the JSON-RPC calls of that request::

    {"request": {...}, "response": {...}, "latencies": {...},
     "ai": {"mcp": {"rpc": [{"method": "tools/call", "id": "11", "tool_name": "add",
                             "latency": 3, "error": "...",
                             "payload": {"request": "{\\"jsonrpc\\":\\"2.0\\",...}",
                                         "response": "{\\"jsonrpc\\":\\"2.0\\",...}"}}]}}}

``payload.request`` and ``payload.response`` are the messages as JSON *strings* (a
response may be the text of an SSE stream). Each is read as a body, like a HAR body, and
``fix`` rewrites the message inside the string, escaped as the record escapes it; the rest
of the record stays byte for byte. The record's line is each finding's location (the
column is inside the string). Sessions are kept apart by the ``mcp-session-id`` request
or response header. Records without ``ai.mcp`` (other routes, other plugins) are passed
over.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, ClassVar

from migrator.model import jsontext
from migrator.model.units import Direction, Problem, Unit
from migrator.readers.base import UNPARSEABLE_LINE, parse_json_line
from migrator.readers.gatewaylog import GatewayLogReader, Inline, Placement, check_json_line
from migrator.readers.jsonrecords import body_unit, member_at

C2S, S2C = Direction.CLIENT_TO_SERVER, Direction.SERVER_TO_CLIENT
SESSION_HEADER = "mcp-session-id"


def looks_like_kong(head: list[str]) -> bool:
    """True when a JSON line has ``ai.mcp.rpc``."""
    for line in head:
        if '"rpc"' not in line or '"mcp"' not in line:
            continue
        parsed = parse_json_line(line, 1)
        if isinstance(parsed, tuple) and _rpc(parsed[0]) is not None:
            return True
    return False


def _rpc(record: Any) -> list[Any] | None:
    ai = record.get("ai") if isinstance(record, dict) else None
    mcp = ai.get("mcp") if isinstance(ai, dict) else None
    rpc = mcp.get("rpc") if isinstance(mcp, dict) else None
    return rpc if isinstance(rpc, list) else None


def _session(record: dict[str, Any]) -> str | None:
    for side in ("request", "response"):
        part = record.get(side)
        headers = part.get("headers") if isinstance(part, dict) else None
        if isinstance(headers, dict):
            for name, value in headers.items():
                if str(name).lower() == SESSION_HEADER:
                    return str(value[0] if isinstance(value, list) and value else value)
    return None


class KongReader(GatewayLogReader):
    """Reads Kong log records; the messages are the ``ai.mcp.rpc[].payload`` strings."""

    name: ClassVar[str] = "kong"

    def title(self) -> str:
        return "Kong log record"

    def check_line(self, line: str, index: int) -> None:
        check_json_line(line, index, "Kong log")

    def read(self) -> Iterator[tuple[Unit, Placement, str | None]]:
        for index, line in enumerate(self.lines):
            parsed = parse_json_line(line, index + 1)
            if parsed is None:
                yield self.pass_over(index, "blank lines")
                continue
            if isinstance(parsed, Problem):
                if '"mcp"' in line and '"rpc"' in line:  # a record of ours, broken
                    problem = Problem(
                        UNPARSEABLE_LINE,
                        f"Kong log record is {parsed.message}",
                        parsed.line,
                        parsed.column,
                    )
                    yield Unit(line, index + 1, problem=problem), Inline(index, 0, len(line)), None
                    continue
                yield self.pass_over(index, "lines that are not JSON")
                continue
            record, start, _ = parsed
            rpc = _rpc(record)
            if rpc is None:
                yield self.pass_over(index, "records without ai.mcp.rpc")
                continue
            session = _session(record)
            rpc_member = member_at(line, start, ("ai", "mcp", "rpc"))
            assert rpc_member is not None
            found = False
            spans = jsontext.array_elements(line, rpc_member.value_start)
            for entry, (entry_start, _) in zip(rpc, spans, strict=True):
                payload = entry.get("payload") if isinstance(entry, dict) else None
                if not isinstance(payload, dict):
                    continue
                for key, direction in (("request", C2S), ("response", S2C)):
                    if key not in payload:
                        continue
                    member = member_at(line, entry_start, ("payload", key))
                    assert member is not None
                    made = body_unit(line, index, member, payload[key], direction)
                    if made is not None:
                        found = True
                        yield made[0], made[1], session
            if not found:
                yield self.pass_over(
                    index, "records of ai.mcp.rpc without payloads (log_payloads off?)"
                )
