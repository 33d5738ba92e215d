"""Spans in the session model: each MCP span becomes an :class:`Operation`.

The attribute names, their types and requirement levels are those of the
OpenTelemetry semantic conventions for MCP (``docs/gen-ai/mcp.md`` and
``model/mcp/*.yaml``), release :data:`SEMCONV_RELEASE` of
open-telemetry/semantic-conventions, the last release before the GenAI
conventions moved to open-telemetry/semantic-conventions-genai. Status:
Development, so names may change; each rule's docs say which release it
follows.

An operation knows its side (client or server span), method, tool, request
id, session id, protocol version (from the span, or from the session's
``initialize`` span seen earlier) and its outcome: a result, an ``isError``
result, or a JSON-RPC error with its code, the status description and the
messages of ``exception`` events. A client span and the server span of the
same call (the server span's parent is the client span, through the trace
context propagated in ``params._meta``) are joined as peers.

For the classifier, a ``tools/call`` operation is turned back into the
request and response it stands for (:func:`as_exchange`): the same verdicts,
with the same wording reader, as for transcripts.
"""

from __future__ import annotations

import json
import re
from collections import OrderedDict
from collections.abc import Collection
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, NamedTuple

from migrator.model.session import Exchange, Session
from migrator.model.units import SourceMessage

# The spans as a trace recorded them (the OTLP reader makes them), then what they mean.


class Attribute(NamedTuple):
    """One span or resource attribute: its decoded value and the AnyValue type it came as."""

    value: Any
    type: str  # "string", "int", "double", "boolean", "array", "map", "bytes" or "empty"


@dataclass(frozen=True, slots=True)
class SpanEvent:
    """A span event (``exception`` events carry ``exception.type`` and ``exception.message``)."""

    name: str
    attributes: dict[str, Attribute]


@dataclass(slots=True)
class Span:
    """One span as the trace recorded it, with where it is in the file."""

    trace_id: str  # lowercase hex, 32 digits when well-formed
    span_id: str  # lowercase hex, 16 digits when well-formed
    parent_span_id: str  # "" for a root span
    name: str
    kind: str  # "client", "server", "internal", ... (see SPAN_KINDS)
    attributes: dict[str, Attribute]
    resource: dict[str, Attribute]  # shared by every span of one resource
    status_code: str  # "unset", "ok" or "error"
    status_message: str
    events: tuple[SpanEvent, ...]
    line: int
    scope: str = ""  # the instrumentation scope's name
    defects: list[str] = field(default_factory=list)  # what could not be read, in words

    def string(self, key: str) -> str | None:
        """A string attribute's value (``None`` when absent or of another type)."""
        attribute = self.attributes.get(key)
        return attribute.value if attribute is not None and attribute.type == "string" else None


@dataclass(frozen=True, slots=True)
class Batch:
    """The spans of one export request (one line, or the whole document)."""

    line: int
    spans: list[Span]


SEMCONV_RELEASE = "v1.41.0"
"""The open-telemetry/semantic-conventions release whose MCP conventions the trace rules follow."""

METHOD = "mcp.method.name"
SESSION_ID = "mcp.session.id"
PROTOCOL_VERSION = "mcp.protocol.version"
RESOURCE_URI = "mcp.resource.uri"
TOOL_NAME = "gen_ai.tool.name"
PROMPT_NAME = "gen_ai.prompt.name"
REQUEST_ID = "jsonrpc.request.id"
ERROR_TYPE = "error.type"
STATUS_CODE = "rpc.response.status_code"
TOOL_ARGUMENTS = "gen_ai.tool.call.arguments"
TOOL_RESULT = "gen_ai.tool.call.result"
TOOL_ERROR = "tool_error"  # error.type for a CallToolResult with isError: true

