"""The one-pass core against its baselines, on one generated file, in one run.

Prints, for each task, the median wall time and CPU time (user + system) of a
fresh process over ``--repeat`` runs, and the ratios the core is held to: check
and ``fix --diff`` as a share of the orjson line loop's throughput, check against
the jq one-liner, and the one pass against the full way (the reference core,
``MCP_TRANSCRIPTS_REFERENCE_CORE=1``). CPU time is printed beside wall time because
a shared machine's load moves wall time more than the work does.

``--per-kind`` prints instead what one line of each kind costs the one pass (CPU
microseconds, best of ``--repeat`` in this process, the file already in memory), to
show where a run's time goes.

Usage:
    python benchmarks/core.py [--messages 200000] [--repeat 3] [--per-kind]
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
WORK = ROOT / ".bench"
sys.path.insert(0, str(ROOT / "benchmarks"))

from generate import generate  # noqa: E402  (the folder above is on the path just now)

ORJSON_LOOP = "import orjson, sys\nfor line in open(sys.argv[1], 'rb'):\n    orjson.loads(line)\n"
# A small process starts the measured one, so its CPU time and peak RSS are the child's alone.
TIMER = """
import os, resource, subprocess, sys, time
started = time.perf_counter()
code = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode
wall = time.perf_counter() - started
usage = resource.getrusage(resource.RUSAGE_CHILDREN)
print(code, wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss)
"""


def transcript(messages: int) -> Path:
    path = WORK / f"bench-{messages}.jsonl"
    if not path.exists():
        WORK.mkdir(exist_ok=True)
        with path.open("w", encoding="utf-8", newline="\n") as out:
            for line in generate(messages):
                out.write(line + "\n")
    return path


def measure(argv: list[str], repeat: int, env: dict[str, str]) -> tuple[float, float, float]:
    """Median wall seconds, median CPU seconds and the largest peak RSS (MB) of ``argv``."""
    walls, cpus, peaks = [], [], []
    for _ in range(repeat):
        done = subprocess.run(
            [sys.executable, "-c", TIMER, *argv],
            capture_output=True, text=True, cwd=ROOT, check=True, env=env,
        )  # fmt: skip
        code, wall, cpu, peak = done.stdout.split()
        if int(code) not in (0, 1):
            raise RuntimeError(f"{' '.join(argv)} exited with {code}")
        walls.append(float(wall))
        cpus.append(float(cpu))
        peaks.append(int(peak) / 1024)
    return statistics.median(walls), statistics.median(cpus), max(peaks)


INVALID_ARGUMENTS = {"a": "two", "b": 3}  # what the generator's invalid calls send


def line_kind(message: dict[str, object]) -> str:
    """What a line of the generated transcript is, as the per-kind table names it."""
    method = message.get("method")
    if isinstance(method, str):
        if "id" not in message:
            return f"notification {method}"
        params = message.get("params")
        if method == "tools/call" and isinstance(params, dict):
            if params.get("name") == "no_such_tool":
                return "tools/call of an unknown tool"
            if params.get("arguments") == INVALID_ARGUMENTS:
                return "tools/call, invalid arguments"
            return "tools/call, valid"
        return f"request {method}"
    error = message.get("error")
    if isinstance(error, dict):
        text = str(error.get("message"))
        return "error: unknown tool" if "not found" in text else "error: -32602 invalid arguments"
    return "result"


def per_kind(path: Path, repeat: int) -> None:
    """The one pass's CPU time per line, by kind of line, best of ``repeat`` passes."""
    import orjson

    from migrator.engine.options import Options
    from migrator.engine.pipeline import Pipeline
    from migrator.engine.results import FileReport
    from migrator.judge.classify import ArgumentChecker

    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    kinds = [line_kind(orjson.loads(line)) for line in lines]
    best: dict[str, int] = {}
    counts: dict[str, int] = {}
    clock = time.thread_time_ns
    for _ in range(repeat):
        ArgumentChecker()  # nothing carried over between passes but the compiled schemas
        feed = Pipeline(str(path), Options(), FileReport(str(path))).one_pass.feed
        spent: dict[str, int] = dict.fromkeys(set(kinds), 0)
        started = clock()
        for number, (line, kind) in enumerate(zip(lines, kinds, strict=True), start=1):
            before = clock()
            feed(line, number)
            spent[kind] += clock() - before
        total = clock() - started
        spent["all lines"] = total
        for kind, nanoseconds in spent.items():
            best[kind] = min(best.get(kind, nanoseconds), nanoseconds)
    for kind in kinds:
        counts[kind] = counts.get(kind, 0) + 1
    counts["all lines"] = len(lines)
    print(f"{path.name}: {len(lines)} lines, CPU time per line of the one pass, best of {repeat}")
    print(f"{'kind of line':36s} {'lines':>8s} {'us/line':>8s} {'us/line of the file':>20s}")
    for kind in sorted(best, key=lambda k: -best[k]):
        print(
            f"{kind:36s} {counts[kind]:8d} {best[kind] / counts[kind] / 1e3:8.2f} "
            f"{best[kind] / len(lines) / 1e3:20.2f}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--messages", type=int, default=200_000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--per-kind", action="store_true", help="CPU time per line, by kind")
    args = parser.parse_args()
    path = transcript(args.messages)
    if args.per_kind:
        sys.path.insert(0, str(ROOT))
        per_kind(path, args.repeat)
        return
    env = {k: v for k, v in os.environ.items() if k != "MCP_TRANSCRIPTS_REFERENCE_CORE"}
    reference = {**env, "MCP_TRANSCRIPTS_REFERENCE_CORE": "1"}
    cli = [sys.executable, "-m", "migrator"]
    tasks: list[tuple[str, list[str], dict[str, str]]] = [
        ("orjson line loop", [sys.executable, "-c", ORJSON_LOOP, str(path)], env),
    ]
    if shutil.which("jq"):
        tasks.append(("jq select", ["jq", "-c", "select(.error.code == -32602)", str(path)], env))
    tasks += [
        ("check", [*cli, "check", "-q", "-j", "1", "--format", "json", str(path)], env),
        ("check (reference core)", [*cli, "check", "-q", "-j", "1", "--format", "json", str(path)], reference),
        ("fix --diff", [*cli, "fix", "--diff", "-q", "-j", "1", str(path)], env),
        ("fix --diff (reference core)", [*cli, "fix", "--diff", "-q", "-j", "1", str(path)], reference),
    ]  # fmt: skip
    megabytes = path.stat().st_size / 1e6
    print(f"{path.name}: {args.messages} messages, {megabytes:.0f} MB, median of {args.repeat}")
    print(f"{'task':30s} {'wall s':>8s} {'cpu s':>8s} {'MB/s':>7s} {'peak MB':>8s}")
    results: dict[str, tuple[float, float, float]] = {}
    for name, argv, task_env in tasks:
        results[name] = wall, cpu, peak = measure(argv, args.repeat, task_env)
        print(f"{name:30s} {wall:8.2f} {cpu:8.2f} {megabytes / wall:7.0f} {peak:8.0f}")
    base = results["orjson line loop"]
    print("ratios (wall; cpu):")

    def ratio(label: str, numerator: str, denominator: str) -> None:
        if numerator in results and denominator in results:
            wall = results[numerator][0] / results[denominator][0]
            cpu = results[numerator][1] / results[denominator][1]
            print(f"  {label:48s} {wall:6.2f}; {cpu:6.2f}")

    for task in ("check", "fix --diff", "check (reference core)", "fix --diff (reference core)"):
        print(
            f"  {task + ': share of the orjson loop':48s} "
            f"{base[0] / results[task][0]:6.2f}; {base[1] / results[task][1]:6.2f}"
        )
    ratio("check speed-up over jq", "jq select", "check")
    ratio("check: one pass over the reference core", "check (reference core)", "check")
    ratio(
        "fix --diff: one pass over the reference core", "fix --diff (reference core)", "fix --diff"
    )


if __name__ == "__main__":
    main()
