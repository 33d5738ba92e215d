"""The command-line contract, through ``main(argv)`` and one real subprocess."""

from __future__ import annotations

import json
import os
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from migrator import __version__
from migrator.rules.registry import all_rules
from tests.conftest import RECORDED, ROOT, SHARED, run_cli, shared_missing

OLD = RECORDED / "ts-sdk-1.20.2.jsonl"
NEW = RECORDED / "ts-sdk-1.32.2.jsonl"


@pytest.fixture
def old_copy(tmp_path: Path) -> Path:
    target = tmp_path / "session.jsonl"
    shutil.copyfile(OLD, target)
    return target


def test_check_reports_sorted_findings_and_exit_1(old_copy: Path) -> None:
    result = run_cli("check", "--select", "MCP1", str(old_copy))
    assert result.code == 1
    lines = result.out.splitlines()
    assert lines and all(line.startswith(f"{old_copy}:") for line in lines)
    positions = [tuple(map(int, line.split(":")[1:3])) for line in lines]
    assert positions == sorted(positions)
    assert all(" MCP101 " in line for line in lines)
    assert "Found 7 findings" in result.err and "7 fixable" in result.err


def test_check_clean_file_exits_0() -> None:
    result = run_cli("check", "--select", "MCP101", str(NEW))
    assert (result.code, result.out) == (0, "")


def test_fail_on_threshold(old_copy: Path) -> None:
    # The 1.20.2 server negotiated 2025-06-18: MCP101 is a warning there.
    assert run_cli("check", "--select", "MCP1", "--fail-on", "error", str(old_copy)).code == 0
    assert run_cli("check", "--select", "MCP1", "--fail-on", "warning", str(old_copy)).code == 1
    assert run_cli("check", "--fail-on", "never", str(old_copy)).code == 0


def test_assumed_version_does_not_override_the_handshake(old_copy: Path) -> None:
    result = run_cli(
        "check",
        "--select",
        "MCP101",
        "--assume-version",
        "2025-11-25",
        "--fail-on",
        "error",
        str(old_copy),
    )
    assert result.code == 0


def test_json_output_document(old_copy: Path) -> None:
    result = run_cli("check", "--format", "json", "--select", "MCP1", str(old_copy))
    document = json.loads(result.out)
    assert document["tool"] == {"name": "mcp-transcripts", "version": __version__}
    assert document["summary"]["findings"] == len(document["findings"]) == 7
    first = document["findings"][0]
    assert first["code"] == "MCP101" and first["slug"] == "validation-error-as-protocol-error"
    assert first["severity"] == "warning" and first["fixable"] == "safe"
    assert first["tool"] == "add" and first["request_id"] == 13
    assert any("inputSchema" in item for item in first["evidence"])


def test_json_output_matches_its_schema(old_copy: Path) -> None:
    schema_path = ROOT / "schemas" / "findings.schema.json"
    if not schema_path.exists():
        pytest.skip("schemas/findings.schema.json not present")
    from jsonschema import Draft202012Validator

    schema = json.loads(schema_path.read_text())
    document = json.loads(run_cli("check", "--format", "json", str(old_copy)).out)
    Draft202012Validator(schema).validate(document)


def test_show_evidence(old_copy: Path) -> None:
    out = run_cli("check", "--show-evidence", str(old_copy)).out
    assert '    = "add" is in the complete catalog of 3 tools' in out
    assert "    = protocol version 2025-06-18 (initialize result at line 2)" in out


def test_fix_diff_writes_nothing_and_exits_1(old_copy: Path) -> None:
    before = old_copy.read_bytes()
    mtime = old_copy.stat().st_mtime_ns
    result = run_cli("fix", "--diff", str(old_copy))
    assert result.code == 1
    shown = str(old_copy).lstrip("/")  # an absolute path reads a/abs/path, as git writes it
    assert result.out.startswith(f"--- a/{shown}\n+++ b/{shown}\n@@ ")
    assert old_copy.read_bytes() == before and old_copy.stat().st_mtime_ns == mtime
    assert "Would fix 7 of 18 findings in 1 file" in result.err
    assert "11 left (see `mcp-transcripts check`)" in result.err


