"""Gateway logs and vendor spans: supergateway, Kong, Obot, agentgateway, Envoy, Docker, ContextForge.

The supergateway logs are real (``scripts/record_gateway_logs.py``); the others are built
around a real SDK recording (``scripts/make_gateway_fixtures.py``), see
``tests/fixtures/gateways/README.md``.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from migrator.api import check_file, check_text, fix_text
from migrator.engine.pipeline import Options
from migrator.errors import MigratorError, UnsafeRewriteError
from migrator.model.findings import Severity
from migrator.readers import InputFormat, detect
from migrator.readers.jsliteral import Cut, JsLiteralError, cuts, parse, to_json
from tests.conftest import FIXTURES, examples, run_cli

GATEWAYS = FIXTURES / "gateways"
SUPERGATEWAY = GATEWAYS / "supergateway"
KONG = GATEWAYS / "kong" / "file-log.jsonl"
OBOT = GATEWAYS / "obot" / "mcp-audit-logs" / "2026" / "01" / "15" / "fixture-export.jsonl"
AGENT_JSON = GATEWAYS / "agentgateway" / "access.jsonl"
AGENT_TEXT = GATEWAYS / "agentgateway" / "access.log"
SPANS = GATEWAYS / "spans"
# The 7 -32602 input-validation answers of tests/fixtures/recorded/ts-sdk-1.20.2.jsonl.
RECORDED_IDS = {13, 14, 15, 16, 17, 18, "call-7"}
MODES = ("streamable-stateless", "streamable-stateful", "sse-info", "sse-debug", "ws")


def _ids(path: Path, code: str = "MCP101") -> set[object]:
    report = check_file(path)
    found = {f.request_id for f in report.findings if f.code == code}
    return {int(i) if isinstance(i, str) and i.isdigit() else i for i in found}


def _plain_id(request_id: object) -> object:
    """A WebSocket log's id is the connection's, then the client's: ``"<uuid>:11"``."""
    return int(str(request_id).rsplit(":", 1)[-1]) if request_id is not None else None


# supergateway


@pytest.mark.parametrize("mode", MODES)
def test_supergateway_old_server_every_validation_answer_is_found(mode: str) -> None:
    report = check_file(SUPERGATEWAY / f"{mode}-old.log")
    assert report.format == "supergateway"
    found = [f for f in report.findings if f.code == "MCP101"]
    # 11 (a is a string) and 12 (date missing); 13 is -32602 for an unknown tool, which is right.
    assert sorted(_plain_id(f.request_id) for f in found) == [11, 12]
    assert not [f for f in report.findings if f.code.startswith("MCP3")]  # no line is broken input


@pytest.mark.parametrize("mode", MODES)
def test_supergateway_new_server_has_no_protocol_error_finding(mode: str) -> None:
    report = check_file(SUPERGATEWAY / f"{mode}-new.log")
    assert not [f for f in report.findings if f.code in ("MCP101", "MCP103", "MCP104")]
    assert not [f for f in report.findings if f.code.startswith("MCP3")]


def test_supergateway_findings_point_at_the_log_line_and_column() -> None:
    path = SUPERGATEWAY / "streamable-stateless-old.log"
    lines = path.read_text().splitlines()
    for finding in check_file(path).findings:
        if finding.code == "MCP101":
            line = lines[finding.line - 1]
            assert line.startswith("[supergateway] Child → StreamableHttp: ")
            assert line[finding.column - 1] == "{"  # the message starts there


def test_supergateway_gateway_own_initialize_is_not_the_clients() -> None:
    # Stateless mode initializes each child itself: those messages must not start sessions
    # that lose the client's pending request, nor be answers without a request.
    report = check_file(SUPERGATEWAY / "streamable-stateless-old.log")
    assert not [f for f in report.findings if f.code in ("MCP303", "MCP304")]
    assert "messages the gateway exchanged with its child itself" in report.detection


