"""Nothing lost, whatever the input: the catalogue of hostile inputs, and writes that cannot lose data."""

from __future__ import annotations

import contextlib
import errno
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from migrator.engine import files as api
from migrator.engine.pipeline import Options
from migrator.errors import InputError, WriteError
from tests.conftest import RECORDED, ROOT, run_cli

OLD = RECORDED / "ts-sdk-1.20.2.jsonl"
CALL = '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t","arguments":{}}}\n'
INVALID = '{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"Invalid arguments for tool t: bad"}}\n'


def case(tmp_path: Path, name: str, data: bytes) -> Path:
    path = tmp_path / name
    path.write_bytes(data)
    return path


# (name, bytes, expected codes from check, or "LINE: message" of a file-level input error)
CATALOGUE: list[tuple[str, bytes, list[str] | str]] = [
    (
        "invalid-utf8",
        b'{"jsonrpc":"2.0","method":"notifications/message","params":{"data":"caf\xe9"}}\n'
        + CALL.encode()
        + INVALID.encode(),
        ["MCP302", "MCP101"],
    ),
    ("bom", b"\xef\xbb\xbf" + CALL.encode() + INVALID.encode(), ["MCP101"]),
    ("utf16", (CALL + INVALID).encode("utf-16"), "1: the file is UTF-16"),
    ("crlf", (CALL + INVALID).replace("\n", "\r\n").encode(), ["MCP101"]),
    ("mixed-endings", (CALL.replace("\n", "\r\n") + INVALID).encode(), ["MCP101"]),
    ("nul-bytes", CALL.encode() + b"\x00\x00garbage\x00\n", "2: NUL bytes"),
    ("truncated-last-line", (CALL + INVALID[:40]).encode(), ["MCP301"]),
    # Nothing read is said plainly (issue 28), never "0 findings".
    ("empty", b"", " holds no JSON-RPC messages: the file is empty"),
    (
        "blank-lines",
        b"\n\n   \n\r\n",
        " holds no JSON-RPC messages: the file holds only blank lines",
    ),
    (
        "nested-100000",
        b"[" * 100_000 + b"]" * 100_000 + b"\n" + (CALL + INVALID).encode(),
        ["MCP301", "MCP101"],
    ),
    (
        "duplicate-keys",
        (
            CALL
            + '{"jsonrpc":"2.0","id":1,"result":{},"result":{"x":1},"error":{"code":-32602,"message":"Invalid arguments for tool t: bad"}}\n'
        ).encode(),
        ["MCP201"],
    ),
    (
        "duplicate-error-key",
        (
            CALL
            + '{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"first"},"error":{"code":-32602,"message":"Invalid arguments for tool t: bad"}}\n'
        ).encode(),
        ["MCP101"],
    ),
    (
        "nan-infinity",
        b'{"jsonrpc":"2.0","id":1,"result":{"v":NaN}}\n{"jsonrpc":"2.0","id":2,"result":{"v":-Infinity}}\n',
        ["MCP301", "MCP301"],
    ),
    (
        "integer-5000-digits",
        (
            '{"jsonrpc":"2.0","id":'
            + "7" * 5000
            + ',"method":"tools/call","params":{"name":"t","arguments":{}}}\n{"jsonrpc":"2.0","id":'
            + "7" * 5000
            + ',"error":{"code":-32602,"message":"Invalid arguments for tool t: bad"}}\n'
        ).encode(),
        ["MCP101"],
    ),
    (
        "lone-surrogate",
        (
            CALL
            + '{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"Invalid arguments for tool t: \\ud800"}}\n'
        ).encode(),
        ["MCP101"],
    ),
    ("float-id", b'{"jsonrpc":"2.0","id":1.5,"method":"ping"}\n', ["MCP201"]),
    (
        "object-id",
        b'{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}\n{"jsonrpc":"2.0","id":{"a":1},"result":{}}\n',
        ["MCP201", "MCP201"],
    ),
    ("null-id", b'{"jsonrpc":"2.0","id":null,"method":"ping"}\n', ["MCP201"]),
    ("response-before-request", (INVALID + CALL).encode(), ["MCP303"]),
    ("id-reused", (CALL + CALL + INVALID).encode(), ["MCP304", "MCP101"]),
    (
        "binary",
        b"\x7fELF\x02\x01\x01\x00\x00\x00\x00\x00\x00\x00\x00\x00\x02\x00>\x00\n",
        "1: NUL bytes",
    ),
]


