"""``proxy --url`` and ``record --url`` in front of a tiny HTTP upstream.

The upstream (``http_upstream.py``) is a real starlette app served by uvicorn
in its own process; the proxy is ``mcp-transcripts`` run as a subprocess; the
client is httpx. The real SDKs are in ``test_http_sdk.py``.
"""

from __future__ import annotations

import json
import signal
import socket
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import run_cli
from tests.wire.helpers import HERE, INITIALIZE, LIST_TOOLS, ROOT, Peer, Spawn, call, migrate

httpx = pytest.importorskip(
    "httpx", reason="the http extra is not installed: pip install -e '.[http]'"
)
pytest.importorskip("uvicorn", reason="the http extra is not installed: pip install -e '.[http]'")

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")

UPSTREAM = HERE / "http_upstream.py"
ACCEPT = {"accept": "application/json, text/event-stream", "content-type": "application/json"}
PROVENANCE = "io.github.mcp-transcripts/original-error"


def start_upstream(spawn: Spawn) -> str:
    return spawn([sys.executable, str(UPSTREAM)]).line().decode().strip()


def start_proxy(spawn: Spawn, *args: str) -> tuple[Peer, str]:
    """A proxy (or recorder) process and the URL it printed."""
    peer = spawn(migrate(*args))
    return peer, peer.line().decode().strip()


def post(url: str, message: Any, fixture: str = "json", **headers: str) -> httpx.Response:
    body = message if isinstance(message, bytes) else json.dumps(message).encode()
    return httpx.post(
        url,
        content=body,
        headers={**ACCEPT, "x-fixture": fixture, "mcp-session-id": "s-1", **headers},
        timeout=20,
    )


def sse_messages(response: httpx.Response) -> list[dict[str, Any]]:
    return [
        json.loads(line[len("data: ") :])
        for line in response.text.splitlines()
        if line.startswith("data: ")
    ]


def stop(peer: Peer) -> int:
    peer.proc.send_signal(signal.SIGINT)
    return peer.wait()


def test_proxy_rewrites_invalid_arguments_in_json_and_sse_answers(spawn: Spawn) -> None:
    upstream = start_upstream(spawn)
    proxy, url = start_proxy(spawn, "proxy", "--url", upstream)
    assert url.startswith("http://127.0.0.1:") and url.endswith("/mcp")
    assert url != upstream
    post(url, INITIALIZE)
    post(url, LIST_TOOLS)

    valid = call(3, "add", {"a": 1, "b": 2})
    assert post(url, valid).content == post(upstream, valid).content  # byte for byte

    invalid = post(url, call(4, "add", {"a": "one", "b": 2}))
    assert invalid.status_code == 200
    assert int(invalid.headers["content-length"]) == len(invalid.content)  # recomputed
    assert len(invalid.headers.get_list("set-cookie")) == 2  # repeated headers kept
    result = invalid.json()["result"]
    assert result["isError"] is True
    assert "tool add" in result["content"][0]["text"]
    assert result["_meta"][PROVENANCE]["code"] == -32602

    unknown = call(5, "nope", {})
    assert post(url, unknown).content == post(upstream, unknown).content

    streamed = post(url, call(6, "add", {"a": "one", "b": 2}), "sse")
    assert streamed.headers["content-type"].startswith("text/event-stream")
    note, answer = sse_messages(streamed)
    assert note["method"] == "notifications/message"
    assert answer["id"] == 6 and answer["result"]["isError"] is True
    assert "id: e-2" in streamed.text  # event ids pass through (resumption)

    valid_sse = post(url, call(7, "add", {"a": 1, "b": 2}), "sse")
    assert sse_messages(valid_sse)[1] == json.loads(
        post(upstream, call(7, "add", {"a": 1, "b": 2})).content
    )
    assert stop(proxy) == 0
    assert "2 rewritten" in proxy.stderr


def test_a_stateless_session_takes_its_version_from_the_protocol_version_header(
    spawn: Spawn,
) -> None:
    upstream = start_upstream(spawn)
    proxy, url = start_proxy(spawn, "proxy", "-q", "--url", upstream)
    headers = {**ACCEPT, "mcp-protocol-version": "2026-07-28"}
    bad = json.dumps(call(1, "add", {"a": "one", "b": 2}))
    result = httpx.post(url, content=bad, headers=headers, timeout=20).json()["result"]
    assert result["isError"] is True
    assert result["resultType"] == "complete"  # the 2026-07-28 shape, without a handshake
    assert stop(proxy) == 0


