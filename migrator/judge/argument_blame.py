"""Which argument a validation message means, when its words do not say.

serde says ``invalid type: integer `42`, expected a string`` and zod can say
``Expected string, received number`` with an empty path: the model learns what
was wrong but not where. The request's arguments and the tool's ``inputSchema``
usually tell: the one argument whose value has the type the message names (and
whose schema wants the other), or, for a missing value, the one required
argument that was not sent. When more than one argument fits, or none, the
answer is "could not tell", never a guess.
"""

from __future__ import annotations

from typing import Any

from migrator.judge.wording import Complaint


def json_type(value: Any) -> str:
    """The JSON type of a decoded value; whole numbers are ``integer``."""
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
    if isinstance(value, list):
        return "array"
    return "object"


def blamed_argument(complaint: Complaint, arguments: Any, input_schema: Any) -> str | None:
    """The name of the one argument ``complaint`` is about, or ``None`` if that cannot be decided."""
    if not isinstance(arguments, dict):
        arguments = {}
    schema = input_schema if isinstance(input_schema, dict) else {}
    declared = schema.get("properties")
    properties: dict[str, Any] = declared if isinstance(declared, dict) else {}
    if complaint.missing:
        listed = schema.get("required")
        required: list[Any] = listed if isinstance(listed, list) else []
        absent = [name for name in required if isinstance(name, str) and name not in arguments]
        if complaint.want is not None and properties:
            absent = _narrowed(
                absent, lambda name: _schema_allows(properties.get(name), complaint.want)
            )
        return absent[0] if len(absent) == 1 else None
    if complaint.got is None and not complaint.quotes_value:
        return None
    candidates = [name for name, value in arguments.items() if _has_type(value, complaint.got)]
    if complaint.quotes_value:
        candidates = _narrowed(candidates, lambda name: _same(arguments[name], complaint.value))
    if complaint.want is not None and properties:
        candidates = _narrowed(
            candidates, lambda name: _schema_allows(properties.get(name), complaint.want)
        )
    return candidates[0] if len(candidates) == 1 else None


def _narrowed(names: list[str], keep: Any) -> list[str]:
    """The names ``keep`` accepts; all of them if it accepts none (the hint was no help)."""
    kept = [name for name in names if keep(name)]
    return kept or names


def _has_type(value: Any, wanted: str | None) -> bool:
    if wanted is None:
        return True
    actual = json_type(value)
    return actual == wanted or (wanted == "number" and actual == "integer")


def _same(value: Any, quoted: Any) -> bool:
    return json_type(value) == json_type(quoted) and value == quoted


def _schema_allows(schema: Any, want: str) -> bool:
    if not isinstance(schema, dict):
        return False
    declared = schema.get("type")
    types = declared if isinstance(declared, list) else [declared]
    return (
        want in types
        or (want == "number" and "integer" in types)
        or (want == "integer" and "number" in types)
    )