def test_fix_in_place_keeps_mode_and_is_idempotent(old_copy: Path) -> None:
    old_copy.chmod(0o640)
    result = run_cli("fix", str(old_copy))
    assert result.code == 0, result.err
    assert stat.S_IMODE(old_copy.stat().st_mode) == 0o640
    assert "Fixed 7 of 18 findings in 1 file" in result.err
    assert not list(old_copy.parent.glob(".*.tmp")), "temporary file left behind"
    after = old_copy.read_bytes()
    assert run_cli("fix", str(old_copy)).code == 0
    assert old_copy.read_bytes() == after
    assert run_cli("check", "--select", "MCP101", str(old_copy)).code == 0


def test_fix_does_not_touch_files_without_changes(tmp_path: Path) -> None:
    clean = tmp_path / "clean.jsonl"
    shutil.copyfile(NEW, clean)
    os.utime(clean, ns=(1_000_000_000, 1_000_000_000))
    assert run_cli("fix", str(clean)).code == 0
    assert clean.stat().st_mtime_ns == 1_000_000_000


def test_fix_stdin_to_stdout() -> None:
    text = OLD.read_text()
    result = run_cli("fix", "-", stdin=text)
    assert result.code == 0
    assert result.out.count('"isError":true') == text.count('"isError":true') + 7


def test_fix_diff_from_stdin_names_the_file() -> None:
    result = run_cli(
        "fix", "--diff", "--stdin-filename", "traces/a.jsonl", "-", stdin=OLD.read_text()
    )
    assert result.code == 1 and result.out.startswith("--- a/traces/a.jsonl\n")


def test_unsafe_fixes_flag(tmp_path: Path) -> None:
    target = tmp_path / "py.jsonl"
    shutil.copyfile(RECORDED / "py-sdk-1.9.4.jsonl", target)
    assert run_cli("fix", "--diff", str(target)).code == 0
    result = run_cli("fix", "--diff", "--unsafe-fixes", str(target))
    assert (
        result.code == 1
        and '"error":{"code":-32602,"message":"Unknown tool: no_such_tool"' in result.out
    )


def test_no_provenance(old_copy: Path) -> None:
    out = run_cli("fix", "--diff", "--no-provenance", str(old_copy)).out
    assert "io.github.mcp-transcripts/original-error" not in out and '"isError":true' in out


def test_select_and_ignore(old_copy: Path) -> None:
    codes = {
        line.split()[1]
        for line in run_cli("check", "--ignore", "MCP101", str(old_copy)).out.splitlines()
    }
    assert codes == {"MCP202", "MCP203"}
    assert (
        run_cli(
            "check",
            "--select",
            "MCP1",
            "--ignore",
            "validation-error-as-protocol-error",
            str(old_copy),
        ).out
        == ""
    )
    assert (
        run_cli("check", "--select", "MCP2", "--ignore", "MCP202,MCP203", str(old_copy)).out == ""
    )
    bad = run_cli("check", "--select", "MCP999", str(old_copy))
    assert bad.code == 2 and "'MCP999' names no rule" in bad.err


def test_folders_are_walked_for_transcripts(tmp_path: Path) -> None:
    (tmp_path / "a" / "b").mkdir(parents=True)
    shutil.copyfile(OLD, tmp_path / "a" / "b" / "one.jsonl")
    shutil.copyfile(OLD, tmp_path / "a" / "two.ndjson")
    (tmp_path / "a" / "notes.txt").write_text("not a transcript")
    (tmp_path / "a" / "loop").symlink_to(tmp_path / "a")  # a symlink loop must not trap the walk
    result = run_cli("check", str(tmp_path))
    assert result.code == 1
    assert {line.split(":")[0] for line in result.out.splitlines()} == {
        str(tmp_path / "a" / "b" / "one.jsonl"),
        str(tmp_path / "a" / "two.ndjson"),
    }


def test_missing_path_is_an_input_error(tmp_path: Path) -> None:
    result = run_cli("check", str(tmp_path / "nope.jsonl"))
    assert result.code == 2 and f"{tmp_path / 'nope.jsonl'}: no such file or folder" in result.err


def test_read_only_file_is_refused_and_untouched(old_copy: Path) -> None:
    old_copy.chmod(0o444)
    before = old_copy.read_bytes()
    result = run_cli("fix", str(old_copy))
    assert result.code == 2 and "read-only" in result.err
    assert old_copy.read_bytes() == before


def test_symlinked_file_is_rewritten_through_the_link(old_copy: Path) -> None:
    link = old_copy.parent / "link.jsonl"
    link.symlink_to(old_copy)
    assert run_cli("fix", str(link)).code == 0
    assert link.is_symlink()
    assert b'"isError":true' in old_copy.read_bytes()


