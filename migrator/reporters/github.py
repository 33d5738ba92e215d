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
from migrator.reporters import ReportOptions
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


def report(result: RunResult, out: TextIO, options: ReportOptions) -> None:
    """One workflow command per finding, sorted; then one ``::error`` per unreadable file."""
    for finding in result.iter_findings():
        message = finding.message
        if options.show_evidence and finding.evidence:
            message += "\n" + "\n".join(f"= {item}" for item in finding.evidence)
        line = command(
            LEVEL[finding.severity],
            message,
            file=display_path(finding.path),
            line=finding.line,
            col=finding.column,
            title=f"{finding.code} {finding.slug}",
        )
        out.write(line + "\n")
    for error in result.errors:
        where: dict[str, str | int] = {"title": "mcp-transcripts: file error"}
        if error.path:
            where["file"] = display_path(error.path)
            if error.line:
                where["line"] = error.line
        out.write(command("error", error.message, **where) + "\n")
