"""The examples shown on the site are the migrator's real output.

Every case folder under docs/examples/ holds a hand-written ``before.jsonl`` and the files
``scripts/update_doc_examples.py`` generated from it. These tests run the migrator again and
compare byte for byte, so a change in the tool that is not reflected in the docs fails here.
Regenerate with ``python scripts/update_doc_examples.py`` and review the diff.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "docs" / "examples"
CASES = sorted(p.parent.name for p in EXAMPLES.glob("*/before.jsonl"))

# Cases the migrator must leave exactly as they are, and why.
MUST_NOT_CHANGE = {
    # SEP-1303 keeps "unknown tool" a protocol error: there is nothing for the model to fix
    # in its arguments, and rewriting it would hide a client or configuration bug.
    "unknown-tool",
    # A tools/call whose params do not satisfy the CallToolRequest schema (arguments not an
    # object, no name) is a malformed request, still a protocol error after SEP-1303.
    "malformed-request",
}


def test_the_case_list_is_what_the_docs_expect() -> None:
    assert {
        "typescript-sdk",
        "server-everything",
        "go-sdk",
        "rmcp",
        "unknown-tool",
        "malformed-request",
        "tutorial",
        "envelope",
        "weather",
    } <= set(CASES)
    assert set(MUST_NOT_CHANGE) <= set(CASES)


@pytest.fixture(autouse=True)
def _in_repo_root(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    # The generated diffs and findings name files relative to the repository root.
    monkeypatch.chdir(ROOT)
    yield


@pytest.mark.parametrize("case", CASES)
@pytest.mark.parametrize("name", ["after.jsonl", "fix.diff", "check.txt"])
def test_generated_file_is_current(examples_script: ModuleType, case: str, name: str) -> None:
    expected = examples_script.render_case(case)[name]
    path = EXAMPLES / case / name
    assert path.exists(), f"{path.relative_to(ROOT)} is missing: run scripts/update_doc_examples.py"
    assert path.read_bytes() == expected, (
        f"{path.relative_to(ROOT)} is out of date: run scripts/update_doc_examples.py"
    )


def test_home_page_pair_is_current(examples_script: ModuleType) -> None:
    for path, content in examples_script.render_highlight().items():
        assert (ROOT / path).read_bytes() == content, f"{path} is out of date"


@pytest.mark.parametrize("case", sorted(MUST_NOT_CHANGE))
def test_protocol_errors_that_must_stay(examples_script: ModuleType, case: str) -> None:
    before = (EXAMPLES / case / "before.jsonl").read_bytes()
    assert (EXAMPLES / case / "after.jsonl").read_bytes() == before
    assert (EXAMPLES / case / "fix.diff").read_bytes() == b""
    findings = (EXAMPLES / case / "check.txt").read_text(encoding="utf-8").splitlines()
    assert not [f for f in findings if ": MCP1" in f], "the gallery says: no MCP1xx finding"
    diff = examples_script.run_cli(["fix", "--diff", f"docs/examples/{case}/before.jsonl"])
    assert diff.exit_code == 0
    assert diff.stdout == b""


@pytest.mark.parametrize("case", sorted(set(CASES) - MUST_NOT_CHANGE))
def test_rewritten_cases_change_and_report(examples_script: ModuleType, case: str) -> None:
    before = (EXAMPLES / case / "before.jsonl").read_bytes()
    after = (EXAMPLES / case / "after.jsonl").read_bytes()
    assert after != before
    assert (EXAMPLES / case / "check.txt").read_bytes() != b""
    diff = (EXAMPLES / case / "fix.diff").read_text(encoding="utf-8")
    assert diff.startswith(f"--- a/docs/examples/{case}/before.jsonl\n")
    assert f"\n+++ b/docs/examples/{case}/before.jsonl\n" in diff
    assert (
        examples_script.run_cli(["fix", "--diff", f"docs/examples/{case}/before.jsonl"]).exit_code
        == 1
    )
    # One line in, one line out: the rewrite keeps the transcript's line structure.
    assert after.count(b"\n") == before.count(b"\n")


@pytest.mark.parametrize("case", CASES)
def test_fix_is_stable(examples_script: ModuleType, case: str) -> None:
    after = (EXAMPLES / case / "after.jsonl").read_bytes()
    again = examples_script.run_cli(["fix", "-"], stdin=after)
    assert again.exit_code == 0
    assert again.stdout == after


def test_typescript_sdk_1_21_output_is_already_clean(examples_script: ModuleType) -> None:
    # What TypeScript SDK >= 1.21 sends for the same calls: the gallery shows it as the
    # reference shape, so the checker must not flag it.
    run = examples_script.run_cli(["check", "docs/examples/typescript-sdk/sdk-1.21.jsonl"])
    assert run.exit_code == 0, run.stdout.decode()
    # Only MCP203 (info: the model's invalid arguments, which the new answers now explain).
    assert {line.split()[1] for line in run.stdout.decode().splitlines()} <= {"MCP203"}


def test_every_example_file_is_shown_on_a_page() -> None:
    pages = "\n".join(p.read_text(encoding="utf-8") for p in (ROOT / "docs").rglob("*.md"))
    unused = [
        p.relative_to(EXAMPLES).as_posix()
        for p in sorted(EXAMPLES.rglob("*"))
        # an empty output (nothing to report, nothing to change) is said in words instead
        if p.is_file()
        and p.stat().st_size
        and f'"{p.relative_to(EXAMPLES).as_posix()}"' not in pages
    ]
    assert not unused, f"example files no page includes: {unused}"


def test_side_by_side_pairs_are_current(examples_script: ModuleType) -> None:
    for path, content in examples_script.render_pairs().items():
        assert (ROOT / path).exists(), f"{path} is missing: run scripts/update_doc_examples.py"
        assert (ROOT / path).read_bytes() == content, f"{path} is out of date"


def _highlighted(fragment: Path) -> list[str]:
    """The lines of a generated fenced block that its ``hl_lines`` option marks."""
    fence, *lines = fragment.read_text(encoding="utf-8").splitlines()
    numbers = fence.partition('hl_lines="')[2].rstrip('"').split()
    return [lines[int(number) - 1] for number in numbers]


def test_pairs_highlight_exactly_the_rewritten_lines() -> None:
    # A converted answer: the error object goes, the isError result comes; id and
    # jsonrpc stay, so they are not marked.
    before = _highlighted(EXAMPLES / "weather" / "call-3.before.md")
    after = _highlighted(EXAMPLES / "weather" / "call-3.after.md")
    assert before[0].strip() == '"error": {'
    assert after[0].strip() == '"result": {'
    assert '"isError": true,' in [line.strip() for line in after]
    assert not [line for line in before + after if '"id"' in line or '"jsonrpc"' in line]
    # An unknown tool: fix leaves it alone, so nothing is marked on either side.
    unchanged = EXAMPLES / "weather" / "call-4.before.md"
    assert _highlighted(unchanged) == []
    assert unchanged.read_bytes() == (EXAMPLES / "weather" / "call-4.after.md").read_bytes()
