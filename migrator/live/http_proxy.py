"""``record`` and ``proxy`` in front of a Streamable HTTP server.

The client talks to a local endpoint (starlette, served by uvicorn) on the
upstream's path; every request goes on to the upstream (httpx) with the
headers the protocol needs, and every answer comes back:

* ``POST`` answered with ``application/json``: one message, judged and, when a
  rule fixed it, rewritten; ``Content-Length`` is recomputed only then.
* ``POST`` or ``GET`` answered with ``text/event-stream``: each event is read
  (httpx-sse), judged and written on as soon as it arrived, never buffered
  whole. Event ids pass through, so ``Last-Event-ID`` resumption works.
* ``DELETE``, ``202 Accepted`` and anything else: passed through unchanged.

Each MCP session (``Mcp-Session-Id``, assigned in the answer to
``initialize``) gets its own :class:`~migrator.live.fixer.LiveFixer`, so the
session model sees each session's handshake, catalog and requests in order.
A stateless server (no session id) shares one.

Bodies that are not one JSON-RPC message (not JSON, a batch, an oversized
body) are forwarded byte for byte and noted once in the log. An upstream that
cannot be reached gets the client a 502, one that does not answer in time a
504, both with a JSON-RPC error carrying the request's id.

The HTTP stack (httpx, httpx-sse, starlette, uvicorn) is the optional
``http`` extra; :func:`serve` says how to install it when it is missing.
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import json
import signal
import socket
import sys
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, replace
from types import FrameType, ModuleType
from typing import TYPE_CHECKING, Any, Protocol, TextIO
from urllib.parse import urlsplit

from migrator.engine.pipeline import Options
from migrator.errors import UsageError
from migrator.live.fixer import LiveFixer
from migrator.live.recording import Recorder, is_one_json_value
from migrator.live.relay import DEFAULT_LISTEN, DEFAULT_TIMEOUT, Log
from migrator.live.sse import encode_event
from migrator.model.units import Direction

if TYPE_CHECKING:
    import httpx
    from starlette.requests import Request
    from starlette.responses import Response

C2S, S2C = Direction.CLIENT_TO_SERVER, Direction.SERVER_TO_CLIENT


class ExchangeRecord(Protocol):
    """One HTTP exchange as an observer keeps it: the answer's bytes as they stream."""

    def append(self, data: bytes) -> None: ...
    def finish(self) -> None: ...


class ExchangeObserver(Protocol):
    """Sees each HTTP exchange as it passed, before any rewrite (the HAR recorder is one).

    The proxy core knows only this protocol; :func:`serve` chooses the observers.
    """

    def begin(
        self, request: Request, body: bytes, upstream: httpx.Response, started: float
    ) -> ExchangeRecord: ...


INSTALL_HINT = "pip install 'mcp-transcripts[http]'"
MAX_MESSAGE_BYTES = 32 << 20
GRACEFUL_SHUTDOWN_SECONDS = 1

# Headers of one hop only, and the ones the HTTP libraries set themselves.
HOP_BY_HOP = frozenset(
    {
        "connection",
        "keep-alive",
        "proxy-connection",
        "transfer-encoding",
        "te",
        "trailer",
        "upgrade",
        "host",
        "content-length",
    }
)
FORWARDED_METHODS = ["GET", "POST", "DELETE", "PUT", "PATCH", "OPTIONS"]  # HEAD comes with GET
JSON_RPC_SERVER_ERROR = -32000  # implementation-defined server error (JSON-RPC 2.0)


def http_stack() -> tuple[ModuleType, ModuleType, ModuleType, ModuleType]:
    """``(httpx, httpx_sse, starlette, uvicorn)``, or a usage error saying how to get them.

    Raises:
        UsageError: one of them is not installed.
    """
    try:
        import httpx
        import httpx_sse
        import starlette
        import uvicorn
    except ImportError as exc:
        missing = exc.name or "a package"
        raise UsageError(
            f"--url needs the HTTP extra ({missing} is not installed): {INSTALL_HINT}"
        ) from exc
    return httpx, httpx_sse, starlette, uvicorn


