"""The exit-code contract, code by code and ``--fail-on`` by ``--fail-on``.

Findings follow ``--fail-on``; a file that cannot be read at all (an I/O error,
bytes that are not text, a format that is not recognised) is an input error,
not a finding, and the run exits 2 whatever ``--fail-on`` says. ``--help``
prints the table from :data:`migrator.engine.exitcodes.EXIT_CODES`.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from migrator.engine.exitcodes import EXIT_CODES
from migrator.engine.results import FAIL_ON_CHOICES
from tests.conftest import run_cli

CLEAN = '{"jsonrpc":"2.0","id":1,"method":"ping"}\n{"jsonrpc":"2.0","id":1,"result":{}}\n'
CALL = '{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"q","arguments":{}}}\n'
BY_SEVERITY = {
    "info": '{"jsonrpc":"2.0","id":7,"result":{}}\n',  # MCP303: a response without its request
    "warning": CALL
    + '{"jsonrpc":"2.0","id":3,"error":{"code":-32602,"message":"something odd"}}\n',  # MCP103
    "error": "{oops\n",  # MCP301: a line that is not JSON
}
FIXABLE = (
    CALL
    + '{"jsonrpc":"2.0","id":3,"error":{"code":-32602,"message":"Invalid arguments for tool q: bad a"}}\n'
)
RANK = {"info": 0, "warning": 1, "error": 2, "never": 3}


def unreadable(tmp_path: Path, kind: str) -> Path:
    """A file that cannot be read as a transcript at all, of each kind."""
    if kind == "binary":
        path = tmp_path / "blob.jsonl"
        path.write_bytes(b"\x00\x01\x02 not text\n")
    elif kind == "not-a-transcript":
        path = tmp_path / "notes.yaml"
        path.write_text("title: meeting notes\nwho: everyone\n")
    elif kind == "read-fails":  # an I/O error midway: the kernel refuses to read this one
        path = Path("/proc/self/mem")
    else:  # unreadable permissions
        path = tmp_path / "locked.jsonl"
        path.write_text(CLEAN)
        path.chmod(0)
    return path


UNREADABLE = ["binary", "not-a-transcript", "read-fails", "no-permission"]


@pytest.mark.parametrize("fail_on", FAIL_ON_CHOICES)
@pytest.mark.parametrize("severity", list(BY_SEVERITY))
def test_check_findings_follow_fail_on(tmp_path: Path, fail_on: str, severity: str) -> None:
    path = tmp_path / "t.jsonl"
    path.write_text(BY_SEVERITY[severity])
    result = run_cli("check", "--fail-on", fail_on, str(path))
    assert f"({1} {severity})" in result.err
    assert result.code == (1 if RANK[severity] >= RANK[fail_on] else 0)


@pytest.mark.parametrize("fail_on", FAIL_ON_CHOICES)
def test_check_of_a_clean_file_exits_0(tmp_path: Path, fail_on: str) -> None:
    path = tmp_path / "t.jsonl"
    path.write_text(CLEAN)
    assert run_cli("check", "--fail-on", fail_on, str(path)).code == 0


@pytest.mark.parametrize("fail_on", FAIL_ON_CHOICES)
@pytest.mark.parametrize("kind", UNREADABLE)
def test_a_file_that_cannot_be_read_exits_2_whatever_fail_on_says(
    tmp_path: Path, fail_on: str, kind: str
) -> None:
    if kind == "no-permission" and os.geteuid() == 0:
        pytest.skip("root reads files whatever their permissions")
    if kind == "read-fails" and not Path("/proc/self/mem").exists():
        pytest.skip("needs Linux's /proc")
    clean = tmp_path / "clean.jsonl"
    clean.write_text(CLEAN)
    bad = unreadable(tmp_path, kind)
    result = run_cli("check", "--fail-on", fail_on, str(clean), str(bad))
    assert result.code == 2
    assert f"mcp-transcripts: error: {bad}" in result.err and "1 file error" in result.err
    assert "Traceback" not in result.err


@pytest.mark.parametrize("fail_on", FAIL_ON_CHOICES)
def test_the_configuration_file_fail_on_is_used_and_the_command_line_wins(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fail_on: str
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / ".mcp-transcripts.yaml").write_text(f"fail-on: {fail_on}\n")
    (tmp_path / "t.jsonl").write_text(BY_SEVERITY["warning"])
    expected = 1 if RANK["warning"] >= RANK[fail_on] else 0
    assert run_cli("check", "t.jsonl").code == expected
    assert run_cli("check", "--fail-on", "never", "t.jsonl").code == 0
    assert run_cli("check", "--fail-on", "info", "t.jsonl").code == 1


def test_a_file_found_in_a_folder_that_holds_no_traffic_is_passed_over(tmp_path: Path) -> None:
    (tmp_path / "t.jsonl").write_text(CLEAN)
    (tmp_path / "ci.yaml").write_text("jobs: {}\n")
    assert run_cli("check", "--fail-on", "never", str(tmp_path)).code == 0


def test_a_read_error_midway_is_an_input_error_naming_the_file(tmp_path: Path) -> None:
    if not Path("/proc/self/mem").exists():
        pytest.skip("needs Linux's /proc")
    for command in (["check"], ["fix"], ["fix", "--diff"]):
        result = run_cli(*command, "/proc/self/mem")
        assert result.code == 2, command
        assert (
            "mcp-transcripts: error: /proc/self/mem: cannot read: Input/output error" in result.err
        )
        assert "Traceback" not in result.err and "internal error" not in result.err


def test_a_missing_path_is_a_usage_error(tmp_path: Path) -> None:
    result = run_cli("check", "--fail-on", "never", str(tmp_path / "missing.jsonl"))
    assert result.code == 2 and "no such file or folder" in result.err


def test_fix_exits_0_done_or_nothing_to_do_and_2_on_an_input_error(tmp_path: Path) -> None:
    path = tmp_path / "t.jsonl"
    path.write_text(FIXABLE)
    assert run_cli("fix", str(path)).code == 0 and "isError" in path.read_text()
    assert run_cli("fix", str(path)).code == 0  # nothing left to do
    result = run_cli("fix", str(path), str(unreadable(tmp_path, "binary")))
    assert result.code == 2 and "1 file error" in result.err


def test_fix_diff_exits_1_when_something_would_change(tmp_path: Path) -> None:
    changing, clean = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    changing.write_text(FIXABLE)
    clean.write_text(CLEAN)
    assert run_cli("fix", "--diff", str(clean)).code == 0
    result = run_cli("fix", "--diff", str(changing))
    assert result.code == 1 and result.out.startswith("--- a/") and changing.read_text() == FIXABLE
    assert run_cli("fix", "--diff", str(changing), str(unreadable(tmp_path, "binary"))).code == 2


def test_a_stale_baseline_entry_exits_1_even_with_fail_on_never(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    Path("t.jsonl").write_text(BY_SEVERITY["error"])
    assert run_cli("check", "--write-baseline", "b.json", "t.jsonl").code == 0
    assert run_cli("check", "--baseline", "b.json", "t.jsonl").code == 0
    Path("t.jsonl").write_text(CLEAN)
    result = run_cli("check", "--fail-on", "never", "--baseline", "b.json", "t.jsonl")
    assert result.code == 1 and "no longer occurs" in result.err


def test_help_prints_the_one_exit_code_table() -> None:
    helped = " ".join(run_cli("--help").out.split())
    assert "exit codes" in helped
    for exit_code in EXIT_CODES:
        assert f"{exit_code.code} " in helped, exit_code.name
    assert {c.code for c in EXIT_CODES} >= {0, 1, 2, 130, 141}


def test_a_refused_read_only_file_counts_as_read_not_as_an_unread_error(tmp_path: Path) -> None:
    # Issue 28: it was read (and its fix found) and only the write was refused.
    locked, open_ = tmp_path / "locked.jsonl", tmp_path / "open.jsonl"
    locked.write_text(FIXABLE)
    open_.write_text(FIXABLE)
    locked.chmod(0o444)
    alone = run_cli("fix", str(locked))
    assert alone.code == 2 and "read-only" in alone.err
    assert "(1 read," in alone.err and "1 file read but not rewritten" in alone.err
    assert "file error" not in alone.err and "0 read" not in alone.err
    both = run_cli("fix", str(locked), str(open_))
    assert both.code == 2 and "(2 read," in both.err and "in 1 file " in both.err
    assert locked.read_text() == FIXABLE
