"""A raw client for the relay tests: a subprocess, its pipes, and a clock."""

from __future__ import annotations

import contextlib
import json
import os
import queue
import subprocess
import sys
import threading
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
STDIO_SERVER = HERE / "stdio_server.py"
TIMEOUT = 20.0


def migrate(*args: str) -> list[str]:
    """The command line of ``mcp-transcripts`` run as a real subprocess."""
    return [sys.executable, "-m", "migrator", *args]


def tiny_server(*args: str) -> list[str]:
    """The command line of the tiny Python server in this folder."""
    return [sys.executable, str(STDIO_SERVER), *args]


# A shell that starts a job in the background (nohup, `&` without job control) leaves SIGINT
# ignored for everything the job starts, and a Python started so never raises
# KeyboardInterrupt. A test that sends SIGINT starts its command through this.
_DEFAULT_SIGINT = (
    "import os, signal, sys; signal.signal(signal.SIGINT, signal.SIG_DFL); "
    "os.execv(sys.argv[1], sys.argv[1:])"
)


def with_default_sigint(command: Sequence[str]) -> list[str]:
    """``command``, started with SIGINT at its default whatever this process inherited."""
    return [sys.executable, "-c", _DEFAULT_SIGINT, *command]


def compact(message: dict[str, Any]) -> bytes:
    """One wire line for a message."""
    return json.dumps(message, separators=(",", ":")).encode() + b"\n"


class Peer:
    """A process under test, spoken to line by line over its stdin and stdout."""

    def __init__(self, command: Sequence[str], cwd: Path = ROOT) -> None:
        env = {**os.environ, "PYTHONUNBUFFERED": "1"}
        self.proc = subprocess.Popen(
            list(command),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            cwd=cwd,
            env=env,
        )
        self._lines: queue.Queue[bytes | None] = queue.Queue()
        self._stderr: list[bytes] = []
        self._readers = [
            threading.Thread(target=self._read, daemon=True),
            threading.Thread(target=self._read_stderr, daemon=True),
        ]
        for thread in self._readers:
            thread.start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        with self.proc.stdout:
            for line in iter(self.proc.stdout.readline, b""):
                self._lines.put(line)
        self._lines.put(None)

    def _read_stderr(self) -> None:
        assert self.proc.stderr is not None
        with self.proc.stderr:
            for line in iter(self.proc.stderr.readline, b""):
                self._stderr.append(line)

    @property
    def stderr(self) -> str:
        return b"".join(self._stderr).decode("utf-8", "replace")

    def send(self, data: bytes) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(data)
        self.proc.stdin.flush()

    def recv(self, timeout: float = TIMEOUT) -> bytes | None:
        """The next line from the process; ``None`` at the end of its output."""
        try:
            return self._lines.get(timeout=timeout)
        except queue.Empty:
            raise AssertionError(f"no line within {timeout}s; stderr:\n{self.stderr}") from None

    def line(self, timeout: float = TIMEOUT) -> bytes:
        """The next line from the process, which must not have ended."""
        line = self.recv(timeout)
        assert line is not None, f"the process ended; stderr:\n{self.stderr}"
        return line

    def request(self, message: dict[str, Any]) -> bytes:
        """Send a request, return the raw line that answers it."""
        self.send(compact(message))
        return self.line()

    def close_stdin(self) -> None:
        self._close_stdin()

    def wait(self, timeout: float = TIMEOUT) -> int:
        """Wait for the exit code (and for the process's output to end)."""
        try:
            code = self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            self.kill()
            raise AssertionError(
                f"still running after {timeout}s; stderr:\n{self.stderr}"
            ) from None
        for thread in self._readers:
            thread.join(timeout)
        self._close_stdin()
        return code

    def _close_stdin(self) -> None:
        if self.proc.stdin is not None and not self.proc.stdin.closed:
            with contextlib.suppress(BrokenPipeError):
                self.proc.stdin.close()

    def finish(self) -> int:
        """Close stdin and wait for the exit code."""
        self._close_stdin()
        return self.wait()

    def kill(self) -> None:
        """End the process if it still runs, and release its pipes."""
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait()
        for thread in self._readers:
            thread.join(TIMEOUT)
        self._close_stdin()


INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {
        "protocolVersion": "2025-11-25",
        "capabilities": {},
        "clientInfo": {"name": "relay-tests", "version": "1.0.0"},
    },
}
INITIALIZED = {"jsonrpc": "2.0", "method": "notifications/initialized"}
LIST_TOOLS = {"jsonrpc": "2.0", "id": 2, "method": "tools/list", "params": {}}


def call(request_id: Any, name: str, arguments: dict[str, Any]) -> dict[str, Any]:
    return {
        "jsonrpc": "2.0",
        "id": request_id,
        "method": "tools/call",
        "params": {"name": name, "arguments": arguments},
    }


def handshake(peer: Peer) -> list[bytes]:
    """initialize, initialized and tools/list; returns the server's answers."""
    answers = [peer.request(INITIALIZE)]
    peer.send(compact(INITIALIZED))
    answers.append(peer.request(LIST_TOOLS))
    return answers


Spawn = Callable[[Sequence[str]], Peer]
"""The ``spawn`` fixture: start a :class:`Peer` that is cleaned up after the test."""
