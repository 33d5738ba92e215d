"""Run the coverage-guided fuzz targets with atheris, each for a bounded time.

Usage:
    python fuzz/run.py [--seconds 10] [TARGET ...]

Each target runs in its own process (atheris ends the process when it
stops), with a corpus seeded from the project's fixtures. A crash is saved
under ``tests/fuzz-regressions/<target>/``, where the test suite replays it
from then on; the exit code is non-zero if any target crashed.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from fuzz.targets import SEEDS, TARGETS  # noqa: E402

CHILD = """
import sys
import atheris
with atheris.instrument_imports():
    import migrator.api, migrator.readers, migrator.engine.pipeline  # noqa: F401
from fuzz.targets import target
atheris.Setup(sys.argv[1:], target(sys.argv.pop(1)))
atheris.Fuzz()
"""


def seed_corpus(name: str, folder: Path) -> int:
    count = 0
    for pattern in SEEDS[name]:
        for path in sorted(ROOT.glob(pattern)):
            shutil.copyfile(path, folder / f"seed-{count:04}{Path(path).suffix}")
            count += 1
    regressions = ROOT / "tests" / "fuzz-regressions" / name
    for path in sorted(regressions.glob("*")) if regressions.exists() else []:
        shutil.copyfile(path, folder / f"regression-{path.name}")
        count += 1
    return count


def fuzz(name: str, seconds: int) -> bool:
    crashes = ROOT / "tests" / "fuzz-regressions" / name
    with tempfile.TemporaryDirectory() as work:
        corpus = Path(work) / "corpus"
        corpus.mkdir()
        seeds = seed_corpus(name, corpus)
        print(f"fuzz {name}: {seeds} seeds, {seconds}s", file=sys.stderr, flush=True)
        proc = subprocess.run(
            [
                sys.executable, "-c", CHILD, name, str(corpus),
                f"-max_total_time={seconds}", "-timeout=20", "-rss_limit_mb=2048",
                f"-artifact_prefix={work}/", "-print_final_stats=1",
            ],
            cwd=ROOT, check=False,
        )  # fmt: skip
        found = [
            p for p in Path(work).iterdir() if p.name.startswith(("crash-", "timeout-", "oom-"))
        ]
        if found:
            crashes.mkdir(parents=True, exist_ok=True)
            for path in found:
                shutil.copyfile(path, crashes / path.name)
                print(f"fuzz {name}: saved {crashes / path.name}", file=sys.stderr)
        return proc.returncode == 0 and not found


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    known = ", ".join(TARGETS)
    parser.add_argument(
        "targets", nargs="*", metavar="TARGET", help=f"targets to run (default: all of {known})"
    )
    parser.add_argument("--seconds", type=int, default=10, help="time per target")
    args = parser.parse_args()
    names = args.targets or list(TARGETS)
    unknown = [n for n in names if n not in TARGETS]
    if unknown:
        parser.error(f"unknown targets {unknown}; known: {', '.join(TARGETS)}")
    failed = [name for name in names if not fuzz(name, args.seconds)]
    if failed:
        print(f"fuzz: crashes in {', '.join(failed)}; see tests/fuzz-regressions/", file=sys.stderr)
        return 1
    print(f"fuzz: {len(names)} targets, no crash", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
