"""``check`` writes the findings of a wire transcript while it is still reading it (text, jsonl,
github, json): every so many lines in one process, block by block from the stretch it waits
for when the file is cut into stretches. The output must be byte for byte what the whole
result gives written at the end; a finding that would sort before one already written stops
the run instead of being written out of order."""

from __future__ import annotations

import io
import pickle
import sys
from pathlib import Path

import pytest

from migrator.cli import main
from migrator.engine import pipeline, stretches
from migrator.engine.options import Options
from migrator.engine.results import FileReport, InPathOrder
from migrator.engine.runner import run
from migrator.model.findings import Finding, FindingList, PackedFindings, Severity
from migrator.reporters import OutputFormat, write_report
from tests.ci.transcripts import session, write
from tests.conftest import ROOT

STREAMING = [f.value for f in OutputFormat if f.streams]
FIXTURES = ROOT / "tests" / "fixtures"


def _cli(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), stdin=io.StringIO(""), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def _whole(paths: list[str], output_format: str, **run_options: object) -> str:
    """The report of the run written at the end, as ``check`` wrote it before."""
    whole = io.StringIO()
    write_report(run(paths, Options(), **run_options), whole, output_format, show_evidence=True)  # type: ignore[arg-type]
    return whole.getvalue()


def _sessions(count: int) -> str:
    return "".join(session(first_id=3 + 2 * n, broken=n % 3 == 0) for n in range(count))


@pytest.fixture
def every_line(monkeypatch: pytest.MonkeyPatch) -> None:
    """Findings are handed on after every line: the strictest test of their order."""
    monkeypatch.setattr(pipeline, "FOUND_EVERY", 1)


@pytest.mark.parametrize("output_format", STREAMING)
def test_a_file_written_while_it_is_read_is_the_report_written_at_the_end(
    work: Path, output_format: str, every_line: None
) -> None:
    write(work, "a.jsonl", _sessions(12))
    write(work, "b.jsonl", _sessions(5))
    paths = ["a.jsonl", "b.jsonl"]
    code, out, _ = _cli(
        "check", "-q", "-j", "1", "--show-evidence", "--output-format", output_format, *paths
    )
    assert code == 1
    assert out == _whole(paths, output_format)
    assert out.count("a.jsonl") > out.count("b.jsonl") > 0


def test_every_fixture_written_line_by_line_is_the_report_written_at_the_end(
    every_line: None,
) -> None:
    """Every recorded and built transcript of the suite, wire or not: a finding made at a line
    before the one being read would stop the run (see the test below)."""
    paths = [str(FIXTURES)]
    code, out, err = _cli(
        "check", "-q", "-j", "1", "--show-evidence", "--output-format", "jsonl", *paths
    )
    assert code in (1, 2), err
    assert out == _whole(paths, "jsonl")
    assert out.count("\n") > 200  # the fixtures hold many findings: the test reads something


def test_a_file_s_findings_come_before_it_is_done(work: Path, every_line: None) -> None:
    """With ``--verbose`` status lines (one per file as it is done) on the same stream as the
    findings, a file's findings now come before its own status line."""
    write(work, "a.jsonl", _sessions(4))
    write(work, "b.jsonl", _sessions(4))
    stream = io.StringIO()
    main(
        ["check", "-v", "-j", "1", "a.jsonl", "b.jsonl"],
        stdin=io.StringIO(""),
        stdout=stream,
        stderr=stream,
    )
    lines = stream.getvalue().splitlines()

    def first(name: str, *, status: bool) -> int:
        """The first status line of a file (``name: ...``), or its first finding (``name:6:1: ...``)."""
        return next(
            i
            for i, line in enumerate(lines)
            if line.startswith(f"{name}:") and line.startswith(f"{name}: ") == status
        )

    first_of = {name: first(name, status=False) for name in ("a.jsonl", "b.jsonl")}
    status_of = {name: first(name, status=True) for name in ("a.jsonl", "b.jsonl")}
    assert first_of["a.jsonl"] < status_of["a.jsonl"] < first_of["b.jsonl"] < status_of["b.jsonl"]


def test_a_file_that_is_not_due_yet_waits_for_its_end(work: Path, every_line: None) -> None:
    """``check b a``: b runs first but sorts after a, so none of it can be written while it runs."""
    write(work, "a.jsonl", _sessions(3))
    write(work, "b.jsonl", _sessions(6))
    code, out, _ = _cli(
        "check", "-q", "-j", "1", "--show-evidence", "--output-format", "text", "b.jsonl", "a.jsonl"
    )
    assert code == 1
    assert out == _whole(["b.jsonl", "a.jsonl"], "text")
    assert out.index("a.jsonl") < out.index("b.jsonl")


def test_a_folder_walk_passes_over_what_is_not_traffic_before_writing_anything(
    work: Path, every_line: None
) -> None:
    """A JSON Lines file of no MCP traffic is never handed on part-way (it is passed over)."""
    write(work, "logs/app.jsonl", "".join(f'{{"level":"info","n":{n}}}\n' for n in range(50)))
    write(work, "logs/z.jsonl", _sessions(3))
    code, out, _ = _cli("check", "-q", "-j", "1", "--output-format", "jsonl", "logs")
    assert code == 1
    assert "app.jsonl" not in out
    assert out == _whole(["logs"], "jsonl")