# Every attribute the MCP spans define (client and server), with its type.
CONVENTION_TYPES: dict[str, str] = {
    METHOD: "string", SESSION_ID: "string", PROTOCOL_VERSION: "string", RESOURCE_URI: "string",
    TOOL_NAME: "string", PROMPT_NAME: "string", REQUEST_ID: "string", ERROR_TYPE: "string",
    STATUS_CODE: "string", "gen_ai.operation.name": "string", "jsonrpc.protocol.version": "string",
    "network.protocol.name": "string", "network.protocol.version": "string",
    "network.transport": "string", "server.address": "string", "server.port": "int",
    "client.address": "string", "client.port": "int",
}  # fmt: skip
# The attributes of the mcp.* namespace that the registry defines; any other is not a convention.
MCP_NAMESPACE = frozenset({METHOD, SESSION_ID, PROTOCOL_VERSION, RESOURCE_URI})
# What instrumentations write instead, and the attribute the conventions name for it.
REPLACEMENTS = {
    "mcp.tool.name": TOOL_NAME, "mcp.request.id": REQUEST_ID, "mcp.prompt.name": PROMPT_NAME,
    "mcp.transport": "network.transport", "mcp.method": METHOD, "mcp.session_id": SESSION_ID,
    "mcp.protocol_version": PROTOCOL_VERSION, "mcp.tool.arguments": TOOL_ARGUMENTS,
    "mcp.tool.result": TOOL_RESULT,
}  # fmt: skip
# Methods that are notifications: no request id.
NOTIFICATION_PREFIX = "notifications/"
KNOWN_METHODS = frozenset({
    "completion/complete", "elicitation/create", "initialize", "logging/setLevel", "ping",
    "prompts/get", "prompts/list", "resources/list", "resources/read", "resources/subscribe",
    "resources/templates/list", "resources/unsubscribe", "roots/list", "sampling/createMessage",
    "tools/call", "tools/list",
})  # fmt: skip
SERVER_NAME_KEYS = ("service.name", "mcp.server.name")

# Gateways whose tool-call spans follow their own names, not the conventions: the span name,
# and what each records instead (see each gateway's section in docs/migrator/how-to/formats.md).
DOCKER_TOOL_CALL = "mcp.tool.call"  # docker/mcp-gateway pkg/telemetry/telemetry.go
CONTEXTFORGE_TOOL_CALL = "tool.invoke"  # IBM/mcp-context-forge mcpgateway/services/tool_service.py
VENDOR_TOOL_CALLS = {
    DOCKER_TOOL_CALL: (
        "Docker MCP Gateway",
        "mcp.tool.name",
        "the span records no JSON-RPC error code, error message, request id or arguments",
    ),
    CONTEXTFORGE_TOOL_CALL: (
        "IBM ContextForge",
        "tool.name",
        "the span records no JSON-RPC error code or request id (only the error's text)",
    ),
}
CONTEXTFORGE_INPUT = "langfuse.observation.input"
CONTEXTFORGE_OUTPUT = "langfuse.observation.output"

_CODE_IN_TEXT = re.compile(r"^(?:\w+Error:\s*)?MCP error (?P<code>-?\d+):")
_CODE_ANYWHERE = re.compile(r"\bMCP error (?P<code>-?\d+):")
_INTEGER = re.compile(r"-?\d+")
_VERSION_ON_SPAN = f"{PROTOCOL_VERSION} on the span"
_MISSING: Any = object()

# What an operation's outcome can be (see operation()).
OUTCOMES = ("result", "tool_error", "jsonrpc_error", "error")
MAX_REMEMBERED = 16_384  # calls kept waiting for their other side; bounds memory on any file


@dataclass(slots=True)
class Operation:
    """What one MCP span says happened."""

    span: Span
    side: str  # "client", "server" or "unknown" (from the span kind)
    method: str | None
    tool: str | None
    request_id: str | None
    session_id: str | None
    version: str | None
    version_source: str
    outcome: str  # "result", "tool_error", "jsonrpc_error" or "error" (failed, no JSON-RPC code)
    error_code: int | None
    error_type: str | None
    status_description: str
    exceptions: tuple[str, ...]  # the messages of exception events
    arguments: Any = _MISSING  # from gen_ai.tool.call.arguments, when recorded
    result: Any = _MISSING  # from gen_ai.tool.call.result, when recorded
    server: str | None = None  # from resource attributes
    peer: Operation | None = None  # the other side of the same call, when both were traced
    notes: list[str] = field(default_factory=list)

    @property
    def error_text(self) -> str | None:
        """The error's words: the status description, else the first exception message."""
        if self.status_description:
            return self.status_description
        return self.exceptions[0] if self.exceptions else None

    def release(self) -> None:
        """Drop what only this span's own rules read; keep what joining it to its peer needs.

        A ``tools/call`` span may wait for its other side for a while (see
        :class:`OperationTracker`): it should not hold its attributes, events
        and payloads meanwhile.
        """
        span = self.span
        span.attributes, span.events, span.resource = {}, (), {}
        self.result = _MISSING
        if self.outcome != "jsonrpc_error":
            self.arguments = _MISSING  # only an error's peer reads them (to classify it)

    def where(self) -> str:
        """``client span 00f067aa0ba902b7 "tools/call add"``."""
        return f"{self.side} span {self.span.span_id} {json.dumps(self.span.name)}"


