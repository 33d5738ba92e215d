#!/usr/bin/env python3
"""Record real MCP JSON-RPC traffic from real MCP SDK releases, as test fixtures.

Usage (from anywhere; paths are relative to the repository root):

    python scripts/record_fixtures.py                 # install, record and write everything
    python scripts/record_fixtures.py --only ts-sdk-old --only py-sdk-new
    python scripts/record_fixtures.py --no-install    # reuse the installs in .fixtures-work/
    python scripts/record_fixtures.py --list          # show the targets and exit
    python scripts/record_fixtures.py --work DIR      # install into DIR instead of .fixtures-work/

What it does, for each target:

1. Installs the SDK release from its registry into the git-ignored work folder
   `.fixtures-work/<target>/`: an npm prefix (`npm install --prefix`) for the TypeScript SDK
   `@modelcontextprotocol/sdk` and for `@modelcontextprotocol/server-everything`, a venv
   for the Python SDK `mcp`.
2. Starts a server over stdio: for the SDKs, the small fixture servers in
   `scripts/fixture_servers/` (tools `book_flight`, `add`, `divide`, written with the SDK's
   high-level API: `McpServer` + zod, `FastMCP`/`MCPServer`); for server-everything, its own
   stdio server and its own tools.
3. Drives it with a scripted client (this file) that writes raw JSON lines to the server's
   stdin and reads its stdout, one request at a time, waiting for each answer (`--timeout`).
   The plan covers: initialize (asking for protocol version 2025-11-25), tools/list, ping,
   valid calls, each kind of invalid argument, a tool execution error, an unknown tool,
   malformed calls, an unknown method and a final ping. Messages the server sends on its own
   (notifications) are recorded where they came.
4. Writes `tests/fixtures/recorded/<target>-<version>.jsonl`: the exact lines each side wrote,
   in order, one JSON-RPC message per line, LF line endings; for targets with `envelope`,
   also `<name>.envelope.jsonl` (`{"ts", "direction", "message"}` per line).
5. Updates `tests/fixtures/recorded/manifest.json` (what each file is, and for each request
   id what it exercises and how the server answered) and regenerates `README.md` beside it
   from the manifest and the recordings.

Exit status: 0 when every selected target was recorded; 1 when an install failed, a server
did not start, exited early, wrote something that is not a JSON line, or did not answer a
request within the timeout (the message says which); 2 for usage errors.

Needs Python 3.10+, node and npm on PATH, and access to the npm registry and PyPI.
"""

from __future__ import annotations

import argparse
import contextlib
import datetime as dt
import json
import queue
import shutil
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
WORK = REPO / ".fixtures-work"
OUT = REPO / "tests" / "fixtures" / "recorded"
SERVERS_SRC = Path(__file__).resolve().parent / "fixture_servers"
MANIFEST = OUT / "manifest.json"
README = OUT / "README.md"

REQUESTED_PROTOCOL = "2025-11-25"
CLIENT_INFO = {"name": "fixture-recorder", "version": "1.0.0"}
DEFAULT_TIMEOUT = 30.0

TS_SDK = "@modelcontextprotocol/sdk"
EVERYTHING = "@modelcontextprotocol/server-everything"
EVERYTHING_VERSION = "2025.12.18"  # newest 2025 release; still built on the low-level Server

OMIT: Any = object()  # marks a request sent without "params"


class RecordingError(Exception):
    """A target could not be installed or recorded; the message says why."""


def log(message: str) -> None:
    print(message, flush=True)


def log_error(message: str) -> None:
    print(f"error: {message}", file=sys.stderr, flush=True)


# --------------------------------------------------------------------------------------------
# The plan: what the client sends


@dataclass(frozen=True)
class Step:
    """One message the client sends. `id` None means a notification (no answer awaited)."""

    id: int | str | None
    method: str
    params: Any = OMIT
    category: str = "setup"
    exercises: str = ""

    def message(self) -> dict[str, Any]:
        msg: dict[str, Any] = {"jsonrpc": "2.0"}
        if self.id is not None:
            msg["id"] = self.id
        msg["method"] = self.method
        if self.params is not OMIT:
            msg["params"] = self.params
        return msg


def _call(
    id_: int | str, name: Any, arguments: Any = OMIT, *, category: str, exercises: str
) -> Step:
    params: dict[str, Any] = {}
    if name is not OMIT:
        params["name"] = name
    if arguments is not OMIT:
        params["arguments"] = arguments
    return Step(id_, "tools/call", params, category, exercises)


INITIALIZE = Step(
    1,
    "initialize",
    {"protocolVersion": REQUESTED_PROTOCOL, "capabilities": {}, "clientInfo": CLIENT_INFO},
    exercises=f"initialize (asks for {REQUESTED_PROTOCOL})",
)
OPENING = [
    INITIALIZE,
    Step(None, "notifications/initialized"),
    Step(2, "tools/list", {}, exercises="tools/list"),
    Step(3, "ping", exercises="ping"),
]


