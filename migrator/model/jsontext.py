"""Locate parts of a JSON text without re-serialising it.

The migrator promises that every byte it does not rewrite stays as it was. To
rewrite one member of a message (the ``error`` of a response) it needs the exact
character span of that member inside the original text; the standard library's
decoder only gives values. These helpers walk the text with the decoder's own
primitives, so they accept exactly what :func:`json.loads` accepts.
"""

from __future__ import annotations

import functools
import itertools
import json
import re
from dataclasses import dataclass
from json.decoder import scanstring  # type: ignore[attr-defined]
from typing import Any

import orjson

_WHITESPACE = re.compile(r"[ \t\n\r]*")


class NotJsonError(ValueError):
    """Text Python's decoder accepts but JSON does not (``NaN``, ``Infinity``)."""


def _reject_constant(name: str) -> Any:
    raise NotJsonError(f"{name} is not a JSON value")


_CHUNK = 4000


def _parse_int(digits: str) -> int:
    # Python refuses to convert more than 4,300 digits in one go (a guard
    # against slow conversions), yet such a number is valid JSON. Converting
    # in chunks gives the exact value without touching the global limit.
    if len(digits) <= _CHUNK:
        return int(digits)
    sign = -1 if digits.startswith("-") else 1
    digits = digits.lstrip("-")
    value = 0
    for start in range(0, len(digits), _CHUNK):
        chunk = digits[start : start + _CHUNK]
        value = value * 10 ** len(chunk) + int(chunk)
    return sign * value


DECODER = json.JSONDecoder(parse_constant=_reject_constant, parse_int=_parse_int)
"""The decoder every reader uses: strict JSON, any size of integer."""
_DECODER = DECODER

_fast_loads: Any
try:  # a compiled parser, installed by default; what it accepts, the strict decoder accepts too
    from orjson import loads as _fast_loads
except ImportError:  # pragma: no cover - the pure-Python fallback
    _fast_loads = None


def loads(text: str) -> Any:
    """Decode a JSON text known to be valid: compiled when it can, exact always.

    orjson refuses a few valid texts (integers over 64 bits, lone surrogate
    escapes); the strict decoder takes those, so the value is the one
    :data:`DECODER` gives.
    """
    if _fast_loads is not None:
        try:
            return _fast_loads(text)
        except ValueError:
            pass
    return _DECODER.decode(text)


@dataclass(frozen=True, slots=True)
class Member:
    """One ``"key": value`` member of a JSON object, as spans of the text."""

    key: str
    key_start: int  # index of the opening quote of the key
    value_start: int
    value_end: int  # index just past the value

    def separator(self, text: str) -> str:
        """The exact text between the key's closing quote and the value."""
        key_end = _key_end(text, self.key_start)
        return text[key_end : self.value_start]


def _key_end(text: str, key_start: int) -> int:
    _, end = scanstring(text, key_start + 1)
    return int(end)


def skip_ws(text: str, pos: int) -> int:
    """Index of the first non-whitespace character at or after ``pos``."""
    match = _WHITESPACE.match(text, pos)
    assert match is not None  # the pattern matches the empty string
    return match.end()


def value_end(text: str, pos: int) -> int:
    """Index just past the JSON value that starts at ``pos``."""
    _, end = _DECODER.raw_decode(text, pos)
    return int(end)


def object_members(text: str, start: int) -> list[Member]:
    """The members of the JSON object whose ``{`` is at ``start``.

    Raises:
        ValueError: if the text at ``start`` is not a JSON object.
    """
    if text[start : start + 1] != "{":
        raise ValueError(f"expected '{{' at {start}")
    members: list[Member] = []
    pos = skip_ws(text, start + 1)
    if text[pos : pos + 1] == "}":
        return members
    while True:
        if text[pos : pos + 1] != '"':
            raise ValueError(f"expected a key at {pos}")
        key, key_end = scanstring(text, pos + 1)
        colon = skip_ws(text, key_end)
        if text[colon : colon + 1] != ":":
            raise ValueError(f"expected ':' at {colon}")
        vstart = skip_ws(text, colon + 1)
        vend = value_end(text, vstart)
        members.append(Member(key, pos, vstart, vend))
        pos = skip_ws(text, vend)
        ch = text[pos : pos + 1]
        if ch == "}":
            return members
        if ch != ",":
            raise ValueError(f"expected ',' or '}}' at {pos}")
        pos = skip_ws(text, pos + 1)


