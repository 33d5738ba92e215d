"""``proxy`` and ``record`` between real MCP SDKs.

The server is the TypeScript SDK 1.20.2 fixture server (``McpServer`` + zod,
which still answers invalid arguments with JSON-RPC error -32602); the client is
the Python SDK's ``ClientSession`` from its newest release, in its own venv.
Both are installed by ``scripts/record_fixtures.py``'s own install steps into
the git-ignored ``.fixtures-work/`` (the first run needs npm and PyPI; later
runs reuse what is there).
"""

from __future__ import annotations

import importlib.util
import json
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from tests.conftest import RECORDED, installing
from tests.wire.helpers import HERE, ROOT, Spawn, migrate

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(sys.platform == "win32", reason="POSIX pipes and signals"),
]

RECORDER = ROOT / "scripts" / "record_fixtures.py"
OLD_TS = RECORDED / "ts-sdk-1.20.2.jsonl"
MANIFEST = json.loads((RECORDED / "manifest.json").read_text(encoding="utf-8"))
PROVENANCE = "io.github.mcp-transcripts/original-error"


def _recorder() -> ModuleType:
    spec = importlib.util.spec_from_file_location("record_fixtures", RECORDER)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="session")
def recorder() -> ModuleType:
    """``scripts/record_fixtures.py``, imported for its install steps."""
    return _recorder()


@pytest.fixture(scope="session")
def old_ts_server(recorder: ModuleType) -> list[str]:
    """The command line of the TypeScript SDK 1.20.2 fixture server (installed on first use)."""
    for tool in ("node", "npm"):
        if shutil.which(tool) is None:
            pytest.skip(f"{tool} is not on PATH: the TypeScript SDK server cannot run")
    target = next(t for t in recorder.TARGETS if t.key == "ts-sdk-old")
    try:
        with installing():
            installed = target.install(target.workdir, True)  # npm only when the version differs
    except recorder.RecordingError as exc:
        pytest.skip(f"cannot install @modelcontextprotocol/sdk 1.20.2 (npm registry?): {exc}")
    command: list[str] = installed.command
    return command


@pytest.fixture(scope="session")
def sdk_python(recorder: ModuleType) -> Path:
    """A Python with the newest ``mcp`` SDK: the recorder's py-sdk-new venv (made on first use)."""
    venv = recorder.WORK / "py-sdk-new" / "venv"
    python: Path = recorder.venv_python(venv)

    def has_mcp() -> bool:
        if not python.exists():
            return False
        probe = subprocess.run(
            [str(python), "-c", "import mcp.client.session"], capture_output=True, check=False
        )
        return probe.returncode == 0

    with installing():
        if not has_mcp():
            try:
                recorder.pip_install(venv, ["mcp"], upgrade=False)
            except recorder.RecordingError as exc:
                pytest.skip(f"cannot install the Python MCP SDK (PyPI?): {exc}")
    if not has_mcp():
        pytest.skip("the Python MCP SDK does not import in its venv")
    return python


