"""Findings: what ``check`` reports. Frozen, comparable, and serialisable."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import Any


class Severity(str, Enum):
    """How bad a finding is; ``--fail-on`` compares against this order."""

    INFO = "info"
    WARNING = "warning"
    ERROR = "error"

    @property
    def rank(self) -> int:
        """0 for info, 1 for warning, 2 for error."""
        return _RANK[self]


_RANK = {Severity.INFO: 0, Severity.WARNING: 1, Severity.ERROR: 2}


class FixSafety(str, Enum):
    """Whether ``fix`` applies a rule's fix by default."""

    SAFE = "safe"  # applied by `fix`
    UNSAFE = "unsafe"  # applied only with --unsafe-fixes
    NONE = "none"  # no automatic fix


@dataclass(frozen=True, order=True, slots=True)
class Finding:
    """One thing ``check`` found, located at a line and column of a file."""

    path: str
    line: int
    column: int
    code: str
    slug: str = field(compare=False)
    severity: Severity = field(compare=False)
    message: str = field(compare=False)
    fixable: FixSafety | None = field(default=None, compare=False)
    request_id: str | int | None = field(default=None, compare=False)
    tool: str | None = field(default=None, compare=False)
    evidence: tuple[str, ...] = field(default=(), compare=False)
    pointer: str | None = field(default=None, compare=False)
    keyword: str | None = field(default=None, compare=False)

    def as_dict(self) -> dict[str, Any]:
        """The finding as the JSON output format writes it."""
        return {
            "path": self.path,
            "line": self.line,
            "column": self.column,
            "code": self.code,
            "slug": self.slug,
            "severity": self.severity.value,
            "message": self.message,
            "fixable": self.fixable.value if self.fixable else None,
            "request_id": self.request_id,
            "tool": self.tool,
            "evidence": list(self.evidence),
            "pointer": self.pointer,
            "keyword": self.keyword,
        }
