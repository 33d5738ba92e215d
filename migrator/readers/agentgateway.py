"""agentgateway access logs (JSON, or the key=value text format): MCP calls in pieces.

agentgateway writes one access log record per request. For MCP traffic a record carries
attributes, not messages: ``mcp.method.name``, ``gen_ai.tool.name``, ``mcp.session.id``,
and, when the call failed with a JSON-RPC error, ``mcp.error.code`` and
``mcp.error.message`` (``crates/agentgateway/src/telemetry/log.rs``). The payloads are
opt-in: a logging policy can add ``mcp.tool.arguments``, ``mcp.tool.result`` and
``mcp.tool.error`` (CEL expressions of the same names). Two formats:

* JSON (``format: json``): one object per line, these attributes as its keys;
* text (the default): ``<time>\\t<level>\\t<target>\\t`` then ``key=value`` pairs, strings
  quoted where they need it.

For each ``tools/call`` record the reader puts the request and its answer together from
these pieces, so the rules judge them as any exchange: the error code and message, the
arguments when logged, and whether a result was an ``isError`` one. The record holds no
JSON-RPC id: the reader names the exchange by the record's line (``"line 12"``). There is
no ``tools/list`` catalog either. What is made is not in the file, so these findings are
*detect only*: ``fix`` refuses the file. Records of other methods and other requests are
passed over.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any, ClassVar

from migrator.model.units import DETECT_ONLY, Direction, Unit
from migrator.readers.base import parse_json_line
from migrator.readers.gatewaylog import Derived, GatewayLogReader, Placement, derived_message

C2S, S2C = Direction.CLIENT_TO_SERVER, Direction.SERVER_TO_CLIENT
METHOD = "mcp.method.name"
PIECES_WHY = (
    "agentgateway logs attributes of the exchange (method, tool, error code and message), "
    "not the messages; there is nothing to rewrite"
)
_TEXT_RECORD = re.compile(r"\S+\t[a-z]+\t\S+\t")
_PAIR = re.compile(r'([A-Za-z_][\w.]*)=("(?:[^"\\]|\\.)*"|[\[{]|\S*)')


def looks_like_agentgateway(head: list[str]) -> bool:
    """True when a record (JSON or text) carries ``mcp.method.name``."""
    for line in head:
        if METHOD not in line:
            continue
        if _TEXT_RECORD.match(line) and f"{METHOD}=" in line:
            return True
        parsed = parse_json_line(line, 1)
        if isinstance(parsed, tuple) and isinstance(parsed[0], dict) and METHOD in parsed[0]:
            return True
    return False


def text_fields(line: str) -> dict[str, Any]:
    """The ``key=value`` pairs of a text record; quoted values unquoted, JSON values decoded."""
    fields: dict[str, Any] = {}
    pos = 0
    decoder = json.JSONDecoder()
    while (match := _PAIR.search(line, pos)) is not None:
        key, raw = match.group(1), match.group(2)
        pos = match.end()
        if raw.startswith('"'):
            try:
                fields[key] = json.loads(raw)
            except ValueError:
                fields[key] = raw[1:-1]
        elif raw in ("[", "{"):
            try:
                value, end = decoder.raw_decode(line, match.start(2))
            except ValueError:
                fields[key] = None
                continue
            fields[key], pos = value, end
        else:
            fields[key] = _scalar(raw)
    return fields


def _scalar(raw: str) -> Any:
    if re.fullmatch(r"-?\d+", raw):
        return int(raw)
    return raw


class AgentgatewayReader(GatewayLogReader):
    """Reads agentgateway access logs; ``tools/call`` records become exchanges (detect only)."""

    name: ClassVar[str] = "agentgateway"

    def title(self) -> str:
        return "agentgateway access log"

    def read(self) -> Iterator[tuple[Unit, Placement, str | None]]:
        for index, line in enumerate(self.lines):
            record = self._record(line)
            if record is None or METHOD not in record:
                yield self.pass_over(index, "records without mcp.method.name")
                continue
            if record.get(METHOD) != "tools/call":
                yield self.pass_over(index, "records of other MCP methods (no payloads to judge)")
                continue
            session = record.get("mcp.session.id")
            session = str(session) if session is not None else None
            request, response = _exchange(record, index + 1)
            placement = Derived(index, index, PIECES_WHY)
            notes = [
                f"{DETECT_ONLY}{PIECES_WHY}",
                "the record holds no JSON-RPC id: named by its line",
            ]
            if "mcp.tool.arguments" not in record:
                notes.append(
                    "arguments not logged (add mcp.tool.arguments to the access log policy)"
                )
            for payload, direction in ((request, C2S), (response, S2C)):
                if payload is None:
                    continue
                text, message = derived_message(payload, index + 1, 1, direction, notes)
                yield Unit(text, index + 1, [message]), placement, session

    @staticmethod
    def _record(line: str) -> dict[str, Any] | None:
        if _TEXT_RECORD.match(line):
            return text_fields(line)
        parsed = parse_json_line(line, 1)
        if isinstance(parsed, tuple) and isinstance(parsed[0], dict):
            return parsed[0]
        return None


def _exchange(record: dict[str, Any], line_no: int) -> tuple[dict[str, Any], dict[str, Any] | None]:
    """The request and answer a ``tools/call`` record stands for (no answer when its outcome is unknown)."""
    request_id = f"line {line_no}"
    params: dict[str, Any] = {}
    tool = record.get("gen_ai.tool.name")
    if tool is not None:
        params["name"] = str(tool)
    arguments = _json(record.get("mcp.tool.arguments"))
    if arguments is not None:
        params["arguments"] = arguments
    request = {"jsonrpc": "2.0", "id": request_id, "method": "tools/call", "params": params}
    code = record.get("mcp.error.code")
    error = _json(record.get("mcp.tool.error"))
    result = _json(record.get("mcp.tool.result"))
    if isinstance(code, int) and not isinstance(code, bool):
        message = record.get("mcp.error.message")
        answer: dict[str, Any] = {
            "code": code,
            "message": str(message) if message is not None else "",
        }
        return request, {"jsonrpc": "2.0", "id": request_id, "error": answer}
    if isinstance(error, dict) and isinstance(error.get("code"), int):
        return request, {"jsonrpc": "2.0", "id": request_id, "error": error}
    if isinstance(result, dict):
        return request, {"jsonrpc": "2.0", "id": request_id, "result": result}
    return request, None


def _json(value: Any) -> Any:
    """A logged payload: JSON as a value, or as a string of JSON."""
    if isinstance(value, str):
        try:
            return json.loads(value)
        except ValueError:
            return None
    return value
