"""Inputs that `fix` must leave byte-identical, each with why (the pyupgrade table)."""

from __future__ import annotations

import pytest

from migrator.api import check_text, fix_text
from migrator.engine.pipeline import Options

INIT = (
    '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}\n'
    '{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"s","version":"1"}}}\n'
    '{"jsonrpc":"2.0","id":2,"method":"tools/list"}\n'
    '{"jsonrpc":"2.0","id":2,"result":{"tools":[{"name":"add","inputSchema":{"type":"object","properties":{"a":{"type":"number"}},"required":["a"]}}]}}\n'
)


def call(request_id: object, params: str) -> str:
    return f'{{"jsonrpc":"2.0","id":{request_id},"method":"tools/call","params":{params}}}\n'


NO_OP = [
    pytest.param(
        INIT
        + call(5, '{"name":"nope","arguments":{}}')
        + '{"jsonrpc":"2.0","id":5,"error":{"code":-32602,"message":"MCP error -32602: Tool nope not found"}}\n',
        id="unknown tool stays a protocol error (message says so)",
    ),
    pytest.param(
        INIT
        + call(5, '{"name":"gone","arguments":{}}')
        + '{"jsonrpc":"2.0","id":5,"error":{"code":-32602,"message":"Invalid params"}}\n',
        id="unknown tool stays a protocol error (absent from a complete catalog)",
    ),
    pytest.param(
        INIT
        + call(5, '{"name":"add","arguments":[1,2]}')
        + '{"jsonrpc":"2.0","id":5,"error":{"code":-32602,"message":"Invalid request parameters","data":""}}\n',
        id="malformed request: arguments is an array",
    ),
    pytest.param(
        INIT
        + call(5, '{"arguments":{}}')
        + '{"jsonrpc":"2.0","id":5,"error":{"code":-32603,"message":"[{\\"code\\":\\"invalid_type\\",\\"path\\":[\\"params\\",\\"name\\"],\\"message\\":\\"Required\\"}]"}}\n',
        id="malformed request: name missing, zod path under params",
    ),
    pytest.param(
        INIT
        + call(5, '{"name":"add","arguments":{"a":1}}')
        + '{"jsonrpc":"2.0","id":5,"error":{"code":-32600,"message":"Invalid Request"}}\n',
        id="-32600 invalid request is about the request, not arguments",
    ),
    pytest.param(
        INIT
        + '{"jsonrpc":"2.0","id":5,"method":"tools/frobnicate","params":{}}\n{"jsonrpc":"2.0","id":5,"error":{"code":-32602,"message":"Invalid request parameters"}}\n',
        id="-32602 to a method that is not tools/call is not ours",
    ),
    pytest.param(
        INIT
        + '{"jsonrpc":"2.0","id":5,"method":"resources/read","params":{"uri":"x"}}\n{"jsonrpc":"2.0","id":5,"error":{"code":-32602,"message":"Invalid params"}}\n',
        id="invalid params on resources/read is a protocol error by design",
    ),
    pytest.param(
        INIT
        + call(5, '{"name":"add","arguments":{"a":1}}')
        + '{"jsonrpc":"2.0","id":5,"error":{"code":-32603,"message":"Internal error"}}\n',
        id="a plain internal server error stays a protocol error",
    ),
    pytest.param(
        INIT
        + call(5, '{"name":"add","arguments":{"a":"x"}}')
        + '{"jsonrpc":"2.0","id":5,"result":{"content":[{"type":"text","text":"a must be a number"}],"isError":true}}\n',
        id="already migrated: validation error as isError result",
    ),
    pytest.param(
        INIT
        + call(5, '{"name":"add","arguments":{"a":1}}')
        + '{"jsonrpc":"2.0","id":5,"result":{"content":[{"type":"text","text":"1"}]}}\n',
        id="a successful call",
    ),
    pytest.param(
        '{"jsonrpc":"2.0","id":9,"error":{"code":-32602,"message":"Invalid params"}}\n',
        id="a response whose request is not in the file: the method is unknown",
    ),
    pytest.param(
        INIT
        + call(5, '{"name":"add","arguments":{"a":"x"}}')
        + '{"jsonrpc":"2.0","id":"5","error":{"code":-32602,"message":"Invalid params"}}\n',
        id='id 5 and id "5" are different requests',
    ),
    pytest.param(
        INIT
        + call(5, '{"name":"add","arguments":{"a":"x"}}')
        + '{"jsonrpc":"2.0","id":5,"method":"ping"}\n',
        id="an unanswered call has nothing to rewrite",
    ),
    pytest.param("", id="empty file"),
    pytest.param("\n\n  \n", id="blank lines"),
    pytest.param(
        '{"ts":"t","direction":"client->server","message":{"jsonrpc":"2.0","id":1,"method":"ping"}}\n{"summary":{"messages":1}}\n',
        id="envelope summary line is not a message",
    ),
]


