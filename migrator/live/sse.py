"""Writing server-sent events back out, one event at a time.

Reading is httpx-sse's job (:class:`httpx_sse.EventSource`); this module only
writes an event it parsed, with the fields it had, so the client's event
source sees the same event type, id, retry and data. The bytes can differ
from the upstream's in what SSE leaves free (``data:x`` becomes ``data: x``,
comment lines are not repeated), never in what a client reads.
"""

from __future__ import annotations

from typing import Protocol

DEFAULT_EVENT = "message"


class Event(Protocol):
    """What is read of one event (:class:`httpx_sse.ServerSentEvent` has these)."""

    @property
    def event(self) -> str: ...

    @property
    def data(self) -> str: ...

    @property
    def id(self) -> str: ...

    @property
    def retry(self) -> int | None: ...


def encode_event(event: Event, data: str | None = None) -> bytes:
    """The wire form of ``event``, with ``data`` in place of its own when given.

    Data that spans several lines is written as several ``data:`` lines, which
    a reader joins back with ``\\n``. An event with no data (a priming event
    that only sets the id or the retry time) gets no ``data:`` line, so an
    event source does not dispatch an empty message.
    """
    body = event.data if data is None else data
    lines: list[str] = []
    if event.event and event.event != DEFAULT_EVENT:
        lines.append(f"event: {event.event}")
    if event.id:
        lines.append(f"id: {event.id}")
    if event.retry is not None:
        lines.append(f"retry: {event.retry}")
    if body or not lines:
        lines.extend(f"data: {line}" for line in body.split("\n"))
    return ("\n".join(lines) + "\n\n").encode("utf-8")
