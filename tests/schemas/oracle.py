"""The official MCP schemas as a test oracle, and a corpus of real messages.

The official schemas are read from the shared folder next to the repository
(``../shared/mcp-schemas/<version>/schema.json``) or from the folder named by the
``MCP_TRANSCRIPTS_SHARED`` environment variable. They are only ever read here, by the
tests; nothing from them is copied into the project.
"""

from __future__ import annotations

import functools
import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import jsonschema.validators
import referencing
from jsonschema.protocols import Validator

REPO_ROOT = Path(__file__).resolve().parents[2]
FIXTURES = REPO_ROOT / "tests" / "fixtures"
SHARED_ENV = "MCP_TRANSCRIPTS_SHARED"


def shared_dir() -> Path:
    """The shared folder: $MCP_TRANSCRIPTS_SHARED, else the repository's sibling 'shared'."""
    configured = os.environ.get(SHARED_ENV)
    if configured:
        return Path(configured)
    return REPO_ROOT.parent / "shared"


def official_dir() -> Path:
    return shared_dir() / "mcp-schemas"


def missing_reason(versions: tuple[str, ...]) -> str | None:
    """Why the oracle cannot run (None when every version's official schema is there)."""
    folder = official_dir()
    missing = [v for v in versions if not (folder / v / "schema.json").is_file()]
    if not missing:
        return None
    return (
        f"official MCP schemas not found for {', '.join(missing)} under {folder} "
        f"(set {SHARED_ENV} to the shared folder that holds mcp-schemas/<version>/schema.json)"
    )


@functools.cache
def official_document(version: str) -> dict[str, Any]:
    document: dict[str, Any] = json.loads(
        (official_dir() / version / "schema.json").read_text(encoding="utf-8")
    )
    return document


def official_definitions(version: str) -> set[str]:
    document = official_document(version)
    return set(document.get("definitions", document.get("$defs", {})))


@functools.cache
def official_validator(version: str, definition: str) -> Validator:
    """A validator for one official definition, resolved inside the official document."""
    document = official_document(version)
    key = "definitions" if "definitions" in document else "$defs"
    if definition not in document[key]:
        raise KeyError(definition)
    uri = f"https://official-mcp-schema.invalid/{version}/schema.json"
    resource = referencing.Resource.from_contents(document)
    registry: referencing.Registry[Any] = referencing.Registry().with_resource(uri, resource)
    cls = jsonschema.validators.validator_for(document)
    return cls({"$ref": f"{uri}#/{key}/{definition}"}, registry=registry)


# -- the corpus of recorded messages ---------------------------------------------------


def transcript_files() -> list[Path]:
    """Every JSONL transcript the oracle can read: the test fixtures and the shared ones."""
    files = sorted(FIXTURES.glob("**/*.jsonl")) if FIXTURES.is_dir() else []
    shared_transcripts = shared_dir() / "transcripts"
    if shared_transcripts.is_dir():
        files.extend(sorted(shared_transcripts.glob("*.jsonl")))
    return files


def _messages(path: Path) -> Iterator[Any]:
    """The JSON-RPC messages of one transcript, wire or envelope form; unparsable lines skipped."""
    for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
        if not line.strip():
            continue
        try:
            value = json.loads(line)
        except ValueError:
            continue
        if isinstance(value, dict) and ("message" in value or "msg" in value):
            value = value.get("message", value.get("msg"))
        yield value


# What to route a result to, by the method of the request it answers.
_RESULTS = {
    "tools/call": ("CallToolResult", "CallToolResultResponse"),
    "tools/list": ("ListToolsResult", "ListToolsResultResponse"),
    "initialize": ("InitializeResult", "InitializeResultResponse"),
    "server/discover": ("DiscoverResult", "DiscoverResultResponse"),
}
_REQUESTS = {
    "tools/call": ("CallToolRequest", "CallToolRequestParams"),
    "tools/list": ("ListToolsRequest", "PaginatedRequestParams"),
    "initialize": ("InitializeRequest", "InitializeRequestParams"),
    "server/discover": ("DiscoverRequest", "RequestParams"),
}
_REQUEST_PARAMS = dict(_REQUESTS.values())
_RESPONSE_RESULTS = {response: result for result, response in _RESULTS.values()}
_CONTENT = {
    "text": "TextContent",
    "image": "ImageContent",
    "audio": "AudioContent",
    "resource": "EmbeddedResource",
    "resource_link": "ResourceLink",
}
_ERRORS = {
    -32700: "ParseError",
    -32600: "InvalidRequestError",
    -32601: "MethodNotFoundError",
    -32602: "InvalidParamsError",
    -32603: "InternalError",
}