def compact_members(text: str, start: int, end: int, value: dict[str, Any]) -> list[Member] | None:
    """:func:`object_members` of the object ``text[start:end]``, worked out from its decoded
    ``value``, when the text is orjson's compact writing of it (what most SDKs write);
    ``None`` otherwise.

    Such a text is its members' own compact writings joined with commas, so each
    member's span follows from their lengths without scanning the text.
    """
    try:
        written = [
            (key, orjson.dumps(key).decode(), orjson.dumps(member).decode())
            for key, member in value.items()
        ]
    except TypeError:  # what orjson refuses (an integer beyond 64 bits) is scanned
        return None
    if text[start:end] != "{" + ",".join(f"{key}:{member}" for _, key, member in written) + "}":
        return None
    members: list[Member] = []
    position = start + 1
    for key, key_text, member_text in written:
        value_start = position + len(key_text) + 1
        members.append(Member(key, position, value_start, value_start + len(member_text)))
        position = value_start + len(member_text) + 1
    return members


def array_elements(text: str, start: int) -> list[tuple[int, int]]:
    """Spans of the elements of the JSON array whose ``[`` is at ``start``."""
    if text[start : start + 1] != "[":
        raise ValueError(f"expected '[' at {start}")
    spans: list[tuple[int, int]] = []
    pos = skip_ws(text, start + 1)
    if text[pos : pos + 1] == "]":
        return spans
    while True:
        end = value_end(text, pos)
        spans.append((pos, end))
        pos = skip_ws(text, end)
        ch = text[pos : pos + 1]
        if ch == "]":
            return spans
        if ch != ",":
            raise ValueError(f"expected ',' or ']' at {pos}")
        pos = skip_ws(text, pos + 1)


@dataclass(frozen=True, slots=True)
class JsonStyle:
    """How a piece of JSON was written, so new text can be written the same way."""

    item_separator: str = ","
    key_separator: str = ":"
    ensure_ascii: bool = False
    indent: str | None = None  # pretty-printed documents: one level of indentation
    newline: str = "\n"

    def dumps(self, value: Any, base_indent: str = "") -> str:
        """Serialise ``value`` in this style.

        Args:
            value: what to write.
            base_indent: for pretty-printed JSON, the indentation of the line the
                value starts on; nested lines are indented from there.
        """
        text = self._dumps(value, base_indent, self.ensure_ascii)
        if not self.ensure_ascii and _LONE_SURROGATE.search(text):
            # A lone surrogate (from a "\ud800" escape) cannot be written as
            # UTF-8; written as an escape it survives.
            text = self._dumps(value, base_indent, True)
        return text

    def _dumps(self, value: Any, base_indent: str, ensure_ascii: bool) -> str:
        if self.indent is None:
            return _encoder(self.item_separator, self.key_separator, ensure_ascii, None).encode(
                value
            )
        text = _encoder(",", self.key_separator, ensure_ascii, self.indent).encode(value)
        return text.replace("\n", self.newline + base_indent)


@functools.cache
def _encoder(
    item_separator: str, key_separator: str, ensure_ascii: bool, indent: str | None
) -> json.JSONEncoder:
    """``json.dumps``'s encoder for these options, made once (it costs as much as a short dump)."""
    return json.JSONEncoder(
        separators=(item_separator, key_separator),
        ensure_ascii=ensure_ascii,
        allow_nan=False,
        indent=indent,
    )


_LONE_SURROGATE = re.compile("[\ud800-\udfff]")

COMPACT = JsonStyle()
SPACED = JsonStyle(", ", ": ")

_NON_ASCII_ESCAPE = re.compile(
    r"\\u(?:00[89a-fA-F][0-9a-fA-F]|0[1-9a-fA-F][0-9a-fA-F]{2}|[1-9a-fA-F][0-9a-fA-F]{3})"
)


# A JSON string, or what is left of one the text cuts off (a quote, then to the end).
_JSON_STRING = re.compile(r'"(?:[^"\\]|\\.)*(?:"|\\?\Z)', re.DOTALL)


