"""Every ``check --output-format``, run through the real CLI on transcripts with known findings."""

from __future__ import annotations

import io
import json
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from migrator import __version__
from migrator.cli import build_parser, main
from migrator.reporters import REPORTERS, OutputFormat, resolve_format
from migrator.reporters.github import escape_data, escape_property
from migrator.rules.registry import all_rules
from tests.ci.conftest import REPO, sarif_schema
from tests.ci.transcripts import SELECT, clean_session, session, write
from tests.conftest import CliResult, run_cli

FINDINGS_SCHEMA = REPO / "schemas" / "findings.schema.json"


class Terminal(io.StringIO):
    """A stream that says it is a terminal."""

    def isatty(self) -> bool:
        return True


@pytest.fixture
def transcripts(work: Path) -> Path:
    """new.jsonl: MCP104 (info) line 6, MCP301 (error) line 7, MCP101 (error) line 9;
    old.jsonl (2025-06-18): MCP104 line 6, MCP101 (warning) line 8."""
    write(work, "traces/new.jsonl", session())
    write(work, "traces/old.jsonl", session("2025-06-18", broken=False))
    return work / "traces"


def check(*argv: str) -> CliResult:
    return run_cli("check", *SELECT, *argv)


def test_every_format_has_a_reporter_and_a_cli_choice() -> None:
    assert set(REPORTERS) == set(OutputFormat)
    assert {f.value for f in OutputFormat} >= {
        "text",
        "json",
        "jsonl",
        "github",
        "auto",
        "sarif",
        "junit",
        "gitlab",
    }
    parser = build_parser()
    for fmt in OutputFormat:
        assert (
            parser.parse_args(["check", "--output-format", fmt.value, "x"]).output_format
            == fmt.value
        )
        assert parser.parse_args(["check", "--format", fmt.value, "x"]).output_format == fmt.value
    assert run_cli("check", "--format", "bogus", "x").code == 2


# -- text ---------------------------------------------------------------------------


def test_text_is_plain_when_not_a_terminal(transcripts: Path) -> None:
    result = check("traces")
    assert result.code == 1
    assert "\x1b[" not in result.out
    assert result.out.splitlines()[0] == (
        'traces/new.jsonl:6:1: MCP104 tools/call "create_issue" (id 3): a tool execution failure '
        "sent as JSON-RPC error -32603; it could be a tool result with isError: true"
    )


def _coloured(argv: list[str], stream: io.StringIO) -> str:
    main(["check", *SELECT, *argv], stdout=stream, stderr=io.StringIO())
    return stream.getvalue()


def test_text_is_coloured_on_a_terminal(transcripts: Path) -> None:
    out = _coloured(["traces"], Terminal())
    assert "\x1b[1mtraces/new.jsonl:7:1:\x1b[0m \x1b[1;31mMCP301\x1b[0m" in out  # error: red
    assert "\x1b[1;33mMCP101" in out  # warning (old session): yellow
    assert "\x1b[1;36mMCP104" in out  # info: cyan


