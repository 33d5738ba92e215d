"""Write every file the project writes so that a crash can never leave half of it, nor litter.

This is the one module that makes temporary output files and renames them into place:
rewrites by ``fix`` (:class:`AtomicWriter`, which also refuses a file that changed while
it was read), and new files such as recordings, HAR files, stretches of a file fixed
on several cores and the official-schema cache (:func:`write_file`).

The new content goes to a temporary file in the same folder, is flushed and
fsynced, and replaces the original with one ``rename``, which the file system
performs atomically: a reader sees the old file or the new one, never a mix.
Mode and (where permitted) ownership are copied from the original. If the
original changed while it was being processed, nothing is replaced.

A process killed while writing must not leave a temporary file behind (an
untracked file in the user's repository, read by the next ``check``). On Linux
the temporary file has no name while it is written (``O_TMPFILE``); it gets
one only for the instant between ``linkat`` and the ``rename``. Elsewhere, and
for that instant, its name follows a pattern we own and carries the writer's
pid (``.<name>.<pid>.<random>.mcp-transcripts.tmp``), so the next writer in
that folder removes the temporaries of writers that are no longer alive.
"""

from __future__ import annotations

import contextlib
import errno
import os
import re
import secrets
import shutil
import stat
import sys
import tempfile
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from migrator.errors import InputError, WriteError
from migrator.readers.storage import StorageOptions

NEW_FILE_MODE = 0o600
"""A file this run creates is readable by its owner only: recordings, HAR files and
caches hold traffic, which may carry what a server or client considers private."""


@dataclass(frozen=True)
class Snapshot:
    """What a file looked like when we started reading it."""

    size: int
    mtime_ns: int
    mode: int
    uid: int
    gid: int

    @classmethod
    def of(cls, path: Path) -> Snapshot:
        """Take the snapshot."""
        st = path.stat()
        return cls(st.st_size, st.st_mtime_ns, st.st_mode, st.st_uid, st.st_gid)


def resolve_target(path: str | Path) -> tuple[Path, Snapshot]:
    """The file a rewrite replaces (a symlink's target: the link is kept) and its snapshot.

    Raises:
        InputError: it cannot be read (no such file, a dangling link, a link loop).
    """
    real = Path(os.path.realpath(path))
    try:
        return real, Snapshot.of(real)
    except OSError as exc:
        raise InputError(f"cannot read: {exc.strerror or exc}", path=str(path)) from exc


def check_writable(path: Path, snapshot: Snapshot) -> None:
    """Refuse files the user marked read-only (even root would rename over them).

    Raises:
        WriteError: if no write bit is set.
    """
    if not snapshot.mode & (stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH):
        raise WriteError("file is read-only; not rewritten", path=str(path))


TEMPORARY_SUFFIX = ".mcp-transcripts.tmp"
_OUR_TEMPORARY = re.compile(
    r"^\..+\.(?P<pid>[0-9]+)\.[A-Za-z0-9_]+" + re.escape(TEMPORARY_SUFFIX) + "$"
)


def is_our_temporary(name: str) -> bool:
    """A file name a writer of ours gives its temporary files: never an input."""
    return _OUR_TEMPORARY.match(name) is not None


def remove_stale_temporaries(folder: Path) -> list[Path]:
    """Remove the temporary files that writers no longer alive left in ``folder``.

    Only names of our pattern whose pid is not a running process are removed;
    a pid reused by another process keeps its file until a later run.
    """
    removed: list[Path] = []
    try:
        entries = list(folder.iterdir())
    except OSError:
        return removed
    for entry in entries:
        match = _OUR_TEMPORARY.match(entry.name)
        if match is None or _alive(int(match.group("pid"))):
            continue
        with contextlib.suppress(OSError):
            entry.unlink()
            removed.append(entry)
    return removed


def _alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # it exists, but is another user's
        return True
    return True


_CLEANED: set[Path] = (
    set()
)  # folders this process has cleaned: once is enough, a fix of a big folder lists it once


