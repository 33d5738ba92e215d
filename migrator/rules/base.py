"""What the rules share.

Two kinds of rule:

* :class:`ToolCallRule`: judges a ``tools/call`` exchange from the classifier's
  verdict; outcomes exclude each other, so at most one fires per exchange and
  it may carry a fix.
* :class:`ValidationRule`: checks messages and exchanges against schemas; any
  number may fire, and they report without fixing.

A validation rule also says when it has nothing to say (:class:`Fact`,
``message_quiet_given`` and ``exchange_quiet_given``): the one-pass core
(:mod:`migrator.engine.onepass`) establishes those facts once per message and
calls no hook that the facts of a message keep quiet.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum
from typing import ClassVar

from migrator.fix.rewrite import Rewrite
from migrator.judge.classify import Outcome, Verdict
from migrator.judge.official import OfficialSchemas
from migrator.judge.validation import ToolSchemas
from migrator.model.findings import Finding, FixSafety, Severity
from migrator.model.jsontext import display, reportable_id
from migrator.model.session import Exchange, Session, SessionTracker
from migrator.model.units import Kind, SourceMessage, detect_only
from migrator.rules.info import RuleInfo


@dataclass(slots=True)
class RuleContext:
    """What a rule needs besides the exchange.

    One per file: the engine sets :attr:`unit_text` for each unit it hands
    over, rather than building a context per line.
    """

    path: str
    unit_text: str  # the text holding the response, which edits refer to
    provenance: bool  # keep the original under a namespaced key
    official: OfficialSchemas | None = None  # --mcp-schema: full-surface validation
    tracker: SessionTracker | None = None  # what is in flight, for rules about ids
    tool_schemas: ToolSchemas | None = None  # compiled tool schemas, shared by the rules of a run


@dataclass  # not frozen, like Finding and Verdict: one is made for every finding
class Hit:
    """A rule's finding and, if it has one, how to build its fix.

    The fix is built only when ``fix`` applies it: ``check`` never pays for
    serialising rewrites it does not write.
    """

    finding: Finding
    make_rewrite: Callable[[], Rewrite] | None = None


class ToolCallRule:
    """A rule that judges one tools/call exchange from the classifier's verdict.

    ``outcomes`` names the verdicts it judges (``None``: all), so the engine
    hands it only those.
    """

    outcomes: ClassVar[frozenset[Outcome] | None] = None

    def __init__(self, info: RuleInfo) -> None:
        self.info = info

    def check(self, exchange: Exchange, verdict: Verdict, ctx: RuleContext) -> Hit | None:
        """The finding for this exchange, or ``None``."""
        raise NotImplementedError

    def severity(self, exchange: Exchange) -> Severity:
        """The severity of a finding on this exchange (the default, unless a rule says more)."""
        return self.info.default_severity

    def finding(
        self,
        exchange: Exchange,
        verdict: Verdict,
        ctx: RuleContext,
        message: str,
        *,
        severity: Severity | None = None,
        fixable: FixSafety | None = None,
    ) -> Finding:
        """A finding located at the response."""
        response = exchange.response
        request_id = response.payload.get("id")
        return Finding(
            path=ctx.path,
            line=response.line,
            column=response.column,
            code=self.info.code,
            slug=self.info.slug,
            severity=severity or self.severity(exchange),
            message=message,
            fixable=None
            if detect_only(response)  # the reader cannot write this answer back
            else fixable
            if fixable is not None
            else _fixable(self.info.fix),
            request_id=reportable_id(request_id),
            tool=verdict.tool,
            evidence=shared(verdict.evidence + _session_evidence(exchange)),
            pointer=verdict.schema_pointer,
            keyword=verdict.schema_keyword,
        )


def shared(evidence: tuple[str, ...]) -> tuple[str, ...]:
    """The evidence with each line interned.

    A large transcript has many findings whose evidence repeats (the same
    catalog, the same version, the same wording): sharing the strings keeps
    memory near what the unique text needs.
    """
    return tuple(map(sys.intern, evidence))


def _fixable(fix: FixSafety) -> FixSafety | None:
    return None if fix is FixSafety.NONE else fix


def _session_evidence(exchange: Exchange) -> tuple[str, ...]:
    version = exchange.version or "unknown"
    out = [f"protocol version {version} ({exchange.version_source})"]
    if exchange.request is not None:
        out.append(f"request at line {exchange.request.line}")
    out.extend(exchange.notes)
    return tuple(out)


def describe_call(exchange: Exchange, verdict: Verdict) -> str:
    """``tools/call "add" (id 12)``."""
    request_id = display(exchange.response.payload.get("id"))
    tool = display(verdict.tool) if verdict.tool is not None else "(no name)"
    return f"tools/call {tool} (id {request_id})"


class Fact(str, Enum):
    """What the one-pass core establishes about a message before any rule is called.

    Each is decided once, from the envelope and one typed decode of the call
    and its result, and shared by every rule that reads the message.
    """

    WELL_FORMED = "well-formed"
    """The JSON-RPC envelope is valid: ``jsonrpc`` "2.0", an integer or string id,
    ``params`` and ``result`` objects; for an error response, an ``error`` object with
    an integer ``code`` and a string ``message``."""
    FRESH_ID = "fresh-id"
    """A request whose id no request of the same side has in flight."""
    ANSWERED = "answered"
    """A response that pairs with exactly one request in flight."""
    NOT_PROBED = "not-probed"
    """A tools/call (request or answer) whose request carries no ``_meta``: no probe case."""
    ARGUMENTS_VALID = "arguments-valid"
    """A tools/call request whose params are a name and (maybe) object arguments and
    nothing else, and whose arguments satisfy the inputSchema the session's catalog
    lists for the tool (or whose tool has no usable inputSchema there)."""
    TOOLS_SHAPE_VALID = "tools-shape-valid"
    """A tools/call or tools/list request, or the result answering one, valid as the
    version's ``CallToolRequest``, ``ListToolsRequest``, ``CallToolResult`` or
    ``ListToolsResult`` (nothing to check when no version is known)."""
    TOOL_SCHEMAS_VALID = "tool-schemas-valid"
    """A tools/list result whose every inputSchema and outputSchema is a valid JSON Schema."""
    STRUCTURED_VALID = "structured-valid"
    """A successful tools/call result whose structuredContent satisfies the outputSchema
    the session's catalog lists for the tool, or whose tool declares none (or none usable)."""