@dataclass(frozen=True)
class Listen:
    """Where the local endpoint listens."""

    host: str
    port: int

    @property
    def loopback(self) -> bool:
        if self.host == "localhost":
            return True
        try:
            return ipaddress.ip_address(self.host).is_loopback
        except ValueError:
            return False


def parse_listen(text: str) -> Listen:
    """``HOST:PORT`` (``[::1]:9100`` for IPv6); port 0 picks a free one.

    Raises:
        UsageError: not HOST:PORT.
    """
    host, sep, port = text.rpartition(":")
    if not sep or not host or not port.isdigit() or int(port) > 65535:
        raise UsageError(f"--listen wants HOST:PORT, e.g. 127.0.0.1:9100 (got {text!r})")
    if host.startswith("[") and host.endswith("]"):
        host = host[1:-1]
    return Listen(host, int(port))


def parse_upstream(url: str) -> str:
    """The upstream URL, checked: http or https, with a host.

    Raises:
        UsageError: anything else.
    """
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise UsageError(f"--url wants an http:// or https:// URL (got {url!r})")
    return url


def upstream_path(url: str) -> str:
    """The path the local endpoint serves: the upstream's (``/`` when it has none)."""
    return urlsplit(url).path or "/"


@dataclass
class HttpSettings:
    """What ``proxy --url`` and ``record --url`` were asked to do.

    Args:
        upstream: the server's URL.
        listen: ``HOST:PORT`` to listen on.
        options: engine options when answers are fixed (``proxy``); ``None`` passes
            everything unchanged (``record``).
        record: envelope JSONL of the original traffic goes here.
        har: HAR 1.2 of the original traffic goes here (written when the proxy stops).
        record_secrets: keep credential headers in the HAR.
        quiet: do not log each finding.
        timeout: seconds to wait for the upstream's answer to begin.
        max_message_bytes: bodies and events larger than this are forwarded unjudged.
    """

    upstream: str
    listen: str = DEFAULT_LISTEN
    options: Options | None = None
    record: str | None = None
    har: str | None = None
    record_secrets: bool = False
    quiet: bool = False
    timeout: float = DEFAULT_TIMEOUT
    max_message_bytes: int = MAX_MESSAGE_BYTES


class Sessions:
    """One :class:`LiveFixer` per MCP session; totals kept for the closing summary."""

    def __init__(self, make: Callable[[str | None], LiveFixer]) -> None:
        self._make = make
        self._by_id: dict[str, LiveFixer] = {}
        self._stateless: LiveFixer | None = None
        self._ended = [0, 0, 0, 0]  # messages, findings, rewritten, refused

    def for_request(
        self, session_id: str | None, body: bytes, protocol_version: str | None = None
    ) -> LiveFixer:
        """The fixer for a request: its session's, a new one for ``initialize``.

        A session met without its handshake (begun before the proxy started, or a
        stateless server) takes its protocol version from the request's
        ``MCP-Protocol-Version`` header.
        """
        if session_id is not None:
            fixer = self._by_id.get(session_id)
            if fixer is None:
                fixer = self._by_id[session_id] = self._make(protocol_version)
            return fixer
        if b'"initialize"' in body:
            return self._make(None)  # bound to its id when the answer names one
        if self._stateless is None:
            self._stateless = self._make(protocol_version)
        return self._stateless

    def answered(self, fixer: LiveFixer, session_id: str | None) -> None:
        """Remember the session the server assigned (or that it has none)."""
        if session_id is not None:
            self._by_id.setdefault(session_id, fixer)
        elif fixer not in self._by_id.values() and self._stateless is None:
            self._stateless = fixer

    def end(self, session_id: str | None) -> None:
        """Forget an ended session (its counts stay in the totals)."""
        fixer = self._by_id.pop(session_id, None) if session_id else None
        if fixer is not None:
            self._add(fixer)

    def _add(self, fixer: LiveFixer) -> None:
        for i, n in enumerate((fixer.lines, fixer.findings, fixer.rewritten, fixer.refused)):
            self._ended[i] += n

    def summary(self) -> str:
        for fixer in {id(f): f for f in [*self._by_id.values(), self._stateless] if f}.values():
            self._add(fixer)
        messages, findings, rewritten, refused = self._ended
        line = (
            f"{_count(messages, 'message')}, {_count(findings, 'finding')}, {rewritten} rewritten"
        )
        if refused:
            line += f", {_count(refused, 'rewrite')} refused (failed validation)"
        return line


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def request_id(body: bytes) -> Any:
    """The id of the JSON-RPC request in ``body``, or ``None``."""
    try:
        message = json.loads(body)
    except (ValueError, UnicodeDecodeError):
        return None
    return message.get("id") if isinstance(message, dict) else None