class AtomicWriter:
    """Collects the new content in a temporary file next to the target."""

    def __init__(self, target: Path) -> None:
        self.target = target
        if target.parent not in _CLEANED:
            remove_stale_temporaries(target.parent)
            _CLEANED.add(target.parent)
        failure = "cannot create a temporary file beside it"
        try:
            fd = _open_unnamed(target.parent)
        except OSError as exc:
            raise WriteError(
                f"{failure} ({exc.strerror or exc}); the file is unchanged", path=str(target)
            ) from exc
        self.temp: Path | None = None  # no name yet: an unnamed file cannot be left behind
        if fd is None:
            fd, self.temp = _temporary_beside(target, target.name, failure)
        self.handle = os.fdopen(fd, "wb")

    def write_all(self, chunks: Iterable[bytes]) -> None:
        """Write the chunks, turning a failed write (a full disk) into a :class:`WriteError`."""
        try:
            for chunk in chunks:
                self.handle.write(chunk)
            self.handle.flush()
            os.fsync(self.handle.fileno())
        except OSError as exc:
            self.discard()
            raise WriteError(
                f"could not write the new content ({exc.strerror or exc}); the file is unchanged",
                path=str(self.target),
            ) from exc

    def commit(self, snapshot: Snapshot | None, backup_suffix: str | None = None) -> None:
        """Replace the target with the new content, if the target did not change meanwhile.

        Args:
            snapshot: the target as it was when reading began; ``None`` for a file this
                run creates (or replaces whatever it holds), with :data:`NEW_FILE_MODE`.
            backup_suffix: keep the original next to the target under this suffix.

        Raises:
            WriteError: if the target changed, or the rename failed.
        """
        try:
            if snapshot is not None:
                now = Snapshot.of(self.target)
                if (now.size, now.mtime_ns) != (snapshot.size, snapshot.mtime_ns):
                    raise WriteError(
                        "file changed while it was being processed; not rewritten",
                        path=str(self.target),
                    )
            if self.temp is None:
                self.temp = _name_unnamed(self.handle.fileno(), self.target)
            self.handle.close()
            self.temp.chmod(stat.S_IMODE(snapshot.mode) if snapshot else NEW_FILE_MODE)
            if snapshot is not None:
                with contextlib.suppress(PermissionError):
                    os.chown(self.temp, snapshot.uid, snapshot.gid)
            if backup_suffix:
                _backup(self.target, backup_suffix)
            self.temp.replace(self.target)
        except WriteError:
            self.discard()
            raise
        except OSError as exc:
            self.discard()
            raise WriteError(
                f"could not replace the file ({exc.strerror or exc}); it is unchanged",
                path=str(self.target),
            ) from exc
        _fsync_dir(self.target.parent)

    def discard(self) -> None:
        """Remove the temporary file; the target stays as it was."""
        with contextlib.suppress(OSError):
            self.handle.close()
        if self.temp is not None:
            with contextlib.suppress(FileNotFoundError):
                self.temp.unlink()


def replace_file(
    real: Path, snapshot: Snapshot, chunks: Iterable[bytes], backup: str | None = None
) -> None:
    """Replace ``real`` with ``chunks``, atomically, unless it changed since ``snapshot``.

    The write path of every rewrite (``fix`` on one file, on a pair, on one file cut
    into stretches). On any error (a refused rewrite, a full disk, a bug, Ctrl-C) the
    temporary file goes and the original stays.

    Raises:
        WriteError: the file is read-only, changed meanwhile, or could not be written.
    """
    check_writable(real, snapshot)
    writer = AtomicWriter(real)
    try:
        writer.write_all(chunks)
        writer.commit(snapshot, backup)
    except BaseException:
        writer.discard()
        raise


