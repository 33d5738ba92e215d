"""Invalid arguments derived from a tool's ``inputSchema``: one violation per case.

The generator is ours, on top of python-jsonschema, in two steps (as
Schemathesis does for HTTP APIs): first a *valid* base object is built from
the schema (required properties only, each the simplest value the schema
allows), then each mutation breaks one keyword of one property. Every mutated
object is validated with the real validator for the schema's dialect, and a
case the schema accepts is dropped: the probe never sends a call a conforming
server should run.

Everything is deterministic: properties in schema order, keywords in a fixed
order, no randomness, so two probes of the same server send the same calls.
"""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from jsonschema import Draft7Validator, Draft202012Validator, FormatChecker
from jsonschema.protocols import Validator
from jsonschema.validators import validator_for

from migrator.judge.validation import DRAFT_2020_12, default_dialect

try:  # Python 3.11+
    from re import _parser as sre_parse  # type: ignore[attr-defined]
except ImportError:  # pragma: no cover - Python 3.10
    import sre_parse

EXTRA_PROPERTY = "probe_unexpected_property"
UNKNOWN_TOOL_NAME = "probe_no_such_tool"
NESTING = 2  # top-level properties and one level below


class _Missing:
    """Marks a property absent before or after a mutation."""

    def __repr__(self) -> str:
        return "MISSING"

    def __copy__(self) -> _Missing:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> _Missing:
        return self


MISSING: Any = _Missing()


@dataclass(frozen=True)
class Case:
    """One call the probe makes: what it breaks and the arguments it sends."""

    tool: str
    keyword: str  # the JSON Schema keyword violated ("required", "type", "unknown-tool", ...)
    pointer: str  # JSON pointer into the arguments ("" for the object itself)
    before: Any  # the value in the valid base (MISSING when the mutation adds it)
    after: Any  # the value sent (MISSING when the mutation removes it)
    arguments: dict[str, Any]
    detail: str = ""  # the keyword's value, e.g. the pattern

    @property
    def argument(self) -> str:
        """The name of the argument the case is about (the last name in the pointer)."""
        names = [part for part in self.pointer.split("/")[1:] if not part.isdigit()]
        return names[-1].replace("~1", "/").replace("~0", "~") if names else ""

    @property
    def is_format(self) -> bool:
        """Whether only a ``format`` is broken (an annotation unless the schema asserts it)."""
        return self.keyword == "format"

    @property
    def is_unknown_tool(self) -> bool:
        """The call to a tool the server did not list."""
        return self.keyword == "unknown-tool"

    def meta(self) -> dict[str, Any]:
        """What the request's ``_meta`` says about the case (MCP501 and MCP502 judge marked calls)."""
        return {"keyword": self.keyword, "pointer": self.pointer, "case": self.describe()}

    def describe(self) -> str:
        """``departureDate: pattern violated (\\d{2}/\\d{4}, sent "tomorrow")``."""
        if self.is_unknown_tool:
            return f"call to {self.tool!r}, a tool the server did not list"
        where = f"`{self.pointer.lstrip('/') or '(arguments)'}`"
        if self.keyword == "required":
            return f"{where}: required property left out"
        if self.keyword == "additionalProperties":
            return f"{where}: property the schema forbids (additionalProperties: false), sent {_short(self.after)}"
        detail = f"{self.detail}, " if self.detail else ""
        return f"{where}: `{self.keyword}` violated ({detail}sent {_short(self.after)})"


def _short(value: Any, limit: int = 60) -> str:
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def validator_class(schema: Any, version: str | None) -> type[Validator]:
    """The validator for the schema's ``$schema``, or the version's default dialect."""
    default = Draft202012Validator if default_dialect(version) == DRAFT_2020_12 else Draft7Validator
    cls: type[Validator] = validator_for(schema, default=default)
    return cls


def tool_cases(
    name: str,
    schema: Any,
    version: str | None,
    *,
    formats: bool = False,
) -> list[Case]:
    """The invalid-argument cases for one tool, in a stable order, each checked invalid.

    Args:
        name: the tool's name.
        schema: its ``inputSchema``.
        version: the negotiated protocol version (decides the default dialect).
        formats: also break ``format`` (checked with a format checker).
    """
    if not isinstance(schema, dict):
        return []
    cls = validator_class(schema, version)
    try:
        cls.check_schema(schema)
    except Exception:  # an invalid schema is MCP205's business; nothing to derive
        return []
    plain = cls(schema)
    asserting = cls(schema, format_checker=FormatChecker())
    base = example(schema)
    if not isinstance(base, dict):
        base = {}
    cases: list[Case] = []
    seen: set[str] = set()
    for mutation in _mutations(schema, base, "", NESTING):
        arguments = copy.deepcopy(base)
        for where, value in mutation.setup:
            _put(arguments, where, copy.deepcopy(value))
        _put(arguments, mutation.pointer, copy.deepcopy(mutation.after))
        keyword = mutation.keyword
        if not isinstance(arguments, dict):
            continue  # arguments that are not an object make a malformed request, not a case
        key = json.dumps(arguments, sort_keys=True)
        if key in seen:
            continue
        judge = asserting if keyword == "format" else plain
        try:
            if judge.is_valid(arguments):
                continue  # the schema accepts it: a conforming server would run it
        except Exception:  # an unresolvable $ref, say: no verdict, no case
            continue
        if keyword == "format" and (not formats or not plain.is_valid(arguments)):
            continue  # a format case breaks format and nothing else
        seen.add(key)
        cases.append(
            Case(
                name,
                keyword,
                mutation.pointer,
                mutation.before,
                mutation.after,
                arguments,
                mutation.detail,
            )
        )
    return cases


