#!/usr/bin/env python3
"""Measure `mcp-transcripts probe`: cases per second, and its own overhead per call.

Usage (from the repository root, with the project installed and server-everything
installed by `python scripts/record_fixtures.py --only server-everything`):

    python scripts/bench_probe.py                   # server-everything over stdio, 5 rounds
    python scripts/bench_probe.py --rounds 9 -- node path/to/server.js

Each round, alternating so that drift of the machine hits both alike:

1. **probe**: the probe's own session against a fresh server (initialize, tools/list,
   case generation, every call, then `check`'s engine over the transcript); each
   `tools/call` is timed from before the request is written until its answer is
   handed back.
2. **direct**: a minimal client on a fresh server that writes the *same* request
   lines the probe sent (taken from its transcript) and reads each answer, timed the
   same way: what the server itself costs.

Prints cases per second and total time of the probe, the median call time of each,
and the probe's overhead per call (median probe call minus median direct call).
Tools that wait on purpose (longRunningOperation) or call back into the client
(sampleLLM, elicitation) are excluded by default: they time the server, not the probe.
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
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from migrator.live.probe.client import CallOutcome, ClientSession  # noqa: E402
from migrator.live.probe.prober import ProbeOptions, run_probe  # noqa: E402
from migrator.live.probe.transport import StdioConnection, Transcript  # noqa: E402

EVERYTHING = (
    REPO
    / ".fixtures-work"
    / "server-everything"
    / "node_modules"
    / "@modelcontextprotocol"
    / "server-everything"
    / "dist"
    / "index.js"
)
EXCLUDED = ("longRunningOperation", "sampleLLM", "startElicitation", "*Elicitation*")


class TimedSession(ClientSession):
    """A client session that times each tools/call."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.call_seconds: list[float] = []

    def call(
        self, name: str, arguments: dict[str, Any], meta: dict[str, Any] | None = None
    ) -> CallOutcome:
        started = time.perf_counter()
        outcome = super().call(name, arguments, meta)
        self.call_seconds.append(time.perf_counter() - started)
        return outcome


def probe_round(command: Sequence[str]) -> tuple[float, list[float], list[bytes], int]:
    """One probe: total seconds, per-call seconds, the tools/call lines sent, cases."""
    transcript = Transcript()
    connection = StdioConnection(command, transcript)
    session = TimedSession(connection, timeout=30.0)
    started = time.perf_counter()
    try:
        report = run_probe(session, transcript, ProbeOptions(exclude=EXCLUDED))
        total = time.perf_counter() - started  # stopping the server is not the probe's time
    finally:
        connection.close()
    calls = [line for line in transcript.lines if b'"method":"tools/call"' in line]
    return total, session.call_seconds, calls, len(report.results)


def direct_round(command: Sequence[str], setup: list[bytes], calls: list[bytes]) -> list[float]:
    """The same calls from a minimal client: per-call seconds."""
    process = subprocess.Popen(
        command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL
    )
    assert process.stdin is not None and process.stdout is not None
    seconds: list[float] = []
    try:
        for line in setup + calls:
            request = json.loads(line)
            started = time.perf_counter()
            process.stdin.write(line + b"\n")
            process.stdin.flush()
            if "id" not in request:
                continue
            while True:
                answer = json.loads(process.stdout.readline())
                if answer.get("id") == request["id"] and "method" not in answer:
                    break
            if line in calls:
                seconds.append(time.perf_counter() - started)
    finally:
        process.stdin.close()
        try:
            process.wait(timeout=2)
        except subprocess.TimeoutExpired:
            process.terminate()
            process.wait(timeout=10)
        process.stdout.close()
    return seconds


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument(
        "server", nargs=argparse.REMAINDER, help="-- SERVER COMMAND (default: server-everything)"
    )
    args = parser.parse_args(argv)
    command = [c for c in args.server if c != "--"] or ["node", str(EVERYTHING), "stdio"]
    if not args.server and not EVERYTHING.exists():
        parser.error(
            "server-everything is not installed: python scripts/record_fixtures.py --only server-everything"
        )
    totals: list[float] = []
    call_phases: list[float] = []
    probe_calls: list[float] = []
    direct_calls: list[float] = []
    cases = 0
    for _round in range(args.rounds):
        total, timed, calls, cases = probe_round(command)
        totals.append(total)
        call_phases.append(sum(timed))
        probe_calls += timed
        setup = [
            b'{"jsonrpc":"2.0","id":"init","method":"initialize","params":{"protocolVersion":"2025-11-25",'
            b'"capabilities":{},"clientInfo":{"name":"bench","version":"1"}}}',
            b'{"jsonrpc":"2.0","method":"notifications/initialized"}',
        ]
        direct_calls += direct_round(command, setup, calls)
    total = statistics.median(totals)
    probe_median = statistics.median(probe_calls)
    direct_median = statistics.median(direct_calls)
    print(f"server: {' '.join(command)}")
    print(
        f"rounds: {args.rounds}; cases per probe: {cases}; calls timed: probe {len(probe_calls)}, direct {len(direct_calls)}"
    )
    calls_total = statistics.median(call_phases)
    print(
        f"probe total (median of rounds; server start, initialize, tools/list, calls, findings): "
        f"{total:.3f} s = {cases / total:.0f} cases/s"
    )
    print(f"of which the calls: {calls_total * 1000:.1f} ms = {cases / calls_total:.0f} cases/s")
    print(
        f"median call: probe {probe_median * 1000:.3f} ms, direct client {direct_median * 1000:.3f} ms"
    )
    print(f"probe overhead per call: {(probe_median - direct_median) * 1000:.3f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