def run_sdk_client(python: Path, calls: list[dict[str, Any]], command: list[str]) -> dict[str, Any]:
    done = subprocess.run(
        [str(python), str(HERE / "sdk_client.py"), json.dumps(calls), *command],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=ROOT,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    result: dict[str, Any] = json.loads(done.stdout)
    return result


def envelope_messages(path: Path) -> Iterator[tuple[str, bytes]]:
    """(direction, exact message bytes) of each line of an envelope recording."""
    for line in path.read_bytes().splitlines():
        row = json.loads(line)
        start = line.index(b'"message": ') + len(b'"message": ')
        assert line.endswith(b"}")
        yield row["direction"], line[start:-1]


def responses_by_id(lines: list[bytes]) -> dict[Any, bytes]:
    out = {}
    for line in lines:
        message = json.loads(line)
        if "method" not in message and "id" in message:
            out[message["id"]] = line
    return out


FLIGHT = {"from": "SFO", "to": "JFK", "date": "2025-12-01", "passengers": 2}
CALLS = [
    {"name": "add", "arguments": {"a": 2, "b": 3}},
    {"name": "book_flight", "arguments": FLIGHT},
    {"name": "add", "arguments": {"a": "two", "b": 3}},
    {"name": "book_flight", "arguments": {"from": "SFO", "to": "JFK"}},
    {"name": "divide", "arguments": {"a": 1, "b": 0}},
    {"name": "no_such_tool", "arguments": {"x": 1}},
]
VALID, INVALID, TOOL_ERROR, UNKNOWN = (0, 1), (2, 3), 4, 5


def test_python_sdk_client_gets_tool_results_through_the_proxy(
    tmp_path: Path, old_ts_server: list[str], sdk_python: Path
) -> None:
    client_view = tmp_path / "client-view.envelope.jsonl"
    server_view = tmp_path / "server-view.jsonl"
    proxy = migrate("proxy", "--record", str(server_view), "--", *old_ts_server)
    # The client's server is `record` (what the client sees) around `proxy` (what the server sent).
    command = migrate("record", "--envelope", "--out", str(client_view), "--", *proxy)
    out = run_sdk_client(sdk_python, CALLS, command)

    assert out["protocolVersion"] == "2025-06-18"
    assert out["tools"] == ["book_flight", "add", "divide"]
    calls = out["calls"]
    for i in VALID:
        assert calls[i]["result"]["isError"] is False
    for i in INVALID:  # the caller gets a tool result, not an exception
        result = calls[i]["result"]
        assert result["isError"] is True
        assert f"tool {CALLS[i]['name']}" in result["content"][0]["text"]
        assert result["_meta"][PROVENANCE]["code"] == -32602
    assert calls[TOOL_ERROR]["result"]["isError"] is True
    assert calls[TOOL_ERROR]["result"]["content"][0]["text"] == "Division by zero"
    # An unknown tool is still a protocol error: the client raises it.
    assert calls[UNKNOWN]["error"]["code"] == -32602
    assert "no_such_tool not found" in calls[UNKNOWN]["error"]["message"]

    seen = list(envelope_messages(client_view))
    sent_by_server = server_view.read_bytes().splitlines()
    client_lines = [m for d, m in seen if d == "client->server"]
    # What the client sent reached the server unchanged...
    assert client_lines == [line for line in sent_by_server if b'"method"' in line]
    # ...and every answer is byte-identical to what the server wrote, except the rewritten two.
    received = responses_by_id([m for d, m in seen if d == "server->client"])
    original = responses_by_id(sent_by_server)
    assert received.keys() == original.keys()
    call_ids = [json.loads(line)["id"] for line in client_lines if b'"tools/call"' in line]
    assert len(call_ids) == len(CALLS)
    rewritten = {call_ids[i] for i in INVALID}
    for request_id, line in original.items():
        if request_id in rewritten:
            assert received[request_id] != line
            assert json.loads(line)["error"]["code"] == -32602
        else:
            assert received[request_id] == line, request_id


def replay(peer_command: list[str], spawn: Spawn) -> tuple[list[bytes], int]:
    """Send the client lines of the 1.20.2 recording one at a time, waiting for each answer.

    Returns the traffic in order (as the relay must have seen it) and the exit code.
    """
    peer = spawn(peer_command)
    traffic: list[bytes] = []
    for line in OLD_TS.read_bytes().splitlines(keepends=True):
        message = json.loads(line)
        if "method" not in message:
            continue  # the server's side of the recording
        peer.send(line)
        traffic.append(line)
        if "id" in message:
            answer = peer.recv()
            assert answer is not None, peer.stderr
            traffic.append(answer)
    return traffic, peer.finish()


def check_json(path: Path) -> list[dict[str, Any]]:
    done = subprocess.run(
        migrate("check", "--output-format", "json", "--fail-on", "never", str(path)),
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=True,
    )
    findings: list[dict[str, Any]] = json.loads(done.stdout)["findings"]
    return findings


def same_calls(findings: list[dict[str, Any]]) -> list[tuple[Any, ...]]:
    return sorted(
        (f["code"], json.dumps(f["request_id"]), f["tool"], f["message"]) for f in findings
    )


@pytest.mark.parametrize("envelope", [False, True], ids=["wire", "envelope"])
def test_record_then_check_finds_what_the_reference_recording_has(
    tmp_path: Path, old_ts_server: list[str], spawn: Spawn, envelope: bool
) -> None:
    out = tmp_path / ("session.envelope.jsonl" if envelope else "session.jsonl")
    flags = ["--envelope"] if envelope else []
    traffic, code = replay(
        migrate("record", *flags, "--out", str(out), "--", *old_ts_server), spawn
    )
    assert code == 0
    if envelope:
        assert [m + b"\n" for _, m in envelope_messages(out)] == traffic
    else:
        assert out.read_bytes() == b"".join(traffic)  # byte-identical to the traffic

    found = check_json(out)
    reference = check_json(OLD_TS)
    assert [f for f in found if f["code"] == "MCP101"]
    assert same_calls(found) == same_calls(reference)
    invalid = {
        json.dumps(c["id"])
        for r in MANIFEST["recordings"]
        if r["target"] == "ts-sdk-old"
        for c in r["calls"]
        if c["category"] == "invalid-arguments"
    }
    assert {json.dumps(f["request_id"]) for f in found if f["code"] == "MCP101"} == invalid


def test_proxy_rewrites_exactly_the_invalid_argument_answers(
    tmp_path: Path, old_ts_server: list[str], spawn: Spawn
) -> None:
    record = tmp_path / "original.jsonl"
    traffic, code = replay(
        migrate("proxy", "-q", "--record", str(record), "--", *old_ts_server), spawn
    )
    assert code == 0
    original = record.read_bytes().splitlines(keepends=True)
    assert len(original) == len(traffic)
    manifest = next(r for r in MANIFEST["recordings"] if r["target"] == "ts-sdk-old")
    invalid = {c["id"] for c in manifest["calls"] if c["category"] == "invalid-arguments"}
    for sent, forwarded in zip(original, traffic, strict=True):
        message = json.loads(forwarded)
        if "method" not in message and message["id"] in invalid:
            assert message["result"]["isError"] is True
            assert json.loads(sent)["error"]["code"] == -32602
        else:
            assert forwarded == sent  # every other line, both ways, byte for byte