def name_pattern(op: Operation) -> str:
    """The span's name with its target replaced by ``{target}``: how the instrumentation names spans."""
    target = op.span.string(TOOL_NAME) or op.span.string(PROMPT_NAME) or op.tool
    if not target:
        return op.span.name
    return _name_with_target(op.span.name, target)


@lru_cache(maxsize=4096)  # a file names few spans (one per method and tool): asked for every span
def _name_with_target(name: str, target: str) -> str:
    return " ".join("{target}" if word == target else word for word in name.split(" "))


def looks_like_mcp(span: Span) -> bool:
    """A span that an MCP instrumentation made, even one that misses ``mcp.method.name``."""
    if METHOD in span.attributes or span.name in VENDOR_TOOL_CALLS:
        return True
    if span.name.split(" ", 1)[0] in KNOWN_METHODS:
        return True
    return any(key.startswith("mcp.") for key in span.attributes)


def _named_like_mcp(name: str) -> bool:
    """An MCP method as the span name's first word, or a gateway's tool-call span name."""
    return name.split(" ", 1)[0] in KNOWN_METHODS or name in VENDOR_TOOL_CALLS


def may_be_mcp(name: str, attribute_keys: Collection[str]) -> bool:
    """Whether a span can be an MCP span, from its name and attribute keys, before it is built.

    Every span :func:`looks_like_mcp` accepts passes (its ``mcp.method.name`` is an ``mcp.`` key).
    """
    if METHOD in attribute_keys or _named_like_mcp(name):
        return True
    return any(key.startswith("mcp.") for key in attribute_keys)


def may_be_mcp_text(name: str, attributes_json: bytes) -> bool:
    """:func:`may_be_mcp` before the attributes are decoded, from their JSON text.

    Never ``False`` where :func:`may_be_mcp` is ``True``: a key that starts with ``mcp.`` is
    written ``"mcp.`` in the text unless its letters are escaped, and a text with a backslash
    in it is kept for its keys to be read. A span it keeps goes on to :func:`may_be_mcp`.
    """
    if _named_like_mcp(name):
        return True
    return b'"mcp.' in attributes_json or b"\\" in attributes_json


def _method(span: Span) -> str | None:
    method = span.string(METHOD)
    if method is not None:
        return method
    if span.name in VENDOR_TOOL_CALLS:
        return "tools/call"
    first = span.name.split(" ", 1)[0]
    return first if first in KNOWN_METHODS and looks_like_mcp(span) else None


@lru_cache(maxsize=4096)  # asked for every tools/call span without a tool name attribute
def target_in_name(name: str, method: str) -> str | None:
    """The target a span's name gives after its method (``MCP send tools/call add`` -> ``add``)."""
    words = name.split(" ")
    if method in words:
        rest = words[words.index(method) + 1 :]
        if len(rest) == 1 and rest[0]:
            return rest[0]
    return None


def _server_name(span: Span) -> str | None:
    """The server: its service (a server span's resource) or the address a client span names."""
    if span.kind == "server":
        for key in SERVER_NAME_KEYS:
            if key in span.resource:
                return str(span.resource[key].value)
        return None
    if span.name == DOCKER_TOOL_CALL and span.string("mcp.server.name"):
        return span.string("mcp.server.name")  # the gateway names the server it called
    address = span.string("server.address")
    port = span.attributes.get("server.port")
    if address is not None and port is not None:
        return f"{address}:{port.value}"
    return address


