"""HAR files (HTTP Archive 1.2) of Streamable HTTP sessions.

A browser's network panel, a proxy (mitmproxy, Charles, Fiddler) or a test
recorder saves every HTTP exchange as an entry. MCP's Streamable HTTP
transport puts the messages in the bodies:

* ``request.postData.text``: what the client POSTs (a message or a batch),
  sent client->server;
* ``response.content.text``: the server's answer, either ``application/json``
  (one message) or ``text/event-stream`` whose ``data:`` lines each carry a
  message (notifications first, the response last), sent server->client.
  A body with ``"encoding": "base64"`` is decoded first.

Each body is one unit whose text is the body as the server or client sent it
(the decoded JSON string); messages are spans of it. After a rewrite, only
the changed characters of the string literal are written again, escaped the
way the file escapes (``\\uXXXX`` for non-ASCII, ``\\/``, HTML-safe escapes),
and the numbers that measure the body are updated: ``content.size``,
``bodySize`` when it equalled the body's length, and a ``Content-Length``
header (with ``headersSize``). The sizes come before the text in a HAR
entry, so the edits are collected and the file is written at the end; a file
with nothing to fix comes out byte for byte.

Sessions: the entries of one MCP session (the same URL and the same
``Mcp-Session-Id`` header, which the server assigns in its answer to
``initialize``) are judged together, session after session, so that
interleaved sessions (two browser tabs, ids restarting at 0) do not end
each other. Within a session, entries are taken in file order and each
request body before its response body. A long-lived ``GET`` event stream is
one entry at the time it opened, so its server requests are judged before
later POSTs; that is the order they can be answered in anyway.

Not read: SSE events whose JSON is split over several ``data:`` lines (rare;
each line is then not a message on its own), and HTTP/2 server push.
"""

from __future__ import annotations

import base64
import binascii
import bisect
import json
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any, ClassVar

from migrator.errors import InputError, NotATranscriptError, UnsafeRewriteError
from migrator.model import jsontext
from migrator.model.source import BOM, decode, encode
from migrator.model.units import Direction, Edit, Problem, SourceMessage, Unit, apply_edits
from migrator.readers.base import UNPARSEABLE_LINE, Reader, messages_at
from migrator.readers.wire import looks_like_message

C2S, S2C = Direction.CLIENT_TO_SERVER, Direction.SERVER_TO_CLIENT
SESSION_HEADER = "mcp-session-id"

_HAR_START = re.compile(r'\A\ufeff?\s*\{\s*"log"\s*:\s*\{')
# One escape of a JSON string: a surrogate pair decodes to one character.
_ESCAPE = re.compile(
    r"\\(?:u[dD][89abAB][0-9a-fA-F]{2}\\u[dD][c-fC-F][0-9a-fA-F]{2}|u[0-9a-fA-F]{4}|.)", re.DOTALL
)
_NON_ASCII_ESCAPE = re.compile(
    r"\\u(?:00[89a-fA-F][0-9a-fA-F]|0[1-9a-fA-F][0-9a-fA-F]{2}|[1-9a-fA-F][0-9a-fA-F]{3})"
)
_HTML_ESCAPE = re.compile(r"\\u00(?:3[cCeE]|26)")


def looks_like_har(head: list[str]) -> bool:
    """True when the file opens a JSON object whose first key is ``log``."""
    return _HAR_START.match("".join(head[:4])) is not None


@dataclass
class _Literal:
    """A JSON string literal in the file: where its content is, and how it is escaped."""

    start: int  # index of the first character after the opening quote
    end: int  # index of the closing quote
    escapes_decoded: list[int] = field(default_factory=list)  # decoded index of each escape
    extra: list[int] = field(default_factory=list)  # raw characters beyond one, up to each escape

    @classmethod
    def at(cls, text: str, quote: int, end: int) -> _Literal:
        literal = cls(quote + 1, end - 1)
        extra = 0
        for match in _ESCAPE.finditer(text, literal.start, literal.end):
            raw = match.start() - literal.start
            literal.escapes_decoded.append(raw - extra)
            extra += match.end() - match.start() - 1
            literal.extra.append(extra)
        return literal

    def raw(self, decoded: int) -> int:
        """The file offset of the character at ``decoded`` in the string's value."""
        k = bisect.bisect_left(self.escapes_decoded, decoded)
        return self.start + decoded + (self.extra[k - 1] if k else 0)


