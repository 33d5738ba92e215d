"""JavaScript values as Node's ``util.inspect`` prints them (what ``console.log`` writes for an object).

supergateway logs the server's SSE answers with ``console.log('Child → SSE:', message)``:
not JSON but the JavaScript literal Node prints for the object::

    {
      jsonrpc: '2.0',
      id: 11,
      error: {
        code: -32602,
        message: 'MCP error -32602: Invalid arguments for tool add: [\\n' +
          '  {\\n' +
          ']'
      }
    }

Keys are bare where they are identifiers and quoted otherwise; strings are in single
quotes (double quotes or backticks when the text holds a single quote), long ones split
into pieces joined with ``+``; ``undefined``, ``NaN`` and ``123n`` exist. At the default
depth (2) an object or array nested deeper is printed as ``[Object]`` or ``[Array]``,
and past 100 items an array ends with ``... 5 more items``. :func:`parse` reads such a
literal into Python values; what Node left out becomes a :class:`Cut`, which says what
it stood for, so a reader can tell what the log does not show.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any


class JsLiteralError(ValueError):
    """The text is not a value ``util.inspect`` prints; ``pos`` is where reading stopped."""

    def __init__(self, message: str, pos: int) -> None:
        super().__init__(message)
        self.pos = pos


@dataclass(frozen=True)
class Cut:
    """A part of the value that Node did not print: ``[Object]``, ``[Array]``, ``... 5 more items``."""

    printed: str

    def __str__(self) -> str:
        return self.printed


UNDEFINED = Cut("undefined")  # a member Node printed as undefined: it is not in the JSON message

_SPACE = re.compile(r"\s*")
_IDENTIFIER = re.compile(r"[A-Za-z_$][\w$]*")
_NUMBER = re.compile(r"-?(?:\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|Infinity)n?|NaN")
_BRACKETED = re.compile(r"\[(?:Object|Array|Circular \*\d+|[A-Za-z_$][\w$]*(?:: [^\]\n]*)?)\]")
_MORE = re.compile(r"\.\.\. (\d+) more items?")
_MORE_CHARACTERS = re.compile(r"\.\.\. (\d+) more characters?")
_REF = re.compile(r"<ref \*\d+> ")
_EMPTY_ITEMS = re.compile(r"<(\d+) empty items?>")
_PREFIX = re.compile(r"(?:\[Object: null prototype\] |[A-Z][\w$]* )(?=[{\[])")
_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "b": "\b", "f": "\f", "v": "\v", "0": "\0"}
_KEYWORDS = {"null": None, "true": True, "false": False, "undefined": UNDEFINED}
MAX_DEPTH = 200


def parse(text: str, start: int = 0) -> tuple[Any, int]:
    """Read one value from ``text[start:]``; return it and the index just after it.

    Raises:
        JsLiteralError: the text does not hold such a value (or it ends inside one).
    """
    return _Parser(text).value(_skip(text, start), 0)


def cuts(value: Any, path: str = "") -> list[str]:
    """Where ``value`` holds what Node did not print, as JSON-pointer-like paths with what was there."""
    found: list[str] = []
    if isinstance(value, Cut) and value is not UNDEFINED:
        found.append(f"{path or '/'} ({value.printed})")
    elif isinstance(value, dict):
        for key, item in value.items():
            found += cuts(item, f"{path}/{key}")
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found += cuts(item, f"{path}/{index}")
    return found


def to_json(value: Any) -> Any:
    """The value as JSON values: members printed as ``undefined`` left out (as ``JSON.stringify``
    does), and what Node did not print as the text it printed instead (``"[Object]"``)."""
    if isinstance(value, dict):
        return {k: to_json(v) for k, v in value.items() if v is not UNDEFINED}
    if isinstance(value, list):
        return [None if v is UNDEFINED else to_json(v) for v in value]
    if isinstance(value, Cut):
        return value.printed
    return value


def _skip(text: str, pos: int) -> int:
    match = _SPACE.match(text, pos)
    return match.end() if match else pos


class _Parser:
    def __init__(self, text: str) -> None:
        self.text = text

    def fail(self, message: str, pos: int) -> JsLiteralError:
        if pos >= len(self.text):
            return JsLiteralError("the literal ends before it is complete", pos)
        return JsLiteralError(message, pos)

    def value(self, pos: int, depth: int) -> tuple[Any, int]:
        if depth > MAX_DEPTH:
            raise JsLiteralError("nested too deeply to read", pos)
        text = self.text
        if ref := _REF.match(text, pos):
            pos = ref.end()
        if prefix := _PREFIX.match(text, pos):
            pos = prefix.end()
        if pos >= len(text):
            raise self.fail("", pos)
        char = text[pos]
        if char == "{":
            return self.object(pos + 1, depth + 1)
        if char == "[":
            if bracketed := _BRACKETED.match(text, pos):
                return Cut(bracketed.group()), bracketed.end()
            return self.array(pos + 1, depth + 1)
        if char in "'\"`":
            return self.string(pos)
        if number := _NUMBER.match(text, pos):
            return _number(number.group()), number.end()
        if (word := _IDENTIFIER.match(text, pos)) and word.group() in _KEYWORDS:
            return _KEYWORDS[word.group()], word.end()
        raise self.fail(f"unexpected {char!r}", pos)

    def object(self, pos: int, depth: int) -> tuple[dict[str, Any], int]:
        text = self.text
        out: dict[str, Any] = {}
        pos = _skip(text, pos)
        while True:
            if text.startswith("}", pos):
                return out, pos + 1
            if more := _MORE.match(text, pos):  # an object with more keys than Node prints
                out[f"... {more.group(1)} more"] = Cut(more.group())
                pos = more.end()
            else:
                if text.startswith(("'", '"', "`"), pos):
                    key, pos = self.string(pos)
                elif word := _IDENTIFIER.match(text, pos):
                    key, pos = word.group(), word.end()
                elif number := re.compile(r"\d+").match(text, pos):
                    key, pos = number.group(), number.end()
                else:
                    raise self.fail("expected a key", pos)
                pos = _skip(text, pos)
                if not text.startswith(":", pos):
                    raise self.fail("expected ':' after a key", pos)
                value, pos = self.value(_skip(text, pos + 1), depth)
                out[key] = value
            pos = _skip(text, pos)
            if text.startswith(",", pos):
                pos = _skip(text, pos + 1)
            elif not text.startswith("}", pos):
                raise self.fail("expected ',' or '}'", pos)

    def array(self, pos: int, depth: int) -> tuple[list[Any], int]:
        text = self.text
        out: list[Any] = []
        pos = _skip(text, pos)
        while True:
            if text.startswith("]", pos):
                return out, pos + 1
            if more := _MORE.match(text, pos):
                out.append(Cut(more.group()))
                pos = more.end()
            elif empty := _EMPTY_ITEMS.match(text, pos):
                out.extend([None] * int(empty.group(1)))
                pos = empty.end()
            else:
                value, pos = self.value(pos, depth)
                out.append(value)
            pos = _skip(text, pos)
            if text.startswith(",", pos):
                pos = _skip(text, pos + 1)
            elif not text.startswith("]", pos):
                raise self.fail("expected ',' or ']'", pos)

    def string(self, pos: int) -> tuple[Any, int]:
        """A string, with the pieces Node joins with ``+`` for long or multi-line text."""
        pieces: list[str] = []
        while True:
            piece, pos = self.piece(pos)
            pieces.append(piece)
            after = _skip(self.text, pos)
            if more := _MORE_CHARACTERS.match(self.text, pos):  # cut at maxStringLength
                return Cut(f"'{''.join(pieces)}'{more.group()}"), more.end()
            if self.text.startswith("+", after):
                pos = _skip(self.text, after + 1)
                if pos < len(self.text) and self.text[pos] in "'\"`":
                    continue
                raise self.fail("expected a string after '+'", pos)
            return "".join(pieces), pos

    def piece(self, pos: int) -> tuple[str, int]:
        text = self.text
        quote = text[pos]
        out: list[str] = []
        i = pos + 1
        while i < len(text):
            char = text[i]
            if char == quote:
                return "".join(out), i + 1
            if char == "\\":
                i += 1
                if i >= len(text):
                    break
                code = text[i]
                if code == "x" and re.fullmatch(r"[0-9a-fA-F]{2}", text[i + 1 : i + 3]):
                    out.append(chr(int(text[i + 1 : i + 3], 16)))
                    i += 3
                    continue
                if code == "u":
                    braced = re.compile(r"\{([0-9a-fA-F]{1,6})\}").match(text, i + 1)
                    if braced and int(braced.group(1), 16) <= 0x10FFFF:
                        out.append(chr(int(braced.group(1), 16)))
                        i = braced.end()
                        continue
                    if re.fullmatch(r"[0-9a-fA-F]{4}", text[i + 1 : i + 5]):
                        out.append(chr(int(text[i + 1 : i + 5], 16)))
                        i += 5
                        continue
                    raise self.fail("a \\u escape without four hex digits", i)
                out.append(_ESCAPES.get(code, code))
                i += 1
                continue
            if char == "\n" and quote != "`":
                raise self.fail("a line break inside a quoted string", i)
            out.append(char)
            i += 1
        raise self.fail("", len(text))


def _number(text: str) -> Any:
    if text.endswith("n"):
        return int(text[:-1])  # a BigInt: JSON has only numbers
    if text in ("NaN", "Infinity", "-Infinity"):
        return Cut(text)  # not a JSON value: what the log shows is all there is
    if re.fullmatch(r"-?\d+", text):
        return int(text)
    return float(text)