def passed_headers(
    upstream: httpx.Response, length: str | None = None
) -> list[tuple[bytes, bytes]]:
    """The upstream's response headers for the client, repeated ones (``Set-Cookie``) kept.

    Headers of one hop are left to our own server; ``Content-Length`` is ``length``
    when given (the body's, as it is sent on).
    """
    kept = [
        (name, value)
        for name, value in upstream.headers.raw
        if name.decode("latin-1").lower() not in HOP_BY_HOP
    ]
    if length is not None:
        kept.append((b"content-length", length.encode("latin-1")))
    return kept


class HttpProxy:
    """The local endpoint: forwards, judges, rewrites and records.

    Args:
        settings: what to do.
        log: where diagnostics go.
        client: the upstream's HTTP client (made by :func:`serve`).
    """

    def __init__(
        self,
        settings: HttpSettings,
        log: Log,
        client: httpx.AsyncClient,
        recorder: Recorder | None = None,
        har: ExchangeObserver | None = None,
    ) -> None:
        self.settings = settings
        self.log = log
        self.client = client
        self.recorder = recorder
        self.har = har
        self.upstream = settings.upstream
        self._noted: set[str] = set()
        self._streams: set[httpx.Response] = set()  # event streams still open
        self.closing = False
        options = settings.options
        self.sessions: Sessions | None = None
        if options is not None:

            def make(version: str | None) -> LiveFixer:
                if version and options.assume_version is None:
                    return LiveFixer(
                        "<proxy>",
                        replace(options, assume_version=version),
                        log,
                        quiet=settings.quiet,
                    )
                return LiveFixer("<proxy>", options, log, quiet=settings.quiet)

            self.sessions = Sessions(make)

    def note_once(self, kind: str, what: str) -> None:
        """Log the first body of a kind we pass over unjudged."""
        if kind not in self._noted:
            self._noted.add(kind)
            self.log(f"{what}; forwarded byte for byte (noted once)")

    def observe(
        self, data: bytes, direction: Direction, fixer: LiveFixer | None, meta: dict[str, Any]
    ) -> bytes:
        """Record one body or event and return what to forward (a rewrite or the same bytes)."""
        if self.recorder is not None:
            self.recorder.write(data, direction, meta)
        if fixer is None:
            return data
        if len(data) > self.settings.max_message_bytes:
            self.note_once(
                "oversized",
                f"a message over {self.settings.max_message_bytes} bytes was not judged",
            )
            return data
        if not is_one_json_value(data):
            self.note_once("not-json", f"a {direction.value} body that is not one JSON value")
            return data
        if data.lstrip()[:1] == b"[":
            self.note_once("batch", "a JSON-RPC batch was not judged (batches are not rewritten)")
            return data
        return fixer(data, direction)

    async def handle(self, request: Request) -> Response:
        """One HTTP exchange, client -> upstream -> client."""
        import httpx
        from starlette.background import BackgroundTask
        from starlette.responses import Response, StreamingResponse

        started = time.time()
        body = await request.body()
        session_id = request.headers.get("mcp-session-id")
        fixer = None
        if self.sessions is not None:
            version = request.headers.get("mcp-protocol-version")
            fixer = self.sessions.for_request(session_id, body, version)
        meta: dict[str, Any] = {"method": request.method}
        if session_id:
            meta["session"] = session_id
        if body:
            self.observe(body, C2S, fixer, meta)  # the client's side is never changed
        headers = [(k, v) for k, v in request.headers.items() if k.lower() not in HOP_BY_HOP]
        headers = [(k, v) for k, v in headers if k.lower() != "accept-encoding"]
        headers.append(
            ("accept-encoding", "identity")
        )  # bodies we can read and forward as they are
        url = self.upstream + (f"?{request.url.query}" if request.url.query else "")
        outgoing = self.client.build_request(request.method, url, headers=headers, content=body)
        try:
            upstream = await asyncio.wait_for(
                self.client.send(outgoing, stream=True), self.settings.timeout
            )
        except (asyncio.TimeoutError, httpx.TimeoutException):
            return self.failure(
                504, body, f"the upstream did not answer within {self.settings.timeout:g}s"
            )
        except httpx.HTTPError as exc:
            return self.failure(
                502, body, f"the upstream cannot be reached ({type(exc).__name__}: {exc})"
            )

        answered_session = upstream.headers.get("mcp-session-id") or session_id
        if self.sessions is not None and fixer is not None:
            self.sessions.answered(fixer, upstream.headers.get("mcp-session-id") or session_id)
            if request.method == "DELETE" and upstream.status_code < 300:
                self.sessions.end(session_id)
        out_meta: dict[str, Any] = {"method": request.method, "status": upstream.status_code}
        if answered_session:
            out_meta["session"] = answered_session
        media = upstream.headers.get("content-type", "").split(";")[0].strip().lower()
        har_entry = self.har.begin(request, body, upstream, started) if self.har else None

        if media == "text/event-stream":
            events = self.events(upstream, fixer, out_meta, har_entry)
            response: Response = StreamingResponse(
                events, status_code=upstream.status_code, background=BackgroundTask(upstream.aclose)
            )
            response.raw_headers = passed_headers(upstream)
            return response
        length = upstream.headers.get("content-length")
        if (
            length is not None
            and length.isdigit()
            and int(length) > self.settings.max_message_bytes
        ):
            self.note_once(
                "oversized", f"a body over {self.settings.max_message_bytes} bytes was not judged"
            )
            response = StreamingResponse(
                self.raw(upstream, har_entry),
                status_code=upstream.status_code,
                background=BackgroundTask(upstream.aclose),
            )
            response.raw_headers = passed_headers(upstream, length)
            return response
        try:
            data = await upstream.aread()
        except httpx.HTTPError as exc:
            return self.failure(
                502, body, f"the upstream's answer broke off ({type(exc).__name__}: {exc})"
            )
        finally:
            await upstream.aclose()
        if har_entry is not None:
            har_entry.append(data)
            har_entry.finish()
        out = data
        if data:
            if media == "application/json":
                out = self.observe(data, S2C, fixer, out_meta)
            else:
                self.observe(data, S2C, None, out_meta)
        if out is not data:
            length = str(len(out))  # recomputed for the rewritten body only
        response = Response(out, status_code=upstream.status_code)
        response.raw_headers = passed_headers(upstream, length)
        return response

    async def events(
        self,
        upstream: httpx.Response,
        fixer: LiveFixer | None,
        meta: dict[str, Any],
        har_entry: ExchangeRecord | None,
    ) -> AsyncIterator[bytes]:
        """Each event of an SSE answer, judged and written on as it arrives."""
        import httpx
        from httpx_sse import EventSource

        self._streams.add(upstream)
        try:
            async for event in EventSource(upstream).aiter_sse():
                original = encode_event(event)
                if har_entry is not None:
                    har_entry.append(original)
                if not event.data or event.event not in ("", "message"):
                    yield original
                    continue
                event_meta = {**meta, "event_id": event.id} if event.id else meta
                data = event.data.encode("utf-8")
                out = self.observe(data, S2C, fixer, event_meta)
                yield original if out is data else encode_event(event, out.decode("utf-8"))
        except (httpx.HTTPError, httpx.StreamError) as exc:
            if not self.closing:  # closed by end_streams() otherwise
                self.log(f"the upstream's event stream broke off ({type(exc).__name__}: {exc})")
        finally:
            self._streams.discard(upstream)
            if har_entry is not None:
                har_entry.finish()
            await upstream.aclose()

    async def end_streams(self) -> None:
        """Close the event streams still open, so that their clients see them end."""
        self.closing = True
        for upstream in list(self._streams):
            await upstream.aclose()

    async def raw(
        self, upstream: httpx.Response, har_entry: ExchangeRecord | None
    ) -> AsyncIterator[bytes]:
        """An answer passed on as it comes, chunk by chunk."""
        try:
            async for chunk in upstream.aiter_raw():
                if har_entry is not None:
                    har_entry.append(chunk)
                yield chunk
        finally:
            if har_entry is not None:
                har_entry.finish()
            await upstream.aclose()

    def failure(self, status: int, body: bytes, reason: str) -> Response:
        """A 502 or 504 whose body is a JSON-RPC error for the request."""
        from starlette.responses import JSONResponse

        self.log(reason)
        error = {
            "jsonrpc": "2.0",
            "id": request_id(body),
            "error": {"code": JSON_RPC_SERVER_ERROR, "message": f"mcp-transcripts: {reason}"},
        }
        return JSONResponse(error, status_code=status)


