"""What every reader shares: the interface and the parsing of one JSON line."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator
from typing import Any, ClassVar, Literal

from migrator.model import jsontext
from migrator.model.source import BOM, invalid_utf8_column
from migrator.model.units import Direction, Problem, SourceMessage, Unit

_DECODER = jsontext.DECODER
_JSON_WHITESPACE = " \t\r\n"

_fast_loads: Callable[[str], Any] | None
try:  # a compiled parser, installed by default; what it accepts, the strict decoder accepts too
    from orjson import loads as _fast_loads
except ImportError:  # pragma: no cover - the pure-Python fallback
    _fast_loads = None
UNPARSEABLE_LINE = "MCP301"
INVALID_UTF8 = "MCP302"


class Reader:
    """A transcript format.

    A reader turns the lines of a file into :class:`~migrator.model.units.Unit` s: the
    exact text, and the messages found in it with their spans. It never changes
    text; edits are made later, on the spans it reported. The engine hands each
    unit's text back, edited or not, to :meth:`emit`, and calls :meth:`close`
    at the end: the output is everything they yield.

    Line formats yield each unit's text as it comes (streaming). Formats whose
    units are not plain slices of the file (a message inside an escaped string,
    a YAML node) collect in :meth:`emit` and write the document in :meth:`close`.
    """

    name: ClassVar[str] = "?"
    streams_lines: ClassVar[bool] = False  # one output line per input line, as they come
    # What its units hold: JSON-RPC messages, or OpenTelemetry spans. The engine routes a
    # file by this, never by the reader's class.
    carries: ClassVar[Literal["messages", "spans"]] = "messages"

    def units(self, lines: Iterable[str]) -> Iterator[Unit]:
        """Yield one unit per piece of the input, in order."""
        raise NotImplementedError

    def emit(self, unit: Unit, text: str) -> Iterator[str]:
        """Output for one unit, given its (possibly edited) text."""
        yield text

    def close(self) -> Iterator[str]:
        """Output after the last unit."""
        yield from ()

    def batches(
        self, lines: Iterable[str], keep: Any = None, keep_text: Any = None
    ) -> Iterator[Any]:
        """For a reader that ``carries`` spans: its export batches (and problems), in order."""
        raise NotImplementedError(f"{self.name} carries {self.carries}, not spans")

    def summary(self) -> str:
        """What the reader passed over, for ``--verbose`` (empty: nothing worth saying)."""
        return ""


def parse_json_line(text: str, line_no: int) -> tuple[Any, int, int] | Problem | None:
    """Parse a line that should hold exactly one JSON value.

    Returns:
        ``(value, start, end)`` with the value's span in ``text``; ``None`` for a
        blank line; a :class:`Problem` for a line that is not valid JSON.
    """
    bad_byte = invalid_utf8_column(text)
    if bad_byte is not None:
        return Problem(INVALID_UTF8, "line is not valid UTF-8", line_no, bad_byte)
    start = jsontext.skip_ws(text, 0)
    if start == 0 and text.startswith(BOM):
        start = jsontext.skip_ws(text, 1)
    if start >= len(text):
        return None
    if _fast_loads is not None and start == 0:
        # The common case, a line that is exactly one value: the compiled
        # parser decides, and the span is the line without its whitespace.
        # Anything it refuses goes the exact way below, which also words the error.
        try:
            value = _fast_loads(text)
        except ValueError:
            pass
        else:
            end = len(text)
            while end and text[end - 1] in _JSON_WHITESPACE:
                end -= 1
            return value, start, end
    try:
        value, end = _DECODER.raw_decode(text, start)
    except json.JSONDecodeError as exc:
        content_end = len(text.rstrip("\r\n"))
        if exc.pos >= content_end - 1 or exc.msg.startswith("Unterminated"):
            reason = "the line ends inside a JSON value (truncated?)"
        else:
            reason = exc.msg.removesuffix(" at")
        column = min(exc.pos, content_end) + 1
        return Problem(UNPARSEABLE_LINE, f"not valid JSON: {reason}", line_no, column)
    except jsontext.NotJsonError as exc:
        return Problem(UNPARSEABLE_LINE, f"not valid JSON: {exc}", line_no, start + 1)
    except RecursionError:
        return Problem(UNPARSEABLE_LINE, "JSON nested too deeply to read", line_no, start + 1)
    rest = jsontext.skip_ws(text, end)
    if rest < len(text):
        return Problem(
            UNPARSEABLE_LINE, "extra data after the JSON value on this line", line_no, rest + 1
        )
    return value, start, end


def messages_at(
    text: str,
    value: Any,
    start: int,
    end: int,
    line_no: int,
    direction: Direction | None,
) -> list[SourceMessage]:
    """The message (or batch of messages) whose JSON text is ``text[start:end]``."""
    if isinstance(value, list) and value:
        spans = jsontext.array_elements(text, start)
        return [
            SourceMessage(item, s, e, line_no, s + 1, direction, in_batch=True)
            for item, (s, e) in zip(value, spans, strict=True)
        ]
    return [SourceMessage(value, start, end, line_no, start + 1, direction)]
