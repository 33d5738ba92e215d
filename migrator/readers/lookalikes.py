"""Formats we recognise but do not read, refused with a message that says what to do.

Teams commit recordings of MCP traffic in the formats of whatever tool they
test with. Where such a file would otherwise be half-read by a reader meant
for another shape, or refused with a vague "not a transcript", it is named
instead: which format it looks like, and what to use. A file that carries
JSON-RPC (``"jsonrpc"`` in its first lines) is MCP traffic we cannot read: an
error even met in a folder walk. One that does not is some other API's
recording, passed over quietly in a walk (see
:class:`~migrator.errors.NotATranscriptError`).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass

from migrator.errors import InputError, NotATranscriptError

EXPORT_ADVICE = (
    "not supported; export the session as HAR, or record it as JSONL with 'mcp-transcripts record'"
)
FORCE_ADVICE = "if it is in fact a supported format, --input-format forces one"


@dataclass(frozen=True)
class Lookalike:
    """A format named by the signs that must all appear in a file's first lines."""

    name: str
    signs: tuple[re.Pattern[str], ...]
    advice: str = EXPORT_ADVICE

    def matches(self, head: str) -> bool:
        return all(sign.search(head) for sign in self.signs)


def _signs(*patterns: str) -> tuple[re.Pattern[str], ...]:
    return tuple(re.compile(p, re.MULTILINE) for p in patterns)


LOOKALIKES = (
    Lookalike(
        "a VCR.py cassette (YAML: HTTP interactions whose bodies are strings)",
        _signs(r"^interactions:", r"^\s*-?\s*request:", r"^\s*uri:\s*['\"]?https?://"),
    ),
    Lookalike(
        "a VCR.py cassette (JSON: HTTP interactions whose bodies are strings)",
        _signs(r'"interactions"\s*:', r'"uri"\s*:\s*"https?://'),
    ),
    Lookalike(
        "a Ruby VCR cassette (http_interactions)",
        _signs(r'^http_interactions:|"http_interactions"\s*:'),
    ),
    Lookalike(
        "a nock recording (scope, method, path and status per call)",
        _signs(r'"scope"\s*:\s*"https?://', r'"path"\s*:', r'"status"\s*:'),
    ),
    Lookalike(
        "a Postman collection (requests to send, not traffic)",
        _signs(r"_postman_id|schema\.getpostman\.com"),
        "not supported: it holds no responses",
    ),
    Lookalike(
        "a Chrome DevTools network log (Network.* protocol events)",
        _signs(r'"method"\s*:\s*"Network\.'),
        "not supported; save the Network panel as HAR ('Save all as HAR') and check that",
    ),
    Lookalike("a WARC web archive", _signs(r"\AWARC/1\.[01]\r?$"), EXPORT_ADVICE),
)


def refuse_lookalike(head: list[str]) -> None:
    """Raise for a file whose first lines look like a format we do not read.

    Raises:
        InputError: the file carries JSON-RPC in such a format.
        NotATranscriptError: it does not (another API's recording).
    """
    text = _start(head).lstrip("\ufeff")
    for lookalike in LOOKALIKES:
        if lookalike.matches(text):
            if _starts_with_a_json_line(head):
                return  # JSON-RPC lines (wire or envelope): a format we read, whose arguments may hold any words
            message = f"looks like {lookalike.name}: {lookalike.advice}; {FORCE_ADVICE}"
            if "jsonrpc" in text:
                raise InputError(message, line=1)
            raise NotATranscriptError(message, line=1)


SIGN_WINDOW = 64 * 1024  # the signs are near the top; a 100 MB first line is not searched whole


def _start(head: list[str]) -> str:
    pieces: list[str] = []
    size = 0
    for line in head:
        pieces.append(line[: SIGN_WINDOW - size])
        size += len(pieces[-1])
        if size >= SIGN_WINDOW:
            break
    return "".join(pieces)


def _starts_with_a_json_line(head: list[str]) -> bool:
    """Whether the first line with content is a whole JSON value with a ``jsonrpc`` member, as in JSONL."""
    first = next((line.strip().lstrip("\ufeff") for line in head if line.strip()), "")
    if not first.startswith(("{", "[")) or '"jsonrpc"' not in first:
        return False
    try:
        value = json.loads(first)
    except (ValueError, RecursionError):
        return False
    return isinstance(value, (dict, list)) and bool(value)