def _closing(add_tool: str) -> list[Step]:
    return [
        _call(21, "no_such_tool", {"x": 1}, category="unknown-tool", exercises="unknown tool"),
        _call(
            22, add_tool, [1, 2], category="malformed", exercises="malformed: arguments is an array"
        ),
        Step(23, "tools/call", {"arguments": {}}, "malformed", "malformed: name missing"),
        _call(24, 42, {"a": 1}, category="malformed", exercises="malformed: name is not a string"),
        Step(25, "tools/frobnicate", {}, "unknown-method", "unknown method tools/frobnicate"),
        Step(26, "ping", exercises="final ping"),
    ]


FLIGHT = {"from": "SFO", "to": "JFK", "date": "2025-12-01"}
INVALID = "invalid-arguments"

FIXTURE_SERVER_PLAN: list[Step] = [
    *OPENING,
    _call(10, "book_flight", {**FLIGHT, "passengers": 2}, category="valid", exercises="valid call"),
    _call(11, "add", {"a": 2, "b": 3}, category="valid", exercises="valid call, structured output"),
    _call(12, "divide", {"a": 1, "b": 4}, category="valid", exercises="valid call"),
    _call(
        13, "add", {"a": "two", "b": 3}, category=INVALID, exercises="wrong type (a is a string)"
    ),
    _call(
        14,
        "book_flight",
        {"from": "SFO", "to": "JFK"},
        category=INVALID,
        exercises="missing required property (date)",
    ),
    _call(
        15,
        "book_flight",
        {**FLIGHT, "date": "01/12/2025"},
        category=INVALID,
        exercises="pattern mismatch (date)",
    ),
    _call(
        16,
        "book_flight",
        {**FLIGHT, "passengers": 0},
        category=INVALID,
        exercises="below minimum (passengers 0)",
    ),
    _call(
        17,
        "book_flight",
        {**FLIGHT, "from": "LONDON"},
        category=INVALID,
        exercises="string too long (from)",
    ),
    _call(18, "add", category=INVALID, exercises="arguments omitted entirely"),
    _call(
        19,
        "add",
        {"a": 1, "b": 2, "c": 3},
        category="extra-property",
        exercises="extra property (c), not in the input schema",
    ),
    _call(
        "call-7",
        "book_flight",
        {**FLIGHT, "passengers": 2.5},
        category=INVALID,
        exercises="not an integer (passengers 2.5), string id",
    ),
    _call(
        20,
        "divide",
        {"a": 1, "b": 0},
        category="tool-error",
        exercises="tool execution error (divide by zero)",
    ),
    *_closing("add"),
]

EVERYTHING_PLAN: list[Step] = [
    *OPENING,
    _call(10, "echo", {"message": "hello"}, category="valid", exercises="valid call"),
    _call(11, "add", {"a": 2, "b": 3}, category="valid", exercises="valid call"),
    _call(
        12,
        "structuredContent",
        {"location": "Paris"},
        category="valid",
        exercises="valid call, structured output",
    ),
    _call(
        13, "add", {"a": "two", "b": 3}, category=INVALID, exercises="wrong type (a is a string)"
    ),
    _call(14, "echo", {}, category=INVALID, exercises="missing required property (message)"),
    _call(
        15,
        "zip",
        {"files": {"a.txt": "not a url"}},
        category=INVALID,
        exercises="format mismatch (url); the server has no pattern-constrained argument",
    ),
    _call(
        16,
        "getResourceReference",
        {"resourceId": 0},
        category=INVALID,
        exercises="below minimum (resourceId 0)",
    ),
    _call(
        17,
        "annotatedMessage",
        {"messageType": "info"},
        category=INVALID,
        exercises="not one of the enum values (messageType); the server has no maxLength",
    ),
    _call(18, "add", category=INVALID, exercises="arguments omitted entirely"),
    _call(
        19,
        "echo",
        {"message": "hi", "extra": True},
        category="extra-property",
        exercises="extra property (extra), not in the input schema",
    ),
    _call(
        "call-7",
        "structuredContent",
        {"location": ""},
        category=INVALID,
        exercises='string too short (location ""), string id',
    ),
    _call(
        20,
        "getResourceLinks",
        {"count": 11},
        category=INVALID,
        exercises="above maximum (count 11)",
    ),
    *_closing("add"),
]


# The "session evidence" plans list no tools: what the classifier knows of a tool comes from the
# session itself (earlier successes, the server's own words), as in a transcript recorded
# without the tools/list exchange.
NO_LISTING_OPENING = [
    INITIALIZE,
    Step(None, "notifications/initialized"),
    Step(3, "ping", exercises="ping"),
]
STOCK = "ABC-1234"