@pytest.mark.parametrize(("name", "data", "expected"), CATALOGUE, ids=[c[0] for c in CATALOGUE])
def test_catalogue_check_and_fix(
    tmp_path: Path, name: str, data: bytes, expected: list[str] | str
) -> None:
    path = case(tmp_path, f"{name}.jsonl", data)
    checked = run_cli("check", "--format", "json", str(path))
    if isinstance(expected, str):
        assert checked.code == 2 and f"{path}:{expected}" in checked.err
        fixed = run_cli("fix", str(path))
        assert fixed.code == 2
        assert path.read_bytes() == data, "the file must be untouched"
        return
    assert checked.code in (0, 1), checked.err
    codes = [f["code"] for f in json.loads(checked.out)["findings"] if f["code"] != "MCP203"]
    assert codes == expected
    fixed = run_cli("fix", str(path))
    assert fixed.code == 0, fixed.err
    after = path.read_bytes()
    if "MCP101" not in expected:
        assert after == data, "nothing to fix: byte-identical"
    else:
        # Only the rewritten line differs; every other line is byte-identical.
        before_lines, after_lines = data.split(b"\n"), after.split(b"\n")
        assert len(before_lines) == len(after_lines)
        changed = [
            i for i, (a, b) in enumerate(zip(before_lines, after_lines, strict=True)) if a != b
        ]
        assert len(changed) == 1 and b'"isError":true' in after_lines[changed[0]]
        after.decode("utf-8", "surrogateescape")


def test_a_duplicated_member_goes_with_the_rewrite(tmp_path: Path) -> None:
    # Parsers keep the last of duplicate keys; the rewrite must remove every
    # copy, or the output would hold both "error" and "result".
    response = '{"error": {"code": -32602, "message": "first"}, "jsonrpc": "2.0", "id": 1, "error": {"code": -32602, "message": "Invalid arguments for tool t: bad"}}\n'
    path = case(tmp_path, "dup.jsonl", (CALL + response).encode())
    assert run_cli("fix", str(path)).code == 0
    fixed = path.read_text().splitlines()[1]
    assert fixed.count('"error"') == 0 and fixed.startswith(
        '{"jsonrpc": "2.0", "id": 1, "result": {'
    )
    assert json.loads(fixed)["result"]["content"][0]["text"].startswith(
        "Invalid arguments for tool t: bad"
    )
    assert run_cli("check", "--select", "MCP1,MCP2", str(path)).code == 0


def test_fix_reports_dangling_and_looping_links_and_goes_on(tmp_path: Path) -> None:
    shutil.copyfile(OLD, tmp_path / "a.jsonl")
    (tmp_path / "b.jsonl").symlink_to(tmp_path / "nowhere.jsonl")
    (tmp_path / "c.jsonl").symlink_to(tmp_path / "c.jsonl")
    shutil.copyfile(OLD, tmp_path / "d.jsonl")
    result = run_cli("fix", str(tmp_path))
    assert result.code == 2
    assert f"{tmp_path / 'b.jsonl'}: cannot read: No such file or directory" in result.err
    assert f"{tmp_path / 'c.jsonl'}: cannot read: Too many levels of symbolic links" in result.err
    assert "Traceback" not in result.err
    for name in ("a.jsonl", "d.jsonl"):  # the files around them were still fixed
        assert (tmp_path / name).read_bytes() != OLD.read_bytes()


