"""Findings and rewritten texts name JSON values and types as JSON does (issue 28, item 4).

python-jsonschema's own messages are the oracle for *what* is wrong; the words are
ours, built from the error's fields (``validator``, ``validator_value``, ``instance``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from migrator.judge.json_messages import json_message, read_python_jsonschema
from tests.conftest import run_cli


def only_error(schema: dict[str, Any], instance: Any) -> Any:
    errors = list(Draft202012Validator(schema).iter_errors(instance))
    assert len(errors) == 1, [e.message for e in errors]
    return errors[0]


@pytest.mark.parametrize(
    ("schema", "instance", "python_words", "json_words"),
    [
        ({"type": "string"}, None, "None is not of type 'string'", "null is not a string"),
        (
            {"type": ["string", "integer"]},
            None,
            "None is not of type 'string', 'integer'",
            "null is not a string or an integer",
        ),
        (
            {"type": "object"},
            [True, None],
            "[True, None] is not of type 'object'",
            "[true, null] is not an object",
        ),
        (
            {"type": "array"},
            {"a": False},
            "{'a': False} is not of type 'array'",
            '{"a": false} is not an array',
        ),
        (
            {"required": ["city"]},
            {},
            "'city' is a required property",
            '"city" is a required property',
        ),
        (
            {"pattern": "^\\d+$"},
            "x1",
            "'x1' does not match '^\\\\d+$'",
            '"x1" does not match the pattern ^\\d+$',
        ),
        (
            {"enum": ["a", None]},
            "b",
            "'b' is not one of ['a', None]",
            '"b" is not one of ["a", null]',
        ),
        ({"const": True}, False, "True was expected", "false is not the allowed value true"),
        ({"minimum": 1}, 0, "0 is less than the minimum of 1", "0 is less than the minimum of 1"),
        (
            {"maxLength": 3},
            "LONDON",
            "'LONDON' is too long",
            '"LONDON" is longer than 3 characters',
        ),
        ({"minItems": 1}, [], "[] should be non-empty", "[] has fewer than 1 item"),
        (
            {"properties": {"a": {}}, "additionalProperties": False},
            {"a": 1, "b": 2},
            "Additional properties are not allowed ('b' was unexpected)",
            'additional property "b" is not allowed',
        ),
        (
            {"anyOf": [{"type": "string"}, {"type": "null"}]},
            1,
            "1 is not valid under any of the given schemas",
            "1 matches none of the anyOf schemas",
        ),
        (
            {"not": {"type": "null"}},
            None,
            "None should not be valid under {'type': 'null'}",
            'null must not match the schema {"type": "null"}',
        ),
        ({"format": "ipv4"}, "x", None, None),  # formats are not asserted by default
    ],
)
def test_json_message_words_a_validation_error_in_json_terms(
    schema: dict[str, Any], instance: Any, python_words: str | None, json_words: str | None
) -> None:
    errors = list(Draft202012Validator(schema).iter_errors(instance))
    if python_words is None:
        assert errors == []
        return
    (error,) = errors
    assert error.message == python_words  # the oracle still says what we read it as
    assert json_message(error) == json_words


@pytest.mark.parametrize(
    ("schema", "instance"),
    [
        ({"type": "integer"}, "three"),
        ({"type": ["string", "null"]}, 3),
        ({"required": ["city"]}, {}),
        ({"pattern": "^[A-Z]{3}-\\d{4}$"}, "abc-12"),
        ({"minimum": 1}, 0),
        ({"maximum": 10}, 11.5),
        ({"exclusiveMinimum": 1}, 1),
        ({"multipleOf": 2}, 7),
        ({"enum": ["hold", "buy"]}, "rent"),
        ({"properties": {}, "additionalProperties": False}, {"gift": True, "x": None}),
    ],
)
def test_python_jsonschema_text_reads_back_to_the_same_words(
    schema: dict[str, Any], instance: Any
) -> None:
    """A server that sends python-jsonschema's text gets the sentence its error would have."""
    error = only_error(schema, instance)
    problem = read_python_jsonschema(error.message)
    assert problem is not None
    assert problem.message == json_message(error)


@pytest.mark.parametrize(
    "text",
    [
        "it is too long",
        "the thing is not one of us",
        "Dates must be in the future",
        "x is not of type y",
    ],
)
def test_prose_is_not_taken_for_python_jsonschema(text: str) -> None:
    assert read_python_jsonschema(text) is None


def test_a_null_value_is_null_not_nonetype(tmp_path: Path) -> None:
    # A file of nothing but `null` holds no MCP traffic (an input error, issue 28 item 8); a
    # null among real messages is a finding, worded in JSON's terms.
    path = tmp_path / "n.jsonl"
    path.write_text('{"jsonrpc":"2.0","id":1,"method":"ping"}\nnull\n')
    result = run_cli("check", str(path))
    assert "not a JSON-RPC message: null, not an object" in result.out
    assert "NoneType" not in result.out + result.err
    alone = tmp_path / "alone.json"
    alone.write_text("null\n")
    result = run_cli("check", str(alone))
    assert "NoneType" not in result.out + result.err and "holds no JSON-RPC" in result.err


def test_a_null_message_is_null_not_none(tmp_path: Path) -> None:
    path = tmp_path / "m.jsonl"
    path.write_text('{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":null}}\n')
    result = run_cli("check", str(path))
    assert "invalid JSON-RPC error response: null is not a string" in result.out
    assert "None" not in result.out


def test_tool_names_in_findings_are_json_strings(tmp_path: Path) -> None:
    path = tmp_path / "t.jsonl"
    path.write_text(
        '{"jsonrpc":"2.0","id":1,"method":"tools/list"}\n'
        '{"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"add","inputSchema":{"type":"object",'
        '"properties":{"a":{"type":"number"}}}}]}}\n'
        '{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"add","arguments":{"a":"two"}}}\n'
        '{"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"ok"}]}}\n'
    )
    out = run_cli("check", str(path)).out
    assert 'arguments of tools/call "add" violate its inputSchema: "two" is not a number' in out
