"""OpenTelemetry traces (OTLP JSON): reading, the span model, the MCP4xx rules, and the CLI.

The recorded traces in tests/fixtures/traces/ come from scripts/record_traces.py: the Python
SDK 2.3.0 client, traced by the OpenTelemetry SDK, against real servers. Hand-written spans
below cover only edge cases the real SDKs do not produce.
"""

from __future__ import annotations

import base64
import gzip
import json
from pathlib import Path
from typing import Any

import pytest

from migrator import api
from migrator.engine.pipeline import Options
from migrator.model.spans import SEMCONV_RELEASE
from migrator.readers import InputFormat
from tests.conftest import FIXTURES, ROOT, run_cli

TRACES = FIXTURES / "traces"
OLD = TRACES / "ts-sdk-1.20.2.otlp.jsonl"
NEW = TRACES / "ts-sdk-1.32.2.otlp.jsonl"
PY = TRACES / "py-sdk-2.3.0.otlp.jsonl"
MANIFEST = json.loads((TRACES / "manifest.json").read_text(encoding="utf-8"))


def spans_in(path: Path) -> list[tuple[int, dict[str, Any]]]:
    """(line, span) for every span of a trace file, straight from the JSON."""
    out = []
    for line_no, text in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        for resource in json.loads(text)["resourceSpans"]:
            for scope in resource["scopeSpans"]:
                out.extend((line_no, span) for span in scope["spans"])
    return out


def attribute(span: dict[str, Any], key: str) -> Any:
    for entry in span.get("attributes", []):
        if entry["key"] == key:
            return next(iter(entry["value"].values()))
    return None


def check_json(*argv: str) -> dict[str, Any]:
    result = run_cli("check", "--output-format", "json", *argv)
    assert result.code in (0, 1), result.err
    document: dict[str, Any] = json.loads(result.out)
    return document


# ------------------------------------------------------------------------------------------
# The real traces


def test_old_server_every_validation_span_and_nothing_else() -> None:
    calls = MANIFEST["traces"][OLD.name]["calls"]
    assert MANIFEST["traces"][OLD.name]["invalid_arguments"] == "JSON-RPC error -32602"
    # Request ids follow the plan: initialize 1, tools/list 2, then the calls in order.
    invalid = {
        str(n)
        for n, call in enumerate(calls, start=1)
        if call.get("exercises", "").startswith("invalid:")
    }
    assert len(invalid) == 7
    assert all(calls[int(n) - 1]["answer"] == "JSON-RPC error -32602" for n in invalid)

    document = check_json(str(OLD))
    validation = [f for f in document["findings"] if f["code"] == "MCP401"]
    assert {f["request_id"] for f in validation} == invalid
    assert len(validation) == len(invalid)
    # The span each finding names is the span on that line, with that id.
    by_id = {span["spanId"]: (line, span) for line, span in spans_in(OLD)}
    for finding in validation:
        line, span = by_id[finding["span_id"]]
        assert finding["line"] == line
        assert finding["trace_id"] == span["traceId"]
        assert attribute(span, "jsonrpc.request.id") == finding["request_id"]
        assert attribute(span, "error.type") == "-32602"
        assert finding["severity"] == "warning"  # no protocol version on the client's spans
        assert any(e.startswith("confidence high") for e in finding["evidence"])
    # Anything else is the client instrumentation's own deviation, reported once each.
    others = sorted(f["code"] for f in document["findings"] if f["code"] != "MCP401")
    assert others == ["MCP403", "MCP406"]


def test_new_servers_have_no_validation_findings() -> None:
    for path in (NEW, PY):
        codes = {f["code"] for f in check_json(str(path))["findings"]}
        assert "MCP401" not in codes and "MCP402" not in codes, path


def test_unknown_tool_and_tool_failure_are_not_validation_failures() -> None:
    document = check_json("--select", "MCP401", str(OLD))
    tools = {f["tool"] for f in document["findings"]}
    assert "no_such_tool" not in tools and "divide" not in tools


def test_selecting_the_family_and_explain() -> None:
    result = run_cli("check", "--select", "MCP401", str(OLD))
    assert result.code == 1 and result.out.count(" MCP401 ") == 7
    explained = run_cli("explain", "MCP401")
    assert explained.code == 0 and "## Before" in explained.out and SEMCONV_RELEASE in explained.out


