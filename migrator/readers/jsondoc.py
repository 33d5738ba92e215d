"""JSON documents: a whole file that is one JSON value holding messages.

Shapes read (pretty or compact, any indentation):

* an array of messages: ``[{"jsonrpc": "2.0", ...}, ...]``;
* an array of envelope entries (the layouts of the envelope reader);
* an MCP Inspector history export (``inspector-history-*.json``): entries
  ``{id, timestamp, direction: request|response|notification, origin?: client|server,
  message, response?, duration?}``, where ``direction`` is the message kind and
  ``origin`` the sender (missing in older exports); a request may carry its
  ``response`` inline;
* a cassette of paired interactions, as the ``mcp-recorder`` package writes:
  ``{version, metadata, interactions: [{type, request, response, ...}]}``;
* an object that holds an array of messages under ``messages`` or ``transcript``.

The whole file is one unit; every message is a span of it, so edits touch
only those spans and the file keeps its indentation.
"""

from __future__ import annotations

import bisect
import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any, ClassVar

from migrator.errors import InputError, NotATranscriptError
from migrator.model import jsontext
from migrator.model.source import BOM
from migrator.model.units import Direction, SourceMessage, Unit
from migrator.readers.base import Reader
from migrator.readers.envelope import detect_layout
from migrator.readers.wire import looks_like_message

C2S, S2C = Direction.CLIENT_TO_SERVER, Direction.SERVER_TO_CLIENT
INSPECTOR_KINDS = frozenset({"request", "response", "notification"})
WRAPPER_KEYS = ("messages", "transcript")


@dataclass(frozen=True)
class Located:
    """A message value found in the document, with its span and sender."""

    value: Any
    start: int
    end: int
    direction: Direction | None


def looks_like_document(head: list[str]) -> bool:
    """True when the file starts a JSON value that goes on past its first line.

    A first line that is complete, or broken in the middle, means a line
    format; so does an unfinished first line followed by complete lines (a
    JSONL file whose first line was cut short).
    """
    raw = [t.lstrip(BOM).rstrip("\r\n") for t in head]
    raw = [t for t in raw if t.strip()]
    lines = [t.strip() for t in raw]
    if not lines or lines[0][0] not in "[{":
        return False
    if lines[0] in ("[", "{"):
        return True
    try:
        jsontext.value_end(lines[0], 0)
        return False
    except json.JSONDecodeError as exc:
        if exc.pos < len(lines[0]) - 1 and not exc.msg.startswith("Unterminated"):
            return False
    except (ValueError, RecursionError):  # NaN, absurd nesting: a broken line, not a document
        return False
    for following, following_raw in zip(lines[1:2], raw[1:2], strict=True):
        # A pretty-printed document goes on with an indented line or a closing
        # bracket (the indented line may be a whole value: the one element of
        # a list); anything else after an unfinished line is a broken JSONL file.
        return following_raw[0] in " \t" or following[0] in "}]"
    return False  # one unfinished line and nothing else: a cut-short JSONL file


def shape(value: Any) -> str | None:
    """Name the document shape, or ``None`` when it holds no messages we know."""
    if isinstance(value, list):
        objects = [v for v in value if isinstance(v, dict)]
        if objects and all(looks_like_message(v) for v in objects):
            return "messages"
        if objects and all(
            v.get("direction") in INSPECTOR_KINDS and "message" in v for v in objects
        ):
            return "inspector"
        if detect_layout(objects) is not None:
            return "envelopes"
        return None
    if isinstance(value, dict):
        interactions = value.get("interactions")
        if isinstance(interactions, list) and all(isinstance(i, dict) for i in interactions):
            return "cassette"
        for key in WRAPPER_KEYS:
            if isinstance(value.get(key), list) and shape(value[key]) == "messages":
                return f"wrapped:{key}"
    return None