@dataclass(frozen=True)
class _Escaping:
    """How the file writes a string's characters."""

    ensure_ascii: bool
    slash: bool
    html: bool

    @classmethod
    def of(cls, raw: str) -> _Escaping:
        # Whole escapes: after an escaped backslash, "u00e9" is plain text.
        escapes = [m.group() for m in _ESCAPE.finditer(raw)]
        return cls(
            raw.isascii() and any(_NON_ASCII_ESCAPE.fullmatch(e[:6]) for e in escapes),
            "\\/" in escapes,
            any(_HTML_ESCAPE.fullmatch(e) for e in escapes),
        )

    def encode(self, value: str) -> str:
        text = json.dumps(value, ensure_ascii=self.ensure_ascii)[1:-1]
        if self.slash:
            text = text.replace("/", "\\/")
        if self.html:
            text = text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
        return text


@dataclass
class _Number:
    """A size field of the entry and the value it holds."""

    start: int
    end: int
    value: int


@dataclass
class _Body:
    """One body string and the numbers that measure it."""

    literal: _Literal
    base64: bool
    content_size: _Number | None = None  # response.content.size
    body_size: _Number | None = None  # request/response.bodySize
    length_header: _Number | None = None  # the Content-Length header's value (a string)
    headers_size: _Number | None = None