class ScratchFile:
    """A named file of ours in the system's temporary folder that worker processes of this
    run write and this process reads back: a stretch of a file fixed on several cores, the
    findings a worker hands back.

    Never beside the user's files: a process killed mid-run must not leave an
    untracked file in their repository. Its name follows our pattern with this
    process's pid (``.<name>.<pid>.<tag>.mcp-transcripts.tmp``), so a later run
    removes what a killed run left, as writers do beside their targets.

    Why not an unnamed file shared by ``/proc/<pid>/fd/<n>``: a worker that
    opens that path after the descriptor was closed and its number reused
    would truncate whatever file the parent opened next.
    """

    def __init__(self, name: str, tag: str) -> None:
        folder = Path(tempfile.gettempdir())
        remove_stale_temporaries(folder)  # what a killed run of ours left here
        self._named: Path | None = folder / f".{name}.{os.getpid()}.{tag}{TEMPORARY_SUFFIX}"
        try:
            self._named.touch(mode=NEW_FILE_MODE, exist_ok=False)
        except OSError as exc:
            raise WriteError(
                f"could not make a temporary file ({exc.strerror or exc})", path=str(folder)
            ) from exc
        self.path = str(self._named)

    def close(self) -> None:
        """Remove it."""
        if self._named is not None:
            with contextlib.suppress(OSError):
                self._named.unlink()
            self._named = None


def part_file(target: Path, index: int) -> ScratchFile:
    """Where a worker writes part ``index`` of ``target``'s new content before the parts are
    joined into it (the join writes beside the target, unnamed until the rename)."""
    return ScratchFile(target.name, f"part{index}")


def spool_file(tag: str) -> ScratchFile:
    """Where a worker writes what it hands back to this process (its findings)."""
    return ScratchFile("mcp-transcripts", tag)


def write_file(target: str | Path, chunks: Iterable[bytes]) -> Path:
    """Write a whole new file (or replace one) atomically: all of it, or nothing.

    Args:
        target: where the file goes; its folder must exist.
        chunks: the content.

    Returns:
        The absolute path written.

    Raises:
        WriteError: it could not be written; nothing is left behind.
    """
    path = Path(target).absolute()
    writer = AtomicWriter(path)
    try:
        writer.write_all(chunks)
        writer.commit(None)
    except BaseException:  # a refused rewrite mid-stream, Ctrl-C: nothing is left behind
        writer.discard()
        raise
    return path


def write_object(url: str, chunks: Iterable[bytes], storage_options: StorageOptions = ()) -> None:
    """Write a whole object at ``url``: all of it, or nothing.

    The content goes to a temporary local file first; only once every chunk is
    there (a rewrite refused midway raises before) is it uploaded, in one request
    or one multipart upload, which a store makes visible only when complete.
    The temporary file is removed whatever happens.

    Raises:
        WriteError: the upload failed; no object was written.
        UsageError: the ``cloud`` extra is missing.
    """
    from migrator.readers.storage import filesystem

    fs, path = filesystem(url, storage_options)
    handle, name = tempfile.mkstemp(prefix="mcp-transcripts-", suffix=".upload")
    try:
        with os.fdopen(handle, "wb") as spool:
            for chunk in chunks:
                spool.write(chunk)
        try:
            fs.put_file(name, path)
        except (OSError, ValueError) as exc:
            raise WriteError(f"could not write the object: {exc}", path=url) from exc
    finally:
        with contextlib.suppress(OSError):
            Path(name).unlink()


def gzipped(chunks: Iterable[bytes]) -> Iterator[bytes]:
    """``chunks`` gzip-compressed, with no file name or time in the header (the same bytes every run)."""
    import zlib

    compressor = zlib.compressobj(9, zlib.DEFLATED, 16 + zlib.MAX_WBITS)
    for chunk in chunks:
        if packed := compressor.compress(chunk):
            yield packed
    yield compressor.flush()


# Errors that say "this file system (or kernel) has no O_TMPFILE", not "you may not".
_NO_TMPFILE = {errno.EOPNOTSUPP, errno.EISDIR, errno.EINVAL, errno.ENOTSUP}


