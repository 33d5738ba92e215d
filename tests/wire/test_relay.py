"""``record`` and ``proxy`` as real subprocesses in front of a tiny Python stdio server.

No mocks: every test starts ``python -m migrator`` with real pipes, and the
server is ``stdio_server.py`` beside this file.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import signal
import sys
import threading
import time
from pathlib import Path

import pytest

from migrator.live.recording import envelope_line, is_one_json_value, strip_line_ending
from migrator.live.relay import exit_status, read_lines
from migrator.model.units import Direction
from tests.wire.helpers import (
    Spawn,
    call,
    compact,
    handshake,
    migrate,
    tiny_server,
    with_default_sigint,
)

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX pipes and signals")

C2S, S2C = Direction.CLIENT_TO_SERVER, Direction.SERVER_TO_CLIENT


# --- the pieces, in process ---------------------------------------------------------------


def test_read_lines_splits_at_newlines_only_and_keeps_a_last_partial_line() -> None:
    read_fd, write_fd = os.pipe()
    chunks = [b'{"a":1}\n{"b"', b":2}\r\n\n", b"x\ry\xff\n", b"tail"]

    def writer() -> None:
        for chunk in chunks:
            os.write(write_fd, chunk)
            time.sleep(0.01)
        os.close(write_fd)

    thread = threading.Thread(target=writer)
    thread.start()
    lines = list(read_lines(read_fd, chunk_size=4))
    thread.join()
    os.close(read_fd)
    assert lines == [b'{"a":1}\n', b'{"b":2}\r\n', b"\n", b"x\ry\xff\n", b"tail"]


def test_read_lines_yields_a_line_before_more_input_arrives() -> None:
    read_fd, write_fd = os.pipe()
    os.write(write_fd, b"first\nsec")
    lines = read_lines(read_fd)
    assert next(lines) == b"first\n"  # would block if it waited for more
    os.write(write_fd, b"ond\n")
    assert next(lines) == b"second\n"
    os.close(write_fd)
    assert list(lines) == []
    os.close(read_fd)


def test_envelope_embeds_the_message_bytes_as_they_are() -> None:
    when = dt.datetime(2026, 1, 2, 3, 4, 5, 6000, tzinfo=dt.timezone.utc)
    line = b'{ "jsonrpc" : "2.0", "id":1, "result":{"x":"\\u00e9\xc3\xa9"} }\r\n'
    out = envelope_line(line, S2C, when)
    assert out == (
        b'{"ts": "2026-01-02T03:04:05.006000Z", "direction": "server->client", "message": '
        + strip_line_ending(line)
        + b"}\n"
    )
    assert json.loads(out)["message"] == {"jsonrpc": "2.0", "id": 1, "result": {"x": "éé"}}


def test_envelope_keeps_a_line_that_is_not_json_as_a_raw_string() -> None:
    out = envelope_line(b"server log: ready\n", S2C)
    row = json.loads(out)
    assert row["raw"] == "server log: ready" and "message" not in row
    assert json.loads(envelope_line(b"\n", C2S))["raw"] == ""
    assert not is_one_json_value(b'{"a":1} {"b":2}')
    assert is_one_json_value(b"  [1, 2] ")


def test_exit_status_of_a_signal_death_is_128_plus_the_signal() -> None:
    assert exit_status(0) == 0
    assert exit_status(3) == 3
    assert exit_status(-signal.SIGTERM) == 128 + signal.SIGTERM


# --- record ---------------------------------------------------------------------------------


def test_record_forwards_and_records_every_byte(spawn: Spawn, tmp_path: Path) -> None:
    out = tmp_path / "session.jsonl"
    peer = spawn(migrate("record", "--out", str(out), "--", *tiny_server("--mode", "chatty")))
    traffic: list[bytes] = []
    request = compact(call(7, "echo", {"text": "h\u00e9llo \u2028 \\n"}))
    odd = [
        b"  " + request.rstrip(b"\n") + b"  \r\n",
        b"not json at all\n",
        b"\n",
        b'{"bad utf8": "\xff"}\n',
    ]
    for line in [request, *odd]:
        peer.send(line)
        traffic.append(line)
    # chatty: one log line, then the answer (to the two echo requests only)
    for _ in range(4):
        traffic.append(peer.line())
    assert peer.finish() == 0
    # Each direction keeps its order; only the interleaving depends on timing.
    recorded = out.read_bytes().splitlines(keepends=True)
    sent = [line for line in recorded if line in odd or line == request]
    assert sent == [request, *odd]
    assert sorted(recorded) == sorted(traffic)
    answers = [json.loads(line) for line in traffic[len(odd) + 1 :] if line.startswith(b"{")]
    assert len(answers) == 2
    assert answers[0]["result"]["content"][0]["text"] == "h\u00e9llo \u2028 \\n"


def test_record_envelope_lines_carry_direction_and_exact_message(
    spawn: Spawn, tmp_path: Path
) -> None:
    out = tmp_path / "session.envelope.jsonl"
    peer = spawn(migrate("record", "--envelope", "--out", str(out), "--", *tiny_server()))
    answers = handshake(peer)
    assert peer.finish() == 0
    rows = [json.loads(line) for line in out.read_bytes().splitlines()]
    assert [r["direction"] for r in rows] == [
        "client->server", "server->client", "client->server", "client->server", "server->client",
    ]  # fmt: skip
    raw_lines = out.read_bytes().splitlines(keepends=True)
    assert raw_lines[1].endswith(b'"message": ' + answers[0].rstrip(b"\n") + b"}\n")
    assert all(r["ts"].endswith("Z") for r in rows)


def test_record_keeps_everything_up_to_a_server_crash(spawn: Spawn, tmp_path: Path) -> None:
    out = tmp_path / "crash.jsonl"
    marker = tmp_path / "marker"
    peer = spawn(
        migrate(
            "record", "-o", str(out), "--", *tiny_server("--mode", "crash", "--marker", str(marker))
        )
    )
    handshake(peer)
    peer.send(compact(call(9, "crash", {})))
    assert peer.recv() == b'{"jsonrpc":"2.0","id":'  # the half line, forwarded as it came
    assert peer.recv() is None
    assert peer.wait() == 3  # the server's exit code, while our stdin is still open
    lines = out.read_bytes().splitlines()
    assert len(lines) == 7
    assert json.loads(lines[5])["id"] == 9
    assert lines[6] == b'{"jsonrpc":"2.0","id":'
    assert marker.read_text() == "crash\n"
    assert "Traceback" not in peer.stderr and "Fatal" not in peer.stderr


def test_client_closing_stdin_ends_the_server_and_the_relay(spawn: Spawn, tmp_path: Path) -> None:
    marker = tmp_path / "marker"
    peer = spawn(migrate("proxy", "--", *tiny_server("--marker", str(marker))))
    handshake(peer)
    started = time.monotonic()
    peer.close_stdin()
    assert peer.recv() is None
    assert peer.wait() == 0
    assert time.monotonic() - started < 5
    assert marker.read_text() == "eof\n"  # the server saw end of input
    assert "Traceback" not in peer.stderr


@pytest.mark.parametrize(
    ("signum", "expected_code", "expected_marker"),
    [(signal.SIGTERM, 0, "SIGTERM\n"), (signal.SIGINT, 128 + signal.SIGINT, "")],
)
def test_signals_are_forwarded_and_the_exit_code_follows(
    spawn: Spawn, tmp_path: Path, signum: int, expected_code: int, expected_marker: str
) -> None:
    marker = tmp_path / "marker"
    marker.write_text("")
    peer = spawn(with_default_sigint(migrate("proxy", "--", *tiny_server("--marker", str(marker)))))
    handshake(peer)  # both processes are up and serving
    peer.proc.send_signal(signum)
    # The server handles SIGTERM (exit 0); Python servers die of SIGINT (130).
    assert peer.wait() == expected_code
    assert marker.read_text() == expected_marker


def test_unknown_server_command_is_a_usage_error(spawn: Spawn, tmp_path: Path) -> None:
    peer = spawn(migrate("record", "--out", str(tmp_path / "x.jsonl"), "--", "no-such-server-xyz"))
    assert peer.finish() == 2
    assert "mcp-transcripts: error: cannot start the server 'no-such-server-xyz'" in peer.stderr


def test_missing_server_command_is_a_usage_error(spawn: Spawn) -> None:
    peer = spawn(migrate("proxy", "--"))
    assert peer.finish() == 2
    assert "no server command" in peer.stderr


# --- proxy ------------------------------------------------------------------------------------


def test_proxy_rewrites_invalid_arguments_and_passes_the_rest_byte_for_byte(
    spawn: Spawn, tmp_path: Path
) -> None:
    record = tmp_path / "original.jsonl"
    peer = spawn(migrate("proxy", "--record", str(record), "--", *tiny_server("--mode", "chatty")))
    received = []
    for message in [call(1, "add", {"a": 1, "b": 2})]:  # before any handshake: still forwarded
        peer.send(compact(message))
        received += [peer.line(), peer.line()]
    handshake_lines = []
    for request in (
        {"jsonrpc": "2.0", "id": 10, "method": "initialize", "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}},
        {"jsonrpc": "2.0", "id": 11, "method": "tools/list"},
    ):  # fmt: skip
        peer.send(compact(request))
        handshake_lines += [peer.line(), peer.line()]
    peer.send(compact(call(12, "add", {"a": "two", "b": 3})))
    log_line, fixed = peer.line(), peer.line()
    peer.send(compact(call(13, "nope", {})))
    unknown = [peer.line(), peer.line()]
    assert peer.finish() == 0
    assert log_line == b"server log: handling tools/call\n"  # non-JSON stdout passes through
    assert fixed is not None
    result = json.loads(fixed)
    assert result["id"] == 12 and "error" not in result
    assert result["result"]["isError"] is True
    assert result["result"]["_meta"]["io.github.mcp-transcripts/original-error"]["code"] == -32602
    # Every other server line is exactly what the server wrote (the recording has the originals).
    original = record.read_bytes().splitlines(keepends=True)
    server_lines = [line for line in original if b'"method"' not in line]
    forwarded = [*received, *handshake_lines, log_line, fixed, *unknown]
    assert len(server_lines) == len(forwarded)
    differ = [(a, b) for a, b in zip(server_lines, forwarded, strict=True) if a != b]
    assert len(differ) == 1 and b'"id":12,"error"' in differ[0][0]
    assert json.loads(unknown[1])["error"]["message"] == "Tool nope not found"
    assert "MCP101" in peer.stderr and "[rewritten]" in peer.stderr
    assert "mcp-transcripts: proxy: " in peer.stderr


def test_proxy_pairs_a_server_ping_that_reuses_a_pending_call_id(
    spawn: Spawn, tmp_path: Path
) -> None:
    record = tmp_path / "original.jsonl"
    marker = tmp_path / "marker"
    server = tiny_server("--mode", "ping-first", "--marker", str(marker))
    peer = spawn(migrate("proxy", "--record", str(record), "--", *server))
    handshake(peer)
    peer.send(compact(call(5, "add", {"a": "x", "b": 2})))
    ping = peer.recv()
    assert ping == b'{"jsonrpc":"2.0","id":5,"method":"ping"}\n'  # forwarded unchanged
    pong = b'{"jsonrpc":"2.0","id":5,"result":{}}\n'
    peer.send(pong)
    answer = peer.recv()
    assert peer.finish() == 0
    assert answer is not None
    # The error answers the tools/call (not the ping): so it was judged, and rewritten.
    message = json.loads(answer)
    assert message["id"] == 5 and message["result"]["isError"] is True
    assert 'ping answered: {"id": 5, "jsonrpc": "2.0", "result": {}}' in marker.read_text()
    lines = record.read_bytes().splitlines(keepends=True)
    assert lines[-3:-1] == [ping, pong]
    assert b'"error":{"code":-32602' in lines[-1]


def test_proxy_passes_a_10_mb_line_intact_both_ways(spawn: Spawn, tmp_path: Path) -> None:
    peer = spawn(migrate("proxy", "-q", "--", *tiny_server()))
    handshake(peer)
    text = ("0123456789abcdef\u00e9" * (10 * 1024 * 1024 // 18 + 1))[: 10 * 1024 * 1024]
    request = compact(call(3, "echo", {"text": text}))
    assert len(request) > 10 * 1024 * 1024
    started = time.monotonic()
    answer = peer.request(call(3, "echo", {"text": text}))
    elapsed = time.monotonic() - started
    assert json.loads(answer)["result"]["content"][0]["text"] == text
    assert peer.finish() == 0
    assert elapsed < 15, f"10 MB round trip took {elapsed:.1f}s"
