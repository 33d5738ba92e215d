"""Benchmark mcp-transcripts against the baselines, in one run, on generated transcripts.

Every measurement runs as its own process, timed from outside (wall clock,
median of ``--repeat`` runs) with its peak RSS read from the kernel
(``wait4``). Baselines are measured in the same run, on the same files, so
the ratios compare like with like on a noisy machine:

* parse only, with orjson (the fastest JSON parsing Python has) and with the
  standard library's json: the limit any Python tool has to work under;
* ``jq -c 'select(.error.code == -32602)'``, a one-liner that only detects;
* ``check-jsonschema`` validating the same messages against the JSON-RPC
  schema (on a JSON array, the form it reads), where installed;
* ``mcp-transcripts check`` (every default rule), ``fix --diff`` and ``fix``, and ``check``
  of the one file on one process (``-j 1``) and on two (``-j 2``), with the CPU seconds
  (user + system, of every process of the run) beside the wall time, so the table shows how
  the work was split as well as what the split saved;
* start-up (``--version``, ``check`` of a one-line file) and ``check`` of an MCP-only OTLP
  trace against orjson parsing it (``benchmarks/traces.py`` makes the trace);
* with ``--proxy``, ``scripts/bench_http_proxy.py``'s latency added per call.

The first size is where the throughput targets are read, the last where peak RSS and ``-j 2``
are (by default 200,000 messages, 0.25 GB, and 1,000,000, 1.3 GB, with about 100,000
findings); the run ends with the targets of issue 29 against what was measured, as a table.

Usage:
    python benchmarks/run.py [--sizes 200000,1000000] [--repeat 3] [--out DIR] [--plot FILE]
    python benchmarks/run.py --quick       # small sizes, one repeat: to try it (minutes)
    python benchmarks/run.py --replot      # redraw the plot from an earlier results.json

Writes ``results.json``, ``results.md`` and its Chinese ``results.zh.md`` to ``--out`` (default
``benchmarks/results``) and the plot to ``docs/assets/performance/scaling.svg``;
the docs' Performance page shows both. Prints the Markdown table.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict, dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
WORK = ROOT / ".bench"
BIN = Path(sys.executable).parent
sys.path.insert(0, str(ROOT / "benchmarks"))

from generate import generate  # noqa: E402  (the folder above is on the path just now)

PARSE_ORJSON = "import orjson, sys\nfor line in open(sys.argv[1], 'rb'):\n    orjson.loads(line)\n"
PARSE_JSON = "import json, sys\nfor line in open(sys.argv[1], 'rb'):\n    json.loads(line)\n"
# The prefilter-free limit of an envelope-first tool: every line decoded into
# the JSON-RPC envelope with msgspec, payloads left as raw spans, nothing else.
ENVELOPE_MSGSPEC = (
    "import msgspec, sys\n"
    "class Envelope(msgspec.Struct):\n"
    "    jsonrpc: object = None\n    id: object = None\n    method: object = None\n"
    "    params: msgspec.Raw = msgspec.Raw()\n    result: msgspec.Raw = msgspec.Raw()\n    error: msgspec.Raw = msgspec.Raw()\n"
    "decode = msgspec.json.Decoder(Envelope).decode\n"
    "for line in open(sys.argv[1], 'rb'):\n    decode(line)\n"
)
# One row per rule family: what each costs on top of reading and pairing.
RULE_FAMILIES = {
    "MCP1": "tools/call outcomes (MCP101-MCP104)",
    "MCP2": "schema validation (MCP201-MCP206)",
    "MCP3": "envelope and pairing (MCP301-MCP304)",
}


@dataclass
class Measurement:
    """One task on one file: medians over the repeats."""

    task: str
    messages: int
    megabytes: float
    seconds: float
    peak_rss_mb: float
    cpu_seconds: float = 0.0  # user + system of the process and its workers (median)

    @property
    def mb_per_s(self) -> float:
        return self.megabytes / self.seconds

    @property
    def messages_per_s(self) -> float:
        return self.messages / self.seconds


# A small process starts each measured one and reports its time and peak RSS:
# measured straight from this (larger) process, a child's peak RSS would include
# the pages it shared with us between fork and exec.
TIMER = """
import resource, subprocess, sys, time
started = time.perf_counter()
code = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode
seconds = time.perf_counter() - started
usage = resource.getrusage(resource.RUSAGE_CHILDREN)
print(code, seconds, usage.ru_maxrss, usage.ru_utime + usage.ru_stime)
"""


def run_timed(argv: list[str]) -> tuple[float, float, float]:
    """Wall seconds, peak RSS (MB) and CPU seconds (user + system) of one process.

    The CPU seconds count the process's worker processes too (they are its
    children, waited for); the peak RSS is the largest single process's.
    """
    done = subprocess.run(
        [sys.executable, "-c", TIMER, *argv], capture_output=True, text=True, cwd=ROOT, check=True
    )
    code, seconds, peak_kib, cpu = done.stdout.split()
    if int(code) not in (0, 1):
        raise RuntimeError(f"{' '.join(argv)} exited with {code}")
    return float(seconds), int(peak_kib) / 1024, float(cpu)  # Linux reports KiB


def run_once(argv: list[str]) -> tuple[float, float]:
    """Wall seconds and peak RSS (MB) of one process."""
    seconds, peak, _ = run_timed(argv)
    return seconds, peak


def measure(
    task: str,
    argv: list[str],
    messages: int,
    path: Path,
    repeat: int,
    prepare: list[str] | None = None,
) -> Measurement:
    times, peaks, cpus = [], [], []
    for _ in range(repeat):
        if prepare:
            subprocess.run(prepare, check=True)
        seconds, peak, cpu = run_timed(argv)
        times.append(seconds)
        peaks.append(peak)
        cpus.append(cpu)
    return Measurement(
        task,
        messages,
        path.stat().st_size / 1e6,
        statistics.median(times),
        max(peaks),
        statistics.median(cpus),
    )


def transcript(messages: int) -> Path:
    path = WORK / f"bench-{messages}.jsonl"
    if not path.exists():
        WORK.mkdir(exist_ok=True)
        with path.open("w", encoding="utf-8", newline="\n") as out:
            for line in generate(messages):
                out.write(line + "\n")
    return path


def as_array(path: Path) -> Path:
    target = path.with_suffix(".array.json")
    if not target.exists():
        with path.open(encoding="utf-8") as source, target.open("w", encoding="utf-8") as out:
            out.write("[\n")
            for number, line in enumerate(source):
                out.write(("" if number == 0 else ",\n") + line.rstrip("\n"))
            out.write("\n]\n")
    return target


def bench_size(messages: int, repeat: int, heavy_baselines: bool) -> list[Measurement]:
    path = transcript(messages)
    migrate = str(BIN / "mcp-transcripts")
    results = [
        measure(
            "orjson parse only",
            [sys.executable, "-c", PARSE_ORJSON, str(path)],
            messages,
            path,
            repeat,
        ),
        measure(
            "json parse only", [sys.executable, "-c", PARSE_JSON, str(path)], messages, path, repeat
        ),
        measure(
            "msgspec envelope decode only (prefilter-free)",
            [sys.executable, "-c", ENVELOPE_MSGSPEC, str(path)],
            messages,
            path,
            repeat,
        ),
    ]
    if shutil.which("jq"):
        results.append(
            measure(
                "jq select (detect only)",
                ["jq", "-c", "select(.error.code == -32602)", str(path)],
                messages,
                path,
                repeat,
            )
        )
    checker = shutil.which("check-jsonschema") or (
        str(BIN / "check-jsonschema") if (BIN / "check-jsonschema").exists() else None
    )
    if checker and heavy_baselines:
        array = as_array(path)
        schema = str(ROOT / "schemas" / "jsonrpc-2.0.schema.json")
        results.append(
            measure(
                "check-jsonschema (JSON-RPC schema)",
                [checker, "--schemafile", schema, str(array)],
                messages,
                path,
                repeat,
            )
        )
    results.append(
        measure(
            "mcp-transcripts check",
            [migrate, "check", "-q", "-j", "1", "--format", "json", str(path)],
            messages,
            path,
            repeat,
        )
    )
    for family, what in RULE_FAMILIES.items():
        results.append(
            measure(
                f"mcp-transcripts check --select {family}: {what}",
                [
                    migrate,
                    "check",
                    "-q",
                    "-j",
                    "1",
                    "--select",
                    family,
                    "--format",
                    "json",
                    str(path),
                ],
                messages,
                path,
                repeat,
            )
        )
    results.append(
        measure(
            "mcp-transcripts check -j 2 (one file, two processes)",
            [migrate, "check", "-q", "-j", "2", "--format", "json", str(path)],
            messages,
            path,
            repeat,
        )
    )
    results.append(
        measure(
            "mcp-transcripts fix --diff",
            [migrate, "fix", "--diff", "-q", "-j", "1", str(path)],
            messages,
            path,
            repeat,
        )
    )
    with tempfile.TemporaryDirectory(dir=WORK) as folder:
        copy = Path(folder) / path.name
        results.append(
            measure(
                "mcp-transcripts fix",
                [migrate, "fix", "-q", "-j", "1", str(copy)],
                messages,
                path,
                repeat,
                prepare=["cp", str(path), str(copy)],
            )
        )
    return results


def bench_jobs(messages: int, repeat: int) -> dict[str, float]:
    """Many small files against one large one, and -j 1 against -j 2."""
    path = transcript(messages)
    parts = 20
    per_part = max(1, messages // parts)
    with tempfile.TemporaryDirectory(dir=WORK) as folder:
        # Consecutive stretches (whole sessions, as real files hold), not every 20th line.
        with path.open(encoding="utf-8") as source:
            for index in range(parts):
                with Path(folder, f"part-{index:02}.jsonl").open("w", encoding="utf-8") as out:
                    for _ in range(per_part):
                        line = source.readline()
                        if not line:
                            break
                        out.write(line)
        migrate = str(BIN / "mcp-transcripts")
        one = statistics.median(
            run_once([migrate, "check", "-q", "-j", "1", "--format", "json", str(path)])[0]
            for _ in range(repeat)
        )
        serial = statistics.median(
            run_once([migrate, "check", "-q", "-j", "1", "--format", "json", folder])[0]
            for _ in range(repeat)
        )
        parallel = statistics.median(
            run_once([migrate, "check", "-q", "-j", "2", "--format", "json", folder])[0]
            for _ in range(repeat)
        )
    return {
        "one large file, -j 1": one,
        f"{parts} small files, -j 1": serial,
        f"{parts} small files, -j 2": parallel,
    }


def bench_startup(repeat: int) -> dict[str, float]:
    migrate = str(BIN / "mcp-transcripts")
    with tempfile.NamedTemporaryFile("w", suffix=".jsonl", dir=WORK, delete=False) as one:
        one.write('{"jsonrpc":"2.0","id":1,"method":"ping"}\n')
    try:
        version = statistics.median(run_once([migrate, "--version"])[0] for _ in range(repeat * 3))
        check = statistics.median(
            run_once([migrate, "check", "-q", one.name])[0] for _ in range(repeat * 3)
        )
    finally:
        Path(one.name).unlink()
    return {"mcp-transcripts --version": version, "check on a 1-line file": check}


def bench_traces(megabytes: int, repeat: int) -> list[Measurement]:
    """``check`` of an MCP-only OTLP trace (10 MCP spans per export request) against orjson."""
    from traces import trace_file  # benchmarks/ is this script's folder

    path = trace_file(megabytes, 10)
    spans = sum(line.count('"spanId"') for line in path.open(encoding="utf-8"))
    migrate = str(BIN / "mcp-transcripts")
    return [
        measure(
            "orjson parse only (MCP-only OTLP trace)",
            [sys.executable, "-c", PARSE_ORJSON, str(path)],
            spans,
            path,
            repeat,
        ),
        measure(
            "mcp-transcripts check (MCP-only OTLP trace)",
            [migrate, "check", "-q", "--fail-on", "never", str(path)],
            spans,
            path,
            repeat,
        ),
    ]


def bench_proxy(calls: int) -> dict[str, float]:
    """The latency ``mcp-transcripts proxy --url`` adds per ``tools/call`` (median and p99, ms)."""
    done = subprocess.run(
        [
            sys.executable,
            str(ROOT / "scripts" / "bench_http_proxy.py"),
            "--only",
            "latency",
            "--calls",
            str(calls),
        ],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=True,
    )
    for line in done.stdout.splitlines():
        words = line.split()
        if words[:1] == ["added"]:  # "added  median  1.0  p99  1.8"
            return {"median": float(words[2]), "p99": float(words[4])}
    raise RuntimeError(f"no latency in the output of bench_http_proxy.py:\n{done.stdout}")


@dataclass(frozen=True)
class Target:
    """One line of issue 29's "Done when", against what this run measured."""

    what: str  # the label: what is measured, and its unit
    messages: int  # the file it was measured on (0: not a file size)
    wanted: float
    measured: float | None  # None: not measured in this run
    at_least: bool  # the target is a floor (else a ceiling)
    unit: str = ""  # how the numbers are written: "" (a ratio), "x", " s"

    @property
    def met(self) -> str:
        if self.measured is None:
            return "not measured"
        good = self.measured >= self.wanted if self.at_least else self.measured <= self.wanted
        return "yes" if good else "no"

    def shown(self, value: float | None) -> str:
        if value is None:
            return "-"
        if self.unit == " s":
            return f"{value:.3f} s"
        if self.unit == "x":
            return f"{value:.2f}x"
        return f"{value:.2f}" if value < 10 else f"{value:.0f}"


