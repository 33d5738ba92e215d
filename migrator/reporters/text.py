"""``--output-format text``: one line per finding, like a compiler.

On a terminal the path is bold and the code coloured by severity (see
:mod:`migrator.reporters.terminal` for ``NO_COLOR`` and ``FORCE_COLOR``); piped
output is plain text.
"""

from __future__ import annotations

from typing import TextIO

from migrator.engine.results import RunResult
from migrator.model.findings import Severity
from migrator.reporters import ReportOptions
from migrator.reporters.terminal import use_color

RESET = "\x1b[0m"
BOLD = "\x1b[1m"
DIM = "\x1b[2m"
SEVERITY_STYLE = {
    Severity.ERROR: "\x1b[1;31m",  # bold red
    Severity.WARNING: "\x1b[1;33m",  # bold yellow
    Severity.INFO: "\x1b[1;36m",  # bold cyan
}


def report(result: RunResult, out: TextIO, options: ReportOptions) -> None:
    """``path:line:col: CODE message``, sorted; evidence indented below with ``--show-evidence``."""
    color = use_color(out) if options.color is None else options.color
    for finding in result.iter_findings():
        where = f"{finding.path}:{finding.line}:{finding.column}:"
        if color:
            style = SEVERITY_STYLE[finding.severity]
            out.write(f"{BOLD}{where}{RESET} {style}{finding.code}{RESET} {finding.message}\n")
        else:
            out.write(f"{where} {finding.code} {finding.message}\n")
        if options.show_evidence:
            for item in finding.evidence:
                out.write(f"    {DIM}= {item}{RESET}\n" if color else f"    = {item}\n")