def _payload(span: Span, key: str) -> Any:
    attribute = span.attributes.get(key)
    if attribute is None:
        return _MISSING
    if attribute.type == "string":
        try:
            return json.loads(attribute.value)
        except ValueError:
            return attribute.value
    return attribute.value


def _own_words(span: Span) -> str:
    """A gateway's error text from the SDK's ``MCP error <code>:`` on (what the server said)."""
    match = _CODE_ANYWHERE.search(span.status_message)
    return span.status_message[match.start() :] if match else span.status_message


def _error_code(span: Span, error_type: str | None, exceptions: tuple[str, ...]) -> int | None:
    status = span.attributes.get(STATUS_CODE)
    if status is None and error_type is None and not exceptions and not span.status_message:
        return None  # most spans: nothing could hold a code
    if status is not None and status.type == "int":  # Envoy AI Gateway records it as an int
        return int(status.value)
    candidates = [error_type, span.string(STATUS_CODE)]
    for text in candidates:
        if text is not None and _INTEGER.fullmatch(text):
            return int(text)
    for text in (span.status_message, *exceptions):
        match = _CODE_IN_TEXT.match(text)
        if (
            match is None and span.name in VENDOR_TOOL_CALLS
        ):  # the SDK's words, wrapped in the gateway's
            match = _CODE_ANYWHERE.search(text)
        if match:
            return int(match.group("code"))
    return None


def operation(span: Span) -> Operation:
    """The operation a span records (``method`` is ``None`` when it is not an MCP span)."""
    attrs = span.attributes
    error_type_attr = attrs.get(ERROR_TYPE)
    error_type = str(error_type_attr.value) if error_type_attr is not None else None
    exceptions = (
        tuple(
            str(event.attributes["exception.message"].value)
            for event in span.events
            if event.name == "exception" and "exception.message" in event.attributes
        )
        if span.events
        else ()
    )
    code = _error_code(span, error_type, exceptions)
    vendor = VENDOR_TOOL_CALLS.get(span.name)
    result = _payload(span, TOOL_RESULT)
    arguments = _payload(span, TOOL_ARGUMENTS)
    if span.name == CONTEXTFORGE_TOOL_CALL:
        result = _payload(span, CONTEXTFORGE_OUTPUT) if result is _MISSING else result
        arguments = _payload(span, CONTEXTFORGE_INPUT) if arguments is _MISSING else arguments
        if isinstance(result, dict) and "is_error" in result and "isError" not in result:
            result = {**result, "isError": result["is_error"]}  # its pydantic field name
    if error_type == TOOL_ERROR or (isinstance(result, dict) and result.get("isError") is True):
        outcome = "tool_error"
    elif code is not None:
        outcome = "jsonrpc_error"
    elif error_type is not None or span.status_code == "error":
        outcome = "error"
    else:  # status OK or unset, and no error recorded
        outcome = "result"
    request_id_attr = attrs.get(REQUEST_ID)
    server = _server_name(span)
    version = span.string(PROTOCOL_VERSION)
    method = _method(span)
    tool = span.string(TOOL_NAME)
    if tool is None and "mcp.tool.name" in attrs:
        tool = str(attrs["mcp.tool.name"].value)
    if tool is None and vendor is not None and vendor[1] in attrs:
        tool = str(attrs[vendor[1]].value)
    if tool is None and method == "tools/call":
        tool = target_in_name(span.name, method)
    return Operation(  # by position (in the order of its fields): made for every span
        span,
        span.kind if span.kind in ("client", "server") else "unknown",  # side
        method,
        tool,
        str(request_id_attr.value) if request_id_attr is not None else None,  # request_id
        span.string(SESSION_ID),  # session_id
        version,
        _VERSION_ON_SPAN if version else "no protocol version seen",  # version_source
        outcome,
        code,  # error_code
        error_type,
        _own_words(span) if vendor is not None else span.status_message,  # status_description
        exceptions,
        arguments,
        result,
        server,
        None,  # peer: set by the tracker
        [f"a {vendor[0]} span ({span.name}): {vendor[2]}"] if vendor is not None else [],  # notes
    )


