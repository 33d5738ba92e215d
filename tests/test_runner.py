"""The core's run over many files (``migrator.engine.runner``) and the settings it runs with.

Driven through the API as a library user would: no argparse, nothing printed.
"""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from migrator.api import check_file
from migrator.engine import config, runner
from migrator.engine.options import Mode, Options
from migrator.engine.results import FileReport
from migrator.errors import InputError, NotATranscriptError, UsageError

CALL = '{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"q","arguments":{}}}\n'
FIXABLE = (
    CALL
    + '{"jsonrpc":"2.0","id":3,"error":{"code":-32602,"message":"Invalid arguments for tool q: bad a"}}\n'
)
CLEAN = '{"jsonrpc":"2.0","id":1,"method":"ping"}\n{"jsonrpc":"2.0","id":1,"result":{}}\n'


@pytest.fixture
def tree(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "traces" / "old").mkdir(parents=True)
    (tmp_path / "traces" / "a.jsonl").write_text(FIXABLE)
    (tmp_path / "traces" / "b.jsonl").write_text(CLEAN)
    (tmp_path / "traces" / "old" / "c.jsonl").write_text(FIXABLE)
    (tmp_path / "traces" / "ci.yaml").write_text("jobs: {}\n")  # no MCP traffic: passed over
    (tmp_path / "traces" / "blob.jsonl").write_bytes(b"\x00binary\n")
    return tmp_path


def test_on_file_hears_every_file_in_order_with_errors_as_values(tree: Path) -> None:
    heard: list[runner.FileDone] = []
    started: list[tuple[int, int]] = []
    result = runner.run(
        ["traces"], Options(), on_start=lambda n, j: started.append((n, j)), on_file=heard.append
    )
    assert started == [(5, 1)]
    assert [Path(d.path).name for d in heard] == [
        "a.jsonl",
        "b.jsonl",
        "blob.jsonl",
        "ci.yaml",
        "c.jsonl",
    ]
    skipped = [d for d in heard if d.skipped]
    assert [Path(d.path).name for d in skipped] == ["ci.yaml"] and isinstance(
        skipped[0].outcome, NotATranscriptError
    )
    assert [Path(r.path).name for r in result.files] == ["a.jsonl", "b.jsonl", "c.jsonl"]
    assert len(result.errors) == 1 and "blob.jsonl" in str(result.errors[0])
    assert all(d.seconds >= 0 for d in heard)
    assert result.exit_code() == 2 and result.exit_code("never") == 2


def test_the_result_is_what_the_per_file_api_gives(tree: Path) -> None:
    result = runner.run(["traces/a.jsonl", "traces/old"], Options())
    expected = [check_file("traces/a.jsonl").findings, check_file("traces/old/c.jsonl").findings]
    assert [list(r.findings) for r in result.files] == [list(f) for f in expected]
    assert result.summary().startswith("Found 2 findings (2 warning) in 2 files, 4 messages")


def test_worker_processes_give_the_same_result_and_output(tree: Path) -> None:
    one, many = io.StringIO(), io.StringIO()
    options = Options(mode=Mode.DIFF)
    first = runner.run(["traces"], options, jobs=1, out=one)
    second = runner.run(["traces"], options, jobs=3, out=many)
    assert one.getvalue() == many.getvalue() and one.getvalue().count("--- a/") == 2
    assert [r.fixes for r in first.files] == [r.fixes for r in second.files] == [1, 0, 1]
    assert first.exit_code(mode=Mode.DIFF) == 2  # the binary file
    assert (tree / "traces" / "a.jsonl").read_text() == FIXABLE  # diff mode writes nothing


def test_fix_mode_writes_and_keeps_a_backup(tree: Path) -> None:
    result = runner.run(["traces/a.jsonl"], Options(mode=Mode.FIX), backup=".orig")
    assert result.files[0].fixes == 1 and result.exit_code(mode=Mode.FIX) == 0
    assert '"isError":true' in (tree / "traces" / "a.jsonl").read_text()
    assert (tree / "traces" / "a.jsonl.orig").read_text() == FIXABLE
    assert result.summary(Mode.FIX).startswith("Fixed 1 of 1 findings in 1 file (1 read")


def test_the_configuration_walks_and_narrows(tree: Path) -> None:
    (tree / ".mcp-transcripts.yaml").write_text(
        "exclude: [old]\nper-file-ignores:\n  'traces/a.jsonl': [MCP101]\n"
    )
    settings = config.discover()
    options = settings.resolve(config.Overrides())
    result = runner.run(["traces"], options, config=settings)
    assert [Path(r.path).name for r in result.files] == ["a.jsonl", "b.jsonl"]  # old/ not entered
    assert result.tally().findings == 0  # MCP101 ignored in a.jsonl only
    assert runner.run(["traces/old/c.jsonl"], options, config=settings).tally().findings == 1


