"""Replay what the fuzzer learned from: the seeds, and every crash it ever found.

``make fuzz`` (atheris) saves a crashing input under
``tests/fuzz-regressions/<target>/``; from then on this test runs it through
the same target function, without atheris, so the crash stays fixed.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from fuzz.targets import SEEDS, TARGETS, run_target
from tests.conftest import ROOT

REGRESSIONS = ROOT / "tests" / "fuzz-regressions"


def _cases() -> list[tuple[str, Path]]:
    cases = []
    for name in TARGETS:
        for pattern in SEEDS[name]:
            cases += [(name, p) for p in sorted(ROOT.glob(pattern))[:4]]
        folder = REGRESSIONS / name
        if folder.exists():
            cases += [(name, p) for p in sorted(folder.iterdir()) if p.is_file()]
    return cases


@pytest.mark.parametrize(
    ("target", "path"), _cases(), ids=lambda v: v.name if isinstance(v, Path) else v
)
def test_replay(target: str, path: Path) -> None:
    run_target(target, path.read_bytes())


def test_every_target_has_seeds() -> None:
    for name in TARGETS:
        assert any(any(ROOT.glob(pattern)) for pattern in SEEDS[name]), name