def test_supergateway_streamable_fix_changes_only_the_validation_answers(tmp_path: Path) -> None:
    for mode in ("streamable-stateless", "streamable-stateful", "ws"):
        source = SUPERGATEWAY / f"{mode}-old.log"
        before = source.read_text()
        after, report = fix_text(before, str(source))
        assert report.fixes == 2
        old_lines, new_lines = before.splitlines(True), after.splitlines(True)
        assert len(old_lines) == len(new_lines)
        changed = [i for i, (a, b) in enumerate(zip(old_lines, new_lines, strict=True)) if a != b]
        assert len(changed) == 2
        for index in changed:
            prefix, _, message = new_lines[index].partition(": ")
            assert prefix.endswith(("Child → StreamableHttp", "Child → WebSocket"))
            payload = json.loads(message)
            assert payload["result"]["isError"] is True and "error" not in payload
        rechecked = check_text(after, str(source))
        assert not [f for f in rechecked.findings if f.code == "MCP101"]


def test_supergateway_fix_diff_cli(in_root: Path) -> None:
    diffed = run_cli(
        "fix", "--diff", "tests/fixtures/gateways/supergateway/streamable-stateful-old.log"
    )
    removed = [line for line in diffed.out.splitlines() if line.startswith("-[")]
    assert len(removed) == 2 and all('"code":-32602' in line for line in removed)


def test_supergateway_sse_is_detect_only(in_root: Path, tmp_path: Path) -> None:
    source = SUPERGATEWAY / "sse-info-old.log"
    report = check_file(source)
    found = [f for f in report.findings if f.code == "MCP101"]
    assert len(found) == 2
    assert all(f.fixable is None for f in found)
    assert all(any(e.startswith("detect only: ") for e in f.evidence) for f in found)
    copy = tmp_path / "sse.log"
    shutil.copy(source, copy)
    refused = run_cli("fix", str(copy))
    assert refused.code == 2 and "fix cannot rewrite this answer" in refused.err
    assert copy.read_bytes() == source.read_bytes()  # nothing written
    assert run_cli("check", str(copy)).code == 1  # check still reports


def test_supergateway_sse_results_hidden_by_inspect_are_passed_over() -> None:
    # At info level tools/list prints its tools as [Object]: judging that catalog would be wrong.
    report = check_file(SUPERGATEWAY / "sse-info-new.log")
    assert "SSE results with parts not printed ([Object])" in report.detection
    assert not [f for f in report.findings if f.code == "MCP102"]  # the debug log shows it
    debug = check_file(SUPERGATEWAY / "sse-debug-new.log")
    assert [f.code for f in debug.findings if f.code == "MCP102"] == ["MCP102"]


def test_supergateway_sse_error_with_depth_cut_says_what_is_missing() -> None:
    text = (
        "[supergateway] Starting...\n"
        '[supergateway] SSE → Child (session s1): {"jsonrpc":"2.0","id":4,"method":"tools/call",'
        '"params":{"name":"add","arguments":{"a":"x"}}}\n'
        "[supergateway] Child → SSE: {\n"
        "  jsonrpc: '2.0',\n"
        "  id: 4,\n"
        "  error: {\n"
        "    code: -32602,\n"
        "    message: 'MCP error -32602: Invalid arguments for tool add: a: Expected number',\n"
        "    data: { issues: [Array] }\n"
        "  }\n"
        "}\n"
    )
    report = check_text(text, "gw.log")
    (finding,) = [f for f in report.findings if f.code == "MCP101"]
    assert finding.line == 3
    assert any("/error/data/issues ([Array])" in e for e in finding.evidence)


def test_supergateway_truncated_literal_is_reported_with_its_line() -> None:
    text = (
        "[supergateway] Starting...\n[supergateway] Child → SSE: {\n  jsonrpc: '2.0',\n  id: 4,\n"
    )
    report = check_text(text, "gw.log")
    assert [(f.code, f.line) for f in report.findings] == [("MCP301", 4)]


