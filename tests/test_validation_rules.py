"""MCP201-MCP205: schema validation in `check`, and the fast path that decides it."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from migrator.api import check_text
from migrator.judge import schemas, validation
from tests.conftest import FIXTURES, ROOT, examples

VERSIONS = schemas.SUPPORTED_VERSIONS


def valid_session(version: str) -> str:
    """A small, valid session of one protocol version (2026-07-28: no handshake)."""
    meta = {
        "io.modelcontextprotocol/protocolVersion": version,
        "io.modelcontextprotocol/clientCapabilities": {},
    }
    tool: dict[str, Any] = {
        "name": "add",
        "inputSchema": {
            "type": "object",
            "properties": {"a": {"type": "number"}},
            "required": ["a"],
        },
    }
    if version >= "2025-06-18":
        tool["outputSchema"] = {
            "type": "object",
            "properties": {"sum": {"type": "number"}},
            "required": ["sum"],
        }
    result: dict[str, Any] = {"content": [{"type": "text", "text": "3"}]}
    if version >= "2025-06-18":
        result["structuredContent"] = {"sum": 3}
    listing: dict[str, Any] = {"tools": [tool]}
    messages: list[dict[str, Any]] = []
    if version == "2026-07-28":
        listing |= {"resultType": "complete", "cacheScope": "public", "ttlMs": 60000}
        result["resultType"] = "complete"
        list_params: dict[str, Any] = {"_meta": meta}
        call_params: dict[str, Any] = {"name": "add", "arguments": {"a": 3}, "_meta": meta}
    else:
        messages += [
            {
                "jsonrpc": "2.0",
                "id": 0,
                "method": "initialize",
                "params": {
                    "protocolVersion": version,
                    "capabilities": {},
                    "clientInfo": {"name": "c", "version": "1"},
                },
            },
            {
                "jsonrpc": "2.0",
                "id": 0,
                "result": {
                    "protocolVersion": version,
                    "capabilities": {"tools": {}},
                    "serverInfo": {"name": "s", "version": "1"},
                },
            },
            {"jsonrpc": "2.0", "method": "notifications/initialized"},
        ]
        list_params, call_params = {}, {"name": "add", "arguments": {"a": 3}}
    messages += [
        {"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": list_params},
        {"jsonrpc": "2.0", "id": 1, "result": listing},
        {"jsonrpc": "2.0", "id": "c2", "method": "tools/call", "params": call_params},
        {"jsonrpc": "2.0", "id": "c2", "result": result},
    ]
    return "".join(json.dumps(m) + "\n" for m in messages)


@pytest.mark.parametrize("version", VERSIONS)
def test_valid_traffic_of_every_version_has_no_findings(version: str) -> None:
    report = check_text(valid_session(version))
    assert [(f.code, f.message) for f in report.findings] == []
    assert report.messages >= 4


@pytest.mark.parametrize("recording", ["ts-sdk-1.32.2.jsonl", "py-sdk-2.3.0.jsonl"])
def test_real_new_sdk_traffic_is_schema_valid(recording: str) -> None:
    report = check_text((FIXTURES / "recorded" / recording).read_text())
    schema_codes = {f.code for f in report.findings} & {"MCP201", "MCP204", "MCP205"}
    assert schema_codes == set()
    # The recordings send deliberately malformed calls: those, and only those, are MCP202.
    assert {f.keyword for f in report.findings if f.code == "MCP202"} <= {"type", "required"}


def test_each_violation_is_located_with_pointer_and_keyword() -> None:
    text = (ROOT / "tests" / "golden" / "schema-violations" / "input.jsonl").read_text()
    found = {(f.line, f.code, f.pointer, f.keyword) for f in check_text(text).findings}
    assert (5, "MCP203", "/params/arguments/city", "type") in found
    assert (8, "MCP204", "/result/structuredContent/celsius", "type") in found
    assert (12, "MCP202", "/result/content/0", "anyOf") in found
    assert (4, "MCP205", "/result/tools/1/inputSchema/properties/limit/type", None) in found
    assert (14, "MCP201", "", "oneOf") in found
    assert (16, "MCP201", "/error/code", "type") in found


def test_mcp202_needs_a_version() -> None:
    line = '{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"picture"}]}}\n'
    call = '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x"}}\n'
    assert [f.code for f in check_text(call + line).findings] == []
    from migrator.engine.pipeline import Options

    assumed = check_text(call + line, options=Options(assume_version="2025-06-18")).findings
    assert [f.code for f in assumed] == ["MCP202"]


def test_validators_are_built_once() -> None:
    assert validation.mcp("2025-11-25", "CallToolResult") is validation.mcp(
        "2025-11-25", "CallToolResult"
    )
    assert validation.jsonrpc("JSONRPCRequest") is validation.jsonrpc("JSONRPCRequest")


def _corpus() -> list[tuple[str, str, Any]]:
    """(version, definition, instance) from every fixture message."""
    items: list[tuple[str, str, Any]] = []
    for path in sorted(FIXTURES.glob("**/*.jsonl")) + sorted(
        (ROOT / "tests" / "golden").glob("*/input.jsonl")
    ):
        for line in path.read_text(errors="replace").splitlines():
            try:
                message = json.loads(line)
            except ValueError:
                continue
            message = message.get("message", message) if isinstance(message, dict) else message
            if not isinstance(message, dict):
                continue
            for version in VERSIONS:
                if isinstance(message.get("result"), dict):
                    items.append((version, "CallToolResult", message["result"]))
                    items.append((version, "ListToolsResult", message["result"]))
                if message.get("method") == "tools/call":
                    items.append((version, "CallToolRequest", message))
    return items


def test_fast_path_agrees_with_the_reference_on_the_fixture_corpus() -> None:
    pytest.importorskip("jsonschema_rs", reason="the compiled fast path is not installed")
    corpus = _corpus()
    assert len(corpus) > 500
    for version, definition, instance in corpus:
        fast = validation.mcp(version, definition)
        assert fast.compiled is not None
        assert fast.compiled.is_valid(instance) == fast.reference.is_valid(instance), (
            version,
            definition,
            instance,
        )


json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**40), 2**40)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=5),
    lambda children: (
        st.lists(children, max_size=3)
        | st.dictionaries(
            st.sampled_from(
                [
                    "type",
                    "text",
                    "content",
                    "isError",
                    "data",
                    "mimeType",
                    "uri",
                    "name",
                    "_meta",
                    "structuredContent",
                    "resultType",
                    "annotations",
                ]
            ),
            children,
            max_size=4,
        )
    ),
    max_leaves=12,
)
content_blocks = st.fixed_dictionaries(
    {"type": st.sampled_from(["text", "image", "audio", "resource", "resource_link", "picture"])},
    optional={
        "text": json_values,
        "data": json_values,
        "mimeType": json_values,
        "uri": json_values,
        "name": json_values,
        "resource": json_values,
    },
)
results = st.fixed_dictionaries(
    {},
    optional={
        "content": st.lists(content_blocks, max_size=3) | json_values,
        "isError": json_values,
        "structuredContent": json_values,
        "resultType": json_values,
        "_meta": json_values,
    },
)


@settings(max_examples=examples(300), deadline=None)
@given(st.sampled_from(VERSIONS), results)
def test_fast_path_agrees_with_the_reference_on_generated_results(
    version: str, result: dict[str, Any]
) -> None:
    pytest.importorskip("jsonschema_rs", reason="the compiled fast path is not installed")
    fast = validation.mcp(version, "CallToolResult")
    assert fast.compiled.is_valid(result) == fast.reference.is_valid(result)


@settings(max_examples=examples(200), deadline=None)
@given(json_values)
def test_fast_path_agrees_on_jsonrpc_messages(value: Any) -> None:
    pytest.importorskip("jsonschema_rs", reason="the compiled fast path is not installed")
    for definition in ("JSONRPCRequest", "JSONRPCResultResponse", "JSONRPCErrorResponse"):
        fast = validation.jsonrpc(definition)
        assert fast.compiled.is_valid(value) == fast.reference.is_valid(value)


def test_tool_schemas_are_shared_by_content() -> None:
    cache = validation.ToolSchemas()
    one = {"type": "object", "properties": {"a": {"type": "number"}}}
    two = json.loads(json.dumps(one))
    assert cache.get(one, "2025-11-25") is cache.get(two, "2025-11-25")
    assert cache.get({"type": "int"}, "2025-11-25") is None


def test_remote_references_are_never_fetched() -> None:
    from referencing.exceptions import Unresolvable

    checker = validation.ToolSchemas().get(
        {"$ref": "https://example.invalid/schema.json"}, "2025-11-25"
    )
    assert checker is not None and checker.compiled is None  # jsonschema-rs was refused the fetch
    with pytest.raises(Unresolvable):
        checker.reference.is_valid({})


def test_tool_schemas_are_compiled_once_per_process() -> None:
    # One ToolSchemas per file (per pipeline): a run over many files from one
    # server compiles each schema once, in whichever file lists it first.
    schema = {"type": "object", "properties": {"query": {"type": "string", "minLength": 7}}}
    first = validation.ToolSchemas().get(schema, "2025-06-18")
    again = validation.ToolSchemas().get(json.loads(json.dumps(schema)), "2025-06-18")
    assert first is not None and first is again
    other_dialect = validation.ToolSchemas().get(schema, "2025-11-25")
    assert other_dialect is not None and other_dialect is not first


def test_one_schema_object_read_in_two_dialects_gets_a_validator_for_each() -> None:
    # prefixItems is a keyword of 2020-12 (from 2025-11-25); draft-07 (before) ignores it.
    # The same object is asked for in both when a session's call is judged by the
    # listing of an earlier session with another version.
    cache = validation.ToolSchemas()
    schema = {
        "type": "object",
        "properties": {"xs": {"type": "array", "prefixItems": [{"type": "string"}]}},
    }
    arguments = {"xs": [1]}
    draft_07 = cache.get(schema, "2025-06-18")
    draft_2020_12 = cache.get(schema, "2025-11-25")
    assert draft_07 is not None and draft_2020_12 is not None
    assert draft_07.is_valid(arguments)
    assert not draft_2020_12.is_valid(arguments)
    assert cache.get(schema, "2025-06-18") is draft_07  # each is still looked up by identity