def unknown_tool_case(known: set[str]) -> Case:
    """A call to a tool name the server did not list."""
    name = UNKNOWN_TOOL_NAME
    while name in known:
        name += "_"
    return Case(name, "unknown-tool", "", MISSING, MISSING, {})


# ---------------------------------------------------------------------------------------------
# A valid value for a schema


def example(schema: Any, depth: int = 6) -> Any:
    """The simplest value ``schema`` allows, as far as we can tell (not guaranteed valid)."""
    if not isinstance(schema, dict) or depth <= 0:
        return {}
    for key in ("const",):
        if key in schema:
            return copy.deepcopy(schema[key])
    if isinstance(schema.get("enum"), list) and schema["enum"]:
        return copy.deepcopy(schema["enum"][0])
    if "default" in schema:
        return copy.deepcopy(schema["default"])
    if isinstance(schema.get("examples"), list) and schema["examples"]:
        return copy.deepcopy(schema["examples"][0])
    for combinator in ("anyOf", "oneOf"):
        options = schema.get(combinator)
        if isinstance(options, list) and options:
            return example(options[0], depth - 1)
    if isinstance(schema.get("allOf"), list) and schema["allOf"]:
        merged: dict[str, Any] = {}
        for part in schema["allOf"]:
            value = example(part, depth - 1)
            if isinstance(value, dict):
                merged.update(value)
        return merged
    kind = _first_type(schema)
    if kind == "object":
        properties, required = _properties(schema), _required(schema)
        return {
            name: example(properties.get(name, {}), depth - 1)
            for name in required
            if isinstance(name, str)
        }
    if kind == "array":
        count = schema.get("minItems", 0) if isinstance(schema.get("minItems"), int) else 0
        items = schema.get("items") if isinstance(schema.get("items"), dict) else {}
        return [example(items, depth - 1) for _ in range(count)]
    if kind in ("integer", "number"):
        return _number_example(schema, kind)
    if kind == "boolean":
        return False
    if kind == "null":
        return None
    if kind == "string":
        return _string_example(schema)
    return {}


def _first_type(schema: dict[str, Any]) -> str | None:
    kind = schema.get("type")
    if isinstance(kind, list):
        kind = next((k for k in kind if k != "null"), kind[0] if kind else None)
    if isinstance(kind, str):
        return kind
    if "properties" in schema or "required" in schema:
        return "object"
    if "items" in schema:
        return "array"
    if any(k in schema for k in ("pattern", "minLength", "maxLength", "format")):
        return "string"
    if any(k in schema for k in ("minimum", "maximum", "multipleOf")):
        return "number"
    return None