PY_LOWLEVEL_PLAN: list[Step] = [
    *NO_LISTING_OPENING,
    _call(10, "forecast", {"city": "Paris", "days": 3}, category="valid", exercises="valid call"),
    _call(
        11, "forecast", {"city": "Oslo"}, category="valid", exercises="valid call (days left out)"
    ),
    _call(12, "get_stock", {"sku": STOCK}, category="valid", exercises="valid call"),
    _call(13, "reserve", {"sku": STOCK, "qty": 2}, category="valid", exercises="valid call"),
    _call(
        14,
        "forecast",
        {"city": "Rome", "days": "three"},
        category=INVALID,
        exercises="wrong type (days is a string)",
    ),
    _call(
        15, "forecast", {"days": 2}, category=INVALID, exercises="missing required property (city)"
    ),
    _call(16, "get_stock", {"sku": "abc-12"}, category=INVALID, exercises="pattern mismatch (sku)"),
    _call(
        17, "reserve", {"sku": STOCK, "qty": 0}, category=INVALID, exercises="below minimum (qty 0)"
    ),
    _call(
        18,
        "reserve",
        {"sku": STOCK, "qty": 1, "mode": "rent"},
        category=INVALID,
        exercises="not one of the enum values (mode)",
    ),
    _call(
        19,
        "reserve",
        {"sku": STOCK, "qty": 1, "gift": True},
        category=INVALID,
        exercises="extra property (gift) where additionalProperties is false",
    ),
    _call(
        20,
        "forecast",
        {"city": "Atlantis"},
        category="tool-error",
        exercises="tool execution error (the backend is down)",
    ),
    *_closing("forecast"),
]

TS_SESSION_PLAN: list[Step] = [
    *NO_LISTING_OPENING,
    _call(10, "forecast", {"city": "Paris", "days": 3}, category="valid", exercises="valid call"),
    _call(
        11,
        "report",
        {"structured": True},
        category="valid",
        exercises="valid call, structured output",
    ),
    _call(
        12,
        "forecast",
        {"city": "Rome", "days": "three"},
        category=INVALID,
        exercises="wrong type (days is a string)",
    ),
    _call(
        13, "forecast", {"days": 2}, category=INVALID, exercises="missing required property (city)"
    ),
    _call(
        14,
        "report",
        {"structured": False},
        category="output-error",
        exercises="valid arguments, no structuredContent for the outputSchema (-32602 about the output)",
    ),
    _call(
        15,
        "legacy",
        {"q": "x"},
        category="disabled-tool",
        exercises="a disabled tool (-32602 about the tool, not the arguments)",
    ),
    *_closing("forecast"),
]


# --------------------------------------------------------------------------------------------
# Installing