def targets(
    all_results: dict[int, list[Measurement]],
    all_ratios: dict[int, dict[str, float]],
    startup: dict[str, float],
    otlp: list[Measurement],
    proxy: dict[str, float] | None,
) -> list[Target]:
    """Issue 29's targets: throughput at the first size, memory and ``-j 2`` at the last."""
    small, large = min(all_results), max(all_results)
    share = all_ratios[small]
    by_large = {m.task: m for m in all_results[large]}
    trace = {m.task: m for m in otlp}
    trace_share = None
    if trace:  # by CPU time, which other jobs on the machine disturb less than wall time
        base, check = (
            trace["orjson parse only (MCP-only OTLP trace)"],
            trace["mcp-transcripts check (MCP-only OTLP trace)"],
        )
        trace_share = base.cpu_seconds / check.cpu_seconds if check.cpu_seconds else None
    peak = max(
        by_large[task].peak_rss_mb
        for task in ("mcp-transcripts check", "mcp-transcripts fix", "mcp-transcripts fix --diff")
    )
    return [
        Target(
            "check: share of orjson parse-only throughput",
            small,
            0.6,
            share["mcp-transcripts check: share of orjson parse-only throughput"],
            True,
        ),
        Target(
            "check: speed-up over the jq one-liner",
            small,
            2.0,
            share.get("check speed-up over the jq one-liner"),
            True,
            "x",
        ),
        Target(
            "fix --diff: share of orjson parse-only throughput",
            small,
            0.5,
            share["mcp-transcripts fix --diff: share of orjson parse-only throughput"],
            True,
        ),
        Target("peak RSS of check, fix and fix --diff (MB)", large, 60, peak, False),
        Target(
            "check -j 2 on one file: speed-up over -j 1",
            large,
            1.6,
            all_ratios[large]["check -j 2 on one file: speed-up over -j 1"],
            True,
            "x",
        ),
        Target(
            "MCP-only OTLP trace: share of orjson parse-only (CPU time)",
            0,
            0.5,
            trace_share,
            True,
        ),
        Target(
            "`mcp-transcripts --version` (seconds)",
            0,
            0.15,
            startup["mcp-transcripts --version"],
            False,
            " s",
        ),
        Target(
            "HTTP proxy: latency added per call, median (ms)",
            0,
            1.0,
            proxy["median"] if proxy else None,
            False,
        ),
    ]