class JsonDocumentReader(Reader):
    """Reads a whole JSON document and finds the messages in it."""

    name: ClassVar[str] = "json"

    def __init__(self, path_hint: str = "") -> None:
        self.path_hint = path_hint
        self.shape: str | None = None

    def units(self, lines: Iterable[str]) -> Iterator[Unit]:
        """Yield the whole document as one unit."""
        text = "".join(lines)
        start = jsontext.skip_ws(text, 1 if text.startswith(BOM) else 0)
        try:
            value = jsontext.DECODER.decode(text[start:])
        except json.JSONDecodeError as exc:
            raise InputError(
                f"not a valid JSON document: {exc.msg} (column {exc.colno})", line=exc.lineno
            ) from exc
        except jsontext.NotJsonError as exc:
            raise InputError(f"not a valid JSON document: {exc}", line=1) from exc
        except RecursionError as exc:
            raise InputError("JSON nested too deeply to read", line=1) from exc
        self.shape = shape(value)
        if self.shape is None:
            raise NotATranscriptError(
                "JSON document holds no JSON-RPC messages in a known layout", line=1
            )
        line_starts = [0] + [i + 1 for i, ch in enumerate(text) if ch == "\n"]
        messages = []
        for found in _locate(text, start, value, self.shape):
            line = bisect.bisect_right(line_starts, found.start)
            column = found.start - line_starts[line - 1] + 1
            messages.append(
                SourceMessage(found.value, found.start, found.end, line, column, found.direction)
            )
        yield Unit(text, 1, messages)


def _locate(text: str, start: int, value: Any, kind: str) -> Iterator[Located]:
    if kind == "messages":
        for item, (s, e) in zip(value, jsontext.array_elements(text, start), strict=True):
            yield Located(item, s, e, None)
    elif kind == "envelopes":
        layout = detect_layout([v for v in value if isinstance(v, dict)])
        assert layout is not None
        for item, (s, _) in zip(value, jsontext.array_elements(text, start), strict=True):
            if not isinstance(item, dict) or not looks_like_message(item.get(layout.message_key)):
                continue
            label = item.get(layout.direction_key) if layout.direction_key else None
            direction = layout.labels.get(label.lower()) if isinstance(label, str) else None
            member = _member(text, s, layout.message_key)
            yield Located(item[layout.message_key], member.value_start, member.value_end, direction)
    elif kind == "inspector":
        for item, (s, _) in zip(value, jsontext.array_elements(text, start), strict=True):
            origin = item.get("origin")
            direction = (
                {"client": C2S, "server": S2C}.get(origin) if isinstance(origin, str) else None
            )
            member = _member(text, s, "message")
            yield Located(item["message"], member.value_start, member.value_end, direction)
            if looks_like_message(item.get("response")):
                member = _member(text, s, "response")
                reverse = direction.reverse if direction is not None else None
                yield Located(item["response"], member.value_start, member.value_end, reverse)
    elif kind == "cassette":
        interactions = _member(text, start, "interactions")
        spans = jsontext.array_elements(text, interactions.value_start)
        for item, (s, _) in zip(value["interactions"], spans, strict=True):
            for key, direction in (("request", C2S), ("response", S2C)):
                part = item.get(key)
                if looks_like_message(part):
                    member = _member(text, s, key)
                    yield from _messages_in(
                        text, part, member.value_start, member.value_end, direction
                    )
    else:  # "wrapped:<key>"
        key = kind.split(":", 1)[1]
        member = _member(text, start, key)
        yield from _locate(text, member.value_start, value[key], "messages")


def _messages_in(
    text: str, value: Any, start: int, end: int, direction: Direction
) -> Iterator[Located]:
    # A cassette response may hold several messages (a streamed SSE answer).
    if isinstance(value, list):
        for item, (s, e) in zip(value, jsontext.array_elements(text, start), strict=True):
            yield Located(item, s, e, direction)
    else:
        yield Located(value, start, end, direction)


def _member(text: str, start: int, key: str) -> jsontext.Member:
    return next(m for m in reversed(jsontext.object_members(text, start)) if m.key == key)
