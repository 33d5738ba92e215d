"""OpenTelemetry traces as OTLP JSON: the protobuf JSON mapping of an ``ExportTraceServiceRequest``.

Two layouts are read:

* one export request per line, as the Collector's ``file`` exporter writes
  (``{"resourceSpans":[...]}`` on each line); read line by line, so memory
  stays flat however large the file is;
* one export request as a whole document (pretty-printed, as
  ``protobuf``'s ``MessageToJson`` writes by default); read whole.

Both spellings of the protobuf JSON mapping are accepted: ids in hex (the
OTLP/JSON rule, what the Collector writes) or base64 (protobuf's generic
``bytes`` mapping); enums as numbers (``"kind": 3``) or names
(``"SPAN_KIND_CLIENT"``); 64-bit integers as strings or numbers.

A line that is not JSON is an ``MCP301`` problem; a JSON line that is not an
export request is an ``MCP407`` problem; both are skipped. A span whose
attributes are malformed keeps what can be read and says what could not, in
:attr:`Span.defects`, for the rules to report.

A line is decoded by ``msgspec`` straight into typed structs (:class:`ExportRequest`)
that declare only what the rules read: timestamps, links, dropped counts and
flags are never turned into Python objects, and spans that a caller's ``keep``
test rejects (for ``check``: spans no MCP instrumentation made) are not built. A span's
attributes stay JSON text until it is kept: its ``keep_text`` test looks at that text first,
so most spans of other instrumentations cost no object per attribute.
A line the structs do not fit (not JSON, not an export request, a value of the
wrong type) is read again the general way (:func:`spans_of`), which says what is
wrong with it: both ways give the same spans, which the tests check.
"""

from __future__ import annotations

import base64
import binascii
import re
from collections.abc import Callable, Collection, Iterable, Iterator
from typing import Any, ClassVar, Literal, TypeAlias

import msgspec

from migrator.model.source import BOM
from migrator.model.spans import Attribute, Batch, Span, SpanEvent
from migrator.model.units import Problem, Unit
from migrator.readers.base import Reader, parse_json_line

NOT_AN_EXPORT_REQUEST = "MCP407"

SPAN_KINDS = {
    0: "unspecified", 1: "internal", 2: "server", 3: "client", 4: "producer", 5: "consumer",
    "SPAN_KIND_UNSPECIFIED": "unspecified", "SPAN_KIND_INTERNAL": "internal",
    "SPAN_KIND_SERVER": "server", "SPAN_KIND_CLIENT": "client",
    "SPAN_KIND_PRODUCER": "producer", "SPAN_KIND_CONSUMER": "consumer",
}  # fmt: skip
STATUS_CODES = {
    0: "unset", 1: "ok", 2: "error",
    "STATUS_CODE_UNSET": "unset", "STATUS_CODE_OK": "ok", "STATUS_CODE_ERROR": "error",
}  # fmt: skip

# The AnyValue members and the type name the conventions use for each.
VALUE_TYPES = {
    "stringValue": "string", "boolValue": "boolean", "intValue": "int", "doubleValue": "double",
    "arrayValue": "array", "kvlistValue": "map", "bytesValue": "bytes",
}  # fmt: skip
RESOURCE_KEYS = frozenset(
    {"service.name", "service.instance.id", "mcp.server.name"}
)  # what the rules read
_EMPTY: dict[str, Any] = {}
_new_tuple = tuple.__new__  # builds an Attribute without the Python frame of its __new__
_HEX_DIGITS = frozenset("0123456789abcdefABCDEF")
# Lowercase hex and nothing else: a regular expression checks a span's 64 id digits in a few
# hundred instructions, where a set of the digits looked each one up (3% of a trace's check).
_LOWER_HEX = re.compile("[0-9a-f]*").fullmatch
_DOCUMENT_START = re.compile(r'\s*\{\s*"(resourceSpans|resource_spans)"\s*:')