def _interrupt(signum: int, frame: FrameType | None) -> None:
    raise KeyboardInterrupt


def serve(settings: HttpSettings, log: Log, stdout: TextIO) -> int:
    """Listen, print the local URL, and proxy until interrupted; returns the exit code.

    Raises:
        UsageError: the HTTP extra is missing, an argument is wrong, or the
            address cannot be listened on.
    """
    http_stack()
    import httpx
    import uvicorn
    from starlette.applications import Starlette
    from starlette.routing import Route

    from migrator.live.har_recording import HarRecorder

    upstream = parse_upstream(settings.upstream)
    listen = parse_listen(settings.listen)
    if not listen.loopback:
        log(
            f"warning: listening on {listen.host}, reachable from other machines; "
            "anyone who can reach it can use the upstream through it"
        )
    family = socket.AF_INET6 if ":" in listen.host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        # Accepted connections inherit it: without it, a response written as head and body
        # waits ~40 ms for the client's delayed ACK (Nagle), on every exchange.
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        sock.bind((listen.host, listen.port))
        sock.listen(128)
    except OSError as exc:
        sock.close()
        raise UsageError(f"cannot listen on {settings.listen}: {exc.strerror or exc}") from exc
    port = sock.getsockname()[1]
    host = f"[{listen.host}]" if family == socket.AF_INET6 else listen.host
    path = upstream_path(upstream)

    recorder = Recorder.open(settings.record, envelope=True, log=log) if settings.record else None
    har = HarRecorder(settings.har, secrets=settings.record_secrets) if settings.har else None

    async def main() -> None:
        timeout = httpx.Timeout(settings.timeout, read=None)  # event streams may idle for long
        limits = httpx.Limits(max_connections=None, max_keepalive_connections=64)
        # httpx writes a request's head and body apart: without TCP_NODELAY the body
        # waits for the upstream's delayed ACK.
        nodelay = [(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)]
        transport = httpx.AsyncHTTPTransport(limits=limits, socket_options=nodelay)
        async with httpx.AsyncClient(timeout=timeout, transport=transport) as client:
            proxy = HttpProxy(settings, log, client, recorder, har)
            app = Starlette(routes=[Route(path, proxy.handle, methods=FORWARDED_METHODS)])
            config = uvicorn.Config(
                app,
                log_level="warning",
                access_log=False,
                lifespan="off",
                timeout_graceful_shutdown=GRACEFUL_SHUTDOWN_SECONDS,
            )

            class Server(uvicorn.Server):
                async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
                    # An open GET stream would hold the graceful shutdown until its timeout.
                    await proxy.end_streams()
                    await super().shutdown(sockets)

            server = Server(config)
            print(f"http://{host}:{port}{path}", file=stdout, flush=True)
            log(f"forwarding http://{host}:{port}{path} to {upstream}; Ctrl-C stops")
            try:
                await server.serve(sockets=[sock])
            finally:
                if proxy.sessions is not None and not settings.quiet:
                    log(f"proxy: {proxy.sessions.summary()}")

    previous = signal.getsignal(signal.SIGTERM)
    if sys.platform != "win32":
        signal.signal(signal.SIGTERM, _interrupt)  # ends like Ctrl-C: files complete
    try:
        asyncio.run(main())
    except KeyboardInterrupt:
        pass
    finally:
        signal.signal(signal.SIGTERM, previous)
        sock.close()
        if recorder is not None:
            recorder.close()
        if har is not None:
            with contextlib.suppress(UsageError):
                har.save(log)
    return 0
