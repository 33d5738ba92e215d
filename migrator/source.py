"""Turn bytes into text and back without losing a single byte.

Lines are decoded as UTF-8 with ``surrogateescape``: a byte that is not valid
UTF-8 becomes a lone surrogate in the text and turns back into the same byte on
output. Line endings are kept as they are (``\\n``, ``\\r\\n`` or none at the end).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from typing import BinaryIO

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
    match = _ESCAPED_BYTE.search(text)
    return None if match is None else match.start() + 1


def iter_lines(stream: BinaryIO) -> Iterator[str]:
    """Yield the decoded lines of a binary stream, each with its line ending."""
    for raw in stream:
        yield decode(raw)


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
