"""Benchmark ``mcp-transcripts report`` on many small files, against ``check`` on the same files.

    python benchmarks/report.py [--files 10000] [--messages 40] [--repeat 1] [--work DIR]

Writes ``--files`` small transcripts (each a session of ``--messages`` messages from
``benchmarks/generate.py``, under one of 50 server names in 3 versions, so the fleet has 150 servers),
then runs ``check`` and ``report`` on the folder in separate processes, in the same run,
and prints each one's wall time and peak RSS and the ratio report/check. Peak RSS staying
near check's (and flat in the number of files) is the bounded-memory claim of the how-to.
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

from generate import generate  # noqa: E402

TIMER = """
import resource, subprocess, sys, time
started = time.perf_counter()
code = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode
seconds = time.perf_counter() - started
print(code, seconds, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
"""


def write_fleet(folder: Path, files: int, messages: int) -> int:
    """``files`` transcripts of one session each; returns the messages written."""
    lines = list(generate(messages))
    total = 0
    for index in range(files):
        server = f"service-{index % 50:02d}"
        out = []
        for line in lines:
            if '"serverInfo"' in line:
                message = json.loads(line)
                message["result"]["serverInfo"] = {"name": server, "version": f"1.{index % 3}.0"}
                line = json.dumps(message, separators=(",", ":"))
            out.append(line + "\n")
        (folder / f"{server}-{index:05d}.jsonl").write_text("".join(out), encoding="utf-8")
        total += len(out)
    return total


def run_once(argv: list[str]) -> tuple[float, float]:
    """Wall seconds and peak RSS (MB) of one process."""
    done = subprocess.run(
        [sys.executable, "-c", TIMER, *argv], capture_output=True, text=True, cwd=ROOT, check=True
    )
    code, seconds, peak_kib = done.stdout.split()
    if int(code) not in (0, 1):
        raise RuntimeError(f"{' '.join(argv)} exited with {code}")
    return float(seconds), int(peak_kib) / 1024  # Linux reports KiB


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--files", type=int, default=10_000)
    parser.add_argument("--messages", type=int, default=40, help="messages per file")
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument(
        "--work", type=Path, help="where to write the files (default: a temporary folder)"
    )
    args = parser.parse_args()
    work = args.work or Path(tempfile.mkdtemp(prefix="mcp-report-bench-"))
    folder = work / "fleet"
    if folder.exists():
        shutil.rmtree(folder)
    folder.mkdir(parents=True)
    began = time.perf_counter()
    messages = write_fleet(folder, args.files, args.messages)
    print(f"wrote {args.files} files, {messages} messages in {time.perf_counter() - began:.1f}s")
    cli = [sys.executable, "-m", "migrator"]
    results = {}
    for name, argv in (
        ("check", [*cli, "check", "-q", "--fail-on", "never", str(folder)]),
        (
            "report",
            [
                *cli,
                "report",
                "-q",
                "--output-format",
                "json",
                "-o",
                str(work / "fleet.json"),
                str(folder),
            ],
        ),
    ):
        runs = [run_once(argv) for _ in range(args.repeat)]
        results[name] = (statistics.median(r[0] for r in runs), max(r[1] for r in runs))
    for name, (seconds, peak) in results.items():
        print(f"{name:7} {seconds:8.2f} s  peak RSS {peak:7.1f} MB")
    (check_s, check_mb), (report_s, report_mb) = results["check"], results["report"]
    print(f"report/check: time x{report_s / check_s:.2f}, peak RSS x{report_mb / check_mb:.2f}")
    servers = len(json.loads((work / "fleet.json").read_text())["servers"])
    print(f"servers in the report: {servers}")
    if args.work is None:
        shutil.rmtree(work)


if __name__ == "__main__":
    main()
