"""Reporters: how ``check`` prints its findings, one per ``--output-format``.

The registry is :class:`OutputFormat`, a ``str`` Enum whose members name their
module and say what they are; it feeds the CLI's choices and help, so a new format
is one module and one enum member. Reporter modules are imported only when used. What they
report is a :class:`migrator.engine.results.RunResult`; this package only chooses who
prints it.

A format whose findings can be written before the run is over (``text``, ``jsonl``,
``github``, ``json``) has a :class:`FindingWriter`, its module's ``Writer``: ``check`` hands
it each file's findings as soon as nothing still running can sort before them
(:class:`migrator.engine.results.InPathOrder`), and its ``report`` is that writer given the
whole result at once, so the two write the same text.
"""

from __future__ import annotations

import importlib
import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from enum import Enum
from typing import TYPE_CHECKING, Protocol, TextIO

if TYPE_CHECKING:  # reporters are imported when used; the registry stays light
    from migrator.engine.results import RunResult


class OutputFormat(str, Enum):
    """The values of ``--output-format``: the reporter registry, one member per format.

    Each member names the module in this package whose ``report`` prints it and says in
    one line what it is (``check --help`` lists them). Adding a format is a module and a
    member here.
    """

    module: str
    description: str
    streams: bool  # its module has a FindingWriter: findings are written as files are done

    def __new__(
        cls, value: str, module: str = "", description: str = "", streams: bool = False
    ) -> OutputFormat:
        member = str.__new__(cls, value)
        member._value_ = value
        member.module = module
        member.description = description
        member.streams = streams
        return member

    TEXT = (
        "text",
        "text",
        "path:line:col: CODE message (coloured on a terminal; NO_COLOR, FORCE_COLOR)",
        True,
    )
    JSON = "json", "json", "one document (schemas/findings.schema.json)", True
    JSONL = "jsonl", "jsonl", "one finding per line", True
    GITHUB = "github", "github", "GitHub Actions annotations", True
    SARIF = "sarif", "sarif", "SARIF 2.1.0 (GitHub code scanning)"
    JUNIT = "junit", "junit", "JUnit XML"
    GITLAB = "gitlab", "gitlab", "GitLab Code Quality"
    AUTO = "auto", "", "github under GitHub Actions, else text"


def describe_formats() -> str:
    """The formats and what each is, one per line, for ``--help``."""
    return "\n".join(f"  {f.value:<7} {f.description}" for f in OutputFormat)


def resolve_format(
    name: str | OutputFormat, environ: Mapping[str, str] | None = None
) -> OutputFormat:
    """The format ``auto`` stands for here (``github`` when ``GITHUB_ACTIONS=true``); others as given."""
    fmt = OutputFormat(name)
    if fmt is not OutputFormat.AUTO:
        return fmt
    env = os.environ if environ is None else environ
    return OutputFormat.GITHUB if env.get("GITHUB_ACTIONS") == "true" else OutputFormat.TEXT


@dataclass(frozen=True)
class ReportOptions:
    """Reporter settings from the command line."""

    show_evidence: bool = False
    color: bool | None = None  # None: decide from the stream and NO_COLOR / FORCE_COLOR
    fail_on: str = "warning"  # findings at or above it are failures (junit)


Reporter = Callable[["RunResult", TextIO, ReportOptions], None]


class FindingWriter(Protocol):
    """A reporter that writes findings part by part, in order, as a run hands them on.

    :meth:`write` is called with parts of the run (each a ``RunResult`` of some of its
    files), in the order the report sorts them, so that the parts' findings, one after the
    other, are the whole run's, sorted; :meth:`close` once, with the whole result, after
    the last part.
    """

    def write(self, part: RunResult) -> None:
        """Write the findings of ``part``."""

    def close(self, result: RunResult) -> None:
        """Write what comes after the last finding (a summary, the file errors)."""


def whole_report(writer: Callable[[TextIO, ReportOptions], FindingWriter]) -> Reporter:
    """The ``report`` of a format with a :class:`FindingWriter`: the whole result as one part."""

    def report(result: RunResult, out: TextIO, options: ReportOptions) -> None:
        """Write the report of the whole result (as ``check`` writes it part by part)."""
        written = writer(out, options)
        written.write(result)
        written.close(result)

    return report


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
    f: _lazy(f.module) if f.module else _auto for f in OutputFormat
}
"""Who prints each format (the modules are imported when used)."""


def finding_writer(
    output_format: str | OutputFormat, out: TextIO, options: ReportOptions
) -> FindingWriter | None:
    """The :class:`FindingWriter` of a format (``auto`` resolved here), or ``None`` if it has none."""
    fmt = resolve_format(output_format)
    if not fmt.streams:
        return None
    writer: FindingWriter = importlib.import_module(f"migrator.reporters.{fmt.module}").Writer(
        out, options
    )
    return writer


def write_report(
    result: RunResult,
    out: TextIO,
    output_format: str = "text",
    *,
    show_evidence: bool = False,
    fail_on: str = "warning",
) -> None:
    """Write a report of ``result`` in one of the ``--output-format`` formats.

    Args:
        result: the run's result.
        out: the stream to write to.
        output_format: a value of ``--output-format`` (``text``, ``json``,
            ``sarif``, ...; the reporter registry lists them).
        show_evidence: print the evidence behind each finding (text).
        fail_on: findings at or above this severity are failures (junit).

    Raises:
        ValueError: ``output_format`` is not one of them.
    """
    options = ReportOptions(show_evidence=show_evidence, fail_on=fail_on)
    REPORTERS[OutputFormat(output_format)](result, out, options)


__all__ = [
    "REPORTERS",
    "FindingWriter",
    "OutputFormat",
    "ReportOptions",
    "Reporter",
    "finding_writer",
    "resolve_format",
    "whole_report",
    "write_report",
]