def _open_unnamed(folder: Path) -> int | None:
    """A file with no name in ``folder``, open for writing; ``None`` where there is none.

    Raises:
        OSError: the folder refuses new files (permissions, a read-only or full file system).
    """
    flag = getattr(os, "O_TMPFILE", None)
    if flag is None or not sys.platform.startswith("linux") or not Path("/proc/self/fd").is_dir():
        return None  # naming it later needs linkat through /proc
    try:
        return os.open(folder, flag | os.O_WRONLY | getattr(os, "O_CLOEXEC", 0), 0o600)
    except OSError as exc:
        if exc.errno in _NO_TMPFILE:
            return None
        raise


def _name_unnamed(fd: int, target: Path) -> Path:
    """Give the unnamed file ``fd`` a temporary name of our pattern beside ``target``.

    Where the kernel refuses the link, the content is copied to a named
    temporary file instead (the same name pattern, so a kill is still cleaned up).
    """
    for _ in range(100):
        name = (
            target.parent / f".{target.name}.{os.getpid()}.{secrets.token_hex(4)}{TEMPORARY_SUFFIX}"
        )
        try:
            _link_open_file(fd, name)
        except FileExistsError:
            continue
        except OSError:
            return _copy_to_named(fd, target)
        return name
    return _copy_to_named(fd, target)


_AT_FDCWD = -100
_AT_SYMLINK_FOLLOW = 0x400


def _link_open_file(fd: int, name: Path) -> None:
    """``linkat(AT_FDCWD, "/proc/self/fd/N", AT_FDCWD, name, AT_SYMLINK_FOLLOW)``.

    Python's ``os.link`` does not follow the ``/proc`` link (it would link the
    link itself, across devices), so libc is called directly; following it is
    what lets an unprivileged process name an ``O_TMPFILE`` file.
    """
    import ctypes

    libc = ctypes.CDLL(None, use_errno=True)
    source = f"/proc/self/fd/{fd}".encode()
    if libc.linkat(_AT_FDCWD, source, _AT_FDCWD, os.fsencode(name), _AT_SYMLINK_FOLLOW) != 0:
        code = ctypes.get_errno()
        raise OSError(code, os.strerror(code), str(name))


def _copy_to_named(fd: int, target: Path) -> Path:
    out, temp = _temporary_beside(target, target.name, "cannot create a temporary file beside it")
    try:
        os.lseek(fd, 0, os.SEEK_SET)
        while chunk := os.read(fd, 1 << 20):
            os.write(out, chunk)
        os.fsync(out)
    except OSError:
        os.close(out)
        temp.unlink()
        raise
    os.close(out)
    return temp


def _backup(target: Path, suffix: str) -> None:
    """Keep the original as ``target + suffix``, itself replaced atomically."""
    backup = target.with_name(target.name + suffix)
    fd, staging = _temporary_beside(
        target, backup.name, f"could not write the backup {backup.name}"
    )
    os.close(fd)
    try:
        staging.unlink()
        try:
            os.link(target, staging)  # no copy: the original's bytes, under a second name
        except OSError:
            shutil.copy2(target, staging)
        staging.replace(backup)
    except OSError as exc:
        with contextlib.suppress(FileNotFoundError):
            staging.unlink()
        raise WriteError(
            f"could not write the backup {backup.name} ({exc.strerror or exc}); the file is unchanged",
            path=str(target),
        ) from exc


def _temporary_beside(target: Path, name: str, failure: str) -> tuple[int, Path]:
    """A new temporary file in ``target``'s folder, named after ``name``.

    Raises:
        WriteError: ``failure``, with the reason (a folder we may not write in,
            a read-only file system, a full disk).
    """
    try:
        fd, temp = tempfile.mkstemp(
            prefix=f".{name}.{os.getpid()}.", suffix=TEMPORARY_SUFFIX, dir=target.parent
        )
    except OSError as exc:
        raise WriteError(
            f"{failure} ({exc.strerror or exc}); the file is unchanged", path=str(target)
        ) from exc
    return fd, Path(temp)


def _fsync_dir(folder: Path) -> None:
    # Make the rename itself durable; not every platform allows it.
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)
