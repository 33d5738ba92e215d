"""``--output-format text``: one line per finding, like a compiler."""

from __future__ import annotations

from typing import TextIO

from migrator.reporters import ReportOptions, RunResult


def report(result: RunResult, out: TextIO, options: ReportOptions) -> None:
    """``path:line:col: CODE message``, sorted; evidence indented below with ``--show-evidence``."""
    for finding in result.findings:
        out.write(f"{finding.path}:{finding.line}:{finding.column}: {finding.code} {finding.message}\n")
        if options.show_evidence:
            for item in finding.evidence:
                out.write(f"    = {item}\n")
