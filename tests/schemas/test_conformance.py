"""The oracle test: our schemas accept and reject exactly what the official ones do.

For every MCP version and every definition that our schema and the official schema
both have (same name), a corpus goes through both validators and the answers must
match. The corpus: hand-written instances (tests/schemas/corpus.py), every message
of every JSONL transcript under tests/fixtures/ and the shared transcripts folder
(routed to definitions by method, responses paired with their requests by id), and
hypothesis-generated near-valid objects with random mutations.

The official schemas are read from ../shared/mcp-schemas/<version>/schema.json (or
$MCP_TRANSCRIPTS_SHARED/mcp-schemas/...); without them the module is skipped.
"""

from __future__ import annotations

import copy
import functools
import json
from collections import defaultdict
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from migrator.judge import schemas

from . import corpus, oracle

VERSIONS = schemas.SUPPORTED_VERSIONS

_REASON = oracle.missing_reason(VERSIONS)
if _REASON is not None:
    pytest.skip(_REASON, allow_module_level=True)


def _our_definitions(version: str) -> set[str]:
    document = schemas.load_schema(f"mcp/{version}.schema.json")
    return set(document.get("definitions", document.get("$defs", {})))


COMMON: dict[str, list[str]] = {
    version: sorted(_our_definitions(version) & oracle.official_definitions(version))
    for version in VERSIONS
}
CASES = [(version, definition) for version in VERSIONS for definition in COMMON[version]]


def _describe(instance: Any) -> str:
    text = json.dumps(instance, sort_keys=True)
    return text if len(text) <= 400 else text[:400] + "..."


def disagreement(version: str, definition: str, instance: Any) -> str | None:
    """None when both schemas agree on the instance, else an explanation."""
    ours = schemas.validator(version, definition)
    theirs = oracle.official_validator(version, definition)
    our_answer = ours.is_valid(instance)
    their_answer = theirs.is_valid(instance)
    if our_answer == their_answer:
        return None
    rejecting = theirs if our_answer else ours
    reason = next(iter(rejecting.iter_errors(instance))).message
    return (
        f"{version} {definition}: ours {'accepts' if our_answer else 'rejects'}, "
        f"official {'accepts' if their_answer else 'rejects'} ({reason}): {_describe(instance)}"
    )


@functools.cache
def corpus_by_definition() -> dict[str, list[tuple[str, Any]]]:
    """(source, instance) per definition name, from the hand-written and recorded corpora."""
    by_definition: dict[str, list[tuple[str, Any]]] = defaultdict(list)
    for number, (name, value) in enumerate(corpus.handwritten(), start=1):
        for part_name, part in oracle.route(name, value):
            by_definition[part_name].append((f"handwritten#{number}", part))
    for source, name, value in oracle.recorded_corpus():
        by_definition[name].append((source, value))
    return dict(by_definition)


def test_the_tools_surface_is_compared_in_every_version() -> None:
    for version in VERSIONS:
        required = {
            "Tool",
            "ListToolsRequest",
            "ListToolsResult",
            "CallToolRequest",
            "CallToolResult",
            "JSONRPCMessage",
        }
        required.add("JSONRPCErrorResponse" if version >= "2025-11-25" else "JSONRPCError")
        if "InitializeResult" in oracle.official_definitions(version):
            required |= {"InitializeRequest", "InitializeResult"}
        if version >= "2025-06-18":
            required |= {"ContentBlock", "ResourceLink"}
        assert required <= set(COMMON[version]), (version, sorted(required - set(COMMON[version])))


def test_initialize_is_absent_only_where_the_official_schema_has_none() -> None:
    for version in VERSIONS:
        official = "InitializeResult" in oracle.official_definitions(version)
        assert ("InitializeResult" in _our_definitions(version)) == official, version


def _texts(node: Any, keys: tuple[str, ...]) -> Iterator[str]:
    if isinstance(node, dict):
        for key, value in node.items():
            if key in keys and isinstance(value, str):
                yield value
            else:
                yield from _texts(value, keys)
    elif isinstance(node, list):
        for item in node:
            yield from _texts(item, keys)


def test_no_official_text_is_copied_into_our_schemas() -> None:
    """Our schemas are written from the specification, not copied from its files."""
    official = {
        text.strip()
        for version in VERSIONS
        for text in _texts(oracle.official_document(version), ("description",))
        if len(text.strip()) >= 40
    }
    copied = [
        text
        for path in schemas.schema_files()
        for text in _texts(schemas.load_schema(path), ("description", "$comment", "title"))
        if text.strip() in official
    ]
    assert not copied, copied


