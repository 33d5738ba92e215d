"""Golden fixtures: every folder under tests/golden/ is one case.

Each case has an input file (``input.jsonl``, ``input.json``, ...) and the
expected ``check.txt`` (the findings of ``mcp-transcripts check``), ``fix.diff``
(``fix --diff``) and ``output.<same suffix>`` (the file after ``fix``), plus an optional ``options.json`` with extra ``fix_argv``
and the reason for them. Regenerate after a deliberate change with
``MCP_TRANSCRIPTS_UPDATE_GOLDEN=1 pytest tests/test_golden.py`` and review the diff.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from tests.conftest import ROOT, run_cli

GOLDEN = ROOT / "tests" / "golden"
CASES = sorted(p.name for p in GOLDEN.iterdir() if p.is_dir() and list(p.glob("input.*")))


def _input(case: Path) -> Path:
    (found,) = case.glob("input.*")
    return found


UPDATE = os.environ.get("MCP_TRANSCRIPTS_UPDATE_GOLDEN") == "1"


def _fix_argv(case: Path) -> list[str]:
    options = case / "options.json"
    return json.loads(options.read_text())["fix_argv"] if options.exists() else []


def _compare(path: Path, actual: bytes) -> None:
    if UPDATE:
        path.write_bytes(actual)
    assert path.exists(), f"{path.name} missing: run with MCP_TRANSCRIPTS_UPDATE_GOLDEN=1"
    assert actual == path.read_bytes(), f"{path.relative_to(ROOT)} differs"


@pytest.mark.parametrize("name", CASES)
def test_golden_case(name: str, in_root: Path, tmp_path: Path) -> None:
    case = GOLDEN / name
    source = _input(case)
    rel = str(source.relative_to(ROOT))
    extra = _fix_argv(case)

    checked = run_cli("check", rel)
    assert checked.code in (0, 1), checked.err
    _compare(case / "check.txt", checked.out.encode())

    diffed = run_cli("fix", "--diff", *extra, rel)
    assert diffed.code in (0, 1), diffed.err
    _compare(case / "fix.diff", diffed.out.encode("utf-8", "surrogateescape"))
    assert diffed.code == (1 if diffed.out else 0)

    work = tmp_path / source.name
    shutil.copyfile(source, work)
    fixed = run_cli("fix", *extra, str(work))
    assert fixed.code == 0, fixed.err
    _compare(case / f"output{source.suffix}", work.read_bytes())

    # Idempotent, and the output no longer has anything `fix` would fix.
    again = run_cli("fix", "--diff", *extra, str(work))
    assert again.code == 0 and again.out == ""
    rechecked = run_cli("check", "--select", "MCP101", str(work))
    assert rechecked.out == ""


def test_every_case_is_complete() -> None:
    for name in CASES:
        suffix = _input(GOLDEN / name).suffix
        for expected in ("check.txt", "fix.diff", f"output{suffix}"):
            assert (GOLDEN / name / expected).exists(), f"{name}/{expected}"
