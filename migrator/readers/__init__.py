"""Readers: one per transcript format, chosen from the content.

A reader reads *and writes back*: it turns a file into units of text holding
JSON-RPC messages, and writes each unit out again as the engine returns it
(``Reader.emit`` and ``Reader.close``), so an edit inside a HAR body or a YAML
document keeps every other byte. There is no separate writer per format;
:mod:`migrator.fix.writer` only replaces a file atomically.

Add a format by writing a reader (see :class:`~migrator.readers.base.Reader`) with a
function that recognises it from a file's first lines, and one member of
:class:`InputFormat`, the format table: detection, the folder walk, ``--input-format``
and the ``--help`` text all read it.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterable
from dataclasses import dataclass
from enum import Enum
from fnmatch import fnmatchcase
from pathlib import PurePath
from typing import TYPE_CHECKING, Any

from migrator.errors import NotATranscriptError, UsageError
from migrator.model.units import Problem
from migrator.readers.base import Reader, parse_json_line

if TYPE_CHECKING:
    from migrator.readers.envelope import EnvelopeLayout

__all__ = [
    "FORMATS", "Detection", "FormatSpec", "InputFormat", "Reader", "detect", "is_walked",
    "make_reader", "walked_patterns",
]  # fmt: skip

SAMPLE_LINES = 64


@dataclass(frozen=True)
class FormatSpec:
    """How one input format is recognised, walked and read: its row of the format table.

    The reader and its recogniser are named as ``module:attribute`` inside this package
    and imported on first use, so that the table (``--help``, the folder walk) costs no
    reader's import.
    """

    title: str  # how messages and --help name it
    walked: tuple[str, ...]  # file-name patterns a folder walk takes for it (also as .gz)
    reader: str | None = None  # "txtar:TxtarReader"; None: the line formats, chosen from a sample
    looks_like: str | None = None  # "txtar:looks_like_txtar": recognises it from the first lines
    found: str = ""  # what --verbose says when the content was recognised

    def make_reader(self) -> Reader:
        """A new reader of this format."""
        assert self.reader is not None, f"{self.title} is chosen from a sample, not made"
        made: Reader = _load(self.reader)()
        return made

    def recognises(self, head: list[str]) -> bool:
        """Whether a file's first lines are this format's."""
        return self.looks_like is not None and bool(_load(self.looks_like)(head))


def _load(name: str) -> Any:
    module, _, attribute = name.partition(":")
    return getattr(importlib.import_module(f"migrator.readers.{module}"), attribute)


_LINES = ("*.jsonl", "*.ndjson", "*.jsonlines")
_LOGS = ("*.log",)  # any program's log: read only when a log format, or JSON-RPC lines, are in it


class InputFormat(str, Enum):
    """The values of ``--input-format``, each with its row of the format table.

    The members are in the order detection tries them: the formats recognised from
    their first lines, then the line formats (wire or envelope JSONL), which are told
    apart by a sample. Adding a format is a reader module and one member here.
    """

    spec: FormatSpec | None

    def __new__(cls, value: str, spec: FormatSpec | None = None) -> InputFormat:
        member = str.__new__(cls, value)
        member._value_ = value
        member.spec = spec
        return member

    AUTO = "auto"
    OTLP_JSON = "otlp-json", FormatSpec(
        "OpenTelemetry trace (OTLP JSON)", (*_LINES, "*.json"), "otlp:OtlpJsonReader", "otlp:looks_like_otlp",
        "an OpenTelemetry trace (OTLP JSON export requests): MCP spans",
    )  # fmt: skip
    TXTAR = "txtar", FormatSpec(
        "txtar", ("*.txtar",), "txtar:TxtarReader", "txtar:looks_like_txtar",
        "a txtar archive: messages in its client and server files",
    )  # fmt: skip
    # HAR before JSON documents: a HAR file is one.
    HAR = "har", FormatSpec(
        "HAR", ("*.har",), "har:HarReader", "har:looks_like_har",
        "a HAR file (HTTP Archive): messages in request and response bodies",
    )  # fmt: skip
    SUPERGATEWAY = "supergateway", FormatSpec(
        "supergateway log", _LOGS, "supergateway:SupergatewayReader", "supergateway:looks_like_supergateway",
        "a supergateway log: messages after 'StreamableHttp/SSE/WebSocket → Child' and 'Child → ...'",
    )  # fmt: skip
    # The JSON-record gateway logs before JSON documents and the line formats: their
    # records are JSON lines, recognised by the members only they have.
    KONG = "kong", FormatSpec(
        "Kong AI MCP Proxy log", (*_LINES, *_LOGS, "*.json"), "kong:KongReader", "kong:looks_like_kong",
        "Kong log records: messages in ai.mcp.rpc[].payload request and response strings",
    )  # fmt: skip
    OBOT = "obot", FormatSpec(
        "Obot audit log", (*_LINES,), "obot:ObotReader", "obot:looks_like_obot",
        "an Obot MCP audit log export: messages in requestBody and responseBody",
    )  # fmt: skip
    AGENTGATEWAY = "agentgateway", FormatSpec(
        "agentgateway access log", (*_LINES, *_LOGS), "agentgateway:AgentgatewayReader", "agentgateway:looks_like_agentgateway",
        "an agentgateway access log: tools/call exchanges put together from mcp.* attributes",
    )  # fmt: skip
    JSON = "json", FormatSpec(
        "JSON document", ("*.json",), "jsondoc:JsonDocumentReader", "jsondoc:looks_like_document",
        "a JSON document spanning several lines",
    )  # fmt: skip
    CLAUDE_LOG = "claude-log", FormatSpec(
        "Claude Desktop log", ("mcp*.log",), "claudelog:ClaudeLogReader", "claudelog:looks_like_claude_log",
        "a Claude Desktop MCP log: messages after 'Message from client/server:'",
    )  # fmt: skip
    YAML = "yaml", FormatSpec(
        "YAML with jsonrpc:, method: or request: members", ("*.yaml", "*.yml"),
        "yamlfile:YamlReader", "yamlfile:looks_like_yaml",
        "a YAML document with JSON-RPC members",
    )  # fmt: skip
    WIRE = "wire", FormatSpec("wire JSONL", _LINES)
    ENVELOPE = "envelope", FormatSpec("envelope JSONL", _LINES)


FORMATS: tuple[InputFormat, ...] = tuple(f for f in InputFormat if f.spec is not None)
"""Every input format, in the order detection tries them."""


def walked_patterns() -> list[str]:
    """The file-name patterns a folder walk takes, once each, in table order (``.gz`` too)."""
    return list(dict.fromkeys(p for f in FORMATS if f.spec for p in f.spec.walked))


def is_walked(name: str) -> bool:
    """Whether a file of this name, met in a folder, may hold one of the formats."""
    plain = name.removesuffix(".gz")  # compressed transcripts and traces are read too
    return any(fnmatchcase(plain, pattern) for pattern in walked_patterns())


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


def detect(head: list[str], forced: InputFormat = InputFormat.AUTO, name: str = "") -> Detection:
    """Choose the reader for a file from its first lines.

    Args:
        head: up to :data:`SAMPLE_LINES` first lines of the file.
        forced: the ``--input-format`` the user asked for.
        name: the file's name: a ``*.log`` that no log format recognises is read as
            JSON-RPC lines only when its lines are JSON-RPC messages.

    Raises:
        UsageError: if an envelope file was forced but no message key is found.
    """
    from migrator.readers.envelope import EnvelopeReader, detect_layout
    from migrator.readers.lookalikes import refuse_lookalike
    from migrator.readers.wire import WireReader, looks_like_message

    spec = forced.spec
    if spec is not None and spec.reader is not None:
        return Detection(spec.make_reader(), f"forced by --input-format {forced.value}")
    if forced is InputFormat.AUTO:
        recognised = [f.spec for f in FORMATS if f.spec and f.spec.looks_like]
        first, rest = recognised[0], recognised[1:]  # traces first: nothing else reads them
        for candidate in (first, None, *rest):
            if candidate is None:
                # Formats we recognise but cannot read are refused before anything tries them.
                refuse_lookalike(head)
                continue
            if candidate.recognises(head):
                return Detection(candidate.make_reader(), candidate.found)
    values = _sample(head)
    content = [n for n, text in enumerate(head, start=1) if text.strip()]
    attempts = any(text.lstrip(" \t\ufeff").startswith(("{", "[")) for text in head)
    if forced is InputFormat.AUTO and content and not values and not attempts:
        # Not one line even tries to be JSON: a README, a CI configuration.
        known = ", ".join(spec.title for spec in rest)
        raise NotATranscriptError(
            "not a transcript: none of the first lines is JSON, and it is no other format that "
            f"holds MCP traffic ({known}); --input-format forces one",
            line=content[0],
        )
    layout = detect_layout(values)
    if (
        forced is InputFormat.AUTO
        and _is_log(name)
        and layout is None
        and not any(map(looks_like_message, values))
    ):
        # An application's own log (JSON lines or text), met among transcripts: not ours.
        raise NotATranscriptError(
            "not an MCP log: no known log format matches and no line is a JSON-RPC message",
            line=content[0] if content else 1,
        )
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


def _is_log(name: str) -> bool:
    plain = PurePath(name).name.removesuffix(".gz")
    return any(fnmatchcase(plain, pattern) for pattern in _LOGS)


def _describe(layout: EnvelopeLayout) -> str:
    where = f"messages under {layout.message_key!r}"
    if layout.direction_key:
        labels = ", ".join(f"{k}={v.short}" for k, v in sorted(layout.labels.items()))
        return f"envelope lines: {where}, direction from {layout.direction_key!r} ({labels})"
    return f"envelope lines: {where}, no direction key (directions inferred)"


def make_reader(name: str, layout: EnvelopeLayout | None = None) -> Reader:
    """Build a reader by format name (used by tests and the Python API)."""
    from migrator.readers.envelope import EnvelopeReader
    from migrator.readers.wire import WireReader

    if name == InputFormat.WIRE.value:
        return WireReader()
    if name == InputFormat.ENVELOPE.value and layout is not None:
        return EnvelopeReader(layout)
    raise UsageError(f"no reader for format {name!r}")
