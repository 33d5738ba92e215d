"""Readers: one per transcript format, chosen from the content.

A reader reads *and writes back*: it turns a file into units of text holding
JSON-RPC messages, and writes each unit out again as the engine returns it
(``Reader.emit`` and ``Reader.close``), so an edit inside a HAR body or a YAML
document keeps every other byte. There is no separate writer per format;
:mod:`migrator.fix.writer` only replaces a file atomically.

Add a format by writing a reader (see :class:`~migrator.readers.base.Reader`)
and teaching :func:`detect` to recognise it.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import Enum
from typing import Any

from migrator.errors import NotATranscriptError, UsageError
from migrator.model.units import Problem
from migrator.readers.base import Reader, parse_json_line
from migrator.readers.claudelog import ClaudeLogReader, looks_like_claude_log
from migrator.readers.envelope import EnvelopeLayout, EnvelopeReader, detect_layout
from migrator.readers.har import HarReader, looks_like_har
from migrator.readers.jsondoc import JsonDocumentReader, looks_like_document
from migrator.readers.lookalikes import refuse_lookalike
from migrator.readers.otlp import OtlpJsonReader, looks_like_otlp
from migrator.readers.txtar import TxtarReader, looks_like_txtar
from migrator.readers.wire import WireReader, looks_like_message
from migrator.readers.yamlfile import YamlReader, looks_like_yaml

__all__ = ["Detection", "InputFormat", "Reader", "detect", "make_reader"]

SAMPLE_LINES = 64


class InputFormat(str, Enum):
    """The values of ``--input-format``."""

    AUTO = "auto"
    WIRE = "wire"
    ENVELOPE = "envelope"
    JSON = "json"
    YAML = "yaml"
    HAR = "har"
    CLAUDE_LOG = "claude-log"
    TXTAR = "txtar"
    OTLP_JSON = "otlp-json"


@dataclass(frozen=True)
class Detection:
    """The reader chosen for a file and why."""

    reader: Reader
    reason: str


def _sample(head: Iterable[str]) -> list[Any]:
    values: list[Any] = []
    for line_no, text in enumerate(head, start=1):
        parsed = parse_json_line(text, line_no)
        if parsed is None or isinstance(parsed, Problem):
            continue
        values.append(parsed[0])
    return values


def detect(head: list[str], forced: InputFormat = InputFormat.AUTO) -> Detection:
    """Choose the reader for a file from its first lines.

    Args:
        head: up to :data:`SAMPLE_LINES` first lines of the file.
        forced: the ``--input-format`` the user asked for.

    Raises:
        UsageError: if an envelope file was forced but no message key is found.
    """
    if forced is InputFormat.JSON:
        return Detection(JsonDocumentReader(), "forced by --input-format json")
    if forced in _WHOLE_FORMATS:
        return Detection(_WHOLE_FORMATS[forced](), f"forced by --input-format {forced.value}")
    if forced is InputFormat.AUTO:
        if looks_like_otlp(head):
            return Detection(
                OtlpJsonReader(), "an OpenTelemetry trace (OTLP JSON export requests): MCP spans"
            )
        # Formats we recognise but cannot read are refused before anything tries them.
        refuse_lookalike(head)
        # HAR before JSON documents (a HAR file is one); the line formats after them.
        if looks_like_txtar(head):
            return Detection(
                TxtarReader(), "a txtar archive: messages in its client and server files"
            )
        if looks_like_har(head):
            return Detection(
                HarReader(), "a HAR file (HTTP Archive): messages in request and response bodies"
            )
        if looks_like_document(head):
            return Detection(JsonDocumentReader(), "a JSON document spanning several lines")
        if looks_like_claude_log(head):
            return Detection(
                ClaudeLogReader(),
                "a Claude Desktop MCP log: messages after 'Message from client/server:'",
            )
        if looks_like_yaml(head):
            return Detection(YamlReader(), "a YAML document with JSON-RPC members")
    values = _sample(head)
    content = [n for n, text in enumerate(head, start=1) if text.strip()]
    attempts = any(text.lstrip(" \t\ufeff").startswith(("{", "[")) for text in head)
    if forced is InputFormat.AUTO and content and not values and not attempts:
        # Not one line even tries to be JSON: a README, a CI configuration.
        raise NotATranscriptError(
            "not a transcript: none of the first lines is JSON, and it is no other format that "
            "holds MCP traffic (a JSON document, YAML with jsonrpc:, method: or request: members, "
            "HAR, a Claude Desktop log, txtar); --input-format forces one",
            line=content[0],
        )
    layout = detect_layout(values)
    if forced is InputFormat.WIRE:
        return Detection(WireReader(), "forced by --input-format wire")
    if forced is InputFormat.ENVELOPE:
        if layout is None:
            raise UsageError(
                "--input-format envelope: no line wraps a JSON-RPC message under any of the keys "
                "message, msg, payload, data, body, json, rpc"
            )
        return Detection(EnvelopeReader(layout), "forced by --input-format envelope")
    wire_votes = sum(1 for v in values if looks_like_message(v))
    if layout is not None and wire_votes * 2 < len(values):
        return Detection(EnvelopeReader(layout), _describe(layout))
    return Detection(WireReader(), "lines are JSON-RPC messages")


_WHOLE_FORMATS: dict[InputFormat, type[Reader]] = {
    InputFormat.YAML: YamlReader,
    InputFormat.HAR: HarReader,
    InputFormat.CLAUDE_LOG: ClaudeLogReader,
    InputFormat.TXTAR: TxtarReader,
    InputFormat.OTLP_JSON: OtlpJsonReader,
}


def _describe(layout: EnvelopeLayout) -> str:
    where = f"messages under {layout.message_key!r}"
    if layout.direction_key:
        labels = ", ".join(f"{k}={v.short}" for k, v in sorted(layout.labels.items()))
        return f"envelope lines: {where}, direction from {layout.direction_key!r} ({labels})"
    return f"envelope lines: {where}, no direction key (directions inferred)"


def make_reader(name: str, layout: EnvelopeLayout | None = None) -> Reader:
    """Build a reader by format name (used by tests and the Python API)."""
    if name == InputFormat.WIRE.value:
        return WireReader()
    if name == InputFormat.ENVELOPE.value and layout is not None:
        return EnvelopeReader(layout)
    raise UsageError(f"no reader for format {name!r}")