def looks_like_otlp(head: list[str]) -> bool:
    """True when the file starts like an OTLP JSON export request (one per line or one document)."""
    opened = False  # a pretty-printed document: "{" alone, the key on the next line
    for text in head:
        stripped = text.lstrip(BOM).strip()
        if not stripped:
            continue
        if not opened and stripped == "{":
            opened = True
            continue
        return bool(_DOCUMENT_START.match(stripped if not opened else "{" + stripped))
    return False


def hex_id(raw: Any) -> str | None:
    """A trace or span id in lowercase hex, from hex or base64; ``None`` if it is neither."""
    if not isinstance(raw, str):
        return None
    if raw == "":
        return ""
    if len(raw) in (16, 32) and _HEX_DIGITS.issuperset(raw):
        return raw.lower()
    try:
        decoded = base64.b64decode(raw, validate=True)
    except (binascii.Error, ValueError):
        return None
    return decoded.hex() if len(decoded) in (8, 16) else None


def any_value(raw: Any) -> Attribute | None:
    """Decode an OTLP ``AnyValue``; ``None`` when it is not one."""
    if type(raw) is not dict or len(raw) != 1:
        return Attribute(None, "empty") if raw == {} else None
    text = raw.get("stringValue")
    if type(text) is str:  # most attributes: decided without the general path
        return Attribute(text, "string")
    ((member, value),) = raw.items()
    kind = VALUE_TYPES.get(member)
    if kind is None:
        return None
    if kind == "int":
        if isinstance(value, bool):
            return None
        if isinstance(value, str):
            try:
                return Attribute(int(value), kind)
            except ValueError:
                return None
        return Attribute(value, kind) if isinstance(value, int) else None
    if kind == "double":
        ok = isinstance(value, (int, float)) and not isinstance(value, bool)
        ok = ok or value in ("NaN", "Infinity", "-Infinity")
        return Attribute(float(value), kind) if ok else None
    if kind == "string":
        return Attribute(value, kind) if isinstance(value, str) else None
    if kind == "boolean":
        return Attribute(value, kind) if isinstance(value, bool) else None
    if kind == "bytes":
        return Attribute(value, kind) if isinstance(value, str) else None
    values = value.get("values", []) if isinstance(value, dict) else None
    if not isinstance(values, list):
        return None
    if kind == "array":
        items = [any_value(v) for v in values]
        if any(item is None for item in items):
            return None
        return Attribute([item.value for item in items if item is not None], kind)
    mapping, defects = key_values(values)
    return None if defects else Attribute({k: a.value for k, a in mapping.items()}, kind)


def key_values(raw: Any) -> tuple[dict[str, Attribute], list[str]]:
    """Decode a list of ``KeyValue``; malformed entries are described and left out."""
    if raw is None:
        return {}, []
    if not isinstance(raw, list):
        return {}, ["attributes is not a list"]
    out: dict[str, Attribute] = {}
    defects: list[str] = []
    for entry in raw:
        key = entry.get("key") if type(entry) is dict else None
        if type(key) is not str:
            defects.append("an attribute without a string key")
            continue
        wrapped = entry.get("value", _EMPTY)
        text = wrapped.get("stringValue") if type(wrapped) is dict else None
        if type(text) is str and len(wrapped) == 1:  # most attributes: no call for them
            out[key] = _new_tuple(Attribute, (text, "string"))
            continue
        value = any_value(wrapped)
        if value is None:
            defects.append(f"attribute {key!r}: the value is not an OTLP AnyValue")
            continue
        out[key] = value
    return out, defects


