"""The ``_meta`` / ``data`` keys a rewrite leaves behind, and how to recognise them.

A rewritten response keeps what the server originally sent under a key of ours, so
that a reader (and a later run) can tell a converted answer from one the server sent.
The spec asks ``_meta`` keys to carry a reverse-DNS prefix their owner controls; the
project's is ``io.github.mcp-transcripts`` (its documentation site's domain, reversed).

Files fixed before the rename carry ``dev.mcp-migrate/...`` keys. Both spellings are
recognised, so a file fixed by an older build is never converted back or twice.
"""

from __future__ import annotations

from typing import Any

PREFIX = "io.github.mcp-transcripts/"
ORIGINAL_ERROR = PREFIX + "original-error"
"""Under ``result._meta``: the protocol error a tool result was rewritten from."""
ORIGINAL_RESULT = PREFIX + "original-result"
"""Under ``error.data``: the tool result a protocol error was rewritten from."""

LEGACY_PREFIX = "dev.mcp-migrate/"  # written by releases before the rename
ORIGINAL_ERROR_KEYS = (ORIGINAL_ERROR, LEGACY_PREFIX + "original-error")
ORIGINAL_RESULT_KEYS = (ORIGINAL_RESULT, LEGACY_PREFIX + "original-result")


def _carries(holder: Any, keys: tuple[str, ...]) -> bool:
    return isinstance(holder, dict) and any(key in holder for key in keys)


def rewritten_result(result: Any) -> bool:
    """Is this tool result one a rewrite made from a protocol error?"""
    return isinstance(result, dict) and _carries(result.get("_meta"), ORIGINAL_ERROR_KEYS)


def rewritten_error(error: Any) -> bool:
    """Is this protocol error one a rewrite made from a tool result?"""
    return isinstance(error, dict) and _carries(error.get("data"), ORIGINAL_RESULT_KEYS)
