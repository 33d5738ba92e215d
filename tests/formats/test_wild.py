"""Recordings in the shapes other tools write: each read, or refused with exit 2 and what to do."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from tests.conftest import FIXTURES, ROOT, run_cli

WILD = FIXTURES / "wild"
GOLDEN = ROOT / "tests" / "golden"
READ = [
    GOLDEN / "txtar-go-sdk-conformance" / "input.txtar",
    GOLDEN / "aegis-yaml-suite" / "input.yml",
    GOLDEN / "cassette" / "input.json",
    GOLDEN / "inspector-history-export" / "input.json",
]
REFUSED = {
    "vcrpy-cassette.yaml": "looks like a VCR.py cassette",
    "rest-api-cassette.yaml": "looks like a VCR.py cassette",
    "ruby-vcr-cassette.yml": "looks like a Ruby VCR cassette",
    "nock-recording.json": "looks like a nock recording",
    "devtools-network-log.json": "looks like a Chrome DevTools network log",
    "postman-collection.json": "looks like a Postman collection",
    "session.warc": "looks like a WARC web archive",
}


def test_every_wild_fixture_is_listed() -> None:
    assert sorted(p.name for p in WILD.iterdir() if p.name != "README.md") == sorted(REFUSED)


@pytest.mark.parametrize("path", READ, ids=lambda p: p.parent.name)
def test_wild_formats_we_read(path: Path) -> None:
    result = run_cli("check", str(path))
    assert result.code in (0, 1), result.err
    assert "Traceback" not in result.err and "MCP101" in result.out


@pytest.mark.parametrize("name", sorted(REFUSED))
@pytest.mark.parametrize("command", ["check", "fix"])
def test_wild_formats_we_do_not_read_are_refused_with_advice(
    tmp_path: Path, name: str, command: str
) -> None:
    path = tmp_path / name
    shutil.copyfile(WILD / name, path)
    result = run_cli(command, str(path))
    assert result.code == 2
    assert "Traceback" not in result.err
    assert f"{path}:1: {REFUSED[name]}" in result.err
    assert "not supported" in result.err and "--input-format" in result.err
    assert path.read_bytes() == (WILD / name).read_bytes()
    assert sorted(p.name for p in tmp_path.iterdir()) == [name]


def test_check_over_every_wild_fixture_reads_or_refuses_each(tmp_path: Path) -> None:
    for source in [*READ, *WILD.iterdir()]:
        shutil.copyfile(source, tmp_path / f"{source.parent.name}-{source.name}")
    result = run_cli("check", str(tmp_path))
    assert result.code == 2 and "Traceback" not in result.err
    refused = [line for line in result.err.splitlines() if ": looks like " in line]
    # Every recording that carries JSON-RPC is refused by name; the REST API cassette is
    # another API's traffic, passed over quietly in a folder walk (and .warc is not walked).
    assert len(refused) == len(REFUSED) - 2
    assert "rest-api-cassette" not in result.err
    assert result.out.count("MCP101") >= len(READ)


def test_a_transcript_whose_arguments_read_like_a_recording_is_not_refused(tmp_path: Path) -> None:
    call = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "tools/call",
        "params": {
            "name": "fetch",
            "arguments": {"scope": "https://x", "path": "/", "status": 200, "uri": "https://x"},
        },
    }
    answer = {
        "jsonrpc": "2.0",
        "id": 1,
        "error": {"code": -32602, "message": "Invalid arguments for tool fetch: bad"},
    }
    path = tmp_path / "t.jsonl"
    path.write_text(json.dumps(call) + "\n" + json.dumps(answer) + "\n")
    assert run_cli("check", str(path)).code == 1


def test_forcing_a_format_skips_the_lookalike_check() -> None:
    result = run_cli("check", "--input-format", "yaml", str(WILD / "vcrpy-cassette.yaml"))
    assert "looks like" not in result.err and "Traceback" not in result.err


def test_txtar_forced_and_detected_read_the_same() -> None:
    path = READ[0]
    assert (
        run_cli("check", "--input-format", "txtar", str(path)).out
        == run_cli("check", str(path)).out
    )


def test_txtar_with_broken_json_names_the_file_and_line(tmp_path: Path) -> None:
    path = tmp_path / "broken.txtar"
    path.write_text(
        'comment\n-- client --\n{"jsonrpc": "2.0", "id": 1, "method": "ping"}\n-- server --\n{"jsonrpc": "2.0",\n "id": 1,, "result": {}}\n'
    )
    result = run_cli("fix", str(path))
    assert result.code == 2 and "Traceback" not in result.err
    assert f"{path}:5: not valid JSON in the txtar server file" in result.err
    assert path.read_text().endswith('"result": {}}\n'), "nothing written"


def test_txtar_fix_pairs_a_client_answer_to_a_server_ping_without_a_finding(tmp_path: Path) -> None:
    path = tmp_path / "ping.txtar"
    path.write_text(
        "-- client --\n"
        '{"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "c", "version": "1"}}}\n'
        '{"jsonrpc": "2.0", "id": 7, "result": {}}\n'
        "-- server --\n"
        '{"jsonrpc": "2.0", "id": 1, "result": {"protocolVersion": "2025-06-18", "capabilities": {}, "serverInfo": {"name": "s", "version": "1"}}}\n'
        '{"jsonrpc": "2.0", "id": 7, "method": "ping"}\n'
    )
    result = run_cli("check", str(path))
    assert result.code == 0, result.out


def test_a_txtar_archive_without_client_or_server_files_is_not_a_transcript(tmp_path: Path) -> None:
    path = tmp_path / "go.txtar"
    path.write_text("a Go test archive\n-- main.go --\npackage main\n")
    result = run_cli("check", str(path))
    assert result.code == 2 and "not a transcript" in result.err and "Traceback" not in result.err
    assert "go.txtar" not in run_cli("check", str(tmp_path)).err  # passed over in a folder walk


def test_devtools_events_one_per_line_are_refused_too(tmp_path: Path) -> None:
    events = json.loads((WILD / "devtools-network-log.json").read_text())
    path = tmp_path / "network.jsonl"
    path.write_text("".join(json.dumps(event) + "\n" for event in events))
    result = run_cli("check", str(path))
    assert result.code == 2 and "looks like a Chrome DevTools network log" in result.err
