#!/usr/bin/env python3
"""Measure the latency `mcp-transcripts proxy` adds to each message.

Usage (from the repository root, with the project installed):

    python scripts/bench_proxy.py                    # 3000 round trips each way
    python scripts/bench_proxy.py --messages 10000 --payload 4096

It starts a trivial echo-style MCP server twice: once on a direct pipe, once
behind `python -m migrator proxy -q`. Both are initialized and list their tools
(so the proxy's session model has a session and a catalog), warmed up, and then
driven in the same run, alternating message by message (so drift of the machine
hits both alike): one `tools/call` at a time, timing write-to-answer. Every
`--invalid-every`-th call has a wrong argument type; the server answers it with
a JSON-RPC error -32602, which the proxy rewrites into a tool result, so both
the pass-through path and the rewrite path are measured.

Prints the median and p99 round trip of each, the latency added by the proxy
and the ratio. Exit status 0, or 1 when the added median exceeds `--budget-ms`.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import IO, Any

REPO = Path(__file__).resolve().parent.parent

ECHO_SERVER = r"""
import json, sys
TOOLS = [{"name": "add", "inputSchema": {"type": "object",
          "properties": {"a": {"type": "number"}, "b": {"type": "number"}, "pad": {"type": "string"}},
          "required": ["a", "b"]}}]
out = sys.stdout.buffer
for line in sys.stdin.buffer:
    msg = json.loads(line)
    if "id" not in msg or "method" not in msg:
        continue
    method, rid = msg["method"], msg["id"]
    if method == "initialize":
        res = {"protocolVersion": "2025-06-18", "capabilities": {"tools": {}},
               "serverInfo": {"name": "echo", "version": "1"}}
        reply = {"jsonrpc": "2.0", "id": rid, "result": res}
    elif method == "tools/list":
        reply = {"jsonrpc": "2.0", "id": rid, "result": {"tools": TOOLS}}
    else:
        args = msg["params"]["arguments"]
        if isinstance(args.get("a"), str):
            reply = {"jsonrpc": "2.0", "id": rid, "error": {"code": -32602,
                     "message": "MCP error -32602: Invalid arguments for tool add: Expected number, received string"}}
        else:
            text = json.dumps({"sum": args["a"] + args["b"], "pad": args.get("pad", "")})
            reply = {"jsonrpc": "2.0", "id": rid, "result": {"content": [{"type": "text", "text": text}]}}
    out.write(json.dumps(reply, separators=(",", ":")).encode() + b"\n")
    out.flush()
"""


class Endpoint:
    """A server process (direct or behind the proxy), driven one request at a time."""

    def __init__(self, name: str, command: Sequence[str]) -> None:
        self.name = name
        self.proc = subprocess.Popen(
            list(command), stdin=subprocess.PIPE, stdout=subprocess.PIPE, cwd=REPO
        )
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.stdin: IO[bytes] = self.proc.stdin
        self.stdout: IO[bytes] = self.proc.stdout
        self.next_id = 0
        self.timings: dict[str, list[float]] = {"pass-through": [], "rewritten": []}

    def request(self, method: str, params: dict[str, Any]) -> tuple[bytes, float]:
        self.next_id += 1
        line = json.dumps(
            {"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params},
            separators=(",", ":"),
        ).encode()
        started = time.perf_counter_ns()
        self.stdin.write(line + b"\n")
        self.stdin.flush()
        answer = self.stdout.readline()
        elapsed = (time.perf_counter_ns() - started) / 1e6
        if not answer:
            raise SystemExit(f"{self.name}: the server ended early")
        return answer, elapsed

    def close(self) -> None:
        self.stdin.close()
        self.proc.wait(timeout=30)
        self.stdout.close()


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(p / 100 * (len(ordered) - 1))))
    return ordered[index]


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--messages", type=int, default=3000, help="measured calls per endpoint")
    parser.add_argument("--warmup", type=int, default=300, help="unmeasured calls first")
    parser.add_argument("--payload", type=int, default=200, help="bytes of padding per call")
    parser.add_argument(
        "--invalid-every", type=int, default=10, help="every Nth call is invalid (0: none)"
    )
    parser.add_argument(
        "--budget-ms", type=float, default=1.0, help="exit 1 if the added median is above this"
    )
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    server = [sys.executable, "-c", ECHO_SERVER]
    direct = Endpoint("direct", server)
    proxied = Endpoint("proxy", [sys.executable, "-m", "migrator", "proxy", "-q", "--", *server])
    endpoints = [direct, proxied]
    init = {
        "protocolVersion": "2025-11-25",
        "capabilities": {},
        "clientInfo": {"name": "bench", "version": "1"},
    }
    for endpoint in endpoints:
        endpoint.request("initialize", init)
        endpoint.request("tools/list", {})
    pad = "x" * args.payload
    rewritten_seen = 0
    for i in range(args.warmup + args.messages):
        invalid = args.invalid_every > 0 and i % args.invalid_every == args.invalid_every - 1
        arguments = {"a": "one" if invalid else 1, "b": 2, "pad": pad}
        for endpoint in endpoints if i % 2 else reversed(endpoints):
            answer, elapsed = endpoint.request(
                "tools/call", {"name": "add", "arguments": arguments}
            )
            if endpoint is proxied and invalid:
                if b'"isError":true' not in answer:
                    raise SystemExit(f"the proxy did not rewrite an invalid call: {answer[:200]!r}")
                rewritten_seen += 1
            if i >= args.warmup:
                endpoint.timings["rewritten" if invalid else "pass-through"].append(elapsed)
    for endpoint in endpoints:
        endpoint.close()

    print(
        f"{args.messages} round trips per endpoint after {args.warmup} warm-up, "
        f"payload {args.payload} B, every {args.invalid_every or 'no'}th call rewritten "
        f"({rewritten_seen} rewrites checked); python {sys.version.split()[0]}"
    )
    print(f"{'path':<14} {'endpoint':<8} {'n':>6} {'median ms':>10} {'p99 ms':>10}")
    verdict = 0
    for kind in ("pass-through", "rewritten"):
        base, via = direct.timings[kind], proxied.timings[kind]
        if not base:
            continue
        for endpoint in endpoints:
            values = endpoint.timings[kind]
            print(
                f"{kind:<14} {endpoint.name:<8} {len(values):>6} "
                f"{statistics.median(values):>10.3f} {percentile(values, 99):>10.3f}"
            )
        added_median = statistics.median(via) - statistics.median(base)
        added_p99 = percentile(via, 99) - percentile(base, 99)
        ratio = statistics.median(via) / statistics.median(base)
        print(
            f"{kind:<14} added by the proxy: median {added_median:.3f} ms, p99 {added_p99:.3f} ms; "
            f"ratio of medians {ratio:.2f}x"
        )
        if kind == "pass-through" and added_median > args.budget_ms:
            print(f"over budget: added median above {args.budget_ms} ms")
            verdict = 1
    return verdict


if __name__ == "__main__":
    sys.exit(main())
