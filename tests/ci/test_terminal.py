"""Long runs: the progress bar (terminals only, never in CI), verbose lines, fast start-up."""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path

import pytest

from migrator.cli import main
from migrator.cli.progress import PROGRESS_MIN_FILES
from migrator.reporters.terminal import in_ci, use_color
from tests.ci.conftest import REPO
from tests.ci.transcripts import SELECT, clean_session, session, write


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.fixture
def many(work: Path) -> Path:
    for i in range(PROGRESS_MIN_FILES):
        write(work, f"traces/t{i:02}.jsonl", clean_session())
    write(work, "traces/zz.jsonl", session())
    return work / "traces"


def run(*argv: str, stderr: io.StringIO) -> tuple[int, str, str]:
    out = io.StringIO()
    code = main(list(argv), stdout=out, stderr=stderr)
    return code, out.getvalue(), stderr.getvalue()


def test_progress_bar_on_a_terminal(many: Path) -> None:
    code, out, err = run("check", *SELECT, "traces", stderr=Terminal())
    assert code == 1
    assert "Checking" in err and f"/{PROGRESS_MIN_FILES + 1}" in err  # the bar: done/total
    assert "\x1b[" in err
    assert "\x1b[" not in out  # stdout is not a terminal: plain findings
    assert err.rstrip().endswith("fixable with `mcp-transcripts fix`; 1 more with `--unsafe-fixes`")


def test_verbose_lines_are_printed_above_the_bar(many: Path) -> None:
    _, _, err = run("check", "-v", *SELECT, "traces", stderr=Terminal())
    assert "traces/zz.jsonl: wire (" in err and "; 8 messages, 3 findings, " in err


@pytest.mark.parametrize("variable", ["CI", "GITHUB_ACTIONS", "GITLAB_CI", "BUILDKITE", "TF_BUILD"])
def test_no_progress_bar_in_ci(many: Path, monkeypatch: pytest.MonkeyPatch, variable: str) -> None:
    monkeypatch.setenv(variable, "true")
    _, _, err = run("check", *SELECT, "traces", stderr=Terminal())
    assert "Checking" not in err and "\x1b[" not in err
    assert err.startswith("Found 3 findings")


def test_no_progress_bar_when_piped_quiet_or_few_files(many: Path) -> None:
    assert "Checking" not in run("check", *SELECT, "traces", stderr=io.StringIO())[2]
    assert run("check", "-q", *SELECT, "traces", stderr=Terminal())[2] == ""
    assert "Checking" not in run("check", *SELECT, "traces/zz.jsonl", stderr=Terminal())[2]


def test_fix_progress_and_summary(many: Path) -> None:
    code, _, err = run("fix", "traces", stderr=Terminal())
    assert code == 0 and "Fixing" in err
    assert "Fixed 1 of " in err


def test_verbose_per_file_details_without_a_terminal(work: Path) -> None:
    write(work, "t.jsonl", session())
    _, _, err = run("fix", "-v", "t.jsonl", stderr=io.StringIO())
    assert "t.jsonl: wire (lines are JSON-RPC messages); 8 messages, " in err and ", 1 fix, " in err


def test_ci_and_colour_decisions() -> None:
    assert (
        in_ci({"CI": "true"})
        and in_ci({"GITHUB_ACTIONS": "true"})
        and in_ci({"JENKINS_URL": "http://ci"})
    )
    assert (
        not in_ci({})
        and not in_ci({"CI": "false"})
        and not in_ci({"CI": "0"})
        and not in_ci({"CI": ""})
    )
    assert use_color(Terminal(), {}) and not use_color(io.StringIO(), {})
    assert use_color(io.StringIO(), {"FORCE_COLOR": "1"})
    assert not use_color(Terminal(), {"NO_COLOR": "1", "FORCE_COLOR": "1"})
    assert use_color(Terminal(), {"NO_COLOR": ""})  # an empty NO_COLOR does not count
    assert not use_color(Terminal(), {"TERM": "dumb"})


def test_version_does_not_import_the_heavy_dependencies() -> None:
    code = (
        "import sys; from migrator.cli import main; main(['--version']); "
        "heavy = sorted(m for m in ('rich', 'ruamel.yaml', 'migrator.engine.config', 'migrator.engine.baseline', 'migrator.reporters.sarif') if m in sys.modules); "
        "print(heavy)"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO, check=True
    )
    assert result.stdout.strip().splitlines()[-1] == "[]"
