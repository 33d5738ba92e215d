"""Every row of the exit-code table (``migrator.engine.exitcodes.EXIT_CODES``), run against the real command.

The CLI reference and the Guarantees page render their tables from that data, so these
tests are what keeps the documented contract true. ``test_every_documented_claim_is_tested``
fails when the table gains a claim that no test here (or a named test elsewhere) runs.
"""

from __future__ import annotations

import signal
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import pytest

from migrator.engine import exitcodes
from migrator.engine.exitcodes import EXIT_CODES
from tests.conftest import run_cli

REQUEST = (
    '{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"search","arguments":{}}}\n'
)
CLEAN = REQUEST + '{"jsonrpc":"2.0","id":4,"result":{"content":[{"type":"text","text":"ok"}]}}\n'
# One finding of each severity, and nothing else (the rules' own documented examples).
ERROR_FINDING = (
    REQUEST + '{"jsonrpc":"2.0","id":4,"result":{"content":[{"type":"text","te\n'
)  # MCP301
WARNING_FINDING = REQUEST + REQUEST.replace('"search"', '"other"')  # MCP304
INFO_FINDING = (  # MCP303: a response before its request
    '{"jsonrpc":"2.0","id":9,"error":{"code":-32602,"message":"Invalid params"}}\n' + REQUEST
)
# A file that cannot be read as a transcript at all: UTF-16.
UNREADABLE = "\ufeff" + CLEAN
FIXABLE = (
    '{"jsonrpc":"2.0","id":1,"method":"tools/list"}\n'
    '{"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"add","inputSchema":{"type":"object",'
    '"properties":{"a":{"type":"number"}},"required":["a"]}}]}}\n'
    '{"jsonrpc":"2.0","id":12,"method":"tools/call","params":{"name":"add","arguments":{"a":"two"}}}\n'
    '{"jsonrpc":"2.0","id":12,"error":{"code":-32602,"message":"MCP error -32602: Invalid arguments '
    'for tool add: [{\\"code\\":\\"invalid_type\\",\\"expected\\":\\"number\\",\\"received\\":'
    '\\"string\\",\\"path\\":[\\"a\\"],\\"message\\":\\"Expected number, received string\\"}]"}}\n'
)

WRITE_BASELINE = "test_write_baseline_records_sorted_keys_valid_against_the_schema"
# (code, command) pairs of the table that other test modules run, by name.
TESTED_ELSEWHERE = {
    (exitcodes.OK, "check"): f"tests/ci/test_baseline.py::{WRITE_BASELINE}",
    (exitcodes.FINDINGS, "check"): "tests/ci/test_baseline.py::test_stale_entries_fail_with_a_list",
    (exitcodes.OK, "schema"): "tests/test_official_schemas.py::test_fetch_verifies_and_caches",
    (
        exitcodes.ERROR,
        "schema",
    ): "tests/test_official_schemas.py::test_checksum_mismatch_caches_nothing",
    (exitcodes.OK, "record, proxy"): "tests/wire/test_relay.py",
    (
        exitcodes.ERROR,
        "record, proxy",
    ): "tests/wire/test_relay.py::test_missing_server_command_is_a_usage_error",
    **{
        (
            exitcodes.INTERRUPTED,
            command,
        ): "tests/test_reliability.py::test_ctrl_c_during_a_write_leaves_the_original_and_no_temporary_file"
        for command in exitcodes.COMMANDS
    },
    **{
        (exitcodes.BROKEN_PIPE, command): "tests/test_cli.py::test_a_closed_pipe_ends_quietly"
        for command in exitcodes.COMMANDS
        if command != "record, proxy"
    },
}
TESTED_HERE: set[tuple[int, str]] = set()
F = TypeVar("F", bound=Callable[..., Any])


def claims(*cells: tuple[int, str]) -> Callable[[F], F]:
    """Mark a test as the check of these cells of the table (recorded at import time)."""

    def mark(test: F) -> F:
        TESTED_HERE.update(cells)
        return test

    return mark


