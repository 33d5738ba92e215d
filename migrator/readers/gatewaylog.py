"""What the gateway log readers share: a log held in memory, units placed in its lines.

A gateway log is a text file of records (text lines, or one JSON object per line) in which
some records hold MCP messages: verbatim after a marker (supergateway), as JSON strings
inside the record (Kong, Obot), as JSON inside the record (Obot), or only in pieces
(agentgateway) or as a JavaScript literal (supergateway's SSE mode). Each unit a reader
makes is *placed*: it says how its text maps back onto the file, so that an edited unit
can be written back and every other byte stays as it was:

* :class:`Inline`: the unit's text is a slice of one line;
* :class:`InString`: the unit's text is the value of a JSON string in one line; the
  edit is escaped the way the line escapes (as for HAR bodies);
* :class:`Derived`: the unit's text was made from the log (a JavaScript literal read as
  JSON, pieces put together into messages); it cannot be written back, and an edit to it
  is refused with the reason, for that file alone (``check`` still reports it).

Units are yielded grouped by session, sessions in order of appearance (the session model
ends a session at each ``initialize``, so interleaved sessions must not be mixed); the
file is written in its own order at the end. Lines that are not MCP traffic are passed
over: they are counted, and :meth:`GatewayLogReader.summary` says how many for
``--verbose``.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any, ClassVar

from migrator.errors import UnsafeRewriteError
from migrator.model.session import id_key
from migrator.model.units import (
    DETECT_ONLY,
    Edit,
    Kind,
    SourceMessage,
    Unit,
    apply_edits,
    message_kind,
)
from migrator.readers.base import Reader
from migrator.readers.har import _Escaping, _Literal


@dataclass(frozen=True)
class Inline:
    """The unit's text is ``line[start:end]`` of the file's line ``index`` (0-based)."""

    index: int
    start: int
    end: int


@dataclass(frozen=True)
class InString:
    """The unit's text is the decoded value of the JSON string literal ``literal`` in line ``index``."""

    index: int
    literal: _Literal


@dataclass(frozen=True)
class Derived:
    """The unit's text was made from lines ``index`` to ``last``; ``why`` it cannot be written back."""

    index: int
    last: int
    why: str


Placement = Inline | InString | Derived


def string_literal(line: str, quote: int, end: int) -> _Literal:
    """The JSON string literal ``line[quote:end]`` (both quotes included), for :class:`InString`."""
    return _Literal.at(line, quote, end)