def spans_of(request: Any, line: int) -> list[Span] | str:
    """The spans of one decoded export request, or why it is not one."""
    if not isinstance(request, dict):
        return "not a JSON object"
    resource_spans = request.get("resourceSpans", request.get("resource_spans"))
    if resource_spans is None:
        return "no resourceSpans member"
    if not isinstance(resource_spans, list):
        return "resourceSpans is not a list"
    spans: list[Span] = []
    for entry in resource_spans:
        if not isinstance(entry, dict):
            return "an entry of resourceSpans is not an object"
        resource_raw = entry.get("resource") or {}
        resource = _resource(
            resource_raw.get("attributes") if isinstance(resource_raw, dict) else None
        )
        scope_spans = entry.get("scopeSpans", entry.get("scope_spans", []))
        if not isinstance(scope_spans, list):
            return "scopeSpans is not a list"
        for scoped in scope_spans:
            if not isinstance(scoped, dict) or not isinstance(scoped.get("spans", []), list):
                return "an entry of scopeSpans is not an object with a list of spans"
            scope = scoped.get("scope")
            scope_name = scope.get("name", "") if isinstance(scope, dict) else ""
            for raw in scoped.get("spans", []):
                spans.append(_span(raw, resource, str(scope_name), line))
    return spans


def _resource(raw: Any) -> dict[str, Attribute]:
    """The resource attributes the rules read (a resource has many; decoding all would cost)."""
    if not isinstance(raw, list):
        return {}
    wanted = [
        e
        for e in raw
        if type(e) is dict and type(e.get("key")) is str and e["key"] in RESOURCE_KEYS
    ]
    return key_values(wanted)[0]


def _span(raw: Any, resource: dict[str, Attribute], scope: str, line: int) -> Span:
    defects: list[str] = []
    if not isinstance(raw, dict):
        raw = {}
        defects.append("the span is not a JSON object")
    ids: dict[str, str] = {}
    for member, required in (("traceId", True), ("spanId", True), ("parentSpanId", False)):
        value = raw.get(member, "")
        decoded = hex_id(value)
        if decoded is None or (required and not decoded):
            defects.append(f"{member} is not a hex or base64 id: {value!r}")
            decoded = str(value) if isinstance(value, str) else ""
        ids[member] = decoded
    attributes, attribute_defects = key_values(raw.get("attributes"))
    defects += attribute_defects
    status = raw.get("status") if isinstance(raw.get("status"), dict) else {}
    events, event_defects = span_events(raw.get("events"))
    defects += event_defects
    name = raw.get("name")
    return Span(
        trace_id=ids["traceId"],
        span_id=ids["spanId"],
        parent_span_id=ids["parentSpanId"],
        name=name if isinstance(name, str) else "",
        kind=_enum(SPAN_KINDS, raw.get("kind", 0), "unspecified"),
        attributes=attributes,
        resource=resource,
        status_code=_enum(STATUS_CODES, status.get("code", 0), "unset"),
        status_message=str(status.get("message", "")),
        events=events,
        line=line,
        scope=scope,
        defects=defects,
    )


def span_events(raw: Any) -> tuple[tuple[SpanEvent, ...], list[str]]:
    """A span's decoded ``events`` member, and what could not be read in it."""
    if raw is None:
        return (), []
    if not isinstance(raw, list):
        return (), ["events is not a list"]
    events = []
    defects: list[str] = []
    for event in raw:
        if isinstance(event, dict):
            event_attributes, event_defects = key_values(event.get("attributes"))
            defects += [f"event {event.get('name')!r}: {d}" for d in event_defects]
            events.append(SpanEvent(str(event.get("name", "")), event_attributes))
    return tuple(events), defects


# The typed layout of a well-formed export request, for msgspec. Members not declared here are
# skipped by the decoder without being built; a member of the wrong type fails the decode, and
# the line goes the general way (spans_of), which reports it exactly as before.


class WireStatus(msgspec.Struct):
    code: int | str = 0
    message: str = ""


