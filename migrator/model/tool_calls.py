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

from typing import Any

import msgspec
import orjson

from migrator.model.jsonrpc import object_starts

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
    raw = plain.arguments
    if not raw:
        return plain.name, NO_ARGUMENTS
    if not object_starts(raw):
        return None
    try:
        arguments = orjson.loads(bytes(raw))
    except ValueError:  # a value orjson refuses: the full path has its own decoder
        return None
    return plain.name, arguments
