"""``check`` writes a file's findings as soon as it and every file sorting before it are done
(text, jsonl, github, json): the output must be byte for byte what the whole result gives
written at the end, only sooner."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from migrator.cli import main
from migrator.engine.options import Options
from migrator.engine.results import FileReport, InPathOrder, RunResult
from migrator.engine.runner import run
from migrator.errors import InputError
from migrator.model.findings import Finding, Severity
from migrator.reporters import OutputFormat, ReportOptions, finding_writer, write_report
from tests.ci.transcripts import session, write

STREAMING = [f.value for f in OutputFormat if f.streams]


def _tree(work: Path) -> list[str]:
    """Files whose walk order is not their sorted order, a path given twice and a file
    passed over in a folder."""
    write(work, "z.jsonl", session(first_id=3))
    write(work, "logs/b.jsonl", session("2025-06-18", first_id=7))
    write(work, "logs/a/deep.jsonl", session(first_id=11, broken=False))
    write(work, "logs/package.json", '{"name": "not traffic"}\n')
    write(work, "m.jsonl", session(first_id=5))
    return ["z.jsonl", "logs", "m.jsonl", "z.jsonl"]


def _cli(*argv: str, stdin: str = "") -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), stdin=io.StringIO(stdin), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


@pytest.mark.parametrize("output_format", STREAMING)
@pytest.mark.parametrize("jobs", ["1", "2"])
def test_written_as_files_finish_is_the_report_written_at_the_end(
    work: Path, output_format: str, jobs: str
) -> None:
    paths = _tree(work)
    code, out, _ = _cli(
        "check", "-q", "-j", jobs, "--show-evidence", "--output-format", output_format, *paths
    )
    assert code == 1
    whole = io.StringIO()
    write_report(run(paths, Options()), whole, output_format, show_evidence=True)
    assert out == whole.getvalue()
    assert out.count("z.jsonl") > out.count("m.jsonl") > 0  # z given twice: both reported


def test_an_unreadable_file_is_reported_after_the_findings_as_before(work: Path) -> None:
    paths = _tree(work)
    write(work, "broken.jsonl", "\x00\x01 not text\n")
    code, out, _ = _cli("check", "-q", "--output-format", "github", "broken.jsonl", *paths)
    assert code == 2  # a file error
    whole = io.StringIO()
    result = run(["broken.jsonl", *paths], Options())
    assert result.errors  # the broken file is a file error, not a finding
    write_report(result, whole, "github")
    assert out == whole.getvalue()
    last = out.splitlines()[-1]
    assert last.startswith("::error title=") and "file=broken.jsonl" in last


def test_a_file_is_written_before_the_next_one_runs(work: Path) -> None:
    """Status lines (``--verbose``, one per file as it is done) and findings on one stream
    show when each was written."""
    paths = _tree(work)  # runs z, the files of logs/, m, z again
    stream = io.StringIO()
    main(["check", "-v", "-j", "1", *paths], stdin=io.StringIO(""), stdout=stream, stderr=stream)
    lines = stream.getvalue().splitlines()

    def status(name: str) -> list[int]:
        return [i for i, line in enumerate(lines) if line.startswith(f"{name}: ")]

    def findings(name: str) -> list[int]:
        return [i for i, line in enumerate(lines) if line.startswith(f"{name}:") and " MCP" in line]

    z_first, z_again = status("z.jsonl")
    (m_done,) = status("m.jsonl")
    # logs/ sorts first: written once its files are done, before m.jsonl runs
    assert z_first < max(findings("logs/b.jsonl") + findings("logs/a/deep.jsonl")) < m_done
    # m.jsonl is written as soon as it is done, while z.jsonl (given again) still runs
    assert m_done < min(findings("m.jsonl")) and max(findings("m.jsonl")) < z_again
    # z.jsonl sorts last: both of its runs are written after the second, merged
    assert z_again < min(findings("z.jsonl"))


def test_formats_that_need_the_whole_run_are_written_at_the_end(work: Path) -> None:
    paths = _tree(work)
    stream = io.StringIO()
    main(
        ["check", "-v", "--output-format", "sarif", *paths],
        stdin=io.StringIO(""),
        stdout=stream,
        stderr=stream,
    )
    text = stream.getvalue()
    last_status = max(text.rfind(f"{name}: ") for name in ("z.jsonl", "m.jsonl"))
    assert text.index('"$schema"') > last_status


@pytest.mark.parametrize("bar", [True, False])
def test_under_a_progress_bar_on_the_same_terminal_findings_wait(
    work: Path, monkeypatch: pytest.MonkeyPatch, bar: bool
) -> None:
    """The bar is redrawn where the findings would go: they are written after it is gone."""
    from migrator.cli import progress

    paths = _tree(work)
    events: list[str] = []
    monkeypatch.setattr(progress, "show_progress", lambda io, quiet, total: bar)
    file_done = progress._Progress.file_done

    def noted(self: progress._Progress, done: object) -> None:
        events.append("done")
        file_done(self, done)  # type: ignore[arg-type]

    monkeypatch.setattr(progress._Progress, "file_done", noted)

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

        def write(self, text: str) -> int:
            if text:  # the runner writes each file's (empty) diff here too
                events.append("out")
            return super().write(text)

    stream = Terminal()
    main(
        ["check", "--output-format", "jsonl", *paths],
        stdin=io.StringIO(""),
        stdout=stream,
        stderr=io.StringIO(),
    )
    last_done = max(i for i, event in enumerate(events) if event == "done")
    first_out = events.index("out")
    assert (first_out > last_done) is bar
    whole = io.StringIO()
    write_report(run(paths, Options()), whole, "jsonl")
    assert stream.getvalue() == whole.getvalue()


@pytest.mark.parametrize("output_format", STREAMING)
def test_stdin_is_written_at_the_end(output_format: str) -> None:
    text = session()
    code, out, _ = _cli("check", "-q", "--output-format", output_format, "-", stdin=text)
    assert code == 1
    whole = io.StringIO()
    write_report(run(["-"], Options(), stdin=io.StringIO(text)), whole, output_format)
    assert out == whole.getvalue()
    assert "MCP101" in out


def _finding(path: str, line: int) -> Finding:
    return Finding(path, line, 1, "MCP101", "slug", Severity.ERROR, "message")


def _report(path: str, *lines: int) -> FileReport:
    report = FileReport(path)
    for line in lines:
        report.findings.append(_finding(path, line))
    return report


def test_in_path_order_holds_a_file_until_every_file_before_it_is_done() -> None:
    parts: list[list[tuple[str, int]]] = []
    order = InPathOrder(
        ["c", "a", "b", "a"],
        lambda part: parts.append([(f.path, f.line) for f in part.iter_findings()]),
    )
    order.file_done("c", _report("c", 1))
    assert parts == []  # a and b sort before c
    order.file_done("a", _report("a", 5, 9))
    assert parts == []  # the second a is still to come
    order.file_done("b", InputError("cannot read", path="b"))
    assert parts == []
    order.file_done("a", _report("a", 7))
    assert parts == [[("a", 5), ("a", 7), ("a", 9)], [("c", 1)]]  # b had no report to hand on
    assert order.finished
    with pytest.raises(ValueError, match="not a file of this run"):
        order.file_done("a", _report("a"))


def test_every_streaming_format_has_a_writer_and_the_others_none() -> None:
    for fmt in OutputFormat:
        writer = finding_writer(fmt, io.StringIO(), ReportOptions())
        if fmt is OutputFormat.AUTO:
            continue  # resolved to text or github, both writers
        assert (writer is not None) == fmt.streams
    empty = io.StringIO()
    writer = finding_writer("json", empty, ReportOptions())
    assert writer is not None
    writer.close(RunResult())
    whole = io.StringIO()
    write_report(RunResult(), whole, "json")
    assert empty.getvalue() == whole.getvalue()