class WireSpan(msgspec.Struct):
    traceId: str = ""
    spanId: str = ""
    parentSpanId: str = ""
    name: str = ""
    kind: int | str = 0
    # Kept as text: decoded (by _span_attributes, as the general way would) only for the spans
    # kept, so a span of another instrumentation costs no object per attribute.
    attributes: msgspec.Raw = msgspec.Raw()
    status: WireStatus | None = None
    events: msgspec.Raw = msgspec.Raw()  # decoded only for the spans kept


class WireScope(msgspec.Struct):
    name: str = ""


class WireScopeSpans(msgspec.Struct):
    scope: WireScope | None = None
    spans: list[WireSpan] = []


class WireResource(msgspec.Struct):
    # Kept as text: the resources of a file are few and repeat on every line (see _typed_resource).
    attributes: msgspec.Raw = msgspec.Raw()


class WireResourceSpans(msgspec.Struct):
    resource: WireResource | None = None
    scopeSpans: list[WireScopeSpans] | msgspec.UnsetType = msgspec.UNSET
    scope_spans: list[WireScopeSpans] | msgspec.UnsetType = msgspec.UNSET


class ExportRequest(msgspec.Struct):
    """An ``ExportTraceServiceRequest`` as far as the rules read it (both protobuf JSON spellings)."""

    resourceSpans: list[WireResourceSpans] | msgspec.UnsetType = msgspec.UNSET
    resource_spans: list[WireResourceSpans] | msgspec.UnsetType = msgspec.UNSET


KeepSpan: TypeAlias = "Callable[[str, Collection[str]], bool]"
"""A cheap test on a span's name and attribute keys: ``False`` leaves the span out, unbuilt."""
KeepSpanText: TypeAlias = "Callable[[str, bytes], bool]"
"""The same test before the attributes are decoded, on their JSON text: it may keep a span the
exact test leaves out (which then decides), never the other way round."""


class _StringValue(msgspec.Struct, forbid_unknown_fields=True):
    """An AnyValue that is a string, or empty; any other member refuses it."""

    stringValue: str | msgspec.UnsetType = msgspec.UNSET


class _StringKeyValue(msgspec.Struct):
    key: str
    value: _StringValue | msgspec.UnsetType = msgspec.UNSET


_EMPTY_ATTRIBUTE = Attribute(None, "empty")
_export_request = msgspec.json.Decoder(ExportRequest)
_string_attributes = msgspec.json.Decoder(list[_StringKeyValue])
_json_value = msgspec.json.Decoder()
_NOT_TYPED = (msgspec.DecodeError, UnicodeEncodeError)  # ValidationError is a DecodeError


def typed_spans(
    text: str, line: int, keep: KeepSpan | None = None, keep_text: KeepSpanText | None = None
) -> list[Span] | None:
    """The spans of one export request line, decoded typed; ``None`` when the line does not fit.

    ``None`` sends the line the general way (:func:`spans_of`), which words what is wrong.
    With ``keep``, only the spans it accepts are built; ``keep_text`` leaves out, before their
    attributes are decoded, spans that ``keep`` would leave out.
    """
    try:
        return _typed_spans(_export_request.decode(text), line, keep, keep_text)
    except _NOT_TYPED:  # also from a kept span's attribute values or events, decoded later
        return None


def _typed_spans(
    request: ExportRequest, line: int, keep: KeepSpan | None, keep_text: KeepSpanText | None
) -> list[Span] | None:
    resource_spans = request.resourceSpans
    if resource_spans is msgspec.UNSET:
        resource_spans = request.resource_spans
        if resource_spans is msgspec.UNSET:
            return None  # not an export request: spans_of says so
    spans: list[Span] = []
    for entry in resource_spans:
        resource_raw = entry.resource
        resource = _typed_resource(resource_raw.attributes) if resource_raw is not None else {}
        scope_spans = entry.scopeSpans
        if scope_spans is msgspec.UNSET:
            scope_spans = entry.scope_spans
            if scope_spans is msgspec.UNSET:
                continue
        for scoped in scope_spans:
            scope_name = scoped.scope.name if scoped.scope is not None else ""
            for raw in scoped.spans:
                attributes_text = raw.attributes
                if keep_text is not None and not keep_text(raw.name, bytes(attributes_text)):
                    continue  # not even its attributes are decoded
                attributes = _span_attributes(attributes_text)
                if keep is not None and not keep(raw.name, attributes[0]):
                    continue
                spans.append(_typed_span(raw, attributes, resource, scope_name, line))
    return spans


