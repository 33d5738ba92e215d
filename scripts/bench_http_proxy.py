#!/usr/bin/env python3
"""Measure what `mcp-transcripts proxy --url` costs a Streamable HTTP server.

Usage (from the repository root, with the project installed with its http extra):

    python scripts/bench_http_proxy.py                       # all three measurements
    python scripts/bench_http_proxy.py --calls 3000 --stream-mb 1024

It starts a small upstream (starlette + uvicorn, JSON answers, one answer in
ten a JSON-RPC -32602 the proxy rewrites) and `python -m migrator proxy -q
--url ...` in front of it, then measures:

* latency: one `tools/call` at a time over a kept-alive connection, direct and
  through the proxy alternately (so drift of the machine hits both alike);
  prints the median and p99 of each and of the difference;
* throughput: `--clients` concurrent clients (threads, one connection each)
  calling through the proxy for `--seconds`; prints calls per second (and the
  same against the upstream directly, for scale);
* memory: one GET event stream carrying `--stream-mb` MiB of notifications
  through the proxy, each event judged on the way; prints the proxy's RSS at
  the start, its maximum and at the end, sampled every 0.2 s.

The load generator runs on the same machine as the proxy and the upstream, so
on a small machine all three compete for the same cores.
"""

from __future__ import annotations

import argparse
import json
import socket
import statistics
import subprocess
import sys
import threading
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import httpx

REPO = Path(__file__).resolve().parent.parent

UPSTREAM = r"""
import asyncio, json, socket, sys
import uvicorn
from starlette.applications import Starlette
from starlette.responses import Response, StreamingResponse
from starlette.routing import Route

TOOLS = [{"name": "add", "inputSchema": {"type": "object",
          "properties": {"a": {"type": "number"}, "b": {"type": "number"}}, "required": ["a", "b"]}}]
HEADERS = {"mcp-session-id": "bench"}

def answer(msg):
    method, rid = msg["method"], msg["id"]
    if method == "initialize":
        res = {"protocolVersion": "2025-06-18", "capabilities": {"tools": {}},
               "serverInfo": {"name": "bench", "version": "1"}}
        return {"jsonrpc": "2.0", "id": rid, "result": res}
    if method == "tools/list":
        return {"jsonrpc": "2.0", "id": rid, "result": {"tools": TOOLS}}
    args = msg["params"]["arguments"]
    if isinstance(args.get("a"), str):
        return {"jsonrpc": "2.0", "id": rid, "error": {"code": -32602,
                "message": "MCP error -32602: Invalid arguments for tool add: Expected number, received string"}}
    return {"jsonrpc": "2.0", "id": rid,
            "result": {"content": [{"type": "text", "text": str(args["a"] + args["b"])}]}}

async def mcp(request):
    if request.method == "GET":
        total = int(request.query_params.get("bytes", "0"))
        note = {"jsonrpc": "2.0", "method": "notifications/message",
                "params": {"level": "info", "data": "x" * 65536}}
        event = b"event: message\ndata: " + json.dumps(note).encode() + b"\n\n"
        async def events():
            sent = 0
            while sent < total:
                yield event
                sent += len(event)
        return StreamingResponse(events(), media_type="text/event-stream", headers=HEADERS)
    msg = json.loads(await request.body())
    if "id" not in msg:
        return Response(status_code=202, headers=HEADERS)
    body = json.dumps(answer(msg), separators=(",", ":")).encode()
    return Response(body, media_type="application/json", headers=HEADERS)

async def main():
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    sock.listen(512)
    app = Starlette(routes=[Route("/mcp", mcp, methods=["GET", "POST"])])
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", lifespan="off", access_log=False))
    print(f"http://127.0.0.1:{sock.getsockname()[1]}/mcp", flush=True)
    await server.serve(sockets=[sock])

asyncio.run(main())
"""

HEADERS = {
    "accept": "application/json, text/event-stream",
    "content-type": "application/json",
    "mcp-session-id": "bench",
}


def new_client() -> httpx.Client:
    """A kept-alive client with TCP_NODELAY, as browsers and Node's http set it."""
    nodelay = [(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)]
    return httpx.Client(timeout=30, transport=httpx.HTTPTransport(socket_options=nodelay))


def start(command: Sequence[str]) -> tuple[subprocess.Popen[bytes], str]:
    proc = subprocess.Popen(list(command), stdout=subprocess.PIPE, cwd=REPO)
    assert proc.stdout is not None
    return proc, proc.stdout.readline().decode().strip()


def rpc(request_id: int, method: str, params: dict[str, Any]) -> bytes:
    message = {"jsonrpc": "2.0", "id": request_id, "method": method, "params": params}
    return json.dumps(message).encode()


