"""``--output-format github``: GitHub Actions workflow commands, shown as annotations.

One ``::error``, ``::warning`` or ``::notice`` command per finding (severity
error, warning, info), with the file, line, column and a title of the rule's
code and slug. Values are escaped as the Actions toolkit does: ``%``, CR and LF
everywhere, and ``:`` and ``,`` in properties too.
"""

from __future__ import annotations

from typing import TextIO

from migrator.engine.results import RunResult
from migrator.model.findings import Severity
from migrator.reporters import ReportOptions, whole_report
from migrator.reporters.support import display_path

LEVEL = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "notice"}


def escape_data(text: str) -> str:
    """Escape a command's message."""
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(text: str) -> str:
    """Escape a command property's value."""
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


def command(level: str, message: str, **properties: str | int) -> str:
    """``::level key=value,...::message``."""
    props = ",".join(f"{key}={escape_property(str(value))}" for key, value in properties.items())
    return f"::{level}{' ' + props if props else ''}::{escape_data(message)}"


class Writer:
    """The GitHub reporter, a part of the run at a time (see :class:`~migrator.reporters.FindingWriter`)."""

    def __init__(self, out: TextIO, options: ReportOptions) -> None:
        self.out = out
        self.show_evidence = options.show_evidence

    def write(self, part: RunResult) -> None:
        """One workflow command per finding of ``part``."""
        for finding in part.iter_findings():
            message = finding.message
            if self.show_evidence and finding.evidence:
                message += "\n" + "\n".join(f"= {item}" for item in finding.evidence)
            line = command(
                LEVEL[finding.severity],
                message,
                file=display_path(finding.path),
                line=finding.line,
                col=finding.column,
                title=f"{finding.code} {finding.slug}",
            )
            self.out.write(line + "\n")

    def close(self, result: RunResult) -> None:
        """One ``::error`` per file of the run that could not be read."""
        for error in result.errors:
            where: dict[str, str | int] = {"title": "mcp-transcripts: file error"}
            if error.path:
                where["file"] = display_path(error.path)
                if error.line:
                    where["line"] = error.line
            self.out.write(command("error", error.message, **where) + "\n")


report = whole_report(Writer)
"""One workflow command per finding, sorted; then one ``::error`` per unreadable file."""