# JavaScript literals as util.inspect prints them


def test_js_literal_reads_what_inspect_prints() -> None:
    text = (
        "{\n  result: { content: [ [Object] ], isError: true, 'x-y': undefined, n: 12n },\n"
        "  message: 'a\\'b\\n' +\n    \"c'd\" +\n    `e`,\n  list: [ 1, -2.5, null, ... 3 more items ]\n}"
    )
    value, end = parse(text)
    assert end == len(text)
    assert value["message"] == "a'b\nc'de"
    assert value["result"]["n"] == 12
    assert cuts(value) == ["/result/content/0 ([Object])", "/list/3 (... 3 more items)"]
    assert to_json(value)["result"] == {"content": ["[Object]"], "isError": True, "n": 12}
    assert isinstance(value["result"]["content"][0], Cut)


@pytest.mark.parametrize(
    "text", ["{ a: 1", "{ a 1 }", "{ a: 'x\n' }", "[ 1 2 ]", "{ a: 'x' + }", "'\\u12'"]
)
def test_js_literal_refuses_what_it_is_not(text: str) -> None:
    with pytest.raises(JsLiteralError):
        parse(text)


@settings(max_examples=examples(300), deadline=None)
@given(st.text(alphabet="{}[]:,'\"`+\\ \nab0-.n[Object]undefined", max_size=60))
def test_js_literal_never_crashes(text: str) -> None:
    try:
        parse(text)
    except JsLiteralError as exc:
        assert 0 <= exc.pos <= len(text)


# Kong and Obot: messages inside records, fixed in place


@pytest.mark.parametrize("path", [KONG, OBOT], ids=["kong", "obot"])
def test_records_every_validation_answer_is_found(path: Path) -> None:
    assert _ids(path) == RECORDED_IDS
    report = check_file(path)
    assert not [f for f in report.findings if f.code.startswith("MCP3")]


@pytest.mark.parametrize("path", [KONG, OBOT], ids=["kong", "obot"])
def test_records_fix_keeps_every_other_byte(path: Path) -> None:
    before = path.read_text()
    after, report = fix_text(before, str(path))
    assert report.fixes == len(RECORDED_IDS)
    old_lines, new_lines = before.splitlines(), after.splitlines()
    changed = [i for i, (a, b) in enumerate(zip(old_lines, new_lines, strict=True)) if a != b]
    assert len(changed) == len(RECORDED_IDS)
    for index in changed:
        json.loads(new_lines[index])  # still one JSON record
        old, new = old_lines[index], new_lines[index]
        start = next(i for i, (a, b) in enumerate(zip(old, new, strict=False)) if a != b)
        assert old[:start] == new[:start]  # what comes before the answer is untouched
    assert not [f for f in check_text(after, str(path)).findings if f.code == "MCP101"]


def test_kong_answer_inside_an_sse_string_is_fixed() -> None:
    before = KONG.read_text()
    after, _ = fix_text(before, str(KONG))
    (line,) = [json.loads(x) for x in after.splitlines() if "event: message" in x]
    response = line["ai"]["mcp"]["rpc"][0]["payload"]["response"]
    assert response.startswith("event: message\ndata: {")


def test_obot_inline_body_column_points_at_the_message() -> None:
    lines = OBOT.read_text().splitlines()
    for finding in check_file(OBOT).findings:
        if finding.code == "MCP101":
            rest = lines[finding.line - 1][finding.column - 1 :]
            assert rest.startswith("{") and ('"error"' in rest[:80] or '\\"error\\"' in rest[:80])


def test_obot_html_escapes_stay_valid_after_fix() -> None:
    # Go escapes < > & as \u003c...; the nested-fields entry and the SSE-string entry are fixed too.
    after, _ = fix_text(OBOT.read_text(), str(OBOT))
    for line in after.splitlines():
        json.loads(line)


# agentgateway: pieces, detect only


