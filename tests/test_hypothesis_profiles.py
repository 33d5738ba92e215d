"""Property tests reproduce in CI and can run longer on demand."""

from __future__ import annotations

import os
import subprocess
import sys

from tests.conftest import ROOT

PROBE = (
    "from tests.conftest import examples; from hypothesis import settings; d = settings.default; "
    "print(d.derandomize, d.max_examples, examples(10))"
)


def _active_profile(**env: str) -> str:
    clean = {k: v for k, v in os.environ.items() if k not in ("CI", "HYPOTHESIS_PROFILE")}
    done = subprocess.run(
        [sys.executable, "-c", PROBE],
        cwd=ROOT,
        env={**clean, **env},
        capture_output=True,
        text=True,
        check=True,
    )
    return done.stdout.strip()


def test_ci_uses_a_fixed_seed() -> None:
    assert _active_profile(CI="true") == "True 100 10"


def test_a_laptop_draws_random_examples() -> None:
    assert _active_profile() == "False 100 10"


def test_the_fuzz_profile_runs_longer_with_random_seeds() -> None:
    assert _active_profile(HYPOTHESIS_PROFILE="fuzz", CI="true") == "False 5000 200"
