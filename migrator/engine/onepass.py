"""The selected rules compiled into one pass over JSON Lines.

:class:`OnePass` takes a wire line (one JSON-RPC message) and does, once, the
work that line needs: the envelope is decoded with msgspec; the message is
routed by (kind, method or answered method); the facts its rules read
(:class:`~migrator.rules.base.Fact`) are established from the envelope and one
typed decode of a tools/call and of its result; and the session state (pairing,
versions, catalog, what each tool showed) is updated in place. A hook is called
only where the facts do not keep it quiet, and then the line goes the full way:
:meth:`migrator.engine.pipeline.Pipeline.handle` of the line's wire unit, which calls
every hook as before.

So valid traffic calls no rule code at all, and what is found, fixed and written
is exactly what the full path gives: the full path is the reference
(``tests/test_onepass.py`` runs both on the same inputs and compares). The facts
a route can establish are fixed below; which of them a run needs (and so which
decodes and validations it pays for) comes from the selected rules' declarations
(``message_quiet_given`` and ``exchange_quiet_given``), compiled once per run.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

import msgspec
import orjson

from migrator.judge import schemas, validation
from migrator.judge.classify import Outcome
from migrator.judge.validation import FastValidator, ToolSchemas, default_dialect
from migrator.model.jsonrpc import (
    BIGGEST_JSON_INT,
    SMALLEST_JSON_INT,
    UNSET,
    Envelope,
    decode_envelope,
    fits_json_int,
    object_starts,
    well_formed_error,
)
from migrator.model.session import (
    ARGUMENT_SAMPLE,
    EITHER_SIDE_REQUESTS,
    MAX_PENDING,
    MAX_TRACKED_TOOLS,
    SERVER_REQUESTS,
    Exchange,
    InvalidCall,
    PendingCall,
    PendingRequest,
    ReadRequest,
    Session,
    SessionTracker,
    ToolTrack,
    answered_of_two,
    request_meta_version,
)
from migrator.model.source import invalid_utf8_column
from migrator.model.tool_calls import (
    PLAIN_CALL_VALID_VERSIONS,
    plain_arguments,
    plain_call,
    plain_call_request,
)
from migrator.model.tool_results import (
    SCHEMA_VALID_VERSIONS,
    PlainToolResult,
    plain_call_response,
    plain_result,
)
from migrator.model.units import Direction, Edit, Kind, SourceMessage, Unit, apply_edits
from migrator.rules.base import Fact

if TYPE_CHECKING:
    from migrator.engine.results import FileReport
    from migrator.rules.base import RuleContext
    from migrator.rules.registry import RuleSet

__all__ = ["REFERENCE_ENVIRONMENT", "OnePass", "in_use", "reference_core"]

C2S, S2C = Direction.CLIENT_TO_SERVER, Direction.SERVER_TO_CLIENT
_LINE_END = " \t\r\n"
_SESSION_METHODS = frozenset({"initialize", "tools/list"})  # their answers change the session
# A response names its result within its first bytes (after jsonrpc and the id); a line
# that does there is first read whole as a plain tools/call response.
_RESULT_WITHIN = 96
_MAX_ROUTES = 1024  # methods remembered per run; a file of made-up method names stays bounded

# What each route can establish. A hook that needs a fact not listed for its
# route is called, the full way.
_REQUEST_FACTS = frozenset({Fact.WELL_FORMED, Fact.FRESH_ID})
_CALL_FACTS = _REQUEST_FACTS | {Fact.NOT_PROBED, Fact.ARGUMENTS_VALID, Fact.TOOLS_SHAPE_VALID}
_LISTING_FACTS = _REQUEST_FACTS | {Fact.TOOLS_SHAPE_VALID}
_NOTIFICATION_FACTS = frozenset({Fact.WELL_FORMED})
_RESULT_FACTS = frozenset({Fact.WELL_FORMED, Fact.ANSWERED})
_CALL_RESULT_FACTS = _RESULT_FACTS | {
    Fact.NOT_PROBED, Fact.TOOLS_SHAPE_VALID, Fact.STRUCTURED_VALID,
}  # fmt: skip
_ERROR_FACTS = frozenset({Fact.WELL_FORMED, Fact.ANSWERED})
_LISTING_RESULT_FACTS = _RESULT_FACTS | {Fact.TOOLS_SHAPE_VALID, Fact.TOOL_SCHEMAS_VALID}

Route = frozenset[Fact] | None
"""The facts a route's hooks need established, or ``None``: the route goes the full way."""