def test_client_and_server_spans_are_joined(tmp_path: Path) -> None:
    # The Python SDK server propagates trace context: each server span's parent is the client's.
    report = api.check_file(PY, Options(selected=frozenset({"MCP403"})))
    assert report.format == "otlp-json"
    found = list(report.findings)
    assert len(found) == 1 and any("joined with server span" in e for e in found[0].evidence)


def test_sarif_logical_location_names_trace_and_span() -> None:
    result = run_cli("check", "--output-format", "sarif", "--select", "MCP401", str(OLD))
    sarif = json.loads(result.out)
    results = sarif["runs"][0]["results"]
    assert len(results) == 7
    for item in results:
        (logical,) = item["locations"][0]["logicalLocations"]
        assert logical["kind"] == "span"
        assert (
            logical["fullyQualifiedName"]
            == f"trace/{item['properties']['traceId']}/span/{logical['name']}"
        )


def test_jsonl_output_carries_ids_and_transcripts_do_not() -> None:
    result = run_cli("check", "--output-format", "jsonl", "--select", "MCP401", str(OLD))
    rows = [json.loads(line) for line in result.out.splitlines()]
    assert rows and all(len(r["trace_id"]) == 32 and len(r["span_id"]) == 16 for r in rows)
    transcript = run_cli(
        "check", "--output-format", "jsonl", str(FIXTURES / "recorded" / "ts-sdk-1.20.2.jsonl")
    )
    assert all("span_id" not in json.loads(line) for line in transcript.out.splitlines())


def test_json_document_validates_against_the_findings_schema() -> None:
    import jsonschema

    schema = json.loads((ROOT / "schemas" / "findings.schema.json").read_text(encoding="utf-8"))
    jsonschema.validate(check_json(str(OLD)), schema)


# ------------------------------------------------------------------------------------------
# Other layouts of the same export requests


def test_pretty_printed_document_locates_spans_by_line(tmp_path: Path) -> None:
    requests = [json.loads(line) for line in OLD.read_text(encoding="utf-8").splitlines()]
    merged = {"resourceSpans": [rs for r in requests for rs in r["resourceSpans"]]}
    target = tmp_path / "trace.json"
    target.write_text(json.dumps(merged, indent=2) + "\n", encoding="utf-8")
    document = check_json("--select", "MCP401", str(target))
    text = target.read_text(encoding="utf-8").splitlines()
    assert len(document["findings"]) == 7
    for finding in document["findings"]:
        assert f'"spanId": "{finding["span_id"]}"' in text[finding["line"] - 1]


def test_base64_ids_and_numeric_enums(tmp_path: Path) -> None:
    lines = []
    for text in OLD.read_text(encoding="utf-8").splitlines():
        request = json.loads(text)
        for resource in request["resourceSpans"]:
            for scope in resource["scopeSpans"]:
                for span in scope["spans"]:
                    for key in ("traceId", "spanId", "parentSpanId"):
                        if span.get(key):
                            span[key] = base64.b64encode(bytes.fromhex(span[key])).decode()
                    span["kind"] = 3
                    if "status" in span:
                        span["status"]["code"] = (
                            2 if span["status"].get("code") == "STATUS_CODE_ERROR" else 0
                        )
        lines.append(json.dumps(request))
    target = tmp_path / "trace.jsonl"
    target.write_text("\n".join(lines) + "\n", encoding="utf-8")
    ids = {f["span_id"] for f in check_json("--select", "MCP401", str(OLD))["findings"]}
    assert {f["span_id"] for f in check_json("--select", "MCP401", str(target))["findings"]} == ids


