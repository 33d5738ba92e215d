"""What the tools/call rules share."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from migrator.classify import Verdict
from migrator.findings import Finding, FixSafety, Severity
from migrator.model import Edit
from migrator.rules import RuleInfo
from migrator.session import Exchange


@dataclass(frozen=True)
class RuleContext:
    """What a rule needs besides the exchange."""

    path: str
    unit_text: str  # the text holding the response, which edits refer to
    provenance: bool  # keep the original under a namespaced key


@dataclass(frozen=True)
class Rewrite:
    """A fix: the edit, and what the rewritten response must validate as."""

    edit: Edit
    member: str  # "result" or "error": the member the response has afterwards
    value: Any  # its new value
    version: str | None


@dataclass(frozen=True)
class Hit:
    """A rule's finding and, if it has one, how to build its fix.

    The fix is built only when ``fix`` applies it: ``check`` never pays for
    serialising rewrites it does not write.
    """

    finding: Finding
    make_rewrite: Callable[[], Rewrite] | None = None


class ToolCallRule:
    """A rule that judges one tools/call exchange from the classifier's verdict."""

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
            fixable=fixable if fixable is not None else _fixable(self.info.fix),
            request_id=request_id if isinstance(request_id, (str, int)) and not isinstance(request_id, bool) else None,
            tool=verdict.tool,
            evidence=verdict.evidence + _session_evidence(exchange),
            pointer=verdict.schema_pointer,
            keyword=verdict.schema_keyword,
        )


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
    request_id = json.dumps(exchange.response.payload.get("id"))
    tool = json.dumps(verdict.tool) if verdict.tool is not None else "(no name)"
    return f"tools/call {tool} (id {request_id})"