def _parts(definition: str, value: Any) -> Iterator[tuple[str, Any]]:
    """Nested values of a routed instance, with the definitions that describe them."""
    if not isinstance(value, dict):
        return
    if definition in _REQUEST_PARAMS and "params" in value:
        yield from route(_REQUEST_PARAMS[definition], value["params"])
    elif definition in _RESPONSE_RESULTS and "result" in value:
        yield from route(_RESPONSE_RESULTS[definition], value["result"])
    elif definition in ("CallToolResult", "ToolResultContent"):
        content = value.get("content")
        for block in content if isinstance(content, list) else []:
            yield "ContentBlock", block
            if (
                isinstance(block, dict)
                and isinstance(block.get("type"), str)
                and block["type"] in _CONTENT
            ):
                yield from route(_CONTENT[block["type"]], block)
    elif definition == "ListToolsResult":
        tools = value.get("tools")
        for tool in tools if isinstance(tools, list) else []:
            yield from route("Tool", tool)
    elif definition == "Tool":
        if "annotations" in value:
            yield "ToolAnnotations", value["annotations"]
        if "execution" in value:
            yield "ToolExecution", value["execution"]
        icons = value.get("icons")
        for icon in icons if isinstance(icons, list) else []:
            yield "Icon", icon
    elif definition in (
        "TextContent",
        "ImageContent",
        "AudioContent",
        "ResourceLink",
        "EmbeddedResource",
    ):
        if "annotations" in value:
            yield "Annotations", value["annotations"]
        resource = value.get("resource")
        if isinstance(resource, dict):
            yield (
                ("BlobResourceContents" if "blob" in resource else "TextResourceContents"),
                resource,
            )
    elif definition in ("InitializeRequestParams", "InitializeResult"):
        for key, name in (
            (
                "capabilities",
                "ServerCapabilities" if definition == "InitializeResult" else "ClientCapabilities",
            ),
            ("clientInfo", "Implementation"),
            ("serverInfo", "Implementation"),
        ):
            if key in value:
                yield name, value[key]
    elif definition in ("CallToolRequestParams", "PaginatedRequestParams", "RequestParams"):
        meta = value.get("_meta")
        if meta is not None:
            yield from route("RequestMetaObject", meta)
        if isinstance(value.get("task"), dict):
            yield "TaskMetadata", value["task"]
    elif (
        definition == "RequestMetaObject" and "io.modelcontextprotocol/clientCapabilities" in value
    ):
        yield "ClientCapabilities", value["io.modelcontextprotocol/clientCapabilities"]


def route(definition: str, value: Any) -> Iterator[tuple[str, Any]]:
    """The instance itself under ``definition``, then its nested parts."""
    yield definition, value
    yield from _parts(definition, value)


def route_message(message: Any, methods: dict[Any, str]) -> Iterator[tuple[str, Any]]:
    """Route one wire message (and what it contains) to the definitions that describe it.

    ``methods`` maps the ids of the requests seen so far to their methods; requests
    are added to it, and responses are routed by the method of their request.
    """
    yield "JSONRPCMessage", message
    if isinstance(message, list):
        yield "JSONRPCBatchRequest", message
        yield "JSONRPCBatchResponse", message
        for item in message:
            yield from route_message(item, methods)
        return
    if not isinstance(message, dict):
        return
    method = message.get("method")
    if isinstance(method, str) and "id" in message:
        yield "JSONRPCRequest", message
        if isinstance(message["id"], (str, int)):
            methods[message["id"]] = method
        if method in _REQUESTS:
            yield from route(_REQUESTS[method][0], message)
    elif isinstance(method, str):
        yield "JSONRPCNotification", message
    elif "result" in message:
        for name in ("JSONRPCResponse", "JSONRPCResultResponse"):
            yield name, message
        result = message["result"]
        yield "Result", result
        request_id = message.get("id")
        request_method = methods.get(request_id) if isinstance(request_id, (str, int)) else None
        if request_method in _RESULTS:
            yield from route(_RESULTS[request_method][1], message)
    elif "error" in message:
        for name in ("JSONRPCResponse", "JSONRPCError", "JSONRPCErrorResponse"):
            yield name, message
        error = message["error"]
        yield "Error", error
        if isinstance(error, dict) and error.get("code") in _ERRORS:
            yield _ERRORS[error["code"]], error


def recorded_corpus() -> list[tuple[str, str, Any]]:
    """(source, definition, instance) for every message of every readable transcript."""
    corpus: list[tuple[str, str, Any]] = []
    for path in transcript_files():
        methods: dict[Any, str] = {}
        for number, message in enumerate(_messages(path), start=1):
            source = f"{path.name}#{number}"
            corpus.extend((source, name, value) for name, value in route_message(message, methods))
    return corpus
