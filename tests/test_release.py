"""A release a user can install: the sdist and wheel build, pass ``twine check``,
and the wheel alone (no clone, no editable install) gives a working command.

This is what a user of the package index gets, so the test installs the built
wheel into a brand-new virtual environment outside the repository and runs the
console script there, from a folder where ``import migrator`` cannot find the
source tree by accident.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from migrator import __version__
from tests.conftest import ROOT

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(sys.platform == "win32", reason="the venv layout below is POSIX"),
]


def _run(*argv: str | Path, cwd: Path, timeout: int = 600) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    return subprocess.run(
        [str(a) for a in argv],
        capture_output=True,
        text=True,
        cwd=cwd,
        env=env,
        timeout=timeout,
        check=False,
    )


@pytest.fixture(scope="module")
def dist(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """``python -m build`` into a fresh folder: one sdist and one wheel."""
    out = tmp_path_factory.mktemp("dist")
    done = _run(sys.executable, "-m", "build", "--outdir", out, ROOT, cwd=ROOT)
    assert done.returncode == 0, done.stderr[-3000:]
    return out


def _one(folder: Path, pattern: str) -> Path:
    found = sorted(folder.glob(pattern))
    assert len(found) == 1, f"{pattern}: {found}"
    return found[0]


def test_build_makes_a_named_sdist_and_wheel_that_twine_accepts(dist: Path) -> None:
    wheel = _one(dist, f"mcp_transcripts-{__version__}-py3-none-any.whl")
    sdist = _one(dist, f"mcp_transcripts-{__version__}.tar.gz")
    done = _run(sys.executable, "-m", "twine", "check", "--strict", wheel, sdist, cwd=ROOT)
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.count("PASSED") == 2


def test_the_wheel_holds_the_package_its_schemas_and_the_entry_point(dist: Path) -> None:
    wheel = _one(dist, "*.whl")
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
        entry_points = next(n for n in names if n.endswith(".dist-info/entry_points.txt"))
        scripts = archive.read(entry_points).decode()
        metadata = archive.read(
            next(n for n in names if n.endswith(".dist-info/METADATA"))
        ).decode()
    schemas = sorted(p.relative_to(ROOT).as_posix() for p in (ROOT / "schemas").rglob("*.json"))
    assert schemas, "no schemas in the repository"
    for schema in schemas:
        assert f"migrator/_{schema}" in names, f"{schema} is not in the wheel"
    assert "migrator/py.typed" in names
    assert "mcp-transcripts = migrator.cli:console" in scripts
    assert "Name: mcp-transcripts" in metadata
    assert not any(n.startswith("tests/") for n in names)


def test_the_wheel_alone_installs_a_working_command(dist: Path, tmp_path: Path) -> None:
    wheel = _one(dist, "*.whl")
    venv = tmp_path / "venv"
    assert _run(sys.executable, "-m", "venv", venv, cwd=tmp_path).returncode == 0
    pip = _run(venv / "bin" / "python", "-m", "pip", "install", "--quiet", wheel, cwd=tmp_path)
    assert pip.returncode == 0, pip.stderr[-3000:]

    example = tmp_path / "session.jsonl"  # a bundled example, copied away from the clone
    shutil.copyfile(ROOT / "examples" / "typescript-sdk-1.20.2.jsonl", example)
    command = venv / "bin" / "mcp-transcripts"
    version = _run(command, "--version", cwd=tmp_path)
    assert version.returncode == 0 and __version__ in version.stdout

    check = _run(command, "check", "--output-format", "json", "session.jsonl", cwd=tmp_path)
    assert check.returncode == 1, check.stderr  # the old server's answers are findings
    report = json.loads(check.stdout)
    codes = {finding["code"] for finding in report["findings"]}
    assert "MCP101" in codes
    # The package and its schemas came from the venv, not from the clone.
    probe = "from migrator.judge import schemas; print(schemas.schema_dir())"
    where = _run(venv / "bin" / "python", "-c", probe, cwd=tmp_path)
    assert where.stdout.strip().startswith(str(venv)), where.stdout + where.stderr
    assert where.stdout.strip().endswith("migrator/_schemas")
