"""``proxy --url`` between real MCP SDKs over Streamable HTTP.

Servers: the TypeScript SDK 1.20.2 ``StreamableHTTPServerTransport`` (which
still answers invalid arguments with -32602) in SSE and in JSON-response mode,
and the Python SDK's streamable-http app (newest release). Clients: the
TypeScript ``StreamableHTTPClientTransport`` and the Python
``streamable_http_client``. All are installed into ``.fixtures-work/`` by
``scripts/record_fixtures.py``'s install steps (see ``test_sdk.py``).
"""

from __future__ import annotations

import json
import re
import shutil
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.wire.helpers import HERE, INITIALIZE, ROOT, Peer, Spawn, migrate
from tests.wire.test_sdk import (  # noqa: F401 - fixtures
    CALLS,
    INVALID,
    PROVENANCE,
    TOOL_ERROR,
    UNKNOWN,
    VALID,
    check_json,
    old_ts_server,
    recorder,
    sdk_python,
)

httpx = pytest.importorskip(
    "httpx", reason="the http extra is not installed: pip install -e '.[http]'"
)

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals"),
]

FIXTURE_SERVERS = ROOT / "scripts" / "fixture_servers"
ACCEPT = {"accept": "application/json, text/event-stream", "content-type": "application/json"}
NAMED_ARGUMENT = {2: "arguments.a", 3: "arguments.date"}  # what each invalid call got wrong
FINDING = re.compile(r"mcp-transcripts: <proxy>:\d+:\d+: (MCP\d+) (.*?)( \[rewritten\])?$")


@pytest.fixture(scope="session")
def ts_prefix(old_ts_server: list[str]) -> Path:  # noqa: F811
    """The npm prefix of SDK 1.20.2, with the HTTP fixture server and client beside it."""
    prefix = Path(old_ts_server[1]).parent
    shutil.copyfile(FIXTURE_SERVERS / "ts_http_server.mjs", prefix / "ts_http_server.mjs")
    shutil.copyfile(HERE / "ts_http_client.mjs", prefix / "ts_http_client.mjs")
    return prefix


def url_of(peer: Peer) -> str:
    return peer.line().decode().strip()


def ts_server(spawn: Spawn, prefix: Path, mode: str) -> str:
    return url_of(spawn(["node", str(prefix / "ts_http_server.mjs"), mode]))


def proxy(spawn: Spawn, upstream: str, *args: str) -> tuple[Peer, str]:
    peer = spawn(migrate("proxy", "--url", upstream, *args))
    return peer, url_of(peer)


def stop(peer: Peer) -> int:
    peer.proc.send_signal(signal.SIGINT)
    return peer.wait()


