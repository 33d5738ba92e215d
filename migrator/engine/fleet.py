"""The fleet view: per server, how it answers ``tools/call`` arguments that fail validation.

``check`` reports findings line by line; ``report`` asks one question per *server*:
has it moved to SEP-1303 (an invalid call gets a tool result with ``isError: true``)
or does it still answer with a JSON-RPC error? The pipeline feeds each file's
:class:`ServerSightings` as the file streams by (every tools/call verdict, every
initialize, every MCP span of a trace), and :class:`Fleet` merges the files' sightings
as the runner hands them over. Each server's record has a fixed upper size (a few
examples, capped lists), so a fleet of thousands of files and millions of messages
is read in memory that grows with the number of servers only.

A server is named by what the traffic says about itself:

* ``serverInfo`` of the ``initialize`` result (name and version): ``identified_by`` is
  ``"serverInfo"``;
* in a trace, the service of a server span (``service.name``/``service.version`` of
  its resource) or the address a client span names: ``"trace"``;
* otherwise the file the traffic is in: ``"file"``; the report says so.

The evidence, per answer to a ``tools/call``:

* ``is_error``: an ``isError`` result whose text reads as an input-validation
  failure (the wording reader knows each SDK's words): the migrated answer;
* ``protocol_error``: a JSON-RPC error the classifier judged an input-validation
  failure (what MCP101/MCP401 report): the old answer;
* ``ambiguous``: a JSON-RPC error that may or may not be about the arguments
  (MCP103); counted, never decisive.

An ``isError`` result that reads as a tool failure ("Division by zero") is no
evidence either way: servers of both generations send those.
"""

from __future__ import annotations

import datetime as dt
import re
from collections import Counter
from dataclasses import dataclass, field
from enum import Enum
from typing import Any, Protocol

from migrator.judge.classify import ArgumentChecker, Outcome, Verdict, classify, first_text
from migrator.judge.wording import MessageKind, WordingReader
from migrator.model.session import Exchange
from migrator.model.spans import Operation, as_exchange
from migrator.rules.page import DOCS_URL, page_url


class ReadFile(Protocol):
    """What :meth:`Fleet.add` reads of a :class:`~migrator.engine.results.FileReport`.

    A protocol, not the class: ``results`` holds the sightings, so importing it here
    would make an import circle.
    """

    path: str
    messages: int
    servers: ServerSightings | None

    @property
    def findings(self) -> Any: ...  # a FindingList: cleared once merged


__all__ = [
    "EVIDENCE_KINDS",
    "Example",
    "Fleet",
    "ServerKey",
    "ServerRecord",
    "ServerSightings",
    "ServerVerdict",
    "compare",
]

REPORT_FORMAT_VERSION = 1
"""The version of the JSON document (``schemas/report.schema.json``)."""

IS_ERROR = "is_error"
PROTOCOL_ERROR = "protocol_error"
AMBIGUOUS = "ambiguous"
EVIDENCE_KINDS = (IS_ERROR, PROTOCOL_ERROR)
"""The two kinds of answer that decide a verdict."""

MAX_LISTED = 10  # files and places listed per server; the counts stay exact
MAX_TOOLS = 200  # tools tracked per server; more are counted as "other tools"
MAX_EXAMPLE_TEXT = 300
MAX_DAYS = 400  # days kept in a server's timeline (the most recent ones)
OTHER_TOOLS = "(other tools)"

GUIDE_URL = f"{DOCS_URL}guide/servers/"


class ServerVerdict(str, Enum):
    """What a server's answers show."""

    MIGRATED = "migrated"  # input-validation failures answered as isError results
    NOT_MIGRATED = "not-migrated"  # answered as JSON-RPC errors
    MIXED = "mixed"  # both seen
    NO_EVIDENCE = "no-evidence"  # no invalid call seen: a probe would tell


VERDICT_ORDER = (
    ServerVerdict.NOT_MIGRATED,
    ServerVerdict.MIXED,
    ServerVerdict.NO_EVIDENCE,
    ServerVerdict.MIGRATED,
)
"""Worst first: the order servers are listed in."""