class GatewayLogReader(Reader):
    """A log read whole: subclasses say which units each line holds (:meth:`read`)."""

    name: ClassVar[str] = "?"

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.placements: dict[int, Placement] = {}
        self.edits: dict[int, list[Edit]] = {}
        self.passed: Counter[str] = Counter()  # lines passed over, by why
        self.groups: dict[str, list[Unit]] = {}
        self.current = ""  # the session of the last unit that named one
        self.request_groups: dict[tuple[Any, ...], str] = {}

    # What a subclass implements.

    def read(self) -> Iterator[tuple[Unit, Placement, str | None]]:
        """Each unit of :attr:`lines` with its placement and its session (``None``: not known)."""
        raise NotImplementedError

    # The Reader protocol.

    def units(self, lines: Iterable[str]) -> Iterator[Unit]:
        """Every unit, grouped by session, sessions in order of appearance."""
        self.lines = list(lines)
        for unit, placement, session in self.read():
            self.placements[id(unit)] = placement
            self.groups.setdefault(self._group(unit, session), []).append(unit)
        for group in self.groups.values():
            yield from group

    def emit(self, unit: Unit, text: str) -> Iterator[str]:
        """Record the edit of a rewritten unit; the file is written by :meth:`close`."""
        placement = self.placements.pop(id(unit))
        if text != unit.text:
            index = placement.index
            if isinstance(placement, Derived):
                raise UnsafeRewriteError(
                    f"fix cannot rewrite this {self.title()}: {placement.why}; nothing written "
                    "(`check` reports it; fix the server, or its recorded transcripts)",
                    line=index + 1,
                )
            if isinstance(placement, Inline):
                new = Edit(placement.start, placement.end, text)
                self.edits.setdefault(index, []).append(new)
            else:
                self.edits.setdefault(index, []).extend(
                    _string_edits(self.lines[index], placement.literal, unit.text, text)
                )
        yield from ()

    def close(self) -> Iterator[str]:
        """Every line, with the edits made."""
        for index, line in enumerate(self.lines):
            edits = self.edits.get(index)
            if not edits:
                yield line
                continue
            after = apply_edits(line, edits)
            self.check_line(after, index)
            yield after

    def summary(self) -> str:
        """For ``--verbose``: how many lines were passed over, and why."""
        if not self.passed:
            return ""
        parts = ", ".join(f"{count} {why}" for why, count in self.passed.most_common())
        return f"passed over: {parts}"

    # Helpers for subclasses.

    def title(self) -> str:
        return self.name

    def check_line(self, line: str, index: int) -> None:
        """Refuse a rewritten line that is no longer what the format needs (JSON records: JSON)."""

    def pass_over(self, index: int, why: str) -> tuple[Unit, Placement, str | None]:
        """A line that is not MCP traffic: copied through, counted."""
        self.passed[why] += 1
        line = self.lines[index]
        return Unit(line, index + 1), Inline(index, 0, len(line)), None

    def _group(self, unit: Unit, session: str | None) -> str:
        """The session a unit belongs to: its own, else its request's (by id), else the last one."""
        message = unit.messages[0] if unit.messages else None
        if session is None and message is not None and message.kind in (Kind.RESULT, Kind.ERROR):
            session = self.request_groups.pop(_slot(message), None)
        if session is None:
            return self.current
        self.current = session
        if message is not None and message.kind is Kind.REQUEST:
            self.request_groups[_slot(message)] = session
        return session


def _slot(message: SourceMessage) -> tuple[Any, ...]:
    return id_key(message.id)


def derived_message(
    payload: Any, line: int, column: int, direction: Any, notes: Iterable[str] = ()
) -> tuple[str, SourceMessage]:
    """A message made from the log (not its text): its JSON text, and the message over all of it."""
    text = json.dumps(payload, ensure_ascii=False, separators=(",", ":"))
    message = SourceMessage(payload, 0, len(text), line, column, direction)
    message.notes = list(notes)
    return text, message


def is_message(value: Any) -> bool:
    """A JSON-RPC message (or batch of them) by its members."""
    if isinstance(value, list):
        return bool(value) and all(is_message(item) for item in value)
    return message_kind(value) is not Kind.INVALID and isinstance(value, dict)


def _string_edits(line: str, literal: _Literal, old: str, new: str) -> list[Edit]:
    """The edit of a JSON string's content that turns its value ``old`` into ``new``."""
    prefix = 0
    limit = min(len(old), len(new))
    while prefix < limit and old[prefix] == new[prefix]:
        prefix += 1
    suffix = 0
    while suffix < limit - prefix and old[-1 - suffix] == new[-1 - suffix]:
        suffix += 1
    escaping = _Escaping.of(line[literal.start : literal.end])
    start, end = literal.raw(prefix), literal.raw(len(old) - suffix)
    return [Edit(start, end, escaping.encode(new[prefix : len(new) - suffix]))]


def check_json_line(line: str, index: int, what: str) -> None:
    """Refuse a rewritten JSON record that no longer parses (a bug, never the user's input)."""
    try:
        json.loads(line)
    except ValueError as exc:
        raise UnsafeRewriteError(
            f"rewritten {what} record is not valid JSON ({exc}); nothing written", line=index + 1
        ) from exc


__all__ = [
    "DETECT_ONLY", "Derived", "GatewayLogReader", "InString", "Inline", "Placement",
    "check_json_line", "derived_message", "is_message", "string_literal",
]  # fmt: skip