def run(cmd: Sequence[str], *, what: str, cwd: Path | None = None) -> str:
    """Run a command, return its stdout; raise RecordingError with its output if it fails."""
    log(f"  $ {' '.join(cmd)}")
    try:
        done = subprocess.run(
            list(cmd), cwd=cwd, capture_output=True, text=True, check=False, timeout=900
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise RecordingError(f"{what} failed: {exc}") from exc
    if done.returncode != 0:
        tail = (done.stderr or done.stdout).strip()[-2000:]
        raise RecordingError(f"{what} failed (exit {done.returncode}):\n{tail}")
    return done.stdout


def npm_install(prefix: Path, spec: str) -> None:
    prefix.mkdir(parents=True, exist_ok=True)
    run(
        [
            "npm",
            "install",
            "--prefix",
            str(prefix),
            "--no-audit",
            "--no-fund",
            "--loglevel=error",
            spec,
        ],
        what=f"npm install {spec}",
    )


def npm_version(prefix: Path, package: str, *, within: str | None = None) -> str | None:
    """The version of `package` that node resolves from `within` (a package) or the prefix."""
    roots = [prefix / "node_modules"]
    if within:
        roots.insert(0, prefix / "node_modules" / within / "node_modules")
    for root in roots:
        manifest = root / package / "package.json"
        if manifest.is_file():
            return str(json.loads(manifest.read_text(encoding="utf-8"))["version"])
    return None


def venv_python(venv: Path) -> Path:
    return venv / ("Scripts/python.exe" if sys.platform == "win32" else "bin/python")


def pip_install(venv: Path, requirements: Sequence[str], *, upgrade: bool) -> None:
    if not venv_python(venv).exists():
        run([sys.executable, "-m", "venv", str(venv)], what=f"creating the venv {venv.name}")
    cmd = [str(venv_python(venv)), "-m", "pip", "install", "--quiet", "--disable-pip-version-check"]
    if upgrade:
        cmd.append("--upgrade")
    run([*cmd, *requirements], what=f"pip install {' '.join(requirements)}")


def pip_version(venv: Path, distribution: str) -> str | None:
    if not venv_python(venv).exists():
        return None
    out = subprocess.run(
        [
            str(venv_python(venv)),
            "-c",
            f"import importlib.metadata as m; print(m.version({distribution!r}))",
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    return out.stdout.strip() if out.returncode == 0 else None


def version_tuple(version: str) -> tuple[int, ...]:
    parts: list[int] = []
    for piece in version.split("-")[0].split("."):
        if not piece.isdigit():
            break
        parts.append(int(piece))
    return tuple(parts)


# --------------------------------------------------------------------------------------------
# Targets


@dataclass
class Installed:
    """What a target's install step resolved: the version in the file name and the details."""

    version: str
    command: list[str]
    details: dict[str, str]


@dataclass(frozen=True)
class Target:
    key: str  # what --only takes
    prefix: str  # file names are <prefix>-<version>.jsonl
    summary: str
    install: Callable[[Path, bool], Installed]
    plan: list[Step]
    envelope: bool = False

    @property
    def workdir(self) -> Path:
        return WORK / self.key


def _ts_sdk(
    spec: str, minimum: str | None = None, server_file: str = "ts_server.mjs"
) -> Callable[[Path, bool], Installed]:
    def install(workdir: Path, do_install: bool) -> Installed:
        wanted = spec.rpartition("@")[2]
        current = npm_version(workdir, TS_SDK)
        if do_install and (current != wanted or wanted == "latest"):
            npm_install(workdir, f"{TS_SDK}@{spec}")
        version = npm_version(workdir, TS_SDK)
        if version is None:
            raise RecordingError(
                f"{TS_SDK} is not installed in {workdir.name}/ (drop --no-install)"
            )
        if minimum and version_tuple(version) < version_tuple(minimum):
            raise RecordingError(f"{TS_SDK}@{spec} resolved to {version}, older than {minimum}")
        server = workdir / server_file  # beside node_modules, so imports resolve there
        shutil.copyfile(SERVERS_SRC / server_file, server)
        details = {
            TS_SDK: version,
            "zod": npm_version(workdir, "zod") or "?",
            "node": run(["node", "--version"], what="node --version").strip(),
        }
        return Installed(version, ["node", str(server), version], details)

    return install


def _py_sdk(
    requirements: Sequence[str],
    *,
    upgrade: bool,
    server_file: str = "py_server.py",
    server_args: Sequence[str] = (),
) -> Callable[[Path, bool], Installed]:
    def install(workdir: Path, do_install: bool) -> Installed:
        venv = workdir / "venv"
        if do_install:
            pip_install(venv, requirements, upgrade=upgrade)
        version = pip_version(venv, "mcp")
        if version is None:
            raise RecordingError(f"mcp is not installed in {workdir.name}/venv (drop --no-install)")
        python = venv_python(venv)
        pyver = subprocess.run(
            [str(python), "-c", "import sys; print(sys.version.split()[0])"],
            capture_output=True,
            text=True,
            check=False,
        ).stdout.strip()
        details = {
            "mcp": version,
            "pydantic": pip_version(venv, "pydantic") or "?",
            "python": pyver,
        }
        if server_file != "py_server.py":
            details["jsonschema"] = pip_version(venv, "jsonschema") or "?"
        command = [str(python), str(SERVERS_SRC / server_file), version, *server_args]
        return Installed(version, command, details)

    return install


def _everything(workdir: Path, do_install: bool) -> Installed:
    if do_install and npm_version(workdir, EVERYTHING) != EVERYTHING_VERSION:
        npm_install(workdir, f"{EVERYTHING}@{EVERYTHING_VERSION}")
    version = npm_version(workdir, EVERYTHING)
    if version is None:
        raise RecordingError(
            f"{EVERYTHING} is not installed in {workdir.name}/ (drop --no-install)"
        )
    entry = workdir / "node_modules" / EVERYTHING / "dist" / "index.js"
    details = {
        EVERYTHING: version,
        TS_SDK: npm_version(workdir, TS_SDK, within=EVERYTHING) or "?",
        "zod": npm_version(workdir, "zod", within=EVERYTHING) or "?",
        "node": run(["node", "--version"], what="node --version").strip(),
    }
    return Installed(version, ["node", str(entry), "stdio"], details)


TARGETS: list[Target] = [
    Target(
        "ts-sdk-old",
        "ts-sdk",
        f"{TS_SDK} 1.20.2, McpServer + zod (fixture server)",
        _ts_sdk("1.20.2"),
        FIXTURE_SERVER_PLAN,
        envelope=True,
    ),
    Target(
        "ts-sdk-new",
        "ts-sdk",
        f"{TS_SDK} newest release (>= 1.21), McpServer + zod",
        _ts_sdk("latest", minimum="1.21.0"),
        FIXTURE_SERVER_PLAN,
    ),
    Target(
        "py-sdk-old",
        "py-sdk",
        "mcp 1.9.4 (Python), FastMCP (fixture server); pydantic held below 2.12, "
        "which mcp 1.9.4 cannot import with",
        # mcp 1.9.4 predates pydantic 2.12 and fails to import with it
        _py_sdk(["mcp==1.9.4", "pydantic<2.12"], upgrade=False),
        FIXTURE_SERVER_PLAN,
    ),
    Target(
        "py-sdk-new",
        "py-sdk",
        "mcp newest release (Python), FastMCP / MCPServer",
        _py_sdk(["mcp"], upgrade=True),
        FIXTURE_SERVER_PLAN,
    ),
    Target(
        "py-lowlevel",
        "py-lowlevel",
        "mcp 1.30.0 (Python, last 1.x), low-level Server and its call_tool decorator, which "
        "validates the arguments with python-jsonschema; no tools/list in the plan",
        _py_sdk(
            ["mcp==1.30.0"], upgrade=False, server_file="py_lowlevel_server.py", server_args=["sdk"]
        ),
        PY_LOWLEVEL_PLAN,
    ),
    Target(
        "py-lowlevel-errors",
        "py-lowlevel-errors",
        "mcp 1.9.4 (Python, before the SDK validated arguments), low-level Server with its own "
        "tools/call handler that validates with python-jsonschema and raises McpError "
        "(-32602 with the SDK's wording, -32603 for a failing backend); no tools/list in the plan",
        _py_sdk(
            ["mcp==1.9.4", "pydantic<2.12", "jsonschema"],
            upgrade=False,
            server_file="py_lowlevel_server.py",
            server_args=["errors"],
        ),
        PY_LOWLEVEL_PLAN,
    ),
    Target(
        "ts-sdk-session",
        "ts-sdk-session",
        f"{TS_SDK} 1.20.2, McpServer + zod: output-schema and disabled-tool errors "
        "(fixture ts_session_server.mjs); no tools/list in the plan",
        _ts_sdk("1.20.2", server_file="ts_session_server.mjs"),
        TS_SESSION_PLAN,
    ),
    Target(
        "server-everything",
        "server-everything",
        f"{EVERYTHING} {EVERYTHING_VERSION}, low-level Server, its own tools",
        _everything,
        EVERYTHING_PLAN,
    ),
]


# --------------------------------------------------------------------------------------------
# Recording


@dataclass
class WireLine:
    order: int  # monotonic nanoseconds when the line was written or read
    when: dt.datetime
    direction: str  # "client->server" | "server->client"
    raw: bytes  # without the trailing LF


def utc_now() -> dt.datetime:
    return dt.datetime.now(dt.timezone.utc)


@dataclass
class Session:
    """A server process over stdio and the lines that went through its pipes."""

    name: str
    command: list[str]
    timeout: float
    lines: list[WireLine] = field(default_factory=list)
    _inbox: queue.Queue[WireLine | None] = field(default_factory=queue.Queue)
    _stderr: list[str] = field(default_factory=list)
    _proc: subprocess.Popen[bytes] | None = None
    _threads: list[threading.Thread] = field(default_factory=list)

    def start(self) -> None:
        log(f"  starting: {' '.join(self.command)}")
        try:
            self._proc = subprocess.Popen(
                self.command,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                cwd=WORK,
            )
        except OSError as exc:
            raise RecordingError(f"{self.name}: the server did not start: {exc}") from exc
        for target in (self._read_stdout, self._read_stderr):
            thread = threading.Thread(target=target, daemon=True)
            thread.start()
            self._threads.append(thread)

    def _read_stdout(self) -> None:
        assert self._proc is not None and self._proc.stdout is not None
        for line in iter(self._proc.stdout.readline, b""):
            stamp = WireLine(time.monotonic_ns(), utc_now(), "server->client", line)
            self._inbox.put(stamp)
        self._inbox.put(None)  # end of stream

    def _read_stderr(self) -> None:
        assert self._proc is not None and self._proc.stderr is not None
        for line in iter(self._proc.stderr.readline, b""):
            self._stderr.append(line.decode("utf-8", "replace"))

    def stderr_tail(self, lines: int = 15) -> str:
        tail = "".join(self._stderr[-lines:]).rstrip()
        return f"\n  server stderr (last lines):\n{tail}" if tail else ""

    def send(self, message: dict[str, Any]) -> None:
        assert self._proc is not None and self._proc.stdin is not None
        raw = json.dumps(message, separators=(",", ":"), ensure_ascii=False).encode("utf-8")
        self.lines.append(WireLine(time.monotonic_ns(), utc_now(), "client->server", raw))
        try:
            self._proc.stdin.write(raw + b"\n")
            self._proc.stdin.flush()
        except (BrokenPipeError, OSError) as exc:
            raise RecordingError(
                f"{self.name}: could not write to the server ({exc}); it exited with "
                f"{self._proc.poll()}{self.stderr_tail()}"
            ) from exc

    def _take(self, item: WireLine) -> dict[str, Any]:
        """Record a line the server wrote; return it parsed."""
        raw = item.raw.removesuffix(b"\n")
        if raw.endswith(b"\r"):
            raise RecordingError(f"{self.name}: the server wrote a CRLF line: {raw[:200]!r}")
        item.raw = raw
        self.lines.append(item)
        try:
            parsed = json.loads(raw)
        except ValueError as exc:
            raise RecordingError(
                f"{self.name}: the server wrote a line that is not JSON: {raw[:200]!r}"
            ) from exc
        if not isinstance(parsed, dict):
            raise RecordingError(f"{self.name}: the server wrote a non-object line: {raw[:200]!r}")
        return parsed

    def await_answer(self, request_id: int | str, what: str) -> dict[str, Any]:
        """Read server lines until the response to `request_id`; record everything read."""
        deadline = time.monotonic() + self.timeout
        while True:
            left = deadline - time.monotonic()
            try:
                item = self._inbox.get(timeout=max(left, 0.0))
            except queue.Empty:
                raise RecordingError(
                    f"{self.name}: no answer to {what} (id {request_id!r}) within "
                    f"{self.timeout:g} s{self.stderr_tail()}"
                ) from None
            if item is None:
                assert self._proc is not None
                code = self._proc.wait(timeout=5)
                for thread in self._threads:  # let the stderr reader catch up
                    thread.join(timeout=2)
                raise RecordingError(
                    f"{self.name}: the server exited (code {code}) before answering {what} "
                    f"(id {request_id!r}){self.stderr_tail()}"
                )
            message = self._take(item)
            if "method" in message:
                if "id" in message:  # a request from the server: we declared no capabilities
                    self.send(
                        {
                            "jsonrpc": "2.0",
                            "id": message["id"],
                            "error": {"code": -32601, "message": "Method not found"},
                        }
                    )
                continue  # notifications are recorded and otherwise ignored
            answer_id = message.get("id")
            if answer_id == request_id and type(answer_id) is type(request_id):
                return message
            if answer_id is None:  # an error the server could not tie to a request
                return message
            log(f"  note: unexpected response id {answer_id!r} while waiting for {request_id!r}")

    def stop(self) -> None:
        """Close stdin, give the server a moment to exit, collect what it still wrote."""
        proc = self._proc
        if proc is None:
            return
        with contextlib.suppress(OSError):
            assert proc.stdin is not None
            proc.stdin.close()
        try:
            proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            proc.terminate()
            try:
                proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
        for thread in self._threads:
            thread.join(timeout=5)
        while True:
            try:
                item = self._inbox.get_nowait()
            except queue.Empty:
                break
            if item is not None:
                self._take(item)
        self.lines.sort(key=lambda line: line.order)


def summarize(answer: dict[str, Any] | None) -> dict[str, Any]:
    """A short, factual description of a response for the manifest and the README."""
    if answer is None:
        return {"kind": "none"}
    if "error" in answer:
        error = answer["error"] if isinstance(answer["error"], dict) else {}
        return {
            "kind": "error",
            "code": error.get("code"),
            "message_start": squeeze(str(error.get("message", ""))),
        }
    result = answer.get("result")
    if not isinstance(result, dict):
        return {"kind": "result"}
    text = ""
    for block in result.get("content") or []:
        if isinstance(block, dict) and block.get("type") == "text":
            text = str(block.get("text", ""))
            break
    summary: dict[str, Any] = {"kind": "result"}
    if isinstance(result.get("tools"), list):
        summary["tools"] = [t.get("name") for t in result["tools"] if isinstance(t, dict)]
    if not result:
        summary["empty"] = True
    if "content" in result:
        summary["isError"] = bool(result.get("isError", False))
        summary["text_start"] = squeeze(text)
    if "structuredContent" in result:
        summary["structuredContent"] = True
    return summary


def record(target: Target, installed: Installed, timeout: float) -> dict[str, Any]:
    name = f"{target.prefix}-{installed.version}"
    session = Session(name, installed.command, timeout)
    started = utc_now()
    session.start()
    calls: list[dict[str, Any]] = []
    try:
        for step in target.plan:
            session.send(step.message())
            if step.id is None:
                continue
            what = step.method
            if step.method == "tools/call" and isinstance(step.params, dict):
                what = f"tools/call {step.params.get('name', '(no name)')!r}"
            answer = session.await_answer(step.id, what)
            entry = describe(step, answer)
            calls.append(entry)
            log(f"  id {step.id!r:>9} {what:<32} -> {short_answer(entry['answer'])}")
    finally:
        session.stop()
    write_recording(name, session.lines, envelope=target.envelope)
    init = next((c for c in calls if c["method"] == "initialize"), None)
    from_server = [
        json.loads(line.raw) for line in session.lines if line.direction != "client->server"
    ]
    unsolicited = [str(message["method"]) for message in from_server if "method" in message]
    return {
        "target": target.key,
        "file": f"{name}.jsonl",
        "envelope": f"{name}.envelope.jsonl" if target.envelope else None,
        "summary": target.summary,
        "versions": installed.details,
        "recorded_at": started.strftime("%Y-%m-%dT%H:%M:%SZ"),
        "protocol_version": init["answer"].get("protocolVersion") if init else None,
        "lines": len(session.lines),
        "server_initiated": unsolicited,
        "calls": calls,
    }


def describe(step: Step, answer: dict[str, Any]) -> dict[str, Any]:
    entry: dict[str, Any] = {"id": step.id, "method": step.method}
    if step.method == "tools/call" and isinstance(step.params, dict) and "name" in step.params:
        entry["tool"] = step.params["name"]
    entry["category"] = step.category
    entry["exercises"] = step.exercises
    if step.method == "initialize" and isinstance(answer.get("result"), dict):
        entry["answer"] = {
            "kind": "result",
            "protocolVersion": answer["result"].get("protocolVersion"),
        }
    else:
        entry["answer"] = summarize(answer)
    return entry


def squeeze(text: str, limit: int = 160) -> str:
    """`text` with each run of whitespace made one space, cut to `limit` characters."""
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 3] + "..."


def short_answer(summary: dict[str, Any]) -> str:
    if summary.get("kind") == "error":
        return f"error {summary.get('code')}: {squeeze(summary['message_start'], 60)}"
    if "isError" in summary:
        flag = "isError:true" if summary["isError"] else "ok"
        return f"result {flag}: {squeeze(summary['text_start'], 60)}"
    if "protocolVersion" in summary:
        return f"result protocolVersion {summary['protocolVersion']}"
    return "result"


def write_recording(name: str, lines: list[WireLine], *, envelope: bool) -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    wire = OUT / f"{name}.jsonl"
    wire.write_bytes(b"".join(line.raw + b"\n" for line in lines))
    log(f"  wrote {wire.relative_to(REPO)} ({len(lines)} lines)")
    if envelope:
        path = OUT / f"{name}.envelope.jsonl"
        rows = []
        for line in lines:
            stamp = line.when.strftime("%Y-%m-%dT%H:%M:%S.%fZ")
            row = {"ts": stamp, "direction": line.direction, "message": json.loads(line.raw)}
            rows.append(json.dumps(row, ensure_ascii=False) + "\n")
        path.write_text("".join(rows), encoding="utf-8", newline="\n")
        log(f"  wrote {path.relative_to(REPO)} ({len(rows)} lines)")


# --------------------------------------------------------------------------------------------
# Manifest and README


def load_manifest() -> dict[str, Any]:
    if MANIFEST.is_file():
        data = json.loads(MANIFEST.read_text(encoding="utf-8"))
        if isinstance(data, dict) and isinstance(data.get("recordings"), list):
            return data
    return {"recordings": []}


def save_manifest(recordings: list[dict[str, Any]]) -> None:
    order = {target.key: i for i, target in enumerate(TARGETS)}
    recordings.sort(key=lambda entry: order.get(entry["target"], len(order)))
    data = {
        "about": "Written by scripts/record_fixtures.py; see README.md beside this file.",
        "recordings": recordings,
    }
    MANIFEST.write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    log(f"wrote {MANIFEST.relative_to(REPO)}")


def cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def answer_cell(summary: dict[str, Any]) -> str:
    if summary.get("kind") == "error":
        return f"error `{summary.get('code')}`: {cell(squeeze(summary['message_start'], 90))}"
    if "protocolVersion" in summary:
        return f"result, protocolVersion `{summary['protocolVersion']}`"
    if "isError" in summary:
        text = cell(squeeze(summary["text_start"], 90))
        structured = " + structuredContent" if summary.get("structuredContent") else ""
        if summary["isError"]:
            return f"result **isError: true**: {text}"
        return f"result{structured}: {text}"
    if "tools" in summary:
        return f"result, tools: {cell(', '.join(map(str, summary['tools'])))}"
    if summary.get("empty"):
        return "result `{}`"
    return "result" if summary.get("kind") == "result" else "no answer"


def render_readme(recordings: list[dict[str, Any]]) -> str:
    out = [
        "# Recorded fixtures",
        "",
        "Real JSON-RPC traffic between a scripted client and real MCP servers over stdio,",
        "recorded by `python scripts/record_fixtures.py` (re-run one file with",
        "`--only TARGET`; `--list` shows the targets). Do not edit these files by hand:",
        "re-record them.",
        "",
        "- `*.jsonl` (wire form): one JSON-RPC message per line, exactly the bytes each side",
        "  wrote, in order, LF line endings. Client lines are compact JSON; server lines are",
        "  whatever the SDK wrote.",
        "- `*.envelope.jsonl` (envelope form): the same recording as",
        '  `{"ts": "<ISO 8601 UTC>", "direction": "client->server" | "server->client",',
        '  "message": <the message>}` per line.',
        "- `manifest.json`: the same facts as the tables below, for tests to read; each call",
        "  has a `category`: setup, valid, invalid-arguments, extra-property, tool-error,",
        "  output-error, disabled-tool, unknown-tool, malformed or unknown-method.",
        "",
        'The tables are generated from the recordings: "answer" is what the server actually',
        "sent: the JSON-RPC error code and the start of its message, or the tool result",
        "(`isError`, and the start of its first text block); runs of whitespace are shown as",
        "one space.",
        "",
    ]
    for rec in recordings:
        versions = ", ".join(f"{k} {v}" for k, v in rec["versions"].items())
        out += [f"## `{rec['file']}`", ""]
        out.append(f"- What: {rec['summary']}.")
        out.append(f"- Versions: {versions}.")
        if rec.get("envelope"):
            out.append(f"- Envelope form of the same recording: `{rec['envelope']}`.")
        out.append(
            f"- Recorded: {rec['recorded_at'][:10]} with `python scripts/record_fixtures.py"
            f" --only {rec['target']}`; {rec['lines']} lines."
        )
        out.append(
            f"- initialize asked for `{REQUESTED_PROTOCOL}`; the server answered "
            f"`{rec['protocol_version']}`."
        )
        unsolicited = rec.get("server_initiated") or []
        if unsolicited:
            names = ", ".join(f"`{name}`" for name in unsolicited)
            out.append(f"- Sent by the server on its own, between the answers: {names}.")
        out += ["", "| id | request | exercises | answer |", "| --- | --- | --- | --- |"]
        for call in rec["calls"]:
            request = call["method"]
            if "tool" in call:
                request += f" `{json.dumps(call['tool'])}`"
            out.append(
                f"| `{json.dumps(call['id'])}` | {cell(request)} | "
                f"{cell(call['exercises'])} | {answer_cell(call['answer'])} |"
            )
        out.append("")
    return "\n".join(out)


# --------------------------------------------------------------------------------------------
# Command line


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    keys = [target.key for target in TARGETS]
    parser = argparse.ArgumentParser(
        description="Record real MCP stdio traffic from real SDK releases into "
        "tests/fixtures/recorded/.",
    )
    parser.add_argument(
        "--only",
        action="append",
        choices=keys,
        metavar="NAME",
        help=f"record only this target (repeatable): {', '.join(keys)}",
    )
    parser.add_argument(
        "--no-install",
        action="store_true",
        help="reuse what .fixtures-work/ holds; ask no registry",
    )
    parser.add_argument(
        "--timeout",
        type=float,
        default=DEFAULT_TIMEOUT,
        help=f"seconds to wait for each answer (default {DEFAULT_TIMEOUT:g})",
    )
    parser.add_argument(
        "--work",
        type=Path,
        default=WORK,
        help="the folder for the installs (default: .fixtures-work/ in the repository)",
    )
    parser.add_argument("--list", action="store_true", help="list the targets and exit")
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    if args.list:
        for target in TARGETS:
            log(f"{target.key:<18} {target.summary}")
        return 0
    selected = [t for t in TARGETS if not args.only or t.key in args.only]
    for tool in ("node", "npm"):
        if shutil.which(tool) is None and any(not t.prefix.startswith("py-") for t in selected):
            log_error(f"{tool} is not on PATH")
            return 1
    global WORK
    WORK = args.work.resolve()
    WORK.mkdir(parents=True, exist_ok=True)
    recordings = {entry["target"]: entry for entry in load_manifest()["recordings"]}
    failures: list[str] = []
    for target in selected:
        log(f"== {target.key}: {target.summary}")
        try:
            installed = target.install(target.workdir, not args.no_install)
            log(f"  installed: {', '.join(f'{k} {v}' for k, v in installed.details.items())}")
            entry = record(target, installed, args.timeout)
        except RecordingError as exc:
            log_error(f"{target.key}: {exc}")
            failures.append(target.key)
            continue
        previous = recordings.get(target.key)
        if previous:  # a new version replaces the old file
            for key in ("file", "envelope"):
                old = previous.get(key)
                if old and old not in (entry["file"], entry["envelope"]):
                    (OUT / old).unlink(missing_ok=True)
                    log(f"  removed the previous {old}")
        recordings[target.key] = entry
    entries = list(recordings.values())
    save_manifest(entries)
    README.write_text(render_readme(entries), encoding="utf-8", newline="\n")
    log(f"wrote {README.relative_to(REPO)}")
    if failures:
        log_error(f"not recorded: {', '.join(failures)}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