@dataclass(frozen=True, order=True)
class ServerKey:
    """Who a server is, as far as the traffic tells."""

    name: str
    version: str | None
    identified_by: str  # "serverInfo", "trace" or "file"


@dataclass
class Example:
    """One answer, to show what a kind of evidence looks like."""

    path: str
    line: int
    request_line: int | None
    tool: str | None
    text: str
    error_code: int | None = None
    seen: str | None = None

    def as_dict(self) -> dict[str, Any]:
        """The example as the JSON document writes it."""
        return {
            "path": self.path,
            "line": self.line,
            "request_line": self.request_line,
            "tool": self.tool,
            "text": self.text,
            "error_code": self.error_code,
            "seen": self.seen,
        }


@dataclass
class ServerRecord:
    """Everything the report says about one server; merges across files."""

    key: ServerKey
    files: int = 0
    file_sample: list[str] = field(default_factory=list)
    calls: int = 0  # answers to tools/call seen
    counts: Counter[str] = field(default_factory=Counter)  # is_error, protocol_error, ambiguous
    tools: dict[str, Counter[str]] = field(default_factory=dict)
    first_seen: str | None = None
    last_seen: str | None = None
    dialects: Counter[str] = field(default_factory=Counter)  # wording of the evidence
    protocol_versions: Counter[str] = field(default_factory=Counter)
    examples: dict[str, Example] = field(default_factory=dict)
    places: dict[str, list[str]] = field(default_factory=dict)  # kind -> "path:line", capped
    timeline: Counter[tuple[str, str]] = field(default_factory=Counter)  # (day, kind) -> count
    traced: bool = False  # seen in a trace (its rule is MCP401, not MCP101)

    @property
    def verdict(self) -> ServerVerdict:
        """The verdict the evidence supports."""
        migrated, old = self.counts[IS_ERROR], self.counts[PROTOCOL_ERROR]
        if migrated and old:
            return ServerVerdict.MIXED
        if old:
            return ServerVerdict.NOT_MIGRATED
        if migrated:
            return ServerVerdict.MIGRATED
        return ServerVerdict.NO_EVIDENCE

    def seen_at(self, when: str | None) -> None:
        """Widen the first/last seen range (ISO 8601 UTC strings compare as times)."""
        if when is None:
            return
        if self.first_seen is None or when < self.first_seen:
            self.first_seen = when
        if self.last_seen is None or when > self.last_seen:
            self.last_seen = when

    def add_evidence(self, kind: str, tool: str | None, example: Example) -> None:
        """Count one answer of ``kind``; keep it as the example when it is the first."""
        self.counts[kind] += 1
        name = tool if tool is not None else "(no name)"
        if name not in self.tools and len(self.tools) >= MAX_TOOLS:
            name = OTHER_TOOLS
        self.tools.setdefault(name, Counter())[kind] += 1
        self.examples.setdefault(kind, example)
        places = self.places.setdefault(kind, [])
        where = f"{example.path}:{example.line}"
        if len(places) < MAX_LISTED and where not in places:
            places.append(where)
        if example.seen is not None:
            self.timeline[example.seen[:10], kind] += 1
            if len(self.timeline) > MAX_DAYS * 3:
                self._trim_timeline()

    def _trim_timeline(self) -> None:
        days = sorted({day for day, _ in self.timeline})
        dropped = set(days[: len(days) - MAX_DAYS])
        for entry in [e for e in self.timeline if e[0] in dropped]:
            del self.timeline[entry]

    def merge(self, other: ServerRecord) -> None:
        """Add another file's record of the same server."""
        self.files += other.files
        for path in other.file_sample:
            if len(self.file_sample) < MAX_LISTED and path not in self.file_sample:
                self.file_sample.append(path)
        self.calls += other.calls
        self.counts.update(other.counts)
        for tool, counts in other.tools.items():
            name = tool if tool in self.tools or len(self.tools) < MAX_TOOLS else OTHER_TOOLS
            self.tools.setdefault(name, Counter()).update(counts)
        self.seen_at(other.first_seen)
        self.seen_at(other.last_seen)
        self.traced = self.traced or other.traced
        self.dialects.update(other.dialects)
        self.protocol_versions.update(other.protocol_versions)
        for kind, example in other.examples.items():
            self.examples.setdefault(kind, example)
        for kind, places in other.places.items():
            mine = self.places.setdefault(kind, [])
            mine.extend(p for p in places if p not in mine)
            del mine[MAX_LISTED:]
        self.timeline.update(other.timeline)
        if len(self.timeline) > MAX_DAYS * 3:
            self._trim_timeline()


