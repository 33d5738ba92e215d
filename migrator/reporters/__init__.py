"""Reporters: how ``check`` prints its findings, one per ``--output-format``.

The registry is keyed by :class:`OutputFormat`, a ``str`` Enum that also feeds
the CLI's choices, so a new format is one function and one enum member.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import Enum
from typing import TextIO

from migrator.engine import FileReport
from migrator.errors import MigratorError
from migrator.findings import Finding, FixSafety, Severity


class OutputFormat(str, Enum):
    """The values of ``--output-format``."""

    TEXT = "text"
    JSON = "json"


@dataclass
class RunResult:
    """Everything one ``check`` or ``fix`` run produced."""

    files: list[FileReport] = field(default_factory=list)
    errors: list[MigratorError] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def findings(self) -> list[Finding]:
        """All findings, sorted by path, line, column and code."""
        return sorted(f for report in self.files for f in report.findings)

    @property
    def messages(self) -> int:
        """Messages read across all files."""
        return sum(report.messages for report in self.files)

    def by_severity(self) -> Counter[str]:
        """Finding counts per severity."""
        return Counter(f.severity.value for f in self.findings)

    def fixable(self, unsafe: bool = False) -> int:
        """How many findings ``fix`` would fix (with ``--unsafe-fixes`` if ``unsafe``)."""
        allowed = {FixSafety.SAFE, FixSafety.UNSAFE} if unsafe else {FixSafety.SAFE}
        return sum(1 for f in self.findings if f.fixable in allowed)


@dataclass(frozen=True)
class ReportOptions:
    """Reporter settings from the command line."""

    show_evidence: bool = False


Reporter = Callable[[RunResult, TextIO, ReportOptions], None]


def _text(result: RunResult, out: TextIO, options: ReportOptions) -> None:
    from migrator.reporters.text import report

    report(result, out, options)


def _json(result: RunResult, out: TextIO, options: ReportOptions) -> None:
    from migrator.reporters.json import report

    report(result, out, options)


REPORTERS: dict[OutputFormat, Reporter] = {
    OutputFormat.TEXT: _text,
    OutputFormat.JSON: _json,
}


def summary_line(result: RunResult, verb: str = "Found") -> str:
    """The one-line summary printed on stderr."""
    findings = result.findings
    counts = result.by_severity()
    parts = [f"{counts[s.value]} {s.value}" for s in reversed(Severity) if counts[s.value]]
    files = len(result.files)
    what = f"{len(findings)} finding{'s' if len(findings) != 1 else ''}"
    if parts:
        what += f" ({', '.join(parts)})"
    line = (
        f"{verb} {what} in {files} file{'s' if files != 1 else ''}, "
        f"{result.messages} message{'s' if result.messages != 1 else ''}, {result.seconds:.2f}s"
    )
    safe, unsafe = result.fixable(), result.fixable(unsafe=True) - result.fixable()
    if safe:
        line += f"; {safe} fixable with `mcp-migrate fix`"
    if unsafe:
        line += f"; {unsafe} more with `--unsafe-fixes`"
    if result.errors:
        line += f"; {len(result.errors)} file error{'s' if len(result.errors) != 1 else ''}"
    return line


__all__ = ["REPORTERS", "OutputFormat", "ReportOptions", "RunResult", "summary_line"]
