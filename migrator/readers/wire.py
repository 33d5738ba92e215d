"""Wire JSONL: one JSON-RPC message (or batch) per line, as the stdio transport carries it."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any, ClassVar

from migrator.model.jsonrpc import envelope_message
from migrator.model.source import invalid_utf8_column
from migrator.model.units import Direction, Problem, Unit
from migrator.readers.base import Reader, messages_at, parse_json_line


def looks_like_message(value: Any) -> bool:
    """True for an object (or a batch of objects) shaped like JSON-RPC."""
    if isinstance(value, list):
        return bool(value) and all(looks_like_message(item) for item in value)
    return isinstance(value, dict) and (
        "jsonrpc" in value
        or "method" in value
        or ("id" in value and ("result" in value or "error" in value))
    )


class WireReader(Reader):
    """Each non-blank line is a JSON-RPC message or a batch; directions are inferred later."""

    name: ClassVar[str] = "wire"
    streams_lines: ClassVar[bool] = True

    def units(self, lines: Iterable[str]) -> Iterator[Unit]:
        """Yield one unit per line."""
        for line_no, text in enumerate(lines, start=1):
            yield wire_unit(text, line_no)


def wire_unit(text: str, line_no: int, direction: Direction | None = None) -> Unit:
    """The unit for one wire line; ``direction`` when the caller knows it (a proxy does)."""
    if (
        invalid_utf8_column(text) is None
    ):  # no bad byte to report (MCP302): envelope first when it can be
        message = envelope_message(text, line_no, direction)
        if message is not None:
            return Unit(text, line_no, [message])
    parsed = parse_json_line(text, line_no)
    if parsed is None:
        return Unit(text, line_no)
    if isinstance(parsed, Problem):
        return Unit(text, line_no, problem=parsed)
    value, start, end = parsed
    return Unit(text, line_no, messages_at(text, value, start, end, line_no, direction))