@pytest.mark.parametrize("text", NO_OP)
def test_fix_leaves_input_unchanged(text: str) -> None:
    after, report = fix_text(text, options=Options(unsafe_fixes=True))
    assert after == text
    assert report.fixes == 0


@pytest.mark.parametrize("text", NO_OP)
def test_check_reports_nothing_fixable(text: str) -> None:
    report = check_text(text)
    assert [f.code for f in report.findings if f.fixable] == []


def test_configured_patterns_place_in_house_messages() -> None:
    text = (
        '{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"q","arguments":{}}}\n'
        '{"jsonrpc":"2.0","id":5,"error":{"code":-32000,"message":"E42 bad field"}}\n'
        '{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":"zz","arguments":{}}}\n'
        '{"jsonrpc":"2.0","id":6,"error":{"code":-32602,"message":"no handler for zz"}}\n'
    )
    assert [f.code for f in check_text(text).findings] == ["MCP103"]
    options = Options(
        validation_patterns=(r"^E42 ",), unknown_tool_patterns=(r"^no handler for (?P<tool>\S+)",)
    )
    report = check_text(text, options=options)
    assert [(f.code, f.request_id) for f in report.findings] == [("MCP101", 5)]
    assert "message: configured validation pattern" in report.findings[0].evidence


# An older build (named mcp-migrate) wrote its provenance under dev.mcp-migrate/...
LEGACY_FIXED = [
    pytest.param(
        '{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":"zz","arguments":{}}}\n'
        '{"jsonrpc":"2.0","id":6,"error":{"code":-32602,"message":"no handler for zz","data":{"KEY":{"content":[{"type":"text","text":"no handler for zz"}],"isError":true}}}}\n'.replace(
            "KEY", key
        ),
        id=f"an unknown-tool error a fix made from a result stays ({key})",
    )
    for key in ("dev.mcp-migrate/original-result", "io.github.mcp-transcripts/original-result")
] + [
    pytest.param(
        '{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":"zz","arguments":{}}}\n'
        '{"jsonrpc":"2.0","id":6,"result":{"content":[{"type":"text","text":"Unknown tool: zz"}],"isError":true,"_meta":{"KEY":{"code":-32602,"message":"Unknown tool: zz"}}}}\n'.replace(
            "KEY", key
        ),
        id=f"a result a fix made from an error is not turned back ({key})",
    )
    for key in ("dev.mcp-migrate/original-error", "io.github.mcp-transcripts/original-error")
]


@pytest.mark.parametrize("text", LEGACY_FIXED)
def test_a_file_fixed_by_an_older_build_is_not_fixed_again(text: str) -> None:
    # Without the provenance, both would be rewritten: the first as a validation error
    # (MCP101 from the generic -32602), the second as an unknown tool (MCP102).
    stripped = text.replace('"dev.mcp-migrate/', '"x/').replace(
        '"io.github.mcp-transcripts/', '"x/'
    )
    assert fix_text(stripped, options=Options(unsafe_fixes=True))[1].fixes == 1
    after, report = fix_text(text, options=Options(unsafe_fixes=True))
    assert after == text
    assert report.fixes == 0
