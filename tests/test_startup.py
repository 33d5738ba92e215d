"""Start-up imports only what the command uses: the set of modules a run imports, observed.

``python -X importtime`` names every module a process imports, on its standard error;
these tests run the real command line in a fresh interpreter and read that list. The
time start-up takes is measured by ``benchmarks/run.py``, not asserted here.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
_IMPORTED = re.compile(r"^import time:\s+\d+ \|\s+\d+ \|\s*(\S+)$", re.MULTILINE)


def imported_by(*arguments: str, cwd: Path = ROOT) -> tuple[set[str], str]:
    """The modules ``python -m migrator ARGUMENTS`` imports, and what it printed."""
    done = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "migrator", *arguments],
        capture_output=True,
        text=True,
        cwd=cwd,
        env={**os.environ, "PYTHONPATH": str(ROOT)},  # this checkout, from any folder
        check=False,
    )
    return set(_IMPORTED.findall(done.stderr)), done.stdout


def _under(modules: set[str], package: str) -> set[str]:
    return {name for name in modules if name == package or name.startswith(package + ".")}


@pytest.mark.parametrize("spelling", ["--version", "--vers", "--bogus --version"])
def test_version_imports_no_reader_parser_or_http(spelling: str) -> None:
    modules, out = imported_by(*spelling.split())
    assert out.startswith("mcp-transcripts ")
    assert "migrator.cli" in modules  # the list is read right: the command line ran
    for package in ("msgspec", "orjson", "httpx", "migrator.readers", "migrator.engine.pipeline"):
        assert not _under(modules, package), package
    assert not _under(modules, "migrator.cli.commands")  # not even the command modules


def test_version_after_a_command_is_that_commands_error() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "migrator", "check", "--version"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )
    assert done.returncode == 2
    assert "unrecognized arguments: --version" in done.stderr


def test_check_of_one_line_imports_no_live_http_probe_or_worker_pool(tmp_path: Path) -> None:
    one = tmp_path / "one.jsonl"
    one.write_text('{"jsonrpc":"2.0","id":1,"method":"ping"}\n', encoding="utf-8")
    modules, _ = imported_by("check", "-q", str(one), cwd=tmp_path)
    assert "migrator.engine.pipeline" in modules  # it did check the file
    for package in (
        "httpx",
        "starlette",
        "uvicorn",
        "mkdocs",
        "migrator.live",  # proxy, record and probe
        "migrator.cli.server_arguments",
        "concurrent.futures.process",  # a one-line file is not cut into stretches
        "migrator.engine.stretches",
    ):
        assert not _under(modules, package), package
