"""The rule registry: every rule, looked up by code or slug, and the dispatch tables.

The rule modules are listed in :func:`_load`, so the set of rules is plain to see and
does not depend on the file system; importing one registers it (:mod:`migrator.rules.info`).
``rule_set`` compiles a selection into the tables the pipeline dispatches on.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING

from migrator.errors import UsageError
from migrator.model.findings import Finding
from migrator.model.units import Kind, SourceMessage
from migrator.rules.info import RULE_INFO, RULE_OBJECTS, FoundIn, RuleInfo

if TYPE_CHECKING:
    from migrator.judge.classify import Outcome
    from migrator.model.session import Exchange, Session
    from migrator.rules.base import RuleContext, ToolCallRule, ValidationRule
    from migrator.rules.trace_base import SpanRule

__all__ = [
    "FoundIn", "RuleInfo", "RuleSet", "all_rules", "get_rule", "resolve_selection", "rule_set",
    "span_rules", "tool_call_rules", "validation_rules",
]  # fmt: skip


def _load() -> None:
    if RULE_INFO:
        return
    # Importing a rule module registers it. The list is explicit so that the
    # set of rules is plain to see and does not depend on the file system.
    from migrator.rules import (  # noqa: F401
        mcp101_validation_error_as_protocol_error,
        mcp102_unknown_tool_as_tool_result,
        mcp103_ambiguous_tools_call_error,
        mcp104_tool_failure_as_protocol_error,
        mcp201_invalid_jsonrpc_message,
        mcp202_invalid_tools_message,
        mcp203_arguments_violate_input_schema,
        mcp204_structured_content_violates_output_schema,
        mcp205_invalid_tool_schema,
        mcp206_invalid_mcp_message,
        mcp301_unparseable_line,
        mcp302_invalid_utf8,
        mcp303_response_without_request,
        mcp304_request_id_reused,
        mcp401_trace_validation_error_as_protocol_error,
        mcp402_trace_tool_error_without_error_type,
        mcp403_span_missing_required_attribute,
        mcp404_span_attribute_wrong_type,
        mcp405_span_attribute_not_in_conventions,
        mcp406_span_name_not_conventional,
        mcp407_not_an_export_request,
        mcp501_invalid_arguments_accepted,
        mcp502_validation_error_as_internal_error,
        mcp503_server_crashed_on_invalid_arguments,
        mcp504_no_answer_to_invalid_arguments,
    )


def all_rules() -> list[RuleInfo]:
    """Every rule, sorted by code."""
    _load()
    return sorted(RULE_INFO.values(), key=lambda r: r.code)


def get_rule(code_or_slug: str) -> RuleInfo:
    """Look a rule up by code (``MCP101``, any case) or slug.

    Raises:
        UsageError: if there is no such rule.
    """
    _load()
    wanted = code_or_slug.strip()
    for info in RULE_INFO.values():
        if wanted.upper() == info.code or wanted == info.slug:
            return info
    raise UsageError(f"no rule {code_or_slug!r}; `mcp-transcripts rules` lists them")


def tool_call_rules() -> list[ToolCallRule]:
    """The rules that judge tools/call outcomes (one per exchange at most), sorted by code."""
    from migrator.rules.base import ToolCallRule

    _load()
    return [rule for code, rule in sorted(RULE_OBJECTS.items()) if isinstance(rule, ToolCallRule)]


def validation_rules() -> list[ValidationRule]:
    """The rules that validate messages and exchanges against schemas, sorted by code."""
    from migrator.rules.base import ValidationRule

    _load()
    return [rule for code, rule in sorted(RULE_OBJECTS.items()) if isinstance(rule, ValidationRule)]


def span_rules() -> list[SpanRule]:
    """The rules that judge OpenTelemetry spans (MCP4xx), sorted by code."""
    from migrator.rules.trace_base import SpanRule

    _load()
    return [rule for code, rule in sorted(RULE_OBJECTS.items()) if isinstance(rule, SpanRule)]


def resolve_selection(select: list[str] | None, ignore: list[str] | None) -> frozenset[str]:
    """The codes enabled by ``--select`` and ``--ignore``.

    Each entry is a code, a slug, or a code prefix (``MCP1`` selects MCP101-MCP104;
    ``ALL`` selects everything).

    Raises:
        UsageError: for an entry that names no rule.
    """
    _load()
    codes = set(RULE_INFO)

    def expand(entry: str) -> set[str]:
        token = entry.strip()
        if token.upper() == "ALL":
            return set(codes)
        matched = {c for c in codes if c.startswith(token.upper())}
        matched |= {c for c, r in RULE_INFO.items() if r.slug == token}
        if not matched:
            raise UsageError(f"{entry!r} names no rule; `mcp-transcripts rules` lists them")
        return matched

    chosen = set(codes) if not select else set().union(*(expand(s) for s in select))
    for entry in ignore or []:
        chosen -= expand(entry)
    return frozenset(chosen)


MessageHook = Callable[[SourceMessage, "Session", "RuleContext"], list[Finding]]
ExchangeHook = Callable[["Exchange", "RuleContext"], list[Finding]]


@dataclass(frozen=True)
class RuleSet:
    """The rules a selection enables, with one dispatch table for each kind of hook.

    Built once per selection (:func:`rule_set`), before the first message: for
    each (message kind, method) a rule names, the message hooks that want it,
    and for each request method, the exchange hooks. A message no rule names
    gets the hooks of the rules that look at every method of its kind, so a
    message no rule wants costs one dictionary look-up and no call.
    """

    tool_call: tuple[ToolCallRule, ...]
    by_outcome: dict[
        Outcome, tuple[ToolCallRule, ...]
    ]  # the tools/call rules that judge each verdict
    validators: tuple[ValidationRule, ...]
    codes: frozenset[str]  # every enabled code, MCP3xx reader problems included
    message_table: dict[tuple[Kind, str | None], tuple[MessageHook, ...]]
    any_method: dict[Kind, tuple[MessageHook, ...]]  # for methods no rule names
    exchange_table: dict[str | None, tuple[ExchangeHook, ...]]
    any_exchange: tuple[ExchangeHook, ...]  # for request methods no rule names

    def message_hooks(self, kind: Kind, method: str | None) -> tuple[MessageHook, ...]:
        """The hooks that look at a message of this kind and method, in code order."""
        hooks = self.message_table.get((kind, method))
        return self.any_method[kind] if hooks is None else hooks

    def exchange_hooks(self, method: str | None) -> tuple[ExchangeHook, ...]:
        """The hooks that look at an exchange whose request had this method (``None``: no request)."""
        hooks = self.exchange_table.get(method)
        return self.any_exchange if hooks is None else hooks


@lru_cache(maxsize=64)
def rule_set(selected: frozenset[str] | None, official_schemas: bool = False) -> RuleSet:
    """The :class:`RuleSet` of a selection of codes (``None``: every rule).

    Without ``official_schemas`` (``--mcp-schema``), the rules that need them
    get no hooks: they could find nothing.
    """
    from migrator.rules.base import ValidationRule

    def enabled(code: str) -> bool:
        return selected is None or code in selected

    def overrides(rule: ValidationRule, hook: str) -> bool:
        return getattr(type(rule), hook) is not getattr(ValidationRule, hook)

    validators = tuple(
        rule for rule in validation_rules()
        if enabled(rule.info.code) and (official_schemas or not rule.needs_official_schemas)
    )  # fmt: skip
    watchers = [rule for rule in validators if overrides(rule, "check_message")]
    answerers = [rule for rule in validators if overrides(rule, "check_exchange")]

    def message_hooks(kind: Kind, method: str | None) -> tuple[MessageHook, ...]:
        return tuple(rule.check_message for rule in watchers if rule.wants_message(kind, method))

    def exchange_hooks(method: str | None) -> tuple[ExchangeHook, ...]:
        return tuple(rule.check_exchange for rule in answerers if rule.wants_exchange(method))

    named = {method for rule in watchers for method in rule.methods or ()}
    exchange_named = {method for rule in answerers for method in rule.exchange_methods or ()}
    unnamed = "\0 a method no rule names"  # not a method name a message can carry past the envelope
    from migrator.judge.classify import Outcome

    tool_call = tuple(rule for rule in tool_call_rules() if enabled(rule.info.code))
    return RuleSet(
        tool_call=tool_call,
        by_outcome={
            outcome: tuple(
                rule for rule in tool_call if rule.outcomes is None or outcome in rule.outcomes
            )
            for outcome in Outcome
        },
        validators=validators,
        codes=frozenset(info.code for info in all_rules() if enabled(info.code)),
        message_table={
            (kind, method): message_hooks(kind, method) for kind in Kind for method in named
        },
        any_method={kind: message_hooks(kind, unnamed) for kind in Kind},
        exchange_table={method: exchange_hooks(method) for method in exchange_named},
        any_exchange=exchange_hooks(unnamed),
    )
