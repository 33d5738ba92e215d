"""Write a rewritten file so that a crash can never leave half of it.

The new content goes to a temporary file in the same folder, is flushed and
fsynced, and replaces the original with one ``rename``, which the file system
performs atomically: a reader sees the old file or the new one, never a mix.
Mode and (where permitted) ownership are copied from the original. If the
original changed while it was being processed, nothing is replaced.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import stat
import tempfile
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from migrator.errors import InputError, WriteError


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


class AtomicWriter:
    """Collects the new content in a temporary file next to the target."""

    def __init__(self, target: Path) -> None:
        self.target = target
        fd, self.temp = _temporary_beside(target, target.name, "cannot create a temporary file beside it")
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
            raise WriteError(f"could not write the new content ({exc.strerror or exc}); the file is unchanged", path=str(self.target)) from exc

    def commit(self, snapshot: Snapshot, backup_suffix: str | None = None) -> None:
        """Replace the target with the new content, if the target did not change meanwhile.

        Args:
            snapshot: the target as it was when reading began.
            backup_suffix: keep the original next to the target under this suffix.

        Raises:
            WriteError: if the target changed, or the rename failed.
        """
        self.handle.close()
        try:
            now = Snapshot.of(self.target)
            if (now.size, now.mtime_ns) != (snapshot.size, snapshot.mtime_ns):
                raise WriteError("file changed while it was being processed; not rewritten", path=str(self.target))
            self.temp.chmod(stat.S_IMODE(snapshot.mode))
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
            raise WriteError(f"could not replace the file ({exc.strerror or exc}); it is unchanged", path=str(self.target)) from exc
        _fsync_dir(self.target.parent)

    def discard(self) -> None:
        """Remove the temporary file; the target stays as it was."""
        with contextlib.suppress(OSError):
            self.handle.close()
        with contextlib.suppress(FileNotFoundError):
            self.temp.unlink()


def _backup(target: Path, suffix: str) -> None:
    """Keep the original as ``target + suffix``, itself replaced atomically."""
    backup = target.with_name(target.name + suffix)
    fd, staging = _temporary_beside(target, backup.name, f"could not write the backup {backup.name}")
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
        raise WriteError(f"could not write the backup {backup.name} ({exc.strerror or exc}); the file is unchanged", path=str(target)) from exc


def _temporary_beside(target: Path, name: str, failure: str) -> tuple[int, Path]:
    """A new temporary file in ``target``'s folder, named after ``name``.

    Raises:
        WriteError: ``failure``, with the reason (a folder we may not write in,
            a read-only file system, a full disk).
    """
    try:
        fd, temp = tempfile.mkstemp(prefix=f".{name}.", suffix=".mcp-transcripts.tmp", dir=target.parent)
    except OSError as exc:
        raise WriteError(f"{failure} ({exc.strerror or exc}); the file is unchanged", path=str(target)) from exc
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
