"""Gzip-compressed input, read as a stream (``traces.otlp.json.gz``, ``transcript.jsonl.gz``).

A file is decompressed when it starts with the gzip magic bytes, whatever its
name. A file cut short (an exporter killed mid-write) or corrupt is an
:class:`~migrator.errors.InputError` naming the file, never a traceback: the
run reports it and exits 2.
"""

from __future__ import annotations

import gzip
import zlib
from typing import IO, Any, BinaryIO, cast

from migrator.errors import InputError

GZIP_MAGIC = b"\x1f\x8b"


class CheckedGzipFile(gzip.GzipFile):
    """A :class:`gzip.GzipFile` whose read errors name the file."""

    def __init__(self, raw: IO[bytes], path: str) -> None:
        super().__init__(fileobj=raw, mode="rb")
        self.path = path
        self.raw = raw

    def _checked(self, method: Any, *args: Any) -> Any:
        try:
            return method(*args)
        except EOFError as exc:
            raise InputError(
                "the gzip file is truncated (it ends before the end-of-stream marker)",
                path=self.path,
            ) from exc
        except (gzip.BadGzipFile, zlib.error) as exc:
            raise InputError(f"the gzip file is corrupt: {exc}", path=self.path) from exc

    def read(self, size: int | None = -1) -> bytes:
        return bytes(self._checked(super().read, size))

    def read1(self, size: int = -1) -> bytes:
        return bytes(self._checked(super().read1, size))

    def readinto(self, buffer: Any) -> int:
        return int(self._checked(super().readinto, buffer))

    def peek(self, n: int) -> bytes:
        return bytes(self._checked(super().peek, n))

    def readline(self, size: int | None = -1) -> bytes:
        return bytes(self._checked(super().readline, size))

    def close(self) -> None:
        try:
            super().close()
        finally:
            self.raw.close()


def open_maybe_compressed(raw: BinaryIO, path: str) -> BinaryIO:
    """``raw`` itself, or a decompressing stream over it when it holds gzip data."""
    peek = getattr(raw, "peek", None)
    head = peek(2)[:2] if peek is not None else b""
    if head == GZIP_MAGIC:
        return cast(BinaryIO, CheckedGzipFile(raw, path))
    return raw


def is_compressed(stream: BinaryIO) -> bool:
    """Whether a stream from :func:`open_maybe_compressed` decompresses."""
    return isinstance(stream, CheckedGzipFile)