def ratios(results: list[Measurement]) -> dict[str, float]:
    by = {m.task: m for m in results}
    out: dict[str, float] = {}
    base = by["orjson parse only"]
    envelope = by["msgspec envelope decode only (prefilter-free)"]
    for task in ("mcp-transcripts check", "mcp-transcripts fix", "mcp-transcripts fix --diff"):
        out[f"{task}: share of orjson parse-only throughput"] = by[task].mb_per_s / base.mb_per_s
    out["mcp-transcripts check: share of msgspec envelope-only throughput"] = (
        by["mcp-transcripts check"].mb_per_s / envelope.mb_per_s
    )
    split = by["mcp-transcripts check -j 2 (one file, two processes)"]
    out["check -j 2 on one file: speed-up over -j 1"] = (
        by["mcp-transcripts check"].seconds / split.seconds
    )
    if split.cpu_seconds and by["mcp-transcripts check"].cpu_seconds:
        out["check -j 2 on one file: CPU seconds against -j 1"] = (
            split.cpu_seconds / by["mcp-transcripts check"].cpu_seconds
        )
    if "jq select (detect only)" in by:
        out["check speed-up over the jq one-liner"] = (
            by["jq select (detect only)"].seconds / by["mcp-transcripts check"].seconds
        )
    if "check-jsonschema (JSON-RPC schema)" in by:
        out["check speed-up over check-jsonschema"] = (
            by["check-jsonschema (JSON-RPC schema)"].seconds / by["mcp-transcripts check"].seconds
        )
    return out


