"""What the JSON-record gateway logs share (Kong, Obot): members found with their positions.

These logs hold one JSON object per line; the messages are JSON values inside a record, or
JSON strings (a request or response body, an SSE stream's text) inside it. A body is read
the way a HAR body is: one message, or an event stream whose ``data:`` lines each carry one.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from migrator.model import jsontext
from migrator.model.units import Direction, Problem, SourceMessage, Unit
from migrator.readers.base import UNPARSEABLE_LINE, messages_at
from migrator.readers.gatewaylog import Inline, InString, Placement, is_message, string_literal
from migrator.readers.har import _sse_spans


def member_at(line: str, start: int, path: Iterable[str]) -> jsontext.Member | None:
    """The member at ``path`` (keys, one per level) of the object whose text starts at ``start``."""
    member: jsontext.Member | None = None
    position = start
    for key in path:
        if not line.startswith("{", position):
            return None
        found = [m for m in jsontext.object_members(line, position) if m.key == key]
        if not found:
            return None
        member = found[-1]  # JSON's last duplicate wins, as the decoder reads it
        position = member.value_start
    return member


def body_unit(
    line: str, index: int, member: jsontext.Member, value: Any, direction: Direction
) -> tuple[Unit, Placement] | None:
    """The unit of a body: inline JSON (a message or batch), or a string holding one or an SSE stream.

    ``None`` when the body holds no message (an empty body, an HTML error page, other JSON).
    """
    line_no = index + 1
    if not isinstance(value, str):
        if not is_message(value):
            return None
        text = line[member.value_start : member.value_end]
        inline = messages_at(text, value, 0, len(text), line_no, direction)
        for message in inline:
            message.column = member.value_start + message.start + 1
        return Unit(text, line_no, inline), Inline(index, member.value_start, member.value_end)
    literal = string_literal(line, member.value_start, member.value_end)
    stripped = value.lstrip()
    if stripped.startswith(("{", "[")):
        spans = [(jsontext.skip_ws(value, 0), len(value.rstrip()))]
    elif "data:" in value:
        spans = _sse_spans(value)
    else:
        return None
    messages: list[SourceMessage] = []
    for start, end in spans:
        if start >= end:
            continue
        try:
            stop = jsontext.value_end(value, start)
            if jsontext.skip_ws(value, stop) < end:
                raise json.JSONDecodeError("extra data after the message", value, stop)
            decoded = jsontext.DECODER.decode(value[start:stop])
        except json.JSONDecodeError as exc:
            if '"jsonrpc"' not in value[start:end]:
                continue  # some other text: not ours
            column = literal.raw(min(exc.pos, len(value))) + 1
            problem = Problem(
                UNPARSEABLE_LINE, f"body is not valid JSON: {exc.msg}", line_no, column
            )
            return Unit(value, line_no, problem=problem), InString(index, literal)
        except (RecursionError, ValueError):
            continue
        if not is_message(decoded):
            continue
        for message in messages_at(value, decoded, start, stop, line_no, direction):
            message.column = literal.raw(message.start) + 1
            messages.append(message)
    if not messages:
        return None
    return Unit(value, line_no, messages), InString(index, literal)


def record_start(line: str) -> int:
    """Where the record's object starts (after a BOM and spaces)."""
    return jsontext.skip_ws(line, 1 if line.startswith("\ufeff") else 0)
