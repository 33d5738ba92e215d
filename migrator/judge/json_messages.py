"""JSON Schema problems worded in JSON's terms.

python-jsonschema words its messages with Python's ``repr``: ``None is not of
type 'string'``, ``'abc-12' does not match '^[A-Z]{3}-\\\\d{4}$'`` (the backslash
doubled), ``True is not one of ['a', 'b']``. A finding, and above all the text a
model reads, talks about JSON: ``null``, ``"abc-12"``, ``true``, ``an object``.

:func:`json_message` words a :class:`~jsonschema.exceptions.ValidationError`
from its fields (the keyword, the keyword's value in the schema, the instance),
never by patching the Python text. :func:`read_python_jsonschema` goes the
other way for servers that send python-jsonschema's text in their errors (the
Python SDK's low-level server does: ``Input validation error: 'three' is not of
type 'integer'``): it reads the text back into the same parts and words them
the same way.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from jsonschema.exceptions import ValidationError

from migrator.model.jsontext import a_json_type, display, short_display

_NO_VALUE: Any = object()  # the text did not quote the value


def _or_join(words: Sequence[str]) -> str:
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + " or " + words[-1]


def _plural(count: Any, word: str, plural: str = "") -> str:
    return f"{display(count)} " + (word if count == 1 else plural or word + "s")


def _names(names: Sequence[Any]) -> str:
    return ", ".join(display(name) for name in names)


def describe(
    keyword: str | None, instance: Any, value: Any = _NO_VALUE, names: Sequence[Any] = ()
) -> str | None:
    """One sentence for one problem: ``instance`` fails ``keyword`` whose schema value is ``value``.

    ``names`` are the property names a ``required`` or ``additionalProperties``
    problem is about. ``instance`` may be ``_NO_VALUE`` where a text did not quote it.
    ``None`` for a keyword without a sentence of its own.
    """
    shown = "the value" if instance is _NO_VALUE else short_display(instance)
    known = value is not _NO_VALUE
    if keyword == "type":
        wanted = value if isinstance(value, list) else [value]
        return f"{shown} is not {_or_join([a_json_type(str(t)) for t in wanted])}"
    if keyword == "required":
        if len(names) == 1:
            return f"{display(names[0])} is a required property"
        return f"{_names(names)} are required properties"
    if keyword in ("additionalProperties", "unevaluatedProperties"):
        kind = "additional" if keyword == "additionalProperties" else "unevaluated"
        if not names:
            return f"{shown} has {kind} properties, which are not allowed"
        if len(names) == 1:
            return f"{kind} property {display(names[0])} is not allowed"
        return f"{kind} properties {_names(names)} are not allowed"
    if keyword == "pattern" and known:
        return f"{shown} does not match the pattern {value}"
    bounds = {
        "minimum": "is less than the minimum of",
        "maximum": "is greater than the maximum of",
        "exclusiveMinimum": "is less than or equal to the exclusive minimum of",
        "exclusiveMaximum": "is greater than or equal to the exclusive maximum of",
        "multipleOf": "is not a multiple of",
    }
    if keyword in bounds and known:
        return f"{shown} {bounds[keyword]} {display(value)}"
    if keyword == "minLength" and known:
        return f"{shown} is shorter than {_plural(value, 'character')}"
    if keyword == "maxLength" and known:
        return f"{shown} is longer than {_plural(value, 'character')}"
    if keyword == "minItems" and known:
        return f"{shown} has fewer than {_plural(value, 'item')}"
    if keyword == "maxItems" and known:
        return f"{shown} has more than {_plural(value, 'item')}"
    if keyword == "minProperties" and known:
        return f"{shown} has fewer than {_plural(value, 'property', 'properties')}"
    if keyword == "maxProperties" and known:
        return f"{shown} has more than {_plural(value, 'property', 'properties')}"
    if keyword == "enum" and known:
        return f"{shown} is not one of {short_display(value, 120)}"
    if keyword == "const" and known:
        return f"{shown} is not the allowed value {display(value)}"
    if keyword == "format" and known:
        return f"{shown} is not a valid {value}"
    if keyword == "uniqueItems":
        return f"{shown} has repeated items"
    if keyword == "contains":
        return f"{shown} has no item that matches the contains schema"
    if keyword == "anyOf":
        return f"{shown} matches none of the anyOf schemas"
    if keyword == "not" and known:
        return f"{shown} must not match the schema {short_display(value)}"
    if keyword is None:  # the schema is false
        return f"{shown} is not allowed here (the schema is false)"
    return None


def json_message(error: ValidationError) -> str:
    """``error`` in one sentence in JSON's terms, without its location."""
    keyword = None if error.validator is None else str(error.validator)
    instance, value = error.instance, error.validator_value
    names: list[Any] = []
    if keyword == "required":
        names = [_required_name(error, instance, value)]
    elif keyword == "additionalProperties" and isinstance(instance, dict):
        names = _extra_properties(instance, error.schema)
    elif keyword == "oneOf":
        if "is valid under each of" in error.message:
            return f"{short_display(instance)} matches more than one of the oneOf schemas"
        return f"{short_display(instance)} matches none of the oneOf schemas"
    elif keyword == "dependentRequired" and isinstance(value, dict) and isinstance(instance, dict):
        for present, needed in value.items():
            missing = [n for n in needed if present in instance and n not in instance]
            if missing:
                return f"{_names(missing)} required when {display(present)} is present"
    sentence = describe(keyword, instance, value, names)
    if sentence is not None:
        return sentence
    return f"{short_display(instance)} fails the {keyword} keyword ({short_display(value)})"