def test_gzip_and_truncated_gzip(tmp_path: Path) -> None:
    packed = gzip.compress(OLD.read_bytes())
    whole = tmp_path / "trace.otlp.jsonl.gz"
    whole.write_bytes(packed)
    assert len(check_json("--select", "MCP401", str(whole))["findings"]) == 7
    cut = tmp_path / "cut.otlp.jsonl.gz"
    cut.write_bytes(packed[: len(packed) // 2])
    result = run_cli("check", str(cut))
    assert result.code == 2
    assert str(cut) in result.err and "truncated" in result.err
    assert "Traceback" not in result.err


def test_forced_input_format() -> None:
    assert InputFormat("otlp-json") is InputFormat.OTLP_JSON
    result = run_cli("check", "--input-format", "otlp-json", "--select", "MCP401", str(OLD))
    assert result.out.count(" MCP401 ") == 7


# ------------------------------------------------------------------------------------------
# fix


def test_fix_on_a_trace_says_why_and_writes_nothing(tmp_path: Path) -> None:
    target = tmp_path / "trace.otlp.jsonl"
    target.write_bytes(OLD.read_bytes())
    for argv in (("fix", str(target)), ("fix", "--diff", str(target))):
        result = run_cli(*argv)
        assert result.code == 2
        assert "fix does not apply to traces" in result.err and str(target) in result.err
        assert result.out == ""
    assert target.read_bytes() == OLD.read_bytes()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["trace.otlp.jsonl"]


# ------------------------------------------------------------------------------------------
# Hand-written edge cases


def span(
    name: str,
    attributes: dict[str, Any],
    *,
    kind: int = 3,
    span_id: str = "00f067aa0ba902b7",
    parent: str = "",
    trace_id: str = "4bf92f3577b34da6a3ce929d0e0e4736",
    status: dict[str, Any] | None = None,
    raw_attributes: list[Any] | None = None,
) -> dict[str, Any]:
    def value(v: Any) -> dict[str, Any]:
        if isinstance(v, bool):
            return {"boolValue": v}
        if isinstance(v, int):
            return {"intValue": str(v)}
        return {"stringValue": v}

    encoded = [{"key": k, "value": value(v)} for k, v in attributes.items()]
    return {
        "traceId": trace_id,
        "spanId": span_id,
        "parentSpanId": parent,
        "name": name,
        "kind": kind,
        "attributes": encoded + (raw_attributes or []),
        "status": status or {},
    }


def request(*spans: dict[str, Any], service: str = "weather-server") -> str:
    resource = {"attributes": [{"key": "service.name", "value": {"stringValue": service}}]}
    return json.dumps(
        {
            "resourceSpans": [
                {
                    "resource": resource,
                    "scopeSpans": [{"scope": {"name": "x"}, "spans": list(spans)}],
                }
            ]
        }
    )


CALL = {"mcp.method.name": "tools/call", "gen_ai.tool.name": "add", "jsonrpc.request.id": "4"}
INVALID = {
    "code": 2,
    "message": 'MCP error -32602: Invalid arguments for tool add: [{"code":"invalid_type","expected":"number","received":"string","path":["a"],"message":"Expected number, received string"}]',
}
INVALID_ATTRS = {**CALL, "error.type": "-32602", "rpc.response.status_code": "-32602"}


def check_lines(tmp_path: Path, *lines: str, select: str = "MCP4,MCP3") -> list[dict[str, Any]]:
    target = tmp_path / "t.otlp.jsonl"
    target.write_text("\n".join(lines) + "\n", encoding="utf-8")
    argv = [a for code in select.split(",") for a in ("--select", code)]
    findings: list[dict[str, Any]] = check_json(*argv, str(target))["findings"]
    return findings


def test_joined_call_reported_once_with_the_servers_version_and_name(tmp_path: Path) -> None:
    client = span("tools/call add", INVALID_ATTRS, span_id="1111111111111111", status=INVALID)
    server = span(
        "tools/call add", {**INVALID_ATTRS, "mcp.protocol.version": "2025-11-25"},
        kind=2, span_id="2222222222222222", parent="1111111111111111", status=INVALID,
    )  # fmt: skip
    found = check_lines(
        tmp_path, request(server), request(client, service="agent"), select="MCP401"
    )
    assert len(found) == 1
    (finding,) = found
    assert finding["span_id"] == "2222222222222222" and finding["severity"] == "error"
    assert "by weather-server" in finding["message"]


def test_protocol_version_from_the_sessions_initialize_span(tmp_path: Path) -> None:
    session = {"mcp.session.id": "s1"}
    init = span(
        "initialize",
        {
            "mcp.method.name": "initialize",
            "jsonrpc.request.id": "1",
            "mcp.protocol.version": "2025-11-25",
            **session,
        },
        kind=2,
        span_id="3333333333333333",
    )
    call = span(
        "tools/call add",
        {**INVALID_ATTRS, **session},
        kind=2,
        span_id="4444444444444444",
        status=INVALID,
    )
    (finding,) = check_lines(tmp_path, request(init), request(call), select="MCP401")
    assert finding["severity"] == "error"
    assert any("initialize span 3333333333333333" in e for e in finding["evidence"])


def test_server_errors_and_unknown_tools_are_not_validation(tmp_path: Path) -> None:
    internal = span(
        "tools/call add",
        {**CALL, "error.type": "-32603"},
        status={"code": 2, "message": "MCP error -32603: database connection refused"},
    )
    unknown = span(
        "tools/call nope",
        {**CALL, "gen_ai.tool.name": "nope", "error.type": "-32602"},
        span_id="5555555555555555",
        status={"code": 2, "message": "MCP error -32602: Tool nope not found"},
    )
    assert check_lines(tmp_path, request(internal), request(unknown), select="MCP401") == []


def test_tool_error_result_without_error_type(tmp_path: Path) -> None:
    result = json.dumps(
        {"content": [{"type": "text", "text": "division by zero"}], "isError": True}
    )
    bad = span("tools/call add", {**CALL, "gen_ai.tool.call.result": result})
    good = span(
        "tools/call add",
        {**CALL, "gen_ai.tool.call.result": result, "error.type": "tool_error"},
        span_id="6666666666666666",
        status={"code": 2},
    )
    found = check_lines(tmp_path, request(bad), request(good), select="MCP402")
    assert [f["span_id"] for f in found] == ["00f067aa0ba902b7"]


def test_convention_deviations(tmp_path: Path) -> None:
    odd = span(
        "mcp.call_tool",
        {"mcp.tool.name": "add", "jsonrpc.request.id": 7},
        raw_attributes=[{"key": "server.port", "value": "8080"}, {"value": {"stringValue": "x"}}],
    )
    found = check_lines(tmp_path, request(odd), select="MCP40")
    by_code: dict[str, list[str]] = {}
    for f in found:
        by_code.setdefault(f["code"], []).append(f["message"])
    assert any("mcp.method.name (required)" in m for m in by_code["MCP403"])
    assert any(
        "jsonrpc.request.id is int 7, the conventions say string" in m for m in by_code["MCP404"]
    )
    assert any("server.port" in m and "not an OTLP AnyValue" in m for m in by_code["MCP404"])
    assert any("without a string key" in m for m in by_code["MCP404"])
    assert any(
        "mcp.tool.name is not a defined attribute; the conventions name it gen_ai.tool.name" in m
        for m in by_code["MCP405"]
    )


def test_span_name_rule(tmp_path: Path) -> None:
    named = span("tools/call add", CALL)
    misnamed = span("call add", CALL, span_id="7777777777777777")
    found = check_lines(tmp_path, request(named), request(misnamed), select="MCP406")
    assert [
        (f["span_id"], f["message"].endswith('should be named "tools/call add"')) for f in found
    ] == [("7777777777777777", True)]


def test_bad_lines_are_findings_with_their_line(tmp_path: Path) -> None:
    good = request(span("tools/call add", INVALID_ATTRS, status=INVALID))
    found = check_lines(
        tmp_path, good, "{not json", '{"resourceMetrics": []}', '{"resourceSpans": 3}', good
    )
    codes = [(f["code"], f["line"]) for f in found if f["code"] in ("MCP301", "MCP407", "MCP401")]
    assert codes == [("MCP401", 1), ("MCP301", 2), ("MCP407", 3), ("MCP407", 4), ("MCP401", 5)]


def test_non_mcp_spans_are_ignored(tmp_path: Path) -> None:
    plain = span("GET /health", {"http.request.method": "GET"}, kind=2)
    call = span("tools/call add", CALL, span_id="00f067aa0ba902b8")
    assert check_lines(tmp_path, request(plain, call), select="MCP4") == []
    # A trace of nothing but other spans holds no MCP traffic: named, it is said so (issue 28).
    target = tmp_path / "plain.otlp.jsonl"
    target.write_text(request(plain) + "\n", encoding="utf-8")
    named = run_cli("check", str(target))
    assert named.code == 2 and "holds no MCP spans" in named.err


@pytest.mark.parametrize("text", ['{"resourceSpans": []}', '{\n  "resourceSpans": []\n}'])
def test_detected_in_both_layouts(tmp_path: Path, text: str) -> None:
    target = tmp_path / "t.json"
    target.write_text(text + "\n", encoding="utf-8")
    report = api.check_file(target)
    assert (report.format, len(report.findings)) == ("otlp-json", 0)


# ------------------------------------------------------------------------------------------
# The how-to, as written


def test_how_to_collector_config_and_workflow(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import yaml

    examples = ROOT / "docs" / "examples" / "traces"
    collector = yaml.safe_load((examples / "otel-collector.yaml").read_text(encoding="utf-8"))
    pipelines = collector["service"]["pipelines"]
    assert list(pipelines) == ["traces"] and pipelines["traces"]["exporters"] == ["file/traces"]
    written = Path(collector["exporters"]["file/traces"]["path"])

    workflow = yaml.safe_load((examples / "github-actions.yml").read_text(encoding="utf-8"))
    steps = workflow["jobs"]["traces"]["steps"]
    action = next(s for s in steps if str(s.get("uses", "")).startswith("mcp-transcripts/"))
    mounted = next(s for s in steps if "docker run" in s.get("run", ""))["run"]
    assert f'"$PWD/{action["with"]["paths"].rstrip("/")}:{written.parent}"' in mounted

    # What the Collector wrote, where the workflow mounts it; then the action's two commands.
    folder = tmp_path / action["with"]["paths"]
    folder.mkdir()
    (folder / written.name).write_bytes(OLD.read_bytes())
    monkeypatch.chdir(tmp_path)
    args = action["with"]["args"].split()
    sarif = run_cli(
        "check",
        "--quiet",
        "--output-format",
        "sarif",
        "--fail-on",
        "never",
        *args,
        "--",
        action["with"]["paths"],
    )
    assert (
        len(json.loads(sarif.out)["runs"][0]["results"]) == 9
    )  # the action ignores this exit code
    annotations = run_cli(
        "check", "--output-format", "github", *args, "--", action["with"]["paths"]
    )
    assert annotations.code == 1
    assert annotations.out.count("MCP401") == 7 and annotations.out.count("::warning") == 7
    # The instrumentation rules (MCP403-MCP406) report as notices: they do not fail CI by default.
    assert annotations.out.count("::notice") == 2


def test_gzip_traces_are_found_in_folders(tmp_path: Path) -> None:
    (tmp_path / "mcp.otlp.jsonl.gz").write_bytes(gzip.compress(OLD.read_bytes()))
    assert [p.name for p in api.iter_transcripts([tmp_path])] == ["mcp.otlp.jsonl.gz"]


def _paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [prefix]
    if isinstance(value, dict):
        for key, item in value.items():
            out += _paths(item, (*prefix, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            out += _paths(item, (*prefix, index))
    return out


def test_any_member_of_a_real_span_replaced_by_a_wrong_type_is_reported_not_raised() -> None:
    import copy

    line = next(text for text in OLD.read_text(encoding="utf-8").splitlines() if "-32602" in text)
    original = json.loads(line)
    wrong = [None, 7, "x", [1], {"a": 1}, {"stringValue": 3}]
    for path in _paths(original)[1:]:
        for value in wrong:
            mutated = copy.deepcopy(original)
            holder = mutated
            for key in path[:-1]:
                holder = holder[key]
            holder[path[-1]] = value
            report = api.check_text(json.dumps(mutated) + "\n", "t.otlp.jsonl")
            assert report.format == "otlp-json", (path, value)


def test_compressed_transcripts_are_checked_but_not_rewritten(tmp_path: Path) -> None:
    transcript = FIXTURES / "recorded" / "ts-sdk-1.20.2.jsonl"
    packed = tmp_path / "session.jsonl.gz"
    packed.write_bytes(gzip.compress(transcript.read_bytes()))
    before = packed.read_bytes()
    assert run_cli("check", "--select", "MCP101", str(packed)).out.count(" MCP101 ") == 7
    assert run_cli("fix", "--diff", str(packed)).code == 1  # the diff is shown
    refused = run_cli("fix", str(packed))
    assert refused.code == 2 and "does not write compressed files" in refused.err
    assert packed.read_bytes() == before


def test_evidence_from_exception_events_when_the_status_has_no_description(tmp_path: Path) -> None:
    event = {
        "name": "exception",
        "attributes": [
            {"key": "exception.type", "value": {"stringValue": "McpError"}},
            {"key": "exception.message", "value": {"stringValue": INVALID["message"]}},
        ],
    }
    raised = span("tools/call add", CALL, status={"code": 2})
    raised["events"] = [event]
    (finding,) = check_lines(tmp_path, request(raised), select="MCP401")
    assert finding["tool"] == "add" and "JSON-RPC error -32602" in finding["message"]
