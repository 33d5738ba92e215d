"""What a rule is (:class:`RuleInfo`) and how a rule module registers itself.

A rule module imports only this module and the rule base types
(:mod:`migrator.rules.base`, :mod:`migrator.rules.trace_base`); the registry
(:mod:`migrator.rules.registry`) imports the rule modules. So the registry sits
beside what it registers, and no import runs back up.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal, TypeVar

from migrator.model.findings import FixSafety, Severity

__all__ = ["RULE_INFO", "RULE_OBJECTS", "FoundIn", "RuleInfo", "register", "register_info"]

# What raises a rule: a transcript (``check`` and ``fix`` on a recording), an OpenTelemetry
# trace (``check`` on OTLP JSON; ``fix`` does not apply), or only a live ``probe`` (a crash
# or a silence, which a recording cannot show).
FoundIn = Literal["transcript", "trace", "probe"]


@dataclass(frozen=True)
class RuleInfo:
    """What a rule is, for users: its code, name, default behaviour and docs."""

    code: str
    slug: str
    summary: str
    default_severity: Severity
    fix: FixSafety
    doc: str
    # The Chinese docs show these; a rule without them shows the English text and says so.
    summary_zh: str = ""
    why_zh: str = ""
    # The docstring in Chinese, in the same layout (prose, ``## Before``, ``## After``,
    # ``## Limits`` and any other section; the Why is ``why_zh``). The examples are not
    # repeated: where the docstring has a code block, this text has an empty one
    # (three backticks, a line of three backticks), and the page puts the example there.
    doc_zh: str = ""
    found_in: FoundIn = "transcript"

    @property
    def title(self) -> str:
        """``MCP101 validation-error-as-protocol-error``."""
        return f"{self.code} {self.slug}"


RULE_INFO: dict[str, RuleInfo] = {}
"""Every registered rule by code (filled as the rule modules are imported)."""
RULE_OBJECTS: dict[str, object] = {}
"""The rule objects by code: a ``CheckRule`` or a ``SpanRule`` (rules whose findings come
from the readers have none)."""

RuleClass = TypeVar("RuleClass", bound=type)


def register(info: RuleInfo) -> Callable[[RuleClass], RuleClass]:
    """Class decorator that registers a rule class under its code (one instance per process)."""

    def decorate(cls: RuleClass) -> RuleClass:
        _add(info)
        RULE_OBJECTS[info.code] = cls(info)
        return cls

    return decorate


def register_info(info: RuleInfo) -> RuleInfo:
    """Register a rule whose findings come from elsewhere (the readers, the probe)."""
    _add(info)
    return info


def _add(info: RuleInfo) -> None:
    if info.code in RULE_INFO or any(r.slug == info.slug for r in RULE_INFO.values()):
        raise RuntimeError(f"rule {info.code} {info.slug} registered twice")
    RULE_INFO[info.code] = info
