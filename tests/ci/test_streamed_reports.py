"""The whole-document formats (SARIF, GitLab, JUnit) are written finding by finding; the bytes
must be those of the document built in memory and dumped at once, as they were before."""

from __future__ import annotations

import contextlib
import io
import json
import sys
import tempfile
import xml.etree.ElementTree as ET
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest

from migrator.engine.baseline import LineSource, finding_keys, fingerprint
from migrator.engine.options import Options
from migrator.engine.results import FileReport, RunResult
from migrator.engine.runner import run
from migrator.errors import InputError
from migrator.model.findings import Finding, FindingList, FixSafety, Severity
from migrator.reporters import ReportOptions, gitlab, junit, sarif
from migrator.reporters.support import fingerprinted
from tests.ci.conftest import REPO
from tests.ci.transcripts import session, write

sys.path.insert(0, str(REPO / "benchmarks"))
from generate import generate  # the benchmark's generator: many findings


def _dumped(value: object) -> str:
    return json.dumps(value, indent=2, ensure_ascii=False) + "\n"


def _tree_text(result: RunResult, fail_on: str) -> str:
    root = junit.tree(result, fail_on)
    ET.indent(root)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"


def _streamed(module: object, result: RunResult, fail_on: str = "warning") -> str:
    out = io.StringIO()
    module.report(result, out, ReportOptions(fail_on=fail_on))  # type: ignore[attr-defined]
    return out.getvalue()


def _odd(path: str, line: int, request_id: str | int | None, **more: object) -> Finding:
    fields: dict = {
        "slug": "odd",
        "severity": Severity.WARNING,
        "message": 'control \x01 <markup> & "quotes" \ud800 tab\there\nnewline',
        "fixable": FixSafety.SAFE,
        "request_id": request_id,
        "tool": "t\x02ol",
        "evidence": ("= one <", "two & \x0b"),
        **more,
    }
    return Finding(path, line, 1, "MCP101", **fields)


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """The current folder of the module's tests (fingerprints hold paths relative to it)."""
    work = tmp_path_factory.mktemp("streamed")
    with contextlib.chdir(work):
        yield work


@pytest.fixture(scope="module")
def result(folder: Path) -> RunResult:
    """A run with hundreds of findings (more than a FindingList block: most of them packed), MCP301 findings
    without a request id (fingerprinted by the line's text), a file given under two
    spellings, odd characters, a span finding, and a file error."""
    big = folder / "big.jsonl"
    big.write_text("".join(line + "\n" for line in generate(25_000)), encoding="utf-8")
    write(folder, "small.jsonl", session())
    ran = run([str(big), "small.jsonl"], Options())
    assert sum(len(r.findings) for r in ran.files) > FindingList.BLOCK
    twice = [
        FileReport("a.jsonl", findings=FindingList([_odd("a.jsonl", 2, 7), _odd("a.jsonl", 3, 7)])),
        FileReport("./a.jsonl", findings=FindingList([_odd("./a.jsonl", 1, 7)])),
        FileReport(
            "spans.json",
            findings=FindingList(
                [_odd("spans.json", 1, None, trace_id="ab", span_id="cd", severity=Severity.INFO)]
            ),
        ),
        FileReport("clean.jsonl"),
    ]
    ran.files += twice
    ran.errors.append(InputError("cannot read <this> & that", path="gone.jsonl", line=3))
    return ran


def test_fingerprints_are_those_counted_over_the_whole_run(result: RunResult) -> None:
    findings = result.findings
    keys = finding_keys(findings, Path.cwd(), LineSource(result.texts))
    seen: Counter[object] = Counter()
    expected = []
    for finding, key in zip(findings, keys, strict=True):
        expected.append((finding, fingerprint(key, seen[key])))
        seen[key] += 1
    assert list(fingerprinted(result)) == expected
    assert len({fp for _, fp in expected}) == len(expected)


def test_sarif_streamed_is_the_document_dumped(result: RunResult) -> None:
    assert _streamed(sarif, result) == _dumped(sarif.document(result))


def test_gitlab_streamed_is_the_array_dumped(result: RunResult) -> None:
    assert _streamed(gitlab, result) == _dumped(gitlab.issues(result))


@pytest.mark.parametrize("fail_on", ["error", "warning", "info", "never"])
def test_junit_streamed_is_the_tree_serialised(result: RunResult, fail_on: str) -> None:
    assert _streamed(junit, result, fail_on) == _tree_text(result, fail_on)


def test_empty_runs_are_written_as_before() -> None:
    empty = RunResult()
    assert _streamed(sarif, empty) == _dumped(sarif.document(empty))
    assert _streamed(gitlab, empty) == "[]\n"
    assert _streamed(junit, empty) == _tree_text(empty, "warning")
    clean = RunResult(files=[FileReport("clean.jsonl")])
    assert _streamed(sarif, clean) == _dumped(sarif.document(clean))
    assert _streamed(junit, clean) == _tree_text(clean, "warning")


def test_junit_leaves_no_scratch_file(result: RunResult) -> None:
    before = set(Path(tempfile.gettempdir()).glob(".mcp-transcripts.*"))
    _streamed(junit, result, "error")  # most findings wait in the scratch file
    assert set(Path(tempfile.gettempdir()).glob(".mcp-transcripts.*")) == before