def test_unreachable_and_slow_upstreams_get_502_and_504_and_the_proxy_goes_on(
    spawn: Spawn,
) -> None:
    with socket.socket() as sock:  # a port nobody listens on
        sock.bind(("127.0.0.1", 0))
        dead = f"http://127.0.0.1:{sock.getsockname()[1]}/mcp"
    _, url = start_proxy(spawn, "proxy", "--url", dead)
    gone = post(url, call(41, "add", {"a": 1, "b": 2}))
    assert gone.status_code == 502
    assert gone.json()["id"] == 41 and "cannot be reached" in gone.json()["error"]["message"]

    upstream = start_upstream(spawn)
    proxy, url = start_proxy(spawn, "proxy", "--url", upstream, "--upstream-timeout", "0.5")
    late = post(url, call("late", "add", {"a": 1, "b": 2}), "slow")
    assert late.status_code == 504
    assert late.json()["id"] == "late"
    assert (
        post(url, call(43, "add", {"a": 1, "b": 2})).json()["result"]["content"][0]["text"] == "3"
    )
    assert stop(proxy) == 0


def test_bodies_that_are_not_one_message_pass_byte_for_byte_and_are_noted_once(
    spawn: Spawn,
) -> None:
    upstream = start_upstream(spawn)
    proxy, url = start_proxy(spawn, "proxy", "--url", upstream)
    batch = [call(1, "add", {"a": "x", "b": 1}), call(2, "add", {"a": 1, "b": 1})]
    for _ in range(2):
        assert post(url, batch, "batch").content == post(upstream, batch, "batch").content
        text = post(url, b"hello", "text")
        assert text.content == b"plain text, not JSON\n"
        assert text.headers["content-type"].startswith("text/plain")
    assert stop(proxy) == 0
    assert proxy.stderr.count("JSON-RPC batch") == 1
    assert proxy.stderr.count("not one JSON value") == 1


def test_record_writes_envelopes_and_har_without_credentials_and_check_reads_both(
    spawn: Spawn, tmp_path: Path
) -> None:
    upstream = start_upstream(spawn)
    out, har = tmp_path / "session.jsonl", tmp_path / "session.har"
    recorder, url = start_proxy(
        spawn, "record", "--url", upstream, "--out", str(out), "--har", str(har)
    )
    secret = {"authorization": "Bearer s3cret-token"}
    assert post(url, INITIALIZE, **secret).headers["x-seen-authorization"] == "Bearer s3cret-token"
    post(url, LIST_TOOLS, **secret)
    recorded = post(url, call(3, "add", {"a": "one", "b": 2}), "sse", **secret)
    assert sse_messages(recorded)[1]["error"]["code"] == -32602  # record changes nothing
    assert httpx.delete(url, headers={"mcp-session-id": "s-1"}).status_code == 204
    assert stop(recorder) == 0

    rows = [json.loads(line) for line in out.read_bytes().splitlines()]
    assert [r["direction"] for r in rows] == ["client->server", "server->client"] * 2 + [
        "client->server",
        "server->client",
        "server->client",
    ]
    assert rows[1]["http"] == {"method": "POST", "status": 200, "session": "s-1"}
    assert rows[-1]["http"]["event_id"] == "e-2"
    document = json.loads(har.read_text(encoding="utf-8"))
    assert len(document["log"]["entries"]) == 4
    for path in (out, har):
        assert "s3cret" not in path.read_text(encoding="utf-8")
        assert "cookie-two" not in path.read_text(encoding="utf-8")
        done = subprocess.run(
            migrate("check", "--output-format", "json", "--fail-on", "never", str(path)),
            capture_output=True,
            text=True,
            cwd=ROOT,
            check=True,
        )
        findings = json.loads(done.stdout)["findings"]
        assert [(f["code"], f["request_id"]) for f in findings if f["code"] == "MCP101"] == [
            ("MCP101", 3)
        ]


