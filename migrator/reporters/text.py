"""``--output-format text``: one line per finding, like a compiler.

On a terminal the path is bold and the code coloured by severity (see
:mod:`migrator.reporters.terminal` for ``NO_COLOR`` and ``FORCE_COLOR``); piped
output is plain text.
"""

from __future__ import annotations

from typing import TextIO

from migrator.engine.results import RunResult
from migrator.model.findings import Severity
from migrator.reporters import ReportOptions, whole_report
from migrator.reporters.terminal import use_color

RESET = "\x1b[0m"
BOLD = "\x1b[1m"
DIM = "\x1b[2m"
SEVERITY_STYLE = {
    Severity.ERROR: "\x1b[1;31m",  # bold red
    Severity.WARNING: "\x1b[1;33m",  # bold yellow
    Severity.INFO: "\x1b[1;36m",  # bold cyan
}


class Writer:
    """The text reporter, a part of the run at a time (see :class:`~migrator.reporters.FindingWriter`)."""

    def __init__(self, out: TextIO, options: ReportOptions) -> None:
        self.out = out
        self.show_evidence = options.show_evidence
        self.color = use_color(out) if options.color is None else options.color

    def write(self, part: RunResult) -> None:
        """``path:line:col: CODE message`` per finding; evidence indented below with ``--show-evidence``."""
        out, color, show_evidence = self.out, self.color, self.show_evidence
        for finding in part.iter_findings():
            where = f"{finding.path}:{finding.line}:{finding.column}:"
            if color:
                style = SEVERITY_STYLE[finding.severity]
                out.write(f"{BOLD}{where}{RESET} {style}{finding.code}{RESET} {finding.message}\n")
            else:
                out.write(f"{where} {finding.code} {finding.message}\n")
            if show_evidence:
                for item in finding.evidence:
                    out.write(f"    {DIM}= {item}{RESET}\n" if color else f"    = {item}\n")

    def close(self, result: RunResult) -> None:
        """Nothing follows the findings (the summary line goes to standard error)."""


report = whole_report(Writer)
"""``path:line:col: CODE message``, sorted; evidence indented below with ``--show-evidence``."""
