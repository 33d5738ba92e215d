"""The project's own schemas are valid, self-contained, and migrator.judge.schemas serves them."""

from __future__ import annotations

import importlib.resources
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import jsonschema.validators
import pytest
import referencing.exceptions

from migrator.judge import schemas

from . import oracle

BASE = "https://mcp-transcripts.dev/schemas/"
FILES = schemas.schema_files()
DRAFT_07 = "http://json-schema.org/draft-07/schema#"
DRAFT_2020_12 = "https://json-schema.org/draft/2020-12/schema"


def _refs(node: Any) -> Iterator[str]:
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "$ref" and isinstance(value, str):
                yield value
            elif key in ("properties", "$defs", "definitions", "patternProperties"):
                for subschema in value.values():
                    yield from _refs(subschema)
            elif key not in ("const", "enum", "examples", "default"):
                yield from _refs(value)
    elif isinstance(node, list):
        for item in node:
            yield from _refs(item)


# -- the files ----------------------------------------------------------------------


def test_the_expected_files_are_there() -> None:
    expected = {
        "jsonrpc-2.0.schema.json",
        "findings.schema.json",
        "envelope.schema.json",
        *(f"mcp/{version}.schema.json" for version in schemas.SUPPORTED_VERSIONS),
    }
    assert expected <= set(FILES), sorted(expected - set(FILES))


@pytest.mark.parametrize("path", FILES)
def test_each_file_is_a_valid_schema_for_its_metaschema(path: str) -> None:
    document = schemas.load_schema(path)
    assert document["$schema"] in (DRAFT_07, DRAFT_2020_12)
    jsonschema.validators.validator_for(document).check_schema(document)


@pytest.mark.parametrize("path", FILES)
def test_each_file_has_a_stable_id_matching_its_path(path: str) -> None:
    assert schemas.load_schema(path)["$id"] == BASE + path


@pytest.mark.parametrize("version", schemas.SUPPORTED_VERSIONS)
def test_each_version_uses_its_own_dialect(version: str) -> None:
    document = schemas.load_schema(f"mcp/{version}.schema.json")
    if version <= "2025-06-18":
        assert document["$schema"] == DRAFT_07
        assert "definitions" in document and "$defs" not in document
    else:
        assert document["$schema"] == DRAFT_2020_12
        assert "$defs" in document and "definitions" not in document


@pytest.mark.parametrize("path", FILES)
def test_every_ref_resolves_offline(path: str) -> None:
    document = schemas.load_schema(path)
    resolver = schemas.registry().resolver(base_uri=document["$id"])
    references = list(_refs(document))
    for reference in references:
        resolved = resolver.lookup(reference)
        assert resolved.contents is not None, reference
    if path.startswith("mcp/") and path != "mcp/2024-11-05.schema.json":
        assert any(".schema.json#" in reference for reference in references), (
            "expected shared definitions"
        )


def test_an_unknown_reference_fails_instead_of_reaching_the_network() -> None:
    resolver = schemas.registry().resolver()
    with pytest.raises(referencing.exceptions.Unresolvable):
        resolver.lookup("https://json-schema.org/some/remote/schema.json")


@pytest.mark.parametrize("version", schemas.SUPPORTED_VERSIONS)
def test_each_version_covers_the_tools_surface(version: str) -> None:
    document = schemas.load_schema(f"mcp/{version}.schema.json")
    names = set(document.get("definitions", document.get("$defs", {})))
    required = {
        "Tool",
        "ListToolsRequest",
        "ListToolsResult",
        "CallToolRequest",
        "CallToolRequestParams",
        "CallToolResult",
        "ContentBlock",
        "TextContent",
        "ImageContent",
        "EmbeddedResource",
        "JSONRPCRequest",
        "JSONRPCNotification",
        "JSONRPCResultResponse",
        "JSONRPCErrorResponse",
        "JSONRPCMessage",
        "CallToolResultResponse",
        "ListToolsResultResponse",
    }
    if version >= "2025-03-26":
        required |= {"AudioContent", "ToolAnnotations"}
    if version >= "2025-06-18":
        required.add("ResourceLink")
    if version == "2026-07-28":
        required |= {
            "DiscoverRequest",
            "DiscoverResult",
            "RequestMetaObject",
            "InputRequiredResult",
        }
    else:
        required |= {"InitializeRequest", "InitializeResult", "InitializeResultResponse"}
    assert required <= names, sorted(required - names)


