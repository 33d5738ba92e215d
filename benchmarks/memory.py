"""Peak memory of every command and output format, on generated files of two sizes, in one run.

Issue 29 asks that peak RSS no longer depend on the size of the file or the
number of findings: at most 60 MB on a 1.1 GB file of 1,000,000 messages with
about 100,000 findings, for ``check`` in each output format, ``fix --diff`` and
``fix``. This script generates such files (``benchmarks/generate.py``: about
10% of the calls have invalid arguments answered the old way, so one message in
ten is a finding), runs each command as a fresh process with its output going
to ``/dev/null`` (``fix`` rewrites a copy of the file), and prints, per size, the
findings, peak RSS (the kernel's ``ru_maxrss`` of that process alone), wall and
CPU seconds; then the largest size against the target, and how much each
command's peak grew from the smallest size to the largest.

The generated files are kept in the system's temporary folder under a name that
says their size and seed, and reused by later runs; ``--clean`` deletes them at
the end. Free disk space is checked before a file is made.

``--held 100000,2000000`` measures instead what holding findings costs, apart from
reading any file: a fresh process adds that many findings like MCP101's (each with
its own line, id and evidence) to one file's list and writes them as the JSON
document to ``/dev/null``, once as a run keeps them (packed blocks, spilled to a
temporary file past ``FindingList.SPILL_BYTES``) and once with the spill turned off;
it prints the peak RSS of each, and how much each grew from the fewest findings to
the most.

Usage:
    python benchmarks/memory.py [--messages 100000,1000000] [--seed 1303] [--clean]
    python benchmarks/memory.py --held 100000,2000000
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

from generate import generate  # noqa: E402  (the folder above is on the path just now)

TARGET_MB = 60.0
FORMATS = ("text", "json", "jsonl", "sarif", "junit", "gitlab", "github")
BYTES_PER_MESSAGE = 1300  # a little above what generate.py writes, to check disk space with

# A small process starts the measured one, so ru_maxrss (RUSAGE_CHILDREN) is that process's
# peak alone (the largest of it and its own workers, with -j 2), not this script's. It prints
# the exit code, wall and CPU seconds, the peak in KiB and the last line of stderr (the summary).
TIMER = """
import resource, subprocess, sys, time
started = time.perf_counter()
done = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
wall = time.perf_counter() - started
usage = resource.getrusage(resource.RUSAGE_CHILDREN)
lines = done.stderr.decode(errors="replace").strip().splitlines() or [""]
print(done.returncode, wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss)
print(lines[-1])
"""
_FINDINGS = re.compile(r"(?:Found|of) (\d+) finding")


@dataclass(frozen=True)
class Run:
    """One command's measurement."""

    command: str
    output_format: str
    messages: int
    findings: int | None
    peak_mb: float
    wall: float
    cpu: float


def transcript(messages: int, seed: int) -> Path:
    """The generated file of ``messages`` messages, made once and reused while it exists."""
    path = Path(tempfile.gettempdir()) / f"mcp-transcripts-memory-{messages}-seed{seed}.jsonl"
    if path.exists():
        return path
    free = shutil.disk_usage(path.parent).free
    needed = 2 * messages * BYTES_PER_MESSAGE  # the file and the copy `fix` rewrites
    if free < needed + (1 << 30):
        raise SystemExit(
            f"{path.parent}: {free / 1e9:.1f} GB free, {needed / 1e9:.1f} GB needed "
            f"for {messages} messages (and 1 GB to spare)"
        )
    print(f"generating {messages} messages (seed {seed}) ...", file=sys.stderr, flush=True)
    partial = path.with_suffix(".partial")
    with partial.open("w", encoding="utf-8", newline="\n") as out:
        for line in generate(messages, seed):
            out.write(line + "\n")
    partial.replace(path)  # a generation cut short is never taken for a whole file
    return path


def measure(argv: list[str]) -> tuple[int | None, float, float, float]:
    """Findings (from the summary line), peak RSS in MB, wall and CPU seconds of ``argv``."""
    done = subprocess.run(
        [sys.executable, "-c", TIMER, *argv], capture_output=True, text=True, cwd=ROOT, check=True
    )
    numbers, summary = [*done.stdout.splitlines(), ""][:2]
    code, wall, cpu, peak_kib = numbers.split()
    if int(code) not in (0, 1):
        raise RuntimeError(f"{' '.join(argv)} exited with {code}: {summary}")
    found = _FINDINGS.search(summary)
    return (
        int(found.group(1)) if found else None,
        int(peak_kib) / 1024,  # Linux reports KiB
        float(wall),
        float(cpu),
    )


def commands(path: Path, scratch: Path) -> list[tuple[str, str, list[str], bool]]:
    """(command, format, argv, whether the scratch copy must be refreshed first) of each run."""
    cli = [sys.executable, "-m", "migrator"]
    runs: list[tuple[str, str, list[str], bool]] = [
        ("check", fmt, [*cli, "check", "-j", "1", "--output-format", fmt, str(path)], False)
        for fmt in FORMATS
    ]
    runs += [
        ("check -j 2", "text", [*cli, "check", "-j", "2", str(path)], False),
        ("fix --diff", "diff", [*cli, "fix", "--diff", "-j", "1", str(path)], False),
        ("fix", "file", [*cli, "fix", "-j", "1", str(scratch)], True),
    ]
    return runs