def test_ctrl_c_with_a_stream_open_ends_promptly_with_complete_files(
    spawn: Spawn, tmp_path: Path
) -> None:
    upstream = start_upstream(spawn)
    out, har = tmp_path / "stream.jsonl", tmp_path / "stream.har"
    recorder, url = start_proxy(
        spawn, "record", "--url", upstream, "--out", str(out), "--har", str(har)
    )
    headers = {"accept": "text/event-stream", "mcp-session-id": "s-1"}
    with httpx.stream("GET", url, headers=headers, timeout=20) as stream:
        lines = stream.iter_lines()
        assert next(lines) == "id: t-1"
        recorder.proc.send_signal(signal.SIGINT)
        assert recorder.wait(timeout=10) == 0
        rest = list(lines)  # the stream ends with the recorder, it is not cut mid-event
    assert "Traceback" not in recorder.stderr
    assert rest[-1] == "" and rest[-2].startswith("data: ")
    rows = [json.loads(line) for line in out.read_bytes().splitlines()]
    assert rows and all(r["http"]["method"] == "GET" for r in rows)
    entry = json.loads(har.read_text(encoding="utf-8"))["log"]["entries"][0]
    assert entry["response"]["content"]["text"].startswith("id: t-1\ndata: ")


def test_har_keeps_credentials_only_with_record_secrets_and_listening_wide_warns(
    spawn: Spawn, tmp_path: Path
) -> None:
    upstream = start_upstream(spawn)
    har = tmp_path / "secrets.har"
    proxy, url = start_proxy(
        spawn,
        "proxy",
        "--url",
        upstream,
        "--har",
        str(har),
        "--record-secrets",
        "--listen",
        "0.0.0.0:0",
    )
    assert url.startswith("http://0.0.0.0:")
    post(url.replace("0.0.0.0", "127.0.0.1"), INITIALIZE, authorization="Bearer s3cret-token")
    assert stop(proxy) == 0
    assert "Bearer s3cret-token" in har.read_text(encoding="utf-8")
    assert "warning: listening on 0.0.0.0" in proxy.stderr


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["proxy", "--url", "http://127.0.0.1:1/mcp", "--", "node", "s.js"], "not both"),
        (["proxy", "--listen", "127.0.0.1:0", "--", "node", "s.js"], "--listen needs --url"),
        (["record", "--url", "ftp://x/mcp", "--out", "x.jsonl"], "http:// or https://"),
        (["proxy", "--url", "http://127.0.0.1:1/mcp", "--listen", "9100"], "HOST:PORT"),
    ],
)
def test_wrong_command_lines_are_usage_errors(args: list[str], message: str) -> None:
    result = run_cli(*args)
    assert result.code == 2
    assert message in result.err


def test_a_missing_http_extra_says_how_to_install_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "httpx", None)  # import httpx now fails
    result = run_cli("proxy", "--url", "http://127.0.0.1:1/mcp")
    assert result.code == 2
    assert "pip install 'mcp-transcripts[http]'" in result.err


@pytest.mark.parametrize("command", ["proxy", "record"])
def test_the_former_upstream_option_still_works_and_warns_once(
    spawn: Spawn, command: str, tmp_path: Path
) -> None:
    # proxy, record and probe name the server's URL --url; --upstream was proxy's and
    # record's name for it and stays for one release.
    upstream = start_upstream(spawn)
    extra = ["--out", str(tmp_path / "r.jsonl")] if command == "record" else []
    peer, url = start_proxy(spawn, command, "--upstream", upstream, *extra)
    answer = post(url, INITIALIZE)
    assert answer.status_code == 200
    stop(peer)
    warnings = [line for line in peer.stderr.splitlines() if "--upstream is now --url" in line]
    assert len(warnings) == 1, peer.stderr


def test_probe_and_proxy_spell_the_server_url_alike() -> None:
    from migrator.cli import build_parser

    parser = build_parser()
    for command in ("proxy", "record", "probe"):
        sub = parser._subparsers._group_actions[0].choices[command]  # type: ignore[union-attr]
        visible = {o for a in sub._actions if a.help != "==SUPPRESS==" for o in a.option_strings}
        assert "--url" in visible and "--upstream" not in visible, command
