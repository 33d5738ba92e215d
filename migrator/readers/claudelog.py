"""Claude Desktop MCP logs (``mcp.log``, ``mcp-server-<name>.log``).

Claude Desktop logs every message it exchanges with a local server::

    2025-06-01T10:00:00.000Z [weather] [info] Message from client: {"method":"tools/call",...} { metadata: undefined }
    2025-06-01T10:00:00.120Z [weather] [info] Message from server: {"jsonrpc":"2.0","id":4,...} { metadata: undefined }

between lifecycle lines (``Initializing server...``, ``Server started and
connected successfully``) and whatever the server wrote to stderr. The JSON
value right after ``Message from client:`` or ``Message from server:`` is
the message, sent by that side; the rest of the line, and every other line,
is copied through untouched. A message Claude Desktop cut short (it writes
``...[N chars truncated]...`` into the middle of long ones) is not what was
sent, even when what is left parses: it is reported (MCP301) and not read.

``mcp.log`` interleaves the servers Claude Desktop runs, each with its own
ids and its own ``initialize``. The messages of each ``[server]`` are judged
together, one server after another, so that one server's handshake does not
end another's session; the file is written back in its own order. That
means a Claude Desktop log is held in memory while it is processed.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator
from typing import ClassVar

from migrator.model import jsontext
from migrator.model.source import invalid_utf8_column
from migrator.model.units import Direction, Problem, Unit
from migrator.readers.base import INVALID_UTF8, UNPARSEABLE_LINE, Reader, messages_at

PREFIX = re.compile(
    r"(?P<time>\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z) \[(?P<server>[^\]\r\n]*)\] \[(?P<level>[a-z]+)\] "
)
MARKER = re.compile(r"Message from (?P<side>client|server): ")
TRUNCATED = re.compile(r"\.\.\.\[(\d+) chars truncated\]\.\.\.")
SIDES = {"client": Direction.CLIENT_TO_SERVER, "server": Direction.SERVER_TO_CLIENT}


def looks_like_claude_log(head: list[str]) -> bool:
    """True when a line logs a message, or most lines carry Claude Desktop's prefix."""
    lines = [line for line in head if line.strip()]
    if any(_message_start(line) is not None for line in lines):
        return True
    return bool(lines) and sum(1 for line in lines if PREFIX.match(line)) * 2 > len(lines)


def _message_start(text: str) -> tuple[int, Direction, str] | None:
    """Where the JSON of a logged message starts, who sent it, and the server's name."""
    prefix = PREFIX.match(text)
    if prefix is None:
        return None
    marker = MARKER.match(text, prefix.end())
    if marker is None:
        return None
    return marker.end(), SIDES[marker.group("side")], prefix.group("server")


class ClaudeLogReader(Reader):
    """Reads a Claude Desktop log; messages are grouped by server for judging."""

    name: ClassVar[str] = "claude-log"

    def __init__(self) -> None:
        self.outputs: list[str] = []
        self.index: dict[int, int] = {}

    def units(self, lines: Iterable[str]) -> Iterator[Unit]:
        """Yield the lines of each server together, in order of first appearance."""
        groups: dict[str, list[Unit]] = {}
        for line_no, text in enumerate(lines, start=1):
            unit, server = _unit(text, line_no)
            self.index[id(unit)] = len(self.outputs)
            self.outputs.append(text)
            groups.setdefault(server, []).append(unit)
        for group in groups.values():
            yield from group

    def emit(self, unit: Unit, text: str) -> Iterator[str]:
        """Keep the line's text for :meth:`close`, which writes the file in its order."""
        self.outputs[self.index.pop(id(unit))] = text
        yield from ()

    def close(self) -> Iterator[str]:
        """Every line, in the file's order."""
        yield from self.outputs


def _unit(text: str, line_no: int) -> tuple[Unit, str]:
    found = _message_start(text)
    if found is None:
        return Unit(text, line_no), ""  # lifecycle and stderr lines are not ours
    start, direction, server = found
    bad = invalid_utf8_column(text)
    if bad is not None:
        return Unit(
            text, line_no, problem=Problem(INVALID_UTF8, "line is not valid UTF-8", line_no, bad)
        ), server
    truncated = TRUNCATED.search(text, start)
    if truncated is not None:
        # Even when what is left parses, it is not what was sent (a tools/list
        # cut short would list too few tools): report it and read nothing.
        reason = f"Claude Desktop cut this message short ([{truncated.group(1)} chars truncated]); it cannot be read"
        return Unit(
            text, line_no, problem=Problem(UNPARSEABLE_LINE, reason, line_no, truncated.start() + 1)
        ), server
    try:
        end = jsontext.value_end(text, start)
        value = jsontext.DECODER.decode(text[start:end])
    except json.JSONDecodeError as exc:
        reason = f"logged message is not valid JSON: {exc.msg}"
        return Unit(
            text, line_no, problem=Problem(UNPARSEABLE_LINE, reason, line_no, exc.pos + 1)
        ), server
    except RecursionError:
        problem = Problem(UNPARSEABLE_LINE, "JSON nested too deeply to read", line_no, start + 1)
        return Unit(text, line_no, problem=problem), server
    except ValueError as exc:  # valid to Python, not to JSON (NaN), or a number too long to read
        problem = Problem(
            UNPARSEABLE_LINE, f"logged message is not valid JSON: {exc}", line_no, start + 1
        )
        return Unit(text, line_no, problem=problem), server
    return Unit(text, line_no, messages_at(text, value, start, end, line_no, direction)), server
