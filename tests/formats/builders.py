"""Write a transcript in each format from (time, direction, raw message) triples.

The golden inputs of the formats (``tests/golden/*-ts-sdk-1.20.2/``) were written
from the recorded TypeScript SDK transcript with ``python -m tests.formats.builders``
and then annotated by hand (comments, a stderr line); the property tests build
random documents with the same functions.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
RECORDED = ROOT / "tests" / "fixtures" / "recorded"
C2S, S2C = "client->server", "server->client"


@dataclass(frozen=True)
class Sent:
    """One message as it crossed the wire."""

    time: str  # ISO 8601, UTC
    direction: str
    raw: str  # the exact JSON text

    @property
    def message(self) -> Any:
        return json.loads(self.raw)


def recorded(name: str = "ts-sdk-1.20.2") -> list[Sent]:
    """The recorded transcript, with times and directions from its envelope form."""
    wire = (RECORDED / f"{name}.jsonl").read_text().splitlines()
    envelopes = [
        json.loads(line) for line in (RECORDED / f"{name}.envelope.jsonl").read_text().splitlines()
    ]
    return [Sent(e["ts"], e["direction"], raw) for e, raw in zip(envelopes, wire, strict=True)]


def _is_request(sent: Sent) -> bool:
    message = sent.message
    return isinstance(message, dict) and "method" in message and "id" in message


# --- Claude Desktop log ------------------------------------------------------------------


def claude_log(
    sent: Iterable[Sent], server: str = "fixture-ts-server", stderr: str | None = None
) -> str:
    """A Claude Desktop ``mcp-server-<name>.log``: lifecycle lines, then the messages."""
    items = list(sent)
    first = items[0].time[:23] + "Z" if items else "2025-01-01T00:00:00.000Z"
    lines = [
        f"{first} [{server}] [info] Initializing server...",
        f"{first} [{server}] [info] Server started and connected successfully",
    ]
    for index, item in enumerate(items):
        side = "client" if item.direction == C2S else "server"
        lines.append(
            f"{item.time[:23]}Z [{server}] [info] Message from {side}: {item.raw} {{ metadata: undefined }}"
        )
        if stderr is not None and index == 0:
            lines.append(stderr)
    return "\n".join(lines) + "\n"


# --- HAR ---------------------------------------------------------------------------------


def _header(name: str, value: str) -> dict[str, str]:
    return {"name": name, "value": value}


def har(
    sent: Iterable[Sent],
    *,
    url: str = "http://127.0.0.1:3000/mcp",
    session: str = "5f1c1d2e-7a43-4a7e-9a4b-1b2c3d4e5f60",
    stream_ids: frozenset[Any] = frozenset(),
    ensure_ascii: bool = False,
) -> str:
    """A HAR file of one Streamable HTTP session.

    Each client message is a POST. Its answer is ``application/json``, or
    ``text/event-stream`` when the server sent more than one message before the next
    client message or the request id is in ``stream_ids``. Notifications get a 202.
    """
    items = list(sent)
    entries: list[dict[str, Any]] = []
    index = 0
    while index < len(items):
        item = items[index]
        index += 1
        answers: list[Sent] = []
        while index < len(items) and items[index].direction == S2C:
            answers.append(items[index])
            index += 1
        if item.direction == S2C:  # server messages before any client message: a GET stream
            answers.insert(0, item)
            entries.append(_entry(None, answers, url, session, True, item.time))
            continue
        is_init = (
            item.message.get("method") == "initialize" if isinstance(item.message, dict) else False
        )
        stream = len(answers) > 1 or (
            isinstance(item.message, dict) and item.message.get("id") in stream_ids
        )
        entries.append(
            _entry(
                item,
                answers,
                url,
                None if is_init else session,
                stream,
                item.time,
                session if is_init else None,
            )
        )
    document = {
        "log": {
            "version": "1.2",
            "creator": {"name": "mcp-transcripts test builder", "version": "1"},
            "entries": entries,
        }
    }
    return json.dumps(document, indent=2, ensure_ascii=ensure_ascii) + "\n"


def _entry(
    request: Sent | None,
    answers: list[Sent],
    url: str,
    session: str | None,
    stream: bool,
    time: str,
    assigned: str | None = None,
) -> dict[str, Any]:
    headers = [
        _header("Content-Type", "application/json"),
        _header("Accept", "application/json, text/event-stream"),
    ]
    if session is not None:
        headers.append(_header("Mcp-Session-Id", session))
    body = request.raw if request is not None else ""
    http_request: dict[str, Any] = {
        "method": "POST" if request is not None else "GET",
        "url": url,
        "httpVersion": "HTTP/1.1",
        "headers": headers,
        "queryString": [],
        "cookies": [],
        "headersSize": -1,
        "bodySize": len(body.encode()),
    }
    if request is not None:
        http_request["postData"] = {"mimeType": "application/json", "text": body}
    if not answers:
        status, mime, text = 202, "", ""
    elif stream:
        status, mime = 200, "text/event-stream"
        text = "".join(f"event: message\ndata: {a.raw}\n\n" for a in answers)
    else:
        status, mime, text = 200, "application/json", answers[0].raw
    size = len(text.encode())
    response_headers = [_header("Content-Type", mime)] if mime else []
    if mime == "application/json":
        response_headers.append(_header("Content-Length", str(size)))
    if assigned is not None:
        response_headers.append(_header("mcp-session-id", assigned))
    return {
        "startedDateTime": time[:23] + "Z",
        "time": 1.5,
        "request": http_request,
        "response": {
            "status": status,
            "statusText": {200: "OK", 202: "Accepted"}[status],
            "httpVersion": "HTTP/1.1",
            "headers": response_headers,
            "cookies": [],
            "content": {"size": size, "mimeType": mime, "text": text},
            "redirectURL": "",
            "headersSize": -1,
            "bodySize": size,
        },
        "cache": {},
        "timings": {"send": 0.1, "wait": 1.2, "receive": 0.2},
    }


# --- YAML --------------------------------------------------------------------------------


def yaml_messages(sent: Iterable[Sent]) -> str:
    """A block-style YAML list of the messages."""
    import io

    from ruamel.yaml import YAML

    yaml = YAML(typ="rt")
    yaml.width = 4096
    yaml.indent(mapping=2, sequence=4, offset=2)
    out = io.StringIO()
    yaml.dump([item.message for item in sent], out)
    return out.getvalue()


def yaml_fixture(sent: Iterable[Sent]) -> str:
    """A test fixture: one case per request, with its ``request`` and ``expected`` answer."""
    import io

    from ruamel.yaml import YAML

    items = list(sent)
    cases = []
    for position, item in enumerate(items):
        if item.direction != C2S or not _is_request(item):
            continue
        answer = next(
            (
                a
                for a in items[position + 1 :]
                if a.direction == S2C
                and a.message.get("id") == item.message["id"]
                and "method" not in a.message
            ),
            None,
        )
        if answer is not None:
            name = item.message["method"] + (
                f" {item.message['params'].get('name')}"
                if item.message["method"] == "tools/call"
                else ""
            )
            cases.append({"name": name, "request": item.message, "expected": answer.message})
    yaml = YAML(typ="rt")
    yaml.width = 4096
    yaml.indent(mapping=2, sequence=4, offset=2)
    out = io.StringIO()
    yaml.dump({"server": "fixture-ts-server", "cases": cases}, out)
    return out.getvalue()


# --- two files ---------------------------------------------------------------------------


def split_envelopes(sent: Iterable[Sent]) -> tuple[str, str]:
    """Envelope JSONL for each direction, with times: what a tee of stdin and stdout writes."""
    c2s, s2c = [], []
    for item in sent:
        line = json.dumps({"ts": item.time, "message": item.message}) + "\n"
        (c2s if item.direction == C2S else s2c).append(line)
    return "".join(c2s), "".join(s2c)


def split_wire(sent: Iterable[Sent]) -> tuple[str, str]:
    """Wire JSONL for each direction: the raw bytes each side wrote."""
    c2s, s2c = [], []
    for item in sent:
        (c2s if item.direction == C2S else s2c).append(item.raw + "\n")
    return "".join(c2s), "".join(s2c)


if __name__ == "__main__":
    import sys

    target = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "tests" / "golden"
    transcript = recorded()
    outputs = {
        "har-ts-sdk-1.20.2/input.har": har(transcript, stream_ids=frozenset({13, "call-7"})),
        "claude-log-ts-sdk-1.20.2/input.log": claude_log(
            transcript, stderr="Fixture server running on stdio"
        ),
        "yaml-ts-sdk-1.20.2/input.yaml": yaml_messages(transcript),
        "yaml-fixture-ts-sdk-1.20.2/input.yaml": yaml_fixture(transcript),
    }
    for relative, content in outputs.items():
        path = target / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(content)
        print(path)
