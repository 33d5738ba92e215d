"""Unified diffs in the form ``git apply`` and reviewers expect."""

from __future__ import annotations

import difflib
from collections import deque

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

    Only the lines around changes are kept: a hunk is closed as soon as more
    unchanged lines follow it than could join it to the next change, and
    written out (by :func:`_aligned_diff`, or by difflib where that could
    differ). The output is what :func:`unified_diff` makes of the whole texts
    whenever no changed line also stands elsewhere in the file (a rewritten
    answer is unlike every other line); where one does, the whole-text diff may
    pair it with that other copy, while this one pairs each line with itself.
    Both apply. Memory stays bounded by the largest hunk, not the file.
    """

    def __init__(self, path: str, context: int = 3) -> None:
        self.path = path
        self.context = context
        self.line = 0  # 1-based number of the last line fed
        # The unchanged lines that may lead the next hunk: on a file that is mostly
        # unchanged, keeping them is all the work a line costs.
        self.before_context: deque[str] = deque(maxlen=context)
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
                self.before_context.append(before)
            return ""
        if not self.old:
            self.start = self.line - len(self.before_context)
            self.old, self.new = list(self.before_context), list(self.before_context)
            self.before_context.clear()
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
        self.before_context.clear()
        if self.trailing > keep:
            self.before_context.extend(self.old[cut:])
        self.old, self.new, self.trailing = [], [], 0
        hunk = _aligned_diff(old, new, self.path)
        if hunk is None:
            hunk = unified_diff("".join(old), "".join(new), self.path, self.context)
        header, _, body = hunk.partition("@@ ")
        # difflib numbers the hunk's lines from 1, and may split it in more than one
        # (lines that repeat can pair up apart): each range moves to the file's lines.
        offset = self.start - 1
        body = "".join(
            _moved(line, offset) if line.startswith("@@ ") else line
            for line in split_lines("@@ " + body)
        )
        if not self.header_done:
            self.header_done = True
            return header + body
        return body


# difflib treats a line as junk when it is this common in a sequence of at least this many.
_DIFFLIB_AUTOJUNK = 200


def _aligned_diff(old: list[str], new: list[str], path: str) -> str | None:
    """:func:`unified_diff` of one closed hunk, written without difflib where that is sure to agree.

    ``old`` and ``new`` are the hunk's lines one for one, with at most ``context``
    unchanged lines leading or trailing and no longer run of them inside, so the
    whole hunk is one group. When no changed line of either side appears on the
    other, difflib can match only unchanged lines, and it matches each with itself:
    of the longest matching blocks it takes the first in ``old`` and, for that, the
    first in ``new``, and a block of unchanged lines at one place is one at the
    other too. So its diff is the lines in order, each changed run as its old lines
    and then its new ones. Otherwise (or in a hunk long enough for difflib to set
    common lines aside as junk), ``None``: difflib decides.
    """
    count = len(old)
    if count >= _DIFFLIB_AUTOJUNK:
        return None
    changed = [before != after for before, after in zip(old, new, strict=True)]
    olds, news = set(old), set(new)
    for index, differs in enumerate(changed):
        if differs and (old[index] in news or new[index] in olds):
            return None
    relative = path.lstrip("/")
    span = "1" if count == 1 else f"1,{count}"
    out = [f"--- a/{relative}\n+++ b/{relative}\n@@ -{span} +{span} @@\n"]
    index = 0
    while index < count:
        if not changed[index]:
            out.append(_marked(" ", old[index]))
            index += 1
            continue
        end = index
        while end < count and changed[end]:
            end += 1
        out += [_marked("-", line) for line in old[index:end]]
        out += [_marked("+", line) for line in new[index:end]]
        index = end
    return "".join(out)


def _marked(sign: str, line: str) -> str:
    """A diff line: its sign, the line, and the marker a line without a newline gets."""
    return sign + line if line.endswith("\n") else sign + line + "\n" + NO_NEWLINE


def _moved(header: str, offset: int) -> str:
    """A hunk header (``@@ -1,7 +1,7 @@``) with both ranges moved down by ``offset`` lines."""
    numbers, _, rest = header[3:].partition(" @@")
    minus, plus = numbers.split(" ")
    return f"@@ {_shift(minus, offset)} {_shift(plus, offset)} @@{rest}"


def _shift(spec: str, offset: int) -> str:
    """``-1,7`` moved down by ``offset`` lines."""
    sign, numbers = spec[0], spec[1:]
    first, comma, count = numbers.partition(",")
    return f"{sign}{int(first) + offset}{comma}{count}"
