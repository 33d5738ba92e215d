"""Envelope first, payload on demand.

Most messages of a transcript are looked at by no rule beyond their JSON-RPC
envelope: a progress notification, a ping, the result of a resource read. So a
line is first decoded, in one C call, into an :class:`Envelope`: ``jsonrpc``,
``id`` and ``method`` as values, ``params``, ``result`` and ``error`` as
:class:`msgspec.Raw` byte spans that are skipped, not turned into Python
objects. The whole payload is decoded only when a rule (or the session model)
asks for it, through :attr:`migrator.model.units.SourceMessage.payload`.

The fast path must never change a verdict, so it only takes what it can hand
over exactly: a line that starts with ``{`` and that msgspec decodes as one
object. Everything else (a batch, a scalar, a line with a byte-order mark, a
number too large, anything msgspec refuses) goes the exact way, with the
strict decoder, which also words the MCP301 problem and its column.
"""

from __future__ import annotations

from typing import Any

import msgspec

from migrator.model.units import Direction, Kind, SourceMessage

UNSET: Any = msgspec.UNSET
_ABSENT = msgspec.Raw()  # an absent payload member: a present one is never empty
_JSON_WHITESPACE = " \t\r\n"


class Envelope(msgspec.Struct):
    """The members of a JSON-RPC message that decide what it is."""

    jsonrpc: Any = UNSET
    id: Any = UNSET
    method: Any = UNSET
    params: msgspec.Raw = _ABSENT
    result: msgspec.Raw = _ABSENT
    error: msgspec.Raw = _ABSENT


_decode = msgspec.json.Decoder(Envelope).decode
decode_envelope = _decode
"""A line's :class:`Envelope` (raises ``msgspec.MsgspecError`` or ``ValueError`` when it is not one)."""


def envelope_kind(envelope: Envelope) -> Kind:
    """What the message is, from its members alone (as :func:`~migrator.model.units.message_kind`)."""
    method = envelope.method
    if method is not UNSET:
        if type(method) is not str:
            return Kind.INVALID
        return Kind.REQUEST if envelope.id is not UNSET else Kind.NOTIFICATION
    if envelope.id is not UNSET:
        has_result, has_error = bool(envelope.result), bool(envelope.error)
        if has_result and not has_error:
            return Kind.RESULT
        if has_error and not has_result:
            return Kind.ERROR
    return Kind.INVALID


def envelope_message(
    text: str, line_no: int, direction: Direction | None = None
) -> SourceMessage | None:
    """The message of a line that is one JSON object, decoded envelope first.

    Returns ``None`` when the line is not for the fast path; the caller then
    parses it the exact way. The span is the line without its trailing
    whitespace, as the exact path makes it.
    """
    if text[:1] != "{":
        return None
    try:
        envelope = _decode(text)
    except (
        msgspec.MsgspecError,
        ValueError,
        RecursionError,
    ):  # the exact path decides, and words it
        return None
    if type(envelope.id) is int and not fits_json_int(envelope.id):
        return None  # the exact decoder reads it as a float: let it, so both agree on the id
    end = len(text)
    while end and text[end - 1] in _JSON_WHITESPACE:
        end -= 1
    return SourceMessage.undecoded(
        text, 0, end, line_no, direction, envelope_kind(envelope), envelope
    )


SMALLEST_JSON_INT, BIGGEST_JSON_INT = -(1 << 63), (1 << 64) - 1


def fits_json_int(value: int) -> bool:
    """Whether the JSON parser of the exact path (orjson) reads this integer as an integer.

    Beyond 64 bits it reads a float, while msgspec keeps the integer; an id
    decoded both ways must be the same id, so such lines take the exact path.
    """
    return SMALLEST_JSON_INT <= value <= BIGGEST_JSON_INT


def object_starts(raw: msgspec.Raw) -> bool:
    """Whether a payload member's text is a JSON object (its first byte is ``{``)."""
    view = memoryview(raw)
    return len(view) > 0 and view[0] == 0x7B


class ErrorMembers(msgspec.Struct):
    """The members of a JSON-RPC error object that decide whether it is well formed."""

    code: Any = UNSET
    message: Any = UNSET


_decode_error = msgspec.json.Decoder(ErrorMembers).decode


def well_formed_error(raw: msgspec.Raw) -> bool:
    """Whether an error object is well formed (an integer code, a string message), read typed.

    ``False`` sends the response the full way, where MCP201 words what is wrong.
    """
    try:
        members = _decode_error(raw)
    except (msgspec.MsgspecError, ValueError, RecursionError):
        return False
    code = members.code
    code_type = type(code)
    return type(members.message) is str and (
        code_type is int or (code_type is float and code.is_integer())
    )
