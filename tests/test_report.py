"""``mcp-transcripts report``: per-server verdicts from real recordings, and its four outputs.

The fleet is real: the recorded fixtures (TypeScript SDK 1.20.2 and 1.32.2, Python SDK
1.9.4 and 2.3.0, server-everything 2025.12.18), two releases of server-everything probed
with our own ``probe`` (``tests/fixtures/fleet/``), and, where the shared reference folder
is on the machine, its recordings of TypeScript SDK 1.12.1 and 1.21.0 and Python SDK 1.9.4
servers. Every server must get the verdict its behaviour shows, and no other server may
appear.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from migrator.engine.files import check_file, check_text
from migrator.engine.fleet import MAX_LISTED, Fleet, ServerKey, timestamp_around
from migrator.engine.options import Options
from tests.conftest import FIXTURES, RECORDED, ROOT, SHARED, run_cli, shared_missing

FLEET = FIXTURES / "fleet"
TRACES = FIXTURES / "traces"
SHARED_TRANSCRIPTS = SHARED / "transcripts"
SCHEMA = json.loads((ROOT / "schemas" / "report.schema.json").read_text(encoding="utf-8"))

# What each server's recordings show, by (name, version, identified_by).
RECORDED_VERDICTS = {
    ("fixture-ts-server", "1.20.2", "serverInfo"): "not-migrated",
    ("fixture-ts-server", "1.32.2", "serverInfo"): "migrated",
    ("fixture-py-server", "1.9.4", "serverInfo"): "migrated",
    ("fixture-py-server", "2.3.0", "serverInfo"): "migrated",
    # server-everything 2025.12.18 and 2025.9.25 name themselves alike: one server to the report.
    ("example-servers/everything", "1.0.0", "serverInfo"): "not-migrated",
    ("mcp-servers/everything", "2.0.0", "serverInfo"): "migrated",
    # Recorded without tools/list (tests/fixtures/recorded/README.md).
    ("fixture-py-lowlevel", "1.30.0", "serverInfo"): "migrated",
    ("fixture-py-lowlevel", "1.9.4", "serverInfo"): "not-migrated",
    ("fixture-ts-session-server", "1.20.2", "serverInfo"): "not-migrated",
}
SHARED_VERDICTS = {
    ("heldout-ts-server", "1.12.1", "serverInfo"): "not-migrated",
    ("heldout-ts-server", "1.21.0", "serverInfo"): "migrated",
    ("heldout-py-server", "1.9.4", "serverInfo"): "migrated",
}


def _validate(document: dict[str, Any]) -> None:
    jsonschema.Draft202012Validator.check_schema(SCHEMA)
    jsonschema.Draft202012Validator(SCHEMA).validate(document)


def _report(*argv: str) -> dict[str, Any]:
    result = run_cli("report", "--output-format", "json", *argv)
    assert result.code == 0, result.err
    document: dict[str, Any] = json.loads(result.out)
    _validate(document)
    return document


def _verdicts(document: dict[str, Any]) -> dict[tuple[str, str | None, str], str]:
    return {
        (s["name"], s["version"], s["identified_by"]): s["verdict"] for s in document["servers"]
    }


@pytest.fixture
def fleet_folder(tmp_path: Path) -> Path:
    folder = tmp_path / "fleet"
    folder.mkdir()
    for source in [*RECORDED.glob("*.jsonl"), *FLEET.glob("*.jsonl")]:
        shutil.copy(source, folder / source.name)
    return folder


def test_every_recorded_server_gets_the_verdict_its_answers_show(fleet_folder: Path) -> None:
    document = _report(str(fleet_folder))
    assert _verdicts(document) == RECORDED_VERDICTS  # and no server invented
    assert document["summary"]["verdicts"] == {
        "migrated": 5, "not-migrated": 4, "mixed": 0, "no-evidence": 0,
    }  # fmt: skip
    by_name = {(s["name"], s["version"]): s for s in document["servers"]}
    old_ts = by_name["fixture-ts-server", "1.20.2"]
    # ts-sdk-1.20.2.jsonl and its envelope form: the same 7 invalid calls twice, in 2 files.
    assert old_ts["counts"]["protocol_error"] == 14 and old_ts["files"] == 2
    assert {t["name"] for t in old_ts["tools"]} == {"add", "book_flight"}
    assert old_ts["sdk"]["family"].startswith("TypeScript SDK")
    assert "1.20 or older" in old_ts["sdk"]["family"]
    example = old_ts["examples"]["protocol_error"]
    assert example["error_code"] == -32602 and "Invalid arguments for tool" in example["text"]
    line = (fleet_folder / Path(example["path"]).name).read_text().splitlines()[example["line"] - 1]
    assert '"error"' in line  # the example points at the error response itself
    assert old_ts["advice"]["rule"] == "MCP101"
    assert old_ts["advice"]["url"].endswith("/migrator/reference/rules/mcp101/")
    assert "1.21" in old_ts["advice"]["text"]
    # Only the envelope form has timestamps.
    assert old_ts["first_seen"] is not None and old_ts["first_seen"] <= old_ts["last_seen"]
    new_everything = by_name["mcp-servers/everything", "2.0.0"]
    assert new_everything["counts"]["is_error"] > 0
    assert new_everything["examples"]["is_error"]["text"].startswith(
        "MCP error -32602: Input validation error"
    )
    python = by_name["fixture-py-server", "1.9.4"]
    assert python["sdk"]["family"].startswith("Python SDK")
    # "Division by zero" as an isError result is a tool failure: no evidence either way.
    assert python["counts"]["is_error"] == 7


@pytest.mark.skipif(
    not SHARED_TRANSCRIPTS.is_dir(),
    reason=shared_missing("the shared SDK recordings (transcripts/)"),
)
def test_shared_recordings_of_old_and_new_sdks(fleet_folder: Path) -> None:
    for source in SHARED_TRANSCRIPTS.glob("*.jsonl"):
        shutil.copy(source, fleet_folder / source.name)
    document = _report(str(fleet_folder))
    assert _verdicts(document) == {**RECORDED_VERDICTS, **SHARED_VERDICTS}
    new_ts = next(
        s
        for s in document["servers"]
        if s["name"] == "heldout-ts-server" and s["version"] == "1.21.0"
    )
    assert new_ts["files"] == 2  # the wire form and the envelope form


def test_mixed_lists_where_each_answer_was_seen(tmp_path: Path) -> None:
    head = [
        '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}',
        '{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-06-18","capabilities":{},"serverInfo":{"name":"billing","version":"3.1.0"}}}',
        '{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"charge","arguments":{"amount":"ten"}}}',
    ]
    old = '{"jsonrpc":"2.0","id":2,"error":{"code":-32602,"message":"MCP error -32602: Invalid arguments for tool charge: [{\\"code\\":\\"invalid_type\\",\\"expected\\":\\"number\\",\\"received\\":\\"string\\",\\"path\\":[\\"amount\\"],\\"message\\":\\"Expected number, received string\\"}]"}}'
    new = '{"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"MCP error -32602: Input validation error: Invalid arguments for tool charge: Expected number, received string at amount"}],"isError":true}}'
    (tmp_path / "a.jsonl").write_text("\n".join([*head, old]) + "\n")
    (tmp_path / "b.jsonl").write_text("\n".join([*head, new]) + "\n")
    document = _report(str(tmp_path / "a.jsonl"), str(tmp_path / "b.jsonl"))
    [server] = document["servers"]
    assert (server["name"], server["version"], server["verdict"]) == ("billing", "3.1.0", "mixed")
    assert server["where"]["protocol_error"] == [f"{tmp_path / 'a.jsonl'}:4"]
    assert server["where"]["is_error"] == [f"{tmp_path / 'b.jsonl'}:4"]
    text = run_cli("report", str(tmp_path)).out
    assert "billing 3.1.0: mixed" in text and f"{tmp_path / 'a.jsonl'}:4" in text


def test_no_evidence_when_no_invalid_call_was_made(tmp_path: Path) -> None:
    # The real recording up to its valid calls: initialize, tools/list, ping, three good calls.
    lines = (RECORDED / "ts-sdk-1.20.2.jsonl").read_text().splitlines(keepends=True)[:12]
    (tmp_path / "valid.jsonl").write_text("".join(lines))
    document = _report(str(tmp_path))
    assert _verdicts(document) == {("fixture-ts-server", "1.20.2", "serverInfo"): "no-evidence"}
    assert "probe" in document["servers"][0]["advice"]["text"]


def test_a_file_without_serverinfo_is_named_by_the_file(tmp_path: Path) -> None:
    lines = (RECORDED / "ts-sdk-1.20.2.jsonl").read_text().splitlines(keepends=True)
    (tmp_path / "no-handshake.jsonl").write_text("".join(lines[2:]))  # initialize cut off
    [server] = _report(str(tmp_path))["servers"]
    assert server["identified_by"] == "file" and server["name"].endswith("no-handshake.jsonl")
    assert server["verdict"] == "not-migrated"
    assert "(file)" in run_cli("report", str(tmp_path)).out


def test_traces_group_by_service_or_file() -> None:
    document = _report(*(str(p) for p in sorted(TRACES.glob("*.otlp.jsonl"))))
    assert _verdicts(document) == {
        # Client spans only, no server address: the file names the server.
        (str(TRACES / "ts-sdk-1.20.2.otlp.jsonl"), None, "file"): "not-migrated",
        # The client's spans of isError results hold no text: nothing tells validation apart.
        (str(TRACES / "ts-sdk-1.32.2.otlp.jsonl"), None, "file"): "no-evidence",
        # Server spans name the service; their isError spans hold no text either.
        ("fixture-py-server", None, "trace"): "no-evidence",
    }
    by_name = {s["name"]: s for s in document["servers"]}
    assert by_name[str(TRACES / "ts-sdk-1.20.2.otlp.jsonl")]["advice"]["rule"] == "MCP401"
    # Client and server spans of one call count once.
    assert by_name["fixture-py-server"]["counts"]["calls"] == 11


def test_timestamps_come_from_the_envelope_not_the_message() -> None:
    line = '{"ts":"2026-12-02T17:37:22.238841Z","message":{"jsonrpc":"2.0","id":1,"result":{"ts":"1999-01-01T00:00:00Z"}}}'
    start = line.index('{"jsonrpc"')
    end = line.rindex("}")
    assert timestamp_around(line, start, end) == "2026-12-02T17:37:22Z"
    assert timestamp_around(line[start:end], 0, end - start) is None


def test_merging_many_files_keeps_counts_exact_and_lists_capped(tmp_path: Path) -> None:
    source = RECORDED / "ts-sdk-1.20.2.jsonl"
    fleet = Fleet()
    options = Options(selected=frozenset(), servers=True)
    for index in range(MAX_LISTED + 5):
        report = check_file(source, options)
        report.path = f"copy-{index}.jsonl"
        assert report.servers is not None
        for record in report.servers.records.values():
            record.file_sample = [report.path]
            record.places = {
                k: [f"copy-{index}.jsonl:{p.rsplit(':', 1)[1]}" for p in v]
                for k, v in record.places.items()
            }
        fleet.add(report)
        assert report.servers is None and not report.findings  # dropped once merged
    [record] = fleet.records.values()
    assert record.key == ServerKey("fixture-ts-server", "1.20.2", "serverInfo")
    assert record.files == MAX_LISTED + 5
    assert record.counts["protocol_error"] == 7 * (MAX_LISTED + 5)
    assert len(record.file_sample) == MAX_LISTED
    assert len(record.places["protocol_error"]) == MAX_LISTED


def test_a_string_without_traffic_of_a_server_reports_nothing_invented() -> None:
    report = check_text(
        '{"jsonrpc":"2.0","id":1,"method":"ping"}\n', "ping.jsonl", Options(servers=True)
    )
    fleet = Fleet()
    fleet.add(report)
    assert [r.key for r in fleet.records.values()] == [ServerKey("ping.jsonl", None, "file")]
    assert fleet.servers()[0].verdict.value == "no-evidence"


# --- outputs ----------------------------------------------------------------------------


def test_markdown_lands_in_the_github_step_summary(
    fleet_folder: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    summary = tmp_path / "step-summary.md"
    summary.write_text("## Earlier step\n\n")
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(summary))
    result = run_cli("report", "--output-format", "markdown", str(fleet_folder))
    assert result.code == 0, result.err
    written = summary.read_text()
    assert written.startswith("## Earlier step\n\n")  # appended, as GitHub expects
    assert written[len("## Earlier step\n\n") :].rstrip("\n") == result.out.rstrip("\n")
    assert "| ❌ not migrated | fixture-ts-server | 1.20.2 | 0 | 14 |" in written
    assert "[MCP101](https://" in written


def test_markdown_escapes_what_the_traffic_says() -> None:
    from migrator.reporters.fleet.markdown import cell

    assert cell("a|b <script> *x*") == "a\\|b &lt;script&gt; \\*x\\*"


def test_text_is_the_default(fleet_folder: Path) -> None:
    result = run_cli("report", str(fleet_folder))
    assert result.code == 0
    header = result.out.splitlines()[2]
    assert header.split()[:3] == ["verdict", "server", "version"]
    assert f"Reported {len(RECORDED_VERDICTS)} servers" in result.err


def test_html_is_one_self_contained_page(fleet_folder: Path, tmp_path: Path) -> None:
    page = tmp_path / "fleet.html"
    result = run_cli("report", "--output-format", "html", "--output", str(page), str(fleet_folder))
    assert result.code == 0 and result.out == ""
    html = page.read_text()
    assert html.count('<tr class="server">') == len(RECORDED_VERDICTS)
    assert "<svg" in html and "<style>" in html
    for fetched in ("<script", "<link", "<img", "@import", "url(", "src="):
        assert fetched not in html  # nothing to fetch: the page works offline
    zh = tmp_path / "fleet.zh.html"
    run_cli("report", "--output-format", "html", "--lang", "zh", "-o", str(zh), str(fleet_folder))
    assert '<html lang="zh-CN">' in zh.read_text() and "未迁移" in zh.read_text()


def test_compare_lists_changed_new_and_gone_servers(tmp_path: Path) -> None:
    before = tmp_path / "before"
    after = tmp_path / "after"
    before.mkdir()
    after.mkdir()
    shutil.copy(RECORDED / "ts-sdk-1.20.2.jsonl", before / "server.jsonl")
    shutil.copy(RECORDED / "py-sdk-1.9.4.jsonl", before / "python.jsonl")
    shutil.copy(RECORDED / "ts-sdk-1.32.2.jsonl", after / "server.jsonl")  # upgraded
    lines = (RECORDED / "py-sdk-1.9.4.jsonl").read_text().splitlines(keepends=True)[:12]
    (after / "python.jsonl").write_text("".join(lines))  # no invalid call this time
    old = tmp_path / "old.json"
    assert run_cli("report", "--output-format", "json", "-o", str(old), str(before)).code == 0
    document = _report("--compare", str(old), str(after))
    assert document["changes"] == [
        {"name": "fixture-py-server", "version": "1.9.4", "identified_by": "serverInfo", "change": "changed", "before": "migrated", "after": "no-evidence"},
        {"name": "fixture-ts-server", "version": "1.20.2", "identified_by": "serverInfo", "change": "gone", "before": "not-migrated", "after": None},
        {"name": "fixture-ts-server", "version": "1.32.2", "identified_by": "serverInfo", "change": "new", "before": None, "after": "migrated"},
    ]  # fmt: skip
    text = run_cli("report", "--compare", str(old), str(after)).out
    assert "gone     fixture-ts-server 1.20.2: not-migrated -> -" in text


def test_compare_with_a_broken_file_names_it_and_its_line(tmp_path: Path) -> None:
    broken = tmp_path / "old.json"
    broken.write_text('{"servers": [\n  {"name": "x",\n')
    result = run_cli("report", "--compare", str(broken), str(RECORDED / "ts-sdk-1.20.2.jsonl"))
    assert result.code == 2
    assert f"{broken}:3" in result.err
    findings = tmp_path / "findings.json"
    findings.write_text(
        run_cli("check", "--output-format", "json", str(RECORDED / "ts-sdk-1.20.2.jsonl")).out
    )
    result = run_cli("report", "--compare", str(findings), str(RECORDED / "ts-sdk-1.20.2.jsonl"))
    assert result.code == 2 and "--output-format json" in result.err


def test_an_unreadable_file_is_listed_and_exits_2(tmp_path: Path) -> None:
    shutil.copy(RECORDED / "ts-sdk-1.20.2.jsonl", tmp_path / "good.jsonl")
    (tmp_path / "bad.jsonl").write_bytes(b"\x00\x01\x02 not text\n")
    page = tmp_path / "out.json"
    result = run_cli(
        "report",
        "--output-format",
        "json",
        "-o",
        str(page),
        str(tmp_path / "good.jsonl"),
        str(tmp_path / "bad.jsonl"),
    )
    assert result.code == 2
    document = json.loads(page.read_text())
    _validate(document)
    assert [e["path"] for e in document["errors"]] == [str(tmp_path / "bad.jsonl")]
    assert len(document["servers"]) == 1


def test_output_is_written_whole_or_not_at_all(tmp_path: Path) -> None:
    target = tmp_path / "missing-folder" / "fleet.html"
    result = run_cli(
        "report",
        "--output-format",
        "html",
        "-o",
        str(target),
        str(RECORDED / "ts-sdk-1.20.2.jsonl"),
    )
    assert result.code == 2 and "fleet.html" in result.err
    assert not target.parent.exists()
