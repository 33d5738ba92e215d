"""A transparent stdio relay: client <-> relay <-> server, one line at a time.

The client starts the relay instead of the server; the relay starts the server
and copies every line both ways as soon as it is complete. On the way a line
can be recorded and, through a hook, replaced (the proxy rewrites server lines).

What it guarantees:

* Lines are bytes. A line is forwarded the moment its ``\\n`` arrives, and
  nothing beyond one line is ever held; there is no size limit on a line.
* Every line, from both sides, goes through one lock in the order it was read,
  so a recording and the session model see a request before the answer to it.
* The server's stderr is the relay's stderr (inherited, not copied).
* End of input: when the client closes our stdin, the server's stdin is closed.
  When the server exits, the relay forwards what it wrote last and returns its
  exit code (``128 + N`` when signal ``N`` killed it).
* SIGINT, SIGTERM and SIGHUP sent to the relay are forwarded to the server. The
  server runs in its own session, so a Ctrl-C in a terminal reaches it once,
  through the relay, and not twice.
* A hook that raises never breaks the session: the original line is forwarded.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator, Sequence
from types import FrameType
from typing import IO, Protocol

from migrator.errors import UsageError
from migrator.model.units import Direction

C2S, S2C = Direction.CLIENT_TO_SERVER, Direction.SERVER_TO_CLIENT

# Defaults of the HTTP relay (record and proxy with --url), here because the
# command line needs them without importing the HTTP stack.
DEFAULT_LISTEN = "127.0.0.1:0"  # loopback, a free port
DEFAULT_TIMEOUT = 60.0  # seconds for the upstream to begin its answer

CHUNK_SIZE = 1 << 16  # one pipe buffer on Linux
DRAIN_SECONDS = 5.0  # how long to wait for the server's stdout to close after it exited
FORWARDED_SIGNALS = ("SIGINT", "SIGTERM", "SIGHUP")

LineHook = Callable[[bytes, Direction], bytes]
"""Gets each line and its direction; returns the bytes to forward instead."""

Log = Callable[[str], None]


class LineSink(Protocol):
    """Where the relay copies every line it reads (a recording)."""

    def write(self, line: bytes, direction: Direction) -> None:
        """Take one line, exactly as read."""
        ...


def read_lines(fd: int, chunk_size: int = CHUNK_SIZE) -> Iterator[bytes]:
    """Yield the lines read from a file descriptor, each as soon as it is complete.

    Every line keeps its ``\\n``; the last one has none when the writer stopped
    mid-line. A line is held in memory until its end arrives, whatever its size,
    and nothing after it is waited for.

    Args:
        fd: a readable file descriptor (a pipe, usually).
        chunk_size: the most bytes asked of one ``read``.
    """
    pending = bytearray()
    while True:
        data = os.read(fd, chunk_size)
        if not data:
            if pending:
                yield bytes(pending)
            return
        start = 0
        end = data.find(b"\n")
        while end >= 0:
            end += 1
            if pending:
                pending += data[start:end]
                yield bytes(pending)
                pending.clear()
            else:
                yield data[start:end]
            start = end
            end = data.find(b"\n", start)
        if start < len(data):
            pending += data[start:]


def write_all(fd: int, data: bytes) -> None:
    """Write all of ``data`` to a file descriptor (``os.write`` may write less)."""
    view = memoryview(data)
    while view:
        written = os.write(fd, view)
        view = view[written:]


def exit_status(returncode: int) -> int:
    """The relay's exit code for the server's: the same, or ``128 + N`` for death by signal ``N``."""
    return returncode if returncode >= 0 else 128 - returncode


class Relay:
    """One server process and the two pumps that carry its stdio.

    Args:
        command: the server's command line.
        log: where our own diagnostics go (one line each, without the prefix).
        sink: a copy of every line goes here (a recording), before the hook.
        hook: turns each line into the bytes to forward; ``None`` forwards it as is.
        stdin_fd: the client's side: the relay reads client lines here.
        stdout_fd: the client's side: the relay writes server lines here.
    """

    def __init__(
        self,
        command: Sequence[str],
        *,
        log: Log,
        sink: LineSink | None = None,
        hook: LineHook | None = None,
        stdin_fd: int = 0,
        stdout_fd: int = 1,
    ) -> None:
        if not command:
            raise UsageError("no server command given (put it after --)")
        self.command = list(command)
        self.log = log
        self.sink = sink
        self.hook = hook
        self.stdin_fd = stdin_fd
        self.stdout_fd = stdout_fd
        self._lock = threading.Lock()

    def run(self) -> int:
        """Start the server, relay until it exits, and return the exit code to use.

        Raises:
            UsageError: the server cannot be started.
        """
        if sys.platform == "win32":  # pragma: no cover - no CRLF translation on the pipes
            import msvcrt

            for fd in (self.stdin_fd, self.stdout_fd):
                msvcrt.setmode(fd, os.O_BINARY)
        try:
            proc = subprocess.Popen(
                self.command,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                bufsize=0,
                start_new_session=True,
            )
        except OSError as exc:
            raise UsageError(
                f"cannot start the server {self.command[0]!r}: {exc.strerror or exc}"
            ) from exc
        assert proc.stdin is not None and proc.stdout is not None
        to_server = threading.Thread(
            target=self._client_to_server,
            args=(proc.stdin,),
            name="mcp-transcripts c2s",
            daemon=True,
        )
        to_client = threading.Thread(
            target=self._server_to_client,
            args=(proc.stdout,),
            name="mcp-transcripts s2c",
            daemon=True,
        )
        restore = _forward_signals(proc)
        try:
            to_server.start()
            to_client.start()
            returncode = proc.wait()
            to_client.join(DRAIN_SECONDS)
            if to_client.is_alive():
                self.log(
                    "the server exited but its stdout is still open (another process holds it); "
                    "not waiting for it"
                )
        finally:
            restore()
        return exit_status(returncode)

    def _observe(self, line: bytes, direction: Direction) -> bytes:
        """Record a line and run the hook on it, in one order for both directions."""
        with self._lock:
            if self.sink is not None:
                self.sink.write(line, direction)
            if self.hook is None:
                return line
            try:
                return self.hook(line, direction)
            except Exception as exc:  # the session matters more than our judgement
                self.log(
                    f"internal error on a {direction.value} line ({type(exc).__name__}: {exc}); forwarded it unchanged"
                )
                return line

    def _client_to_server(self, server_stdin: IO[bytes]) -> None:
        fd = server_stdin.fileno()
        try:
            for line in read_lines(self.stdin_fd):
                out = self._observe(line, C2S)
                write_all(fd, out)
        except OSError as exc:  # the server stopped reading (it exited, usually)
            if not isinstance(exc, BrokenPipeError):
                self.log(f"client->server: {exc}")
        finally:
            with contextlib.suppress(OSError):
                server_stdin.close()  # the server sees end of input

    def _server_to_client(self, server_stdout: IO[bytes]) -> None:
        client_reads = True
        try:
            for line in read_lines(server_stdout.fileno()):
                out = self._observe(line, S2C)
                if not client_reads:
                    continue
                try:
                    write_all(self.stdout_fd, out)
                except OSError as exc:
                    client_reads = False
                    self.log(
                        f"the client stopped reading ({exc.strerror or exc}); still recording what the server sends"
                    )
        except OSError as exc:
            self.log(f"server->client: {exc}")


def _forward_signals(proc: subprocess.Popen[bytes]) -> Callable[[], None]:
    """Send SIGINT, SIGTERM and SIGHUP on to the server; returns the undo."""
    if threading.current_thread() is not threading.main_thread():
        return lambda: None  # only the main thread may set handlers

    def forward(signum: int, frame: FrameType | None) -> None:
        with contextlib.suppress(ProcessLookupError):
            proc.send_signal(signum)

    previous: dict[int, object] = {}
    for name in FORWARDED_SIGNALS:
        signum = getattr(signal, name, None)
        if signum is not None:
            previous[signum] = signal.signal(signum, forward)

    def restore() -> None:
        for signum, handler in previous.items():
            signal.signal(signum, handler)  # type: ignore[arg-type]

    return restore
