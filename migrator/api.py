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

from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any

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

if TYPE_CHECKING:
    from migrator.engine.config import Config

__all__ = [
    "DOCUMENT_SUFFIXES",
    "TRANSCRIPT_SUFFIXES",
    "FileReport",
    "FixOutcome",
    "Mode",
    "Options",
    "RunResult",
    "check_file",
    "check_on_cluster",
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


def check_on_cluster(
    paths: Iterable[str | Path],
    client: Any,
    options: Options | None = None,
    *,
    config: Config | None = None,
) -> RunResult:
    """Check files, folders, objects and prefixes on a dask.distributed cluster.

    What ``mcp-transcripts check --dask-scheduler ADDRESS`` runs: the paths are
    walked here (prefixes listed, globs applied), each file or object is one task
    on the cluster (a large one, a task per stretch cut at its session starts),
    and the result is the one a local run gives: the same findings, in the same
    order, the same errors. A task that fails (a worker lost, a store that does
    not answer) is tried again, then its file is an error in the result, never
    left out. Needs the ``dask`` extra (and ``cloud`` for URLs).

    Example:
        ``from distributed import Client``;
        ``result = check_on_cluster(["s3://logs/mcp-audit-logs/"], Client("tcp://scheduler:8786"))``;
        then ``result.findings``, or :func:`write_report` for any output format.

    Args:
        paths: files, folders, object URLs and prefixes, as ``check`` takes them.
        client: a connected ``distributed.Client``; the workers must reach the
            files (a shared file system) or the store (its credentials in their
            environment, or ``options.storage_options``).
        options: which rules run, and how (default: all, as ``check`` does).
        config: the configuration whose ``include``, ``exclude`` and
            ``per-file-ignores`` apply (default: none).

    Returns:
        The run's result: :meth:`RunResult.exit_code` gives ``check``'s exit code.

    Raises:
        InputError: a path does not exist.
        NotATranscriptError: nothing under ``paths`` holds MCP traffic.
    """
    from migrator.engine import runner

    return runner.run(
        [str(path) for path in paths], options or Options(), config=config, cluster=client
    )