def run_client(command: list[str], url: str, cwd: Path = ROOT) -> dict[str, Any]:
    done = subprocess.run(
        [*command, json.dumps(CALLS), url],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=cwd,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    result: dict[str, Any] = json.loads(done.stdout)
    return result


def assert_fixed(through: dict[str, Any], direct: dict[str, Any]) -> None:
    """Invalid arguments became isError results; everything else arrived unchanged."""
    assert through["tools"] == direct["tools"]
    calls = through["calls"]
    for i in (*VALID, TOOL_ERROR, UNKNOWN):
        assert calls[i] == direct["calls"][i], CALLS[i]
    for i in INVALID:
        assert "error" in direct["calls"][i]
        result = calls[i]["result"]
        assert result["isError"] is True
        assert f"tool {CALLS[i]['name']}" in result["content"][0]["text"]
        assert NAMED_ARGUMENT[i] in result["content"][0]["text"]
        assert result["_meta"][PROVENANCE]["code"] == -32602
    assert calls[UNKNOWN]["error"]["code"] == -32602


def live_findings(stderr: str) -> list[tuple[str, str]]:
    found = []
    for line in stderr.splitlines():
        match = FINDING.match(line)
        if match:
            found.append((match[1], match[2]))
    return sorted(found)


def test_python_client_through_the_proxy_to_the_ts_server_in_sse_mode(
    spawn: Spawn,
    tmp_path: Path,
    ts_prefix: Path,
    sdk_python: Path,  # noqa: F811
) -> None:
    upstream = ts_server(spawn, ts_prefix, "sse")
    recording = tmp_path / "session.jsonl"
    peer, url = proxy(spawn, upstream, "--record", str(recording))
    client = [str(sdk_python), str(HERE / "sdk_http_client.py")]
    through = run_client(client, url)
    direct = run_client(client, upstream)
    assert_fixed(through, direct)
    assert stop(peer) == 0

    live = live_findings(peer.stderr)
    assert [code for code, _ in live].count("MCP101") == len(INVALID)
    replayed = sorted((f["code"], f["message"]) for f in check_json(recording))
    assert replayed == live  # the recording holds what the live run judged


def test_ts_client_through_the_proxy_to_the_ts_server_in_json_mode(
    spawn: Spawn, ts_prefix: Path
) -> None:
    upstream = ts_server(spawn, ts_prefix, "json")
    peer, url = proxy(spawn, upstream, "-q")
    client = ["node", str(ts_prefix / "ts_http_client.mjs")]
    through = run_client(client, url, cwd=ts_prefix)
    direct = run_client(client, upstream, cwd=ts_prefix)
    assert through["protocolVersion"] == direct["protocolVersion"] == "2025-06-18"
    assert_fixed(through, direct)
    assert stop(peer) == 0


def test_python_server_answers_pass_unchanged(
    spawn: Spawn,
    tmp_path: Path,
    sdk_python: Path,  # noqa: F811
) -> None:
    upstream = url_of(spawn([str(sdk_python), str(FIXTURE_SERVERS / "py_http_server.py")]))
    recording = tmp_path / "py.jsonl"
    peer, url = proxy(spawn, upstream, "--record", str(recording))
    client = [str(sdk_python), str(HERE / "sdk_http_client.py")]
    through = run_client(client, url)
    for i in INVALID:  # this SDK already answers with tool results: nothing to fix
        assert through["calls"][i]["result"]["isError"] is True
    assert through["calls"][TOOL_ERROR]["result"]["isError"] is True
    assert stop(peer) == 0
    assert " 0 rewritten" in peer.stderr
    assert not [f for f in check_json(recording) if f["code"] == "MCP101"]


def sse_events(response: httpx.Response) -> Any:
    """(id, message) of each event as it arrives."""
    event_id = ""
    for line in response.iter_lines():
        if line.startswith("id: "):
            event_id = line[4:]
        elif line.startswith("data: "):
            yield event_id, json.loads(line[6:])


def test_session_lifetime_and_resumption_through_the_proxy(spawn: Spawn, ts_prefix: Path) -> None:
    upstream = ts_server(spawn, ts_prefix, "sse")
    peer, url = proxy(spawn, upstream)
    with httpx.Client(timeout=20) as client:
        init = client.post(url, json=INITIALIZE, headers=ACCEPT)
        session = init.headers["mcp-session-id"]
        version = next(m for _, m in sse_events(init))["result"]["protocolVersion"]
        headers = {**ACCEPT, "mcp-session-id": session, "mcp-protocol-version": version}
        initialized = {"jsonrpc": "2.0", "method": "notifications/initialized"}
        assert client.post(url, json=initialized, headers=headers).status_code == 202

        bad = {"name": "add", "arguments": {"a": "two", "b": 3}}
        answer = client.post(
            url,
            json={"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": bad},
            headers=headers,
        )
        assert next(m for _, m in sse_events(answer))["result"]["isError"] is True

        with client.stream(
            "GET", url, headers={**headers, "accept": "text/event-stream"}
        ) as stream:
            assert stream.status_code == 200
            assert stream.headers["content-type"].startswith("text/event-stream")

        # A long call: take its first event, drop the connection, resume with Last-Event-ID.
        count = {
            "jsonrpc": "2.0",
            "id": 3,
            "method": "tools/call",
            "params": {"name": "count", "arguments": {"n": 3, "delay": 300}},
        }
        with client.stream("POST", url, json=count, headers=headers) as stream:
            first_id, first = next(sse_events(stream))
        assert first["params"]["data"] == "tick 1" and first_id
        resumed = {**headers, "accept": "text/event-stream", "last-event-id": first_id}
        rest = []
        with client.stream("GET", url, headers=resumed) as stream:
            for _, message in sse_events(stream):
                rest.append(message)
                if "result" in message:
                    break
        assert [m["params"]["data"] for m in rest[:-1]] == ["tick 2", "tick 3"]
        assert rest[-1]["result"]["content"][0]["text"] == "counted to 3"

        assert client.delete(url, headers=headers).status_code == 200
        after = client.post(
            url, json={"jsonrpc": "2.0", "id": 4, "method": "ping"}, headers=headers
        )
        assert after.status_code == 404
    assert stop(peer) == 0
