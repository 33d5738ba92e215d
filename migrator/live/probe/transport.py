"""How the probe talks to a server: over stdio (a process it starts) or Streamable HTTP.

Both record every message that passes, in the order it passed, into a
:class:`Transcript` (which can also write it to a file as wire or envelope
JSONL). Credentials given as HTTP headers are sent, never recorded: the
transcript holds JSON-RPC messages only.
"""

from __future__ import annotations

import collections
import contextlib
import datetime as dt
import json
import os
import signal
import subprocess
import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from migrator.errors import UsageError, WriteError
from migrator.fix.writer import write_file
from migrator.live.recording import envelope_line, strip_line_ending
from migrator.live.relay import read_lines
from migrator.model.units import Direction

C2S, S2C = Direction.CLIENT_TO_SERVER, Direction.SERVER_TO_CLIENT
HTTP_EXTRA = "pip install 'mcp-transcripts[http]'"


class Transcript:
    """Every message of the probe's session, in the order it passed, numbered by line.

    The line numbers are those of a recording of it (wire or envelope JSONL:
    one message per line either way), so findings point into ``--out``.
    """

    def __init__(self) -> None:
        self.lines: list[bytes] = []
        self._sides: list[tuple[Direction, dt.datetime]] = []
        self._lock = threading.Lock()

    def add(self, line: bytes, direction: Direction) -> int:
        """Record one message (its line ending is dropped); returns its 1-based line number."""
        body = strip_line_ending(line)
        with self._lock:
            self.lines.append(body)
            self._sides.append((direction, dt.datetime.now(dt.timezone.utc)))
            return len(self.lines)

    def text(self) -> str:
        """The transcript as wire JSONL."""
        return self.wire().decode("utf-8", "surrogateescape")

    def wire(self) -> bytes:
        """Wire JSONL: each message exactly as it passed, one per line."""
        with self._lock:
            return b"".join(line + b"\n" for line in self.lines)

    def envelope(self) -> bytes:
        """Envelope JSONL: ``{"ts", "direction", "message"}`` per line, the message embedded byte for byte."""
        with self._lock:
            return b"".join(
                envelope_line(line, direction, when)
                for line, (direction, when) in zip(self.lines, self._sides, strict=False)
            )

    def save(self, path: str, *, envelope: bool) -> None:
        """Write the recording to ``path`` whole (through a temporary file: never half a file).

        Raises:
            UsageError: it cannot be written.
        """
        data = self.envelope() if envelope else self.wire()
        try:
            write_file(path, [data])
        except WriteError as exc:
            raise UsageError(f"cannot write the recording: {exc.message}", path=path) from exc


@dataclass(frozen=True)
class Answer:
    """A response to one request, as it came."""

    payload: dict[str, Any]
    line: int  # its line in the transcript


class Crashed(Exception):
    """The server went away before answering (process exit, connection lost)."""


class TimedOut(Exception):
    """No answer within the timeout."""


class Connection(Protocol):
    """One live session's channel: requests wait for their answer, notifications do not."""

    transcript: Transcript  # every message that passed
    protocol_version: str | None  # the negotiated version, once known (HTTP sends it as a header)
    stderr_tail: collections.deque[
        str
    ]  # the server's last stderr lines (stdio), for error messages

    def request(self, payload: dict[str, Any], timeout: float) -> tuple[int, Answer]:
        """Send a request; return the request's transcript line and the answer.

        Raises:
            Crashed: the server went away first.
            TimedOut: no answer in time.
        """
        ...

    def notify(self, payload: dict[str, Any]) -> None:
        """Send a notification."""
        ...

    def close(self) -> None:
        """End the session (stop the server the probe started)."""
        ...

    @property
    def description(self) -> str:
        """What is probed, for messages."""
        ...

    @property
    def restartable(self) -> bool:
        """Whether a fresh session can be started after a crash."""
        ...

    def restart(self) -> None:
        """Start a fresh server after a crash."""
        ...


