"""supergateway logs: a stdio MCP server behind Streamable HTTP, SSE or a WebSocket.

supergateway (the npm package) runs a stdio server as its child and prints, with the
prefix ``[supergateway]``, every message it passes (``--logLevel info``, the default, and
``debug``), between its banner and status lines::

    [supergateway] StreamableHttp → Child: {"jsonrpc":"2.0","id":11,"method":"tools/call",...}
    [supergateway] Child → StreamableHttp: {"jsonrpc":"2.0","id":11,"error":{"code":-32602,...}}

* Streamable HTTP (``--outputTransport streamableHttp``, stateless or ``--stateful``):
  both directions as JSON; the child's line is printed verbatim, so ``fix`` rewrites it
  in place. In stateless mode the gateway starts a child per request and initializes it
  itself: its own ``(auto-initialize)`` and ``(initialized)`` messages, the answers to them,
  and the ``(original)`` line that repeats the client's request are not the client's
  traffic and are passed over.
* WebSocket (``--outputTransport ws``): both directions as JSON; request ids carry the
  connection's id (``"<uuid>:12"``), which keeps connections apart.
* SSE (``--outputTransport sse``, the default): the client's messages as JSON after
  ``SSE → Child (session <id>):``, the server's as the JavaScript literal ``console.log``
  prints, over several lines (see :mod:`migrator.readers.jsliteral`). At ``info`` Node
  prints two levels deep: an error's code and message are there, a result's ``content``
  and a ``tools/list``'s tools are ``[Object]``. A result with such a gap is passed over
  (a rule would judge what it cannot see); an error with one is judged, and the finding
  says what was not printed. These answers are *detect only*: a literal is not what
  the server sent, so ``fix`` refuses the file. ``--logLevel debug`` prints everything.

Anything else (the banner, ``Child stderr:``, status lines, other programs' lines) is
passed over and counted for ``--verbose``.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import ClassVar

from migrator.model import jsontext
from migrator.model.source import invalid_utf8_column
from migrator.model.units import Direction, Kind, Problem, Unit, message_kind
from migrator.readers.base import INVALID_UTF8, UNPARSEABLE_LINE, messages_at
from migrator.readers.gatewaylog import (
    DETECT_ONLY,
    Derived,
    GatewayLogReader,
    Inline,
    Placement,
    derived_message,
)
from migrator.readers.jsliteral import JsLiteralError, cuts, parse, to_json

PREFIX = "[supergateway] "
C2S, S2C = Direction.CLIENT_TO_SERVER, Direction.SERVER_TO_CLIENT
# The markers before a message, what they mean, and whether the message is the client's traffic.
MARKER = re.compile(
    r"\[supergateway\] (?:"
    r"(?P<c2s>StreamableHttp|WebSocket|SSE) → Child"
    r"(?: \(session (?P<session>[^)\s]*)\))?(?: \((?P<aside>auto-initialize|initialized|original)\))?"
    r"|Child → (?P<s2c>StreamableHttp|WebSocket|SSE)"
    r"): ?"
)
_BANNER = re.compile(r"\[supergateway\] (?:Starting\.\.\.|  - outputTransport: )")
LITERAL_WHY = (
    "supergateway logs SSE answers as the JavaScript literal console.log prints, not as "
    "the JSON the server sent; there is nothing to rewrite in place"
)
_DEEPER = "log with --logLevel debug to print whole answers"


def looks_like_supergateway(head: list[str]) -> bool:
    """True when a line is supergateway's banner or logs a message it passed."""
    return any(_BANNER.match(line) or MARKER.match(line) for line in head)