def detect_style(text: str) -> JsonStyle:
    """Guess the separators and escaping used in a one-line JSON text.

    Looks at the characters that follow each ``,`` and ``:`` outside strings;
    the majority decides. Non-ASCII characters written as ``\\uXXXX`` escapes
    (and none written raw) mean the writer used ``ensure_ascii``.
    """
    if _written_compact(text):  # what most SDKs write: decided without looking at every string
        return COMPACT
    # Strings emptied (what they hold is no separator), the separators are counted in C.
    bare = _JSON_STRING.sub('""', text)
    items, spaced_items = bare.count(","), bare.count(", ")
    keys, spaced_keys = bare.count(":"), bare.count(": ")
    compact_items, compact_keys = items - spaced_items, keys - spaced_keys
    ensure_ascii = text.isascii() and _NON_ASCII_ESCAPE.search(text) is not None
    return JsonStyle(
        ", " if spaced_items > compact_items else ",",
        ": " if spaced_keys > compact_keys else ":",
        ensure_ascii,
        *_indentation(text),
    )


def _written_compact(text: str) -> bool:
    """Whether ``text`` is, byte for byte, orjson's compact writing of what it holds.

    Such a text has no separator followed by a space, no newline and no escaped
    non-ASCII character (orjson writes them raw), so the counts below would call
    it :data:`COMPACT`; comparing the two is a fraction of their cost.
    """
    try:
        return orjson.dumps(orjson.loads(text)).decode() == text
    except (orjson.JSONDecodeError, TypeError):  # what orjson refuses is looked at the long way
        return False


def _indentation(text: str) -> tuple[str | None, str]:
    """One level of indentation and the newline of a multi-line JSON text."""
    if "\n" not in text:
        return None, "\n"
    newline = "\r\n" if "\r\n" in text else "\n"
    lines = [line for line in text.split("\n")[1:] if line.strip()]
    depths = [len(line) - len(line.lstrip(" \t")) for line in lines]
    steps = [b - a for a, b in itertools.pairwise(depths) if b > a]
    char = "\t" if any(line.startswith("\t") for line in lines) else " "
    return char * (min(steps) if steps else 2), newline


def line_indent(text: str, pos: int) -> str:
    """The leading whitespace of the line that holds ``pos``."""
    start = text.rfind("\n", 0, pos) + 1
    end = start
    while end < len(text) and text[end] in " \t":
        end += 1
    return text[start:end]


# A string json.dumps writes as itself between quotes: no quote, backslash or control character.
_PLAIN_STRING = re.compile(r'[^"\\\x00-\x1f]*\Z').match
_SHORT_INT = 10**18


def display(value: Any) -> str:
    """JSON text of a value for messages and evidence, safe for any value.

    An integer too long for Python to write out (over 4,300 digits) is shown
    by its size instead of failing.
    """
    kind = type(value)
    if kind is str and _PLAIN_STRING(value) is not None:  # nothing to escape (tool names, ids)
        return f'"{value}"'
    if kind is int and -_SHORT_INT < value < _SHORT_INT:
        return str(value)
    try:
        return json.dumps(value, ensure_ascii=False)
    except TypeError:  # not a JSON value (an OTLP bytesValue): say what Python has
        return repr(value)
    except ValueError:
        if isinstance(value, int):
            return f"<an integer of {len(str(abs(value) // 10**4000)) + 4000} digits>"
        return "<a value too large to show>"


def reportable_id(value: Any) -> str | int | None:
    """A request id as findings report it: strings and integers; a huge integer as its display text."""
    if isinstance(value, bool) or not isinstance(value, (str, int)):
        return None
    if isinstance(value, int) and value.bit_length() > 14_000:  # over ~4,200 digits
        return display(value)
    return value


def json_type(value: Any) -> str:
    """The JSON type of a decoded value, as JSON Schema names it.

    Whole numbers are ``integer`` (``2.0`` too, as JSON Schema counts it);
    other numbers are ``number``.
    """
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "integer" if value.is_integer() else "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, (list, tuple)):
        return "array"
    return "object"


def a_json_type(name: str) -> str:
    """A JSON type's name with its article, for sentences: ``an object``, ``a string``, ``null``."""
    if name == "null":
        return "null"
    return ("an " if name[:1] in "aeiou" else "a ") + name


def short_display(value: Any, limit: int = 80) -> str:
    """:func:`display`, cut to about ``limit`` characters (an ellipsis marks the cut)."""
    text = display(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"