def _required_name(error: ValidationError, instance: Any, value: Any) -> Any:
    # One error per missing property; the property is named only in the message,
    # which python-jsonschema writes as f"{property!r} is a required property".
    quoted = error.message.removesuffix(" is a required property")
    name = _literal(quoted)
    if name is not _NO_VALUE:
        return name
    missing = [n for n in value if n not in instance] if isinstance(instance, dict) else []
    return missing[0] if missing else quoted


def _extra_properties(instance: dict[str, Any], schema: Any) -> list[str]:
    schema = schema if isinstance(schema, dict) else {}
    properties = schema.get("properties")
    patterns = schema.get("patternProperties")
    declared = properties if isinstance(properties, dict) else {}
    regexes = list(patterns) if isinstance(patterns, dict) else []
    extras = []
    for key in instance:
        if key in declared:
            continue
        try:
            if any(re.search(pattern, key) for pattern in regexes):
                continue
        except re.error:
            pass
        extras.append(key)
    return extras


# --------------------------------------------------------------------------------------------
# python-jsonschema's text, read back

_MAX_LITERAL = 10_000  # longer quoted values are not read back (ast on huge input is slow)


def _literal(text: str) -> Any:
    """A Python literal as python-jsonschema's ``repr`` wrote it, or ``_NO_VALUE``."""
    if len(text) > _MAX_LITERAL:
        return _NO_VALUE
    try:
        return ast.literal_eval(text)
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return _NO_VALUE


@dataclass(frozen=True)
class PythonJsonschemaProblem:
    """A python-jsonschema sentence read back: the keyword, the value it quoted, in JSON words."""

    message: str  # the sentence in JSON's terms
    keyword: str | None
    value: Any = _NO_VALUE  # the offending value, when the text quoted it
    wanted_types: tuple[str, ...] = ()  # for a type problem
    names: tuple[str, ...] = ()  # properties a required/additionalProperties problem names

    @property
    def quotes_value(self) -> bool:
        """Whether the text quoted the offending value."""
        return self.value is not _NO_VALUE