@pytest.fixture
def work(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "work"
    folder.mkdir()
    monkeypatch.chdir(folder)
    return folder


def write(folder: Path, name: str, text: str) -> str:
    path = folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(text.encode("utf-16") if text.startswith("\ufeff") else text.encode())
    return name


# fail-on level -> the exit code for a file whose only finding has this severity
FAIL_ON_TABLE = {
    "error": {"error": 1, "warning": 0, "info": 0, "clean": 0},
    "warning": {"error": 1, "warning": 1, "info": 0, "clean": 0},
    "info": {"error": 1, "warning": 1, "info": 1, "clean": 0},
    "never": {"error": 0, "warning": 0, "info": 0, "clean": 0},
}
FILES = {"error": ERROR_FINDING, "warning": WARNING_FINDING, "info": INFO_FINDING, "clean": CLEAN}


@pytest.mark.parametrize("fail_on", FAIL_ON_TABLE)
@claims((exitcodes.OK, "check"), (exitcodes.FINDINGS, "check"))
def test_check_exits_0_or_1_by_fail_on(work: Path, fail_on: str) -> None:
    for severity, expected in FAIL_ON_TABLE[fail_on].items():
        name = write(work, f"{severity}.jsonl", FILES[severity])
        result = run_cli("check", "--fail-on", fail_on, name)
        assert result.code == expected, (
            f"--fail-on {fail_on}, a {severity} finding: {result.out}{result.err}"
        )
        if severity != "clean":
            assert result.out, "the finding is reported whatever the exit code"


@pytest.mark.parametrize("fail_on", FAIL_ON_TABLE)
@claims((exitcodes.ERROR, "check"))
def test_an_unreadable_file_exits_2_whatever_fail_on_says(work: Path, fail_on: str) -> None:
    bad = write(work, "utf16.jsonl", UNREADABLE)
    good = write(work, "error.jsonl", ERROR_FINDING)
    result = run_cli("check", "--fail-on", fail_on, bad, good)
    assert result.code == exitcodes.ERROR, result.err
    assert "utf16.jsonl" in result.err
    assert "MCP301" in result.out, "the other files are still reported"


@claims((exitcodes.ERROR, "check"))
def test_a_usage_error_exits_2(work: Path) -> None:
    assert run_cli("check", "--fail-on", "sometimes", "x.jsonl").code == exitcodes.ERROR
    assert run_cli("check", "no-such-file.jsonl").code == exitcodes.ERROR


@claims((exitcodes.ERROR, "fix"), (exitcodes.OK, "fix"))
def test_fix_exits_2_for_a_bad_file_and_still_writes_the_others(work: Path) -> None:
    bad = write(work, "utf16.jsonl", UNREADABLE)
    good = write(work, "fixable.jsonl", FIXABLE)
    bad_bytes = (work / bad).read_bytes()
    result = run_cli("fix", bad, good)
    assert result.code == exitcodes.ERROR
    assert (work / bad).read_bytes() == bad_bytes, "the file in error is untouched"
    assert '"isError":true' in (work / good).read_text(), "the other file is written"
    # Alone, the good file (now fixed) gives 0, and so does a file with findings but no fix.
    assert run_cli("fix", good).code == exitcodes.OK
    write(work, "warning.jsonl", WARNING_FINDING)
    assert run_cli("fix", "warning.jsonl").code == exitcodes.OK


@claims(
    (exitcodes.OK, "fix --diff"), (exitcodes.CHANGES, "fix --diff"), (exitcodes.ERROR, "fix --diff")
)
def test_fix_diff_exits_1_when_something_would_change(work: Path) -> None:
    fixable = write(work, "fixable.jsonl", FIXABLE)
    clean = write(work, "clean.jsonl", CLEAN)
    assert run_cli("fix", "--diff", clean).code == exitcodes.OK
    changed = run_cli("fix", "--diff", fixable)
    assert changed.code == exitcodes.CHANGES and changed.out.startswith("---")
    assert (work / fixable).read_text() == FIXABLE, "--diff writes nothing"
    bad = write(work, "utf16.jsonl", UNREADABLE)
    both = run_cli("fix", "--diff", bad, fixable)
    assert both.code == exitcodes.ERROR and both.out.startswith("---"), (
        "the other diffs still print"
    )


@claims((exitcodes.OK, "rules, explain"), (exitcodes.ERROR, "rules, explain"))
def test_rules_and_explain(work: Path) -> None:
    assert run_cli("rules").code == exitcodes.OK
    assert run_cli("explain", "MCP101").code == exitcodes.OK
    assert run_cli("explain", "MCP999").code == exitcodes.ERROR


def test_signal_codes_are_what_a_shell_reports() -> None:
    assert exitcodes.INTERRUPTED == 128 + signal.SIGINT
    assert exitcodes.BROKEN_PIPE == 128 + signal.SIGPIPE


def test_every_documented_claim_is_tested() -> None:
    """Every (code, command) cell of the table has a test."""
    documented = {
        (exit_code.code, command)
        for exit_code in EXIT_CODES
        for command, _meaning in exit_code.per_command
    }
    untested = documented - TESTED_HERE - set(TESTED_ELSEWHERE)
    assert not untested, f"exit-code claims without a test: {sorted(untested)}"
    assert set(TESTED_ELSEWHERE) <= documented, "a claim named here is no longer in the table"


def test_per_file_ignores_apply_to_check_and_to_fix(work: Path) -> None:
    """The CI docs once said check only; the configuration applies to both commands."""
    legacy = write(work, "legacy/old.jsonl", FIXABLE)
    current = write(work, "current/new.jsonl", FIXABLE)
    (work / ".mcp-transcripts.yaml").write_text("per-file-ignores:\n  'legacy/**': [MCP101]\n")
    checked = run_cli("check", "--select", "MCP101", legacy, current)
    assert checked.code == exitcodes.FINDINGS
    assert "current/new.jsonl" in checked.out and "legacy/old.jsonl" not in checked.out
    assert run_cli("fix", legacy, current).code == exitcodes.OK
    assert (work / legacy).read_text() == FIXABLE, "MCP101 is ignored there: not rewritten"
    assert '"isError":true' in (work / current).read_text()