def test_no_color_wins_on_a_terminal_and_over_force_color(
    transcripts: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("NO_COLOR", "1")
    monkeypatch.setenv("FORCE_COLOR", "1")
    assert "\x1b[" not in _coloured(["traces"], Terminal())


def test_force_color_colours_a_pipe(transcripts: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FORCE_COLOR", "1")
    assert "\x1b[1;31mMCP301" in check("traces").out


def test_dumb_terminal_gets_no_colour(transcripts: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TERM", "dumb")
    assert "\x1b[" not in _coloured(["traces"], Terminal())


# -- json and jsonl -----------------------------------------------------------------


def test_json_output_validates_against_its_schema(transcripts: Path) -> None:
    document = json.loads(check("--output-format", "json", "traces").out)
    jsonschema.Draft202012Validator(json.loads(FINDINGS_SCHEMA.read_text())).validate(document)
    assert document["summary"]["findings"] == 5
    assert document["summary"]["by_severity"] == {"error": 2, "info": 2, "warning": 1}


def test_jsonl_is_one_valid_finding_per_line(transcripts: Path) -> None:
    schema = json.loads(FINDINGS_SCHEMA.read_text())
    finding_schema = {"$ref": "#/$defs/Finding", "$defs": schema["$defs"]}
    result = check("--format", "jsonl", "traces")
    lines = result.out.splitlines()
    assert len(lines) == 5 and result.code == 1
    rows = [json.loads(line) for line in lines]
    for row in rows:
        jsonschema.Draft202012Validator(finding_schema).validate(row)
    document = json.loads(check("--format", "json", "traces").out)
    assert rows == document["findings"]


# -- github -------------------------------------------------------------------------


def test_github_workflow_commands(transcripts: Path) -> None:
    lines = check("--output-format", "github", "traces").out.splitlines()
    assert lines == [
        '::notice file=traces/new.jsonl,line=6,col=1,title=MCP104 tool-failure-as-protocol-error::tools/call "create_issue" (id 3): a tool execution failure sent as JSON-RPC error -32603; it could be a tool result with isError: true',
        "::error file=traces/new.jsonl,line=7,col=1,title=MCP301 unparseable-line::not valid JSON: Expecting value",
        '::error file=traces/new.jsonl,line=9,col=1,title=MCP101 validation-error-as-protocol-error::tools/call "create_issue" (id 4): input validation failure answered with JSON-RPC error -32602; protocol 2025-11-25 requires a tool result with isError: true',
        '::notice file=traces/old.jsonl,line=6,col=1,title=MCP104 tool-failure-as-protocol-error::tools/call "create_issue" (id 3): a tool execution failure sent as JSON-RPC error -32603; it could be a tool result with isError: true',
        '::warning file=traces/old.jsonl,line=8,col=1,title=MCP101 validation-error-as-protocol-error::tools/call "create_issue" (id 4): input validation failure answered with JSON-RPC error -32602; from protocol 2025-11-25 it must be a tool result with isError: true',
    ]


def test_github_escaping() -> None:
    assert escape_data("100% done\r\nnext: a,b") == "100%25 done%0D%0Anext: a,b"
    assert escape_property("dir:a,b%\n") == "dir%3Aa%2Cb%25%0A"


def test_github_escapes_paths_and_multiline_evidence(work: Path) -> None:
    write(work, "a,b:c%.jsonl", session())
    out = check("--format", "github", "--show-evidence", "a,b:c%.jsonl").out
    first = out.splitlines()[0]
    assert first.startswith("::notice file=a%2Cb%3Ac%25.jsonl,line=6,col=1,title=MCP104 ")
    assert "%0A= protocol version 2025-11-25" in first
    assert len(out.splitlines()) == 3  # one line per command, evidence included


def test_auto_is_github_under_github_actions(
    transcripts: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert check("--format", "auto", "traces").out == check("traces").out
    monkeypatch.setenv("GITHUB_ACTIONS", "true")
    assert check("--format", "auto", "traces").out == check("--format", "github", "traces").out
    assert resolve_format("auto", {"GITHUB_ACTIONS": "true"}) is OutputFormat.GITHUB
    assert resolve_format("auto", {}) is OutputFormat.TEXT
    assert resolve_format("json", {"GITHUB_ACTIONS": "true"}) is OutputFormat.JSON


# -- sarif --------------------------------------------------------------------------


def _sarif(*argv: str) -> dict[str, Any]:
    document: dict[str, Any] = json.loads(check("--output-format", "sarif", *argv).out)
    return document


def test_sarif_validates_against_the_sarif_2_1_0_schema(transcripts: Path) -> None:
    schema = sarif_schema()
    document = _sarif("traces")
    jsonschema.validators.validator_for(schema)(schema).validate(document)


def test_sarif_describes_the_tool_and_every_rule(transcripts: Path) -> None:
    run = _sarif("traces")["runs"][0]
    driver = run["tool"]["driver"]
    assert driver["name"] == "mcp-transcripts" and driver["version"] == __version__
    assert driver["informationUri"].startswith("https://")
    rules = {rule["id"]: rule for rule in driver["rules"]}
    assert list(rules) == [info.code for info in all_rules()]
    for info in all_rules():
        rule = rules[info.code]
        assert rule["name"] == info.slug
        assert rule["shortDescription"]["text"] == info.summary
        assert rule["help"]["markdown"] == info.doc.strip()
        assert rule["fullDescription"]["text"]
        level = {"error": "error", "warning": "warning", "info": "note"}[
            info.default_severity.value
        ]
        assert rule["defaultConfiguration"]["level"] == level


def test_sarif_results(transcripts: Path) -> None:
    run = _sarif("traces")["runs"][0]
    results = run["results"]
    assert [(r["ruleId"], r["level"]) for r in results] == [
        ("MCP104", "note"), ("MCP301", "error"), ("MCP101", "error"), ("MCP104", "note"), ("MCP101", "warning"),
    ]  # fmt: skip
    first = results[2]
    location = first["locations"][0]["physicalLocation"]
    assert location["artifactLocation"] == {"uri": "traces/new.jsonl", "uriBaseId": "%SRCROOT%"}
    assert location["region"] == {"startLine": 9, "startColumn": 1}
    assert run["tool"]["driver"]["rules"][first["ruleIndex"]]["id"] == "MCP101"
    assert first["properties"]["fixable"] == "safe" and first["properties"]["requestId"] == 4
    assert "fixes" not in first  # the engine does not hand the replacement text to reporters
    fingerprints = [r["partialFingerprints"]["mcpMigrate/v1"] for r in results]
    assert len(set(fingerprints)) == len(fingerprints)
    assert run["invocations"][0]["executionSuccessful"] is True


def test_sarif_fingerprints_survive_lines_moving(work: Path) -> None:
    path = write(work, "s.jsonl", session())
    before = [r["partialFingerprints"] for r in _sarif("s.jsonl")["runs"][0]["results"]]
    lines = path.read_text().splitlines(keepends=True)
    path.write_text(
        "".join([*lines[:4], "\n", "\n", *lines[4:]])
    )  # two blank lines above the findings
    moved = _sarif("s.jsonl")["runs"][0]["results"]
    assert [r["locations"][0]["physicalLocation"]["region"]["startLine"] for r in moved] == [
        8,
        9,
        11,
    ]
    assert [r["partialFingerprints"] for r in moved] == before


def test_sarif_reports_unreadable_files_as_notifications(work: Path) -> None:
    write(work, "wire.jsonl", session())
    schema = sarif_schema()
    result = check("--output-format", "sarif", "--input-format", "envelope", "wire.jsonl")
    assert result.code == 2
    document = json.loads(result.out)
    jsonschema.validators.validator_for(schema)(schema).validate(document)
    invocation = document["runs"][0]["invocations"][0]
    assert invocation["executionSuccessful"] is False
    notification = invocation["toolExecutionNotifications"][0]
    assert notification["level"] == "error"
    assert (
        notification["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == "wire.jsonl"
    )


# -- junit --------------------------------------------------------------------------


def test_junit_parses_with_junitparser(transcripts: Path) -> None:
    junitparser = pytest.importorskip("junitparser")
    write(transcripts, "clean.jsonl", clean_session())
    result = check("--output-format", "junit", "traces")
    assert result.code == 1
    xml = junitparser.JUnitXml.fromstring(result.out)
    suites = list(xml) if isinstance(xml, junitparser.JUnitXml) else [xml]
    assert len(suites) == 1
    suite = suites[0]
    cases = {case.name: case for case in suite}
    assert set(cases) == {"traces/clean.jsonl", "traces/new.jsonl", "traces/old.jsonl"}
    # --fail-on warning (the default): errors and warnings are failures, info goes to system-out.
    failures = {name: [r.type for r in case.result] for name, case in cases.items()}
    assert failures == {
        "traces/clean.jsonl": [],
        "traces/new.jsonl": ["MCP301", "MCP101"],
        "traces/old.jsonl": ["MCP101"],
    }
    assert "MCP104" in (cases["traces/new.jsonl"].system_out or "")
    assert (suite.tests, suite.failures, suite.errors) == (3, 3, 0)
    suite.update_statistics()  # the counts written agree with junitparser's own
    assert (suite.tests, suite.failures, suite.errors) == (3, 3, 0)


def test_junit_structure_and_threshold(transcripts: Path) -> None:
    root = ET.fromstring(check("--format", "junit", "--fail-on", "info", "traces").out)
    assert root.tag == "testsuites"
    (suite,) = root
    assert suite.tag == "testsuite" and suite.get("name") == "mcp-transcripts check"
    assert suite.get("tests") == "2" and suite.get("failures") == "5" and suite.get("errors") == "0"
    case = suite.find("testcase[@name='traces/new.jsonl']")
    assert case is not None
    failures = case.findall("failure")
    assert [f.get("type") for f in failures] == ["MCP104", "MCP301", "MCP101"]
    assert failures[2].get("message", "").startswith('MCP101 tools/call "create_issue" (id 4)')
    assert (failures[2].text or "").startswith(
        "traces/new.jsonl:9:1: MCP101 validation-error-as-protocol-error (error)"
    )
    never = ET.fromstring(check("--format", "junit", "--fail-on", "never", "traces").out)
    assert never.get("failures") == "0"


def test_junit_unreadable_file_is_an_error_case(work: Path) -> None:
    write(work, "wire.jsonl", session())
    result = check("--format", "junit", "--input-format", "envelope", "wire.jsonl")
    root = ET.fromstring(result.out)
    assert root.get("errors") == "1" and root.get("tests") == "1"
    error = root.find("testsuite/testcase[@name='wire.jsonl']/error")
    assert error is not None and error.get("type") == "UsageError"


# -- gitlab -------------------------------------------------------------------------


def test_gitlab_code_quality(transcripts: Path) -> None:
    issues = json.loads(check("--output-format", "gitlab", "traces").out)
    assert len(issues) == 5
    for issue in issues:
        assert set(issue) >= {"description", "check_name", "fingerprint", "severity", "location"}
        assert issue["severity"] in {"info", "minor", "major", "critical", "blocker"}
        assert isinstance(issue["location"]["lines"]["begin"], int)
    assert [
        (i["check_name"], i["severity"], i["location"]["path"], i["location"]["lines"]["begin"])
        for i in issues
    ] == [
        ("MCP104", "info", "traces/new.jsonl", 6),
        ("MCP301", "major", "traces/new.jsonl", 7),
        ("MCP101", "major", "traces/new.jsonl", 9),
        ("MCP104", "info", "traces/old.jsonl", 6),
        ("MCP101", "minor", "traces/old.jsonl", 8),
    ]
    assert len({i["fingerprint"] for i in issues}) == 5
    assert issues[2]["description"].startswith("MCP101 validation-error-as-protocol-error: ")


def test_paths_inside_the_current_folder_are_made_relative(transcripts: Path) -> None:
    absolute = str(transcripts.resolve())
    issues = json.loads(check("--output-format", "gitlab", absolute).out)
    assert issues[0]["location"]["path"] == "traces/new.jsonl"
