"""What each probe case came to, per tool, and the one verdict for the server.

The per-case outcome is read off the answer's shape only (isError result,
-32602, another error, success, no answer); the findings themselves come from
the same engine and rules as ``check``, run over the session's transcript, so
a recording of the probe checks to the same findings.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import Enum

from migrator.judge.classify import INVALID_PARAMS, first_text
from migrator.live.probe.cases import Case
from migrator.live.probe.client import CallOutcome


class CaseOutcome(str, Enum):
    """How the server answered one invalid call."""

    MIGRATED = "migrated"  # an isError tool result: the SEP-1303 way
    PROTOCOL_ERROR = "-32602"  # a JSON-RPC Invalid params error: not migrated
    OTHER_ERROR = "other error"  # another JSON-RPC error (-32603 ...): hidden
    ACCEPTED = "accepted"  # a success result: the tool ran on invalid arguments
    FORMAT_IGNORED = "format ignored"  # a success result to a format-only case: allowed
    TIMEOUT = "timeout"
    CRASHED = "crashed"


class ServerVerdict(str, Enum):
    """The one-word answer for the whole server."""

    MIGRATED = "migrated"
    NOT_MIGRATED = "not migrated"
    MIXED = "mixed"
    DOES_NOT_VALIDATE = "does not validate"
    NO_ANSWERS = "no answers"
    NOTHING_TO_PROBE = "nothing to probe"


@dataclass(frozen=True)
class CaseResult:
    """One case, its call, and what it came to."""

    case: Case
    call: CallOutcome
    outcome: CaseOutcome
    text: str  # the server's words (error message or first text block), one line
    names_argument: bool = False  # an isError text that names the offending argument

    @property
    def failing(self) -> bool:
        """Whether this answer is not the SEP-1303 one."""
        return self.outcome not in (CaseOutcome.MIGRATED, CaseOutcome.FORMAT_IGNORED)


def judge(case: Case, call: CallOutcome) -> CaseResult:
    """The outcome of one validation case."""
    if call.crashed is not None:
        return CaseResult(case, call, CaseOutcome.CRASHED, call.crashed)
    if call.timed_out or call.answer is None:
        return CaseResult(case, call, CaseOutcome.TIMEOUT, "no answer")
    payload = call.answer.payload
    error = payload.get("error")
    if error is not None:
        code = error.get("code") if isinstance(error, dict) else None
        message = str(error.get("message", "")) if isinstance(error, dict) else str(error)
        if code == INVALID_PARAMS:
            return CaseResult(case, call, CaseOutcome.PROTOCOL_ERROR, one_line(message))
        return CaseResult(case, call, CaseOutcome.OTHER_ERROR, one_line(f"{code} {message}"))
    result = payload.get("result")
    text = first_text(result) if isinstance(result, dict) else None
    if isinstance(result, dict) and result.get("isError") is True:
        names = bool(case.argument) and case.argument in (text or "")
        if case.keyword == "additionalProperties" and not names:
            # The extra property was dropped and the handler ran (and failed on its own
            # account, e.g. dividing by the probe's zero): not a validation answer.
            return CaseResult(case, call, CaseOutcome.ACCEPTED, one_line(text or ""))
        return CaseResult(case, call, CaseOutcome.MIGRATED, one_line(text or ""), names)
    outcome = CaseOutcome.FORMAT_IGNORED if case.is_format else CaseOutcome.ACCEPTED
    return CaseResult(case, call, outcome, one_line(text or ""))


def judge_unknown_tool(call: CallOutcome) -> str:
    """How the call to an unlisted tool was answered, judged by the specification."""
    if call.crashed is not None:
        return f"the server crashed ({call.crashed})"
    if call.timed_out or call.answer is None:
        return "no answer"
    payload = call.answer.payload
    if "error" in payload:
        error = payload["error"]
        code = error.get("code") if isinstance(error, dict) else None
        return f"protocol error {code} (right: unknown tools stay protocol errors)"
    result = payload.get("result")
    if isinstance(result, dict) and result.get("isError") is True:
        return "isError result (MCP102: unknown tools stay protocol errors)"
    return "a success result (the server ran a tool it does not list)"


def one_line(text: str, limit: int = 100) -> str:
    """``text`` on one line, cut to ``limit`` characters."""
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 3] + "..."


@dataclass
class ToolSummary:
    """The counts of one tool's row in the table."""

    tool: str
    results: list[CaseResult] = field(default_factory=list)
    skipped: str = ""  # why the tool was not probed

    def count(self, outcome: CaseOutcome) -> int:
        """Cases of this tool that came to ``outcome``."""
        return sum(1 for r in self.results if r.outcome is outcome)

    @property
    def first_failing(self) -> CaseResult | None:
        """The first case not answered the SEP-1303 way."""
        return next((r for r in self.results if r.failing), None)


def server_verdict(results: Iterable[CaseResult]) -> ServerVerdict:
    """Migrated, not migrated, mixed, or does not validate, over every validation case."""
    counted = [r for r in results if not r.case.is_format]
    if not counted:
        return ServerVerdict.NOTHING_TO_PROBE
    migrated = sum(1 for r in counted if r.outcome is CaseOutcome.MIGRATED)
    errors = sum(
        1 for r in counted if r.outcome in (CaseOutcome.PROTOCOL_ERROR, CaseOutcome.OTHER_ERROR)
    )
    accepted = sum(1 for r in counted if r.outcome is CaseOutcome.ACCEPTED)
    if migrated and errors:
        return ServerVerdict.MIXED
    if migrated:
        return ServerVerdict.MIGRATED
    if errors:
        return ServerVerdict.NOT_MIGRATED
    if accepted:
        return ServerVerdict.DOES_NOT_VALIDATE
    return ServerVerdict.NO_ANSWERS