def _quiet_given(hook: Callable[..., Any]) -> frozenset[Fact]:
    """The facts a message hook declares keep it quiet (none declared: none)."""
    given = getattr(getattr(hook, "__self__", None), "message_quiet_given", None)
    return given or frozenset()


def _needed(hooks: tuple[Callable[..., Any], ...], declared: str, facts: frozenset[Fact]) -> Route:
    """What ``hooks`` need established to stay quiet, or ``None`` if ``facts`` cannot keep one quiet."""
    needed: set[Fact] = set()
    for hook in hooks:
        given = getattr(getattr(hook, "__self__", None), declared, None)
        if given is None or not given <= facts:
            return None
        needed |= given
    return frozenset(needed)


REFERENCE_ENVIRONMENT = "MCP_TRANSCRIPTS_REFERENCE_CORE"
"""Set to ``1``, every line goes the full way (the reference), for comparisons and benchmarks."""
_reference = [os.environ.get(REFERENCE_ENVIRONMENT) == "1"]


def in_use() -> bool:
    """Whether wire files go through the one pass (not while :func:`reference_core` is on)."""
    return not _reference[0]


@contextlib.contextmanager
def reference_core() -> Iterator[None]:
    """Within it, every line goes the full way: the reference the one pass is compared with."""
    before = _reference[0]
    _reference[0] = True
    try:
        yield
    finally:
        _reference[0] = before


FullWay = Callable[[str, int, "Direction | None"], str]
"""How a line goes the full way: the pipeline's handling of the line's wire unit."""
Judge = Callable[[Unit, SourceMessage, Exchange, list[Edit]], None]
"""How a completed exchange is classified and its tools/call rule run (:meth:`Pipeline.judge`)."""


class _CallPlan:
    """What a plain tools/call of one tool needs decided, looked up once per session.

    A session calls the same few tools thousands of times; what their calls are
    checked against (the tool's inputSchema and outputSchema validators, whether
    the session's version admits the plain shapes) changes only with the
    session, its catalog or its version, so it is worked out on the first call
    after one of them changed (:meth:`OnePass._plan`) and then read as attributes.
    """

    __slots__ = (
        "call_admitted", "declares_output", "input", "input_valid", "output", "output_valid",
        "result_admitted", "track",
    )  # fmt: skip

    def __init__(
        self,
        call_admitted: bool,
        result_admitted: bool,
        input_validator: FastValidator | None,
        declares_output: bool,
        output_validator: FastValidator | None,
    ) -> None:
        self.call_admitted = call_admitted  # the version admits a plain call as valid
        self.result_admitted = result_admitted  # ... and a plain result
        self.input = input_validator  # None: nothing to check the arguments against
        self.declares_output = declares_output  # MCP204 reads structuredContent
        self.output = output_validator  # None: nothing to check it against
        # The compiled verdicts, called directly (see _verdict).
        self.input_valid = _compiled_verdict(input_validator)
        self.output_valid = _compiled_verdict(output_validator)
        self.track: ToolTrack | None = None  # the tool's record, once a call succeeded


