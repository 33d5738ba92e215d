"""Two-file stdio captures: what the client wrote and what the server wrote, apart.

Teeing a stdio server's stdin and stdout gives two files: client->server and
server->client. Each is wire JSONL or envelope JSONL. They are merged into
one conversation before the rules run, so that responses meet their
requests and the handshake comes first:

* both files envelope JSONL with a time on every message line (``ts``,
  ``time``, ``timestamp``, ``t``, ...): merged by time; equal times are
  ordered by causality; times that put a response before its request are an
  error;
* otherwise, by causality: every server message is placed as early as the
  client's messages allow (a response right after its request; notifications
  right after the server message before them). That is the true order when the
  client waits for each answer before it sends the next request, as SDK
  clients and test harnesses driving a stdio server do. When the server
  answers requests in a different order than the client sent them, the client
  had several requests in flight and when it sent each one cannot be told:
  the merge is refused (an :class:`~migrator.errors.InputError` saying so), as
  it is when the files contradict each other.

This module only reads and merges (:func:`read_side`, :func:`merge_pair`) and
writes a side back (:meth:`Side.rewritten`). Running the rules over the merged
conversation is :func:`migrator.engine.files.check_pair` and :func:`migrator.engine.files.fix_pair`:
findings name the file their line is in, and ``fix`` rewrites only the
server->client file (responses are the server's), atomically.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from migrator.errors import InputError, MigratorError, UsageError
from migrator.model.session import id_key
from migrator.model.source import decode, split_lines
from migrator.model.units import Direction, Kind, Unit
from migrator.readers import SAMPLE_LINES, InputFormat, Reader, detect
from migrator.readers.storage import StorageOptions, is_url, open_object

__all__ = ["C2S", "S2C", "Merged", "Side", "merge_pair", "read_side"]

C2S, S2C = Direction.CLIENT_TO_SERVER, Direction.SERVER_TO_CLIENT
TIME_KEYS = ("ts", "time", "timestamp", "t", "at", "date", "datetime", "time_ms", "timestamp_ms")


@dataclass
class Side:
    """One of the two files, read into units."""

    path: str
    direction: Direction
    text: str
    reader: Reader
    units: list[Unit]
    times: list[float | None] = field(default_factory=list)

    def rewritten(self, outputs: Mapping[int, str]) -> Iterator[str]:
        """This file written back, each unit as ``outputs`` (keyed by ``id(unit)``) has it."""
        for unit in self.units:
            yield from self.reader.emit(unit, outputs[id(unit)])
        yield from self.reader.close()

    @property
    def timed(self) -> bool:
        """Every unit with a message has a time."""
        return self.reader.name == "envelope" and all(
            t is not None for u, t in zip(self.units, self.times, strict=True) if u.messages
        )


@dataclass
class Merged:
    """The two files as one conversation."""

    order: list[tuple[Side, Unit]]
    how: str


def read_side(
    path: str, direction: Direction, forced: InputFormat, storage_options: StorageOptions = ()
) -> Side:
    """Read one file of a pair (or the object at a URL); every message in it was sent in ``direction``.

    Raises:
        InputError: the file cannot be read, or is not wire or envelope JSONL.
        UsageError: ``forced`` is a format that cannot be merged, or a URL needs the cloud extra.
    """
    try:
        if is_url(path):
            with open_object(path, storage_options) as stream:
                text = decode(stream.read())
        else:
            text = decode(Path(path).read_bytes())
    except IsADirectoryError as exc:
        raise InputError("is a folder, not a transcript file", path=path) from exc
    except OSError as exc:
        raise InputError(f"cannot read: {exc.strerror or exc}", path=path) from exc
    if forced not in (InputFormat.AUTO, InputFormat.WIRE, InputFormat.ENVELOPE):
        raise UsageError(
            f"--input-format {forced.value} cannot be merged: a pair is two JSONL files"
        )
    lines = split_lines(text)
    try:
        detection = detect(lines[:SAMPLE_LINES], forced)
        reader = detection.reader
        if reader.name not in ("wire", "envelope"):
            raise InputError(
                f"a pair is two JSONL files (wire or envelope); this one reads as {reader.name}",
                line=1,
            )
        units = list(reader.units(lines))
    except MigratorError as exc:
        exc.path = exc.path or path
        raise
    for unit in units:
        for message in unit.messages:
            message.direction = direction  # the file says who sent it
    side = Side(path, direction, text, reader, units)
    side.times = [_time(unit) if reader.name == "envelope" else None for unit in units]
    return side


def _time(unit: Unit) -> float | None:
    if not unit.messages:
        return None
    try:
        envelope = json.loads(unit.text)
    except ValueError:
        return None
    if not isinstance(envelope, dict):
        return None
    for key in TIME_KEYS:
        if key in envelope:
            return _seconds(envelope[key], key)
    return None


def _seconds(value: Any, key: str) -> float | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, (int, float)):
        return float(value) / (1000 if key.endswith("_ms") else 1)
    if isinstance(value, str):
        try:
            return float(value)
        except ValueError:
            pass
        try:
            moment = datetime.fromisoformat(value.replace("Z", "+00:00"))
        except ValueError:
            return None
        return moment.timestamp()
    return None


def merge_pair(c2s: Side, s2c: Side) -> Merged:
    """Interleave the two files' units into the order they were exchanged.

    Raises:
        InputError: the order cannot be recovered, or the files contradict each other.
    """
    timed = c2s.timed and s2c.timed
    merger = _Merger(c2s, s2c, timed)
    order = merger.run()
    how = (
        "merged by the times of the envelopes"
        if timed
        else "merged by causality (each answer right after its request)"
    )
    return Merged(order, how)


class _Merger:
    """Two cursors over the files and what each side has asked and not been answered."""

    def __init__(self, c2s: Side, s2c: Side, timed: bool) -> None:
        self.sides = (c2s, s2c)
        self.timed = timed
        self.cursor = [0, 0]
        # Requests sent and not yet answered, per sender, in the order sent.
        self.pending: tuple[dict[tuple[str, Any], int], dict[tuple[str, Any], int]] = ({}, {})
        # How many requests with each id each side sends from a position on, and
        # how many answers with each id: to tell "not sent yet" from "never sent".
        self.requests_left = (_count(c2s.units, Kind.REQUEST), _count(s2c.units, Kind.REQUEST))
        self.answers_left = (_count(c2s.units, None), _count(s2c.units, None))
        # For each server line, the next server line that answers something.
        self.next_answer: list[int | None] = [None] * (len(s2c.units) + 1)
        for j in range(len(s2c.units) - 1, -1, -1):
            answers = any(m.kind in (Kind.RESULT, Kind.ERROR) for m in s2c.units[j].messages)
            self.next_answer[j] = j if answers else self.next_answer[j + 1]

    def run(self) -> list[tuple[Side, Unit]]:
        order: list[tuple[Side, Unit]] = []
        c2s, s2c = self.sides
        while self.cursor[0] < len(c2s.units) or self.cursor[1] < len(s2c.units):
            pick = self._choose()
            side = self.sides[pick]
            unit = side.units[self.cursor[pick]]
            self._take(pick, unit)
            order.append((side, unit))
        return order

    def _choose(self) -> int:
        first, second = self._head(0), self._head(1)
        if first is None:
            return 1
        if second is None:
            return 0
        heads = (first, second)
        waiting = (self._waits_for(0, first), self._waits_for(1, second))
        if self.timed:
            times = [self.sides[i].times[self.cursor[i]] for i in (0, 1)]
            if times[0] is not None and times[1] is not None and times[0] != times[1]:
                earlier = 0 if times[0] < times[1] else 1
                key = waiting[earlier]
                if key is not None:
                    raise self._contradiction(
                        earlier, heads[earlier], key, "its time is earlier than the request's"
                    )
                return earlier
        if waiting[0] is not None and waiting[1] is not None:
            raise self._contradiction(
                1, second, waiting[1], "each file waits for a later line of the other"
            )
        if waiting[1] is not None:
            return 0
        # Server messages go as early as the client's allow. Notifications and
        # server requests go with the answer that follows them: before the next
        # client line only if that answer's request has been sent already.
        ahead = self.next_answer[self.cursor[1]]
        if (
            ahead is not None
            and ahead != self.cursor[1]
            and self._waits_for(1, self.sides[1].units[ahead]) is not None
        ):
            return 0
        return 1

    def _head(self, i: int) -> Unit | None:
        side = self.sides[i]
        return side.units[self.cursor[i]] if self.cursor[i] < len(side.units) else None

    def _waits_for(self, i: int, unit: Unit) -> tuple[str, Any] | None:
        """The id of a request of the other side that this unit answers and that is still to come."""
        other = 1 - i
        for message in unit.messages:
            if message.kind not in (Kind.RESULT, Kind.ERROR):
                continue
            key = id_key(message.payload["id"])
            if key not in self.pending[other] and self.requests_left[other].get(key, 0) > 0:
                return key
        return None

    def _take(self, i: int, unit: Unit) -> None:
        other = 1 - i
        for message in unit.messages:
            kind = message.kind
            if kind is Kind.REQUEST:
                key = id_key(message.payload["id"])
                self.requests_left[i][key] -= 1
                self.pending[i][key] = self.cursor[i]
            elif (
                kind is Kind.NOTIFICATION
                and message.payload.get("method") == "notifications/cancelled"
            ):
                params = message.payload.get("params")
                if isinstance(params, dict) and "requestId" in params:
                    self.pending[i].pop(id_key(params["requestId"]), None)
            elif kind in (Kind.RESULT, Kind.ERROR):
                key = id_key(message.payload["id"])
                self.answers_left[i][key] -= 1
                sent_at = self.pending[other].pop(key, None)
                if sent_at is not None and not self.timed and i == 1:
                    self._check_in_order(key, sent_at, unit)
        self.cursor[i] += 1

    def _check_in_order(self, key: tuple[str, Any], sent_at: int, unit: Unit) -> None:
        """Refuse a causality merge when the server answered a later request first."""
        for earlier, position in self.pending[0].items():
            if position < sent_at and self.answers_left[1].get(earlier, 0) > 0:
                c2s, s2c = self.sides
                raise InputError(
                    f"cannot merge {c2s.path} and {s2c.path}: the server answered request id "
                    f"{json.dumps(key[1])} before id {json.dumps(earlier[1])}, which the client sent earlier, "
                    "so the client had several requests in flight and their order cannot be recovered; "
                    "record envelope JSONL with times, or one file",
                    path=s2c.path,
                    line=unit.line,
                )

    def _contradiction(self, i: int, unit: Unit, key: tuple[str, Any], why: str) -> InputError:
        side, other = self.sides[i], self.sides[1 - i]
        return InputError(
            f"cannot merge with {other.path}: this line answers request id {json.dumps(key[1])}, "
            f"which {other.path} sends only later ({why})",
            path=side.path,
            line=unit.line,
        )


def _count(units: list[Unit], kind: Kind | None) -> dict[tuple[str, Any], int]:
    """How many requests (``kind`` REQUEST) or answers (``None``) carry each id."""
    counts: dict[tuple[str, Any], int] = {}
    for unit in units:
        for message in unit.messages:
            is_answer = message.kind in (Kind.RESULT, Kind.ERROR)
            if (kind is Kind.REQUEST and message.kind is Kind.REQUEST) or (
                kind is None and is_answer
            ):
                key = id_key(message.payload["id"])
                counts[key] = counts.get(key, 0) + 1
    return counts
