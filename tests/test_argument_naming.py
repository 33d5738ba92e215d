"""The converted text names the argument, for every SDK's wording, or says it could not.

The wordings are the SDKs' own: serde's (rmcp), google/jsonschema-go's (Go SDK),
pydantic's (Python SDK), zod 3's and zod 4's (TypeScript SDK; a handler that
validates one value, ``z.string().parse(args.city)``, gets an issue with an empty path).
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from migrator import api
from migrator.engine.pipeline import Options

WEATHER_SCHEMA = {
    "type": "object",
    "properties": {"city": {"type": "string"}, "days": {"type": "integer"}},
    "required": ["city"],
}


def converted_text(error: dict[str, Any], arguments: Any, schema: Any = WEATHER_SCHEMA) -> str:
    """Fix a session where ``get_weather`` answered ``error``; the new result's text."""
    lines = [
        {
            "jsonrpc": "2.0",
            "id": 1,
            "method": "initialize",
            "params": {
                "protocolVersion": "2025-06-18",
                "capabilities": {},
                "clientInfo": {"name": "c", "version": "1"},
            },
        },
        {
            "jsonrpc": "2.0",
            "id": 1,
            "result": {
                "protocolVersion": "2025-06-18",
                "capabilities": {"tools": {}},
                "serverInfo": {"name": "s", "version": "1"},
            },
        },
    ]
    if schema is not None:
        lines += [
            {"jsonrpc": "2.0", "id": 2, "method": "tools/list"},
            {
                "jsonrpc": "2.0",
                "id": 2,
                "result": {"tools": [{"name": "get_weather", "inputSchema": schema}]},
            },
        ]
    params: dict[str, Any] = {"name": "get_weather"}
    if arguments is not None:
        params["arguments"] = arguments
    lines += [
        {"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": params},
        {"jsonrpc": "2.0", "id": 3, "error": error},
    ]
    text = "".join(json.dumps(line) + "\n" for line in lines)
    after, _ = api.fix_text(text, options=Options(unsafe_fixes=True))
    result = json.loads(after.splitlines()[-1])["result"]
    assert result["isError"] is True
    return str(result["content"][0]["text"])


def test_serde_invalid_type_names_the_argument() -> None:
    error = {
        "code": -32602,
        "message": "failed to deserialize parameters: invalid type: integer `42`, expected a string",
    }
    text = converted_text(error, {"city": 42, "days": 3})
    assert text == (
        "Invalid arguments for tool get_weather (failed to deserialize parameters):\n"
        "- invalid type: integer `42`, expected a string at arguments.city"
    )


def test_serde_without_a_catalog_names_the_one_argument_with_the_quoted_value() -> None:
    error = {
        "code": -32602,
        "message": 'failed to deserialize parameters: invalid type: string "one", expected i64',
    }
    assert (
        "expected i64 at arguments.a\n"
        in converted_text(error, {"a": "one", "b": 2}, schema=None) + "\n"
    )


def test_serde_missing_field_keeps_the_name_serde_gives() -> None:
    error = {"code": -32602, "message": "failed to deserialize parameters: missing field `city`"}
    assert "- missing field `city` at arguments" in converted_text(error, {"days": 3})


def test_go_sdk_names_the_argument_from_the_schema_location() -> None:
    message = 'invalid params: validating "arguments": validating root: validating /properties/city: type: 42 has type "integer", want "string"'
    text = converted_text({"code": -32602, "message": message}, {"city": 42, "days": 3})
    assert text == (
        'Invalid arguments for tool get_weather (invalid params: validating "arguments"):\n'
        '- type: 42 has type "integer", want "string" at arguments.city'
    )


def test_go_sdk_type_error_at_the_root_is_placed_from_the_arguments() -> None:
    message = 'invalid params: validating "arguments": validating root: type: 42 has type "integer", want "string"'
    assert "at arguments.city" in converted_text(
        {"code": -32602, "message": message}, {"city": 42, "days": 3}
    )


def test_pydantic_names_the_argument() -> None:
    message = (
        "Error executing tool get_weather: 1 validation error for get_weatherArguments\n"
        "city\n  Input should be a valid string [type=string_type, input_value=42, input_type=int]\n"
        "    For further information visit https://errors.pydantic.dev/2.11/v/string_type"
    )
    assert "- Input should be a valid string at arguments.city" in converted_text(
        {"code": -32602, "message": message}, {"city": 42}
    )


@pytest.mark.parametrize(
    "issue",
    [
        {
            "code": "invalid_type",
            "expected": "string",
            "received": "number",
            "path": [],
            "message": "Expected string, received number",
        },
        {
            "code": "invalid_type",
            "expected": "string",
            "path": [],
            "message": "Invalid input: expected string, received number",
        },
    ],
    ids=["zod-3", "zod-4"],
)
def test_zod_issue_with_an_empty_path_names_the_argument(issue: dict[str, Any]) -> None:
    message = f"MCP error -32602: Invalid arguments for tool get_weather: {json.dumps([issue])}"
    text = converted_text({"code": -32602, "message": message}, {"city": 42, "days": 3})
    assert text.endswith(f"- {issue['message']} at arguments.city")


@pytest.mark.parametrize(
    "message",
    ["Required", "Invalid input: expected string, received undefined"],
    ids=["zod-3", "zod-4"],
)
def test_zod_missing_value_names_the_required_argument_not_sent(message: str) -> None:
    issue = {"code": "invalid_type", "expected": "string", "path": [], "message": message}
    error = {
        "code": -32602,
        "message": f"Invalid arguments for tool get_weather: {json.dumps([issue])}",
    }
    assert converted_text(error, {"days": 3}).endswith(f"- {message} at arguments.city")


def test_zod_path_given_is_kept() -> None:
    issue = {
        "code": "invalid_type",
        "expected": "number",
        "received": "string",
        "path": ["days"],
        "message": "Expected number, received string",
    }
    error = {
        "code": -32602,
        "message": f"Invalid arguments for tool get_weather: {json.dumps([issue])}",
    }
    assert converted_text(error, {"city": "Oslo", "days": "3"}).endswith("at arguments.days")


@pytest.mark.parametrize(
    "message",
    [
        "failed to deserialize parameters: invalid type: integer `1`, expected a string",
        'invalid params: validating "arguments": validating root: type: 1 has type "integer", want "string"',
    ],
    ids=["serde", "go"],
)
def test_two_arguments_that_fit_are_not_guessed_between(message: str) -> None:
    schema = {"type": "object", "properties": {"a": {"type": "string"}, "b": {"type": "string"}}}
    text = converted_text({"code": -32602, "message": message}, {"a": 1, "b": 1}, schema)
    assert "the argument it concerns could not be told from the request" in text
    assert "arguments.a" not in text and "arguments.b" not in text


def test_no_arguments_sent_is_about_the_arguments_as_a_whole() -> None:
    issue = {
        "code": "invalid_type",
        "expected": "object",
        "received": "undefined",
        "path": [],
        "message": "Required",
    }
    error = {
        "code": -32602,
        "message": f"Invalid arguments for tool get_weather: {json.dumps([issue])}",
    }
    assert converted_text(error, None).endswith("- Required at arguments")