def test_no_room_for_a_temporary_file_leaves_the_original(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A folder we may not write in (or a read-only file system): running as
    # root, permissions cannot stop us, so the refusal is made where it happens.
    import tempfile

    path = tmp_path / "t.jsonl"
    shutil.copyfile(OLD, path)

    def refuse(*args: object, **kwargs: object) -> tuple[int, str]:
        raise PermissionError(errno.EACCES, os.strerror(errno.EACCES))

    monkeypatch.setattr(tempfile, "mkstemp", refuse)
    monkeypatch.setattr("migrator.fix.writer._open_unnamed", refuse)
    result = run_cli("fix", str(path))
    assert result.code == 2
    assert (
        f"{path}: cannot create a temporary file beside it (Permission denied); the file is unchanged"
        in result.err
    )
    assert path.read_bytes() == OLD.read_bytes()


def test_a_bug_of_ours_exits_2_with_the_traceback(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Exit 1 means "findings" to CI; an internal error must never look like that.
    path = tmp_path / "t.jsonl"
    shutil.copyfile(OLD, path)

    def broken(*args: object, **kwargs: object) -> object:
        raise RuntimeError("boom")

    monkeypatch.setattr(api, "check_file", broken)
    monkeypatch.setattr(api, "fix_file", broken)
    for command in ("check", "fix"):
        result = run_cli(command, str(path))
        assert result.code == 2
        assert "RuntimeError: boom" in result.err and "internal error" in result.err
    assert path.read_bytes() == OLD.read_bytes()


def test_stdin_bytes_survive_a_strict_locale(tmp_path: Path) -> None:
    # Where sys.stdin decodes strictly (a UTF-8 desktop locale), invalid UTF-8
    # and CR LF on stdin must still come out as they went in.
    note = b'{"jsonrpc":"2.0","method":"notifications/message","params":{"data":"caf\xe9"}}\r\n'
    data = note + CALL.encode() + INVALID.encode()
    env = {**os.environ, "PYTHONIOENCODING": "utf-8:strict", "PYTHONUTF8": "0"}
    done = subprocess.run(
        [sys.executable, "-m", "migrator", "fix", "-"],
        input=data,
        capture_output=True,
        env=env,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr.decode()
    lines = done.stdout.split(b"\n")
    assert lines[0] + b"\n" == note and lines[1] + b"\n" == CALL.encode()
    assert b'"isError":true' in lines[2]


def test_a_100_mb_single_line(tmp_path: Path) -> None:
    text = "x" * (100 * 1024 * 1024)
    line = json.dumps(
        {"jsonrpc": "2.0", "method": "notifications/message", "params": {"data": text}}
    )
    path = case(tmp_path, "big.jsonl", (CALL + line + "\n" + INVALID).encode())
    report = api.check_file(path)
    assert [f.code for f in report.findings] == ["MCP101"] and report.messages == 3


def test_symlink_loop_in_a_folder(tmp_path: Path) -> None:
    (tmp_path / "d").mkdir()
    shutil.copyfile(OLD, tmp_path / "d" / "t.jsonl")
    (tmp_path / "d" / "loop").symlink_to(tmp_path / "d")
    assert run_cli("check", "--select", "MCP101", str(tmp_path)).code == 1


def test_backup_keeps_the_original(tmp_path: Path) -> None:
    path = tmp_path / "t.jsonl"
    shutil.copyfile(OLD, path)
    assert run_cli("fix", "--backup", ".orig", str(path)).code == 0
    assert (tmp_path / "t.jsonl.orig").read_bytes() == OLD.read_bytes()
    assert path.read_bytes() != OLD.read_bytes()


def test_full_disk_leaves_the_original(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "t.jsonl"
    shutil.copyfile(OLD, path)
    real_fdopen = os.fdopen

    class FullDisk:
        def __init__(self, handle: object) -> None:
            self.handle = handle

        def write(self, data: bytes) -> int:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

        def __getattr__(self, name: str) -> object:
            return getattr(self.handle, name)

    monkeypatch.setattr(
        "migrator.fix.writer.os.fdopen", lambda fd, mode: FullDisk(real_fdopen(fd, mode))
    )
    result = run_cli("fix", str(path))
    assert result.code == 2
    assert "No space left on device" in result.err and "the file is unchanged" in result.err
    assert path.read_bytes() == OLD.read_bytes()
    assert [p.name for p in tmp_path.iterdir()] == ["t.jsonl"], "no temporary file left"


def test_file_changed_while_processing_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "t.jsonl"
    shutil.copyfile(OLD, path)
    real_iter_lines = api.iter_lines

    def lines_then_append(stream):  # type: ignore[no-untyped-def]
        yield from real_iter_lines(stream)
        with path.open("ab") as other_writer:  # someone appends while we work
            other_writer.write(b'{"jsonrpc":"2.0","method":"notifications/initialized"}\n')

    monkeypatch.setattr(api, "iter_lines", lines_then_append)
    with pytest.raises(WriteError, match="changed while it was being processed"):
        api.fix_file(path, Options())
    assert path.read_bytes().startswith(OLD.read_bytes())
    assert path.read_bytes().endswith(b'initialized"}\n')


def _big_transcript(tmp_path: Path, messages: int) -> tuple[Path, bytes, bytes]:
    sys.path.insert(0, str(ROOT / "benchmarks"))
    try:
        from generate import generate  # type: ignore[import-not-found]
    finally:
        sys.path.pop(0)
    data = "".join(line + "\n" for line in generate(messages)).encode()
    expected, _ = api.fix_text(data.decode())
    path = tmp_path / "big.jsonl"
    path.write_bytes(data)
    return path, data, expected.encode()


@pytest.mark.slow
def test_sigkill_at_random_points_leaves_old_or_new(tmp_path: Path) -> None:
    path, old, new = _big_transcript(tmp_path, 60_000)
    rng = random.Random(1303)
    outcomes = set()
    for _ in range(6):
        path.write_bytes(old)
        proc = subprocess.Popen(
            [sys.executable, "-m", "migrator", "fix", "-q", str(path)], stderr=subprocess.DEVNULL
        )
        time.sleep(rng.uniform(0.05, 1.5))
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        now = path.read_bytes()
        assert now in (old, new), "a mix of old and new content"
        outcomes.add("new" if now == new else "old")
    assert outcomes  # at least one trial ran; which outcome depends on timing


@pytest.mark.slow
def test_ctrl_c_during_a_write_leaves_the_original_and_no_temporary_file(tmp_path: Path) -> None:
    path, old, _ = _big_transcript(tmp_path, 60_000)
    proc = subprocess.Popen(
        [sys.executable, "-m", "migrator", "fix", "-q", str(path)],
        stderr=subprocess.PIPE,
        text=True,
    )
    deadline = time.monotonic() + 60
    while not _writing(proc.pid, tmp_path):  # interrupt while it writes
        assert proc.poll() is None, "fix ended before it began writing"
        assert time.monotonic() < deadline
        time.sleep(0.005)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    if proc.returncode == 0:  # it finished before the signal arrived: nothing to check
        pytest.skip("the write finished before the signal arrived")
    assert proc.returncode == 130 and "interrupted" in err and "Traceback" not in err
    assert path.read_bytes() == old
    assert sorted(p.name for p in tmp_path.iterdir()) == ["big.jsonl"]


def _writing(pid: int, folder: Path) -> bool:
    """Whether process ``pid`` holds a temporary file open in ``folder``, named or not."""
    if list(folder.glob(".big.jsonl.*.mcp-transcripts.tmp")):
        return True
    with contextlib.suppress(OSError):  # the unnamed O_TMPFILE shows as "<folder>/#123 (deleted)"
        for fd in Path(f"/proc/{pid}/fd").iterdir():
            with contextlib.suppress(OSError):
                if str(fd.readlink()).startswith(f"{folder}/#"):
                    return True
    return False


def _wait_until_writing(proc: subprocess.Popen[bytes], folder: Path) -> None:
    deadline = time.monotonic() + 60
    while not _writing(proc.pid, folder) and proc.poll() is None:
        assert time.monotonic() < deadline
        time.sleep(0.002)


def _write_window(command: list[str], path: Path, old: bytes, folder: Path) -> float:
    """Seconds from the temporary file's appearance to the end of one uninterrupted fix."""
    path.write_bytes(old)
    proc = subprocess.Popen(command, stderr=subprocess.DEVNULL)
    _wait_until_writing(proc, folder)
    began = time.monotonic()
    assert proc.wait(timeout=60) == 0
    return time.monotonic() - began


# The writer as shipped, and as on a system without O_TMPFILE (named temporaries).
FIX_SCRIPTS = {
    "unnamed": "import sys; from migrator.cli import main; sys.exit(main(sys.argv[1:]))",
    "named": "import sys, migrator.fix.writer as w; w._open_unnamed = lambda folder: None; "
    "from migrator.cli import main; sys.exit(main(sys.argv[1:]))",
}


@pytest.mark.slow
@pytest.mark.parametrize("temporaries", FIX_SCRIPTS)
def test_sigkill_during_fix_leaves_nothing_behind_after_the_next_run(
    tmp_path: Path, temporaries: str
) -> None:
    path, old, new = _big_transcript(tmp_path, 60_000)
    rng = random.Random(19)
    command = [sys.executable, "-c", FIX_SCRIPTS[temporaries], "fix", "-q", str(path)]
    # How long the write lasts depends on the machine: measure it, then kill inside it.
    window = _write_window(command, path, old, tmp_path)
    killed_while_writing = 0
    for _ in range(5):
        path.write_bytes(old)
        proc = subprocess.Popen(command, stderr=subprocess.DEVNULL)
        _wait_until_writing(proc, tmp_path)
        time.sleep(rng.uniform(0, window * 0.6))
        killed_while_writing += proc.poll() is None
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        assert path.read_bytes() in (old, new), "a torn target"
        if temporaries == "unnamed":
            assert sorted(p.name for p in tmp_path.iterdir()) == ["big.jsonl"]
    assert killed_while_writing, "every run finished before the kill: nothing was tested"
    path.write_bytes(old)
    assert subprocess.run(command, stderr=subprocess.DEVNULL).returncode == 0
    assert path.read_bytes() == new
    assert sorted(p.name for p in tmp_path.iterdir()) == ["big.jsonl"]


def test_the_next_writer_removes_the_temporaries_of_dead_writers_only(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("migrator.fix.writer._open_unnamed", lambda folder: None)
    dead = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True
    )
    dead_pid = int(dead.stdout)
    path = tmp_path / "t.jsonl"
    shutil.copyfile(OLD, path)
    stale = tmp_path / f".t.jsonl.{dead_pid}.k3j_9x2a.mcp-transcripts.tmp"
    in_flight = tmp_path / f".other.jsonl.{os.getppid()}.abcd1234.mcp-transcripts.tmp"
    someone_elses = tmp_path / ".t.jsonl.notes.tmp"
    for temporary in (stale, in_flight, someone_elses):
        temporary.write_text(INVALID)
    assert run_cli("fix", str(path)).code == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(
        [path.name, in_flight.name, someone_elses.name]
    )


def test_a_folder_walk_never_reads_our_temporaries(tmp_path: Path) -> None:
    (tmp_path / "a.jsonl").write_text(CALL + INVALID)
    (tmp_path / ".a.jsonl.4242.abcd1234.mcp-transcripts.tmp").write_text(CALL + INVALID)
    assert [p.name for p in api.iter_transcripts([tmp_path], include=lambda p: True)] == ["a.jsonl"]


@pytest.mark.slow
def test_two_concurrent_fixes_end_with_a_correct_file(tmp_path: Path) -> None:
    path, _, new = _big_transcript(tmp_path, 30_000)
    procs = [
        subprocess.Popen(
            [sys.executable, "-m", "migrator", "fix", str(path)], stderr=subprocess.PIPE, text=True
        )
        for _ in range(2)
    ]
    results = [(p.wait(), p.communicate()[1]) for p in procs]
    assert path.read_bytes() == new
    for code, err in results:
        assert code == 0 or (code == 2 and "changed while it was being processed" in err), err


def test_input_errors_name_the_file_and_line(tmp_path: Path) -> None:
    path = case(
        tmp_path,
        "doc.json",
        b'[\n  {"jsonrpc": "2.0", "id": 1, "method": "ping"},\n  {"jsonrpc": \n]\n',
    )
    result = run_cli("check", str(path))
    assert result.code == 2 and f"{path}:4: not a valid JSON document" in result.err
    with pytest.raises(InputError):
        api.check_file(path)