_REPR = r"(?P<value>.+?)"
_QUOTED = r"(?:'(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\")"
_PY_FORMS: list[tuple[re.Pattern[str], str | None]] = [
    (re.compile(rf"^{_REPR} is not of type (?P<types>{_QUOTED}(?:, {_QUOTED})*)$"), "type"),
    (re.compile(rf"^(?P<name>{_QUOTED}) is a required property$"), "required"),
    (re.compile(rf"^{_REPR} does not match (?P<limit>{_QUOTED})$"), "pattern"),
    (re.compile(rf"^{_REPR} is less than the minimum of (?P<limit>\S+)$"), "minimum"),
    (re.compile(rf"^{_REPR} is greater than the maximum of (?P<limit>\S+)$"), "maximum"),
    (
        re.compile(rf"^{_REPR} is less than or equal to the minimum of (?P<limit>\S+)$"),
        "exclusiveMinimum",
    ),
    (
        re.compile(rf"^{_REPR} is greater than or equal to the maximum of (?P<limit>\S+)$"),
        "exclusiveMaximum",
    ),
    (re.compile(rf"^{_REPR} is not a multiple of (?P<limit>\S+)$"), "multipleOf"),
    (re.compile(rf"^{_REPR} is not one of (?P<limit>\[.*\])$"), "enum"),
    (re.compile(rf"^{_REPR} was expected$"), "const"),
    (re.compile(rf"^{_REPR} is not a (?P<limit>{_QUOTED})$"), "format"),
    (re.compile(rf"^{_REPR} has non-unique elements$"), "uniqueItems"),
    (re.compile(rf"^{_REPR} is not valid under any of the given schemas$"), "anyOf"),
    (
        re.compile(
            r"^Additional properties are not allowed \((?P<names>.+) (?:was|were) unexpected\)$"
        ),
        "additionalProperties",
    ),
    (re.compile(rf"^False schema does not allow {_REPR}$"), None),
]
_PY_SIZES: list[tuple[re.Pattern[str], str]] = [
    (re.compile(rf"^{_REPR} is too short$"), "is too short"),
    (re.compile(rf"^{_REPR} is too long$"), "is too long"),
    (re.compile(rf"^{_REPR} should be non-empty$"), "must not be empty"),
    (re.compile(rf"^{_REPR} is expected to be empty$"), "must be empty"),
]


def read_python_jsonschema(text: str) -> PythonJsonschemaProblem | None:
    """Read one of python-jsonschema's messages back, or ``None`` when ``text`` is not one.

    A message is taken only when its quoted parts read back as Python literals,
    so ordinary prose that happens to end in "is too long" is not.
    """
    for pattern, keyword in _PY_FORMS:
        match = pattern.match(text)
        if match is None:
            continue
        parts = match.groupdict()
        value = _literal(parts["value"]) if parts.get("value") is not None else _NO_VALUE
        if parts.get("value") is not None and value is _NO_VALUE:
            return None
        if keyword == "type":
            types = _literal(f"[{parts['types']}]")
            if not isinstance(types, list):
                return None
            wanted = tuple(str(t) for t in types)
            sentence = describe("type", value, list(wanted))
            return PythonJsonschemaProblem(str(sentence), keyword, value, wanted_types=wanted)
        if keyword in ("required", "additionalProperties"):
            raw = parts.get("name") or parts.get("names") or ""
            names = _literal(f"[{raw}]")
            if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
                return None
            sentence = describe(keyword, _NO_VALUE, _NO_VALUE, names)
            return PythonJsonschemaProblem(str(sentence), keyword, names=tuple(names))
        limit: Any = _NO_VALUE
        if parts.get("limit") is not None:
            limit = _literal(parts["limit"])
            if limit is _NO_VALUE:
                return None
        if keyword == "const":
            limit, value = value, _NO_VALUE  # the text quotes the expected value, not the sent one
            return PythonJsonschemaProblem(f"{display(limit)} was expected", keyword)
        sentence = describe(keyword, value, limit)
        if sentence is None:
            return None
        return PythonJsonschemaProblem(sentence, keyword, value)
    for pattern, phrase in _PY_SIZES:
        match = pattern.match(text)
        if match is None:
            continue
        value = _literal(match.group("value"))
        if value is _NO_VALUE:
            return None
        return PythonJsonschemaProblem(f"{short_display(value)} {phrase}", "length", value)
    return None


__all__ = ["PythonJsonschemaProblem", "describe", "json_message", "read_python_jsonschema"]
