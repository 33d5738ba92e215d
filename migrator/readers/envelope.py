"""Envelope JSONL: each line wraps one message with metadata, as recorders write it.

Recorders disagree on the names. Seen in the wild::

    {"ts": "...", "direction": "client->server", "message": {...}}
    {"seq": 2, "t": 1776658414.95, "dir": "c2s", "msg": {...}}
    {"time": "...", "origin": "server", "payload": {...}}
    {"event": "send", "data": {...}}

The layout (which key holds the message, which holds the direction, and what
each direction label means) is worked out from the content, once per file.
Lines without the message key (a header, a closing summary) pass through
untouched.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any, ClassVar

from migrator.model import jsontext
from migrator.model.units import Direction, Problem, Unit
from migrator.readers.base import Reader, messages_at, parse_json_line
from migrator.readers.wire import looks_like_message

MESSAGE_KEYS = ("message", "msg", "payload", "data", "body", "json", "rpc", "jsonrpc_message")
DIRECTION_KEYS = ("direction", "dir", "origin", "from", "source", "sender", "side", "event", "type")

C2S, S2C = Direction.CLIENT_TO_SERVER, Direction.SERVER_TO_CLIENT

# Labels that name the direction outright.
ABSOLUTE_LABELS: dict[str, Direction] = {
    "client->server": C2S, "client_to_server": C2S, "client-to-server": C2S, "c2s": C2S,
    "c->s": C2S, "to_server": C2S, "toserver": C2S, "client": C2S, "request_to_server": C2S,
    "server->client": S2C, "server_to_client": S2C, "server-to-client": S2C, "s2c": S2C,
    "s->c": S2C, "to_client": S2C, "toclient": S2C, "server": S2C,
}  # fmt: skip
# Labels relative to the recorder: "send" is the client's send when a client
# recorded, the server's when a server did. The content decides.
SENT_LABELS = frozenset({"send", "sent", "out", "outgoing", "outbound", "tx", "write", ">", "->"})
RECEIVED_LABELS = frozenset(
    {"recv", "received", "receive", "in", "incoming", "inbound", "rx", "read", "<", "<-"}
)

# Requests only a client sends; used to orient relative labels.
CLIENT_ONLY_METHODS = frozenset({
    "initialize", "tools/list", "tools/call", "resources/list", "resources/read",
    "prompts/list", "prompts/get", "completion/complete", "logging/setLevel",
    "resources/templates/list", "resources/subscribe", "notifications/initialized",
})  # fmt: skip


@dataclass(frozen=True)
class EnvelopeLayout:
    """Where the message and its direction are in each envelope line."""

    message_key: str
    direction_key: str | None
    labels: dict[str, Direction]


def detect_layout(values: list[Any]) -> EnvelopeLayout | None:
    """Work out the envelope layout from a sample of decoded lines, or ``None``."""
    objects = [v for v in values if isinstance(v, dict)]
    if not objects:
        return None
    key_votes: Counter[str] = Counter()
    for obj in objects:
        for key in MESSAGE_KEYS:
            if key in obj and looks_like_message(obj[key]):
                key_votes[key] += 1
                break
    if not key_votes:
        return None
    message_key = key_votes.most_common(1)[0][0]
    wrapped = [o for o in objects if message_key in o and looks_like_message(o[message_key])]
    direction_key, labels = _direction_layout(wrapped, message_key)
    return EnvelopeLayout(message_key, direction_key, labels)


def _direction_layout(
    wrapped: list[dict[str, Any]], message_key: str
) -> tuple[str | None, dict[str, Direction]]:
    for key in DIRECTION_KEYS:
        values = {str(o[key]).lower() for o in wrapped if isinstance(o.get(key), str)}
        if not values:
            continue
        if values <= ABSOLUTE_LABELS.keys():
            return key, {v: ABSOLUTE_LABELS[v] for v in values}
        if values <= SENT_LABELS | RECEIVED_LABELS:
            return key, _orient_relative(wrapped, key, message_key, values)
    return None, {}


def _orient_relative(
    wrapped: list[dict[str, Any]], key: str, message_key: str, values: set[str]
) -> dict[str, Direction]:
    """Decide whether "send" means client->server by who sends client-only requests."""
    client_votes = Counter[str]()
    for obj in wrapped:
        message = obj[message_key]
        if isinstance(message, dict) and message.get("method") in CLIENT_ONLY_METHODS:
            client_votes[str(obj[key]).lower()] += 1
    sent_is_client = sum(client_votes[v] for v in SENT_LABELS) >= sum(
        client_votes[v] for v in RECEIVED_LABELS
    )
    sent, received = (C2S, S2C) if sent_is_client else (S2C, C2S)
    return {v: sent if v in SENT_LABELS else received for v in values}


class EnvelopeReader(Reader):
    """Reads lines that wrap a message with metadata."""

    name: ClassVar[str] = "envelope"
    streams_lines: ClassVar[bool] = True

    def __init__(self, layout: EnvelopeLayout) -> None:
        self.layout = layout

    def units(self, lines: Iterable[str]) -> Iterator[Unit]:
        """Yield one unit per line; only the wrapped message is a message."""
        layout = self.layout
        for line_no, text in enumerate(lines, start=1):
            parsed = parse_json_line(text, line_no)
            if parsed is None:
                yield Unit(text, line_no)
                continue
            if isinstance(parsed, Problem):
                yield Unit(text, line_no, problem=parsed)
                continue
            value, start, _ = parsed
            if not isinstance(value, dict) or not looks_like_message(value.get(layout.message_key)):
                yield Unit(text, line_no)  # a header, summary or other note: not ours
                continue
            direction = None
            if layout.direction_key is not None:
                label = value.get(layout.direction_key)
                if isinstance(label, str):
                    direction = layout.labels.get(label.lower())
            member = next(
                m
                for m in reversed(jsontext.object_members(text, start))
                if m.key == layout.message_key
            )
            yield Unit(
                text,
                line_no,
                messages_at(
                    text,
                    value[layout.message_key],
                    member.value_start,
                    member.value_end,
                    line_no,
                    direction,
                ),
            )
