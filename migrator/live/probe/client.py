"""The probe's client session: initialize, list the tools, call them.

A crash of a stdio server ends the call that caused it; :meth:`ClientSession.recover`
starts the server again and initializes it afresh, so the probe goes on with
the next case. Request ids keep counting across restarts, so the recording
never reuses one.
"""

from __future__ import annotations

import itertools
import threading
from dataclasses import dataclass, field
from typing import Any

from migrator import __version__
from migrator.judge.schemas import SUPPORTED_VERSIONS
from migrator.live.probe.transport import Answer, Connection, Crashed, TimedOut

NEWEST_VERSION = SUPPORTED_VERSIONS[-1]
"""The protocol version the probe asks for unless told otherwise."""
CLIENT_INFO = {"name": "mcp-transcripts-probe", "version": __version__}
MAX_PAGES = 1000  # a server whose cursor never ends must not hold the probe forever


class SessionError(Exception):
    """The server could not be initialized or listed; the message says why."""


@dataclass
class CallOutcome:
    """What one call came to: an answer, or no answer and why."""

    request_line: int
    request_id: int
    answer: Answer | None = None
    crashed: str | None = None  # why, when the server went away
    timed_out: bool = False


@dataclass
class ServerFacts:
    """What initialization and tools/list told us."""

    version: str | None = None
    server_name: str = "?"
    server_version: str = ""  # empty when serverInfo gives none
    tools: list[dict[str, Any]] = field(default_factory=list)


class ClientSession:
    """Drives a :class:`~migrator.live.probe.transport.Connection` as an MCP client.

    Args:
        connection: the channel to the server.
        protocol_version: asked for in ``initialize``.
        timeout: seconds to wait for each answer.
    """

    def __init__(
        self, connection: Connection, protocol_version: str = NEWEST_VERSION, timeout: float = 10.0
    ) -> None:
        self.connection = connection
        self.protocol_version = protocol_version
        self.timeout = timeout
        self.facts = ServerFacts()
        self.restarts = 0
        self._ids = itertools.count(1)
        self._id_lock = threading.Lock()
        self._recover_lock = threading.Lock()
        self._generation = 0

    def _next_id(self) -> int:
        with self._id_lock:
            return next(self._ids)

    def _request(self, method: str, params: dict[str, Any]) -> Answer:
        payload = {"jsonrpc": "2.0", "id": self._next_id(), "method": method, "params": params}
        try:
            _line, answer = self.connection.request(payload, self.timeout)
        except (Crashed, TimedOut) as exc:
            raise SessionError(f"{method}: {exc}") from exc
        error = answer.payload.get("error")
        if error is not None:
            raise SessionError(f"{method} was refused: {_error_text(error)}")
        return answer

    def start(self) -> ServerFacts:
        """Initialize and list the tools (every page).

        Raises:
            SessionError: initialize or tools/list failed.
        """
        answer = self._request(
            "initialize",
            {
                "protocolVersion": self.protocol_version,
                "capabilities": {},
                "clientInfo": CLIENT_INFO,
            },
        )
        result = answer.payload.get("result")
        if not isinstance(result, dict):
            raise SessionError("initialize answered without a result object")
        version = result.get("protocolVersion")
        self.facts.version = version if isinstance(version, str) else None
        self.connection.protocol_version = self.facts.version  # HTTP sends it on every request
        info = result.get("serverInfo")
        if isinstance(info, dict):
            self.facts.server_name = str(info.get("name", "?"))
            version_given = info.get("version")
            self.facts.server_version = "" if version_given is None else str(version_given)
        try:
            self.connection.notify({"jsonrpc": "2.0", "method": "notifications/initialized"})
        except (Crashed, TimedOut) as exc:
            raise SessionError(f"notifications/initialized: {exc}") from exc
        # Listed again after a restart too: the recording's new session needs its
        # catalog, or check could not judge the calls that follow.
        tools = self._list_tools()
        if not self.facts.tools:
            self.facts.tools = tools
        return self.facts

    def _list_tools(self) -> list[dict[str, Any]]:
        tools: list[dict[str, Any]] = []
        cursor: str | None = None
        seen: set[str] = set()
        for _page in range(MAX_PAGES):
            params = {} if cursor is None else {"cursor": cursor}
            result = self._request("tools/list", params).payload.get("result")
            if not isinstance(result, dict) or not isinstance(result.get("tools"), list):
                raise SessionError("tools/list answered without a tools array")
            tools.extend(
                t for t in result["tools"] if isinstance(t, dict) and isinstance(t.get("name"), str)
            )
            cursor = result.get("nextCursor")
            if not isinstance(cursor, str) or cursor in seen:
                return tools
            seen.add(cursor)
        raise SessionError(f"tools/list did not end after {MAX_PAGES} pages")

    def call(
        self, name: str, arguments: dict[str, Any], meta: dict[str, Any] | None = None
    ) -> CallOutcome:
        """Call a tool once; a crash or a timeout is an outcome, not an exception.

        Args:
            name: the tool.
            arguments: its arguments.
            meta: ``params._meta`` of the request.
        """
        request_id = self._next_id()
        params: dict[str, Any] = {"name": name, "arguments": arguments}
        if meta:
            params["_meta"] = meta
        payload = {"jsonrpc": "2.0", "id": request_id, "method": "tools/call", "params": params}
        generation = self._generation
        try:
            line, answer = self.connection.request(payload, self.timeout)
        except TimedOut:
            return CallOutcome(self._request_line(request_id), request_id, timed_out=True)
        except Crashed as exc:
            outcome = CallOutcome(self._request_line(request_id), request_id, crashed=str(exc))
            self.recover(generation)
            return outcome
        return CallOutcome(line, request_id, answer)

    def _request_line(self, request_id: int) -> int:
        """The transcript line of our request ``request_id`` (0 when it was never sent)."""
        transcript = self.connection.transcript
        needle = f'"id":{request_id},"method":"tools/call",'.encode()
        for number, line in enumerate(transcript.lines, 1):
            if needle in line:
                return number
        return 0

    def recover(self, generation: int) -> None:
        """Start the server again after a crash (once, however many calls saw it).

        Raises:
            SessionError: the server cannot be restarted or initialized again.
        """
        with self._recover_lock:
            if generation != self._generation:
                return  # another call already restarted it
            if not self.connection.restartable:
                raise SessionError(
                    f"{self.connection.description} went away and cannot be restarted"
                )
            self.connection.restart()
            self.restarts += 1
            self._generation += 1
            self.start()


def _error_text(error: Any) -> str:
    if isinstance(error, dict):
        return f"{error.get('code')} {error.get('message')}"
    return str(error)