@pytest.mark.parametrize(("version", "definition"), CASES, ids=[f"{v}-{d}" for v, d in CASES])
def test_corpus_agrees_with_the_official_schema(version: str, definition: str) -> None:
    instances = corpus_by_definition().get(definition, [])
    instances = instances + [("junk", value) for value in corpus.JUNK]
    problems = [
        f"[{source}] {problem}"
        for source, instance in instances
        if (problem := disagreement(version, definition, instance)) is not None
    ]
    assert not problems, "\n".join(problems[:20])


KEY_DEFINITIONS = (
    "Tool",
    "ListToolsRequest",
    "ListToolsResult",
    "CallToolRequest",
    "CallToolResult",
    "InitializeRequest",
    "InitializeResult",
    "JSONRPCMessage",
    "JSONRPCRequest",
    "JSONRPCNotification",
    "JSONRPCError",
    "JSONRPCErrorResponse",
    "ContentBlock",
    "TextContent",
    "Implementation",
    "ClientCapabilities",
    "ServerCapabilities",
    "CallToolRequestParams",
    "CallToolResultResponse",
    "ListToolsResultResponse",
    "InputRequiredResult",
    "ElicitResult",
    "CreateMessageResult",
    "RequestMetaObject",
    "DiscoverResult",
    "Error",
)


@pytest.mark.parametrize("version", VERSIONS)
def test_the_corpus_has_accepted_and_rejected_instances(version: str) -> None:
    """A corpus that only holds valid (or only invalid) instances would prove little."""
    one_sided = []
    for definition in KEY_DEFINITIONS:
        if definition not in COMMON[version]:
            continue
        official = oracle.official_validator(version, definition)
        answers = {
            official.is_valid(value) for _, value in corpus_by_definition().get(definition, [])
        }
        if answers != {True, False}:
            one_sided.append(f"{definition}: {answers}")
    assert not one_sided, one_sided


def test_recorded_transcripts_are_in_the_corpus() -> None:
    files = oracle.transcript_files()
    if not files:
        pytest.skip(
            "no JSONL transcripts under tests/fixtures/ or the shared transcripts folder "
            f"(${oracle.SHARED_ENV}/transcripts) yet"
        )
    sources = {source.split("#")[0] for source, _, _ in oracle.recorded_corpus()}
    assert sources == {path.name for path in files}


# -- hypothesis: near-valid objects with random mutations ---------------------------------

_scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-3, 3),
    st.floats(-2, 2, allow_nan=False, allow_infinity=False),
    st.text(max_size=3),
)
json_values = st.recursive(
    _scalars,
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner, max_size=3)
    ),
    max_leaves=5,
)
_names = st.sampled_from(["add", "book_flight", "x", ""])
_small_dicts = st.dictionaries(
    st.sampled_from(["k", "trace", "io.example/x"]), json_values, max_size=2
)
_icon = st.fixed_dictionaries(
    {"src": st.just("https://example.com/i.png")},
    optional={
        "mimeType": st.just("image/png"),
        "sizes": st.lists(st.sampled_from(["48x48", "any"]), max_size=2),
        "theme": st.sampled_from(["light", "dark"]),
    },
)
_implementation = st.fixed_dictionaries(
    {"name": _names, "version": st.just("1.0.0")},
    optional={
        "title": st.just("T"),
        "websiteUrl": st.just("https://example.com"),
        "icons": st.lists(_icon, max_size=1),
    },
)
_annotations = st.fixed_dictionaries(
    {},
    optional={
        "audience": st.lists(st.sampled_from(["user", "assistant"]), max_size=2),
        "priority": st.floats(0, 1),
        "lastModified": st.just("2025-01-12T15:00:58Z"),
    },
)
_block_extras = {"annotations": _annotations, "_meta": _small_dicts}
_text = st.fixed_dictionaries(
    {"type": st.just("text"), "text": st.text(max_size=5)}, optional=_block_extras
)
_image = st.fixed_dictionaries(
    {"type": st.just("image"), "data": st.just("aGk="), "mimeType": st.just("image/png")},
    optional=_block_extras,
)
_audio = st.fixed_dictionaries(
    {"type": st.just("audio"), "data": st.just("aGk="), "mimeType": st.just("audio/wav")},
    optional=_block_extras,
)
_link = st.fixed_dictionaries(
    {"type": st.just("resource_link"), "uri": st.just("file:///notes.txt"), "name": _names},
    optional={
        **_block_extras,
        "title": st.just("Notes"),
        "description": st.just("d"),
        "mimeType": st.just("text/plain"),
        "size": st.integers(0, 9),
        "icons": st.lists(_icon, max_size=1),
    },
)
_contents = st.one_of(
    st.fixed_dictionaries(
        {"uri": st.just("file:///a"), "text": st.just("t")},
        optional={"mimeType": st.just("text/plain"), "_meta": _small_dicts},
    ),
    st.fixed_dictionaries(
        {"uri": st.just("file:///b"), "blob": st.just("AA==")},
        optional={"mimeType": st.just("application/octet-stream"), "_meta": _small_dicts},
    ),
)
_embedded = st.fixed_dictionaries(
    {"type": st.just("resource"), "resource": _contents}, optional=_block_extras
)
_content_block = st.one_of(_text, _image, _audio, _link, _embedded)
_result_meta = st.fixed_dictionaries(
    {},
    optional={"io.modelcontextprotocol/serverInfo": _implementation, "trace": st.text(max_size=3)},
)

