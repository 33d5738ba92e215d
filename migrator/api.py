"""The Python API: check and fix transcripts from code.

Everything the CLI does goes through these functions; they never print and
never exit. Each works on one file, so they map cleanly over a folder with any
engine you already use (a process pool, a Dask bag, a CI matrix). This module is
the facade: the functions live in :mod:`migrator.engine.files` and
:mod:`migrator.reporters`, and are imported from here.

Example:
    >>> from migrator.api import fix_text
    >>> before = '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"add","arguments":{"a":"x"}}}\\n'
    >>> before += '{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"Invalid arguments for tool add: bad a"}}\\n'
    >>> after, report = fix_text(before)
    >>> report.fixes
    1
"""

from __future__ import annotations

from migrator.engine.files import (
    DOCUMENT_SUFFIXES,
    TRANSCRIPT_SUFFIXES,
    FileReport,
    FixOutcome,
    Mode,
    Options,
    RunResult,
    check_file,
    check_pair,
    check_text,
    fix_file,
    fix_pair,
    fix_text,
    iter_transcripts,
    merge_reports,
    try_check_file,
)
from migrator.reporters import write_report

__all__ = [
    "DOCUMENT_SUFFIXES",
    "TRANSCRIPT_SUFFIXES",
    "FileReport",
    "FixOutcome",
    "Mode",
    "Options",
    "RunResult",
    "check_file",
    "check_pair",
    "check_text",
    "fix_file",
    "fix_pair",
    "fix_text",
    "iter_transcripts",
    "merge_reports",
    "try_check_file",
    "write_report",
]