def markdown(
    all_results: dict[int, list[Measurement]],
    all_ratios: dict[int, dict[str, float]],
    jobs: dict[str, float],
    startup: dict[str, float],
    machine: str,
    otlp: list[Measurement] | None = None,
    goals: list[Target] | None = None,
) -> str:
    lines = [f"Measured on {machine}.", ""]
    if goals:
        lines += ["### Against the targets (issue 29)", "", *targets_table(goals), ""]
    for messages, results in all_results.items():
        lines += [
            f"### {messages:,} messages ({results[0].megabytes:,.0f} MB)",
            "",
            "| task | seconds (median) | CPU seconds (median) | MB/s | messages/s | peak RSS (MB) |",
            "| --- | ---: | ---: | ---: | ---: | ---: |",
        ]
        for m in results:
            lines.append(
                f"| {m.task} | {m.seconds:.2f} | {m.cpu_seconds:.2f} | {m.mb_per_s:,.0f} "
                f"| {m.messages_per_s:,.0f} | {m.peak_rss_mb:,.0f} |"
            )
        lines += ["", "| ratio | value |", "| --- | ---: |"]
        for name, value in all_ratios[messages].items():
            shown = f"{value:.0%}" if "share" in name else f"{value:.2f}x"
            lines.append(f"| {name} | {shown} |")
        lines.append("")
    if otlp:
        lines += [
            f"### MCP-only OTLP trace ({otlp[0].megabytes:,.0f} MB)",
            "",
            "| task | seconds (median) | CPU seconds (median) | MB/s | spans/s | peak RSS (MB) |",
            "| --- | ---: | ---: | ---: | ---: | ---: |",
        ]
        for m in otlp:
            lines.append(
                f"| {m.task} | {m.seconds:.2f} | {m.cpu_seconds:.2f} | {m.mb_per_s:,.0f} "
                f"| {m.messages_per_s:,.0f} | {m.peak_rss_mb:,.0f} |"
            )
        lines.append("")
    lines += [
        "### Many files and worker processes",
        "",
        "| run | seconds (median) |",
        "| --- | ---: |",
    ]
    lines += [f"| {name} | {seconds:.2f} |" for name, seconds in jobs.items()]
    lines += ["", "### Start-up", "", "| command | seconds (median) |", "| --- | ---: |"]
    lines += [f"| `{name}` | {seconds:.3f} |" for name, seconds in startup.items()]
    return "\n".join(lines) + "\n"


