"""The session model: who said what to whom, in which protocol version.

Messages go in one at a time, in file order; completed request/response pairs
(:class:`Exchange`) come out. The tracker keeps only what is in flight, so a
file of any size is read in bounded memory.

Facts it relies on:

* Client and server number their requests independently: the same id can be
  in flight both ways at once, so pending requests are keyed by direction and
  id, and an id keeps its JSON type (``1`` and ``"1"`` are different ids).
* A new ``initialize`` starts a new session in the same file.
* The protocol version is what the server agreed in the ``initialize`` result;
  2026-07-28 traffic without a handshake names it per request in
  ``params._meta["io.modelcontextprotocol/protocolVersion"]``.
* The tool catalog comes from ``tools/list`` results, page by page
  (``nextCursor``); ``notifications/tools/list_changed`` makes it stale.
* What the session showed of each tool call by call (:class:`ToolTrack`: it
  answered, it ran and failed, its arguments were validated, the server said
  it does not exist) is written by the classifier, which reads it for the
  calls after; the tools an earlier session listed are carried into the next.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from migrator.model.jsonrpc import decode_envelope
from migrator.model.jsontext import display, json_type
from migrator.model.units import Direction, Kind, SourceMessage

PROTOCOL_VERSION_META = "io.modelcontextprotocol/protocolVersion"

C2S, S2C = Direction.CLIENT_TO_SERVER, Direction.SERVER_TO_CLIENT

# Requests only a server sends to its client.
SERVER_REQUESTS = frozenset({"sampling/createMessage", "roots/list", "elicitation/create"})
# Requests either side may send.
EITHER_SIDE_REQUESTS = frozenset({"ping"})
# Notifications only a server sends.
SERVER_NOTIFICATIONS = frozenset({
    "notifications/tools/list_changed", "notifications/resources/list_changed",
    "notifications/prompts/list_changed", "notifications/resources/updated",
    "notifications/message", "notifications/elicitation/complete",
})  # fmt: skip

MAX_PENDING = 100_000  # far above any real in-flight count; bounds memory on broken files
MAX_TRACKED_TOOLS = 4096  # tools remembered per session; far above any real server's
MAX_TRACKED_ARGUMENTS = 64  # argument names remembered per tool
ARGUMENT_SAMPLE = 32  # successful calls whose arguments are read: the hot path stays cheap


def id_key(request_id: Any) -> tuple[str, Any]:
    """A hashable key for an id that keeps its JSON type apart."""
    if isinstance(request_id, (dict, list)):
        return (
            "json",
            display(request_id)
            if not isinstance(request_id, dict)
            else display(sorted(request_id.items(), key=lambda kv: kv[0])),
        )
    return (type(request_id).__name__, request_id)


@dataclass
class Catalog:
    """The tools a server listed in one session."""

    tools: dict[str, dict[str, Any]] = field(default_factory=dict)
    complete: bool = False  # a full listing (every page) has been seen
    stale: bool = False  # list_changed arrived after the last full listing
    line: int | None = None  # where the last listing ended
    _paging: dict[str, dict[str, Any]] | None = None
    _paging_from_start: bool = False

    @property
    def authoritative(self) -> bool:
        """True when absence from the catalog means the tool does not exist."""
        return self.complete and not self.stale

    def describe(self) -> str:
        """A short account for evidence lines."""
        if not self.complete:
            return "no complete tools/list seen"
        where = f" (tools/list result at line {self.line})" if self.line else ""
        if self.stale:
            return f"catalog of {len(self.tools)} tools{where}, stale after tools/list_changed"
        return f"complete catalog of {len(self.tools)} tools{where}"

    def start_listing(self, from_start: bool) -> None:
        if from_start or self._paging is None:
            self._paging = {}
            self._paging_from_start = from_start

    def add_page(self, result: Any, line: int) -> None:
        if not isinstance(result, dict):
            return
        if self._paging is None:  # a result whose request we did not see
            self._paging, self._paging_from_start = {}, False
        tools = result.get("tools")
        if isinstance(tools, list):
            for tool in tools:
                if isinstance(tool, dict) and isinstance(tool.get("name"), str):
                    self._paging[tool["name"]] = tool
        if result.get("nextCursor") is None:
            self.tools = self._paging
            self.complete = self._paging_from_start
            self.stale = False
            self.line = line
            self._paging = None
        else:  # more pages to come; until then the old listing stands
            self.tools = {**self.tools, **self._paging}


@dataclass
class ToolTrack:
    """What one session showed of one tool, from the calls made to it so far.

    Lines are those of the responses. ``sent_types`` and ``always_sent`` come
    from the first :data:`ARGUMENT_SAMPLE` calls that succeeded: the JSON types
    each argument had, and the arguments every one of them sent.
    """

    successes: int = 0
    first_success: int | None = None
    last_success: int | None = None
    ran: int | None = None  # an isError result that is not an unknown-tool answer
    validated: int | None = None  # an error that named an argument problem in an SDK's words
    said_unknown: int | None = None  # the server said the tool does not exist
    sent_types: dict[str, set[str]] = field(default_factory=dict)
    always_sent: frozenset[str] | None = None

    def record_success(self, line: int, arguments: dict[str, Any]) -> None:
        """A call that succeeded, with the arguments it sent (JSON types only are kept)."""
        self.successes += 1
        self.first_success = line if self.first_success is None else self.first_success
        self.last_success = line
        if self.successes > ARGUMENT_SAMPLE:  # enough calls to know the arguments' shape
            return
        for name, value in arguments.items():
            types = self.sent_types.get(name)
            if types is None:
                if len(self.sent_types) >= MAX_TRACKED_ARGUMENTS:
                    continue
                types = self.sent_types[name] = set()
            types.add(json_type(value))
        sent = frozenset(arguments)
        self.always_sent = sent if self.always_sent is None else self.always_sent & sent

    @property
    def unknown_since(self) -> int | None:
        """The line where the server said the tool does not exist, if nothing since says it does."""
        if self.said_unknown is None:
            return None
        later = [line for line in (self.last_success, self.ran, self.validated) if line is not None]
        return None if any(line > self.said_unknown for line in later) else self.said_unknown


@dataclass
class Session:
    """One initialize-to-initialize stretch of a transcript."""

    number: int
    messages: int = 0  # messages seen in this session
    version: str | None = None
    version_source: str = "no initialize seen"
    catalog: Catalog = field(default_factory=Catalog)
    server_name: str | None = None  # serverInfo of the initialize result, when seen
    server_version: str | None = None
    tools: dict[str, ToolTrack] = field(default_factory=dict)
    # Tools listed by the sessions before this one in the same file, with the
    # line of that listing: a schema to check arguments against, no more.
    earlier_listings: dict[str, tuple[dict[str, Any], int]] = field(default_factory=dict)

    def track(self, tool: str) -> ToolTrack | None:
        """The record of ``tool``, made on first use; ``None`` when the session holds too many."""
        found = self.tools.get(tool)
        if found is None and len(self.tools) < MAX_TRACKED_TOOLS:
            found = self.tools[tool] = ToolTrack()
        return found


class PendingRequest:
    """A request in flight: its message, who sent it, its method and its session."""

    __slots__ = ("direction", "message", "method", "session")

    def __init__(
        self, message: SourceMessage, direction: Direction, method: str, session: Session
    ) -> None:
        self.message, self.direction, self.method, self.session = (
            message,
            direction,
            method,
            session,
        )


class InvalidCall(PendingRequest):
    """A plain tools/call (no ``_meta``: no probe case) whose arguments fail its inputSchema.

    The one-pass core keeps it as the full way would (its answer is judged the
    full way, or by the classifier alone when it is an error).
    """

    __slots__ = ()


_LINE_END = " \t\r\n"


class ReadRequest(PendingRequest):
    """A request the one-pass core took from its envelope alone; its message is made when asked for.

    Most requests are answered plainly and nothing ever reads them again, so the
    :class:`~migrator.model.units.SourceMessage` (which the full way and the rules
    read) is built only on the first read of :attr:`message`.
    """

    __slots__ = ("_envelope", "_line", "_text")

    def __init__(
        self,
        text: str,
        line: int,
        envelope: Any,
        direction: Direction,
        method: str,
        session: Session,
    ) -> None:
        self._text, self._line, self._envelope = text, line, envelope
        self.direction, self.method, self.session = direction, method, session

    if not TYPE_CHECKING:  # hidden from mypy, which would otherwise allow any attribute

        def __getattr__(self, name: str) -> Any:
            """Build the message on its first read (called only while its slot is empty)."""
            if name != "message":
                raise AttributeError(name)
            text = self._text
            end = len(text)  # the line without its trailing whitespace, as the reader makes it
            while end and text[end - 1] in _LINE_END:
                end -= 1
            envelope = self._envelope
            if envelope is None:  # read typed whole (a plain tools/call): its envelope now
                envelope = decode_envelope(text)
            message = SourceMessage.undecoded(
                text, 0, end, self._line, self.direction, Kind.REQUEST, envelope
            )
            self.message = message
            return message


class PendingCall(ReadRequest):
    """A plain tools/call request in flight, with its params as the one-pass core read them.

    The tool name and the arguments (a ``dict``, or ``None`` when none were sent)
    are kept until the answer comes, so that the answer is judged without
    decoding the request again.
    """

    __slots__ = ("arguments", "name")

    def __init__(
        self,
        text: str,
        line: int,
        envelope: Any,  # None: the line was read typed whole, its envelope is decoded if asked
        direction: Direction,
        session: Session,
        name: str,
        arguments: Any,
    ) -> None:
        self._text, self._line, self._envelope = text, line, envelope
        self.direction, self.method, self.session = direction, "tools/call", session
        self.name, self.arguments = name, arguments


@dataclass
class Exchange:
    """A response with the request it answers (when that was seen)."""

    request: SourceMessage | None
    response: SourceMessage
    method: str | None
    direction: Direction | None  # the request's direction
    session: Session
    notes: list[str] = field(default_factory=list)

    @property
    def version(self) -> str | None:
        """The protocol version governing this exchange."""
        if self.request is not None:
            meta_version = request_meta_version(self.request.payload)
            if meta_version is not None:
                return meta_version
        return self.session.version

    @property
    def version_source(self) -> str:
        """Where :attr:`version` came from."""
        if self.request is not None and request_meta_version(self.request.payload) is not None:
            return f"request _meta {PROTOCOL_VERSION_META}"
        return self.session.version_source


# The member that marks a method's result, to tell apart two requests with the
# same id in flight both ways when the transcript has no direction markers.
_RESULT_MARKERS = {
    "tools/call": "content", "tools/list": "tools", "initialize": "protocolVersion",
    "sampling/createMessage": "model", "roots/list": "roots", "elicitation/create": "action",
    "resources/list": "resources", "resources/read": "contents", "prompts/list": "prompts",
    "prompts/get": "messages", "completion/complete": "completion",
}  # fmt: skip


def _fits(method: str, payload: dict[str, Any]) -> bool:
    """Whether a response looks like the answer to ``method``."""
    if "error" in payload:
        return False
    result = payload.get("result")
    if not isinstance(result, dict):
        return False
    marker = _RESULT_MARKERS.get(method)
    if marker is None:  # ping and friends answer with an empty result
        return not (result.keys() - {"_meta"})
    if method == "tools/call":
        return isinstance(result.get("content"), list)
    return marker in result


def answered_of_two(
    one: PendingRequest, other: PendingRequest, payload: dict[str, Any]
) -> PendingRequest:
    """Which of two requests in flight with the same id (one each way) a response answers."""
    fitting = [p for p in (one, other) if _fits(p.method, payload)]
    if len(fitting) == 1:
        return fitting[0]
    return min((one, other), key=lambda p: p.message.line)  # the older is answered first


def request_meta_version(payload: Any) -> str | None:
    """The per-request protocol version of 2026-07-28 traffic, if any."""
    params = payload.get("params") if type(payload) is dict else None
    if type(params) is not dict or "_meta" not in params:  # the common case, decided fast
        return None
    meta = params["_meta"]
    version = meta.get(PROTOCOL_VERSION_META) if type(meta) is dict else None
    return version if type(version) is str else None


class SessionTracker:
    """Feeds on messages in order and pairs responses with their requests."""

    def __init__(self, assumed_version: str | None = None) -> None:
        self.assumed_version = assumed_version
        self.sessions = 0
        self.session = self._new_session()
        self.pending: OrderedDict[tuple[Direction, tuple[str, Any]], PendingRequest] = OrderedDict()
        self.messages = 0

    def _new_session(self) -> Session:
        self.sessions += 1
        session = Session(self.sessions)
        previous: Session | None = getattr(self, "session", None)
        if previous is not None:
            listed = dict(previous.earlier_listings)
            line = previous.catalog.line or 0
            for name, tool in previous.catalog.tools.items():
                if len(listed) >= MAX_TRACKED_TOOLS and name not in listed:
                    break
                listed[name] = (tool, line)
            session.earlier_listings = listed
        if self.assumed_version is not None:
            session.version = self.assumed_version
            session.version_source = "assumed (--assume-version; no initialize seen)"
        return session

    def observe(self, message: SourceMessage) -> Exchange | None:
        """Take the next message; return the exchange it completes, if any."""
        self.messages += 1
        self.session.messages += 1
        # The envelope (kind, method, id) decides; the payload is decoded only
        # for the few methods whose contents the session needs.
        kind = message.kind
        if kind is Kind.REQUEST:
            self._on_request(message)
        elif kind is Kind.NOTIFICATION:
            if message.direction is None:
                message.direction = S2C if message.method in SERVER_NOTIFICATIONS else C2S
            if message.method == "notifications/tools/list_changed":
                self.session.catalog.stale = True
        elif kind is Kind.RESULT or kind is Kind.ERROR:
            return self._on_response(message)
        return None

    def _on_request(self, message: SourceMessage) -> None:
        method = message.method
        assert method is not None  # a request has a string method
        key = id_key(message.id)
        if message.direction is None:
            message.direction = self._infer_request_direction(method, key)
        if method == "initialize":
            if self.session.messages > 1:  # not the first thing in the file
                self.session = self._new_session()
                self.session.messages = 1
            self.pending.clear()  # what the old session left unanswered stays unanswered
            params = message.payload.get("params")
            requested = params.get("protocolVersion") if isinstance(params, dict) else None
            if isinstance(requested, str):
                self.session.version = requested
                self.session.version_source = "initialize request (no result seen yet)"
        elif method == "tools/list":
            params = message.payload.get("params")
            cursor = params.get("cursor") if isinstance(params, dict) else None
            self.session.catalog.start_listing(from_start=cursor is None)
        slot = (message.direction, key)
        self.pending.pop(slot, None)  # a reused id replaces the old request
        self.pending[slot] = PendingRequest(message, message.direction, method, self.session)
        if len(self.pending) > MAX_PENDING:
            self.pending.popitem(last=False)

    def in_flight(self, message: SourceMessage) -> PendingRequest | None:
        """The pending request a new request's id collides with (same id, same direction)."""
        method = message.method
        if message.kind is not Kind.REQUEST or method is None:
            return None
        key = id_key(message.id)
        direction = message.direction or self._infer_request_direction(method, key)
        if method == "initialize":
            return None  # a new session: ids start over
        return self.pending.get((direction, key))

    def _infer_request_direction(self, method: str, key: tuple[str, Any]) -> Direction:
        if method in SERVER_REQUESTS:
            return S2C
        if method in EITHER_SIDE_REQUESTS and (C2S, key) in self.pending:
            # The client cannot reuse an id it has in flight: this one is the server's.
            return S2C
        return C2S

    def _on_response(self, message: SourceMessage) -> Exchange:
        key = id_key(message.id)
        notes: list[str] = list(message.notes)  # what the reader knows (a gateway log's gaps)
        pending: PendingRequest | None
        if message.direction is not None:
            pending = self.pending.pop((message.direction.reverse, key), None)
        else:
            pending = self._match_undirected(message, key, notes)
            if pending is not None:
                message.direction = pending.direction.reverse
        if pending is None:
            notes.append(f"no request with id {display(message.id)} is in flight")
            return Exchange(None, message, None, None, self.session, notes)
        # A reader that makes both halves from one record gives both the same notes: once each.
        notes[:0] = [note for note in pending.message.notes if note not in notes]
        exchange = Exchange(
            pending.message, message, pending.method, pending.direction, pending.session, notes
        )
        if pending.method == "initialize" or pending.method == "tools/list":
            self._learn(exchange, message.payload)
        return exchange

    def _match_undirected(
        self, message: SourceMessage, key: tuple[str, Any], notes: list[str]
    ) -> PendingRequest | None:
        to_client = self.pending.get((C2S, key))
        to_server = self.pending.get((S2C, key))
        if to_client is None or to_server is None:
            chosen = to_client or to_server
        else:
            chosen = answered_of_two(to_client, to_server, message.payload)
            notes.append(
                f"id {display(message.id)} was in flight both ways; "
                f"paired with the {chosen.method} request at line {chosen.message.line}"
            )
        if chosen is not None:
            del self.pending[(chosen.direction, key)]
        return chosen

    def _learn(self, exchange: Exchange, payload: dict[str, Any]) -> None:
        result = payload.get("result")
        if exchange.method == "initialize" and isinstance(result, dict):
            version = result.get("protocolVersion")
            if isinstance(version, str):
                exchange.session.version = version
                exchange.session.version_source = (
                    f"initialize result at line {exchange.response.line}"
                )
            info = result.get("serverInfo")
            if isinstance(info, dict) and isinstance(info.get("name"), str):
                exchange.session.server_name = info["name"]
                server_version = info.get("version")
                exchange.session.server_version = (
                    server_version if isinstance(server_version, str) else None
                )
        elif exchange.method == "tools/list" and "result" in payload:
            exchange.session.catalog.add_page(result, exchange.response.line)