def _number_example(schema: dict[str, Any], kind: str) -> int | float:
    value: int | float = 0
    low = schema.get("minimum")
    if isinstance(schema.get("exclusiveMinimum"), (int, float)) and not isinstance(
        schema.get("exclusiveMinimum"), bool
    ):
        low = schema["exclusiveMinimum"] + 1
    high = schema.get("maximum")
    if isinstance(schema.get("exclusiveMaximum"), (int, float)) and not isinstance(
        schema.get("exclusiveMaximum"), bool
    ):
        high = schema["exclusiveMaximum"] - 1
    if isinstance(low, (int, float)) and value < low:
        value = low
    if isinstance(high, (int, float)) and value > high:
        value = high
    step = schema.get("multipleOf")
    if isinstance(step, (int, float)) and step > 0 and value % step:
        value = (int(value // step) + 1) * step
    if kind == "integer" and isinstance(value, float):
        value = int(value) + (1 if value != int(value) else 0)
    return value


def _string_example(schema: dict[str, Any]) -> str:
    pattern = schema.get("pattern")
    text = ""
    if isinstance(pattern, str):
        text = pattern_example(pattern) or ""
    low = schema.get("minLength")
    if isinstance(low, int) and len(text) < low:
        text += "a" * (low - len(text))
    fmt = schema.get("format")
    if not text and isinstance(fmt, str):
        text = _FORMAT_EXAMPLES.get(fmt, "")
    return text


_FORMAT_EXAMPLES = {
    "date": "2025-11-25",
    "date-time": "2025-11-25T12:00:00Z",
    "time": "12:00:00Z",
    "email": "someone@example.com",
    "uri": "https://example.com/",
    "uri-reference": "https://example.com/",
    "uuid": "00000000-0000-4000-8000-000000000000",
    "ipv4": "127.0.0.1",
    "ipv6": "::1",
    "hostname": "example.com",
}


def pattern_example(pattern: str) -> str | None:
    """A short string matching a regular expression, built from its parse tree; ``None`` if we cannot."""
    try:
        tree = sre_parse.parse(pattern)
        text = _render(tree)
    except Exception:
        return None
    return text if re.search(pattern, text) else None


def _render(tree: Any) -> str:
    out: list[str] = []
    for op, arg in tree:
        name = getattr(op, "name", str(op))
        if name == "LITERAL":
            out.append(chr(arg))
        elif name == "ANY":
            out.append("a")
        elif name == "IN":
            out.append(_render_class(arg))
        elif name in ("MAX_REPEAT", "MIN_REPEAT", "POSSESSIVE_REPEAT"):
            low, _high, sub = arg
            out.append(_render(sub) * low)
        elif name == "SUBPATTERN":
            out.append(_render(arg[-1]))
        elif name == "BRANCH":
            out.append(_render(arg[1][0]))
        elif name in ("AT", "ASSERT", "ASSERT_NOT"):
            continue
        elif name == "NOT_LITERAL":
            out.append("a" if arg != ord("a") else "b")
        else:
            raise ValueError(name)
    return "".join(out)


def _render_class(items: Any) -> str:
    for op, arg in items:
        name = getattr(op, "name", str(op))
        if name == "LITERAL":
            return chr(arg)
        if name == "RANGE":
            return chr(arg[0])
        if name == "CATEGORY":
            return {"CATEGORY_DIGIT": "0", "CATEGORY_SPACE": " "}.get(
                getattr(arg, "name", str(arg)), "a"
            )
        if name == "NEGATE":
            return "~"
    raise ValueError("empty class")


# ---------------------------------------------------------------------------------------------
# Mutations

Setup = tuple[tuple[str, Any], ...]  # values put in place first (a valid nested object), by pointer


@dataclass(frozen=True)
class Mutation:
    """One keyword broken at one pointer."""

    keyword: str
    pointer: str
    before: Any
    after: Any
    detail: str = ""
    setup: Setup = ()


def _mutations(
    schema: dict[str, Any], base: Any, pointer: str, depth: int, setup: Setup = ()
) -> Iterator[Mutation]:
    """Each way to break one keyword of the object ``schema`` at ``pointer``, from ``base``."""
    if depth <= 0 or not isinstance(schema, dict):
        return
    properties, required = _properties(schema), _required(schema)
    for name in required:
        if isinstance(name, str):
            before = base.get(name, MISSING) if isinstance(base, dict) else MISSING
            yield Mutation("required", f"{pointer}/{_escape(name)}", before, MISSING, "", setup)
    if schema.get("additionalProperties") is False or schema.get("unevaluatedProperties") is False:
        extra = EXTRA_PROPERTY
        while extra in properties:
            extra += "_"
        yield Mutation(
            "additionalProperties", f"{pointer}/{extra}", MISSING, "unexpected", "", setup
        )
    for name, sub in properties.items():
        if not isinstance(sub, dict):
            continue
        here = f"{pointer}/{_escape(name)}"
        current = base.get(name, MISSING) if isinstance(base, dict) else MISSING
        value = example(sub) if current is MISSING else current
        for mutation in _value_mutations(sub, value, here):
            yield Mutation(
                mutation.keyword,
                mutation.pointer,
                mutation.before,
                mutation.after,
                mutation.detail,
                setup,
            )
        if depth > 1 and _first_type(sub) == "object":
            yield from _mutations(sub, value, here, depth - 1, (*setup, (here, value)))
        items = sub.get("items")
        if depth > 1 and _first_type(sub) == "array" and isinstance(items, dict):
            listed = value if isinstance(value, list) and value else [example(items)]
            inner = (*setup, (here, listed))
            for mutation in _value_mutations(items, listed[0], f"{here}/0"):
                yield Mutation(
                    mutation.keyword,
                    mutation.pointer,
                    mutation.before,
                    mutation.after,
                    mutation.detail,
                    inner,
                )
            if _first_type(items) == "object":
                yield from _mutations(items, listed[0], f"{here}/0", depth - 1, inner)


_WRONG_TYPE: dict[str, Any] = {
    "string": 12345,
    "number": "not a number",
    "integer": "not an integer",
    "boolean": "true",
    "array": "not an array",
    "object": "not an object",
    "null": 0,
}


def _value_mutations(schema: dict[str, Any], value: Any, pointer: str) -> Iterator[Mutation]:
    kinds = schema.get("type")
    allowed = (
        set(kinds) if isinstance(kinds, list) else {kinds} if isinstance(kinds, str) else set()
    )
    if allowed:
        for kind in ("string", "number", "integer", "boolean", "array", "object", "null"):
            if kind in allowed:
                wrong = _WRONG_TYPE[kind]
                yield Mutation("type", pointer, value, wrong, "/".join(sorted(allowed)))
                break
    if isinstance(schema.get("enum"), list) and schema["enum"]:
        yield Mutation("enum", pointer, value, _outside(schema["enum"]), _short(schema["enum"]))
    if "const" in schema:
        yield Mutation(
            "const", pointer, value, _outside([schema["const"]]), _short(schema["const"])
        )
    if isinstance(value, str) or "string" in allowed:
        pattern = schema.get("pattern")
        if isinstance(pattern, str):
            for candidate in ("tomorrow", "!", "", "0", "a" * 5):
                try:
                    if not re.search(pattern, candidate):
                        yield Mutation("pattern", pointer, value, candidate, pattern)
                        break
                except re.error:
                    break
        low = schema.get("minLength")
        if isinstance(low, int) and low > 0:
            yield Mutation(
                "minLength",
                pointer,
                value,
                (value if isinstance(value, str) else "a" * low)[: low - 1],
                str(low),
            )
        high = schema.get("maxLength")
        if isinstance(high, int):
            start = value if isinstance(value, str) and value else "a"
            yield Mutation("maxLength", pointer, value, (start * (high + 1))[: high + 1], str(high))
        fmt = schema.get("format")
        if isinstance(fmt, str):
            yield Mutation("format", pointer, value, f"not a {fmt}", fmt)
    number = isinstance(value, (int, float)) and not isinstance(value, bool)
    if number or allowed & {"number", "integer"}:
        for keyword, delta in (
            ("minimum", -1),
            ("exclusiveMinimum", 0),
            ("maximum", 1),
            ("exclusiveMaximum", 0),
        ):
            bound = schema.get(keyword)
            if isinstance(bound, (int, float)) and not isinstance(bound, bool):
                yield Mutation(keyword, pointer, value, bound + delta, str(bound))
        step = schema.get("multipleOf")
        if isinstance(step, (int, float)) and not isinstance(step, bool) and step > 0:
            wrong = step + 1 if isinstance(step, int) and step > 1 else step / 2
            yield Mutation("multipleOf", pointer, value, wrong, str(step))
    if isinstance(value, list) or "array" in allowed:
        current = value if isinstance(value, list) else []
        low = schema.get("minItems")
        if isinstance(low, int) and low > 0:
            yield Mutation("minItems", pointer, current, current[: low - 1], str(low))
        high = schema.get("maxItems")
        if isinstance(high, int):
            filler = current[0] if current else example(schema.get("items", {}))
            yield Mutation("maxItems", pointer, current, [filler] * (high + 1), str(high))


def _outside(values: list[Any]) -> Any:
    """A value of the same JSON type as the first of ``values`` that is none of them."""
    first = values[0]
    if isinstance(first, bool):
        return not first if (not first) not in values else "not one of them"
    if isinstance(first, (int, float)):
        return max(v for v in values if isinstance(v, (int, float)) and not isinstance(v, bool)) + 1
    if isinstance(first, str):
        candidate = "not-one-of-them"
        while candidate in values:
            candidate += "-"
        return candidate
    return "not one of them"


def _properties(schema: dict[str, Any]) -> dict[str, Any]:
    found = schema.get("properties")
    return found if isinstance(found, dict) else {}


def _required(schema: dict[str, Any]) -> list[Any]:
    found = schema.get("required")
    return found if isinstance(found, list) else []


def _escape(name: str) -> str:
    return name.replace("~", "~0").replace("/", "~1")


def _unescape(part: str) -> str:
    return part.replace("~1", "/").replace("~0", "~")


def _put(document: Any, pointer: str, value: Any) -> None:
    """Set (or, for MISSING, remove) the value at ``pointer`` inside ``document``."""
    parts = [_unescape(p) for p in pointer.split("/")[1:]]
    if not parts:
        return
    target = document
    for part in parts[:-1]:
        target = target[int(part)] if isinstance(target, list) else target.setdefault(part, {})
    last = parts[-1]
    if isinstance(target, list):
        target[int(last)] = value
    elif value is MISSING:
        target.pop(last, None)
    else:
        target[last] = value
