"""HAR 1.2 of the traffic an HTTP proxy passed, written when it stops.

A HAR file is one JSON document, so it cannot grow line by line like the
envelope recording: the entries are kept (bodies as the upstream sent them)
and written once, into a temporary file beside the target that then replaces
it, when the proxy stops (Ctrl-C included). ``mcp-transcripts check`` reads
the result like any HAR a browser saved.

Credential headers (``Authorization``, cookies, API keys) are left out unless
``--record-secrets`` is given.
"""

from __future__ import annotations

import datetime as dt
import json
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from migrator import __version__
from migrator.errors import UsageError, WriteError
from migrator.fix.writer import write_file
from migrator.live.relay import Log

if TYPE_CHECKING:
    import httpx
    from starlette.requests import Request


def credential_header(name: str) -> bool:
    """Headers that carry secrets: never recorded without ``--record-secrets``."""
    name = name.lower()
    return name in {"authorization", "proxy-authorization", "cookie", "set-cookie"} or any(
        part in name for part in ("api-key", "apikey", "token", "secret", "password", "auth")
    )


def _headers(pairs: list[tuple[str, str]], secrets: bool) -> list[dict[str, str]]:
    return [{"name": k, "value": v} for k, v in pairs if secrets or not credential_header(k)]


class HarEntry:
    """One exchange; the response body grows as it streams."""

    def __init__(self, entry: dict[str, Any], started: float) -> None:
        self.entry = entry
        self.started = started
        self.chunks: list[bytes] = []
        self.done = False

    def append(self, data: bytes) -> None:
        self.chunks.append(data)

    def finish(self) -> None:
        if self.done:
            return
        self.done = True
        text = b"".join(self.chunks)
        self.chunks = [text]
        content = self.entry["response"]["content"]
        content["size"] = len(text)
        content["text"] = text.decode("utf-8", "replace")
        self.entry["response"]["bodySize"] = len(text)
        elapsed = max(0.0, (time.time() - self.started) * 1000)
        self.entry["time"] = elapsed
        self.entry["timings"]["receive"] = elapsed


class HarRecorder:
    """Collects entries and saves them as HAR 1.2.

    Args:
        path: the HAR file (created or replaced when saved).
        secrets: keep credential headers.
    """

    def __init__(self, path: str, *, secrets: bool) -> None:
        self.path = Path(path)
        self.secrets = secrets
        self.entries: list[HarEntry] = []
        if not self.path.parent.is_dir():
            raise UsageError("cannot write the HAR file: its folder does not exist", path=path)

    def begin(
        self, request: Request, body: bytes, upstream: httpx.Response, started: float
    ) -> HarEntry:
        """A new entry for a request and the head of its answer."""
        stamp = dt.datetime.fromtimestamp(started, dt.timezone.utc)
        request_part: dict[str, Any] = {
            "method": request.method,
            "url": str(upstream.request.url),
            "httpVersion": "HTTP/1.1",
            "cookies": [],
            "headers": _headers(list(upstream.request.headers.items()), self.secrets),
            "queryString": [{"name": k, "value": v} for k, v in request.query_params.multi_items()],
            "headersSize": -1,
            "bodySize": len(body),
        }
        if body:
            request_part["postData"] = {
                "mimeType": request.headers.get("content-type", ""),
                "text": body.decode("utf-8", "replace"),
            }
        entry = {
            "startedDateTime": stamp.isoformat().replace("+00:00", "Z"),
            "time": 0,
            "request": request_part,
            "response": {
                "status": upstream.status_code,
                "statusText": upstream.reason_phrase,
                "httpVersion": upstream.http_version,
                "cookies": [],
                "headers": _headers(list(upstream.headers.items()), self.secrets),
                "content": {"size": 0, "mimeType": upstream.headers.get("content-type", "")},
                "redirectURL": "",
                "headersSize": -1,
                "bodySize": 0,
            },
            "cache": {},
            "timings": {"send": 0, "wait": (time.time() - started) * 1000, "receive": 0},
        }
        har_entry = HarEntry(entry, started)
        self.entries.append(har_entry)
        return har_entry

    def document(self) -> dict[str, Any]:
        for entry in self.entries:
            entry.finish()  # a stream still open when we stopped ends here
        return {
            "log": {
                "version": "1.2",
                "creator": {"name": "mcp-transcripts", "version": __version__},
                "entries": [e.entry for e in self.entries],
            }
        }

    def save(self, log: Log) -> None:
        """Write the file (atomically: a temporary file beside it, then a rename)."""
        data = json.dumps(self.document(), ensure_ascii=False, indent=1).encode("utf-8")
        try:
            write_file(self.path, [data])
        except WriteError as exc:
            log(f"{self.path}: cannot write the HAR file ({exc.message})")
            return
        log(f"{self.path}: {len(self.entries)} HTTP exchanges written as HAR 1.2")