class SupergatewayReader(GatewayLogReader):
    """Reads a supergateway log (any output transport)."""

    name: ClassVar[str] = "supergateway"

    def title(self) -> str:
        return "supergateway log"

    def read(self) -> Iterator[tuple[Unit, Placement, str | None]]:
        gateway_ids: set[tuple[str, object]] = set()  # the gateway's own auto-initialize ids
        lines = self.lines
        index = 0
        while index < len(lines):
            line = lines[index]
            marker = MARKER.match(line)
            if marker is None:
                why = "supergateway lines" if line.startswith(PREFIX) else "other lines"
                yield self.pass_over(index, why if line.strip() else "blank lines")
                index += 1
                continue
            aside = marker.group("aside")
            if aside == "original":
                yield self.pass_over(index, "repeats of a request after the gateway's initialize")
                index += 1
                continue
            direction = C2S if marker.group("c2s") else S2C
            transport = marker.group("c2s") or marker.group("s2c")
            if transport == "SSE" and direction is S2C:
                found = self._literal(index, marker.end())
                index = found[1].last + 1 if isinstance(found[1], Derived) else index + 1
                yield found
                continue
            unit = self._json(line, index, marker.end(), direction)
            message = unit.messages[0] if unit.messages else None
            if aside is not None or (
                message is not None
                and message.kind in (Kind.RESULT, Kind.ERROR)
                and (type(message.id).__name__, message.id) in gateway_ids
            ):
                if message is not None and aside == "auto-initialize":
                    gateway_ids.add((type(message.id).__name__, message.id))
                yield self.pass_over(index, "messages the gateway exchanged with its child itself")
                index += 1
                continue
            session = marker.group("session")
            if session is None and message is not None and isinstance(message.id, str):
                session = message.id.split(":", 1)[0] if ":" in message.id else None  # WebSocket
            yield unit, Inline(index, 0, len(line)), session
            index += 1

    def _json(self, line: str, index: int, start: int, direction: Direction) -> Unit:
        line_no = index + 1
        bad = invalid_utf8_column(line)
        if bad is not None:
            return Unit(
                line,
                line_no,
                problem=Problem(INVALID_UTF8, "line is not valid UTF-8", line_no, bad),
            )
        try:
            end = jsontext.value_end(line, start)
            value = jsontext.DECODER.decode(line[start:end])
        except (json.JSONDecodeError, RecursionError, ValueError) as exc:
            reason = getattr(exc, "msg", None) or str(exc) or "nested too deeply"
            column = (
                getattr(exc, "pos", 0) + 1 if isinstance(exc, json.JSONDecodeError) else start + 1
            )
            problem = Problem(
                UNPARSEABLE_LINE, f"logged message is not valid JSON: {reason}", line_no, column
            )
            return Unit(line, line_no, problem=problem)
        return Unit(line, line_no, messages_at(line, value, start, end, line_no, direction))

    def _literal(self, index: int, start: int) -> tuple[Unit, Placement, str | None]:
        """The server's answer in SSE mode: a literal from this line on, over as many lines as it takes."""
        lines = self.lines
        text = lines[index]
        last = index
        line_no = index + 1
        while True:
            try:
                value, _ = parse(text, start)
                break
            except JsLiteralError as exc:
                at_end = exc.pos >= len(text.rstrip())
                if not at_end or last + 1 >= len(lines) or lines[last + 1].startswith(PREFIX):
                    offset = min(exc.pos, len(text.rstrip()))  # the end: its last line with content
                    at_line = line_no + text.count("\n", 0, offset)
                    column = offset - (text.rfind("\n", 0, offset) + 1) + 1
                    problem = Problem(
                        UNPARSEABLE_LINE,
                        f"logged SSE answer is not a complete JavaScript literal: {exc}",
                        at_line,
                        column,
                    )
                    return (
                        Unit(text, line_no, problem=problem),
                        Derived(index, last, LITERAL_WHY),
                        None,
                    )
                last += 1
                text += lines[last]
        missing = cuts(value)
        payload = to_json(value)
        kind = message_kind(payload)
        if missing and kind is Kind.RESULT:
            # A rule would judge a result it cannot see (an empty catalog, content of [Object]).
            self.passed["SSE results with parts not printed ([Object])"] += last - index + 1
            return Unit(text, line_no), Derived(index, last, LITERAL_WHY), None
        notes = [f"{DETECT_ONLY}{LITERAL_WHY}"]
        if missing:
            notes.append(
                f"not in the log (util.inspect printed two levels deep): {', '.join(missing)}; {_DEEPER}"
            )
        column = start + 1
        json_text, message = derived_message(payload, line_no, column, S2C, notes)
        return Unit(json_text, line_no, [message]), Derived(index, last, LITERAL_WHY), None
