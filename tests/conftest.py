"""Shared test helpers."""

from __future__ import annotations

import io
import os
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from filelock import FileLock
from hypothesis import settings

from migrator.cli import main

if TYPE_CHECKING:
    from tests.services import S3Server

# Property tests: in CI a fixed seed, so a failure reproduces on a rerun and on a
# laptop; "fuzz" (make fuzz-properties, or HYPOTHESIS_PROFILE=fuzz) draws many more
# random examples: 5000 by default, twenty times a test's own examples(N). Selected here, before the
# test modules build their own settings from the active profile.
settings.register_profile("ci", derandomize=True, print_blob=True)
settings.register_profile(
    "fuzz", max_examples=5000, derandomize=False, deadline=None, print_blob=True
)
PROFILE = os.environ.get("HYPOTHESIS_PROFILE") or ("ci" if os.environ.get("CI") else "default")
settings.load_profile(PROFILE)


def examples(count: int) -> int:
    """A test's own number of examples; twenty times as many in the "fuzz" profile."""
    return count * 20 if PROFILE == "fuzz" else count


ROOT = Path(__file__).resolve().parents[1]
FIXTURES = ROOT / "tests" / "fixtures"
RECORDED = FIXTURES / "recorded"

SHARED_ENV = "MCP_TRANSCRIPTS_SHARED"
SHARED = Path(os.environ.get(SHARED_ENV) or ROOT.parent / "shared")
"""The shared reference folder (README, "Running the tests"): material never copied in."""


def shared_missing(what: str) -> str:
    """The skip reason of a test that needs something from the shared folder."""
    return (
        f"{what} is not under {SHARED}: set {SHARED_ENV} to the shared reference folder "
        "(README, 'Running the tests')"
    )


@dataclass
class CliResult:
    code: int
    out: str
    err: str


def run_cli(*argv: str, stdin: str = "") -> CliResult:
    """Run ``mcp-transcripts`` in-process through ``main(argv)``."""
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), stdin=io.StringIO(stdin), stdout=out, stderr=err)
    return CliResult(code, out.getvalue(), err.getvalue())


@pytest.fixture
def cli() -> type[CliResult]:
    return CliResult


@pytest.fixture
def in_root(monkeypatch: pytest.MonkeyPatch) -> Path:
    """Run from the repository root, so reported paths are relative."""
    monkeypatch.chdir(ROOT)
    return ROOT


FIXTURES_WORK = ROOT / ".fixtures-work"
"""Where the SDK and server tests install what they run (git-ignored, kept between runs)."""


@contextmanager
def installing() -> Iterator[None]:
    """Hold the install lock of :data:`FIXTURES_WORK` while checking for and making an install.

    ``make test`` runs the suite in several worker processes (pytest-xdist), and tests in
    different workers need the same servers: two npm or pip installs into one folder at once
    break each other. Under the lock, the second worker finds the first one's install made.
    """
    FIXTURES_WORK.mkdir(exist_ok=True)
    with FileLock(FIXTURES_WORK / ".install.lock"):
        yield


@pytest.fixture(scope="session")
def action_job(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One GitHub Actions job's folder, shared by every test that runs action.yml.

    As in a job that uses the action more than once, the action is checked out and
    installed once (``tests/ci/test_integrations.py``'s ``run_action``): the
    second use of the action in a job reuses the first one's environment. Under
    ``make test`` each worker process has a folder of its own, so one job per worker.
    """
    return tmp_path_factory.mktemp("action-job")


@pytest.fixture(scope="session")
def s3() -> Iterator[S3Server]:
    """moto's S3 server, one for the whole session: fsspec keeps one S3 client per set of
    arguments in a process, so every test of the process must see the same endpoint."""
    pytest.importorskip("moto.server", reason="moto[server] is in the test extra")
    from tests.services import S3Server

    server = S3Server()
    try:
        yield server
    finally:
        server.close()
