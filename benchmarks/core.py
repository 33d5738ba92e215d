"""The one-pass core against its baselines, on one generated file, in one run.

Prints, for each task, the median wall time and CPU time (user + system) of a
fresh process over ``--repeat`` runs, and the ratios the core is held to: check
and ``fix --diff`` as a share of the orjson line loop's throughput, check against
the jq one-liner, and the one pass against the full way (the reference core,
``MCP_TRANSCRIPTS_REFERENCE_CORE=1``). CPU time is printed beside wall time because
a shared machine's load moves wall time more than the work does.

``--against REV`` also runs check and ``fix --diff`` with the code of a git revision
(checked out once into ``.bench/``), in the same run, so a change is measured against
what it changed on the same machine at the same time.

``--per-kind`` prints instead what one line of each kind costs the one pass (CPU
microseconds, best of ``--repeat`` in this process, the file already in memory), to
show where a run's time goes; with ``--against`` it prints the revision's column beside,
both trees then measured in fresh processes, one pass each, taking turns.

``--live`` prints what judging a line costs a proxy (``proxy`` over stdio or HTTP: fix
mode, each line's direction known, findings logged and dropped): CPU microseconds per
line through :class:`migrator.live.fixer.LiveFixer`, the one pass and the full way, best
of ``--repeat`` in this process.

``--first-finding`` prints how soon ``check`` writes its first finding against how long the
whole run takes (wall seconds from the start of the process, median of ``--repeat``), with
``-j 1`` and with the default ``-j`` (which cuts a file of 64 MB or more into stretches); with
``--against`` the revision's beside, the two trees taking turns.

``--instructions`` counts, with valgrind's callgrind, the machine instructions one pass
over the file costs (``Pipeline.one_pass.feed`` on every line, the file already in memory,
schemas compiled by a warm-up pass) and what the orjson line loop costs over the same lines;
with ``--against`` the revision's beside. A pass is the difference between a run of three
passes and a run of one, halved, so start-up and imports drop out. Counts repeat to within
0.1% from run to run even on a busy machine, where times move by 10% or more, so a change of
1% shows; use a few thousand messages (callgrind runs Python about 50 times slower).
With ``--by-function`` it also prints where a pass of this tree spends them: the machine
functions that cost the most (their own instructions, ``callgrind_annotate``'s, three passes
minus one, halved) and the share of each library (CPython's interpreter and objects, msgspec,
jsonschema-rs, orjson, libc), which shows what is Python glue and what is decoding.

Usage:
    python benchmarks/core.py [--messages 200000] [--repeat 3] [--against REV]
                              [--per-kind | --live | --first-finding | --instructions
                               [--by-function]]
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
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


def checkout(revision: str) -> Path:
    """The tree of ``revision``, extracted once under ``.bench/`` (``python -m migrator`` there runs it)."""
    commit = subprocess.run(
        ["git", "rev-parse", "--verify", f"{revision}^{{commit}}"],
        capture_output=True, text=True, cwd=ROOT, check=True,
    ).stdout.strip()  # fmt: skip
    tree = WORK / f"tree-{commit[:12]}"
    if not tree.exists():
        partial = WORK / f"tree-{commit[:12]}.partial"
        shutil.rmtree(partial, ignore_errors=True)
        partial.mkdir(parents=True)
        archive = subprocess.run(
            ["git", "archive", commit], capture_output=True, cwd=ROOT, check=True
        )
        subprocess.run(["tar", "-x", "-C", str(partial)], input=archive.stdout, check=True)
        partial.rename(tree)
    return tree


def measure(
    argv: list[str], repeat: int, env: dict[str, str], cwd: Path = ROOT
) -> tuple[float, float, float]:
    """Median wall seconds, median CPU seconds and the largest peak RSS (MB) of ``argv``."""
    walls, cpus, peaks = [], [], []
    for _ in range(repeat):
        done = subprocess.run(
            [sys.executable, "-c", TIMER, *argv],
            capture_output=True, text=True, cwd=cwd, check=True, env=env,
        )  # fmt: skip
        code, wall, cpu, peak = done.stdout.split()
        if int(code) not in (0, 1):
            raise RuntimeError(f"{' '.join(argv)} exited with {code}")
        walls.append(float(wall))
        cpus.append(float(cpu))
        peaks.append(int(peak) / 1024)
    return statistics.median(walls), statistics.median(cpus), max(peaks)


# What --instructions runs under callgrind: PASSES passes of the one pass over the file's lines
# (after one warm-up pass), or of the orjson loop over its byte lines, as the benchmark reads them;
# or ("check") check_file on the file, as `check` runs it (benchmarks/traces.py counts traces so).
COUNTED = """
import sys
tree, path, what, passes = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
if what == "orjson":
    import orjson
    lines = open(path, "rb").readlines()
    for _ in range(passes):
        for line in lines:
            orjson.loads(line)
    raise SystemExit
