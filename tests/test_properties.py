"""Property tests: byte preservation, idempotence, and no crash on any input."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from migrator.api import check_text, fix_text
from migrator.engine.pipeline import Options
from migrator.errors import MigratorError, NotATranscriptError
from migrator.model.source import split_lines
from tests.conftest import examples

SETTINGS = settings(
    max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.too_slow]
)

ids = st.one_of(st.integers(-(2**31), 2**31), st.text(min_size=1, max_size=6))
json_scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.text(max_size=8),
    st.floats(allow_nan=False, allow_infinity=False),
)
arguments = st.dictionaries(st.sampled_from(["a", "b", "city", "ü"]), json_scalars, max_size=3)
versions = st.sampled_from(["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28"])
error_messages = st.sampled_from(
    [
        "Invalid params",
        'MCP error -32602: Invalid arguments for tool add: [{"code":"invalid_type","path":["a"],"message":"Expected number"}]',
        "Tool add not found",
        "Internal error",
        "upstream API failed: HTTP 502",
        '[{"code":"invalid_type","path":["params","arguments"],"message":"Expected object"}]',
        "Dates must be in the future",
    ]
)
TOOLS = [
    {
        "name": "add",
        "inputSchema": {
            "type": "object",
            "properties": {"a": {"type": "number"}},
            "required": ["a"],
        },
    },
    {
        "name": "forecast",
        "inputSchema": {"type": "object", "properties": {"city": {"type": "string"}}},
    },
]


@st.composite
def exchanges(draw: st.DrawFn) -> list[dict[str, Any]]:
    request_id = draw(ids)
    params: dict[str, Any] = {"name": draw(st.sampled_from(["add", "forecast", "missing"]))}
    if draw(st.booleans()):
        params["arguments"] = draw(arguments)
    request = {"jsonrpc": "2.0", "id": request_id, "method": "tools/call", "params": params}
    if draw(st.booleans()):
        response = {
            "jsonrpc": "2.0",
            "id": request_id,
            "error": {
                "code": draw(st.sampled_from([-32602, -32603, -32601, -32000])),
                "message": draw(error_messages),
            },
        }
    else:
        response = {
            "jsonrpc": "2.0",
            "id": request_id,
            "result": {
                "content": [{"type": "text", "text": draw(st.text(max_size=10))}],
                "isError": draw(st.booleans()),
            },
        }
    extra = draw(
        st.sampled_from(
            [
                [],
                [
                    {
                        "jsonrpc": "2.0",
                        "method": "notifications/progress",
                        "params": {"progressToken": 1, "progress": 1},
                    }
                ],
                [{"jsonrpc": "2.0", "id": request_id, "method": "ping"}],
            ]
        )
    )
    return [request, *extra, response]


@st.composite
def transcripts(draw: st.DrawFn) -> str:
    version = draw(versions)
    messages: list[Any] = []
    if draw(st.booleans()):
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
                    "capabilities": {},
                    "serverInfo": {"name": "s", "version": "1"},
                },
            },
        ]
    if draw(st.booleans()):
        messages += [
            {"jsonrpc": "2.0", "id": "list", "method": "tools/list"},
            {"jsonrpc": "2.0", "id": "list", "result": {"tools": TOOLS}},
        ]
    for exchange in draw(st.lists(exchanges(), max_size=6)):
        messages += exchange
    spaced = draw(st.booleans())
    ascii_only = draw(st.booleans())
    separators = (", ", ": ") if spaced else (",", ":")
    lines = [json.dumps(m, separators=separators, ensure_ascii=ascii_only) for m in messages]
    noise = draw(st.lists(st.sampled_from(["", "not json", '{"truncated":']), max_size=2))
    lines += noise
    ending = draw(st.sampled_from(["\n", "\r\n"]))
    text = ending.join(lines)
    if draw(st.booleans()) and text:
        text += ending
    return text


@SETTINGS
@given(transcripts(), st.booleans())
def test_fix_is_idempotent_and_keeps_other_bytes(text: str, unsafe: bool) -> None:
    options = Options(unsafe_fixes=unsafe)
    try:
        after, report = fix_text(text, options=options)
    except NotATranscriptError:  # only noise lines were drawn: nothing that tries to be JSON
        assume(False)
    again, second = fix_text(after, options=options)
    assert again == after
    assert second.fixes == 0
    before_lines, after_lines = split_lines(text), split_lines(after)
    assert len(before_lines) == len(after_lines)
    changed = [i for i, (a, b) in enumerate(zip(before_lines, after_lines, strict=True)) if a != b]
    assert len(changed) <= report.fixes
    for i in changed:
        old, new = before_lines[i], after_lines[i]
        # Only the message changed: the line ending stays, and the id is kept.
        assert old.endswith("\r\n") == new.endswith("\r\n")
        assert json.loads(new)["id"] == json.loads(old)["id"]


@SETTINGS
@given(transcripts())
def test_check_after_fix_finds_no_mcp101(text: str) -> None:
    try:
        after, _ = fix_text(text)
    except NotATranscriptError:  # only noise lines were drawn: nothing that tries to be JSON
        assume(False)
    assert [f for f in check_text(after).findings if f.code == "MCP101"] == []


@settings(max_examples=examples(300), deadline=None)
@given(st.text())
def test_check_never_crashes_and_fix_keeps_text_without_findings(text: str) -> None:
    try:
        report = check_text(text)
    except MigratorError as exc:  # a defined input error (a broken JSON document), with a line
        assert exc.line is not None and str(exc).startswith("<string>:")
        return
    after, fixed = fix_text(text)
    if not fixed.fixes:
        assert after == text
    assert all(f.line >= 1 and f.column >= 1 for f in report.findings)
