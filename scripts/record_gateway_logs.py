#!/usr/bin/env python3
"""Record real supergateway logs in front of real TypeScript SDK servers, as test fixtures.

Usage (paths are relative to the repository root):

    python scripts/record_gateway_logs.py               # install, record, write everything
    python scripts/record_gateway_logs.py --no-install  # reuse the installs in .fixtures-work/

What it does:

1. Installs, with npm, into the git-ignored `.fixtures-work/gateways/<server>/`: the
   `supergateway` package and a release of `@modelcontextprotocol/sdk` with zod 3: an old
   release (1.20.2, answers invalid arguments with a -32602 error) and a new one (1.32.2,
   answers them with an `isError` tool result).
2. For each mode, starts supergateway on a loopback port with the fixture server
   `scripts/fixture_servers/ts_server.mjs` behind it (`--stdio "node ts_server.mjs"`), and
   keeps everything it prints, standard output and standard error, in one file, in order.
3. Drives it over HTTP (or a WebSocket) with the client plan below: raw JSON-RPC requests,
   one at a time, each waiting for its answer.
4. Writes `tests/fixtures/gateways/supergateway/<mode>-<server>.log`.

Modes: `streamable-stateless` and `streamable-stateful` (`--outputTransport
streamableHttp`, without and with `--stateful`), `sse-info` and `sse-debug` (`--outputTransport
sse`, `--logLevel info` and `debug`), `ws` (`--outputTransport ws`).

Every request and only loopback: the gateway listens on 127.0.0.1 and is stopped at the end.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import queue
import shutil
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
WORK = REPO / ".fixtures-work" / "gateways"
OUT = REPO / "tests" / "fixtures" / "gateways" / "supergateway"
SERVER_SOURCE = REPO / "scripts" / "fixture_servers" / "ts_server.mjs"
SUPERGATEWAY = "supergateway@4.0.0"
SERVERS = {"old": "1.20.2", "new": "1.32.2"}
TIMEOUT = 20.0

# id -> (method, params): what the client sends after the handshake.
PLAN: list[tuple[int, str, dict[str, Any]]] = [
    (2, "tools/list", {}),
    (10, "tools/call", {"name": "add", "arguments": {"a": 2, "b": 3}}),
    (11, "tools/call", {"name": "add", "arguments": {"a": "two", "b": 3}}),
    (12, "tools/call", {"name": "book_flight", "arguments": {"from": "SFO", "to": "JFK"}}),
    (13, "tools/call", {"name": "no_such_tool", "arguments": {}}),
    (14, "tools/call", {"name": "divide", "arguments": {"a": 1, "b": 0}}),
]
INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {
        "protocolVersion": "2025-06-18",
        "capabilities": {},
        "clientInfo": {"name": "record-gateway-logs", "version": "1"},
    },
}
INITIALIZED = {"jsonrpc": "2.0", "method": "notifications/initialized"}


def install(server: str) -> Path:
    prefix = WORK / server
    prefix.mkdir(parents=True, exist_ok=True)
    subprocess.run(
        ["npm", "install", "--prefix", str(prefix), "--no-audit", "--no-fund", SUPERGATEWAY,
         f"@modelcontextprotocol/sdk@{SERVERS[server]}", "zod@3"],
        check=True, stdout=subprocess.DEVNULL,
    )  # fmt: skip
    return prefix


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def request(message_id: int, method: str, params: dict[str, Any]) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": message_id, "method": method, "params": params}


def post(url: str, message: dict[str, Any], headers: dict[str, str]) -> tuple[str, dict[str, str]]:
    data = json.dumps(message).encode()
    req = urllib.request.Request(url, data=data, method="POST")
    req.add_header("Content-Type", "application/json")
    req.add_header("Accept", "application/json, text/event-stream")
    for key, value in headers.items():
        req.add_header(key, value)
    try:
        with urllib.request.urlopen(req, timeout=TIMEOUT) as response:
            return response.read().decode(), dict(response.headers)
    except urllib.error.HTTPError as exc:  # 202 for notifications is not an error; 4xx is logged
        return exc.read().decode(), dict(exc.headers)


def drive_streamable(base: str, stateful: bool) -> None:
    headers: dict[str, str] = {}
    _, answer_headers = post(base, INITIALIZE, headers)
    session = answer_headers.get("mcp-session-id") or answer_headers.get("Mcp-Session-Id")
    if stateful and session:
        headers["mcp-session-id"] = session
    post(base, INITIALIZED, headers)
    for message_id, method, params in PLAN:
        post(base, request(message_id, method, params), headers)


def drive_sse(base: str) -> None:
    events: queue.Queue[tuple[str, str]] = queue.Queue()
    stream = urllib.request.urlopen(base + "/sse", timeout=TIMEOUT)

    def read() -> None:
        with contextlib.suppress(OSError, ValueError):  # the stream is closed under it at the end
            _read()

    def _read() -> None:
        event, data = "message", []
        for raw in stream:
            line = raw.decode().rstrip("\r\n")
            if not line:
                events.put((event, "\n".join(data)))
                event, data = "message", []
            elif line.startswith("event:"):
                event = line[6:].strip()
            elif line.startswith("data:"):
                data.append(line[5:].strip())

    threading.Thread(target=read, daemon=True).start()
    kind, endpoint = events.get(timeout=TIMEOUT)
    assert kind == "endpoint", kind
    url = base + endpoint if endpoint.startswith("/") else endpoint
    for message in (INITIALIZE, INITIALIZED, *(request(*step) for step in PLAN)):
        post(url, message, {})
        if "id" in message:
            while True:  # wait for the answer on the stream
                _, data = events.get(timeout=TIMEOUT)
                if json.loads(data).get("id") == message["id"]:
                    break
    stream.close()


WS_CLIENT = r"""
// node -e: process.argv is [node, ws module, url, messages]
const WebSocket = require(process.argv[1]);
const messages = JSON.parse(process.argv[3]);
const ws = new WebSocket(process.argv[2]);
let next = 0;
function send() {
  while (next < messages.length) {
    const m = messages[next++];
    ws.send(JSON.stringify(m));
    if (m.id !== undefined) return;  // wait for its answer
  }
  ws.close();
}
ws.on('open', send);
ws.on('message', (data) => { const m = JSON.parse(data); if (m.id !== undefined) send(); });
ws.on('close', () => process.exit(0));
setTimeout(() => process.exit(1), 20000);
"""


def drive_ws(base: str, prefix: Path) -> None:
    messages = [INITIALIZE, INITIALIZED, *(request(*step) for step in PLAN)]
    ws_module = str(prefix / "node_modules" / "ws")
    url = base.replace("http://", "ws://") + "/message"
    subprocess.run(
        ["node", "-e", WS_CLIENT, ws_module, url, json.dumps(messages)], check=True, timeout=30
    )


MODES = {
    "streamable-stateless": (["--outputTransport", "streamableHttp"], "streamable"),
    "streamable-stateful": (["--outputTransport", "streamableHttp", "--stateful"], "stateful"),
    "sse-info": (["--outputTransport", "sse"], "sse"),
    "sse-debug": (["--outputTransport", "sse", "--logLevel", "debug"], "sse"),
    "ws": (["--outputTransport", "ws"], "ws"),
}


def record(mode: str, server: str, prefix: Path) -> Path:
    flags, driver = MODES[mode]
    port = free_port()
    shutil.copy(SERVER_SOURCE, prefix / "ts_server.mjs")
    entry = prefix / "node_modules" / "supergateway" / "dist" / "index.js"
    log = OUT / f"{mode}-{server}.log"
    with log.open("w") as out:
        gateway = subprocess.Popen(
            ["node", str(entry), "--stdio", f"node ts_server.mjs {SERVERS[server]}",
             "--port", str(port), *flags],
            cwd=prefix, stdout=out, stderr=subprocess.STDOUT,
        )  # fmt: skip
        try:
            deadline = time.monotonic() + TIMEOUT
            while True:
                try:
                    socket.create_connection(("127.0.0.1", port), timeout=1).close()
                    break
                except OSError:
                    if time.monotonic() > deadline or gateway.poll() is not None:
                        raise SystemExit(f"{mode}: supergateway did not start") from None
                    time.sleep(0.2)
            time.sleep(1.0)  # the SSE and WS modes start their child before listening
            base = f"http://127.0.0.1:{port}"
            if driver in ("streamable", "stateful"):
                drive_streamable(base + "/mcp", stateful=driver == "stateful")
            elif driver == "sse":
                drive_sse(base)
            else:
                drive_ws(base, prefix)
            time.sleep(1.0)  # let the last lines reach the log
        finally:
            gateway.terminate()
            gateway.wait(timeout=10)
    return log


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--no-install", action="store_true")
    args = parser.parse_args(argv)
    OUT.mkdir(parents=True, exist_ok=True)
    for server in SERVERS:
        prefix = WORK / server if args.no_install else install(server)
        for mode in MODES:
            print(record(mode, server, prefix).relative_to(REPO))
    return 0


if __name__ == "__main__":
    sys.exit(main())