sys.path.insert(0, tree)
if what == "check":
    from migrator.engine.files import check_file
    for _ in range(passes + 1):
        report = check_file(path)
    print(len(report.findings))
    raise SystemExit
from migrator.engine.options import Options
from migrator.engine.pipeline import Pipeline
from migrator.engine.results import FileReport
with open(path, encoding="utf-8", errors="surrogateescape", newline="\\n") as text:
    lines = text.readlines()
def one_pass():
    report = FileReport(path)
    feed = Pipeline(path, Options(), report).one_pass.feed
    for number, line in enumerate(lines, 1):
        feed(line, number)
    return report
for _ in range(passes + 1):
    report = one_pass()
print(len(report.findings))  # what a pass found, for the tests
"""


def instructions_of(
    tree: Path, path: Path, what: str, passes: int, out_file: str = "/dev/null"
) -> int:
    """Instructions callgrind counts for ``passes`` passes of ``what`` (start-up included)."""
    done = subprocess.run(
        ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out_file}",
         sys.executable, "-c", COUNTED, str(tree), str(path), what, str(passes)],
        capture_output=True, text=True, cwd=tree, check=True,
        env={**os.environ, "PYTHONHASHSEED": "0"},  # the same dict layouts in every run
    )  # fmt: skip
    for line in done.stderr.splitlines():
        if "Collected :" in line:
            return int(line.rsplit(":", 1)[1])
    raise RuntimeError(f"callgrind reported no count:\n{done.stderr}")


def function_costs(annotated: str) -> dict[tuple[str, str], int]:
    """The own instructions of each (library, function) in ``callgrind_annotate`` output.

    A function is named by its source file's name and its own (``ceval.c:_PyEval_EvalFrameDefault``;
    ``???:name`` without debug information); callgrind's recursion levels (``name'2``) count as
    the function. The library is what :func:`library_of` makes of the object file in brackets.
    """
    costs: dict[tuple[str, str], int] = {}
    for line in annotated.splitlines():
        count, _, rest = line.strip().partition(" ")
        if not count or not count[0].isdigit() or not rest.lstrip().startswith("("):
            continue
        where = rest.split(")", 1)[1].strip()
        if where == "PROGRAM TOTALS":
            continue
        function, _, obj = where.partition(" [")
        source, _, name = function.rpartition(":")
        name = name.split("'", 1)[0]
        library = library_of(obj.rstrip("]")) if obj else _library_of_source(source)
        key = (library, f"{source.rsplit('/', 1)[-1] or '?'}:{name}")
        costs[key] = costs.get(key, 0) + int(count.replace(",", ""))
    return costs


# CPython's source folders: a line with no object file is code inlined from one of them.
_CPYTHON_SOURCES = ("/Include/", "/Objects/", "/Python/", "/Modules/", "/Parser/")


def _library_of_source(source: str) -> str:
    return "CPython" if any(folder in source for folder in _CPYTHON_SOURCES) else "?"


def library_of(obj: str) -> str:
    """A short name for the object file a function is in: an installed package's name,
    ``CPython`` for the interpreter and its objects, ``libc``, else the file's name."""
    parts = obj.split("/")
    if "site-packages" in parts:
        return parts[parts.index("site-packages") + 1]
    name = parts[-1]
    if name.startswith(("libpython", "python")):
        return "CPython"
    if name.startswith(("libc.so", "libc-")):
        return "libc"
    return name or "?"


def _annotated_costs(out: Path) -> dict[tuple[str, str], int]:
    done = subprocess.run(
        ["callgrind_annotate", "--threshold=100", str(out)],
        capture_output=True,
        text=True,
        check=True,
    )
    return function_costs(done.stdout)


