"""Turn bytes into text and back without losing a single byte.

Lines are decoded as UTF-8 with ``surrogateescape``: a byte that is not valid
UTF-8 becomes a lone surrogate in the text and turns back into the same byte on
output. Line endings are kept as they are (``\\n``, ``\\r\\n`` or none at the end).
"""

from __future__ import annotations

import contextlib
import io
import re
from collections.abc import Iterable, Iterator
from typing import BinaryIO

from migrator.errors import InputError

ENCODING = "utf-8"
ERRORS = "surrogateescape"
BOM = "\ufeff"
_ESCAPED_BYTE = re.compile("[\udc80-\udcff]")


def decode(data: bytes) -> str:
    """Decode bytes losslessly."""
    return data.decode(ENCODING, ERRORS)


def encode(text: str) -> bytes:
    """Encode text made by :func:`decode` back to the same bytes."""
    return text.encode(ENCODING, ERRORS)


def invalid_utf8_column(text: str) -> int | None:
    """1-based column of the first byte that was not valid UTF-8, if any."""
    if text.isascii():  # most lines: decided in C, without a scan in Python's regex engine
        return None
    match = _ESCAPED_BYTE.search(text)
    return None if match is None else match.start() + 1


def iter_lines(stream: BinaryIO) -> Iterator[str]:
    """Yield the decoded lines of a binary stream, each with its line ending.

    The standard text layer does the work in C: with ``newline="\\n"`` only
    ``\\n`` ends a line and endings come back untranslated, so ``\\r\\n``
    and a stray ``\\r`` stay as they were.
    """
    text = io.TextIOWrapper(stream, encoding=ENCODING, errors=ERRORS, newline="\n")
    try:
        yield from text
    finally:
        # The caller owns (and closes) the binary stream; when an exception
        # unwinds, it may be closed before this generator is finalised.
        with contextlib.suppress(ValueError):
            text.detach()


def split_lines(text: str) -> list[str]:
    """Split text into lines that keep their ``\\n`` endings."""
    # str.splitlines would also split on a lone "\r", U+2028 and other
    # separators that may stand raw inside JSON strings; JSONL lines end only at
    # "\n", so split there and nowhere else.
    lines = text.split("\n")
    out = [line + "\n" for line in lines[:-1]]
    if lines[-1]:
        out.append(lines[-1])
    return out


def join(pieces: Iterable[str]) -> str:
    """Concatenate output pieces."""
    return "".join(pieces)


def refuse_non_text(head: list[str]) -> None:
    """Refuse files that are not UTF-8 text at all, before reading them line by line.

    A UTF-16 or UTF-32 transcript (Windows tools write them) or a binary file
    given by mistake would otherwise come out as a page of unparseable lines.

    Raises:
        InputError: naming the line, with what to do about it.
    """
    if head and head[0].startswith(("\udcff\udcfe", "\udcfe\udcff")):
        raise InputError(
            "the file is UTF-16 or UTF-32 (it starts with a byte order mark); JSON transcripts must be "
            "UTF-8: convert it first, for example with `iconv -f UTF-16 -t UTF-8`",
            line=1,
        )
    for line_no, text in enumerate(head, start=1):
        nuls = text.count("\x00")
        if not nuls:
            continue
        body = text.rstrip("\n")
        evens, odds = body[0::2].count("\x00"), body[1::2].count("\x00")
        if min(evens, odds) == 0 and max(evens, odds) >= 0.8 * (len(body) // 2):
            raise InputError(
                "the file looks like UTF-16 without a byte order mark (every other byte is NUL); "
                "convert it to UTF-8 first",
                line=line_no,
            )
        raise InputError("NUL bytes: this looks like a binary file, not a transcript", line=line_no)