# --------------------------------------------------------------------------------------------
# What one file shows


_TIMESTAMP = re.compile(
    r'"(?:ts|timestamp|time|startedDateTime|@timestamp)"\s*:\s*"(?P<when>\d{4}-\d{2}-\d{2}[T ][^"]{0,40})"'
)


def timestamp_around(text: str, start: int, end: int) -> str | None:
    """The time a message was recorded: an ISO 8601 member of its envelope, in UTC.

    Only the text around the message is read (``text[:start]`` and ``text[end:]``):
    a ``"ts"`` inside the message's own arguments is not when it was sent.
    """
    for part in (text[:start], text[end:]):
        if not part:
            continue
        match = _TIMESTAMP.search(part)
        if match is not None:
            return normalise_time(match.group("when"))
    return None


def normalise_time(value: str) -> str | None:
    """``2026-12-02T17:37:22Z``: second precision, UTC (a time without a zone is taken as UTC)."""
    try:
        when = dt.datetime.fromisoformat(value.replace("Z", "+00:00").replace("z", "+00:00"))
    except ValueError:
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=dt.timezone.utc)
    return when.astimezone(dt.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def _clip(text: str) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= MAX_EXAMPLE_TEXT else flat[: MAX_EXAMPLE_TEXT - 3] + "..."


_VALIDATION_WORDS = frozenset({MessageKind.VALIDATION, MessageKind.GENERIC_VALIDATION})


class ServerSightings:
    """What one file shows about the servers in it; filled by the pipeline as it streams.

    Picklable (it travels back from worker processes inside the
    :class:`~migrator.engine.results.FileReport`).
    """

    def __init__(self, path: str) -> None:
        self.path = path
        self.records: dict[ServerKey, ServerRecord] = {}
        self._spans_counted: dict[tuple[str, str], tuple[ServerKey, str]] = {}

    def _record(self, key: ServerKey) -> ServerRecord:
        record = self.records.get(key)
        if record is None:
            record = self.records[key] = ServerRecord(key, files=1, file_sample=[self.path])
        return record

    def _file_key(self) -> ServerKey:
        return ServerKey(self.path, None, "file")

    # Transcripts ----------------------------------------------------------------------------

    def exchange(self, exchange: Exchange, verdict: Verdict | None, unit_text: str) -> None:
        """Take one completed exchange (with the classifier's verdict on a tools/call)."""
        method = exchange.method
        if method != "initialize" and method != "tools/call":
            return
        session = exchange.session
        key = (
            ServerKey(session.server_name, session.server_version, "serverInfo")
            if session.server_name is not None
            else self._file_key()
        )
        if method == "initialize" and session.server_name is None:
            return  # an initialize that failed or did not name its server: nothing learned
        response = exchange.response
        record = self._record(key)
        seen = timestamp_around(unit_text, response.start, response.end)
        record.seen_at(seen)
        if exchange.version is not None:
            record.protocol_versions[exchange.version] += 1
        if method == "initialize" or verdict is None:
            return
        record.calls += 1
        kind = self._kind(exchange, verdict)
        if kind is None:
            return
        payload = response.payload
        error = payload.get("error")
        if kind == IS_ERROR:
            text, code = first_text(payload["result"]) or "", None
        else:
            text = str(error.get("message", "")) if isinstance(error, dict) else ""
            raw_code = error.get("code") if isinstance(error, dict) else None
            code = raw_code if isinstance(raw_code, int) else None
        if verdict.reading is not None and kind != AMBIGUOUS:
            record.dialects[verdict.reading.dialect] += 1
        request = exchange.request
        example = Example(
            self.path,
            response.line,
            request.line if request is not None else None,
            verdict.tool,
            _clip(text),
            code,
            seen,
        )
        record.add_evidence(kind, verdict.tool, example)

    @staticmethod
    def _kind(exchange: Exchange, verdict: Verdict) -> str | None:
        payload = exchange.response.payload
        if "error" in payload:
            if verdict.outcome is Outcome.INPUT_VALIDATION:
                return PROTOCOL_ERROR
            if verdict.outcome is Outcome.AMBIGUOUS:
                return AMBIGUOUS
            return None
        result = payload.get("result")
        if (
            verdict.outcome is Outcome.TOOL_RESULT
            and isinstance(result, dict)
            and result.get("isError") is True
            and verdict.reading is not None
            and verdict.reading.kind in _VALIDATION_WORDS
        ):
            return IS_ERROR
        return None

    # Traces ---------------------------------------------------------------------------------

    _checker = ArgumentChecker()
    _reader = WordingReader()

    def span(self, op: Operation) -> None:
        """Take one MCP span of a trace (before its attributes are released)."""
        key = self._span_key(op)
        record = self._record(key)
        record.traced = True
        if op.version is not None:
            record.protocol_versions[op.version] += 1
        if op.method != "tools/call":
            return
        span = op.span
        peer = op.peer
        if peer is not None and (peer.span.trace_id, peer.span.span_id) in self._spans_counted:
            # The other side of this call was counted; a server span names the server
            # better than a client span does, so the count moves to it.
            earlier_key, earlier_kind = self._spans_counted[peer.span.trace_id, peer.span.span_id]
            if op.side != "server" or earlier_key == key or earlier_kind == "":
                return
            self._uncount(earlier_key, earlier_kind)
        record.calls += 1
        kind, text = self._span_kind(op)
        self._spans_counted[span.trace_id, span.span_id] = (key, kind or "")
        if len(self._spans_counted) > 10_000:
            self._spans_counted.pop(next(iter(self._spans_counted)))
        if kind is None:
            return
        example = Example(self.path, span.line, None, op.tool, _clip(text), op.error_code)
        record.add_evidence(kind, op.tool, example)

    def _uncount(self, key: ServerKey, kind: str) -> None:
        record = self.records[key]
        record.calls -= 1
        record.counts[kind] -= 1
        if not record.counts[kind]:
            del record.counts[kind]

    def _span_key(self, op: Operation) -> ServerKey:
        if op.server is None:
            return self._file_key()
        version = None
        if op.side == "server":
            attribute = op.span.resource.get("service.version")
            version = str(attribute.value) if attribute is not None else None
        return ServerKey(op.server, version, "trace")

    def _span_kind(self, op: Operation) -> tuple[str | None, str]:
        if op.outcome == "jsonrpc_error":
            exchange = as_exchange(op)
            verdict = classify(exchange, self._checker, self._reader) if exchange else None
            if verdict is not None and verdict.outcome is Outcome.INPUT_VALIDATION:
                return PROTOCOL_ERROR, op.error_text or ""
            if verdict is not None and verdict.outcome is Outcome.AMBIGUOUS:
                return AMBIGUOUS, op.error_text or ""
            return None, ""
        if op.outcome == "tool_error":
            text = first_text(op.result) if isinstance(op.result, dict) else None
            text = text or op.error_text
            if text and self._reader.read(text).kind in _VALIDATION_WORDS:
                return IS_ERROR, text
        return None, ""  # an isError span without its text cannot be told from a tool failure


def merge_sightings(into: ServerSightings | None, more: ServerSightings) -> ServerSightings:
    """One file's sightings from those of its stretches (``-j`` on one large file)."""
    if into is None:
        return more
    for key, record in more.records.items():
        mine = into.records.get(key)
        if mine is None:
            into.records[key] = record
        else:
            files = mine.files
            mine.merge(record)
            mine.files = files  # the same file, read in pieces
    return into


# --------------------------------------------------------------------------------------------
# The fleet


_SDK_FAMILIES = {
    "TypeScript SDK": "TypeScript SDK (@modelcontextprotocol/sdk)",
    "zod issues array": "TypeScript SDK, low-level Server (zod parse in the handler)",
    "pydantic": "Python SDK (mcp, FastMCP)",
    "Go SDK": "Go SDK (github.com/modelcontextprotocol/go-sdk)",
    "Rust rmcp": "Rust SDK (rmcp)",
}

# What to do about a server that still sends JSON-RPC errors, by the wording it uses.
# The versions are those the migration guide (docs/guide/servers.md) gives.
_ADVICE = {
    "TypeScript SDK": "upgrade @modelcontextprotocol/sdk to 1.21 or later: McpServer then answers invalid arguments with isError results by itself",
    "zod issues array": "the handler parses its arguments and the failure escapes as an error: use safeParse and return the issues as a result with isError: true",
    "pydantic": "raise ToolError (FastMCP turns it into an isError result) instead of McpError with INVALID_PARAMS",
    "Go SDK": "upgrade the Go SDK to 1.5 or later, and return a CallToolResult with IsError: true for your own checks",
    "Rust rmcp": "upgrade rmcp to 1.8 or later, and return CallToolResult::error(...) for your own checks",
}
_GENERIC_ADVICE = "answer arguments that fail validation with a tool result that has isError: true and says what was wrong, not with a JSON-RPC error"
_NO_EVIDENCE_ADVICE = "no tools/call with invalid arguments was seen: run `mcp-transcripts probe` against a test instance to find out"


def sdk_of(record: ServerRecord) -> dict[str, str | None]:
    """The SDK a server's wording points to, and why (``family`` is ``None`` when unknown)."""
    known = [
        (count, dialect) for dialect, count in record.dialects.items() if dialect in _SDK_FAMILIES
    ]
    if not known:
        return {"family": None, "evidence": None}
    _, dialect = max(known)
    family = _SDK_FAMILIES[dialect]
    if dialect == "TypeScript SDK":
        if record.counts[PROTOCOL_ERROR] and not record.counts[IS_ERROR]:
            family += ", 1.20 or older"
        elif record.counts[IS_ERROR] and not record.counts[PROTOCOL_ERROR]:
            family += ", 1.21 or later"
    return {"family": family, "evidence": f"told by its error wording ({dialect})"}


def advice_for(record: ServerRecord) -> dict[str, str | None]:
    """What to do, with the rule page that explains it."""
    verdict = record.verdict
    rule = "MCP401" if record.traced else "MCP101"
    if verdict is ServerVerdict.MIGRATED:
        return {
            "text": "nothing to do: invalid arguments reach the model as isError results",
            "rule": None,
            "url": None,
        }
    if verdict is ServerVerdict.NO_EVIDENCE:
        return {
            "text": _NO_EVIDENCE_ADVICE,
            "rule": None,
            "url": f"{DOCS_URL}migrator/how-to/probe/",
        }
    old = [d for d in record.dialects if d in _ADVICE]
    text = _ADVICE[old[0]] if old else _GENERIC_ADVICE
    if verdict is ServerVerdict.MIXED:
        text = (
            "some answers are already isError results and some are JSON-RPC errors (an older deployment, or a code path of its own): "
            + text
        )
    return {"text": text, "rule": rule, "url": page_url(rule)}


@dataclass
class Fleet:
    """The servers of a run, merged file by file (call :meth:`add` from ``on_file``)."""

    records: dict[ServerKey, ServerRecord] = field(default_factory=dict)
    files: int = 0
    messages: int = 0
    errors: list[dict[str, Any]] = field(default_factory=list)

    def add(self, report: ReadFile) -> None:
        """Merge one file's sightings (then drop them and the file's findings: memory stays flat)."""
        self.files += 1
        self.messages += report.messages
        sightings = report.servers
        records: list[ServerRecord] = list(sightings.records.values()) if sightings else []
        named = [r for r in records if r.key.identified_by != "file"]
        if named:  # traffic before the handshake, or client spans of a named server's calls
            records = named + [r for r in records if r.key.identified_by == "file" and r.calls]
        elif not records and sightings is not None and report.messages:
            records = [ServerRecord(ServerKey(report.path, None, "file"), 1, [report.path])]
        for record in records:
            mine = self.records.get(record.key)
            if mine is None:
                self.records[record.key] = record
            else:
                mine.merge(record)
        report.servers = None
        report.findings.clear()

    def add_error(self, path: str, line: int | None, message: str) -> None:
        """A file that could not be read (listed in the report, counted in no server)."""
        if len(self.errors) < 1000:
            self.errors.append({"path": path, "line": line, "message": message})

    def servers(self) -> list[ServerRecord]:
        """The servers, worst verdict first, then by name and version."""
        rank = {verdict: index for index, verdict in enumerate(VERDICT_ORDER)}
        return sorted(
            self.records.values(),
            key=lambda r: (rank[r.verdict], r.key.name, r.key.version or "", r.key.identified_by),
        )

    def document(self, tool_version: str, generated: str | None = None) -> dict[str, Any]:
        """The report as its JSON document (``schemas/report.schema.json``)."""
        servers = self.servers()
        by_verdict = Counter(r.verdict.value for r in servers)
        return {
            "version": REPORT_FORMAT_VERSION,
            "tool": {"name": "mcp-transcripts", "version": tool_version},
            "generated": generated,
            "summary": {
                "servers": len(servers),
                "verdicts": {v.value: by_verdict[v.value] for v in ServerVerdict},
                "files": self.files,
                "messages": self.messages,
                "errors": len(self.errors),
                IS_ERROR: sum(r.counts[IS_ERROR] for r in servers),
                PROTOCOL_ERROR: sum(r.counts[PROTOCOL_ERROR] for r in servers),
            },
            "servers": [_server_document(r) for r in servers],
            "errors": list(self.errors),
        }


def _server_document(record: ServerRecord) -> dict[str, Any]:
    key = record.key
    days = sorted({day for day, _ in record.timeline})
    return {
        "name": key.name,
        "version": key.version,
        "identified_by": key.identified_by,
        "verdict": record.verdict.value,
        "counts": {
            IS_ERROR: record.counts[IS_ERROR],
            PROTOCOL_ERROR: record.counts[PROTOCOL_ERROR],
            AMBIGUOUS: record.counts[AMBIGUOUS],
            "calls": record.calls,
        },
        "tools": [
            {"name": name, IS_ERROR: counts[IS_ERROR], PROTOCOL_ERROR: counts[PROTOCOL_ERROR]}
            for name, counts in sorted(record.tools.items())
            if counts[IS_ERROR] or counts[PROTOCOL_ERROR]
        ],
        "files": record.files,
        "file_sample": list(record.file_sample),
        "first_seen": record.first_seen,
        "last_seen": record.last_seen,
        "protocol_versions": sorted(record.protocol_versions),
        "sdk": sdk_of(record),
        "examples": {
            kind: (e.as_dict() if (e := record.examples.get(kind)) else None)
            for kind in EVIDENCE_KINDS
        },
        "where": {kind: list(record.places.get(kind, [])) for kind in EVIDENCE_KINDS},
        "timeline": [
            {
                "day": day,
                IS_ERROR: record.timeline[day, IS_ERROR],
                PROTOCOL_ERROR: record.timeline[day, PROTOCOL_ERROR],
            }
            for day in days
        ],
        "advice": advice_for(record),
    }


# --------------------------------------------------------------------------------------------
# A trend between two runs


def compare(old: dict[str, Any], new: dict[str, Any]) -> list[dict[str, Any]]:
    """Which servers changed verdict between two reports' documents (``old`` first).

    Servers are matched by name, version and how they were identified; one that is in
    only one of the two runs is ``new`` or ``gone`` (an upgrade shows as the old version
    gone and the new one new, listed together by name).
    """

    def index(document: dict[str, Any]) -> dict[tuple[str, str | None, str], str]:
        return {
            (s["name"], s.get("version"), s.get("identified_by", "serverInfo")): s["verdict"]
            for s in document.get("servers", [])
        }

    before, after = index(old), index(new)
    changes = []
    for key in sorted(before.keys() | after.keys(), key=lambda k: (k[0], k[1] or "", k[2])):
        was, now = before.get(key), after.get(key)
        if was == now:
            continue
        change = "new" if was is None else "gone" if now is None else "changed"
        changes.append(
            {
                "name": key[0],
                "version": key[1],
                "identified_by": key[2],
                "change": change,
                "before": was,
                "after": now,
            }
        )
    return changes
