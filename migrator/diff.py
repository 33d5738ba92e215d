"""Unified diffs in the form ``git apply`` and reviewers expect."""

from __future__ import annotations

import difflib

from migrator.source import split_lines

NO_NEWLINE = "\\ No newline at end of file\n"


def unified_diff(before: str, after: str, path: str, context: int = 3) -> str:
    """A unified diff with ``a/`` and ``b/`` headers and no timestamps.

    A last line without a newline gets the ``\\ No newline at end of file``
    marker, as in ``diff -u`` and git.
    """
    if before == after:
        return ""
    out: list[str] = []
    for line in difflib.unified_diff(
        split_lines(before), split_lines(after), f"a/{path}", f"b/{path}", n=context
    ):
        if line.endswith("\n"):
            out.append(line)
        else:
            out.append(line + "\n" + NO_NEWLINE)
    return "".join(out)
