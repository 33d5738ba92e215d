"""txtar archives of JSON-RPC exchanges, as the Go SDK's conformance tests keep them.

A txtar archive is a free-text comment followed by files, each introduced by a
marker line ``-- name --``. The Go SDK's server conformance tests
(``testdata/conformance/server/*.txtar``) hold the messages a client sends in a
``client`` file and the messages the server answers in a ``server`` file, each
a stream of JSON values, pretty or compact, one after another. Other files
(``tools``, ``prompts``, ``resources``: the features a test server registers)
and the comment are copied through untouched.

Each JSON value is its own unit, a slice of the file, so a rewrite edits only
that value's text and keeps its indentation (the Go SDK writes its ``server``
files with tabs); every other byte stays as it was.

The two files are not in time order: the client's answer to a server ``ping``
sits in the client file, before the ping it answers. The messages are handed
on in the order they crossed the wire: each server response after the client
messages up to the request it answers, so the session pairs them as the test
harness does; the document is written back in its own order by :meth:`close`.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator
from typing import ClassVar

from migrator.errors import InputError, NotATranscriptError
from migrator.model import jsontext
from migrator.model.units import Direction, Unit
from migrator.readers.base import Reader, messages_at

MARKER = re.compile(r"^-- (?P<name>.+?) --[ \t]*\r?$")
SENDERS = {"client": Direction.CLIENT_TO_SERVER, "server": Direction.SERVER_TO_CLIENT}
_NAMES = {direction: name for name, direction in SENDERS.items()}


def looks_like_txtar(head: list[str]) -> bool:
    """True when the first lines hold a ``-- client --`` or ``-- server --`` file marker."""
    return any(
        (m := MARKER.match(line.rstrip("\n"))) and m.group("name") in SENDERS for line in head
    )


class TxtarReader(Reader):
    """Reads the ``client`` and ``server`` files of a txtar archive as message streams."""

    name: ClassVar[str] = "txtar"

    def __init__(self) -> None:
        self.order: list[Unit] = []  # every unit, in file order
        self.texts: dict[int, str] = {}

    def units(self, lines: Iterable[str]) -> Iterator[Unit]:
        """Yield every unit (text between messages too), messages in wire order."""
        self.order = list(self._file_order(lines))
        client = [
            u
            for u in self.order
            if u.messages and u.messages[0].direction is Direction.CLIENT_TO_SERVER
        ]
        server = [
            u
            for u in self.order
            if u.messages and u.messages[0].direction is Direction.SERVER_TO_CLIENT
        ]
        yield from (u for u in self.order if not u.messages)
        waiting = list(client)
        for unit in server:
            answered = _answered_id(unit)
            if answered is not None:
                request = next(
                    (i for i, u in enumerate(waiting) if _request_id(u) == answered), None
                )
                if request is not None:
                    yield from waiting[: request + 1]
                    del waiting[: request + 1]
            yield unit
        yield from waiting

    def emit(self, unit: Unit, text: str) -> Iterator[str]:
        """Keep the unit's text; the archive is written in its own order by :meth:`close`."""
        self.texts[id(unit)] = text
        yield from ()

    def close(self) -> Iterator[str]:
        """The archive, every unit in file order."""
        yield "".join(self.texts.get(id(unit), unit.text) for unit in self.order)

    def _file_order(self, lines: Iterable[str]) -> Iterator[Unit]:
        plain: list[str] = []
        plain_line = 1
        sender: Direction | None = None
        body: list[str] = []
        body_line = 0
        found = False
        for line_no, text in enumerate(lines, start=1):
            marker = MARKER.match(text.rstrip("\n"))
            if marker is None:
                if sender is None:
                    plain.append(text)
                else:
                    body.append(text)
                continue
            if sender is not None:
                for unit in self._stream(body, body_line, sender):
                    found = found or bool(unit.messages)
                    yield unit
                body = []
            elif plain:
                yield Unit("".join(plain), plain_line)
            plain, plain_line = [], line_no + 1
            sender = SENDERS.get(marker.group("name"))
            body_line = line_no + 1
            yield Unit(text, line_no)
        if sender is not None:
            for unit in self._stream(body, body_line, sender):
                found = found or bool(unit.messages)
                yield unit
        elif plain:
            yield Unit("".join(plain), plain_line)
        if not found:
            raise NotATranscriptError(
                "txtar archive holds no JSON-RPC messages in a client or server file", line=1
            )

    def _stream(self, body: list[str], first_line: int, sender: Direction) -> Iterator[Unit]:
        """One unit per JSON value of a ``client`` or ``server`` file, and the whitespace between."""
        text = "".join(body)
        position = 0
        while position < len(text):
            start = jsontext.skip_ws(text, position)
            line = first_line + text.count("\n", 0, start)
            if start >= len(text):
                yield Unit(text[position:], first_line + text.count("\n", 0, position))
                return
            try:
                value, end = jsontext.DECODER.raw_decode(text, start)
            except (json.JSONDecodeError, jsontext.NotJsonError, RecursionError) as exc:
                reason = (
                    exc.msg
                    if isinstance(exc, json.JSONDecodeError)
                    else str(exc) or "too deeply nested"
                )
                raise InputError(
                    f"not valid JSON in the txtar {_NAMES[sender]} file: {reason}", line=line
                ) from exc
            # The unit ends with the line break after the value, so plain text never splits a line.
            stop = text.find("\n", end)
            stop = len(text) if stop < 0 else stop + 1
            if text[end:stop].strip():
                raise InputError(
                    f"extra text after a JSON value in the txtar {_NAMES[sender]} file", line=line
                )
            if start > position:
                yield Unit(text[position:start], first_line + text.count("\n", 0, position))
            piece = text[start:stop]
            column = start - (text.rfind("\n", 0, start) + 1) + 1
            messages = messages_at(piece, value, 0, end - start, line, sender)
            for message in messages:
                message.column = column if message.start == 0 else message.column
            yield Unit(piece, line, messages)
            position = stop


def _answered_id(unit: Unit) -> object:
    payload = unit.messages[0].payload
    if (
        isinstance(payload, dict)
        and "method" not in payload
        and ("result" in payload or "error" in payload)
    ):
        return _id_key(payload.get("id"))
    return None


def _request_id(unit: Unit) -> object:
    payload = unit.messages[0].payload
    if isinstance(payload, dict) and "method" in payload and "id" in payload:
        return _id_key(payload["id"])
    return None


def _id_key(value: object) -> object:
    # 1 and "1" are different ids; True is not 1.
    return (type(value).__name__, json.dumps(value, sort_keys=True))
