"""Shared test helpers."""

from __future__ import annotations

import io
from dataclasses import dataclass
from pathlib import Path

import pytest

from migrator.cli import main

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = ROOT / "tests" / "fixtures"
RECORDED = FIXTURES / "recorded"


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
