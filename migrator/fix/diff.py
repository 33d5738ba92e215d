"""Unified diffs in the form ``git apply`` and reviewers expect."""

from __future__ import annotations

import difflib

from migrator.model.source import split_lines

NO_NEWLINE = "\\ No newline at end of file\n"


def unified_diff(before: str, after: str, path: str, context: int = 3) -> str:
    """A unified diff with ``a/`` and ``b/`` headers and no timestamps.

    A last line without a newline gets the ``\\ No newline at end of file``
    marker, as in ``diff -u`` and git.
    """
    if before == after:
        return ""
    out: list[str] = []
    # git writes an absolute path as a/abs/path, not a//abs/path.
    relative = path.lstrip("/")
    for line in difflib.unified_diff(
        split_lines(before), split_lines(after), f"a/{relative}", f"b/{relative}", n=context
    ):
        if line.endswith("\n"):
            out.append(line)
        else:
            out.append(line + "\n" + NO_NEWLINE)
    return "".join(out)


class StreamingDiff:
    """A unified diff built as a file streams by, for files whose lines are rewritten one for one.

    Only the lines around changes are kept: a hunk is handed to difflib (so
    the output is exactly what :func:`unified_diff` makes of the whole
    texts) as soon as more unchanged lines follow it than could join it to
    the next change. Memory stays bounded by the largest hunk, not the file.
    """

    def __init__(self, path: str, context: int = 3) -> None:
        self.path = path
        self.context = context
        self.line = 0  # 1-based number of the last line fed
        self.before_context: list[str] = []  # unchanged lines that may lead the next hunk
        self.old: list[str] = []  # the open hunk
        self.new: list[str] = []
        self.start = 0  # line number of the open hunk's first line
        self.trailing = 0  # unchanged lines at the end of the open hunk
        self.out: list[str] = []
        self.header_done = False

    def feed(self, before: str, after: str) -> str:
        """Take one line (old and new text); return any diff text now complete."""
        self.line += 1
        if before == after:
            if self.old:
                self.old.append(before)
                self.new.append(after)
                self.trailing += 1
                if self.trailing > 2 * self.context:
                    return self._close()
            else:
                self.before_context = [*self.before_context, before][-self.context :]
            return ""
        if not self.old:
            self.start = self.line - len(self.before_context)
            self.old, self.new = list(self.before_context), list(self.before_context)
            self.before_context = []
        self.old.append(before)
        self.new.append(after)
        self.trailing = 0
        return ""

    def finish(self) -> str:
        """The rest of the diff, at the end of the file."""
        return self._close() if self.old else ""

    def _close(self) -> str:
        keep = min(self.trailing, self.context)
        cut = len(self.old) - (self.trailing - keep)
        old, new = self.old[:cut], self.new[:cut]
        self.before_context = self.old[cut:][-self.context :] if self.trailing > keep else []
        self.old, self.new, self.trailing = [], [], 0
        hunk = unified_diff("".join(old), "".join(new), self.path, self.context)
        header, _, body = hunk.partition("@@ ")
        body = "@@ " + body
        numbers, _, rest = body[3:].partition(" @@")
        minus, plus = numbers.split(" ")
        body = f"@@ {_shift(minus, self.start - 1)} {_shift(plus, self.start - 1)} @@{rest}"
        if not self.header_done:
            self.header_done = True
            return header + body
        return body


def _shift(spec: str, offset: int) -> str:
    """``-1,7`` moved down by ``offset`` lines."""
    sign, numbers = spec[0], spec[1:]
    first, comma, count = numbers.partition(",")
    return f"{sign}{int(first) + offset}{comma}{count}"