class HarReader(Reader):
    """Reads a HAR file; every request or response body with messages is a unit."""

    name: ClassVar[str] = "har"

    def __init__(self) -> None:
        self.text = ""
        self.line_starts: list[int] = []
        self.bodies: dict[int, _Body] = {}
        self.edits: list[Edit] = []

    def units(self, lines: Iterable[str]) -> Iterator[Unit]:
        """Yield the bodies of each MCP session together, sessions in order of appearance."""
        text = self.text = "".join(lines)
        start = jsontext.skip_ws(text, 1 if text.startswith(BOM) else 0)
        try:
            value = jsontext.DECODER.decode(text[start:])
        except json.JSONDecodeError as exc:
            raise InputError(
                f"not a valid HAR file: {exc.msg} (column {exc.colno})", line=exc.lineno
            ) from exc
        except RecursionError as exc:
            raise InputError("JSON nested too deeply to read", line=1) from exc
        except ValueError as exc:  # a number too long to read
            raise InputError(f"not a valid HAR file: {exc}", line=1) from exc
        log = value.get("log") if isinstance(value, dict) else None
        entries = log.get("entries") if isinstance(log, dict) else None
        if not isinstance(entries, list):
            raise NotATranscriptError("not a HAR file: no log.entries array", line=1)
        self.line_starts = [0] + [i + 1 for i, ch in enumerate(text) if ch == "\n"]
        log_member = _member(text, start, "log")
        assert log_member is not None
        entries_member = _member(text, log_member.value_start, "entries")
        assert entries_member is not None
        sessions: dict[tuple[str, str], list[Unit]] = {}
        count = 0
        spans = jsontext.array_elements(text, entries_member.value_start)
        for entry, (entry_start, _) in zip(entries, spans, strict=True):
            if not isinstance(entry, dict):
                continue
            group = sessions.setdefault(_session_key(entry), [])
            for unit in self._entry_units(entry, entry_start):
                group.append(unit)
                count += len(unit.messages) + (unit.problem is not None)
        if not count:
            raise NotATranscriptError(
                "HAR file holds no JSON-RPC messages in a request or response body", line=1
            )
        for group in sessions.values():
            yield from group

    def emit(self, unit: Unit, text: str) -> Iterator[str]:
        """Record the file edits for a rewritten body; the file is written by :meth:`close`."""
        body = self.bodies.pop(id(unit))
        if text != unit.text:
            self.edits += _body_edits(self.text, body, unit.text, text)
        yield from ()

    def close(self) -> Iterator[str]:
        """The file, with the edits made (byte for byte the same when there are none)."""
        if not self.edits:
            yield self.text
            return
        after = apply_edits(self.text, self.edits)
        try:
            jsontext.DECODER.decode(
                after[jsontext.skip_ws(after, 1 if after.startswith(BOM) else 0) :]
            )
        except json.JSONDecodeError as exc:  # a bug, never the user's input
            raise UnsafeRewriteError(
                f"rewritten HAR is not valid JSON ({exc.msg}); nothing written", line=exc.lineno
            ) from exc
        yield after

    def _entry_units(self, entry: dict[str, Any], entry_start: int) -> Iterator[Unit]:
        text = self.text
        for side, direction in (("request", C2S), ("response", S2C)):
            part = entry.get(side)
            if not isinstance(part, dict):
                continue
            part_member = _member(text, entry_start, side)
            assert part_member is not None
            holder_key, size_key = ("postData", None) if side == "request" else ("content", "size")
            holder = part.get(holder_key)
            if not isinstance(holder, dict) or not isinstance(holder.get("text"), str):
                continue
            holder_member = _member(text, part_member.value_start, holder_key)
            assert holder_member is not None
            text_member = _member(text, holder_member.value_start, "text")
            assert text_member is not None
            is_base64 = holder.get("encoding") == "base64"
            body = _Body(
                _Literal.at(text, text_member.value_start, text_member.value_end), is_base64
            )
            decoded = holder["text"]
            if is_base64:
                try:
                    decoded = decode(base64.b64decode(decoded, validate=True))
                except (binascii.Error, ValueError):
                    continue  # not base64 after all: not a body we can read
            mime = str(holder.get("mimeType", "")).lower()
            unit = self._unit(decoded, body, direction, "event-stream" in mime)
            if unit is None:
                continue
            body.content_size = (
                _number(text, holder_member.value_start, size_key, holder) if size_key else None
            )
            body.body_size = _number(text, part_member.value_start, "bodySize", part)
            body.headers_size = _number(text, part_member.value_start, "headersSize", part)
            body.length_header = _length_header(text, part_member.value_start, part)
            self.bodies[id(unit)] = body
            yield unit

    def _unit(self, decoded: str, body: _Body, direction: Direction, sse: bool) -> Unit | None:
        literal = body.literal
        line, _ = self._position(literal.start)
        stream = sse or (not decoded.lstrip().startswith(("{", "[")) and "data:" in decoded)
        spans = (
            _sse_spans(decoded)
            if stream
            else [(jsontext.skip_ws(decoded, 0), len(decoded.rstrip()))]
        )
        messages: list[SourceMessage] = []
        for start, end in spans:
            if start >= end:
                continue
            try:
                stop = jsontext.value_end(decoded, start)
                if jsontext.skip_ws(decoded, stop) < end:
                    raise json.JSONDecodeError("extra data after the message", decoded, stop)
                value = jsontext.DECODER.decode(decoded[start:stop])
            except json.JSONDecodeError as exc:
                if '"jsonrpc"' not in decoded[start:end] or body.base64:
                    continue  # some other JSON or text: not ours
                at_line, column = self._position(literal.raw(min(exc.pos, len(decoded))))
                problem = Problem(
                    UNPARSEABLE_LINE, f"body is not valid JSON: {exc.msg}", at_line, column
                )
                return Unit(decoded, line, problem=problem)
            except (RecursionError, ValueError):
                continue  # nested too deeply, NaN, a number too long: not a message we can rewrite
            if not looks_like_message(value):
                continue
            for message in messages_at(decoded, value, start, stop, line, direction):
                position = literal.start if body.base64 else literal.raw(message.start)
                message.line, message.column = self._position(position)
                messages.append(message)
        return Unit(decoded, line, messages) if messages else None

    def _position(self, offset: int) -> tuple[int, int]:
        line = bisect.bisect_right(self.line_starts, offset)
        return line, offset - self.line_starts[line - 1] + 1


