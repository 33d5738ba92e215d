"""tools/call results read typed, straight from their raw text.

Most results of a tools/call are a list of text blocks, perhaps with a
``structuredContent`` object. Three readers need little of them: MCP202
(is this a valid ``CallToolResult`` of its version?), the classifier (is
``isError`` true?) and MCP204 (is ``structuredContent`` there?). Decoding
the result's raw text (:attr:`migrator.model.jsonrpc.Envelope.result`) with
msgspec into the structs below answers all three without building the
payload as Python objects, so a plain success result is never decoded whole.

The structs accept a strict subset of what every version in
:data:`SCHEMA_VALID_VERSIONS` accepts: text blocks only, no ``_meta``, no
``annotations``, ``isError`` a boolean, ``structuredContent`` absent or an
object. Whatever they refuse goes the full way (payload decoded, schema
validator), which also words the finding. ``tests/test_tool_results.py``
holds the subset to the python-jsonschema oracle.
"""

from __future__ import annotations

from typing import Literal

import msgspec

from migrator.model.units import Kind, SourceMessage

_ABSENT = msgspec.Raw()  # an absent member: a present one is never empty

# The versions whose CallToolResult a PlainToolResult satisfies. From
# 2026-07-28 a result also needs ``resultType``, which the struct does not read.
SCHEMA_VALID_VERSIONS = frozenset({"2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"})


class TextBlock(msgspec.Struct):
    """A text content block; other members are ignored, as the schema allows them.

    Nothing here reads the text, but it is decoded as a ``str``: that is what
    refuses a block whose text is not a string, and it costs fewer instructions
    than keeping the raw JSON and checking its first byte (1.4% of a pass over the
    benchmark's lines, counted with callgrind).
    """

    type: Literal["text"]
    text: str
    annotations: msgspec.Raw = _ABSENT
    meta: msgspec.Raw = msgspec.field(default=_ABSENT, name="_meta")


class PlainToolResult(msgspec.Struct):
    """A tools/call result of text blocks, read without decoding it whole."""

    content: list[TextBlock]
    is_error: bool = msgspec.field(default=False, name="isError")
    structured_content: msgspec.Raw = msgspec.field(default=_ABSENT, name="structuredContent")
    meta: msgspec.Raw = msgspec.field(default=_ABSENT, name="_meta")


_decode = msgspec.json.Decoder(PlainToolResult).decode
_last: tuple[SourceMessage | None, PlainToolResult | None] = (None, None)


def plain_tool_result(message: SourceMessage) -> PlainToolResult | None:
    """The result of a response read typed, or ``None`` when it must be read the full way.

    MCP202, the classifier and MCP204 ask about the same response one after
    the other, so the last answer is kept.
    """
    global _last
    last = _last
    if last[0] is message:
        return last[1]
    plain = _read(message)
    _last = (message, plain)
    return plain


def _read(message: SourceMessage) -> PlainToolResult | None:
    envelope = message.envelope
    if envelope is None or message.kind is not Kind.RESULT:
        return None
    return plain_result(envelope.result)


class PlainCallResponse(msgspec.Struct, forbid_unknown_fields=True):
    """A whole response line that is ``jsonrpc``, ``id`` and a plain tools/call result, no more.

    Decoding a line so reads its envelope and its result in one pass over the
    text, where the envelope first and then :func:`plain_result` would go over
    the result twice (it is most of the line's bytes).
    """

    jsonrpc: object
    id: object
    result: PlainToolResult


_decode_response = msgspec.json.Decoder(PlainCallResponse).decode


def plain_call_response(text: str) -> PlainCallResponse | None:
    """The line read as a :class:`PlainCallResponse`, or ``None`` (then read it envelope first).

    Its result has passed the checks of :func:`plain_result`.
    """
    try:
        response = _decode_response(text)
    except (msgspec.MsgspecError, ValueError, RecursionError):
        return None
    return response if _plain(response.result) else None


def plain_result(raw: msgspec.Raw) -> PlainToolResult | None:
    """A result's raw text read typed, or ``None`` when it must be read the full way."""
    try:
        plain = _decode(raw)
    except (msgspec.MsgspecError, ValueError, RecursionError):  # not the plain shape: the full way
        return None
    return plain if _plain(plain) else None


def _plain(plain: PlainToolResult) -> bool:
    """Whether a decoded result is within the plain subset (what the structs cannot say).

    Run on nearly every result of a file, so its byte checks are written out here
    (a present member's raw text is never empty).
    """
    if plain.meta:
        return False
    structured = plain.structured_content
    if structured and memoryview(structured)[0] != 0x7B:  # present, and not an object
        return False
    for block in plain.content:  # noqa: SIM110 - a loop: any() over a generator costs more
        if block.annotations or block.meta:
            return False
    return True