def svg(all_results: dict[int, list[Measurement]]) -> str:
    """A small two-panel line chart: throughput and peak RSS against file size."""
    sizes = list(all_results)

    def series(task: str) -> list[Measurement]:
        return [next(m for m in all_results[s] if m.task == task) for s in sizes]

    parse, check, fix = (
        series("orjson parse only"),
        series("mcp-transcripts check"),
        series("mcp-transcripts fix"),
    )
    has_envelope = all(
        any(m.task == "msgspec envelope decode only (prefilter-free)" for m in all_results[s])
        for s in sizes
    )
    envelope = series("msgspec envelope decode only (prefilter-free)") if has_envelope else []
    has_split = all(
        any(
            m.task == "mcp-transcripts check -j 2 (one file, two processes)" for m in all_results[s]
        )
        for s in sizes
    )
    split = series("mcp-transcripts check -j 2 (one file, two processes)") if has_split else []
    width, height, pad, right = 680, 260, 50, 30

    def panel(x0: int, title: str, lines: list[tuple[str, str, list[float]]], unit: str) -> str:
        top = max(max(values) for _, _, values in lines) * 1.15 or 1
        w = width // 2 - pad - right
        h = height - 2 * pad
        out = [f'<text x="{x0 + w / 2}" y="20" text-anchor="middle" font-size="13">{title}</text>']
        out.append(f'<line x1="{x0}" y1="{pad + h}" x2="{x0 + w}" y2="{pad + h}" stroke="#888"/>')
        out.append(f'<line x1="{x0}" y1="{pad}" x2="{x0}" y2="{pad + h}" stroke="#888"/>')
        out.append(
            f'<text x="{x0 - 6}" y="{pad + 4}" text-anchor="end" font-size="10">{top:,.0f} {unit}</text>'
        )
        out.append(f'<text x="{x0 - 6}" y="{pad + h}" text-anchor="end" font-size="10">0</text>')
        for i, size in enumerate(sizes):
            x = x0 + (w * i / max(1, len(sizes) - 1))
            out.append(
                f'<text x="{x}" y="{pad + h + 16}" text-anchor="middle" font-size="10">{size:,}</text>'
            )
        for n, (label, colour, values) in enumerate(lines):
            points = " ".join(
                f"{x0 + w * i / max(1, len(sizes) - 1):.1f},{pad + h - h * v / top:.1f}"
                for i, v in enumerate(values)
            )
            out.append(
                f'<polyline fill="none" stroke="{colour}" stroke-width="2" points="{points}"/>'
            )
            out.append(
                f'<text x="{x0 + 8}" y="{pad + 14 + 14 * n}" font-size="11" fill="{colour}">{label}</text>'
            )
        return "\n".join(out)

    body = panel(
        pad,
        "Throughput (MB/s) by messages",
        [
            ("orjson parse only", "#999", [m.mb_per_s for m in parse]),
            *(
                [("msgspec envelope only", "#bbb", [m.mb_per_s for m in envelope])]
                if envelope
                else []
            ),
            ("mcp-transcripts check", "#1565c0", [m.mb_per_s for m in check]),
            *([("check -j 2, one file", "#6a1b9a", [m.mb_per_s for m in split])] if split else []),
            ("mcp-transcripts fix", "#2e7d32", [m.mb_per_s for m in fix]),
        ],
        "MB/s",
    )
    body += "\n" + panel(
        width // 2 + pad,
        "Peak RSS (MB) by messages",
        [
            ("mcp-transcripts check", "#1565c0", [m.peak_rss_mb for m in check]),
            ("mcp-transcripts fix", "#2e7d32", [m.peak_rss_mb for m in fix]),
        ],
        "MB",
    )
    return f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" font-family="sans-serif">\n{body}\n</svg>\n'


