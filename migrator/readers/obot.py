"""Obot MCP gateway audit logs, as the audit-log export writes them (JSONL).

Obot's MCP gateway keeps an audit log entry per call; an export (to S3, GCS or Azure,
``mcp-audit-logs/YYYY/MM/DD/<name>-<time>.jsonl`` by default) writes one JSON object per
line, with Go's ``encoding/json``. An entry has ``callType`` (the JSON-RPC method),
``callIdentifier`` (the tool, for ``tools/call``), ``sessionID``, ``requestID``,
``responseStatus``, ``error``, ``mcpServerDisplayName``, ``clientName`` and the bodies:
``requestBody`` and ``responseBody`` hold the HTTP bodies as JSON where they are JSON (the
message itself, inline), and as a JSON string where they are not, such as an SSE
answer's event text. Newer exports nest these fields under ``mcpFields``; both layouts are
read. ``fix`` rewrites the answer inside the entry (inline, or inside the string, escaped
as the export escapes it); the rest stays byte for byte. Entries of other kinds (local
agent tool calls, entries without bodies) are passed over.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, ClassVar

from migrator.model.units import Direction, Problem, Unit
from migrator.readers.base import UNPARSEABLE_LINE, parse_json_line
from migrator.readers.gatewaylog import GatewayLogReader, Inline, Placement, check_json_line
from migrator.readers.jsonrecords import body_unit, member_at

C2S, S2C = Direction.CLIENT_TO_SERVER, Direction.SERVER_TO_CLIENT
BODIES = (("requestBody", C2S), ("responseBody", S2C))


def _fields(record: Any) -> tuple[dict[str, Any], tuple[str, ...]] | None:
    """The entry's MCP fields and where they are (top level, or under ``mcpFields``)."""
    if not isinstance(record, dict):
        return None
    nested = record.get("mcpFields")
    if isinstance(nested, dict) and "callType" in nested:
        return nested, ("mcpFields",)
    if "callType" in record:
        return record, ()
    return None


def looks_like_obot(head: list[str]) -> bool:
    """True when a JSON line is an audit log entry with ``callType`` and a body."""
    for line in head:
        if '"callType"' not in line:
            continue
        parsed = parse_json_line(line, 1)
        found = _fields(parsed[0]) if isinstance(parsed, tuple) else None
        if found is not None and any(key in found[0] for key, _ in BODIES):
            return True
    return False


class ObotReader(GatewayLogReader):
    """Reads an Obot audit log export; the messages are the entries' bodies."""

    name: ClassVar[str] = "obot"

    def title(self) -> str:
        return "Obot audit log entry"

    def check_line(self, line: str, index: int) -> None:
        check_json_line(line, index, "Obot audit log")

    def read(self) -> Iterator[tuple[Unit, Placement, str | None]]:
        for index, line in enumerate(self.lines):
            parsed = parse_json_line(line, index + 1)
            if parsed is None:
                yield self.pass_over(index, "blank lines")
                continue
            if isinstance(parsed, Problem):
                if '"callType"' in line:  # an entry of ours, broken
                    problem = Problem(
                        UNPARSEABLE_LINE,
                        f"Obot audit log entry is {parsed.message}",
                        parsed.line,
                        parsed.column,
                    )
                    yield Unit(line, index + 1, problem=problem), Inline(index, 0, len(line)), None
                    continue
                yield self.pass_over(index, "lines that are not JSON")
                continue
            record, start, _ = parsed
            found = _fields(record)
            if found is None:
                yield self.pass_over(index, "entries without MCP fields")
                continue
            fields, path = found
            session = fields.get("sessionID")
            session = str(session) if session else None
            made_any = False
            for key, direction in BODIES:
                if key not in fields:
                    continue
                member = member_at(line, start, (*path, key))
                assert member is not None
                made = body_unit(line, index, member, fields[key], direction)
                if made is not None:
                    made_any = True
                    yield made[0], made[1], session
            if not made_any:
                yield self.pass_over(index, "entries without a message body")