def test_stdin_is_read_whole_and_fixed_to_out(tree: Path) -> None:
    out = io.StringIO()
    result = runner.run(
        ["-"], Options(mode=Mode.FIX), stdin=io.StringIO(FIXABLE), stdin_name="in.jsonl", out=out
    )
    assert result.files[0].path == "in.jsonl" and result.texts == {"in.jsonl": FIXABLE}
    assert '"isError":true' in out.getvalue()


def test_pairs_run_as_one_conversation(tree: Path) -> None:
    lines = FIXABLE.splitlines(keepends=True)
    (tree / "c2s.jsonl").write_text(lines[0])
    (tree / "s2c.jsonl").write_text(lines[1])
    heard: list[runner.FileDone] = []
    result = runner.run([], Options(), pairs=[("c2s.jsonl", "s2c.jsonl")], on_file=heard.append)
    assert [f.code for f in result.findings] == ["MCP101"]
    assert isinstance(heard[0].outcome, FileReport) and heard[0].path == "s2c.jsonl"


@pytest.mark.parametrize(
    ("paths", "pairs", "message"),
    [
        ([], [], "give at least one PATH"),
        (["-", "a.jsonl"], [], "cannot be combined"),
        (["a.jsonl"], [("x", "y")], "--pair cannot be combined"),
    ],
)
def test_what_cannot_run_is_a_usage_error(
    paths: list[str], pairs: list[tuple[str, str]], message: str
) -> None:
    with pytest.raises(UsageError, match=message):
        runner.run(paths, Options(), pairs=pairs)


def test_a_missing_path_is_an_input_error(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="no such file or folder"):
        runner.run([str(tmp_path / "missing")], Options())


def test_resolve_puts_the_command_line_over_the_file_over_the_defaults(tmp_path: Path) -> None:
    (tmp_path / ".mcp-transcripts.yaml").write_text(
        "select: [MCP1]\nextend-select: [MCP301]\nignore: [MCP104]\nunsafe-fixes: true\n"
        "provenance: false\nassume-version: '2025-06-18'\nfail-on: error\nvalidation-patterns: ['^E42 ']\n"
    )
    settings = config.discover(tmp_path)
    from_file = settings.resolve()
    assert from_file.selected == frozenset({"MCP101", "MCP102", "MCP103", "MCP301"})
    assert (
        from_file.unsafe_fixes
        and not from_file.provenance
        and from_file.assume_version == "2025-06-18"
    )
    assert from_file.validation_patterns == ("^E42 ",) and from_file.mode is Mode.CHECK
    assert settings.fail_level() == "error"
    given = config.Overrides(
        select=config.Overrides.codes(["MCP2,MCP3"]),
        ignore=(),
        assume_version="2025-11-25",
        fail_on="never",
        mode=Mode.DIFF,
    )
    cli = settings.resolve(given)
    assert cli.selected is not None and not {"MCP101", "MCP104"} & cli.selected
    assert (
        {"MCP201", "MCP301"} <= cli.selected
        and cli.assume_version == "2025-11-25"
        and cli.mode is Mode.DIFF
    )
    assert settings.fail_level(given) == "never"
    defaults = config.Config().resolve()
    assert defaults.mode is Mode.CHECK and defaults.provenance and not defaults.unsafe_fixes
    assert config.Config().fail_level() == "warning"


def test_narrow_turns_off_per_file_rules_only_for_matching_paths(tmp_path: Path) -> None:
    (tmp_path / ".mcp-transcripts.yaml").write_text("per-file-ignores:\n  'legacy/**': [MCP1]\n")
    settings = config.discover(tmp_path)
    options = settings.resolve()
    narrowed = settings.narrow(options, tmp_path / "legacy" / "x.jsonl")
    assert narrowed.selected is not None and not {
        c for c in narrowed.selected if c.startswith("MCP1")
    }
    assert settings.narrow(options, tmp_path / "new.jsonl") is options
    assert settings.narrow(options, "-") is options  # stdin has no place in the tree


@pytest.mark.parametrize("jobs", [1, 3])
def test_diff_mode_leaves_no_spool_behind(
    tree: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, jobs: int
) -> None:
    # Each file's diff is spooled to a temporary file; a file passed over (ci.yaml) or
    # refused (blob.jsonl) must not leave its spool in the temporary folder.
    import tempfile

    (tree / "traces" / "package.json").write_text('{"name": "pkg", "version": "1.0.0"}\n')
    (tree / "traces" / "app.jsonl").write_text('{"level": "info", "msg": "up"}\n')
    spool_dir = tmp_path / "spool"
    spool_dir.mkdir()
    monkeypatch.setenv("TMPDIR", str(spool_dir))
    monkeypatch.setattr(tempfile, "tempdir", None)  # read TMPDIR again, here and in workers
    runner.run(["traces"], Options(mode=Mode.DIFF), jobs=jobs, out=io.StringIO())
    assert sorted(p.name for p in spool_dir.iterdir()) == []