def encode_message(payload: dict[str, Any]) -> bytes:
    """One compact JSON line (without its line ending)."""
    return json.dumps(payload, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


class _Pending:
    """Requests in flight, by id, and the answers as they come."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._slots: dict[Any, tuple[threading.Event, list[Answer | Exception]]] = {}

    def open(self, request_id: Any) -> tuple[threading.Event, list[Answer | Exception]]:
        slot: tuple[threading.Event, list[Answer | Exception]] = (threading.Event(), [])
        with self._lock:
            self._slots[request_id] = slot
        return slot

    def deliver(self, request_id: Any, answer: Answer | Exception) -> bool:
        with self._lock:
            slot = self._slots.pop(request_id, None)
        if slot is None:
            return False
        slot[1].append(answer)
        slot[0].set()
        return True

    def forget(self, request_id: Any) -> None:
        with self._lock:
            self._slots.pop(request_id, None)

    def fail_all(self, error: Exception) -> None:
        with self._lock:
            slots, self._slots = list(self._slots.values()), {}
        for event, box in slots:
            box.append(error)
            event.set()


def wait(
    request_id: Any,
    slot: tuple[threading.Event, list[Answer | Exception]],
    pending: _Pending,
    timeout: float,
) -> Answer:
    """The answer in ``slot``, or the exception that stands for it."""
    event, box = slot
    if not event.wait(timeout):
        pending.forget(request_id)
        raise TimedOut(f"no answer within {timeout:g}s")
    outcome = box[0]
    if isinstance(outcome, Exception):
        raise outcome
    return outcome


def answer_server_request(payload: dict[str, Any]) -> dict[str, Any]:
    """Our answer to a request the server sends us: ``ping`` is answered, the rest refused."""
    if payload.get("method") == "ping":
        return {"jsonrpc": "2.0", "id": payload.get("id"), "result": {}}
    return {
        "jsonrpc": "2.0",
        "id": payload.get("id"),
        "error": {"code": -32601, "message": f"the probe does not serve {payload.get('method')!r}"},
    }


def _is_response(payload: Any) -> bool:
    return (
        isinstance(payload, dict)
        and "method" not in payload
        and ("result" in payload or "error" in payload)
    )


class StdioConnection:
    """A server process the probe starts; its stdout lines are read on a thread.

    Args:
        command: the server's command line.
        transcript: where every line goes.

    The server's stderr is read on a thread too; its last lines are kept in
    :attr:`stderr_tail` for the message when the server cannot be initialized.
    """

    STDERR_TAIL = 20

    def __init__(self, command: Sequence[str], transcript: Transcript) -> None:
        self.command = list(command)
        self.transcript = transcript
        self.stderr_tail: collections.deque[str] = collections.deque(maxlen=self.STDERR_TAIL)
        self.protocol_version: str | None = None
        self._write_lock = threading.Lock()
        self._pending = _Pending()
        self._process: subprocess.Popen[bytes] | None = None
        self._threads: list[threading.Thread] = []
        self._start()

    @property
    def description(self) -> str:
        return " ".join(self.command)

    @property
    def restartable(self) -> bool:
        return True

    def _start(self) -> None:
        try:
            process = subprocess.Popen(
                self.command,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                start_new_session=True,  # a Ctrl-C reaches the server through us only
            )
        except OSError as exc:
            raise UsageError(
                f"cannot start the server {self.command[0]!r}: {exc.strerror or exc}"
            ) from exc
        self._process = process
        self._pending = _Pending()
        self._threads = [
            threading.Thread(target=self._read, args=(process, self._pending), daemon=True),
            threading.Thread(target=self._read_stderr, args=(process,), daemon=True),
        ]
        for thread in self._threads:
            thread.start()

    def _read(self, process: subprocess.Popen[bytes], pending: _Pending) -> None:
        assert process.stdout is not None
        for line in read_lines(process.stdout.fileno()):
            number = self.transcript.add(line, S2C)
            try:
                payload = json.loads(line)
            except ValueError:
                continue  # a log line on stdout: recorded, and check reports it
            if _is_response(payload):
                pending.deliver(payload.get("id"), Answer(payload, number))
            elif isinstance(payload, dict) and "id" in payload and "method" in payload:
                self._send(answer_server_request(payload), process)
        code = process.wait()
        pending.fail_all(Crashed(_exit_text(code)))

    def _read_stderr(self, process: subprocess.Popen[bytes]) -> None:
        assert process.stderr is not None
        for line in process.stderr:
            self.stderr_tail.append(line.decode("utf-8", "replace").rstrip())

    def _send(self, payload: dict[str, Any], process: subprocess.Popen[bytes] | None = None) -> int:
        process = process or self._process
        assert process is not None and process.stdin is not None
        body = encode_message(payload)
        with self._write_lock:  # recorded before it is written: the answer cannot come first
            number = self.transcript.add(body, C2S)
            try:
                process.stdin.write(body + b"\n")
                process.stdin.flush()
            except (BrokenPipeError, OSError, ValueError) as exc:
                raise Crashed("the server closed its stdin") from exc
        return number

    def request(self, payload: dict[str, Any], timeout: float) -> tuple[int, Answer]:
        pending = self._pending
        slot = pending.open(payload["id"])
        try:
            line = self._send(payload)
        except Crashed:
            pending.forget(payload["id"])
            raise
        return line, wait(payload["id"], slot, pending, timeout)

    def notify(self, payload: dict[str, Any]) -> None:
        self._send(payload)

    def restart(self) -> None:
        self._stop()
        self._start()

    def close(self) -> None:
        self._stop()

    def _stop(self) -> None:
        process = self._process
        if process is None:
            return
        self._process = None
        if process.stdin is not None:
            with contextlib.suppress(OSError):
                process.stdin.close()
        try:
            process.wait(timeout=2)  # closing its stdin is how a stdio server is asked to stop
        except subprocess.TimeoutExpired:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGTERM)
            try:
                process.wait(timeout=2)
            except subprocess.TimeoutExpired:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(process.pid, signal.SIGKILL)
                process.wait()
        for thread in self._threads:
            thread.join(timeout=2)
        for stream in (process.stdout, process.stderr):
            if stream is not None:
                with contextlib.suppress(OSError):
                    stream.close()


def _exit_text(code: int) -> str:
    if code < 0:
        try:
            return f"the server was killed by {signal.Signals(-code).name}"
        except ValueError:
            return f"the server was killed by signal {-code}"
    return f"the server exited with code {code}"


class HttpConnection:
    """A Streamable HTTP server: each message is a POST; answers come as JSON or as an SSE stream.

    Args:
        url: the MCP endpoint.
        headers: extra headers (credentials): sent on every request, never recorded.
        transcript: where every message goes.
    """

    def __init__(self, url: str, headers: Mapping[str, str], transcript: Transcript) -> None:
        try:
            import httpx
            import httpx_sse
        except ImportError as exc:
            raise UsageError(f"probing over HTTP needs httpx and httpx-sse: {HTTP_EXTRA}") from exc
        self._httpx = httpx
        self._sse = httpx_sse
        self.url = url
        self.transcript = transcript
        self._client = httpx.Client(headers=dict(headers))
        self._session_id: str | None = None
        self.protocol_version: str | None = None
        self.stderr_tail: collections.deque[str] = collections.deque()

    @property
    def description(self) -> str:
        return self.url

    @property
    def restartable(self) -> bool:
        return False

    def restart(self) -> None:
        raise Crashed("an HTTP server is not ours to restart")

    def _headers(self) -> dict[str, str]:
        headers = {
            "Accept": "application/json, text/event-stream",
            "Content-Type": "application/json",
        }
        if self._session_id is not None:
            headers["Mcp-Session-Id"] = self._session_id
        if self.protocol_version is not None:
            headers["MCP-Protocol-Version"] = self.protocol_version
        return headers

    def _post(
        self, body: bytes, timeout: float, on_message: Callable[[dict[str, Any], int], bool]
    ) -> None:
        """POST one message; hand each message of the answer to ``on_message`` until it returns True."""
        httpx = self._httpx
        try:
            with self._client.stream(
                "POST", self.url, content=body, headers=self._headers(), timeout=timeout
            ) as response:
                if "mcp-session-id" in response.headers:
                    self._session_id = response.headers["mcp-session-id"]
                kind = response.headers.get("content-type", "").split(";")[0].strip().lower()
                if response.status_code == 202 or (response.status_code < 300 and not kind):
                    response.read()
                    return
                if kind == "text/event-stream":
                    for event in self._sse.EventSource(response).iter_sse():
                        if event.data and self._take(event.data.encode("utf-8"), on_message):
                            return
                    return
                raw = response.read()
                if kind == "application/json" and raw.strip():
                    self._take(raw, on_message)
                    return
                raise Crashed(
                    f"HTTP {response.status_code} from {self.url}: {raw[:200].decode('utf-8', 'replace')}"
                )
        except httpx.TimeoutException as exc:
            raise TimedOut(f"no answer within {timeout:g}s") from exc
        except httpx.HTTPError as exc:
            raise Crashed(f"HTTP request to {self.url} failed: {exc}") from exc

    def _take(self, raw: bytes, on_message: Callable[[dict[str, Any], int], bool]) -> bool:
        body = raw.strip()
        if b"\n" in body:  # a pretty-printed body: one line in the transcript
            body = encode_message(json.loads(body))
        number = self.transcript.add(body, S2C)
        try:
            payload = json.loads(body)
        except ValueError:
            return False
        messages = payload if isinstance(payload, list) else [payload]
        done = False
        for message in messages:
            if isinstance(message, dict) and "id" in message and "method" in message:
                self._post(
                    encode_message(answer_server_request(message)), 10.0, lambda _m, _n: True
                )
            elif isinstance(message, dict) and on_message(message, number):
                done = True
        return done

    def request(self, payload: dict[str, Any], timeout: float) -> tuple[int, Answer]:
        body = encode_message(payload)
        line = self.transcript.add(body, C2S)
        found: list[Answer] = []

        def take(message: dict[str, Any], number: int) -> bool:
            if _is_response(message) and message.get("id") == payload["id"]:
                found.append(Answer(message, number))
                return True
            return False

        self._post(body, timeout, take)
        if not found:
            raise Crashed(f"the server sent no answer to request {payload['id']!r}")
        return line, found[0]

    def notify(self, payload: dict[str, Any]) -> None:
        body = encode_message(payload)
        self.transcript.add(body, C2S)
        self._post(body, 10.0, lambda _m, _n: False)

    def close(self) -> None:
        if self._session_id is not None:
            with contextlib.suppress(
                self._httpx.HTTPError
            ):  # the server may not allow ending sessions
                self._client.delete(self.url, headers=self._headers(), timeout=5.0)
        self._client.close()
