"""Reporters: how ``check`` prints its findings, one per ``--output-format``.

The registry is keyed by :class:`OutputFormat`, a ``str`` Enum that also feeds
the CLI's choices, so a new format is one module, one enum member and one line
in :data:`REPORTERS`. Reporter modules are imported only when used.
"""

from __future__ import annotations

import heapq
import importlib
import os
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from enum import Enum
from typing import TYPE_CHECKING, TextIO

from migrator.errors import MigratorError
from migrator.findings import Finding, FindingList, FixSafety, Severity, count_kinds

if TYPE_CHECKING:  # the engine is heavy; `mcp-transcripts --version` must not import it
    from migrator.engine import FileReport


class OutputFormat(str, Enum):
    """The values of ``--output-format``."""

    TEXT = "text"
    JSON = "json"
    JSONL = "jsonl"
    GITHUB = "github"
    SARIF = "sarif"
    JUNIT = "junit"
    GITLAB = "gitlab"
    AUTO = "auto"  # github under GitHub Actions, else text


def resolve_format(name: str | OutputFormat, environ: Mapping[str, str] | None = None) -> OutputFormat:
    """The format ``auto`` stands for here (``github`` when ``GITHUB_ACTIONS=true``); others as given."""
    fmt = OutputFormat(name)
    if fmt is not OutputFormat.AUTO:
        return fmt
    env = os.environ if environ is None else environ
    return OutputFormat.GITHUB if env.get("GITHUB_ACTIONS") == "true" else OutputFormat.TEXT


@dataclass
class RunResult:
    """Everything one ``check`` or ``fix`` run produced."""

    files: list[FileReport] = field(default_factory=list)
    errors: list[MigratorError] = field(default_factory=list)
    seconds: float = 0.0
    texts: dict[str, str] = field(default_factory=dict)  # inputs not on disk (stdin), by name

    def iter_findings(self) -> Iterator[Finding]:
        """All findings, sorted by path, line, column and code, without holding them all.

        Each file's findings are already in order (or sorted on their own), so
        the files are merged as they stream.
        """
        return heapq.merge(*(_in_order(report.findings) for report in self.files))

    @property
    def findings(self) -> list[Finding]:
        """All findings, sorted by path, line, column and code (as one list)."""
        return list(self.iter_findings())

    @property
    def messages(self) -> int:
        """Messages read across all files."""
        return sum(report.messages for report in self.files)

    def tally(self) -> Tally:
        """Counts over all findings (kept as they were found: nothing is unpacked)."""
        tally = Tally()
        for report in self.files:
            for (code, severity, fixable), count in count_kinds(report.findings).items():
                tally.findings += count
                tally.by_severity[severity.value] += count
                tally.by_code[code] += count
                if fixable is FixSafety.SAFE:
                    tally.safe_fixes += count
                elif fixable is FixSafety.UNSAFE:
                    tally.unsafe_fixes += count
        return tally


@dataclass
class Tally:
    """Finding counts of a run."""

    findings: int = 0
    by_severity: Counter[str] = field(default_factory=Counter)
    by_code: Counter[str] = field(default_factory=Counter)
    safe_fixes: int = 0
    unsafe_fixes: int = 0


def _in_order(findings: Iterable[Finding]) -> Iterator[Finding]:
    if isinstance(findings, FindingList):
        return findings.in_order()
    return iter(sorted(findings))  # a plain list, as a filtered report may hold


@dataclass(frozen=True)
class ReportOptions:
    """Reporter settings from the command line."""

    show_evidence: bool = False
    color: bool | None = None  # None: decide from the stream and NO_COLOR / FORCE_COLOR
    fail_on: str = "warning"  # findings at or above it are failures (junit)


Reporter = Callable[[RunResult, TextIO, ReportOptions], None]


def _lazy(module: str) -> Reporter:
    """A reporter that imports ``migrator.reporters.<module>`` on first use."""

    def reporter(result: RunResult, out: TextIO, options: ReportOptions) -> None:
        report: Reporter = importlib.import_module(f"migrator.reporters.{module}").report
        report(result, out, options)

    reporter.__name__ = reporter.__qualname__ = f"report_{module}"
    return reporter


def _auto(result: RunResult, out: TextIO, options: ReportOptions) -> None:
    REPORTERS[resolve_format(OutputFormat.AUTO)](result, out, options)


REPORTERS: dict[OutputFormat, Reporter] = {
    OutputFormat.TEXT: _lazy("text"),
    OutputFormat.JSON: _lazy("json"),
    OutputFormat.JSONL: _lazy("jsonl"),
    OutputFormat.GITHUB: _lazy("github"),
    OutputFormat.SARIF: _lazy("sarif"),
    OutputFormat.JUNIT: _lazy("junit"),
    OutputFormat.GITLAB: _lazy("gitlab"),
    OutputFormat.AUTO: _auto,
}


def summary_line(result: RunResult, verb: str = "Found") -> str:
    """The one-line summary printed on stderr."""
    tally = result.tally()
    counts = tally.by_severity
    parts = [f"{counts[s.value]} {s.value}" for s in reversed(Severity) if counts[s.value]]
    files = len(result.files)
    what = f"{tally.findings} finding{'s' if tally.findings != 1 else ''}"
    if parts:
        what += f" ({', '.join(parts)})"
    line = (
        f"{verb} {what} in {files} file{'s' if files != 1 else ''}, "
        f"{result.messages} message{'s' if result.messages != 1 else ''}, {result.seconds:.2f}s"
    )
    safe, unsafe = tally.safe_fixes, tally.unsafe_fixes
    if safe:
        line += f"; {safe} fixable with `mcp-transcripts fix`"
    if unsafe:
        line += f"; {unsafe} more with `--unsafe-fixes`"
    if result.errors:
        line += f"; {len(result.errors)} file error{'s' if len(result.errors) != 1 else ''}"
    return line


__all__ = ["REPORTERS", "OutputFormat", "ReportOptions", "RunResult", "Tally", "resolve_format", "summary_line"]