call_tool_results = st.fixed_dictionaries(
    {"content": st.lists(_content_block, max_size=3)},
    optional={
        "isError": st.booleans(),
        "structuredContent": st.one_of(
            st.dictionaries(st.text(max_size=3), json_values, max_size=2), json_values
        ),
        "_meta": _result_meta,
        "resultType": st.sampled_from(["complete", "input_required"]),
    },
)

_property_schemas = st.one_of(
    st.just({"type": "string"}), st.just({"type": "integer", "minimum": 0}), st.booleans()
)
_object_schemas = st.fixed_dictionaries(
    {"type": st.just("object")},
    optional={
        "properties": st.dictionaries(
            st.sampled_from(["a", "b", "date"]), _property_schemas, max_size=2
        ),
        "required": st.lists(st.sampled_from(["a", "b"]), max_size=2),
        "$schema": st.sampled_from(
            [
                "http://json-schema.org/draft-07/schema#",
                "https://json-schema.org/draft/2020-12/schema",
            ]
        ),
        "additionalProperties": st.booleans(),
    },
)
tools = st.fixed_dictionaries(
    {"name": _names, "inputSchema": _object_schemas},
    optional={
        "title": st.just("Title"),
        "description": st.text(max_size=5),
        "outputSchema": st.one_of(_object_schemas, st.just({})),
        "annotations": st.fixed_dictionaries(
            {},
            optional={
                "title": st.just("T"),
                "readOnlyHint": st.booleans(),
                "destructiveHint": st.booleans(),
                "idempotentHint": st.booleans(),
                "openWorldHint": st.booleans(),
            },
        ),
        "icons": st.lists(_icon, max_size=1),
        "execution": st.fixed_dictionaries(
            {}, optional={"taskSupport": st.sampled_from(["forbidden", "optional", "required"])}
        ),
        "_meta": _small_dicts,
    },
)
list_tools_results = st.fixed_dictionaries(
    {"tools": st.lists(tools, max_size=2)},
    optional={
        "nextCursor": st.text(max_size=3),
        "_meta": _result_meta,
        "resultType": st.just("complete"),
        "cacheScope": st.sampled_from(["private", "public"]),
        "ttlMs": st.integers(0, 9),
    },
)

_capabilities = st.fixed_dictionaries(
    {},
    optional={
        "experimental": st.dictionaries(
            st.text(max_size=3),
            st.dictionaries(st.text(max_size=3), json_values, max_size=2),
            max_size=2,
        ),
        "roots": st.fixed_dictionaries({}, optional={"listChanged": st.booleans()}),
        "sampling": st.fixed_dictionaries(
            {}, optional={"tools": st.just({}), "context": st.just({})}
        ),
        "elicitation": st.fixed_dictionaries(
            {}, optional={"form": st.just({}), "url": st.just({})}
        ),
    },
)
_request_meta = st.fixed_dictionaries(
    {},
    optional={
        "progressToken": st.one_of(st.text(max_size=3), st.integers(0, 9)),
        "io.modelcontextprotocol/protocolVersion": st.just("2026-07-28"),
        "io.modelcontextprotocol/clientCapabilities": _capabilities,
        "io.modelcontextprotocol/clientInfo": _implementation,
        "io.modelcontextprotocol/logLevel": st.sampled_from(["debug", "info", "warning"]),
    },
)
_input_responses = st.one_of(
    st.fixed_dictionaries(
        {"action": st.sampled_from(["accept", "decline", "cancel"])},
        optional={
            "content": st.dictionaries(
                st.text(max_size=3),
                st.one_of(
                    st.text(max_size=3),
                    st.integers(0, 9),
                    st.booleans(),
                    st.floats(0, 1),
                    st.lists(st.text(max_size=2), max_size=2),
                ),
                max_size=2,
            )
        },
    ),
    st.fixed_dictionaries(
        {
            "roots": st.lists(
                st.fixed_dictionaries(
                    {"uri": st.just("file:///r")}, optional={"name": st.text(max_size=3)}
                ),
                max_size=1,
            )
        }
    ),
    st.fixed_dictionaries(
        {
            "role": st.sampled_from(["user", "assistant"]),
            "content": st.one_of(_text, st.lists(_text, max_size=2)),
            "model": st.just("m"),
        }
    ),
)
call_tool_requests = st.fixed_dictionaries(
    {
        "jsonrpc": st.just("2.0"),
        "id": st.one_of(st.integers(0, 99), st.text(max_size=3)),
        "method": st.just("tools/call"),
        "params": st.fixed_dictionaries(
            {"name": _names},
            optional={
                "arguments": st.dictionaries(st.text(max_size=3), json_values, max_size=3),
                "_meta": _request_meta,
                "task": st.fixed_dictionaries({}, optional={"ttl": st.integers(0, 99)}),
                "inputResponses": st.dictionaries(
                    st.text(max_size=2), _input_responses, max_size=2
                ),
                "requestState": st.text(max_size=3),
            },
        ),
    },
)