def _sse_spans(text: str) -> list[tuple[int, int]]:
    """The span of the data of each event that has exactly one ``data:`` line."""
    spans: list[tuple[int, int]] = []
    event: list[tuple[int, int]] = []
    pos = 0
    for raw in text.split("\n"):
        line = raw.rstrip("\r")
        if line.startswith("data:"):
            start = pos + 5 + (line[5:6] == " ")
            event.append((start, pos + len(line)))
        elif not line:
            if len(event) == 1:
                spans.append(event[0])
            event = []
        pos += len(raw) + 1
    if len(event) == 1:
        spans.append(event[0])
    return spans


def _session_key(entry: dict[str, Any]) -> tuple[str, str]:
    request, response = entry.get("request"), entry.get("response")
    request = request if isinstance(request, dict) else {}
    response = response if isinstance(response, dict) else {}
    url = str(request.get("url", "")).split("?", 1)[0].split("#", 1)[0]
    session = _header(request, SESSION_HEADER) or _header(response, SESSION_HEADER) or ""
    return url, session


def _header(part: dict[str, Any], name: str) -> str | None:
    headers = part.get("headers")
    if not isinstance(headers, list):
        return None
    for header in headers:
        if isinstance(header, dict) and str(header.get("name", "")).lower() == name:
            value = header.get("value")
            return value if isinstance(value, str) else None
    return None


def _member(text: str, start: int, key: str) -> jsontext.Member | None:
    return next((m for m in reversed(jsontext.object_members(text, start)) if m.key == key), None)


def _number(text: str, start: int, key: str, value: dict[str, Any]) -> _Number | None:
    number = value.get(key)
    if not isinstance(number, int) or isinstance(number, bool):
        return None
    member = _member(text, start, key)
    return None if member is None else _Number(member.value_start, member.value_end, number)


def _length_header(text: str, start: int, part: dict[str, Any]) -> _Number | None:
    headers = part.get("headers")
    if not isinstance(headers, list):
        return None
    headers_member = _member(text, start, "headers")
    assert headers_member is not None
    spans = jsontext.array_elements(text, headers_member.value_start)
    for header, (s, _) in zip(headers, spans, strict=True):
        if not isinstance(header, dict) or str(header.get("name", "")).lower() != "content-length":
            continue
        raw = header.get("value")
        if isinstance(raw, str) and raw.strip().isdigit():
            member = _member(text, s, "value")
            assert member is not None
            return _Number(member.value_start, member.value_end, int(raw))
    return None


def _body_edits(text: str, body: _Body, old: str, new: str) -> list[Edit]:
    """The file edits that turn the body ``old`` into ``new`` and keep its sizes true."""
    literal = body.literal
    edits: list[Edit] = []
    if body.base64:
        replacement = base64.b64encode(encode(new)).decode("ascii")
        edits.append(Edit(literal.start, literal.end, replacement))
    else:
        prefix = 0
        limit = min(len(old), len(new))
        while prefix < limit and old[prefix] == new[prefix]:
            prefix += 1
        suffix = 0
        while suffix < limit - prefix and old[-1 - suffix] == new[-1 - suffix]:
            suffix += 1
        escaping = _Escaping.of(text[literal.start : literal.end])
        start, end = literal.raw(prefix), literal.raw(len(old) - suffix)
        edits.append(Edit(start, end, escaping.encode(new[prefix : len(new) - suffix])))
    delta = len(encode(new)) - len(encode(old))
    old_length = len(encode(old))
    measured = body.content_size.value if body.content_size is not None else old_length
    for number in (body.content_size,):
        if number is not None:
            edits.append(Edit(number.start, number.end, str(number.value + delta)))
    if (
        body.body_size is not None
        and body.body_size.value in (measured, old_length)
        and body.body_size.value > 0
    ):
        edits.append(
            Edit(body.body_size.start, body.body_size.end, str(body.body_size.value + delta))
        )
    header = body.length_header
    if header is not None and header.value in (measured, old_length):
        value = str(header.value + delta)
        edits.append(Edit(header.start, header.end, json.dumps(value)))
        size = body.headers_size
        grown = len(value) - len(str(header.value))
        if grown and size is not None and size.value > 0:
            edits.append(Edit(size.start, size.end, str(size.value + grown)))
    return edits
