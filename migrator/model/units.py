"""The data the readers produce and the rest of the pipeline consumes."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import TYPE_CHECKING, Any

from migrator.model.jsontext import JsonStyle, loads


class Direction(str, Enum):
    """Which peer sent a message."""

    CLIENT_TO_SERVER = "client->server"
    SERVER_TO_CLIENT = "server->client"

    @property
    def reverse(self) -> Direction:
        """The other direction."""
        if self is Direction.CLIENT_TO_SERVER:
            return Direction.SERVER_TO_CLIENT
        return Direction.CLIENT_TO_SERVER

    @property
    def short(self) -> str:
        """``c2s`` or ``s2c``."""
        return "c2s" if self is Direction.CLIENT_TO_SERVER else "s2c"


class Kind(str, Enum):
    """What a JSON-RPC message is, from its members alone."""

    REQUEST = "request"
    NOTIFICATION = "notification"
    RESULT = "result"
    ERROR = "error"
    INVALID = "invalid"


def message_kind(payload: Any) -> Kind:
    """Classify a decoded message by the members it has."""
    if not isinstance(payload, dict):
        return Kind.INVALID
    if "method" in payload:
        if not isinstance(payload["method"], str):
            return Kind.INVALID
        return Kind.REQUEST if "id" in payload else Kind.NOTIFICATION
    if "id" in payload:
        has_result, has_error = "result" in payload, "error" in payload
        if has_result and not has_error:
            return Kind.RESULT
        if has_error and not has_result:
            return Kind.ERROR
    return Kind.INVALID


class SourceMessage:
    """One JSON-RPC message and exactly where its text is.

    ``start`` and ``end`` are offsets into the text of the :class:`Unit` that
    holds the message; ``line`` and ``column`` are 1-based positions in the file,
    for reports. ``kind``, ``method`` and ``id`` come from the members, computed
    once: every rule asks.

    A message read envelope first (:func:`migrator.model.jsonrpc.envelope_message`)
    has its :attr:`payload` decoded only when something asks for it: most
    messages are never looked at past their envelope.
    """

    __slots__ = (
        "_source", "column", "direction", "end", "envelope", "id", "in_batch",
        "kind", "line", "method", "notes", "payload", "start", "style",
    )  # fmt: skip

    payload: Any
    """The decoded message.

    A plain slot, so that reading it (rules do, several times a message) is no
    Python call; an undecoded message leaves it empty, and the first read
    falls through to ``__getattr__``, which decodes and fills it.
    """

    def __init__(
        self,
        payload: Any,
        start: int,
        end: int,
        line: int,
        column: int,
        direction: Direction | None = None,
        style: JsonStyle | None = None,  # None: worked out from the text when a rewrite needs it
        in_batch: bool = False,
    ) -> None:
        self.payload = payload
        self._source: str | None = None
        self.envelope: Any = None  # the decoded envelope, for messages read envelope first
        self.start, self.end, self.line, self.column = start, end, line, column
        self.direction, self.style, self.in_batch = direction, style, in_batch
        self.notes: list[str] = []  # what the reader knows about it, for the findings' evidence
        self.kind = kind = message_kind(payload)
        method = payload.get("method") if kind is not Kind.INVALID else None
        self.method: str | None = method if type(method) is str else None
        self.id: Any = payload.get("id") if kind is not Kind.INVALID else None

    @classmethod
    def undecoded(
        cls,
        source: str,
        start: int,
        end: int,
        line: int,
        direction: Direction | None,
        kind: Kind,
        envelope: Any,
    ) -> SourceMessage:
        """A message whose payload is ``source[start:end]``, decoded when first asked for."""
        message = cls.__new__(cls)
        message._source = source  # the payload slot stays empty until read
        message.envelope = envelope
        message.start, message.end, message.line, message.column = start, end, line, start + 1
        message.direction, message.style, message.in_batch = direction, None, False
        message.notes = []
        message.kind = kind
        if kind is Kind.INVALID:
            message.method = message.id = None
        else:
            method = envelope.method
            message.method = method if type(method) is str else None
            message.id = envelope.id
        return message

    if not TYPE_CHECKING:  # hidden from mypy, which would otherwise allow any attribute

        def __getattr__(self, name: str) -> Any:
            """Decode the payload on its first read (called only while its slot is empty)."""
            if name != "payload":
                raise AttributeError(name)
            source = self._source
            assert source is not None
            payload = self.payload = loads(source[self.start : self.end])
            self._source = None
            return payload

    @property
    def decoded(self) -> bool:
        """Whether :attr:`payload` has been decoded (for tests and profiles)."""
        try:
            _PAYLOAD_SLOT.__get__(self)  # the slot itself: does not fall through to __getattr__
        except AttributeError:
            return False
        return True

    def __repr__(self) -> str:
        return (
            f"SourceMessage(payload={self.payload!r}, start={self.start}, end={self.end}, "
            f"line={self.line}, column={self.column}, direction={self.direction!r})"
        )

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, SourceMessage):
            return NotImplemented
        return (self.payload, self.start, self.end, self.line, self.column, self.direction, self.in_batch) == (
            other.payload, other.start, other.end, other.line, other.column, other.direction, other.in_batch
        )  # fmt: skip

    __hash__ = None  # type: ignore[assignment]  # mutable, as the dataclass it replaces


_PAYLOAD_SLOT: Any = SourceMessage.__dict__["payload"]

DETECT_ONLY = "detect only: "
"""How a reader's note on a message starts when the message cannot be rewritten where it is."""


def detect_only(message: SourceMessage) -> str | None:
    """Why ``fix`` cannot rewrite this message (a reader said so in its notes), or ``None``."""
    for note in message.notes:
        if note.startswith(DETECT_ONLY):
            return note.removeprefix(DETECT_ONLY)
    return None


@dataclass(frozen=True, slots=True)
class Problem:
    """A part of the input that is not a message and cannot be passed over silently."""

    code: str  # the MCP3xx rule code that reports it
    message: str
    line: int
    column: int = 1


@dataclass(slots=True)
class Unit:
    """A piece of the input text, with the messages found in it.

    Line formats make one unit per line; document formats make one unit of the
    whole file. Output is the concatenation of every unit's text with its edits
    applied, so a unit with no edits is copied through unchanged.
    """

    text: str
    line: int
    messages: list[SourceMessage] = field(default_factory=list)
    problem: Problem | None = None


@dataclass(frozen=True, slots=True)
class Edit:
    """Replace ``text[start:end]`` of a unit with ``replacement``."""

    start: int
    end: int
    replacement: str


def apply_edits(text: str, edits: list[Edit]) -> str:
    """Apply non-overlapping edits to ``text``.

    Raises:
        ValueError: if two edits overlap.
    """
    if not edits:
        return text
    pieces: list[str] = []
    cursor = 0
    for edit in sorted(edits, key=lambda e: (e.start, e.end)):
        if edit.start < cursor:
            raise ValueError(f"overlapping edits at offset {edit.start}")
        pieces.append(text[cursor : edit.start])
        pieces.append(edit.replacement)
        cursor = edit.end
    pieces.append(text[cursor:])
    return "".join(pieces)
