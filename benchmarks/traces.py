"""Benchmark ``mcp-transcripts check`` on OTLP JSON traces: throughput against orjson, and RSS by size.

The trace file is made from the recorded traces in ``tests/fixtures/traces/`` (real spans of
the Python SDK 2.3.0 client and server), repeated with fresh trace and span ids (parents kept)
until the file reaches each size, ``--spans-per-line`` spans per export request line, as the
Collector's ``file`` exporter writes after its batch processor.

Each measurement is its own process, timed from outside (median of ``--repeat`` runs), with
its peak RSS from the kernel (the same timer as ``benchmarks/run.py``):

* ``orjson``: parse every line with orjson and nothing else (the floor for any Python tool);
* ``check``: ``mcp-transcripts check`` with every default rule.

Usage:
    python benchmarks/traces.py [--sizes-mb 10,100,1000] [--repeat 3] [--spans-per-line 10]

Prints a Markdown table: size, seconds of each, throughput (MB/s), the ratio orjson seconds /
check seconds (1.0 would be as fast as parsing alone) and the peak RSS of check.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
WORK = ROOT / ".bench"
TRACES = ROOT / "tests" / "fixtures" / "traces"
sys.path.insert(0, str(ROOT / "benchmarks"))

from run import PARSE_ORJSON, run_once  # noqa: E402  (the folder above is on the path just now)


def recorded_spans() -> list[tuple[dict[str, Any], dict[str, Any], dict[str, Any]]]:
    """(resource, scope, span) of every recorded span, in file order."""
    out = []
    for path in sorted(TRACES.glob("*.otlp.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            for resource_spans in json.loads(line)["resourceSpans"]:
                for scope_spans in resource_spans["scopeSpans"]:
                    for span in scope_spans["spans"]:
                        out.append((resource_spans["resource"], scope_spans["scope"], span))
    return out


def export_lines(spans_per_line: int) -> Iterator[str]:
    """Export request lines without end: the recorded spans again and again, with new ids."""
    recorded = recorded_spans()
    copy = 0
    while True:
        copy += 1
        ids: dict[str, str] = {}

        def new_id(old: str, width: int) -> str:
            if old not in ids:
                ids[old] = f"{copy:08x}{len(ids):0{width - 8}x}"
            return ids[old]

        for start in range(0, len(recorded), spans_per_line):
            chunk = recorded[start : start + spans_per_line]
            resource_spans = []
            for resource, scope, span in chunk:
                span = dict(span)
                span["traceId"] = new_id(span["traceId"], 32)
                span["spanId"] = new_id(span["spanId"], 16)
                if span.get("parentSpanId"):
                    span["parentSpanId"] = new_id(span["parentSpanId"], 16)
                resource_spans.append(
                    {"resource": resource, "scopeSpans": [{"scope": scope, "spans": [span]}]}
                )
            yield json.dumps({"resourceSpans": resource_spans}, separators=(",", ":"))


def trace_file(megabytes: int, spans_per_line: int) -> Path:
    path = WORK / f"traces-{megabytes}mb-{spans_per_line}.otlp.jsonl"
    if path.exists():
        return path
    WORK.mkdir(exist_ok=True)
    limit = megabytes * 1_000_000
    written = 0
    partial = path.with_suffix(".partial")  # renamed when complete: an interrupted run leaves no short file
    with partial.open("w", encoding="utf-8") as out:
        for line in export_lines(spans_per_line):
            out.write(line + "\n")
            written += len(line) + 1
            if written >= limit:
                break
    partial.replace(path)
    return path


def median_run(argv: list[str], repeat: int) -> tuple[float, float]:
    runs = [run_once(argv) for _ in range(repeat)]
    return statistics.median(s for s, _ in runs), max(p for _, p in runs)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--sizes-mb", default="10,100,1000", help="file sizes in MB, comma-separated"
    )
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--spans-per-line", type=int, default=10)
    args = parser.parse_args()
    python = sys.executable
    check = [str(Path(python).parent / "mcp-transcripts"), "check", "--quiet", "--fail-on", "never"]
    print(
        "| MB | spans per line | orjson s | check s | check MB/s | ratio (orjson/check) | check peak RSS MB |"
    )
    print("| ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    for size in (int(s) for s in args.sizes_mb.split(",")):
        path = trace_file(size, args.spans_per_line)
        parse_s, _ = median_run([python, "-c", PARSE_ORJSON, str(path)], args.repeat)
        check_s, check_rss = median_run([*check, str(path)], args.repeat)
        mb = path.stat().st_size / 1e6
        print(
            f"| {mb:.0f} | {args.spans_per_line} | {parse_s:.2f} | {check_s:.2f} | {mb / check_s:.1f} "
            f"| {parse_s / check_s:.2f} | {check_rss:.0f} |",
            flush=True,
        )


if __name__ == "__main__":
    main()