def by_function(one_pass: Path, three_passes: Path, lines: int, top: int = 15) -> None:
    """Print where one pass spends its instructions, from the callgrind files of one run of one
    pass and one of three: the functions that cost the most, then each library's share."""
    runs = [_annotated_costs(out) for out in (one_pass, three_passes)]
    per_pass = {key: (runs[1].get(key, 0) - runs[0].get(key, 0)) // 2 for key in runs[0] | runs[1]}
    total = sum(count for count in per_pass.values() if count > 0)
    print(f"\nwhere a pass of this tree spends its instructions ({total:,d} in all):")
    print(f"{'library':14s} {'function':52s} {'instructions':>13s} {'per line':>9s} {'share':>6s}")
    ranked = sorted(per_pass.items(), key=lambda item: -item[1])
    for (library, function), count in ranked[:top]:
        print(
            f"{library:14s} {function[:52]:52s} {count:13,d} {count // lines:9,d} "
            f"{count / total:6.1%}"
        )
    libraries: dict[str, int] = {}
    for (library, _), count in per_pass.items():
        libraries[library] = libraries.get(library, 0) + count
    print(f"{'by library':67s} {'instructions':>13s} {'per line':>9s} {'share':>6s}")
    for library, count in sorted(libraries.items(), key=lambda item: -item[1]):
        if count > 0:
            print(f"{library:67s} {count:13,d} {count // lines:9,d} {count / total:6.1%}")


def instructions(
    path: Path, against: str | None, functions: bool = False, what: str = "pass"
) -> None:
    """Print the instructions per pass of the one pass (and of ``against``'s) and the orjson loop.

    With ``what="check"``, of ``check_file`` instead of the one pass (for files the one pass
    does not read, such as traces).
    """
    if shutil.which("valgrind") is None:
        raise SystemExit("--instructions needs valgrind (Debian: apt install valgrind)")
    if functions and shutil.which("callgrind_annotate") is None:
        raise SystemExit("--by-function needs callgrind_annotate (it comes with valgrind)")
    lines = sum(1 for _ in path.open("rb"))
    name = "one pass" if what == "pass" else what
    rows = [("orjson line loop", ROOT, "orjson"), (f"{name}, this tree", ROOT, what)]
    if against:
        rows.append((f"{name} at {against}", checkout(against), what))
    print(
        f"{path.name}: {lines} lines, instructions per pass (callgrind: 3 passes minus 1, halved)"
    )
    print(f"{'':24s} {'instructions':>14s} {'per line':>10s} {'orjson share':>13s}")
    baseline = None
    with tempfile.TemporaryDirectory() as folder:
        # This tree's pass keeps its callgrind files for --by-function; the others need none.
        kept = {passes: Path(folder) / f"callgrind-{passes}.out" for passes in (1, 3)}
        for label, tree, task in rows:
            keep = functions and tree == ROOT and task != "orjson"
            three = instructions_of(tree, path, task, 3, str(kept[3]) if keep else "/dev/null")
            one = instructions_of(tree, path, task, 1, str(kept[1]) if keep else "/dev/null")
            count = (three - one) // 2
            baseline = baseline or count
            print(f"{label:24s} {count:14,d} {count // lines:10,d} {baseline / count:13.3f}")
        if functions:
            by_function(kept[1], kept[3], lines)


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


def per_kind_costs(path: Path, repeat: int) -> tuple[dict[str, int], dict[str, int]]:
    """The one pass's CPU nanoseconds by kind of line (best of ``repeat`` passes), and the counts.

    It measures the ``migrator`` that imports first: the one of the folder it runs in.
    """
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
    return best, counts


# Runs per_kind_costs in a fresh process in a revision's tree (its migrator first on the path).
PER_KIND = f"""
import json, sys
sys.path.append({str(ROOT / "benchmarks")!r})
from pathlib import Path
from core import per_kind_costs
print(json.dumps(per_kind_costs(Path(sys.argv[1]), int(sys.argv[2]))))
"""


def per_kind(path: Path, repeat: int, against: str | None) -> None:
    """Print the one pass's CPU time per line, by kind; with ``against``, that revision's beside.

    With ``against`` both trees run in fresh processes, one pass each, taking turns
    ``repeat`` times: whichever ran first or in the measuring process would otherwise
    meet another machine than the other.
    """
    theirs: dict[str, int] = {}
    if against is None:
        best, counts = per_kind_costs(path, repeat)
    else:
        tree = checkout(against)
        best, counts = {}, {}
        for _ in range(repeat):
            for cwd, into in ((ROOT, best), (tree, theirs)):
                done = subprocess.run(
                    [sys.executable, "-c", PER_KIND, str(path), "1"],
                    capture_output=True, text=True, cwd=cwd, check=True,
                )  # fmt: skip
                spent, counts = json.loads(done.stdout)  # the same file: the same counts
                for kind, nanoseconds in spent.items():
                    into[kind] = min(into.get(kind, nanoseconds), nanoseconds)
    lines = counts["all lines"]
    print(f"{path.name}: {lines} lines, CPU time per line of the one pass, best of {repeat}")
    header = f"{'kind of line':36s} {'lines':>8s} {'us/line':>8s} {'us/line of the file':>20s}"
    print(header + (f" {'us/line at ' + against:>20s}" if against else ""))
    for kind in sorted(best, key=lambda k: -best[k]):
        row = (
            f"{kind:36s} {counts[kind]:8d} {best[kind] / counts[kind] / 1e3:8.2f} "
            f"{best[kind] / lines / 1e3:20.2f}"
        )
        if kind in theirs:
            row += f" {theirs[kind] / counts[kind] / 1e3:20.2f}"
        print(row)


def live(path: Path, repeat: int) -> None:
    """Print the CPU time per line a proxy spends judging the file's traffic, both ways."""
    from generate import sent_by_server

    from migrator.engine import onepass
    from migrator.engine.options import Mode, Options
    from migrator.live.fixer import LiveFixer
    from migrator.model.units import Direction

    lines = [
        (line.encode(), Direction.SERVER_TO_CLIENT if server else Direction.CLIENT_TO_SERVER)
        for line, server in sent_by_server(path.read_text(encoding="utf-8").splitlines(True))
    ]
    logged: list[str] = []

    def best(reference: bool) -> tuple[float, int]:
        spent, summary = [], ""
        for _ in range(repeat):
            with onepass.reference_core() if reference else contextlib.nullcontext():
                fixer = LiveFixer("<proxy>", Options(mode=Mode.FIX), logged.append, quiet=True)
                started = time.thread_time_ns()
                for line, direction in lines:
                    fixer(line, direction)
                spent.append(time.thread_time_ns() - started)
            summary = fixer.summary()
        print(f"  {'full way' if reference else 'one pass'}: {summary}")
        return min(spent) / len(lines) / 1e3, fixer.pipeline.one_pass.lines_full_way

    print(
        f"{path.name}: {len(lines)} lines through a proxy (fix), CPU time per line, best of {repeat}"
    )
    one_pass, full_way_lines = best(False)
    full_way, _ = best(True)
    print(f"  one pass  {one_pass:7.2f} us/line ({full_way_lines} lines went the full way)")
    print(f"  full way  {full_way:7.2f} us/line")
    print(f"  full way over one pass: {full_way / one_pass:.2f}")


def first_finding(path: Path, repeat: int, against: str | None) -> None:
    """Print the seconds to the first finding written and to the end of ``check``, by ``-j``."""
    trees = [("this tree", ROOT)] + ([(against, checkout(against))] if against else [])
    cli = [sys.executable, "-m", "migrator", "check", "-q", "--output-format", "text"]
    print(f"{path.name}: seconds from the start of check to its first finding and to its end,")
    print(f"median of {repeat}")
    print(f"{'check':14s} {'tree':>12s} {'first finding':>14s} {'whole run':>10s} {'share':>6s}")
    for jobs in (["-j", "1"], []):
        times: dict[str, tuple[list[float], list[float]]] = {name: ([], []) for name, _ in trees}
        for _ in range(repeat):
            for name, cwd in trees:  # taking turns: both meet the same machine
                started = time.perf_counter()
                process = subprocess.Popen(
                    [*cli, *jobs, str(path)], cwd=cwd,
                    stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                )  # fmt: skip
                assert process.stdout is not None
                process.stdout.readline()
                first = time.perf_counter() - started
                while process.stdout.read(1 << 20):
                    pass
                process.wait()
                times[name][0].append(first)
                times[name][1].append(time.perf_counter() - started)
        for name, (firsts, wholes) in times.items():
            first, whole = statistics.median(firsts), statistics.median(wholes)
            label = " ".join(jobs) or "default -j"
            print(f"{label:14s} {name:>12s} {first:14.2f} {whole:10.2f} {first / whole:6.2f}")


def add_instruction_options(parser: argparse.ArgumentParser, counted: str) -> None:
    """``--instructions`` and ``--by-function``, for a script that counts ``counted`` (this one
    and benchmarks/traces.py)."""
    parser.add_argument(
        "--instructions", action="store_true", help=f"instructions of {counted} (valgrind)"
    )
    parser.add_argument(
        "--by-function",
        action="store_true",
        help=f"with --instructions: the functions and libraries {counted} spends them in",
    )


def check_instruction_options(parser: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    if args.by_function and not args.instructions:
        parser.error("--by-function goes with --instructions")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--messages", type=int, default=200_000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--per-kind", action="store_true", help="CPU time per line, by kind")
    parser.add_argument("--against", metavar="REV", help="also measure a git revision's code")
    parser.add_argument("--live", action="store_true", help="CPU time per line through a proxy")
    parser.add_argument(
        "--first-finding", action="store_true", help="seconds to check's first finding"
    )
    add_instruction_options(parser, "a pass")
    args = parser.parse_args()
    check_instruction_options(parser, args)
    path = transcript(args.messages)
    if args.instructions:
        instructions(path, args.against, args.by_function)
        return
    if args.first_finding:
        first_finding(path, args.repeat, args.against)
        return
    if args.live or args.per_kind:  # measured in this process: this tree's migrator
        sys.path.insert(0, str(ROOT))
        if args.live:
            live(path, args.repeat)
        else:
            per_kind(path, args.repeat, args.against)
        return
    env = {k: v for k, v in os.environ.items() if k != "MCP_TRANSCRIPTS_REFERENCE_CORE"}
    reference = {**env, "MCP_TRANSCRIPTS_REFERENCE_CORE": "1"}
    cli = [sys.executable, "-m", "migrator"]
    tasks: list[tuple[str, list[str], dict[str, str], Path]] = [
        ("orjson line loop", [sys.executable, "-c", ORJSON_LOOP, str(path)], env, ROOT),
    ]
    if shutil.which("jq"):
        jq = ["jq", "-c", "select(.error.code == -32602)", str(path)]
        tasks.append(("jq select", jq, env, ROOT))
    check = [*cli, "check", "-q", "-j", "1", "--format", "json", str(path)]
    fix_diff = [*cli, "fix", "--diff", "-q", "-j", "1", str(path)]
    tasks += [
        ("check", check, env, ROOT),
        ("check (reference core)", check, reference, ROOT),
        ("check, default -j", [*cli, "check", "-q", "--format", "json", str(path)], env, ROOT),
        ("fix --diff", fix_diff, env, ROOT),
        ("fix --diff (reference core)", fix_diff, reference, ROOT),
    ]  # fmt: skip
    if args.against:
        tree = checkout(args.against)
        tasks += [
            (f"check at {args.against}", check, env, tree),
            (f"fix --diff at {args.against}", fix_diff, env, tree),
        ]
    megabytes = path.stat().st_size / 1e6
    print(f"{path.name}: {args.messages} messages, {megabytes:.0f} MB, median of {args.repeat}")
    print(f"{'task':34s} {'wall s':>8s} {'cpu s':>8s} {'MB/s':>7s} {'peak MB':>8s}")
    results: dict[str, tuple[float, float, float]] = {}
    for name, argv, task_env, cwd in tasks:
        results[name] = wall, cpu, peak = measure(argv, args.repeat, task_env, cwd)
        print(f"{name:34s} {wall:8.2f} {cpu:8.2f} {megabytes / wall:7.0f} {peak:8.0f}")
    base = results["orjson line loop"]
    print("ratios (wall; cpu):")

    def ratio(label: str, numerator: str, denominator: str) -> None:
        if numerator in results and denominator in results:
            wall = results[numerator][0] / results[denominator][0]
            cpu = results[numerator][1] / results[denominator][1]
            print(f"  {label:48s} {wall:6.2f}; {cpu:6.2f}")

    for task in results:
        if task in ("orjson line loop", "jq select"):
            continue
        print(
            f"  {task + ': share of the orjson loop':48s} "
            f"{base[0] / results[task][0]:6.2f}; {base[1] / results[task][1]:6.2f}"
        )
    ratio("check speed-up over jq", "jq select", "check")
    ratio("check: one pass over the reference core", "check (reference core)", "check")
    ratio(
        "fix --diff: one pass over the reference core", "fix --diff (reference core)", "fix --diff"
    )
    ratio("check: default -j over -j 1", "check", "check, default -j")
    if args.against:
        ratio(f"check: this tree over {args.against}", f"check at {args.against}", "check")
        ratio(
            f"fix --diff: this tree over {args.against}",
            f"fix --diff at {args.against}",
            "fix --diff",
        )


if __name__ == "__main__":
    main()