class OnePass:
    """One file's pass: :meth:`feed` does what the full way does with a wire line, faster.

    It updates the pipeline's own session tracker and report, so lines may go
    either way in any order: a line the pass cannot decide goes to ``full_way``
    whole, and the state it leaves is the state the full way reads.
    """

    def __init__(
        self,
        rule_set: RuleSet,
        tracker: SessionTracker,
        report: FileReport,
        tool_schemas: ToolSchemas,
        full_way: FullWay,
        context: RuleContext,
        judge: Judge,
        *,
        enabled: bool = True,
    ) -> None:
        self.enabled = enabled  # off: every line goes the full way
        self.lines_full_way = 0  # for tests and profiles
        self._full_way = full_way
        self._rule_set = rule_set
        self._tracker = tracker
        self._report = report
        self._tool_schemas = tool_schemas
        self._context = context
        self._judge = judge
        # The classifier runs on every tools/call answer when a tools/call rule is
        # selected; on a plain success its only effect is the tool's record.
        self._records_calls = bool(rule_set.tool_call)
        # A tools/call rule that judges ordinary results would have to be called.
        self._results_judged = bool(rule_set.by_outcome[Outcome.TOOL_RESULT])
        self._requests: dict[str, Route] = {}
        # Per request method, the hooks that valid arguments keep quiet (MCP203): on a
        # call whose arguments fail, they are the only ones called; the other facts hold.
        self._argument_hooks: dict[str, tuple[Callable[..., Any], ...]] = {}
        self._notifications: dict[str, Route] = {}
        self._results: dict[str, Route] = {}
        self._errors: dict[str, bool] = {}
        self._result_hooks = rule_set.message_hooks(Kind.RESULT, None)
        self._versions: dict[frozenset[str], dict[str, bool]] = {}
        # tools/call, by far the most common request, has its routes compiled up front.
        self._call_route = self._request_route("tools/call")
        self._call_result_route = self._result_route("tools/call")
        self._plans: dict[str, _CallPlan] = {}
        self._plans_for: tuple[Session | None, dict[str, Any] | None, str | None] = (
            None, None, None,
        )  # fmt: skip

    # -- routes, compiled on first sight of a method -----------------------------------

    def _request_route(self, method: str) -> Route:
        route = self._requests.get(method, UNSET)
        if route is UNSET:
            facts = (
                _CALL_FACTS
                if method == "tools/call"
                else _LISTING_FACTS
                if method == "tools/list"
                else _REQUEST_FACTS
            )
            hooks = self._rule_set.message_hooks(Kind.REQUEST, method)
            route = _needed(hooks, "message_quiet_given", facts)
            if len(self._requests) < _MAX_ROUTES:
                self._requests[method] = route
                self._argument_hooks[method] = tuple(
                    hook for hook in hooks if Fact.ARGUMENTS_VALID in _quiet_given(hook)
                )
        return route  # type: ignore[no-any-return]

    def _notification_route(self, method: str) -> Route:
        route = self._notifications.get(method, UNSET)
        if route is UNSET:
            hooks = self._rule_set.message_hooks(Kind.NOTIFICATION, method)
            route = _needed(hooks, "message_quiet_given", _NOTIFICATION_FACTS)
            if len(self._notifications) < _MAX_ROUTES:
                self._notifications[method] = route
        return route  # type: ignore[no-any-return]

    def _result_route(self, method: str) -> Route:
        route = self._results.get(method, UNSET)
        if route is UNSET:
            facts = (
                _CALL_RESULT_FACTS
                if method == "tools/call"
                else _LISTING_RESULT_FACTS
                if method == "tools/list"
                else _RESULT_FACTS
            )
            on_message = _needed(self._result_hooks, "message_quiet_given", facts)
            on_exchange = _needed(
                self._rule_set.exchange_hooks(method), "exchange_quiet_given", facts
            )
            route = None if on_message is None or on_exchange is None else on_message | on_exchange
            if method == "tools/call" and self._results_judged:
                route = None
            if len(self._results) < _MAX_ROUTES:
                self._results[method] = route
        return route  # type: ignore[no-any-return]

    def _error_route(self, method: str) -> bool:
        """Whether an error answering ``method`` is left to the classifier alone.

        Its facts are a well-formed error (integer code, string message), answered,
        and (for tools/call) a request that is no probe case; hooks that read only
        results have nothing to read in it.
        """
        quiet = self._errors.get(method)
        if quiet is None:
            facts = _ERROR_FACTS | ({Fact.NOT_PROBED} if method == "tools/call" else set())
            on_message = _needed(
                self._rule_set.message_hooks(Kind.ERROR, None), "message_quiet_given", facts
            )
            quiet = on_message is not None and all(
                getattr(getattr(hook, "__self__", None), "results_only", False)
                or _needed((hook,), "exchange_quiet_given", facts) is not None
                for hook in self._rule_set.exchange_hooks(method)
            )
            if len(self._errors) < _MAX_ROUTES:
                self._errors[method] = quiet
        return quiet

    def _version_accepts(self, version: str, versions: frozenset[str]) -> bool:
        """Whether the schema governing ``version`` is one of ``versions``."""
        known = self._versions.get(versions)
        if known is None:
            known = self._versions[versions] = {}
        accepted = known.get(version)
        if accepted is None:
            accepted = known[version] = schemas.closest_version(version) in versions
            if len(known) > _MAX_ROUTES:  # made-up versions, one per session: stay bounded
                known.clear()
        return accepted

    def _plan(self, session: Session, name: str) -> _CallPlan:
        """The plan of a plain call of tool ``name`` in ``session`` (as its catalog and version are now)."""
        tools, version = session.catalog.tools, session.version
        plans_for = self._plans_for
        if plans_for[0] is not session or plans_for[1] is not tools or plans_for[2] != version:
            self._plans = {}
            self._plans_for = (session, tools, version)
        plan = self._plans.get(name)
        if plan is not None:
            return plan
        call_route = self._call_route or frozenset()
        result_route = self._call_result_route or frozenset()
        call_admitted = (
            Fact.TOOLS_SHAPE_VALID not in call_route
            or version is None
            or self._version_accepts(version, PLAIN_CALL_VALID_VERSIONS)
        )
        result_admitted = (
            Fact.TOOLS_SHAPE_VALID not in result_route
            or version is None
            or self._version_accepts(version, SCHEMA_VALID_VERSIONS)
        )
        tool = tools.get(name)
        input_validator = output_validator = None
        declares_output = False
        if tool is not None:
            if Fact.ARGUMENTS_VALID in call_route:
                input_validator = self._tool_schemas.get(tool.get("inputSchema"), version)
            if Fact.STRUCTURED_VALID in result_route and "outputSchema" in tool:
                declares_output = True
                output_validator = self._tool_schemas.get(tool["outputSchema"], version)
        plan = _CallPlan(
            call_admitted, result_admitted, input_validator, declares_output, output_validator
        )
        if len(self._plans) < MAX_TRACKED_TOOLS:
            self._plans[name] = plan
        return plan

    # -- the pass ------------------------------------------------------------------------

    def feed(self, text: str, line_no: int, direction: Direction | None = None) -> str:
        """Judge one wire line; return its text as it should be written.

        Raises:
            UnsafeRewriteError: a rewrite failed validation (only the full way rewrites).
        """
        if (
            not self.enabled
            or text[:1] != "{"
            or (not text.isascii() and invalid_utf8_column(text) is not None)
        ):
            return self._full(text, line_no, direction)
        if text.find('"result"', 0, _RESULT_WITHIN) > 0:  # likely a response: try it typed whole
            response = plain_call_response(text)
            if response is not None:
                if response.jsonrpc != "2.0":
                    return self._full(text, line_no, direction)
                return self._call_answer(text, response.id, response.result, line_no, direction)
        elif '"tools/call"' in text:  # likely a tools/call request: try it typed whole
            request = plain_call_request(text)
            if request is not None and request.params is not None and request.id is not UNSET:
                if request.jsonrpc != "2.0":
                    return self._full(text, line_no, direction)
                call = plain_arguments(request.params)
                return self._call(text, request.id, call, None, line_no, direction)
        try:
            envelope = decode_envelope(text)
        except (msgspec.MsgspecError, ValueError, RecursionError):
            return self._full(text, line_no, direction)
        if envelope.jsonrpc != "2.0":
            return self._full(text, line_no, direction)
        method = envelope.method
        if method is not UNSET:
            if type(method) is not str or (envelope.params and not object_starts(envelope.params)):
                return self._full(text, line_no, direction)
            if envelope.id is UNSET:
                return self._notification(text, method, line_no, direction)
            if method == "tools/call":
                call = plain_call(envelope.params)
                return self._call(text, envelope.id, call, envelope, line_no, direction)
            return self._request(text, envelope, method, line_no, direction)
        if envelope.result and not envelope.error and object_starts(envelope.result):
            return self._result(text, envelope, envelope.id, None, line_no, direction)
        if envelope.error and not envelope.result and object_starts(envelope.error):
            return self._error(text, envelope, line_no, direction)
        return self._full(text, line_no, direction)  # not a message

    def _full(self, text: str, line_no: int, direction: Direction | None) -> str:
        self.lines_full_way += 1
        return self._full_way(text, line_no, direction)

    def _count(self) -> None:
        self._report.messages += 1
        tracker = self._tracker
        tracker.messages += 1
        tracker.session.messages += 1

    def _message(
        self, text: str, line_no: int, direction: Direction | None, kind: Kind, envelope: Envelope
    ) -> SourceMessage:
        end = len(text)  # the line without its trailing whitespace (rstrip would copy the line)
        while end and text[end - 1] in _LINE_END:
            end -= 1
        return SourceMessage.undecoded(text, 0, end, line_no, direction, kind, envelope)

    def _notification(
        self, text: str, method: str, line_no: int, direction: Direction | None
    ) -> str:
        if self._notification_route(method) is None:
            return self._full(text, line_no, direction)
        self._count()
        if method == "notifications/tools/list_changed":
            self._tracker.session.catalog.stale = True
        return text

    def _request(
        self,
        text: str,
        envelope: Envelope,
        method: str,
        line_no: int,
        direction: Direction | None,
    ) -> str:
        request_id = envelope.id
        id_type = type(request_id)
        if (id_type is not int or not fits_json_int(request_id)) and id_type is not str:
            return self._full(text, line_no, direction)  # a float or odd id: the full way words it
        route = self._request_route(method)
        if route is None:
            return self._full(text, line_no, direction)
        tracker = self._tracker
        pending = tracker.pending
        key = (id_type.__name__, request_id)
        if direction is None:  # as SessionTracker infers it
            if method in SERVER_REQUESTS or (
                method in EITHER_SIDE_REQUESTS and (C2S, key) in pending
            ):
                direction = S2C
            else:
                direction = C2S
        slot = (direction, key)
        if method != "initialize" and slot in pending:  # MCP304's to word
            return self._full(text, line_no, direction)
        session = tracker.session
        if method in _SESSION_METHODS:
            message = self._message(text, line_no, direction, Kind.REQUEST, envelope)
            if Fact.TOOLS_SHAPE_VALID in route and not self._listing_request_valid(
                message.payload, session.version
            ):
                return self._full(text, line_no, direction)
            self._report.messages += 1
            tracker.observe(message)  # a new session, or a listing begins: the tracker's own code
            return text
        pending[slot] = ReadRequest(text, line_no, envelope, direction, method, session)
        if len(pending) > MAX_PENDING:
            pending.popitem(last=False)
        self._count()
        return text

    def _call(
        self,
        text: str,
        request_id: Any,
        call: tuple[str, Any] | None,
        envelope: Envelope | None,
        line_no: int,
        direction: Direction | None,
    ) -> str:
        """A tools/call request: in flight as a :class:`PendingCall` when its rules keep quiet.

        The common case of the whole pass, so it reads what it can from the tool's
        plan (:meth:`_plan`) and does nothing twice. ``call`` is the plain call's name
        and arguments (``None``: not a plain call); ``envelope`` is ``None`` when the
        line was read typed whole. A call with invalid arguments has its argument
        hooks called (:meth:`_invalid_arguments`).
        """
        route = self._call_route
        id_type = type(request_id)
        if route is None or not (
            id_type is str
            or (id_type is int and SMALLEST_JSON_INT <= request_id <= BIGGEST_JSON_INT)
        ):
            return self._full(text, line_no, direction)  # a float or odd id: the full way words it
        given = direction  # the hooks see a message as the reader made it
        slot = (direction or C2S, (id_type.__name__, request_id))  # a client's request
        tracker = self._tracker
        pending = tracker.pending
        if slot in pending:  # MCP304's to word
            return self._full(text, line_no, direction)
        if call is None:
            return self._full(text, line_no, direction)
        name, arguments = call
        session = tracker.session
        plan = self._plan(session, name)
        if not plan.call_admitted:
            return self._full(text, line_no, direction)
        if plan.input is not None and not _verdict(
            plan.input, plan.input_valid, {} if arguments is None else arguments
        ):
            return self._invalid_arguments(text, envelope, line_no, given, slot)
        pending[slot] = PendingCall(text, line_no, envelope, slot[0], session, name, arguments)
        if len(pending) > MAX_PENDING:
            pending.popitem(last=False)
        self._report.messages += 1
        tracker.messages += 1
        session.messages += 1
        return text

    def _invalid_arguments(
        self,
        text: str,
        envelope: Envelope | None,
        line_no: int,
        given: Direction | None,
        slot: tuple[Direction, tuple[str, Any]],
    ) -> str:
        """A plain call whose arguments fail its tool's inputSchema: only the hooks that read
        arguments are called; every other fact of the route holds, so the rest stay quiet.

        The request is then in flight as the full way leaves it (an :class:`InvalidCall`),
        so an error answering it is judged by the classifier alone (:meth:`_error`) and a
        result goes the full way (MCP501/502 read the arguments again).
        """
        hooks = self._argument_hooks.get("tools/call")
        if hooks is None:  # the route was not remembered (too many methods)
            return self._full(text, line_no, given)
        if envelope is None:  # read typed whole: the hooks read the message's envelope
            envelope = decode_envelope(text)
        message = self._message(text, line_no, given, Kind.REQUEST, envelope)
        tracker = self._tracker
        session = tracker.session
        context = self._context
        context.unit_text = text
        findings = self._report.findings
        for check_message in hooks:
            if found := check_message(message, session, context):
                findings += found
        direction = slot[0]
        message.direction = direction  # as the tracker sets it on a request without one
        pending = tracker.pending
        pending[slot] = InvalidCall(message, direction, "tools/call", session)
        if len(pending) > MAX_PENDING:
            pending.popitem(last=False)
        self._count()
        return text

    def _result(
        self,
        text: str,
        envelope: Envelope | None,
        request_id: Any,
        plain: PlainToolResult | None,
        line_no: int,
        direction: Direction | None,
    ) -> str:
        """A result line, read envelope first (``envelope``) or whole (``plain``, its result)."""
        answered = self._answered_request(
            text, envelope, request_id, line_no, direction, Kind.RESULT
        )
        if answered is None:
            return self._full(text, line_no, direction)
        request, slot = answered
        pending = self._tracker.pending
        method = request.method
        route = self._result_route(method)
        if route is None:
            return self._full(text, line_no, direction)
        if method == "tools/call":
            if type(request) is not PendingCall or not self._call_result(
                request, plain or plain_result((envelope or decode_envelope(text)).result), line_no
            ):
                return self._full(text, line_no, direction)
        elif method in _SESSION_METHODS:
            envelope = envelope or decode_envelope(text)
            message = self._message(text, line_no, direction, Kind.RESULT, envelope)
            if method == "tools/list" and not self._listing_result_valid(request, message, route):
                return self._full(text, line_no, direction)
            self._report.messages += 1
            self._tracker.observe(message)  # the version, the server, the catalog
            return text
        del pending[slot]
        self._count()
        return text

    def _call_answer(
        self,
        text: str,
        request_id: Any,
        plain: PlainToolResult,
        line_no: int,
        direction: Direction | None,
    ) -> str:
        """A line read whole as a plain tools/call response: the common answer, paired directly.

        The usual line answers a :class:`PendingCall` a client sent, and nothing
        else in flight shares its id (or a proxy says the server sent it); anything
        else is paired by :meth:`_result`.
        """
        id_type = type(request_id)
        if direction is not C2S and (
            id_type is str
            or (id_type is int and SMALLEST_JSON_INT <= request_id <= BIGGEST_JSON_INT)
        ):
            key = (id_type.__name__, request_id)
            pending = self._tracker.pending
            slot = (C2S, key)
            request = pending.get(slot)
            if type(request) is PendingCall and (direction is S2C or (S2C, key) not in pending):
                if self._call_result_route is None or not self._call_result(
                    request, plain, line_no
                ):
                    return self._full(text, line_no, direction)
                del pending[slot]
                self._report.messages += 1
                tracker = self._tracker
                tracker.messages += 1
                tracker.session.messages += 1
                return text
        return self._result(text, None, request_id, plain, line_no, direction)

    def _answered_request(
        self,
        text: str,
        envelope: Envelope | None,
        request_id: Any,
        line_no: int,
        direction: Direction | None,
        kind: Kind,
    ) -> tuple[PendingRequest, tuple[Direction, tuple[str, Any]]] | None:
        """The request in flight a response answers and its slot in the pending table.

        ``None`` sends the response the full way: an id that is not a string or a JSON
        integer, nothing in flight with it (MCP303's to word), a request read with notes
        (evidence a finding would carry), or an error (``kind``) while requests in flight
        both ways share the id (the tracker notes which it pairs). A result in that case is
        paired by its payload, as the tracker pairs it (``envelope`` is ``None`` when the
        line was read whole; it is then decoded here).
        """
        id_type = type(request_id)
        if (id_type is not int or not fits_json_int(request_id)) and id_type is not str:
            return None  # a float or odd id: the full way words it
        key = (id_type.__name__, request_id)
        pending = self._tracker.pending
        if direction is not None:
            request = pending.get((direction.reverse, key))
        else:
            to_server, to_client = pending.get((C2S, key)), pending.get((S2C, key))
            if to_server is not None and to_client is not None:  # in flight both ways
                if kind is Kind.ERROR:
                    return None
                envelope = envelope or decode_envelope(text)
                payload = self._message(text, line_no, None, Kind.RESULT, envelope).payload
                request = answered_of_two(to_server, to_client, payload)
            else:
                request = to_server or to_client
        if request is None:  # MCP303's to word
            return None
        if type(request) is PendingRequest and request.message.notes:  # evidence a finding
            return None  # would carry: not plain traffic (a request the pass read itself has none)
        return request, (request.direction, key)

    def _error(
        self, text: str, envelope: Envelope, line_no: int, direction: Direction | None
    ) -> str:
        """An error answering a request in flight: paired here, then judged by the classifier.

        No hook is called: the facts keep MCP201 quiet (a well-formed error), and the
        exchange hooks read only results or are kept quiet too. The classifier and the
        tools/call rule it names run as on the full way (:meth:`Pipeline.judge`).
        """
        if not well_formed_error(envelope.error):
            return self._full(text, line_no, direction)
        answered = self._answered_request(
            text, envelope, envelope.id, line_no, direction, Kind.ERROR
        )
        if answered is None:
            return self._full(text, line_no, direction)
        request, slot = answered
        request_type = type(request)
        method = request.method
        if method in _SESSION_METHODS or not self._error_route(method):
            return self._full(text, line_no, direction)
        if (
            method == "tools/call"
            and request_type is not PendingCall
            and request_type is not InvalidCall
        ):
            return self._full(text, line_no, direction)  # maybe a probe case: MCP501-504 read it
        message = self._message(text, line_no, direction, Kind.ERROR, envelope)
        if direction is None:
            message.direction = request.direction.reverse  # as the tracker pairs it
        del self._tracker.pending[slot]
        self._count()
        exchange = Exchange(
            request.message, message, method, request.direction, request.session, []
        )
        edits: list[Edit] = []
        unit = Unit(text, line_no, [message])
        self._context.unit_text = text
        self._judge(unit, message, exchange, edits)
        return apply_edits(text, edits) if edits else text

    def _call_result(
        self, request: PendingCall, plain: PlainToolResult | None, line_no: int
    ) -> bool:
        """Whether a tools/call result is decided here: a plain success its rules keep quiet on.

        Records the success in the session, as the classifier does.
        """
        if plain is None or plain.is_error:  # an error result: the classifier's to read
            return False
        session = request.session
        plan = self._plan(session, request.name)
        if not plan.result_admitted:
            return False
        if plan.declares_output:
            structured = plain.structured_content
            if not structured:  # MCP204: the declared structure is missing
                return False
            checker = plan.output
            if checker is not None:
                try:
                    value = orjson.loads(bytes(structured))
                except ValueError:
                    return False
                if not _verdict(checker, plan.output_valid, value):
                    return False
        if self._records_calls:
            track = plan.track
            if track is None:
                track = plan.track = session.track(request.name)
                if track is None:  # the session holds too many tools to track more
                    return True
            if track.successes >= ARGUMENT_SAMPLE:  # what record_success does past its sample
                track.successes += 1
                track.last_success = line_no
            else:
                arguments = request.arguments
                track.record_success(line_no, arguments if type(arguments) is dict else {})
        return True

    def _listing_request_valid(self, payload: Any, version: str | None) -> bool:
        """A tools/list request is valid as its version's ListToolsRequest (an initialize has none)."""
        if payload.get("method") != "tools/list":
            return True
        version = request_meta_version(payload) or version
        if version is None:
            return True
        return _valid(validation.mcp(schemas.closest_version(version), "ListToolsRequest"), payload)

    def _listing_result_valid(
        self, request: PendingRequest, message: SourceMessage, route: frozenset[Fact]
    ) -> bool:
        """A tools/list result its rules keep quiet on: valid in its version, valid tool schemas."""
        version = request_meta_version(request.message.payload) or request.session.version
        result = message.payload.get("result")
        if Fact.TOOLS_SHAPE_VALID in route and version is not None:
            listing = validation.mcp(schemas.closest_version(version), "ListToolsResult")
            if not _valid(listing, result):
                return False
        if Fact.TOOL_SCHEMAS_VALID in route:
            tools = result.get("tools") if isinstance(result, dict) else None
            if isinstance(tools, list):
                dialect = default_dialect(version)
                for tool in tools:
                    if not isinstance(tool, dict):
                        continue
                    for member in ("inputSchema", "outputSchema"):
                        if member in tool and schemas.check_json_schema(tool[member], dialect):
                            return False
        return True


def _compiled_verdict(checker: FastValidator | None) -> Callable[[Any], bool] | None:
    """The jsonschema-rs ``is_valid`` of a validator, if it has one (``None``: it has not)."""
    compiled = checker.compiled if checker is not None else None
    return compiled.is_valid if compiled is not None else None


def _verdict(checker: FastValidator, compiled: Callable[[Any], bool] | None, instance: Any) -> bool:
    """:func:`_valid`, with the compiled verdict called directly: the one pass asks it of every
    call and structured result, and two Python calls fewer there are 0.7% of a pass's
    instructions (``benchmarks/core.py --instructions``).

    Where the compiled validator raises, :func:`_valid` decides, as it always did.
    """
    if compiled is not None:
        try:
            return compiled(instance)
        except Exception:  # huge integers, an unresolvable $ref: FastValidator knows what to do
            pass
    return _valid(checker, instance)


def _valid(checker: FastValidator, instance: Any) -> bool:
    """The compiled verdict; a validator that cannot judge leaves the instance to the full way."""
    try:
        return checker.is_valid(instance)
    except Exception:  # an unresolvable $ref: FastValidator.problem knows what to make of it
        return False