@pytest.fixture
def big(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A file of generated traffic that ``-j 2`` cuts into stretches."""
    monkeypatch.setattr(stretches, "MIN_STRETCH_BYTES", 64 * 1024)
    sys.path.insert(0, str(ROOT / "benchmarks"))
    try:
        from generate import generate
    finally:
        sys.path.remove(str(ROOT / "benchmarks"))
    path = tmp_path / "big.jsonl"
    path.write_text("".join(line + "\n" for line in generate(6_000)), encoding="utf-8")
    return path


@pytest.mark.parametrize("output_format", ["json", "text"])
def test_a_file_cut_into_stretches_is_written_as_its_stretches_come(
    big: Path, output_format: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(stretches, "_SPILL_EVERY", 64)  # blocks reach the spool often
    monkeypatch.setattr(FindingList, "BLOCK", 16)
    handed: list[int] = []
    real_found = InPathOrder.found

    def counting(order: InPathOrder, report: FileReport) -> None:
        handed.append(len(report.findings))
        real_found(order, report)

    monkeypatch.setattr(InPathOrder, "found", counting)
    code, out, _ = _cli(
        "check", "-q", "-j", "2", "--show-evidence", "--output-format", output_format, str(big)
    )
    assert code == 1
    assert len(handed) >= 2  # handed on stretch by stretch, not once at the end (a half-written
    # block waiting for the next look is test_a_spool_is_read_whole_blocks_at_a_time)
    monkeypatch.setattr(InPathOrder, "found", real_found)
    assert out == _whole([str(big)], output_format, jobs=1)


def _finding(line: int) -> Finding:
    return Finding("a", line, 1, "MCP101", "slug", Severity.ERROR, "message")


def _parts() -> tuple[list[list[int]], InPathOrder]:
    parts: list[list[int]] = []
    order = InPathOrder(
        ["a", "b"], lambda part: parts.append([f.line for f in part.iter_findings()])
    )
    return parts, order


def test_in_path_order_hands_on_a_running_file_s_new_findings_only() -> None:
    parts, order = _parts()
    report = FileReport("a")
    report.findings.extend([_finding(3), _finding(2)])
    order.found(report)
    assert parts == [[2, 3]]  # sorted within the part
    order.found(report)
    assert parts == [[2, 3]]  # nothing new
    report.findings.append(_finding(9))
    order.found(report)
    report.findings.append(_finding(12))
    order.file_done("a", report)
    assert parts == [[2, 3], [9], [12]]  # the end hands on only what was not handed on
    b = FileReport("b")
    b.findings.append(Finding("b", 1, 1, "MCP101", "slug", Severity.ERROR, "message"))
    order.found(b)
    assert parts[-1] == [1]  # b is due once a is done
    order.file_done("b", b)
    assert [line for part in parts for line in part] == [2, 3, 9, 12, 1]  # none twice
    assert order.finished


def test_in_path_order_does_not_hand_on_a_file_something_may_sort_before() -> None:
    parts, order = _parts()
    b = FileReport("b")
    b.findings.append(_finding(1))
    order.found(b)  # "a" is not done
    assert parts == []
    twice = InPathOrder(["a", "a"], lambda part: parts.append([]))
    a = FileReport("a")
    a.findings.append(_finding(1))
    twice.found(a)  # another file of the same path is to come: their findings interleave
    assert parts == []


def test_a_finding_before_one_already_handed_on_stops_the_run() -> None:
    parts, order = _parts()
    report = FileReport("a")
    report.findings.append(_finding(5))
    order.found(report)
    report.findings.append(_finding(5))
    with pytest.raises(RuntimeError, match="at line 5 came after one at line 5"):
        order.found(report)
    assert parts == [[5]]


@pytest.mark.parametrize("spill_bytes", [1, 1 << 30])  # every block spilled, or all held
def test_a_finding_list_reads_what_was_added_since(
    monkeypatch: pytest.MonkeyPatch, spill_bytes: int
) -> None:
    monkeypatch.setattr(FindingList, "BLOCK", 3)
    monkeypatch.setattr(FindingList, "SPILL_BYTES", spill_bytes)
    findings = [_finding(n) for n in range(20)]
    listed = FindingList()
    for finding in findings:
        listed.append(finding)
    for start in range(23):
        assert listed.since(start) == findings[start:]


def test_a_spool_is_read_whole_blocks_at_a_time(tmp_path: Path) -> None:
    """The parent reads a stretch's spool while its worker writes it: a block only part
    written is read when it is whole."""
    blocks = [PackedFindings.pack([_finding(n)]) for n in (1, 2)]
    framed = b""
    for block in blocks:
        data = pickle.dumps(block, pickle.HIGHEST_PROTOCOL)
        framed += len(data).to_bytes(8, "big") + data
    spool = tmp_path / "spool"
    spool.write_bytes(framed[: len(framed) - 5])
    reader = stretches._SpoolReader(str(spool))
    try:
        assert [b.first.line for b in reader.blocks()] == [1]
        assert list(reader.blocks()) == []  # the second is not whole yet
        spool.write_bytes(framed)
        assert [b.first.line for b in reader.rest()] == [2]
    finally:
        reader.close()
    spool.write_bytes(framed + b"\x00\x00")
    reader = stretches._SpoolReader(str(spool))
    try:
        with pytest.raises(Exception, match="incomplete"):
            list(reader.rest())
    finally:
        reader.close()
