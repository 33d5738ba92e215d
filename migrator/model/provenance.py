"""The ``_meta`` / ``data`` keys a rewrite leaves behind, and how to recognise them.

A rewritten response keeps what the server originally sent under a key of ours, so
that a reader (and a later run) can tell a converted answer from one the server sent.
The spec asks ``_meta`` keys to carry a reverse-DNS prefix their owner controls; the
project's is ``io.github.mcp-transcripts`` (its documentation site's domain, reversed).

`mcp-transcripts probe` marks each call it sends on purpose under a key of ours as well
(:data:`PROBE_CASE`), so that the rules judging probe calls find them in any recording.

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


PROBE_CASE = PREFIX + "probe-case"
"""Under a tools/call request's ``params._meta``: what the probe's invalid case breaks."""


def probe_case(request: Any) -> dict[str, Any] | None:
    """The probe's description of its case, when this tools/call request is one."""
    params = request.get("params") if isinstance(request, dict) else None
    meta = params.get("_meta") if isinstance(params, dict) else None
    case = meta.get(PROBE_CASE) if isinstance(meta, dict) else None
    return case if isinstance(case, dict) else None