def _span_attributes(text: msgspec.Raw) -> tuple[dict[str, Attribute], list[str]]:
    """:func:`key_values` of a span's attributes text, decoded typed where every value is a
    string (most spans): then no dict is made per attribute. Anything else is read the general
    way, which also describes what is malformed."""
    if not text:
        return {}, []
    try:
        entries = _string_attributes.decode(text)
    except msgspec.DecodeError:
        return key_values(_json_value.decode(text))
    unset = msgspec.UNSET
    attributes: dict[str, Attribute] = {}
    for entry in entries:
        value = entry.value
        string = value.stringValue if value is not unset else unset
        attributes[entry.key] = (
            _new_tuple(Attribute, (string, "string")) if string is not unset else _EMPTY_ATTRIBUTE
        )
    return attributes, []


# What the rules read of each resource, by the JSON text of its attributes.
_RESOURCES: dict[bytes, dict[str, Attribute]] = {}
_MAX_RESOURCES = 1024  # a file names few resources; a file of many only decodes each again


def _typed_resource(raw: msgspec.Raw) -> dict[str, Attribute]:
    """The resource attributes the rules read (:func:`_resource`), once per distinct resource.

    The returned dict is shared by every span of that resource, in every line: nothing writes to
    it (:meth:`~migrator.model.spans.Operation.release` replaces a span's resource, it does not
    empty it).
    """
    if not raw:
        return {}
    text = bytes(raw)
    known = _RESOURCES.get(text)
    if known is not None:
        return known
    resource = _resource(_json_value.decode(text))
    if len(_RESOURCES) >= _MAX_RESOURCES:
        _RESOURCES.clear()
    _RESOURCES[text] = resource
    return resource


def _typed_span(
    raw: WireSpan,
    attributes_read: tuple[dict[str, Attribute], list[str]],
    resource: dict[str, Attribute],
    scope: str,
    line: int,
) -> Span:
    """Like :func:`_span`, from a decoded struct (whose members have their right JSON types)."""
    attributes, attribute_defects = attributes_read
    defects: list[str] = []
    trace_id, span_id, parent_id = raw.traceId, raw.spanId, raw.parentSpanId
    # The Collector writes lowercase hex: taken as it is; any other spelling goes through hex_id.
    if not (
        len(trace_id) == 32
        and len(span_id) == 16
        and len(parent_id) in (0, 16)
        and _LOWER_HEX(trace_id + span_id + parent_id) is not None
    ):
        ids = []
        for member, value, required in (
            ("traceId", trace_id, True),
            ("spanId", span_id, True),
            ("parentSpanId", parent_id, False),
        ):
            decoded = hex_id(value)
            if decoded is None or (required and not decoded):
                defects.append(f"{member} is not a hex or base64 id: {value!r}")
                decoded = value
            ids.append(decoded)
        trace_id, span_id, parent_id = ids
    defects += attribute_defects  # after the ids', as the general way words them
    events, event_defects = span_events(_json_value.decode(raw.events)) if raw.events else ((), [])
    defects += event_defects
    status = raw.status
    return Span(  # by position (in the order of its fields): made for every span kept
        trace_id,
        span_id,
        parent_id,
        raw.name,
        SPAN_KINDS.get(raw.kind, "unspecified"),
        attributes,
        resource,
        STATUS_CODES.get(status.code, "unset") if status is not None else "unset",  # status_code
        status.message if status is not None else "",  # status_message
        events,
        line,
        scope,
        defects,
    )


