"""The case generator: every case is invalid by its schema, one violation each, in a stable order."""

from __future__ import annotations

import re
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from jsonschema import Draft7Validator, Draft202012Validator, FormatChecker

from migrator.live.probe.cases import MISSING, pattern_example, tool_cases, unknown_tool_case

SETTINGS = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])

BOOKING = {
    "$schema": "http://json-schema.org/draft-07/schema#",
    "type": "object",
    "properties": {
        "departureDate": {"type": "string", "pattern": r"^\d{2}/\d{2}/\d{4}$"},
        "passengers": {"type": "integer", "minimum": 1, "maximum": 9},
        "cabin": {"type": "string", "enum": ["economy", "business"]},
        "when": {"type": "string", "format": "date"},
        "seat": {
            "type": "object",
            "properties": {"row": {"type": "integer", "exclusiveMinimum": 0}},
            "required": ["row"],
            "additionalProperties": False,
        },
        "tags": {"type": "array", "items": {"type": "string", "minLength": 2}, "minItems": 1},
    },
    "required": ["departureDate", "passengers"],
    "additionalProperties": False,
}

# Sub-schemas the property test draws from: every keyword the generator breaks.
leaf_schemas = st.one_of(
    st.builds(
        lambda lo, span: {"type": "integer", "minimum": lo, "maximum": lo + span},
        st.integers(-5, 5),
        st.integers(0, 5),
    ),
    st.builds(lambda lo: {"type": "number", "exclusiveMinimum": lo}, st.integers(-3, 3)),
    st.builds(lambda step: {"type": "integer", "multipleOf": step}, st.integers(2, 5)),
    st.builds(
        lambda lo, span: {"type": "string", "minLength": lo, "maxLength": lo + span},
        st.integers(0, 3),
        st.integers(0, 3),
    ),
    st.sampled_from([r"^\d{3}$", r"^[a-z]+-\d+$", r"^(red|green)$", r"\w+@\w+\.com"]).map(
        lambda p: {"type": "string", "pattern": p}
    ),
    st.lists(st.text(min_size=1, max_size=4), min_size=1, max_size=3, unique=True).map(
        lambda e: {"type": "string", "enum": e}
    ),
    st.sampled_from([1, "x", True]).map(lambda c: {"const": c}),
    st.sampled_from(["boolean", "null", "string", "number"]).map(lambda t: {"type": t}),
    st.builds(
        lambda lo: {
            "type": "array",
            "items": {"type": "integer"},
            "minItems": lo,
            "maxItems": lo + 1,
        },
        st.integers(0, 2),
    ),
)
names = st.text(alphabet="abcdef_/~", min_size=1, max_size=5)


@st.composite
def object_schemas(draw: st.DrawFn, depth: int = 2) -> dict[str, Any]:
    properties: dict[str, Any] = {}
    for name in draw(st.lists(names, max_size=4, unique=True)):
        nested = depth > 1 and draw(st.booleans())
        properties[name] = draw(object_schemas(depth - 1)) if nested else draw(leaf_schemas)
    required = (
        draw(st.lists(st.sampled_from(sorted(properties)), unique=True)) if properties else []
    )
    schema: dict[str, Any] = {"type": "object", "properties": properties, "required": required}
    if draw(st.booleans()):
        schema["additionalProperties"] = False
    return schema


@SETTINGS
@given(object_schemas(), st.sampled_from(["2025-06-18", "2025-11-25"]), st.booleans())
def test_every_case_is_invalid_by_its_schema(
    schema: dict[str, Any], version: str, formats: bool
) -> None:
    validator = Draft202012Validator if version >= "2025-11-25" else Draft7Validator
    cases = tool_cases("t", schema, version, formats=formats)
    for case in cases:
        assert isinstance(case.arguments, dict)
        assert not validator(schema, format_checker=FormatChecker()).is_valid(case.arguments), case
        if not case.is_format:
            assert not validator(schema).is_valid(case.arguments), case
    assert cases == tool_cases("t", schema, version, formats=formats)  # deterministic
    assert len({repr(c.arguments) for c in cases}) == len(cases)  # no call sent twice


def test_one_violation_per_case_with_what_it_breaks() -> None:
    cases = tool_cases("book", BOOKING, "2025-06-18")
    validator = Draft7Validator(BOOKING)
    for case in cases:
        errors = list(validator.iter_errors(case.arguments))
        assert case.keyword in {e.validator for e in errors}, case.describe()
        # One value broken: a wrong type may break that value's enum too, nothing elsewhere.
        assert len(errors) == 1 or {e.validator for e in errors} == {"type", "enum"}, (
            case.describe()
        )
    described = {c.describe() for c in cases}
    assert (
        r'`departureDate`: `pattern` violated (^\d{2}/\d{2}/\d{4}$, sent "tomorrow")' in described
    )
    assert "`passengers`: required property left out" in described
    assert "`seat/row`: `exclusiveMinimum` violated (0, sent 0)" in described
    assert '`tags/0`: `minLength` violated (2, sent "a")' in described
    kinds = [(c.keyword, c.pointer) for c in cases]
    assert kinds[:3] == [
        ("required", "/departureDate"),
        ("required", "/passengers"),
        ("additionalProperties", "/probe_unexpected_property"),
    ]
    assert (
        ("enum", "/cabin") in kinds
        and ("required", "/seat/row") in kinds
        and ("minItems", "/tags") in kinds
    )
    assert not any(c.is_format for c in cases)  # format only with formats=True


def test_format_cases_only_when_asked_and_only_format_broken() -> None:
    cases = [c for c in tool_cases("book", BOOKING, "2025-06-18", formats=True) if c.is_format]
    assert [(c.pointer, c.after) for c in cases] == [("/when", "not a date")]
    assert Draft7Validator(BOOKING).is_valid(cases[0].arguments)  # valid but for the format


def test_before_and_after_values() -> None:
    cases = {(c.keyword, c.pointer): c for c in tool_cases("book", BOOKING, "2025-06-18")}
    missing = cases[("required", "/passengers")]
    assert (
        missing.before == 1 and missing.after is MISSING and "passengers" not in missing.arguments
    )
    bound = cases[("maximum", "/passengers")]
    assert (bound.before, bound.after, bound.argument) == (1, 10, "passengers")


def test_schemas_without_cases() -> None:
    assert tool_cases("t", {"type": "object"}, "2025-11-25") == []
    assert tool_cases("t", {"type": "object", "properties": {"x": {}}}, "2025-11-25") == []
    assert tool_cases("t", "not a schema", "2025-11-25") == []
    assert (
        tool_cases("t", {"type": "object", "minProperties": "x"}, "2025-11-25") == []
    )  # invalid schema


def test_pattern_examples_match() -> None:
    for pattern in (
        r"^\d{4}-\d{2}-\d{2}$",
        r"^[A-Z]{3}$",
        r"(ab|cd)+x?",
        r"^\S+@\S+$",
        r"[^0-9]{2}",
    ):
        example = pattern_example(pattern)
        assert example is not None and re.search(pattern, example)


def test_unknown_tool_name_avoids_listed_names() -> None:
    assert unknown_tool_case({"probe_no_such_tool"}).tool == "probe_no_such_tool_"