class OperationTracker:
    """Follows operations in file order: sessions' protocol versions, and client/server peers.

    Memory is bounded: the most recent :data:`MAX_REMEMBERED` ``tools/call``
    spans that still wait for their other side are kept, which covers any
    realistic distance between the two sides of one call in a file (both are
    exported within seconds of each other).
    """

    def __init__(self, assumed_version: str | None = None) -> None:
        self.assumed_version = assumed_version
        self.versions: OrderedDict[tuple[str, ...], tuple[str, str]] = OrderedDict()
        self.by_span: OrderedDict[tuple[str, str], Operation] = OrderedDict()
        self.by_parent: OrderedDict[tuple[str, str], Operation] = OrderedDict()

    def observe(self, op: Operation) -> None:
        """Fill in what the span does not say itself, and join the operation to its peer."""
        span = op.span
        key = self._session_key(op)
        if op.version is not None:
            if op.method == "initialize":
                self._remember(self.versions, key, (op.version, f"initialize span {span.span_id}"))
        elif key in self.versions:
            op.version, op.version_source = self.versions[key]
        elif self.assumed_version is not None:
            op.version, op.version_source = self.assumed_version, "assumed (--assume-version)"
        if op.method != "tools/call":
            return  # only calls are joined (for the per-call rules)
        peer = None  # the other side, waiting; found, it waits no more
        if op.side == "server" and span.parent_span_id:
            peer = self.by_span.pop((span.trace_id, span.parent_span_id), None)
        elif op.side == "client":
            peer = self.by_parent.pop((span.trace_id, span.span_id), None)
        if peer is not None:
            op.peer, peer.peer = peer, op
            op.notes.append(f"joined with {peer.where()} of the same call (trace context)")
            for one, other in ((op, peer), (peer, op)):
                if one.side == "client" and other.server is not None:
                    one.server = other.server  # the server's own name, from its resource
            if op.version is None and peer.version is not None:
                op.version, op.version_source = (
                    peer.version,
                    f"{peer.version_source} ({peer.side} side)",
                )
        if peer is not None:
            return
        if op.side == "client":  # its server span may come later and look for its parent
            self._remember(self.by_span, (span.trace_id, span.span_id), op)
        elif op.side == "server" and span.parent_span_id:  # its client span may come later
            self._remember(self.by_parent, (span.trace_id, span.parent_span_id), op)

    @staticmethod
    def _session_key(op: Operation) -> tuple[str, ...]:
        if op.session_id is not None:
            return ("session", op.session_id)
        # No session id (stdio often has none): one session per process and side.
        resource = op.span.resource
        instance = resource.get("service.instance.id") or resource.get("service.name")
        return ("process", str(instance.value) if instance else "", op.side)

    @staticmethod
    def _remember(store: OrderedDict[Any, Any], key: Any, value: Any) -> None:
        store.pop(key, None)
        store[key] = value
        if len(store) > MAX_REMEMBERED:
            store.popitem(last=False)


def as_exchange(op: Operation) -> Exchange | None:
    """The ``tools/call`` request and error response a span stands for, for the classifier."""
    if op.method != "tools/call" or op.outcome != "jsonrpc_error":
        return None
    params: dict[str, Any] = {}
    if op.tool is not None:
        params["name"] = op.tool
    arguments = op.arguments if op.arguments is not _MISSING else _peer_arguments(op)
    if arguments is not _MISSING:
        params["arguments"] = arguments
    request_id: Any = op.request_id if op.request_id is not None else op.span.span_id
    request = {"jsonrpc": "2.0", "id": request_id, "method": "tools/call", "params": params}
    error = {"code": op.error_code, "message": op.error_text or ""}
    response = {"jsonrpc": "2.0", "id": request_id, "error": error}
    line = op.span.line
    session = Session(1, version=op.version, version_source=op.version_source)
    return Exchange(
        SourceMessage(request, 0, 0, line, 1),
        SourceMessage(response, 0, 0, line, 1),
        "tools/call",
        None,
        session,
    )


def _peer_arguments(op: Operation) -> Any:
    return op.peer.arguments if op.peer is not None else _MISSING