class OtlpJsonReader(Reader):
    """Reads OTLP JSON traces. The engine hands traces to :mod:`migrator.engine.traces`, which calls :meth:`batches`."""

    name: ClassVar[str] = "otlp-json"
    carries: ClassVar[Literal["messages", "spans"]] = "spans"
    streams_lines: ClassVar[bool] = True

    def units(self, lines: Iterable[str]) -> Iterator[Unit]:
        """One unit per line, text untouched (traces are never rewritten)."""
        for line_no, text in enumerate(lines, start=1):
            yield Unit(text, line_no)

    def batches(
        self,
        lines: Iterable[str],
        keep: KeepSpan | None = None,
        keep_text: KeepSpanText | None = None,
    ) -> Iterator[Batch | Problem]:
        """The export requests of the file in order, and a problem for each line that is not one.

        Args:
            lines: the file's lines.
            keep: when given, only the spans it accepts (by name and attribute keys) are built.
            keep_text: when given, the spans it rejects from their name and the JSON text of
                their attributes are left out before those are decoded (see
                :data:`KeepSpanText`).
        """
        source = iter(lines)
        for line_no, text in enumerate(source, start=1):
            typed = typed_spans(text, line_no, keep, keep_text)
            if typed is not None:
                yield Batch(line_no, typed)
                continue
            parsed = parse_json_line(text, line_no)
            if parsed is None:
                continue
            if isinstance(parsed, Problem):
                if line_no == 1 and not _is_complete_line(text):
                    yield from self._document(text, source, keep)
                    return
                yield parsed
                continue
            spans = spans_of(parsed[0], line_no)
            if isinstance(spans, str):
                yield Problem(
                    NOT_AN_EXPORT_REQUEST, f"not an OTLP export request: {spans}", line_no
                )
                continue
            yield Batch(line_no, _kept(spans, keep))

    def _document(
        self, first: str, rest: Iterator[str], keep: KeepSpan | None
    ) -> Iterator[Batch | Problem]:
        """A pretty-printed export request: read whole, each span located at its spanId's line."""
        text = first + "".join(rest)
        parsed = parse_json_line(text.replace("\n", " ").replace("\r", " "), 1)
        if parsed is None:
            return
        if isinstance(parsed, Problem):
            line = text.count("\n", 0, max(parsed.column - 1, 0)) + 1
            yield Problem(parsed.code, parsed.message, line)
            return
        spans = spans_of(parsed[0], 1)
        if isinstance(spans, str):
            yield Problem(NOT_AN_EXPORT_REQUEST, f"not an OTLP export request: {spans}", 1)
            return
        spans = _kept(spans, keep)
        for span in spans:
            span.line = _line_of_span(text, span)
        yield Batch(1, spans)


def _kept(spans: list[Span], keep: KeepSpan | None) -> list[Span]:
    if keep is None:
        return spans
    return [span for span in spans if keep(span.name, span.attributes)]


def _enum(names: dict[Any, str], raw: Any, default: str) -> str:
    """An enum given as a number or a name; anything else (a list, an object) is the default."""
    return names.get(raw, default) if isinstance(raw, (int, str)) else default


def _is_complete_line(text: str) -> bool:
    """Whether a line that failed to parse was meant as a whole value (not a document's first line)."""
    return text.strip().lstrip(BOM) != "{"


def _line_of_span(text: str, span: Span) -> int:
    for spelling in {span.span_id, _base64(span.span_id)}:
        match = re.search(r'"spanId"\s*:\s*"' + re.escape(spelling) + '"', text, re.IGNORECASE)
        if match:
            return text.count("\n", 0, match.start()) + 1
    return 1


def _base64(hex_text: str) -> str:
    try:
        return base64.b64encode(bytes.fromhex(hex_text)).decode("ascii")
    except ValueError:
        return hex_text