class ValidationRule:
    """A rule that validates single messages and completed exchanges.

    A rule says which messages it looks at, so the engine calls it for those
    only: ``kinds`` and ``methods`` for :meth:`check_message` (``None``: all),
    ``exchange_methods`` for :meth:`check_exchange` (the request's method;
    ``None`` in the set stands for a response whose request was not seen).
    A rule that reads the official schemas (``needs_official_schemas``) is
    not called at all in a run without them.

    ``message_quiet_given`` and ``exchange_quiet_given`` name facts that,
    together, mean the hook finds nothing on a message (or exchange) it looks
    at: where the one-pass core has established them, it does not call the
    hook. ``None`` (the default) means the hook is always called, and the
    messages it looks at go the full way. ``results_only`` says that
    :meth:`check_exchange` finds nothing on an exchange answered with an error.
    """

    kinds: ClassVar[frozenset[Kind] | None] = None
    methods: ClassVar[frozenset[str] | None] = None
    exchange_methods: ClassVar[frozenset[str | None] | None] = None
    needs_official_schemas: ClassVar[bool] = False  # finds nothing without --mcp-schema
    message_quiet_given: ClassVar[frozenset[Fact] | None] = None
    exchange_quiet_given: ClassVar[frozenset[Fact] | None] = None
    # check_exchange reads only results: an exchange answered with an error keeps it quiet.
    results_only: ClassVar[bool] = False

    def __init__(self, info: RuleInfo) -> None:
        self.info = info

    def wants_message(self, kind: Kind, method: str | None) -> bool:
        """Whether :meth:`check_message` looks at messages of this kind and method."""
        return (self.kinds is None or kind in self.kinds) and (
            self.methods is None or method in self.methods
        )

    def wants_exchange(self, method: str | None) -> bool:
        """Whether :meth:`check_exchange` looks at exchanges of this request method."""
        return self.exchange_methods is None or method in self.exchange_methods

    def check_message(
        self, message: SourceMessage, session: Session, ctx: RuleContext
    ) -> list[Finding]:
        """Findings on one message as it arrives (before it is paired)."""
        return []

    def check_exchange(self, exchange: Exchange, ctx: RuleContext) -> list[Finding]:
        """Findings on a response, once paired with its request."""
        return []

    def at(
        self,
        message: SourceMessage,
        ctx: RuleContext,
        text: str,
        *,
        pointer: str | None = None,
        keyword: str | None = None,
        tool: str | None = None,
        evidence: tuple[str, ...] = (),
    ) -> Finding:
        """A finding located at ``message``."""
        payload = message.payload
        request_id = payload.get("id") if isinstance(payload, dict) else None
        return Finding(
            path=ctx.path,
            line=message.line,
            column=message.column,
            code=self.info.code,
            slug=self.info.slug,
            severity=self.info.default_severity,
            message=text,
            request_id=reportable_id(request_id),
            tool=tool,
            evidence=shared(evidence),
            pointer=pointer,
            keyword=keyword,
        )


CheckRule = ToolCallRule | ValidationRule
