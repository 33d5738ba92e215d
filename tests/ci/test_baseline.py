"""Baselines: accept today's findings, report new ones, fail on stale entries."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from migrator.engine.baseline import Baseline, Key, LineSource, line_hash, load_baseline
from tests.ci.conftest import REPO
from tests.ci.transcripts import SELECT, session, write
from tests.conftest import CliResult, run_cli

BASELINE_SCHEMA = REPO / "schemas" / "baseline.schema.json"


@pytest.fixture
def traces(work: Path) -> Path:
    write(work, "traces/a.jsonl", session())
    write(work, "traces/b.jsonl", session("2025-06-18", broken=False))
    return work / "traces"


def check(*argv: str) -> CliResult:
    return run_cli("check", *SELECT, *argv)


def record(name: str = "baseline.json", *paths: str) -> dict[str, Any]:
    result = run_cli("check", *SELECT, "--write-baseline", name, *(paths or ("traces",)))
    assert result.code == 0, result.err
    document: dict[str, Any] = json.loads(Path(name).read_text())
    return document


def test_write_baseline_records_sorted_keys_valid_against_the_schema(traces: Path) -> None:
    result = run_cli("check", *SELECT, "--write-baseline", "baseline.json", "traces")
    assert result.code == 0 and result.out == ""
    assert result.err == "Wrote 5 findings (5 entries) from 2 files to baseline.json\n"
    document = json.loads(Path("baseline.json").read_text())
    jsonschema.Draft202012Validator(json.loads(BASELINE_SCHEMA.read_text())).validate(document)
    noise = line_hash(b"this line is log noise, not JSON")
    assert document == {
        "version": 1,
        "findings": [
            {"path": "traces/a.jsonl", "code": "MCP101", "request_id": 4},
            {"path": "traces/a.jsonl", "code": "MCP104", "request_id": 3},
            {"path": "traces/a.jsonl", "code": "MCP301", "line_hash": noise},
            {"path": "traces/b.jsonl", "code": "MCP101", "request_id": 4},
            {"path": "traces/b.jsonl", "code": "MCP104", "request_id": 3},
        ],
    }


def test_a_baselined_run_is_clean(traces: Path) -> None:
    record()
    result = check("--baseline", "baseline.json", "traces")
    assert (result.code, result.out) == (0, "")
    assert (
        "Found 0 findings in 2 files" in result.err and "5 accepted by the baseline" in result.err
    )


def test_keys_survive_lines_moving(traces: Path) -> None:
    record()
    path = traces / "a.jsonl"
    path.write_text("\n\n\n" + path.read_text())
    assert check("--baseline", "baseline.json", "traces").code == 0


def test_new_findings_are_reported(traces: Path) -> None:
    record()
    write(traces, "c.jsonl", session())
    path = traces / "b.jsonl"
    path.write_text(path.read_text() + "not json either\n")
    result = check("--baseline", "baseline.json", "traces")
    assert result.code == 1
    assert [
        line.split(": ")[0] + " " + line.split(": ")[1].split()[0]
        for line in result.out.splitlines()
    ] == [
        "traces/b.jsonl:9:1 MCP301",
        "traces/c.jsonl:6:1 MCP104",
        "traces/c.jsonl:7:1 MCP301",
        "traces/c.jsonl:9:1 MCP101",
    ]


def test_stale_entries_fail_with_a_list(traces: Path) -> None:
    record()
    assert run_cli("fix", "traces/a.jsonl").code == 0  # MCP101 in a.jsonl is gone
    result = check("--baseline", "baseline.json", "--fail-on", "never", "traces")
    assert result.code == 1 and result.out == ""
    assert (
        "mcp-transcripts: 1 baseline entry in baseline.json no longer occurs "
        "(fixed? update the baseline with --write-baseline):\n"
        "  traces/a.jsonl: MCP101 for request id 4\n"
    ) in result.err


def test_entries_of_files_not_read_are_not_stale(traces: Path) -> None:
    record()
    assert check("--baseline", "baseline.json", "traces/b.jsonl").code == 0
    assert (
        check("--baseline", "baseline.json", "--select", "MCP101", "traces").code == 0
    )  # MCP104 did not run


def test_entries_of_deleted_files_are_stale(traces: Path) -> None:
    record()
    (traces / "b.jsonl").unlink()
    result = check("--baseline", "baseline.json", "traces")
    assert result.code == 1
    assert (
        "  traces/b.jsonl: MCP101 for request id 4\n  traces/b.jsonl: MCP104 for request id 3\n"
        in result.err
    )


def test_paths_are_relative_to_the_baseline_file(
    traces: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    Path("ci").mkdir()
    record("ci/baseline.json")
    document = json.loads(Path("ci/baseline.json").read_text())
    assert {entry["path"] for entry in document["findings"]} == {
        "../traces/a.jsonl",
        "../traces/b.jsonl",
    }
    monkeypatch.chdir(traces)  # from elsewhere, the same baseline still matches
    assert check("--baseline", "../ci/baseline.json", ".").code == 0


def test_reused_request_ids_are_counted(work: Path) -> None:
    write(work, "twice.jsonl", session(broken=False) + session(broken=False))
    document = record("baseline.json", "twice.jsonl")
    assert {"path": "twice.jsonl", "code": "MCP101", "request_id": 4, "count": 2} in document[
        "findings"
    ]
    assert check("--baseline", "baseline.json", "twice.jsonl").code == 0
    write(work, "twice.jsonl", session(broken=False))
    result = check("--baseline", "baseline.json", "twice.jsonl")
    assert result.code == 1 and "twice.jsonl: MCP101 for request id 4 (1 times)" not in result.err
    assert "twice.jsonl: MCP101 for request id 4\n" in result.err


def test_string_and_integer_ids_differ_and_sort(work: Path) -> None:
    text = session(broken=False).replace('"id":4', '"id":"4"')
    write(work, "t.jsonl", text)
    document = record("baseline.json", "t.jsonl")
    assert document["findings"] == [
        {"path": "t.jsonl", "code": "MCP101", "request_id": "4"},
        {"path": "t.jsonl", "code": "MCP104", "request_id": 3},
    ]
    baseline = load_baseline("baseline.json")
    assert Key("t.jsonl", "MCP101", request_id="4") in baseline.counts
    assert Key("t.jsonl", "MCP101", request_id=4) not in baseline.counts


def test_stdin_uses_the_text_it_read(work: Path) -> None:
    text = session()
    result = run_cli(
        "check",
        *SELECT,
        "--write-baseline",
        "b.json",
        "--stdin-filename",
        "in.jsonl",
        "-",
        stdin=text,
    )
    assert result.code == 0
    entries = json.loads(Path("b.json").read_text())["findings"]
    assert {
        "path": "in.jsonl",
        "code": "MCP301",
        "line_hash": line_hash(b"this line is log noise, not JSON"),
    } in entries
    again = run_cli(
        "check", *SELECT, "--baseline", "b.json", "--stdin-filename", "in.jsonl", "-", stdin=text
    )
    assert (again.code, again.out) == (0, "")


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("{", "b.json: the baseline is not valid JSON"),
        (
            '{"version": 2, "findings": []}',
            "b.json: not a baseline file: at /version: 1 was expected",
        ),
        (
            '{"version": 1, "findings": [{"path": "a", "code": "MCP101"}]}',
            "b.json: not a baseline file: at /findings/0",
        ),
    ],
)
def test_invalid_baseline_exits_2(traces: Path, content: str, message: str) -> None:
    Path("b.json").write_text(content)
    result = check("--baseline", "b.json", "traces")
    assert result.code == 2 and message in result.err


def test_missing_baseline_and_both_options(traces: Path) -> None:
    missing = check("--baseline", "nope.json", "traces")
    assert missing.code == 2 and "nope.json: cannot read the baseline" in missing.err
    both = check("--baseline", "a.json", "--write-baseline", "b.json", "traces")
    # argparse writes usage errors to the process's stderr, not to main()'s stream.
    assert both.code == 2 and "not allowed with argument" in both.err


def test_baseline_with_other_output_formats(traces: Path) -> None:
    record()
    write(traces, "c.jsonl", session())
    document = json.loads(check("--baseline", "baseline.json", "--format", "json", "traces").out)
    assert {f["path"] for f in document["findings"]} == {"traces/c.jsonl"}
    assert document["summary"]["findings"] == 3


def test_compare_counts_known_new_and_stale() -> None:
    key = Key("a.jsonl", "MCP101", request_id=1)
    gone = Key("gone.jsonl", "MCP101", request_id=1)
    baseline = Baseline(Path("nowhere/b.json"), Counter({key: 1, gone: 2}))
    comparison = baseline.compare([], [], checked=["a.jsonl"], enabled=None)
    assert comparison.new == [] and comparison.known == 0
    assert comparison.stale == [(key, 1), (gone, 2)]


def test_line_source_reads_forward_and_answers_as_the_whole_file_split(tmp_path: Path) -> None:
    """Lines are read one at a time, never the file whole; any order of asking gives the
    bytes the file split at LF (CR stripped at the end) gives, and b"" past its end."""
    data = b'{"a":1}\r\n{oops\r\r\n\n\xff\xfe not utf-8\nlast, no newline'
    path = tmp_path / "t.jsonl"
    path.write_bytes(data)
    split = [line.rstrip(b"\r") for line in data.split(b"\n")]
    expected = {n: split[n - 1] if 0 < n <= len(split) else b"" for n in range(0, 9)}
    source = LineSource()
    for number in [1, 2, 2, 4, 5, 7, 3, 1, 5, 0, 6, 8]:
        assert source.line(str(path), number) == expected[number], number
    assert source.line(str(tmp_path / "gone.jsonl"), 1) == b""
    assert LineSource({"-": "x\r\ny"}).line("-", 2) == b"y"
