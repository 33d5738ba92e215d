"""Append live traffic to a file, as wire JSONL or as envelope JSONL.

Wire form: each line exactly as it passed, one per line (a last line that
ended without ``\\n`` gets one, so the next line starts on its own).

Envelope form, one line each::

    {"ts": "2026-12-02T18:18:01.123456Z", "direction": "client->server", "message": <the message>}

``message`` is the exact text of the line (without its line ending) embedded
as it is, not parsed and written again, so the bytes of the message do not
change. A line that is not one JSON value (a log line a server printed to
stdout, a blank line) cannot be embedded; it is kept as a JSON string under
``raw`` instead, and ``mcp-transcripts check`` passes such lines over.

Each line is flushed as soon as it is written: a crash of the server or of the
relay leaves a recording of everything up to it.
"""

from __future__ import annotations

import datetime as dt
import json
import threading
from pathlib import Path
from typing import Any, BinaryIO

from migrator.errors import UsageError
from migrator.live.relay import Log
from migrator.model import jsontext
from migrator.model.source import decode, encode
from migrator.model.units import Direction


def _utc_now() -> dt.datetime:
    return dt.datetime.now(dt.timezone.utc)


def strip_line_ending(line: bytes) -> bytes:
    """The line without its ``\\n`` or ``\\r\\n``."""
    if line.endswith(b"\n"):
        line = line[:-1]
        if line.endswith(b"\r"):
            line = line[:-1]
    return line


def is_one_json_value(body: bytes) -> bool:
    """True when ``body`` holds exactly one JSON value (whitespace around it allowed)."""
    text = decode(body)
    start = jsontext.skip_ws(text, 0)
    if start >= len(text):
        return False
    try:
        end = jsontext.value_end(text, start)
    except (ValueError, RecursionError):
        return False
    return jsontext.skip_ws(text, end) == len(text)


def envelope_line(
    line: bytes,
    direction: Direction,
    when: dt.datetime | None = None,
    meta: dict[str, Any] | None = None,
) -> bytes:
    """The envelope line for one line of traffic.

    Args:
        line: the line as it passed, with or without its line ending.
        direction: who sent it.
        when: the time stamp (now, in UTC, by default).
        meta: how it travelled (HTTP method, status, session id), written under
            ``"http"`` before the message.
    """
    stamp = (when or _utc_now()).astimezone(dt.timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%fZ")
    head = f'{{"ts": "{stamp}", "direction": "{direction.value}", '.encode()
    if meta:
        head += b'"http": ' + encode(json.dumps(meta, ensure_ascii=False)) + b", "
    body = strip_line_ending(line)
    if is_one_json_value(body):
        return head + b'"message": ' + body + b"}\n"
    raw = json.dumps(decode(body), ensure_ascii=False)
    return head + b'"raw": ' + encode(raw) + b"}\n"


class Recorder:
    """Writes every line it is given to a binary stream and flushes it.

    Safe to call from several threads. A write that fails (a full disk) is
    reported once and ends the recording; the traffic goes on.

    Args:
        stream: where the recording goes.
        envelope: write envelope lines instead of wire lines.
        log: where to report a failed write.
        name: the recording's name, for messages.
    """

    def __init__(
        self, stream: BinaryIO, *, envelope: bool, log: Log, name: str = "the recording"
    ) -> None:
        self.stream = stream
        self.envelope = envelope
        self.log = log
        self.name = name
        self.lines = 0
        self._lock = threading.Lock()
        self._open = True

    @classmethod
    def open(cls, path: str, *, envelope: bool, log: Log) -> Recorder:
        """Create (or truncate) the file at ``path`` and record into it.

        Raises:
            UsageError: the file cannot be created.
        """
        try:
            stream = Path(path).open("wb")  # noqa: SIM115 - closed by close()
        except OSError as exc:
            raise UsageError(
                f"cannot write the recording: {exc.strerror or exc}", path=path
            ) from exc
        return cls(stream, envelope=envelope, log=log, name=path)

    def write(self, line: bytes, direction: Direction, meta: dict[str, Any] | None = None) -> None:
        """Append one line of traffic and flush it (``meta`` goes into an envelope line)."""
        if self.envelope:
            data = envelope_line(line, direction, meta=meta)
        else:
            data = line if line.endswith(b"\n") else line + b"\n"
        with self._lock:
            if not self._open:
                return
            try:
                self.stream.write(data)
                self.stream.flush()
            except (OSError, ValueError) as exc:
                self._open = False
                self.log(
                    f"{self.name}: cannot write ({exc}); recording stopped, the traffic goes on"
                )
                return
            self.lines += 1

    def close(self) -> None:
        """Stop recording and close the stream."""
        with self._lock:
            self._open = False
            try:
                self.stream.close()
            except OSError as exc:
                self.log(f"{self.name}: {exc}")