def test_invalid_rewrite_is_never_written(old_copy: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The validation guard: a rewrite hook that produces an invalid result stops the write."""
    import migrator.fix.rewrite

    def broken(text: str, version: object, original: object, provenance: bool) -> dict[str, object]:
        return {"content": [{"type": "text"}], "isError": "yes"}  # no text, isError not boolean

    monkeypatch.setattr(migrator.fix.rewrite, "tool_error_result", broken)
    before = old_copy.read_bytes()
    result = run_cli("fix", str(old_copy))
    assert result.code == 2
    assert f"{old_copy}:15: rewritten message fails validation, nothing written" in result.err
    assert old_copy.read_bytes() == before
    assert not list(old_copy.parent.glob(".*.tmp"))


def test_rules_and_explain() -> None:
    listed = run_cli("rules").out.splitlines()
    assert [line.split()[0] for line in listed] == [r.code for r in all_rules()]
    as_json = json.loads(run_cli("rules", "--format", "json").out)
    assert as_json[0]["code"] == "MCP101" and as_json[0]["fix"] == "safe"
    explained = run_cli("explain", "mcp101")
    assert explained.code == 0 and explained.out.startswith(
        "MCP101 validation-error-as-protocol-error\n"
    )
    assert "## Before" in explained.out and "## After" in explained.out
    assert run_cli("explain", "unknown-tool-as-tool-result").out.startswith("MCP102")
    assert run_cli("explain", "MCP999").code == 2


def test_usage_errors_exit_2() -> None:
    assert run_cli().code == 2
    assert run_cli("check").code == 2
    assert run_cli("check", "--output-format", "xml", "x").code == 2
    assert run_cli("check", "-", str(OLD)).code == 2


def test_version_and_help() -> None:
    version = run_cli("--version")
    assert version.code == 0 and version.out.strip() == f"mcp-transcripts {__version__}"
    helped = run_cli("fix", "--help")
    assert (
        helped.code == 0
        and "fix --diff  0 nothing would change, 1 something would change" in helped.out
    )
    usage = run_cli("check", "--no-such-option", "x")
    assert usage.code == 2 and "unrecognized arguments: --no-such-option" in usage.err


@pytest.mark.slow
def test_installed_console_script_runs_from_another_folder(tmp_path: Path) -> None:
    script = Path(sys.executable).parent / "mcp-transcripts"
    if not script.exists():
        pytest.skip("console script not installed in this environment")
    shutil.copyfile(OLD, tmp_path / "t.jsonl")
    proc = subprocess.run(
        [str(script), "check", "--select", "MCP1", "t.jsonl"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 1 and proc.stdout.startswith("t.jsonl:15:1: MCP101 ")
    proc = subprocess.run(
        [sys.executable, "-m", "migrator", "fix", "--diff", "t.jsonl"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 1 and proc.stdout.startswith("--- a/t.jsonl\n")


def _split_capture(tmp_path: Path) -> tuple[Path, Path]:
    c2s, s2c = tmp_path / "c2s.jsonl", tmp_path / "s2c.jsonl"
    lines = OLD.read_text().splitlines(keepends=True)
    c2s.write_text(
        "".join(
            line
            for line in lines
            if '"method"' in line and '"result"' not in line and '"error"' not in line
        )
    )
    s2c.write_text(
        "".join(
            line
            for line in lines
            if not ('"method"' in line and '"result"' not in line and '"error"' not in line)
        )
    )
    return c2s, s2c


def test_pair_check_and_fix_through_the_cli(tmp_path: Path) -> None:
    c2s, s2c = _split_capture(tmp_path)
    client_before = c2s.read_bytes()
    checked = run_cli("check", "--select", "MCP101", "--pair", str(c2s), str(s2c))
    assert checked.code == 1 and len(checked.out.splitlines()) == 7
    assert all(line.startswith(f"{s2c}:") for line in checked.out.splitlines())
    diffed = run_cli("fix", "--diff", "--pair", str(c2s), str(s2c))
    assert diffed.code == 1 and diffed.out.startswith(f"--- a/{str(s2c).lstrip('/')}\n")
    assert run_cli("fix", "--pair", str(c2s), str(s2c)).code == 0
    assert c2s.read_bytes() == client_before, "the client's file is only read"
    assert s2c.read_text().count('"isError":true') == 8  # 7 rewritten + divide by zero
    assert run_cli("check", "--pair", str(c2s), str(s2c), str(OLD)).code == 2


def test_no_path_at_all_is_a_usage_error() -> None:
    result = run_cli("check")
    assert result.code == 2 and "give at least one PATH" in result.err


def test_jobs_gives_the_same_report_in_the_same_order(tmp_path: Path) -> None:
    for name in ("a", "b", "c"):
        shutil.copyfile(OLD, tmp_path / f"{name}.jsonl")
    serial = run_cli("check", "-j", "1", str(tmp_path))
    parallel = run_cli("check", "-j", "3", "-v", str(tmp_path))
    assert parallel.out == serial.out and parallel.code == serial.code == 1
    assert "3 files on 3 worker processes" in parallel.err
    diff_serial = run_cli("fix", "--diff", "-j", "1", str(tmp_path)).out
    assert run_cli("fix", "--diff", "-j", "2", str(tmp_path)).out == diff_serial
    broken = tmp_path / "d.jsonl"
    broken.write_bytes(b"\x00\x01binary\n")
    errored = run_cli("check", "-j", "2", str(tmp_path))
    assert errored.code == 2 and f"{broken}:1: NUL bytes" in errored.err
    assert run_cli("check", "-j", "0", str(tmp_path)).code == 2


def test_diffs_are_spooled_and_the_spool_files_removed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # fix --diff hands each file's diff over through a temporary file, so a
    # large diff is never held in memory; none may be left behind, even when
    # a file fails.
    import tempfile

    from migrator import api

    spool = tmp_path / "spool"
    spool.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(spool))
    traces = tmp_path / "traces"
    traces.mkdir()
    for name in ("a", "b"):
        shutil.copyfile(OLD, traces / f"{name}.jsonl")
    (traces / "c.jsonl").write_bytes(b"\x00\x01binary\n")
    for jobs in ("1", "2"):
        result = run_cli("fix", "--diff", "-j", jobs, str(traces))
        assert result.code == 2
        expected = "".join(
            api.fix_file(traces / f"{name}.jsonl", api.Options(mode=api.Mode.DIFF)).diff
            for name in ("a", "b")
        )
        assert expected and result.out == expected
        assert list(spool.iterdir()) == []


def test_a_closed_pipe_ends_quietly(tmp_path: Path) -> None:
    # `mcp-transcripts check --format json traces/ | head -c 100`: the reader goes
    # away; the tool stops with SIGPIPE's status and no traceback.
    for index in range(30):
        shutil.copyfile(OLD, tmp_path / f"t{index:02}.jsonl")
    process = subprocess.Popen(
        [sys.executable, "-m", "migrator", "check", "--format", "json", str(tmp_path)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert process.stdout is not None and process.stderr is not None
    assert process.stdout.read(100)
    process.stdout.close()
    err = process.stderr.read().decode()
    process.stderr.close()
    assert process.wait(timeout=60) == 141
    assert "Traceback" not in err


def test_mcp_schema_option_enables_mcp206(tmp_path: Path) -> None:
    official = SHARED / "mcp-schemas" / "2025-06-18" / "schema.json"
    if not official.exists():
        pytest.skip(shared_missing("mcp-schemas/2025-06-18/schema.json"))
    path = tmp_path / "t.jsonl"
    path.write_text(
        '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}\n'
        '{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-06-18","capabilities":{}}}\n'
    )
    assert run_cli("check", str(path)).out == ""
    result = run_cli("check", "--mcp-schema", str(official), str(path))
    assert (
        result.code == 1
        and ":2:1: MCP206 not a valid InitializeResult of the official 2025-06-18 schema"
        in result.out
    )


def test_walked_folders_pass_over_files_that_are_not_transcripts(tmp_path: Path) -> None:
    shutil.copyfile(OLD, tmp_path / "t.jsonl")
    (tmp_path / "package.json").write_text('{\n  "name": "x"\n}\n')
    (tmp_path / "ci.yml").write_text("name: CI\non: push\n")
    walked = run_cli("check", "--select", "MCP101", "-v", str(tmp_path))
    assert (
        walked.code == 1
        and "package.json: skipped" in walked.err
        and "ci.yml: skipped" in walked.err
    )
    named = run_cli("check", str(tmp_path / "package.json"))
    assert named.code == 2 and "holds no JSON-RPC messages" in named.err