def handshake(client: httpx.Client, url: str) -> None:
    init = {
        "protocolVersion": "2025-06-18",
        "capabilities": {},
        "clientInfo": {"name": "bench", "version": "1"},
    }
    client.post(url, content=rpc(0, "initialize", init), headers=HEADERS)
    client.post(url, content=rpc(1, "tools/list", {}), headers=HEADERS)


def tool_call(request_id: int, invalid_every: int) -> bytes:
    bad = invalid_every and request_id % invalid_every == 0
    arguments = {"a": "one" if bad else request_id, "b": 2}
    return rpc(request_id, "tools/call", {"name": "add", "arguments": arguments})


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


def latency(direct: str, proxied: str, calls: int, warmup: int, invalid_every: int) -> None:
    timings: dict[str, list[float]] = {"direct": [], "proxy": []}
    with new_client() as a, new_client() as b:
        handshake(a, direct)
        handshake(b, proxied)
        for i in range(2, 2 + warmup + calls):
            body = tool_call(i, invalid_every)
            for name, client, url in (("direct", a, direct), ("proxy", b, proxied)):
                began = time.perf_counter()
                client.post(url, content=body, headers=HEADERS).raise_for_status()
                if i >= 2 + warmup:
                    timings[name].append((time.perf_counter() - began) * 1000)
    added = [p - d for p, d in zip(timings["proxy"], timings["direct"], strict=True)]
    print(f"latency per tools/call, {calls} calls (1 in {invalid_every} rewritten), ms:")
    for name, values in (*timings.items(), ("added", added)):
        print(
            f"  {name:7} median {statistics.median(values):6.3f}   p99 {percentile(values, 99):6.3f}"
        )


def throughput(url: str, clients: int, seconds: float) -> float:
    counts = [0] * clients
    deadline = time.perf_counter() + seconds

    def work(slot: int) -> None:
        with new_client() as session:
            handshake(session, url)
            i = 2
            while time.perf_counter() < deadline:
                session.post(url, content=tool_call(i, 10), headers=HEADERS).raise_for_status()
                counts[slot] += 1
                i += 1

    threads = [threading.Thread(target=work, args=(n,)) for n in range(clients)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return sum(counts) / seconds


def rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def stream_memory(url: str, pid: int, megabytes: int) -> None:
    samples = [rss_kib(pid)]
    done = threading.Event()

    def sample() -> None:
        while not done.wait(0.2):
            samples.append(rss_kib(pid))

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    received = 0
    began = time.perf_counter()
    headers = {**HEADERS, "accept": "text/event-stream"}
    with (
        httpx.Client(timeout=None) as client,
        client.stream("GET", url, params={"bytes": megabytes << 20}, headers=headers) as stream,
    ):
        for chunk in stream.iter_raw():
            received += len(chunk)
    elapsed = time.perf_counter() - began
    done.set()
    sampler.join()
    samples.append(rss_kib(pid))
    print(
        f"one SSE stream through the proxy: {received / (1 << 20):.0f} MiB in {elapsed:.1f} s "
        f"({received / (1 << 20) / elapsed:.1f} MiB/s)"
    )
    print(
        f"  proxy RSS MiB: start {samples[0] / 1024:.1f}, max {max(samples) / 1024:.1f}, "
        f"end {samples[-1] / 1024:.1f} ({len(samples)} samples)"
    )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--calls", type=int, default=2000, help="measured calls per endpoint")
    parser.add_argument("--warmup", type=int, default=200, help="unmeasured calls first")
    parser.add_argument("--invalid-every", type=int, default=10, help="one call in N is rewritten")
    parser.add_argument("--clients", type=int, default=8, help="concurrent clients for throughput")
    parser.add_argument("--seconds", type=float, default=10.0, help="throughput run length")
    parser.add_argument("--stream-mb", type=int, default=1024, help="MiB carried by the SSE stream")
    parser.add_argument(
        "--only",
        choices=["latency", "throughput", "memory"],
        action="append",
        help="run only these",
    )
    args = parser.parse_args(argv)
    only = set(args.only or ["latency", "throughput", "memory"])

    upstream, direct = start([sys.executable, "-c", UPSTREAM])
    proxy, proxied = start([sys.executable, "-m", "migrator", "proxy", "-q", "--url", direct])
    try:
        if "latency" in only:
            latency(direct, proxied, args.calls, args.warmup, args.invalid_every)
        if "throughput" in only:
            through = throughput(proxied, args.clients, args.seconds)
            plain = throughput(direct, args.clients, args.seconds)
            print(
                f"throughput, {args.clients} concurrent clients, {args.seconds:g} s each: "
                f"{through:.0f} calls/s through the proxy, {plain:.0f} calls/s direct"
            )
        if "memory" in only:
            stream_memory(proxied, proxy.pid, args.stream_mb)
    finally:
        for proc in (proxy, upstream):
            proc.terminate()
            proc.wait()
    return 0


if __name__ == "__main__":
    sys.exit(main())