@pytest.mark.parametrize("path", [AGENT_JSON, AGENT_TEXT], ids=["json", "text"])
def test_agentgateway_every_validation_answer_is_found(path: Path) -> None:
    report = check_file(path)
    assert report.format == "agentgateway"
    found = [f for f in report.findings if f.code == "MCP101"]
    assert len(found) == len(RECORDED_IDS)
    lines = path.read_text().splitlines()
    for finding in found:
        assert finding.request_id == f"line {finding.line}"
        assert "mcp.error.code" in lines[finding.line - 1]
        assert finding.fixable is None
    assert [f.code for f in report.findings] == ["MCP101"] * len(RECORDED_IDS)


def test_agentgateway_fix_refuses(tmp_path: Path) -> None:
    with pytest.raises(UnsafeRewriteError, match="agentgateway logs attributes"):
        fix_text(AGENT_JSON.read_text(), "access.jsonl")


def test_agentgateway_without_logged_error_has_no_finding() -> None:
    line = (
        '{"level":"info","scope":"request","mcp.method.name":"tools/call",'
        '"gen_ai.tool.name":"add","http.status":200}\n'
    )
    report = check_text(line, "a.jsonl")
    assert report.format == "agentgateway" and report.findings == []


# Vendor spans


def test_envoy_int_status_codes() -> None:
    report = check_file(SPANS / "envoy-ai-gateway.jsonl")
    found = [f for f in report.findings if f.code == "MCP401"]
    assert sorted(str(f.request_id) for f in found) == sorted(str(i) for i in RECORDED_IDS)
    assert all(f.severity is not Severity.INFO for f in found)


def test_contextforge_tool_invoke_spans() -> None:
    report = check_file(SPANS / "contextforge.jsonl")
    decided = [
        f for f in report.findings if f.code == "MCP401" and "could not decide" not in f.message
    ]
    assert len(decided) == len(RECORDED_IDS)
    assert all(f.tool in ("add", "book_flight") for f in decided)


def test_docker_spans_say_what_is_missing() -> None:
    report = check_file(SPANS / "docker-mcp-gateway.jsonl")
    undecided = [f for f in report.findings if f.code == "MCP401"]
    assert undecided and all("could not decide" in f.message for f in undecided)
    assert all("no JSON-RPC error code" in f.message for f in undecided)
    assert all(f.severity is Severity.INFO for f in undecided)


def test_unknown_wording_on_a_traced_32602_is_undecided() -> None:
    span = {
        "traceId": "5b8efff798038103d269b633813fc60c", "spanId": "eee19b7ec3c1b174",
        "name": "tools/call add", "kind": "SPAN_KIND_SERVER",
        "attributes": [
            {"key": "mcp.method.name", "value": {"stringValue": "tools/call"}},
            {"key": "gen_ai.tool.name", "value": {"stringValue": "add"}},
            {"key": "rpc.response.status_code", "value": {"stringValue": "-32602"}},
        ],
        "status": {"code": "STATUS_CODE_ERROR", "message": "the frobnicator declined"},
    }  # fmt: skip
    text = json.dumps({"resourceSpans": [{"scopeSpans": [{"spans": [span]}]}]}) + "\n"
    (finding,) = [f for f in check_text(text, "t.jsonl").findings if f.code == "MCP401"]
    assert "could not decide" in finding.message and finding.severity is Severity.INFO


def test_convention_findings_do_not_fail_by_default(in_root: Path) -> None:
    # Docker's spans deviate from the conventions (MCP403, MCP405): reported, exit 0 by default.
    path = "tests/fixtures/gateways/spans/docker-mcp-gateway.jsonl"
    assert run_cli("check", path).code == 0
    assert run_cli("check", "--fail-on", "info", path).code == 1


# Detection, forcing, folders