_EXTRA_KEYS = [
    "extra",
    "isError",
    "structuredContent",
    "_meta",
    "resultType",
    "annotations",
    "id",
    "jsonrpc",
    "params",
    "name",
    "type",
    "content",
    "properties",
    "required",
    "$schema",
    "inputSchema",
    "tools",
]
_BLOCK_TYPES = [
    "text",
    "image",
    "audio",
    "resource",
    "resource_link",
    "tool_use",
    "tool_result",
    "bogus",
    5,
]


def _containers(value: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[tuple[Any, ...], Any]]:
    yield path, value
    children = value.items() if isinstance(value, dict) else enumerate(value)
    for key, child in children:
        if isinstance(child, (dict, list)):
            yield from _containers(child, (*path, key))


def _replace(value: Any, path: tuple[Any, ...], new: Any) -> Any:
    if not path:
        return new
    parent = value
    for key in path[:-1]:
        parent = parent[key]
    parent[path[-1]] = new
    return value


@st.composite
def mutated(draw: st.DrawFn, base: st.SearchStrategy[Any]) -> Any:
    """A value from ``base`` with up to three random mutations: a key dropped, a value
    retyped, an extra key, a content block type changed, or a whole node replaced."""
    value = copy.deepcopy(draw(base))
    for _ in range(draw(st.integers(0, 3))):
        if not isinstance(value, (dict, list)):
            break
        path, node = draw(st.sampled_from(list(_containers(value))))
        operation = draw(st.sampled_from(["drop", "retype", "extra", "block-type", "replace"]))
        if operation == "replace":
            value = _replace(value, path, draw(json_values))
        elif isinstance(node, dict):
            if operation in ("drop", "retype") and node:
                key = draw(st.sampled_from(sorted(node)))
                if operation == "drop":
                    del node[key]
                else:
                    node[key] = draw(json_values)
            elif operation == "extra":
                node[draw(st.sampled_from(_EXTRA_KEYS))] = draw(json_values)
            elif operation == "block-type":
                node["type"] = draw(st.sampled_from(_BLOCK_TYPES))
        elif operation == "drop" and node:
            node.pop(draw(st.integers(0, len(node) - 1)))
        else:
            node.append(draw(json_values))
    return value


def _response(value: Any) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": 1, "result": value}


Targets = Callable[[Any], list[tuple[str, Any]]]
GENERATED: dict[str, tuple[st.SearchStrategy[Any], Targets]] = {
    "CallToolResult": (
        call_tool_results,
        lambda v: [
            *oracle.route("CallToolResult", v),
            *oracle.route("CallToolResultResponse", _response(v)),
            ("JSONRPCMessage", _response(v)),
        ],
    ),
    "CallToolRequest": (
        call_tool_requests,
        lambda v: [
            *oracle.route("CallToolRequest", v),
            ("JSONRPCRequest", v),
            ("JSONRPCMessage", v),
        ],
    ),
    "Tool": (tools, lambda v: list(oracle.route("Tool", v))),
    "ListToolsResult": (
        list_tools_results,
        lambda v: [*oracle.route("ListToolsResult", v), ("ListToolsResultResponse", _response(v))],
    ),
}


@pytest.mark.parametrize("kind", sorted(GENERATED))
@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_generated_instances_agree_with_the_official_schema(kind: str, data: st.DataObject) -> None:
    strategy, targets = GENERATED[kind]
    value = data.draw(mutated(strategy), label=kind)
    problems = [
        problem
        for version in VERSIONS
        for definition, instance in targets(value)
        if definition in COMMON[version]
        and (problem := disagreement(version, definition, instance)) is not None
    ]
    assert not problems, "\n".join(problems)
