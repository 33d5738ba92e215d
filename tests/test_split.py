"""One large file on several processes: the same findings and bytes as one process."""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

import pytest

from migrator.api import check_file, fix_file
from migrator.engine import runner, stretches
from migrator.engine.options import Mode
from migrator.engine.pipeline import Options
from migrator.errors import InputError
from migrator.model.findings import FindingList
from migrator.readers.storage import StorageOptions
from tests.conftest import ROOT, run_cli


def _generated(messages: int) -> list[str]:
    sys.path.insert(0, str(ROOT / "benchmarks"))
    try:
        from generate import generate
    finally:
        sys.path.remove(str(ROOT / "benchmarks"))
    return list(generate(messages))


# A few sessions of generated traffic, with lines around each cut that pair
# across it only if the cut were made in the wrong place.
CROSSING = [
    '{"jsonrpc":"2.0","id":"left","method":"tools/call","params":{"name":"add","arguments":{"a":1,"b":2}}}',
    '{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}',
    '{"jsonrpc":"2.0","id":"left","error":{"code":-32602,"message":"Invalid params"}}',
]


@pytest.fixture
def transcript(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setattr(stretches, "MIN_STRETCH_BYTES", 64 * 1024)
    lines = _generated(3_000)
    for at in (1_000, 2_000):  # inside sessions, so the cut lands near these lines
        lines[at:at] = CROSSING
    path = tmp_path / "big.jsonl"
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return path


def test_cuts_fall_on_session_starts(transcript: Path) -> None:
    pieces = stretches.stretches(str(transcript), 4)
    assert len(pieces) >= 3
    data = transcript.read_bytes()
    for piece in pieces[1:]:
        assert data[piece.start - 1 : piece.start] == b"\n"
        line = data[piece.start : data.index(b"\n", piece.start)]
        assert b'"method":"initialize"' in line
        assert data[: piece.start].count(b"\n") + 1 == piece.first_line
    assert pieces[-1].end == len(data)


@pytest.mark.parametrize("jobs", [2, 3])
def test_check_equals_one_process(transcript: Path, jobs: int) -> None:
    one = check_file(transcript)
    many = stretches.run_split(str(transcript), Options(), jobs)
    assert list(many.findings) == list(one.findings)
    assert (many.messages, many.format, many.detection) == (one.messages, one.format, one.detection)
    assert any(f.code == "MCP303" for f in one.findings)  # the crossing response stays unpaired


def test_fix_writes_the_bytes_of_one_process(transcript: Path, tmp_path: Path) -> None:
    single = tmp_path / "single.jsonl"
    single.write_bytes(transcript.read_bytes())
    outcome = fix_file(single)
    report = stretches.run_split(str(transcript), Options(mode=Mode.FIX), 2)
    assert outcome.written and report.fixes == outcome.report.fixes > 0
    assert transcript.read_bytes() == single.read_bytes()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["big.jsonl", "single.jsonl"]


def test_cli_check_with_two_jobs_reports_as_one(
    transcript: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(transcript.parent)
    one = run_cli("check", "-j", "1", "--format", "json", transcript.name)
    two = run_cli("check", "-j", "2", "--format", "json", transcript.name)
    assert (two.code, two.out) == (one.code, one.out)


def test_cli_fix_with_two_jobs_writes_as_one(
    transcript: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    original = transcript.read_bytes()
    single = tmp_path / "single.jsonl"
    single.write_bytes(original)
    monkeypatch.chdir(tmp_path)
    one = run_cli("fix", "-j", "1", single.name)
    two = run_cli("fix", "-j", "2", transcript.name)
    assert one.code == two.code == 0
    assert single.read_bytes() != original
    assert transcript.read_bytes() == single.read_bytes()


def _die(*args: object) -> None:
    os._exit(9)  # as the kernel's OOM killer would end it


def test_a_dead_worker_is_an_error_naming_the_file(
    transcript: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    before = transcript.read_bytes()
    monkeypatch.setattr(stretches, "_run_stretch", _die)
    with pytest.raises(InputError, match="worker process died") as caught:
        stretches.run_split(str(transcript), Options(mode=Mode.FIX), 2)
    assert caught.value.path == str(transcript)
    assert transcript.read_bytes() == before
    assert [p.name for p in transcript.parent.iterdir()] == ["big.jsonl"]
    monkeypatch.chdir(transcript.parent)
    result = run_cli("fix", "-j", "2", transcript.name)
    assert result.code == 2 and "big.jsonl" in result.err and "worker process died" in result.err
    assert transcript.read_bytes() == before


def test_a_file_without_sessions_to_cut_runs_in_one_process(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(stretches, "MIN_STRETCH_BYTES", 1024)
    path = tmp_path / "flat.jsonl"
    path.write_text(
        "".join(
            f'{{"jsonrpc":"2.0","method":"notifications/progress","params":{{"n":{n}}}}}\n'
            for n in range(2_000)
        )
    )
    assert len(stretches.stretches(str(path), 2)) == 1
    assert stretches.split_run(str(path), Options(), 2, None) is None


def test_findings_stream_back_in_blocks_and_leave_no_spool(
    transcript: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    # Small blocks: every stretch hands back many packed blocks, adopted unopened in file order.
    monkeypatch.setattr(FindingList, "BLOCK", 7)
    spools = tmp_path / "spools"
    spools.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(spools))
    one = check_file(transcript)
    many = stretches.run_split(str(transcript), Options(), 3)
    assert len(one.findings) > 3 * 7
    assert list(many.findings) == list(one.findings)
    assert many.findings.kinds() == one.findings.kinds()
    assert list(many.findings.in_order()) == list(one.findings.in_order())
    assert list(spools.iterdir()) == []


def test_auto_cuts_one_file_from_the_size_that_pays(
    transcript: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cut: list[int] = []

    def recording(
        path: str, options: Options, jobs: int, backup: str | None, on_found: object = None
    ) -> object:
        cut.append(jobs)
        return real_split_run(path, options, jobs, backup, on_found)  # type: ignore[arg-type]

    real_split_run = stretches.split_run
    monkeypatch.setattr(stretches, "split_run", recording)
    monkeypatch.setattr(os, "cpu_count", lambda: 2)
    size = transcript.stat().st_size
    monkeypatch.setattr(runner, "SPLIT_MIN_BYTES", size + 1)
    alone = runner.run([str(transcript)], Options())  # jobs=None: -j auto
    assert cut == []
    monkeypatch.setattr(runner, "SPLIT_MIN_BYTES", size)
    split = runner.run([str(transcript)], Options())
    assert cut == [2]
    assert split.findings == alone.findings and split.messages == alone.messages
    runner.run([str(transcript)], Options(), jobs=1)  # -j 1 never cuts
    assert cut == [2]


def test_scratch_files_are_shared_with_workers_and_leave_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import subprocess

    from migrator.fix import writer

    scratch, repository = tmp_path / "tmp", tmp_path / "repo"
    scratch.mkdir()
    repository.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(scratch))
    stale = scratch / f".big.jsonl.{_dead_pid()}.part0{writer.TEMPORARY_SUFFIX}"
    stale.write_text("left by a killed run")
    part = writer.part_file(repository / "big.jsonl", 0)
    assert not stale.exists()  # a killed run's leftovers go when the next run starts
    subprocess.run(
        [sys.executable, "-c", f"open({part.path!r}, 'wb').write(b'from a worker')"], check=True
    )
    assert Path(part.path).read_bytes() == b"from a worker"
    assert list(repository.iterdir()) == []  # never beside the user's files
    part.close()
    assert list(scratch.iterdir()) == []


def _dead_pid() -> int:
    import subprocess

    done = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True
    )
    return int(done.stdout)


def test_a_split_run_reads_the_file_for_its_cuts_once(
    transcript: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Finding the cuts reads the file up to the last one (it counts lines): on a big file
    # that is time no worker can share, so split_run does it once and hands the cuts on.
    looked: list[int] = []
    real_stretches = stretches.stretches

    def counted(
        path: str, parts: int, storage_options: StorageOptions = ()
    ) -> list[stretches.Stretch]:
        looked.append(parts)
        return real_stretches(path, parts, storage_options)

    monkeypatch.setattr(stretches, "stretches", counted)
    outcome = stretches.split_run(str(transcript), Options(), 2, None)
    assert outcome is not None and not isinstance(outcome[0], Exception)
    assert looked == [2]
    assert list(outcome[0].findings) == list(check_file(transcript).findings)