# -- what the version schemas say -----------------------------------------------------

_ERROR = {"jsonrpc": "2.0", "error": {"code": -32602, "message": "Invalid params"}}


@pytest.mark.parametrize(
    ("version", "definition", "instance", "valid"),
    [
        (
            "2024-11-05",
            "CallToolResult",
            {"content": [{"type": "audio", "data": "", "mimeType": "audio/wav"}]},
            False,
        ),
        (
            "2025-03-26",
            "CallToolResult",
            {"content": [{"type": "audio", "data": "", "mimeType": "audio/wav"}]},
            True,
        ),
        (
            "2025-03-26",
            "CallToolResult",
            {"content": [{"type": "resource_link", "uri": "file:///a", "name": "a"}]},
            False,
        ),
        (
            "2025-06-18",
            "CallToolResult",
            {"content": [{"type": "resource_link", "uri": "file:///a", "name": "a"}]},
            True,
        ),
        ("2025-06-18", "CallToolResult", {"content": [], "structuredContent": {"a": 1}}, True),
        ("2025-11-25", "CallToolResult", {"content": [], "structuredContent": [1]}, False),
        (
            "2025-11-25",
            "CallToolResult",
            {"content": [{"type": "text", "text": "bad date"}], "isError": True},
            True,
        ),
        (
            "2026-07-28",
            "CallToolResult",
            {"content": [{"type": "text", "text": "bad date"}], "isError": True},
            False,
        ),
        (
            "2026-07-28",
            "CallToolResult",
            {"content": [], "isError": True, "resultType": "complete", "structuredContent": [1]},
            True,
        ),
        ("2025-06-18", "JSONRPCErrorResponse", _ERROR, False),
        ("2025-06-18", "JSONRPCErrorResponse", {**_ERROR, "id": 1}, True),
        ("2025-11-25", "JSONRPCErrorResponse", _ERROR, True),
        ("2025-11-25", "JSONRPCErrorResponse", {**_ERROR, "id": None}, False),
        ("2025-06-18", "CallToolRequest", {"method": "tools/call", "params": {"name": "t"}}, True),
        ("2025-11-25", "CallToolRequest", {"method": "tools/call", "params": {"name": "t"}}, False),
        (
            "2025-06-18",
            "Tool",
            {"name": "t", "inputSchema": {"type": "object", "properties": {"a": True}}},
            False,
        ),
        (
            "2026-07-28",
            "Tool",
            {"name": "t", "inputSchema": {"type": "object", "properties": {"a": True}}},
            True,
        ),
        ("2025-11-25", "Icon", {"src": "not a URI at all"}, True),
    ],
)
def test_version_differences(version: str, definition: str, instance: Any, valid: bool) -> None:
    assert schemas.validator(version, definition).is_valid(instance) is valid


# -- the module's API --------------------------------------------------------------------


def test_supported_versions_are_oldest_first() -> None:
    assert schemas.SUPPORTED_VERSIONS == (
        "2024-11-05",
        "2025-03-26",
        "2025-06-18",
        "2025-11-25",
        "2026-07-28",
    )
    assert list(schemas.SUPPORTED_VERSIONS) == sorted(schemas.SUPPORTED_VERSIONS)


def test_schema_dir_is_the_repository_folder_in_a_source_checkout() -> None:
    packaged = importlib.resources.files("migrator") / "_schemas"
    if packaged.is_dir():
        pytest.skip("migrator is installed from a wheel here; its packaged schemas are used")
    assert schemas.schema_dir() == Path(__file__).resolve().parents[2] / "schemas"


