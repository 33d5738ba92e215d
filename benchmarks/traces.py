"""Benchmark ``mcp-transcripts check`` on OTLP JSON traces: throughput against orjson, and RSS by size.

The trace file is made from the recorded traces in ``tests/fixtures/traces/`` (real spans of
the Python SDK 2.3.0 client and server), repeated with fresh trace and span ids (parents kept)
until the file reaches each size, ``--spans-per-line`` MCP spans per export request line, grouped
by resource and scope, as the Collector's ``file`` exporter writes after its batch processor.

With ``--other-spans N``, each MCP span comes with N spans of other instrumentations (an
HTTP client call with a retry event, children of the MCP span), as in the trace of an
application that does more than MCP: ``check`` must read them, but builds nothing for them.

Each measurement is its own process, timed from outside (median of ``--repeat`` runs), with
its peak RSS from the kernel (the same timer as ``benchmarks/run.py``):

* ``orjson``: parse every line with orjson and nothing else (the floor for any Python tool);
* ``check``: ``mcp-transcripts check`` with every default rule.

With ``--before DIR``, also ``check (before)``: the same command with the ``migrator``
package of ``DIR`` (e.g. ``git archive <commit> migrator | tar -x -C DIR``), to compare two
versions in one run, on the same file and the same load.

With ``--instructions``, instead: the machine instructions (valgrind's callgrind, as
``benchmarks/core.py --instructions`` counts them) of one ``check_file`` over the first
``--lines`` export requests and of the orjson loop over the same lines; ``--by-function`` adds
where the check spends them, by function and by library. Counts repeat where times do not.

Usage:
    python benchmarks/traces.py [--sizes-mb 10,100,1000] [--repeat 3] [--spans-per-line 10]
                                [--other-spans 0] [--before DIR]
    python benchmarks/traces.py --instructions [--by-function] [--lines 300] [--spans-per-line 10]
                                [--other-spans 0]

Prints a Markdown table: size, spans, wall and CPU seconds of each, throughput, the ratio
orjson seconds / check seconds (1.0 would be as fast as parsing alone; by wall time and by CPU
time, which a shared machine disturbs less) and the peak RSS of check.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
from collections.abc import Iterator
from itertools import islice
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
WORK = ROOT / ".bench"
TRACES = ROOT / "tests" / "fixtures" / "traces"
sys.path.insert(0, str(ROOT / "benchmarks"))

import core  # noqa: E402  (the folder above is on the path just now)
from run import PARSE_ORJSON  # noqa: E402

# Like benchmarks/run.py's timer, and also the CPU seconds (user + system) of the measured
# process: on a shared machine its wall time grows with the other load, its CPU time much less.
TIMER = """
import resource, subprocess, sys, time
started = time.perf_counter()
code = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode
seconds = time.perf_counter() - started
usage = resource.getrusage(resource.RUSAGE_CHILDREN)
print(code, seconds, usage.ru_utime + usage.ru_stime, usage.ru_maxrss)
"""


def recorded_spans() -> list[tuple[dict[str, Any], dict[str, Any], dict[str, Any]]]:
    """(resource, scope, span) of every recorded span, in file order; one object per service and scope."""
    out = []
    shared: dict[str, dict[str, Any]] = {}
    for path in sorted(TRACES.glob("*.otlp.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            for resource_spans in json.loads(line)["resourceSpans"]:
                resource = resource_spans["resource"]
                resource = shared.setdefault(json.dumps(resource, sort_keys=True), resource)
                for scope_spans in resource_spans["scopeSpans"]:
                    scope = shared.setdefault(
                        json.dumps(scope_spans["scope"], sort_keys=True), scope_spans["scope"]
                    )
                    for span in scope_spans["spans"]:
                        out.append((resource, scope, span))
    return out


def renumbered(span: dict[str, Any], copy: int, ids: dict[str, str]) -> dict[str, Any]:
    """The span with ids of its own copy (``ids`` maps old ids to new), parents kept."""
    span = dict(span)
    for key, width in (("traceId", 32), ("spanId", 16), ("parentSpanId", 16)):
        old = span.get(key)
        if old:
            span[key] = ids.setdefault(old, f"{copy:08x}{len(ids):0{width - 8}x}")
    return span


def other_spans(span: dict[str, Any], count: int) -> list[dict[str, Any]]:
    """``count`` HTTP client spans under ``span``, shaped as the OpenTelemetry HTTP instrumentations write."""
    attributes = [
        {"key": "http.request.method", "value": {"stringValue": "GET"}},
        {"key": "url.full", "value": {"stringValue": "https://api.example.com/v1/items?page=2"}},
        {"key": "http.response.status_code", "value": {"intValue": "200"}},
        {"key": "server.address", "value": {"stringValue": "api.example.com"}},
        {"key": "server.port", "value": {"intValue": "443"}},
        {"key": "network.protocol.version", "value": {"stringValue": "1.1"}},
    ]
    retry = {
        "timeUnixNano": span.get("startTimeUnixNano", "0"),
        "name": "http.retry",
        "attributes": [{"key": "http.request.resend_count", "value": {"intValue": "1"}}],
    }
    return [
        {
            "traceId": span["traceId"],
            "spanId": f"{index + 1:02x}{span['spanId'][2:]}",
            "parentSpanId": span["spanId"],
            "name": "GET",
            "kind": "SPAN_KIND_CLIENT",
            "startTimeUnixNano": span.get("startTimeUnixNano", "0"),
            "endTimeUnixNano": span.get("endTimeUnixNano", "0"),
            "attributes": attributes,
            "events": [retry],
            "status": {},
            "flags": 256,
        }
        for index in range(count)
    ]


def export_lines(spans_per_line: int, others: int = 0) -> Iterator[str]:
    """Export request lines without end: the recorded spans again and again, with new ids."""
    recorded = recorded_spans()
    copy = 0
    while True:
        copy += 1
        ids: dict[str, str] = {}
        for start in range(0, len(recorded), spans_per_line):
            # Grouped as an SDK batch reaches the Collector: one entry per resource, one per scope in it.
            by_resource: dict[int, dict[str, Any]] = {}
            by_scope: dict[tuple[int, int], dict[str, Any]] = {}
            for resource, scope, span in recorded[start : start + spans_per_line]:
                entry = by_resource.setdefault(
                    id(resource), {"resource": resource, "scopeSpans": []}
                )
                if (id(resource), id(scope)) not in by_scope:
                    by_scope[id(resource), id(scope)] = {"scope": scope, "spans": []}
                    entry["scopeSpans"].append(by_scope[id(resource), id(scope)])
                mcp_span = renumbered(span, copy, ids)
                by_scope[id(resource), id(scope)]["spans"] += [
                    mcp_span,
                    *other_spans(mcp_span, others),
                ]
            resource_spans = list(by_resource.values())
            yield json.dumps({"resourceSpans": resource_spans}, separators=(",", ":"))


def trace_file(megabytes: int, spans_per_line: int, others: int = 0) -> Path:
    mixed = f"-{others}-other" if others else ""
    path = WORK / f"traces-{megabytes}mb-{spans_per_line}-grouped{mixed}.otlp.jsonl"
    if not path.exists():
        _write(path, _up_to(megabytes * 1_000_000, export_lines(spans_per_line, others)))
    return path


def _up_to(size: int, lines: Iterator[str]) -> Iterator[str]:
    """``lines`` until, with their newlines, they make ``size`` bytes or more."""
    written = 0
    for line in lines:
        yield line
        written += len(line) + 1
        if written >= size:
            return


def _write(path: Path, lines: Iterator[str]) -> None:
    """Write ``lines`` to ``path``, renamed into place when complete: an interrupted run leaves
    no short file."""
    WORK.mkdir(exist_ok=True)
    partial = path.with_suffix(".partial")
    with partial.open("w", encoding="utf-8") as out:
        for line in lines:
            out.write(line + "\n")
    partial.replace(path)


def counted_file(lines: int, spans_per_line: int, others: int = 0) -> Path:
    """The first ``lines`` export requests, for counting instructions (callgrind is slow)."""
    mixed = f"-{others}-other" if others else ""
    path = WORK / f"traces-{lines}lines-{spans_per_line}-grouped{mixed}.otlp.jsonl"
    if not path.exists():
        _write(path, islice(export_lines(spans_per_line, others), lines))
    return path


def run_once(argv: list[str]) -> tuple[float, float, float]:
    """Wall seconds, CPU seconds and peak RSS (MB) of one process."""
    done = subprocess.run(
        [sys.executable, "-c", TIMER, *argv], capture_output=True, text=True, check=True
    )
    code, wall, cpu, peak_kib = done.stdout.split()
    if int(code) not in (0, 1):
        raise RuntimeError(f"{' '.join(argv)} exited with {code}")
    return float(wall), float(cpu), int(peak_kib) / 1024  # Linux reports KiB


def median_run(argv: list[str], repeat: int) -> tuple[float, float, float]:
    runs = [run_once(argv) for _ in range(repeat)]
    return (
        statistics.median(wall for wall, _, _ in runs),
        statistics.median(cpu for _, cpu, _ in runs),
        max(peak for _, _, peak in runs),
    )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--sizes-mb", default="10,100,1000", help="file sizes in MB, comma-separated"
    )
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--spans-per-line", type=int, default=10)
    parser.add_argument(
        "--other-spans", type=int, default=0, help="non-MCP spans per MCP span (default 0)"
    )
    parser.add_argument(
        "--before", metavar="DIR", help="also time check with the migrator package in DIR"
    )
    core.add_instruction_options(parser, "one check")
    parser.add_argument(
        "--lines", type=int, default=300, help="export requests counted by --instructions"
    )
    args = parser.parse_args()
    core.check_instruction_options(parser, args)
    if args.instructions:
        path = counted_file(args.lines, args.spans_per_line, args.other_spans)
        spans = sum(line.count('"spanId"') for line in path.open(encoding="utf-8"))
        print(f"{spans} spans in {args.lines} export requests")
        core.instructions(path, None, args.by_function, what="check")
        return
    python = sys.executable
    options = ["check", "--quiet", "--fail-on", "never"]
    checks = {"check": [str(Path(python).parent / "mcp-transcripts"), *options]}
    if args.before:
        before = str(Path(args.before).resolve())
        # The package of DIR first on the path: it is imported instead of the installed one.
        script = f"import sys; sys.path.insert(0, {before!r}); from migrator.cli import console; sys.exit(console())"
        checks["check (before)"] = [python, "-c", script, *options]
    print(
        "| MB | spans | command | orjson wall s | its wall s | orjson CPU s | its CPU s | its MB/s (CPU) "
        "| ratio orjson/it (wall) | ratio (CPU) | its peak RSS MB |"
    )
    print("| ---: | ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    for size in (int(s) for s in args.sizes_mb.split(",")):
        path = trace_file(size, args.spans_per_line, args.other_spans)
        spans = sum(line.count('"spanId"') for line in path.open(encoding="utf-8"))
        parse_wall, parse_cpu, _ = median_run([python, "-c", PARSE_ORJSON, str(path)], args.repeat)
        mb = path.stat().st_size / 1e6
        for label, check in checks.items():
            check_wall, check_cpu, check_rss = median_run([*check, str(path)], args.repeat)
            print(
                f"| {mb:.0f} | {spans} | {label} | {parse_wall:.2f} | {check_wall:.2f} | {parse_cpu:.2f} "
                f"| {check_cpu:.2f} | {mb / check_cpu:.1f} | {parse_wall / check_wall:.2f} "
                f"| {parse_cpu / check_cpu:.2f} | {check_rss:.0f} |",
                flush=True,
            )


if __name__ == "__main__":
    main()
