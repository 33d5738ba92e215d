"""The classifier reads what the session already showed of a tool (issue 28, item 2).

A tool that answered a call exists; an SDK that validated its arguments has it;
an earlier session's listing gives a schema to check against. More evidence
never turns a real protocol error into a conversion: an unknown tool, a
malformed request, a server failure and a ``-32602`` about something other than
the arguments stay as they are. The recordings come from real SDK servers
(``tests/fixtures/recorded/README.md`` says which and how), recorded without
the ``tools/list`` exchange.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from migrator.api import Options, check_text, fix_text
from migrator.engine.options import Mode
from migrator.live.fixer import LiveFixer
from migrator.model.units import Direction
from tests.conftest import RECORDED

MANIFEST = json.loads((RECORDED / "manifest.json").read_text())
UNSAFE = Options(unsafe_fixes=True)


def recording(target: str) -> dict[str, Any]:
    return next(r for r in MANIFEST["recordings"] if r["target"] == target)


def ids(rec: dict[str, Any], category: str) -> set[Any]:
    return {c["id"] for c in rec["calls"] if c["category"] == category}


def call(id_: Any, name: str, arguments: Any) -> str:
    params = {"name": name, "arguments": arguments}
    return json.dumps({"jsonrpc": "2.0", "id": id_, "method": "tools/call", "params": params})


def ok(id_: Any, text: str = "sunny") -> str:
    return json.dumps(
        {"jsonrpc": "2.0", "id": id_, "result": {"content": [{"type": "text", "text": text}]}}
    )


def error(id_: Any, code: int, message: str) -> str:
    return json.dumps({"jsonrpc": "2.0", "id": id_, "error": {"code": code, "message": message}})


def transcript(*lines: str) -> str:
    return "\n".join(lines) + "\n"


TWO_SUCCESSES = (
    call(1, "forecast", {"city": "Paris", "days": 3}),
    ok(1),
    call(2, "forecast", {"city": "Oslo", "days": 1}),
    ok(2),
)


def codes_by_id(text: str, options: Options | None = None) -> dict[Any, list[str]]:
    out: dict[Any, list[str]] = {}
    for finding in check_text(text, options=options).findings:
        out.setdefault(finding.request_id, []).append(finding.code)
    return out


# -- the issue's transcript ---------------------------------------------------------------------


def test_the_issues_forecast_transcript_is_mcp101_with_the_earlier_successes_as_evidence() -> None:
    text = transcript(
        *TWO_SUCCESSES,
        call(3, "forecast", {"city": "Rome", "days": "three"}),
        error(3, -32602, "Input validation error: 'three' is not of type 'integer'"),
        call(4, "forecast", {"days": 2}),
        error(4, -32602, "Missing required argument: city"),
    )
    findings = check_text(text).findings
    assert [(f.request_id, f.code) for f in findings] == [(3, "MCP101"), (4, "MCP101")]
    first, second = (f.evidence for f in findings)
    assert any("answered 2 earlier calls" in line and "line 2" in line for line in first)
    assert any('"days" is a string here, an integer' in line for line in first)
    assert "message: python-jsonschema wording (Python SDK low-level server)" in first
    assert any('"city" is missing here' in line for line in second)
    after, report = fix_text(text)
    assert report.fixes == 2
    texts = [
        json.loads(line)["result"]["content"][0]["text"]
        for line in after.splitlines()
        if '"isError"' in line
    ]
    assert texts == [
        'Invalid arguments for tool forecast:\n- "three" is not an integer at arguments.days',
        "Missing required argument: city",
    ]


def test_without_the_earlier_successes_a_generic_message_stays_mcp103() -> None:
    text = transcript(call(3, "forecast", {"city": "Rome"}), error(3, -32602, "Invalid params"))
    assert codes_by_id(text) == {3: ["MCP103"]}
    with_history = transcript(
        *TWO_SUCCESSES, call(3, "forecast", {"city": "Rome"}), error(3, -32602, "Invalid params")
    )
    assert codes_by_id(with_history) == {3: ["MCP101"]}


def test_an_isError_result_shows_the_tool_ran() -> None:
    ran = json.dumps(
        {
            "jsonrpc": "2.0",
            "id": 1,
            "result": {
                "content": [{"type": "text", "text": "no data for Atlantis"}],
                "isError": True,
            },
        }
    )
    text = transcript(
        call(1, "forecast", {"city": "Atlantis"}),
        ran,
        call(2, "forecast", {}),
        error(2, -32602, "Invalid params"),
    )
    findings = check_text(text).findings
    assert [(f.request_id, f.code) for f in findings] == [(2, "MCP101")]
    assert any("the server ran" in line and "line 2" in line for line in findings[0].evidence)


def test_an_earlier_sessions_listing_is_a_schema_to_check_against() -> None:
    def session(*lines: str) -> list[str]:
        init = json.dumps(
            {
                "jsonrpc": "2.0",
                "id": 0,
                "method": "initialize",
                "params": {
                    "protocolVersion": "2025-06-18",
                    "capabilities": {},
                    "clientInfo": {"name": "c", "version": "1"},
                },
            }
        )
        done = json.dumps(
            {
                "jsonrpc": "2.0",
                "id": 0,
                "result": {
                    "protocolVersion": "2025-06-18",
                    "capabilities": {},
                    "serverInfo": {"name": "s", "version": "1"},
                },
            }
        )
        return [init, done, *lines]

    schema = {"type": "object", "properties": {"days": {"type": "integer"}}, "required": ["days"]}
    listing = [
        json.dumps({"jsonrpc": "2.0", "id": 1, "method": "tools/list"}),
        json.dumps(
            {
                "jsonrpc": "2.0",
                "id": 1,
                "result": {"tools": [{"name": "forecast", "inputSchema": schema}]},
            }
        ),
    ]
    invalid = transcript(
        *session(*listing),
        *session(call(5, "forecast", {"days": "x"}), error(5, -32602, "Invalid params")),
    )
    findings = check_text(invalid).findings
    assert [(f.request_id, f.code) for f in findings if f.code.startswith("MCP1")] == [
        (5, "MCP101")
    ]
    assert any("an earlier session listed it" in line for line in findings[-1].evidence)
    # Valid against the old schema: nothing vouches for the tool in this session.
    valid = transcript(
        *session(*listing),
        *session(call(5, "forecast", {"days": 2}), error(5, -32602, "Invalid params")),
    )
    assert [f.code for f in check_text(valid).findings if f.code.startswith("MCP1")] == ["MCP103"]


def test_an_earlier_listing_is_read_in_the_dialect_of_the_session_that_calls() -> None:
    # The listing came in a 2025-06-18 session (draft-07, which ignores prefixItems) and
    # was used there; the failing call is in a 2025-11-25 session (2020-12): its arguments
    # break the schema as 2020-12 reads it, so the -32602 is an input validation failure.
    def handshake(request_id: int, version: str) -> list[str]:
        params = {"protocolVersion": version, "capabilities": {}, "clientInfo": {"name": "c"}}
        result = {"protocolVersion": version, "capabilities": {}, "serverInfo": {"name": "s"}}
        return [
            json.dumps(
                {"jsonrpc": "2.0", "id": request_id, "method": "initialize", "params": params}
            ),
            json.dumps({"jsonrpc": "2.0", "id": request_id, "result": result}),
        ]

    schema = {
        "type": "object",
        "properties": {"xs": {"type": "array", "prefixItems": [{"type": "string"}]}},
    }
    tools = {"tools": [{"name": "tag", "inputSchema": schema}]}
    text = transcript(
        *handshake(0, "2025-06-18"),
        json.dumps({"jsonrpc": "2.0", "id": 1, "method": "tools/list"}),
        json.dumps({"jsonrpc": "2.0", "id": 1, "result": tools}),
        call(2, "tag", {"xs": [1]}),  # valid as draft-07 reads the schema
        ok(2),
        *handshake(10, "2025-11-25"),
        call(11, "tag", {"xs": [1]}),
        error(11, -32602, "Invalid params"),
    )
    findings = check_text(text).findings
    assert [(f.request_id, f.code) for f in findings] == [(11, "MCP101")]
    assert any("1 is not a string at arguments.xs[0]" in line for line in findings[0].evidence)


# -- real recordings -----------------------------------------------------------------------------


def test_python_low_level_server_errors_without_a_catalog() -> None:
    rec = recording("py-lowlevel-errors")
    before = (RECORDED / rec["file"]).read_text()
    found = codes_by_id(before, UNSAFE)
    invalid = ids(rec, "invalid-arguments")
    assert invalid and {i for i, codes in found.items() if "MCP101" in codes} == invalid
    # A failing backend (-32603), an unknown tool (-32602 "Unknown tool: ...") and the malformed
    # calls are left alone, although "forecast" answered calls before each of them.
    for category in ("tool-error", "unknown-tool", "malformed"):
        for call_id in ids(rec, category):
            assert not [c for c in found.get(call_id, []) if c.startswith("MCP10")], (
                category,
                call_id,
            )
    after, report = fix_text(before, options=UNSAFE)
    assert report.fixes == len(invalid)
    kept = {json.loads(line).get("id"): line for line in after.splitlines()}
    for call_id in ids(rec, "tool-error") | ids(rec, "unknown-tool") | ids(rec, "malformed"):
        original = [line for line in before.splitlines() if json.loads(line).get("id") == call_id][
            -1
        ]
        assert kept[call_id] == original


def test_python_low_level_texts_are_in_json_terms() -> None:
    rec = recording("py-lowlevel-errors")
    after, _ = fix_text((RECORDED / rec["file"]).read_text())
    texts = {
        message["id"]: message["result"]["content"][0]["text"]
        for message in map(json.loads, after.splitlines())
        if isinstance(message.get("result"), dict) and message["result"].get("isError")
    }
    assert (
        texts[16]
        == 'Invalid arguments for tool get_stock:\n- "abc-12" does not match the pattern ^[A-Z]{3}-\\d{4}$ at arguments.sku'
    )
    assert (
        texts[17]
        == "Invalid arguments for tool reserve:\n- 0 is less than the minimum of 1 at arguments.qty"
    )
    assert (
        texts[18]
        == 'Invalid arguments for tool reserve:\n- "rent" is not one of ["hold", "buy"] at arguments.mode'
    )
    assert (
        texts[19]
        == 'Invalid arguments for tool reserve:\n- additional property "gift" is not allowed at arguments'
    )
    for text in texts.values():
        assert "'" not in text and "\\\\" not in text


def test_typescript_errors_about_something_other_than_the_arguments_stay() -> None:
    rec = recording("ts-sdk-session")
    before = (RECORDED / rec["file"]).read_text()
    found = codes_by_id(before, UNSAFE)
    assert {i for i, codes in found.items() if "MCP101" in codes} == ids(rec, "invalid-arguments")
    # "Tool report has an output schema but no structured content was provided" after report
    # answered a call, and "Tool legacy disabled": -32602, but not about the arguments.
    others = ids(rec, "output-error") | ids(rec, "disabled-tool") | ids(rec, "unknown-tool")
    assert len(others) == 3
    for call_id in others:
        assert not [c for c in found.get(call_id, []) if c.startswith("MCP10")], call_id
    after, _ = fix_text(before, options=UNSAFE)
    lines = {
        json.loads(line).get("id"): line
        for line in after.splitlines()
        if "error" in json.loads(line)
    }
    for call_id in others:
        assert '"error"' in lines[call_id]


def test_sdk_low_level_isError_results_need_no_fix() -> None:
    rec = recording("py-lowlevel")
    found = codes_by_id((RECORDED / rec["file"]).read_text())
    assert not [c for codes in found.values() for c in codes if c in {"MCP101", "MCP103", "MCP104"}]


# -- the hard constraint, one case each, after two successes of the same tool ------------------


@pytest.mark.parametrize(
    ("case", "request_arguments", "code", "message"),
    [
        (
            "unknown tool (TypeScript SDK)",
            {"city": "Rome"},
            -32602,
            "MCP error -32602: Tool forecast not found",
        ),
        ("unknown tool (Python SDK)", {"city": "Rome"}, -32602, "Unknown tool: forecast"),
        (
            "disabled tool (TypeScript SDK)",
            {"city": "Rome"},
            -32602,
            "MCP error -32602: Tool forecast disabled",
        ),
        ("malformed request (arguments an array)", [1, 2], -32602, "Invalid request parameters"),
        (
            "malformed request (Python SDK words)",
            {"city": "Rome"},
            -32602,
            "Invalid request parameters",
        ),
        (
            "server failure",
            {"city": "Atlantis"},
            -32603,
            "forecast backend unavailable: upstream timed out",
        ),
        ("server failure, no words", {"city": "Rome"}, -32603, "Internal error"),
        (
            "output, not arguments (TypeScript SDK 1.20)",
            {"city": "Rome"},
            -32602,
            "MCP error -32602: Tool forecast has an output schema but no structured content was provided",
        ),
        (
            "output, not arguments (TypeScript SDK 1.21+)",
            {"city": "Rome"},
            -32602,
            "MCP error -32602: Output validation error: Invalid structured content for tool forecast: bad",
        ),
        (
            "request state (Python SDK 2.x)",
            {"city": "Rome"},
            -32602,
            "Invalid or expired requestState",
        ),
        ("method not found", {"city": "Rome"}, -32601, "Method not found"),
    ],
)
def test_more_evidence_never_converts_a_protocol_error(
    case: str, request_arguments: Any, code: int, message: str
) -> None:
    text = transcript(
        *TWO_SUCCESSES, call(3, "forecast", request_arguments), error(3, code, message)
    )
    found = codes_by_id(text, UNSAFE).get(3, [])
    assert not [c for c in found if c in {"MCP101", "MCP103", "MCP104"}], case
    after, report = fix_text(text, options=UNSAFE)
    assert after == text and report.fixes == 0, case


def test_an_earlier_unknown_tool_answer_is_evidence_too() -> None:
    text = transcript(
        call(1, "forecast", {"city": "Paris"}),
        error(1, -32602, "Unknown tool: forecast"),
        call(2, "forecast", {"city": "Rome"}),
        error(2, -32602, "Invalid params"),
    )
    assert codes_by_id(text, UNSAFE) == {}  # without the first answer: MCP103, fixable unsafely
    assert codes_by_id(transcript(*text.splitlines()[2:]), UNSAFE) == {2: ["MCP103"]}


# -- the text the model reads (item 3) -----------------------------------------------------------

STOCK_SCHEMA = {
    "type": "object",
    "properties": {
        "sku": {"type": "string", "pattern": "^[A-Z]{3}-\\d{4}$"},
        "qty": {"type": "integer", "minimum": 1},
    },
    "required": ["sku"],
}
LISTING = (
    json.dumps({"jsonrpc": "2.0", "id": 1, "method": "tools/list"}),
    json.dumps(
        {
            "jsonrpc": "2.0",
            "id": 1,
            "result": {"tools": [{"name": "get_stock", "inputSchema": STOCK_SCHEMA}]},
        }
    ),
)


def fixed_text(text: str) -> str:
    after, report = fix_text(text)
    assert report.fixes == 1
    return str(json.loads(after.splitlines()[-1])["result"]["content"][0]["text"])


def test_a_detail_the_server_gave_is_not_repeated() -> None:
    text = transcript(
        *LISTING,
        call(2, "get_stock", {"sku": "abc-12"}),
        error(2, -32602, "Invalid params: sku must match ^[A-Z]{3}-\\d{4}$"),
    )
    assert fixed_text(text) == "Invalid params (tool get_stock): sku must match ^[A-Z]{3}-\\d{4}$"


def test_a_detail_adds_the_problems_it_does_not_name() -> None:
    text = transcript(
        *LISTING,
        call(2, "get_stock", {"sku": "abc-12", "qty": 0}),
        error(2, -32602, "Invalid params: sku must match ^[A-Z]{3}-\\d{4}$"),
    )
    assert fixed_text(text) == (
        "Invalid params (tool get_stock): sku must match ^[A-Z]{3}-\\d{4}$\n"
        "- 0 is less than the minimum of 1 at arguments.qty"
    )


def test_the_proxy_writes_one_sentence_per_problem() -> None:
    logged: list[str] = []
    fixer = LiveFixer("<proxy>", Options(mode=Mode.FIX), logged.append, quiet=True)
    lines = [
        (LISTING[0], Direction.CLIENT_TO_SERVER),
        (LISTING[1], Direction.SERVER_TO_CLIENT),
        (call(2, "get_stock", {"sku": "ABC-1234", "qty": 0}), Direction.CLIENT_TO_SERVER),
        (
            error(2, -32602, "Invalid params: 0 is less than the minimum of 1"),
            Direction.SERVER_TO_CLIENT,
        ),
    ]
    out = [fixer((line + "\n").encode(), direction) for line, direction in lines]
    result = json.loads(out[-1])["result"]
    assert result["content"][0]["text"] == (
        "Invalid arguments for tool get_stock:\n- 0 is less than the minimum of 1 at arguments.qty"
    )


def test_a_second_fix_changes_nothing_the_first_left() -> None:
    """A result an earlier fix wrote is not evidence that the tool ran."""
    text = transcript(
        call(0, "forecast", {"days": "three"}),
        error(0, -32602, "Invalid arguments for tool forecast: days must be a number"),
        call(1, "forecast", {"days": "three"}),
        error(1, -32602, "Invalid params"),
    )
    after, first = fix_text(text)
    assert first.fixes == 1
    again, second = fix_text(after)
    assert again == after and second.fixes == 0