def load(path: Path) -> dict[int, list[Measurement]]:
    """The measurements of an earlier run's ``results.json``."""
    document = json.loads(path.read_text(encoding="utf-8"))
    fields = {"task", "messages", "megabytes", "seconds", "peak_rss_mb", "cpu_seconds"}
    return {
        int(size): [
            Measurement(**{k: v for k, v in m.items() if k in fields}) for m in measurements
        ]
        for size, measurements in document["sizes"].items()
    }


QUICK_SIZES = "20000,50000"
README_START = "<!-- benchmarks/run.py writes the table below -->"
README_END = "<!-- end of the benchmark table -->"


def targets_table(goals: list[Target]) -> list[str]:
    """The targets against what a run measured, as Markdown lines."""
    lines = [
        "| target | messages | wanted | measured | met? |",
        "| --- | ---: | ---: | ---: | --- |",
    ]
    for goal in goals:
        where = f"{goal.messages:,}" if goal.messages else "-"
        lines.append(
            f"| {goal.what} | {where} | {goal.shown(goal.wanted)} "
            f"| {goal.shown(goal.measured)} | {goal.met} |"
        )
    return lines


def into_readme(readme: str, goals: list[Target], machine: str) -> str:
    """``readme`` with the targets table between its markers (which must be there)."""
    start, end = readme.index(README_START), readme.index(README_END)
    block = [README_START, f"Measured on {machine}.", "", *targets_table(goals), ""]
    return readme[:start] + "\n".join(block) + readme[end:]


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--sizes",
        default="200000,1000000",
        help="message counts, comma-separated (the first and the last are where the targets are read)",
    )
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument(
        "--quick",
        action="store_true",
        help=f"to try it: sizes {QUICK_SIZES}, one repeat, a 10 MB trace, no check-jsonschema "
        "(writes to .bench/quick/ unless --out is given)",
    )
    parser.add_argument("--trace-mb", type=int, default=100, help="size of the OTLP trace, MB")
    parser.add_argument(
        "--proxy", action="store_true", help="also measure the HTTP proxy's added latency"
    )
    parser.add_argument("--out", type=Path, default=None)
    parser.add_argument("--plot", type=Path, default=None)
    parser.add_argument(
        "--replot", action="store_true", help="only redraw the plot from --out/results.json"
    )
    args = parser.parse_args()
    if args.quick:
        args.sizes, args.repeat, args.trace_mb = QUICK_SIZES, 1, 10
    # A quick run is a try: it does not replace the published tables or the chart.
    published = not args.quick
    default_out = ROOT / "benchmarks" / "results" if published else WORK / "quick"
    args.out = args.out or default_out
    args.plot = args.plot or (
        ROOT / "docs" / "assets" / "performance" / "scaling.svg"
        if published
        else args.out / "scaling.svg"
    )
    if args.replot:
        args.plot.write_text(svg(load(args.out / "results.json")), encoding="utf-8")
        return
    sizes = [int(s) for s in args.sizes.split(",")]
    machine = f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}, {time.strftime('%Y-%m-%d')}"
    all_results: dict[int, list[Measurement]] = {}
    all_ratios: dict[int, dict[str, float]] = {}
    for messages in sizes:
        print(f"measuring {messages:,} messages ...", file=sys.stderr)
        # check-jsonschema reads the whole array into memory and is slow: up to 2e5 messages.
        all_results[messages] = bench_size(
            messages, args.repeat, heavy_baselines=messages <= 200_000 and not args.quick
        )
        all_ratios[messages] = ratios(all_results[messages])
    print("measuring many files, start-up and an OTLP trace ...", file=sys.stderr)
    jobs = bench_jobs(min(max(sizes), 100_000), args.repeat)
    startup = bench_startup(args.repeat)
    otlp = bench_traces(args.trace_mb, args.repeat)
    proxy = None
    if args.proxy:
        print("measuring the HTTP proxy ...", file=sys.stderr)
        proxy = bench_proxy(500 if args.quick else 2000)
    goals = targets(all_results, all_ratios, startup, otlp, proxy)
    table = markdown(all_results, all_ratios, jobs, startup, machine, otlp, goals)
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "results.md").write_text(table, encoding="utf-8")
    from results_zh import to_chinese  # benchmarks/ is this script's folder

    (args.out / "results.zh.md").write_text(to_chinese(table), encoding="utf-8")
    args.plot.parent.mkdir(parents=True, exist_ok=True)
    args.plot.write_text(svg(all_results), encoding="utf-8")
    document = {
        "machine": machine,
        "sizes": {
            str(k): [
                asdict(m) | {"mb_per_s": m.mb_per_s, "messages_per_s": m.messages_per_s} for m in v
            ]
            for k, v in all_results.items()
        },
        "ratios": {str(k): v for k, v in all_ratios.items()},
        "jobs": jobs,
        "startup": startup,
        "otlp": [asdict(m) for m in otlp],
        "proxy": proxy,
        "targets": [asdict(goal) | {"met": goal.met} for goal in goals],
    }
    (args.out / "results.json").write_text(json.dumps(document, indent=2) + "\n", encoding="utf-8")
    if published:
        readme = ROOT / "README.md"
        readme.write_text(
            into_readme(readme.read_text(encoding="utf-8"), goals, machine), encoding="utf-8"
        )
    print(table)


if __name__ == "__main__":
    main()