@pytest.mark.parametrize(
    ("path", "fmt"),
    [
        (SUPERGATEWAY / "sse-info-old.log", InputFormat.SUPERGATEWAY),
        (KONG, InputFormat.KONG),
        (OBOT, InputFormat.OBOT),
        (AGENT_JSON, InputFormat.AGENTGATEWAY),
        (AGENT_TEXT, InputFormat.AGENTGATEWAY),
    ],
)
def test_detected_from_content_and_forceable(path: Path, fmt: InputFormat) -> None:
    head = path.read_text().splitlines(True)[:64]
    detection = detect(head, name="renamed.txt")
    assert detection.reader.name == fmt.value
    forced = check_file(path, Options(input_format=fmt))
    assert forced.format == fmt.value


def test_non_mcp_logs_are_passed_over_in_a_folder(tmp_path: Path) -> None:
    shutil.copytree(GATEWAYS, tmp_path / "gateways")
    shutil.copy(FIXTURES / "recorded" / "ts-sdk-1.20.2.jsonl", tmp_path / "transcript.jsonl")
    (tmp_path / "app.log").write_text(
        '{"level":30,"msg":"server started"}\n{"level":30,"msg":"GET /"}\n'
    )
    (tmp_path / "nginx.log").write_text('127.0.0.1 - - [15/Jan/2026] "GET / HTTP/1.1" 200\n')
    result = run_cli("check", "--output-format", "json", str(tmp_path))
    report = json.loads(result.out)
    files = {Path(f["path"]).name for f in report["files"]} if "files" in report else set()
    paths = {Path(f["path"]).name for f in report["findings"]}
    assert "app.log" not in paths and "nginx.log" not in paths
    for name in ("transcript.jsonl", "file-log.jsonl", "fixture-export.jsonl", "access.log", "access.jsonl",
                 "sse-info-old.log", "contextforge.jsonl"):  # fmt: skip
        assert name in paths or name in files, name
    assert "file error" not in result.err


def test_a_named_non_mcp_log_is_an_error(tmp_path: Path) -> None:
    log = tmp_path / "app.log"
    log.write_text('{"level":30,"msg":"server started"}\n')
    result = run_cli("check", str(log))
    assert result.code == 2 and "not an MCP log" in result.err


def test_wire_lines_in_a_log_are_still_read(tmp_path: Path) -> None:
    log = tmp_path / "mcp-traffic.log"
    shutil.copy(FIXTURES / "recorded" / "ts-sdk-1.20.2.jsonl", log)
    assert _ids(log) == RECORDED_IDS


def test_hostile_gateway_records_never_crash() -> None:
    for text in (
        '{"ai":{"mcp":{"rpc":[{"payload":{"request":"{\\"jsonrpc\\":\\"2.0\\",\\"id\\":"}}]}}}\n',
        '{"ai":{"mcp":{"rpc":"nope"}}}\n{"ai":{"mcp":{"rpc":[1,null,{"payload":[]}]}}}\n',
        '{"callType":"tools/call","requestBody":"data: {\\"jsonrpc\\":\\"2.0\\",\\"id\\":1,"}\n',
        '{"callType":"tools/call","mcpFields":"x","requestBody":[]}\n',
        '{"mcp.method.name":"tools/call","mcp.error.code":"x","mcp.tool.arguments":"{"}\n',
        "t\tinfo\trequest\tmcp.method.name=tools/call mcp.error.code=-32602 mcp.tool.arguments={\n",
    ):
        try:
            check_text(text, "x.log")
            fix_text(text, "x.log")
        except MigratorError as exc:
            assert exc.line is None or exc.line >= 1


@pytest.mark.parametrize(
    "path", sorted(p for p in GATEWAYS.rglob("*") if p.is_file() and p.name != "README.md")
)
def test_no_finding_repeats_an_evidence_line(path: Path) -> None:
    # A reader that makes request and answer from one record notes its gaps on both halves;
    # the finding says each once.
    for finding in check_file(path).findings:
        assert len(finding.evidence) == len(set(finding.evidence)), (finding.code, finding.evidence)