def test_schema_dir_prefers_the_packaged_folder(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    (tmp_path / "_schemas").mkdir()
    monkeypatch.setattr(importlib.resources, "files", lambda package: tmp_path)
    assert schemas.schema_dir() == tmp_path / "_schemas"


def test_load_schema_is_cached() -> None:
    first = schemas.load_schema("mcp/2025-11-25.schema.json")
    assert schemas.load_schema("mcp/2025-11-25.schema.json") is first
    assert first["$id"] == BASE + "mcp/2025-11-25.schema.json"


@pytest.mark.parametrize(
    "path", ["../pyproject.toml", "/etc/passwd", "mcp//x.json", "./jsonrpc-2.0.schema.json"]
)
def test_load_schema_refuses_paths_outside_the_folder(path: str) -> None:
    with pytest.raises(ValueError, match="not a relative schema path"):
        schemas.load_schema(path)


def test_load_schema_names_the_known_files_when_one_is_missing() -> None:
    with pytest.raises(FileNotFoundError, match=r"findings\.schema\.json"):
        schemas.load_schema("mcp/1999-01-01.schema.json")


def test_registry_is_cached_and_holds_every_schema() -> None:
    registry = schemas.registry()
    assert schemas.registry() is registry
    for path in FILES:
        assert registry[BASE + path].contents is schemas.load_schema(path)


def test_validators_are_built_once() -> None:
    assert schemas.validator("2025-11-25", "CallToolResult") is schemas.validator(
        "2025-11-25", "CallToolResult"
    )
    assert schemas.jsonrpc_validator("JSONRPCMessage") is schemas.jsonrpc_validator(
        "JSONRPCMessage"
    )


@pytest.mark.parametrize(
    ("version", "dialect"),
    [
        ("2024-11-05", jsonschema.validators.Draft7Validator),
        ("2025-06-18", jsonschema.validators.Draft7Validator),
        ("2025-11-25", jsonschema.validators.Draft202012Validator),
        ("2026-07-28", jsonschema.validators.Draft202012Validator),
    ],
)
def test_validators_use_the_version_dialect_without_format_checks(
    version: str, dialect: type
) -> None:
    checker = schemas.validator(version, "CallToolResult")
    assert isinstance(checker, dialect)
    assert getattr(checker, "format_checker") is None  # noqa: B009 (not on the Validator protocol)


def test_an_unknown_definition_is_a_clear_key_error() -> None:
    with pytest.raises(
        KeyError,
        match=r"the MCP 2025-11-25 schema has no definition 'CallToolResults'.*CallToolResult",
    ):
        schemas.validator("2025-11-25", "CallToolResults")
    with pytest.raises(KeyError, match="InitializeResult"):
        schemas.validator("2026-07-28", "InitializeResult")
    with pytest.raises(KeyError, match=r"JSON-RPC 2\.0 schema has no definition 'Nope'"):
        schemas.jsonrpc_validator("Nope")


def test_an_unknown_version_is_a_clear_key_error() -> None:
    with pytest.raises(
        KeyError, match=r"no schema for MCP protocol version '2025-04-01'.*closest_version"
    ):
        schemas.validator("2025-04-01", "Tool")


@pytest.mark.parametrize(
    ("given", "expected"),
    [
        ("2024-11-05", "2024-11-05"),
        ("2025-03-26", "2025-03-26"),
        ("2025-06-18", "2025-06-18"),
        ("2025-11-25", "2025-11-25"),
        ("2026-07-28", "2026-07-28"),
        (None, "2026-07-28"),
        ("2099-12-31", "2026-07-28"),
        ("2026-08-01", "2026-07-28"),
        ("2024-10-07", "2024-11-05"),
        ("1970-01-01", "2024-11-05"),
        ("2025-04-01", "2025-03-26"),
        ("2025-11-24", "2025-06-18"),
        ("DRAFT-2026-v1", "2026-07-28"),
        ("draft", "2026-07-28"),
        ("", "2026-07-28"),
    ],
)
def test_closest_version(given: str | None, expected: str) -> None:
    assert schemas.closest_version(given) == expected


# -- check_json_schema ---------------------------------------------------------------------


def test_check_json_schema_accepts_valid_schemas() -> None:
    schema = {
        "type": "object",
        "properties": {"date": {"type": "string", "pattern": "^\\d{4}$"}},
        "required": ["date"],
    }
    assert schemas.check_json_schema(schema, DRAFT_07) == []
    assert schemas.check_json_schema(schema, DRAFT_2020_12) == []
    assert schemas.check_json_schema(True, DRAFT_2020_12) == []


def test_check_json_schema_reports_where_and_what() -> None:
    errors = schemas.check_json_schema(
        {"type": "object", "properties": {"n": {"type": "integr"}}}, DRAFT_2020_12
    )
    assert len(errors) == 1
    assert errors[0].startswith('/properties/n/type: "integr" matches none of')


def test_check_json_schema_checks_patterns_compile() -> None:
    errors = schemas.check_json_schema({"properties": {"a": {"pattern": "("}}}, DRAFT_07)
    assert errors == ['/properties/a/pattern: "(" is not a valid regex']


def test_check_json_schema_follows_the_declared_dialect() -> None:
    tuple_items = {"type": "array", "items": [{"type": "string"}]}
    assert schemas.check_json_schema(tuple_items, DRAFT_07) == []
    assert schemas.check_json_schema(tuple_items, DRAFT_2020_12) != []
    assert schemas.check_json_schema({**tuple_items, "$schema": DRAFT_07}, DRAFT_2020_12) == []
    assert (
        schemas.check_json_schema(
            {**tuple_items, "$schema": "http://json-schema.org/draft-07/schema"}, DRAFT_2020_12
        )
        == []
    )


@pytest.mark.parametrize(
    ("schema", "message"),
    [
        ({"$schema": "https://example.com/my-dialect"}, "/$schema: unknown dialect"),
        ({"$schema": 7}, "/$schema: must be a string"),
        ("object", ": a schema must be an object or a boolean, not a string"),
        (None, ": a schema must be an object or a boolean, not null"),
    ],
)
def test_check_json_schema_rejects_what_it_cannot_check(schema: Any, message: str) -> None:
    errors = schemas.check_json_schema(schema, DRAFT_2020_12)
    assert len(errors) == 1 and errors[0].startswith(message)


def test_check_json_schema_needs_a_known_default_dialect() -> None:
    with pytest.raises(ValueError, match="unknown default dialect"):
        schemas.check_json_schema({}, "https://example.com/nope")


# -- the JSON-RPC, envelope and findings schemas ----------------------------------------------


@pytest.mark.parametrize(
    ("definition", "instance", "valid"),
    [
        ("JSONRPCBatch", [], False),
        ("JSONRPCBatch", [{"jsonrpc": "2.0", "method": "notifications/initialized"}], True),
        (
            "JSONRPCMessage",
            {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": [1]},
            False,
        ),
        ("JSONRPCErrorResponse", {**_ERROR, "id": None}, False),
        ("JSONRPCErrorResponse", _ERROR, True),
        ("JSONRPCResultResponse", {"jsonrpc": "2.0", "id": 1, "result": []}, False),
        ("JSONRPCRequest", {"jsonrpc": "2.0", "id": 1.5, "method": "ping"}, False),
        ("JSONRPCMessageOrBatch", [{"jsonrpc": "2.0", "id": "a", "result": {}}], True),
    ],
)
def test_jsonrpc_schema(definition: str, instance: Any, valid: bool) -> None:
    assert schemas.jsonrpc_validator(definition).is_valid(instance) is valid


def _document_validator(path: str) -> Any:
    document = schemas.load_schema(path)
    return jsonschema.validators.validator_for(document)(document, registry=schemas.registry())


_MESSAGE = {"jsonrpc": "2.0", "id": 1, "method": "tools/list"}


@pytest.mark.parametrize(
    ("line", "valid"),
    [
        ({"ts": "2026-01-01T00:00:00Z", "direction": "client->server", "message": _MESSAGE}, True),
        ({"t": 12.5, "dir": "c2s", "msg": _MESSAGE, "seq": 3}, True),
        (
            {
                "timestamp": 1700000000000,
                "origin": "server",
                "message": _MESSAGE,
                "note": "extra keys are fine",
            },
            True,
        ),
        ({"direction": "send", "message": _MESSAGE}, True),
        ({"dir": "recv", "message": [_MESSAGE]}, True),
        ({"direction": "client->server"}, False),
        ({"message": _MESSAGE}, False),
        ({"direction": "up", "message": _MESSAGE}, False),
        ({"dir": "client->server", "message": _MESSAGE}, False),
        ({"origin": "proxy", "message": _MESSAGE}, False),
        ({"direction": "client->server", "message": _MESSAGE, "seq": "3"}, False),
        ({"direction": "client->server", "message": _MESSAGE, "ts": None}, False),
        ({"direction": "client->server", "message": {"id": 1}}, False),
        ([_MESSAGE], False),
    ],
)
def test_envelope_schema(line: Any, valid: bool) -> None:
    assert _document_validator("envelope.schema.json").is_valid(line) is valid


def test_recorded_envelope_lines_fit_the_envelope_schema() -> None:
    checker = _document_validator("envelope.schema.json")
    lines = 0
    for path in oracle.transcript_files():
        for text in path.read_text(encoding="utf-8", errors="replace").splitlines():
            try:
                value = json.loads(text)
            except ValueError:
                continue
            if isinstance(value, dict) and ("message" in value or "msg" in value):
                lines += 1
                assert checker.is_valid(value), (path.name, text[:200])
    if not lines:
        pytest.skip("no envelope transcripts found")


_FINDING = {
    "path": "traces/a.jsonl",
    "line": 12,
    "column": 1,
    "code": "MCP101",
    "slug": "tool-input-error-as-protocol-error",
    "severity": "error",
    "message": "tools/call input-validation error sent as JSON-RPC -32602",
    "fixable": "safe",
    "request_id": 7,
    "tool": "book_flight",
    "evidence": ["error.message mentions 'date'"],
    "pointer": "/error",
    "keyword": None,
}
_REPORT = {
    "version": 1,
    "tool": {"name": "mcp-transcripts", "version": "0.1.0"},
    "findings": [_FINDING],
    "summary": {
        "files": 1,
        "messages": 40,
        "findings": 1,
        "fixable": 1,
        "by_code": {"MCP101": 1},
        "by_severity": {"error": 1},
    },
}


def _with(path: tuple[Any, ...], value: Any) -> dict[str, Any]:
    report: dict[str, Any] = json.loads(json.dumps(_REPORT))
    node = report
    for key in path[:-1]:
        node = node[key]
    if value is KeyError:
        del node[path[-1]]
    else:
        node[path[-1]] = value
    return report


@pytest.mark.parametrize(
    ("report", "valid"),
    [
        (_REPORT, True),
        (_with(("findings", 0, "fixable"), None), True),
        (_with(("findings", 0, "request_id"), "abc"), True),
        (_with(("findings", 0, "pointer"), ""), True),
        (_with(("findings", 0, "pointer"), "/result/content/0/text~1x"), True),
        (_with(("findings", 0, "keyword"), "required"), True),
        (_with(("findings",), []), True),
        (_with(("version",), 2), False),
        (_with(("extra",), True), False),
        (_with(("tool", "name"), "other"), False),
        (_with(("findings", 0, "code"), "MCP1"), False),
        (_with(("findings", 0, "code"), "XYZ101"), False),
        (_with(("findings", 0, "slug"), "Not_Kebab"), False),
        (_with(("findings", 0, "line"), 0), False),
        (_with(("findings", 0, "column"), 0), False),
        (_with(("findings", 0, "severity"), "fatal"), False),
        (_with(("findings", 0, "fixable"), True), False),
        (_with(("findings", 0, "request_id"), 1.5), False),
        (_with(("findings", 0, "pointer"), "error"), False),
        (_with(("findings", 0, "pointer"), "/a~2"), False),
        (_with(("findings", 0, "evidence"), "one"), False),
        (_with(("findings", 0, "tool"), KeyError), False),
        (_with(("findings", 0, "extra"), 1), False),
        (_with(("summary", "by_code"), {"E101": 1}), False),
        (_with(("summary", "by_severity"), {"fatal": 1}), False),
        (_with(("summary", "files"), -1), False),
        (_with(("summary", "extra"), 0), False),
    ],
)
def test_findings_schema(report: dict[str, Any], valid: bool) -> None:
    assert _document_validator("findings.schema.json").is_valid(report) is valid
