"""tools/call requests read typed, straight from the raw text of their ``params``.

Nearly every tools/call request a transcript holds is ``{"name": ..., "arguments":
{...}}`` and nothing else. The one-pass core (:mod:`migrator.engine.onepass`)
reads such params with one msgspec decode into :class:`PlainCallParams` and the
arguments with orjson (the decoder the full path uses, so the values are the
same objects), and shares the result with every rule that reads the call.

The struct accepts a strict subset of what a ``CallToolRequest`` of every version
in :data:`PLAIN_CALL_VALID_VERSIONS` accepts: no ``_meta`` (so no probe case and no
per-request protocol version), no other member, ``arguments`` absent or an object.
Whatever it refuses goes the full way. ``tests/test_onepass.py`` holds the subset
to the python-jsonschema oracle.
"""

from __future__ import annotations

from typing import Any, Literal

import msgspec
import orjson

_ABSENT = msgspec.Raw()  # an absent member: a present one is never empty

# The versions whose CallToolRequest a plain call satisfies. From 2026-07-28 the
# params also need ``_meta`` (the per-request protocol version), which a plain call lacks.
PLAIN_CALL_VALID_VERSIONS = frozenset({"2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"})


class PlainCallParams(msgspec.Struct, forbid_unknown_fields=True):
    """The params of a tools/call request that has a name, maybe arguments, and no more."""

    name: str
    arguments: msgspec.Raw = _ABSENT


_decode = msgspec.json.Decoder(PlainCallParams).decode
NO_ARGUMENTS: Any = None
"""What :func:`plain_call` gives for arguments when the request sent none."""


class CallRequest(msgspec.Struct):
    """A whole tools/call request line whose params are plain, read in one decode.

    ``method`` must be there and be tools/call (at each of its occurrences: a line
    that also names another method is refused). Other members are ignored, as the
    envelope ignores them. Decoding a request so reads its envelope and its params
    in one pass over the text, where the envelope first and then :func:`plain_call`
    would go over the params twice.
    """

    method: Literal["tools/call"]
    jsonrpc: Any = msgspec.UNSET
    id: Any = msgspec.UNSET
    params: PlainCallParams | None = None


_decode_request = msgspec.json.Decoder(CallRequest).decode


def plain_call_request(text: str) -> CallRequest | None:
    """The line read as a :class:`CallRequest`, or ``None`` (then read it envelope first).

    A request decoded so has the same id, ``jsonrpc`` and params as its envelope and
    :func:`plain_call` give: msgspec keeps the last of a member given twice, as the
    envelope does, and refuses the line if any ``method`` is not tools/call.
    """
    try:
        return _decode_request(text)
    except (msgspec.MsgspecError, ValueError, RecursionError):
        return None


def plain_call(params: msgspec.Raw) -> tuple[str, Any] | None:
    """The tool name and arguments of plain call params, or ``None`` for the full way.

    The arguments are a ``dict`` (decoded as the full path decodes them), or
    :data:`NO_ARGUMENTS` when the member is absent.
    """
    if not params:
        return None
    try:
        plain = _decode(params)
    except (msgspec.MsgspecError, ValueError, RecursionError):
        return None
    return plain_arguments(plain)


def plain_arguments(plain: PlainCallParams) -> tuple[str, Any] | None:
    """The tool name and arguments of decoded plain params (``None``: arguments not an object)."""
    raw = plain.arguments
    if not raw:
        return plain.name, NO_ARGUMENTS
    try:
        arguments = orjson.loads(bytes(raw))
    except ValueError:  # a value orjson refuses: the full path has its own decoder
        return None
    if type(arguments) is not dict:  # not an object (its raw text would not start with "{")
        return None
    return plain.name, arguments