def measure_size(messages: int, seed: int) -> list[Run]:
    path = transcript(messages, seed)
    scratch = path.with_name(path.stem + ".fix-copy.jsonl")
    print(f"{path.name}: {path.stat().st_size / 1e9:.2f} GB", file=sys.stderr, flush=True)
    results = []
    try:
        for command, fmt, argv, refresh in commands(path, scratch):
            if refresh:
                shutil.copyfile(path, scratch)
            findings, peak, wall, cpu = measure(argv)
            results.append(Run(command, fmt, messages, findings, peak, wall, cpu))
            print(f"  {command} {fmt}: {peak:.0f} MB", file=sys.stderr, flush=True)
    finally:
        scratch.unlink(missing_ok=True)
    return results


def table(runs: list[Run]) -> str:
    lines = [
        "| messages | command | format | findings | peak RSS (MB) | wall s | CPU s |",
        "|---:|---|---|---:|---:|---:|---:|",
    ]
    for r in runs:
        found = f"{r.findings:,}" if r.findings is not None else "-"
        lines.append(
            f"| {r.messages:,} | {r.command} | {r.output_format} | {found} "
            f"| {r.peak_mb:.0f} | {r.wall:.1f} | {r.cpu:.1f} |"
        )
    return "\n".join(lines)


def verdicts(runs: list[Run], sizes: list[int]) -> str:
    """The largest size against the target, with each command's growth from the smallest."""
    small, large = min(sizes), max(sizes)
    first = {(r.command, r.output_format): r for r in runs if r.messages == small}
    lines = [
        f"| command | format | findings | peak RSS at {small:,} (MB) "
        f"| peak RSS at {large:,} (MB) | target (MB) | |",
        "|---|---|---:|---:|---:|---:|---|",
    ]
    for r in runs:
        if r.messages != large:
            continue
        found = f"{r.findings:,}" if r.findings is not None else "-"
        before = first[r.command, r.output_format].peak_mb
        verdict = "pass" if r.peak_mb <= TARGET_MB else "miss"
        lines.append(
            f"| {r.command} | {r.output_format} | {found} | {before:.0f} | {r.peak_mb:.0f} "
            f"| {TARGET_MB:.0f} | {verdict} |"
        )
    return "\n".join(lines)


HOLDER = """
import io, os, resource, sys
from migrator.engine.results import FileReport, RunResult
from migrator.model.findings import Finding, FindingList, FixSafety, Severity
from migrator.reporters import ReportOptions, json as document
count, spill = int(sys.argv[1]), sys.argv[2] == "spill"
if not spill:
    FindingList.SPILL_BYTES = 1 << 62
report = FileReport("big.jsonl")
for n in range(count):
    line = 2 * n + 9
    report.findings.append(Finding(
        "big.jsonl", line, 1, "MCP101", "validation-error-as-protocol-error", Severity.ERROR,
        f'tools/call "book_flight" (id {n}): input validation failure answered with JSON-RPC '
        "error -32602; protocol 2025-11-25 requires a tool result with isError: true",
        FixSafety.SAFE, n, "book_flight",
        ("error code -32602", "message: TypeScript SDK (zod)", '"book_flight" is in the catalog',
         f"the arguments violate the inputSchema (1 problem, first: {n % 97} is less than 1)",
         f'"book_flight" answered {n + 3} earlier calls in this session (the first at line 7)',
         "protocol version 2025-11-25 (initialize result)", f"request at line {line - 1}"),
        "/passengers", "minimum",
    ))
with open(os.devnull, "w") as out:
    document.report(RunResult(files=[report]), out, ReportOptions())
print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
"""


def held(counts: list[int]) -> str:
    """Peak RSS of holding and reporting ``counts`` findings, with the spill and without."""
    lines = [
        "| findings | peak RSS, as a run keeps them (MB) | peak RSS, spill off (MB) |",
        "|---:|---:|---:|",
    ]
    peaks: dict[str, list[float]] = {"spill": [], "memory": []}
    for count in counts:
        for mode in peaks:
            done = subprocess.run(
                [sys.executable, "-c", HOLDER, str(count), mode],
                capture_output=True, text=True, cwd=ROOT, check=True,
            )  # fmt: skip
            peaks[mode].append(int(done.stdout.split()[-1]) / 1024)
            print(f"  {count:,} findings, {mode}: {peaks[mode][-1]:.0f} MB", file=sys.stderr)
        lines.append(f"| {count:,} | {peaks['spill'][-1]:.0f} | {peaks['memory'][-1]:.0f} |")
    lines.append(
        f"| growth from {counts[0]:,} to {counts[-1]:,} "
        f"| {peaks['spill'][-1] - peaks['spill'][0]:+.0f} "
        f"| {peaks['memory'][-1] - peaks['memory'][0]:+.0f} |"
    )
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--messages",
        default="100000,1000000",
        help="comma-separated message counts; the target is read at the largest",
    )
    parser.add_argument("--seed", type=int, default=1303)
    parser.add_argument(
        "--held", help="comma-separated finding counts: measure holding findings instead"
    )
    parser.add_argument(
        "--clean", action="store_true", help="delete the generated files at the end"
    )
    args = parser.parse_args()
    if args.held:
        print(held(sorted({int(n) for n in args.held.split(",")})))
        return
    sizes = sorted({int(n) for n in args.messages.split(",")})
    runs: list[Run] = []
    try:
        for messages in sizes:
            runs += measure_size(messages, args.seed)
    finally:
        if args.clean:
            for messages in sizes:
                name = f"mcp-transcripts-memory-{messages}-seed{args.seed}.jsonl"
                (Path(tempfile.gettempdir()) / name).unlink(missing_ok=True)
    print(f"Python {sys.version.split()[0]}, {os.cpu_count()} cores")
    print(table(runs))
    print()
    print(verdicts(runs, sizes))


if __name__ == "__main__":
    main()
