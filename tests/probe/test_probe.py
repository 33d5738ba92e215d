"""``mcp-transcripts probe`` over stdio against small servers of our own (no SDK needed)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from tests.conftest import run_cli
from tests.probe.helpers import careless, check_json, keys, probe_json, table

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX pipes")


def test_a_server_that_validates_nothing_is_found_out(tmp_path: Path) -> None:
    out = tmp_path / "probe.jsonl"
    result, findings = probe_json("--out", str(out), "--", *careless("lax"))
    assert result.code == 1
    text = table(result)
    assert "Verdict: DOES NOT VALIDATE" in text
    assert (
        "Not probed:\n  wipe: destructiveHint: true" in text
    )  # listed on tools/list's second page
    accepted = [f for f in findings if f["code"] == "MCP501"]
    assert accepted and all(f["tool"] == "greet" for f in accepted)
    assert all("case: " in f["message"] for f in accepted)
    extra = [f for f in accepted if f["keyword"] == "additionalProperties"]
    assert [f["severity"] for f in extra] == ["warning"]  # only a forbidden extra property
    assert {f["severity"] for f in accepted if f not in extra} == {"error"}
    assert not [f for f in findings if f["code"] in {"MCP101", "MCP502", "MCP503"}]
    # The arguments are invalid on purpose: MCP203 ("arguments violate the inputSchema")
    # would only repeat each case, live and when the recording is checked.
    assert not [f for f in findings if f["code"] == "MCP203"]
    assert keys(check_json(out)) == keys(findings)


def test_destructive_tools_only_when_asked_and_selection_by_glob() -> None:
    result, findings = probe_json("--include-destructive", "--tool", "w*", "--", *careless("lax"))
    assert {f["tool"] for f in findings if f["code"] == "MCP501"} == {"wipe"}
    assert "  greet: not selected by --tool" in table(result)
    result, findings = probe_json(
        "--exclude-tool", "greet", "--no-unknown-tool", "--", *careless("lax")
    )
    assert "Verdict: NOTHING TO PROBE" in table(result) and findings == []
    assert result.code == 0


def test_max_cases_and_fail_on(tmp_path: Path) -> None:
    result, findings = probe_json("--max-cases", "2", "--fail-on", "never", "--", *careless("lax"))
    assert result.code == 0
    assert len({f["request_id"] for f in findings if f["code"] == "MCP501"}) == 2


def test_a_crash_is_named_and_the_probe_goes_on(tmp_path: Path) -> None:
    out = tmp_path / "probe.jsonl"
    result, findings = probe_json("--out", str(out), "--", *careless("crash"))
    assert result.code == 1
    crashes = [f for f in findings if f["code"] == "MCP503"]
    assert len(crashes) == 4
    assert all("exited with code 3" in f["message"] and "case: `" in f["message"] for f in crashes)
    assert "4 restarts after a crash" in table(result)
    # Cases after each crash were still sent and judged, in a fresh session.
    first_crash = min(f["line"] for f in crashes)
    later = [f for f in findings if f["code"] == "MCP501" and f["line"] > first_crash]
    assert later  # a case answered by the restarted server
    lines = out.read_bytes().splitlines()
    assert sum(b'"method":"initialize"' in line for line in lines) == 5
    ids = [json.loads(line)["id"] for line in lines if b'"method":"tools/call"' in line]
    assert len(ids) == len(set(ids))  # ids never reused across restarts
    assert keys(check_json(out)) == keys(findings)


def test_envelope_recording_reads_back_the_same(tmp_path: Path) -> None:
    out = tmp_path / "probe.envelope.jsonl"
    _result, findings = probe_json("--out", str(out), "--envelope", "--", *careless("lax"))
    first = json.loads(out.read_text().splitlines()[0])
    assert first["direction"] == "client->server" and first["message"]["method"] == "initialize"
    assert keys(check_json(out)) == keys(findings)


def test_a_server_that_cannot_start_writes_no_recording(tmp_path: Path) -> None:
    out = tmp_path / "probe.jsonl"
    result = run_cli(
        "probe", "--out", str(out), "--", sys.executable, "-c", "import sys; sys.exit(4)"
    )
    assert result.code == 2
    assert "cannot probe" in result.err and "initialize" in result.err
    assert not out.exists() and list(tmp_path.iterdir()) == []


def test_usage_errors() -> None:
    assert run_cli("probe").code == 2
    both = run_cli("probe", "--url", "http://127.0.0.1:9/mcp", "--", "node", "x.js")
    assert both.code == 2 and "not both" in both.err
    header = run_cli("probe", "--header", "Authorization: x", "--", "node", "x.js")
    assert header.code == 2 and "--header is for --url" in header.err
    assert run_cli("probe", "--max-cases", "0", "--", "x").code == 2


@pytest.mark.parametrize("output_format", ["sarif", "junit", "gitlab", "github", "jsonl"])
def test_every_reporter_carries_tool_and_case(output_format: str) -> None:
    result = run_cli(
        "probe", "--output-format", output_format, "--max-cases", "1", "--", *careless("lax")
    )
    assert result.code == 1
    assert "greet" in result.out and "case: " in result.out
    assert "Verdict:" in result.err  # the table goes to stderr: stdout stays one document


def test_a_call_left_unanswered_is_a_timeout_and_the_probe_goes_on() -> None:
    result, findings = probe_json("--timeout", "0.5", "--", *careless("silent"))
    silent = [f for f in findings if f["code"] == "MCP504"]
    assert [f["keyword"] for f in silent] == ["type"] and silent[0]["tool"] == "greet"
    assert "no answer within the timeout; case: `name`: `type` violated" in silent[0]["message"]
    assert any(f["code"] == "MCP501" and f["line"] > silent[0]["line"] for f in findings)
    assert result.code == 1


def test_concurrent_calls_give_the_same_verdicts() -> None:
    def outcome(*extra: str) -> list[tuple[object, ...]]:
        _result, findings = probe_json(*extra, "--", *careless("lax"))
        return sorted((f["code"], f["severity"], f["keyword"], f["pointer"]) for f in findings)

    assert outcome("--concurrency", "4") == outcome()


def test_http_without_the_extra_names_the_install(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "httpx", None)  # import httpx now fails
    result = run_cli("probe", "--url", "http://127.0.0.1:9/mcp")
    assert result.code == 2 and "pip install 'mcp-transcripts[http]'" in result.err
