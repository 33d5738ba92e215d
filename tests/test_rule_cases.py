"""Per-rule cases: every folder ``tests/rules/<CODE>/`` tests one rule on its own.

Each case holds ``fires.jsonl`` (the rule must fire), ``noop.jsonl`` (a near miss: the
rule must stay silent and ``fix`` must leave every byte), and the expected output of the
rule alone on ``fires.jsonl``: ``check.txt`` (``check --select CODE``) and ``fix.diff``
(``fix --diff --select CODE``, with ``--unsafe-fixes`` for a rule whose fix is unsafe;
empty for a rule without a fix). An optional ``options.json`` adds ``check_argv`` to
``check`` and says why; ``{shared}`` in it stands for the shared reference folder beside
the repository. Like pyupgrade's per-feature tests and ruff's per-rule fixtures, a rule
change shows up here, in one folder, whatever the golden sessions happen to contain.

A trace rule's inputs are OTLP JSON export requests, one per line, and it has no
``fix.diff``: ``fix`` refuses a trace (exit 2, nothing written). A rule only a live
``probe`` finds has a folder with a ``README.md`` saying where it is tested instead.

Regenerate after a deliberate change with
``MCP_TRANSCRIPTS_UPDATE_GOLDEN=1 pytest tests/test_rule_cases.py`` and review the diff.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from migrator.model.findings import FixSafety
from migrator.rules.registry import all_rules, get_rule
from tests.conftest import ROOT, SHARED, run_cli, shared_missing

CASES = ROOT / "tests" / "rules"
UPDATE = os.environ.get("MCP_TRANSCRIPTS_UPDATE_GOLDEN") == "1"
CODES = sorted(p.name for p in CASES.iterdir() if p.is_dir())


def _check_argv(case: Path) -> list[str]:
    options = case / "options.json"
    if not options.exists():
        return []
    argv = [
        arg.replace("{shared}", str(SHARED))
        for arg in json.loads(options.read_text())["check_argv"]
    ]
    missing = [arg for arg in argv if str(SHARED) in arg and not Path(arg).exists()]
    if missing:
        pytest.skip(shared_missing(str(Path(missing[0]).relative_to(SHARED))))
    return argv


def _compare(path: Path, actual: str) -> None:
    data = actual.encode("utf-8", "surrogateescape")
    if UPDATE:
        path.write_bytes(data)
    assert path.exists(), f"{path.name} missing: run with MCP_TRANSCRIPTS_UPDATE_GOLDEN=1"
    assert data == path.read_bytes(), f"{path.relative_to(ROOT)} differs"


def test_every_registered_rule_has_a_case() -> None:
    assert [rule.code for rule in all_rules()] == CODES


def _fix_refuses_the_trace(fix_argv: list[str], fires: str, noop: Path) -> None:
    """A trace records what a server did: ``fix`` says so, exits 2 and writes nothing."""
    diffed = run_cli("fix", "--diff", *fix_argv, fires)
    assert diffed.code == 2 and diffed.out == ""
    assert "fix does not apply to traces" in diffed.err
    before = noop.read_bytes()
    refused = run_cli("fix", *fix_argv, str(noop))
    assert refused.code == 2 and "fix does not apply to traces" in refused.err
    assert noop.read_bytes() == before


@pytest.mark.parametrize("code", CODES)
def test_rule_case(code: str, in_root: Path, tmp_path: Path) -> None:
    rule = get_rule(code)
    case = CASES / code
    if rule.found_in == "probe":
        # A crash or a silence leaves no line in a recording: there is no file to check.
        assert (case / "README.md").exists(), f"{code}: say where the rule is tested"
        pytest.skip(f"{code} is found only by a live probe (tests/test_rule_docs.py runs one)")
    argv = [*_check_argv(case), "--select", code]
    fix_argv = ["--select", code, *(["--unsafe-fixes"] if rule.fix is FixSafety.UNSAFE else [])]
    fires = str((case / "fires.jsonl").relative_to(ROOT))
    noop = str((case / "noop.jsonl").relative_to(ROOT))

    checked = run_cli("check", "--fail-on", "never", *argv, fires)
    assert checked.code == 0, checked.err
    assert f": {code} " in checked.out, f"{code} does not fire on fires.jsonl"
    _compare(case / "check.txt", checked.out)

    quiet = run_cli("check", "--fail-on", "never", *argv, noop)
    assert quiet.code == 0 and quiet.out == "", f"{code} fires on noop.jsonl:\n{quiet.out}"
    work = tmp_path / "noop.jsonl"
    shutil.copyfile(case / "noop.jsonl", work)
    if rule.found_in == "trace":
        _fix_refuses_the_trace(fix_argv, fires, work)
        return

    diffed = run_cli("fix", "--diff", *fix_argv, fires)
    assert diffed.code == (1 if diffed.out else 0), diffed.err
    assert bool(diffed.out) == (rule.fix is not FixSafety.NONE), (
        "a diff exactly when the rule has a fix"
    )
    _compare(case / "fix.diff", diffed.out)

    fixed = run_cli("fix", *fix_argv, str(work))
    assert fixed.code == 0, fixed.err
    assert work.read_bytes() == (case / "noop.jsonl").read_bytes(), "fix changed noop.jsonl"
