"""HAR files of Streamable HTTP sessions: bodies, sizes, escaping, sessions."""

from __future__ import annotations

import base64
import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from migrator.api import check_text, fix_text
from migrator.engine.pipeline import Options
from migrator.errors import InputError
from migrator.model.source import split_lines
from migrator.readers import detect
from tests.conftest import ROOT, examples
from tests.formats import builders
from tests.formats.builders import C2S, S2C, Sent

GOLDEN = ROOT / "tests" / "golden"
WIRE = (builders.RECORDED / "ts-sdk-1.20.2.jsonl").read_text()
T = "2025-06-01T10:00:00.000Z"

INIT = [
    Sent(
        T,
        C2S,
        '{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}',
    ),
    Sent(
        T,
        S2C,
        '{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-06-18","capabilities":{"tools":{}},"serverInfo":{"name":"s","version":"1"}}}',
    ),
    Sent(T, C2S, '{"jsonrpc":"2.0","method":"notifications/initialized"}'),
]


def call(
    request_id: int, answer: str = "Invalid arguments for tool add: a must be a number (é/<x>)"
) -> list[Sent]:
    return [
        Sent(
            T,
            C2S,
            json.dumps(
                {
                    "jsonrpc": "2.0",
                    "id": request_id,
                    "method": "tools/call",
                    "params": {"name": "add", "arguments": {"a": "x"}},
                }
            ),
        ),
        Sent(
            T,
            S2C,
            json.dumps(
                {
                    "jsonrpc": "2.0",
                    "method": "notifications/message",
                    "params": {"level": "info", "data": "working"},
                }
            ),
        ),
        Sent(
            T,
            S2C,
            json.dumps(
                {"jsonrpc": "2.0", "id": request_id, "error": {"code": -32602, "message": answer}},
                ensure_ascii=False,
            ),
        ),
    ]


def plain_call(request_id: int) -> list[Sent]:
    """A call answered with plain JSON (no notification, so no event stream)."""
    exchange = call(request_id)
    del exchange[1]
    return exchange


def entries(text: str) -> list[dict[str, Any]]:
    return list(json.loads(text)["log"]["entries"])


def keys(text: str) -> list[tuple[str, object]]:
    return [(f.code, f.request_id) for f in check_text(text).findings]


def test_same_findings_as_wire() -> None:
    text = (GOLDEN / "har-ts-sdk-1.20.2" / "input.har").read_text()
    assert check_text(text).format == "har"
    assert keys(text) == keys(WIRE)


def test_detection() -> None:
    assert detect(split_lines(builders.har(INIT))).reader.name == "har"
    one_line = json.dumps(json.loads(builders.har(INIT))) + "\n"
    assert detect(split_lines(one_line)).reader.name == "har"
    assert detect(split_lines('{\n  "interactions": []\n}\n')).reader.name == "json"


@pytest.mark.parametrize("ensure_ascii", [False, True])
def test_fix_keeps_the_har_valid_and_its_sizes_true(ensure_ascii: bool) -> None:
    text = builders.har(
        INIT + call(5) + call(6), ensure_ascii=ensure_ascii, stream_ids=frozenset({6})
    )
    after, report = fix_text(text)
    assert report.fixes == 2
    for entry in entries(after):
        for side in ("request", "response"):
            part = entry[side]
            body = part.get("postData", part.get("content", {})).get("text", "")
            length = len(body.encode())
            assert part["bodySize"] == length
            if side == "response":
                assert part["content"]["size"] == length
                headers = {h["name"].lower(): h["value"] for h in part["headers"]}
                if "content-length" in headers:
                    assert int(headers["content-length"]) == length
    rewritten = [
        e["response"]["content"]["text"]
        for e in entries(after)
        if '"isError":' in e["response"]["content"]["text"].replace(" ", "")
    ]
    assert len(rewritten) == 2
    assert rewritten[1].startswith("event: message\ndata: {")  # SSE framing kept
    # The new text is escaped as the file escapes: \u00e9 when the file is ASCII-only.
    assert ("\\u00e9" in after) == ensure_ascii and after.isascii() == ensure_ascii


def test_only_changed_characters_of_a_body_are_rewritten() -> None:
    text = builders.har(INIT + plain_call(5))
    # A writer that escapes "/" (PHP) and "<", ">" (Go): unchanged characters keep their escapes.
    text = text.replace("(\u00e9/<x>)", "(\u00e9\\/\\u003cx\\u003e)")
    assert "\\/\\u003cx" in text
    after, report = fix_text(text)
    assert report.fixes == 1
    before_lines, after_lines = text.splitlines(), after.splitlines()
    changed = [(a, b) for a, b in zip(before_lines, after_lines, strict=True) if a != b]
    # The body and its three measures (content-length, size, bodySize) and nothing else.
    assert len(changed) == 4
    (old_body, new_body) = next((a, b) for a, b in changed if '"text"' in a)
    assert new_body.startswith(old_body[: old_body.index("error")])
    assert "\\/\\u003cx\\u003e" in new_body.split("original-error")[1]


def test_base64_bodies_are_decoded_and_encoded_again() -> None:
    document = json.loads(builders.har(INIT + plain_call(5)))
    content = document["log"]["entries"][-1]["response"]["content"]
    content["text"], content["encoding"] = (
        base64.b64encode(content["text"].encode()).decode(),
        "base64",
    )
    text = json.dumps(document, indent=2) + "\n"
    after, report = fix_text(text)
    assert report.fixes == 1
    content = json.loads(after)["log"]["entries"][-1]["response"]["content"]
    decoded = base64.b64decode(content["text"]).decode()
    assert json.loads(decoded)["result"]["isError"] is True
    assert content["size"] == len(decoded.encode())


def test_interleaved_sessions_are_judged_apart() -> None:
    # Two tabs, ids restarting at 0: each session's handshake stays its own.
    first = json.loads(builders.har(INIT + call(1), session="A"))
    second = json.loads(builders.har(INIT + call(1), session="B"))
    a, b = first["log"]["entries"], second["log"]["entries"]
    first["log"]["entries"] = [a[0], b[0], a[1], b[1], a[2], b[2]]
    text = json.dumps(first, indent=2) + "\n"
    report = check_text(text)
    assert [(f.code, f.request_id) for f in report.findings if f.code == "MCP101"] == [
        ("MCP101", 1),
        ("MCP101", 1),
    ]
    assert all(
        "2025-06-18 (initialize result" in " ".join(f.evidence)
        for f in report.findings
        if f.code == "MCP101"
    )
    after, fixed = fix_text(text)
    assert fixed.fixes == 2
    assert [e["request"]["headers"] for e in entries(after)] == [
        e["request"]["headers"] for e in entries(text)
    ]


def test_other_traffic_and_bodies_pass_through() -> None:
    document = json.loads(builders.har(INIT + call(5)))
    page = {
        "startedDateTime": T,
        "time": 1,
        "request": {"method": "GET", "url": "http://x/", "headers": []},
        "response": {
            "status": 200,
            "headers": [],
            "content": {"size": 5, "mimeType": "text/html", "text": "<p>hi"},
        },
    }
    document["log"]["entries"].insert(0, page)
    text = json.dumps(document, indent="\t") + "\n"
    after, report = fix_text(text)
    assert report.fixes == 1
    assert entries(after)[0] == page
    assert "\n\t\t\t" in after


def test_a_truncated_body_is_reported() -> None:
    document = json.loads(builders.har(INIT + call(5)))
    content = document["log"]["entries"][-1]["response"]["content"]
    content["text"] = content["text"][:40]
    report = check_text(json.dumps(document, indent=2) + "\n")
    assert [f.code for f in report.findings] == ["MCP301"]


def test_not_a_har_is_an_input_error() -> None:
    with pytest.raises(InputError, match="no JSON-RPC messages"):
        check_text('{\n  "log": {\n    "version": "1.2",\n    "entries": []\n  }\n}\n')
    with pytest.raises(InputError, match=r"no log\.entries"):
        check_text('{\n  "log": {\n    "version": "1.2"\n  }\n}\n')


def test_nothing_to_fix_leaves_the_file_byte_identical() -> None:
    ok = [
        Sent(
            T,
            C2S,
            '{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"add","arguments":{"a":1}}}',
        ),
        Sent(
            T,
            S2C,
            '{"jsonrpc":"2.0","id":5,"result":{"content":[{"type":"text","text":"1 \\u00e9"}]}}',
        ),
    ]
    text = builders.har(INIT + ok).replace("\n", "\r\n")
    after, report = fix_text(text, options=Options(unsafe_fixes=True))
    assert report.messages == 5 and after == text


# --- property: random HAR files, `fix` changes only rewritten bodies and their sizes ---------

answers = st.sampled_from(
    [
        "Invalid arguments for tool add: a must be a number",
        "Invalid params",
        "Internal error",
        "Tool add not found",
        'bad <input> & \u00e9\u00e8 / \U0001f600 "q"\n',
    ]
)


@st.composite
def har_files(draw: st.DrawFn) -> str:
    sent = list(INIT) if draw(st.booleans()) else []
    for request_id in range(draw(st.integers(1, 4))):
        exchange = call(request_id, draw(answers))
        if draw(st.booleans()):
            del exchange[1]  # no notification: a plain JSON answer
        sent += exchange
    streams = frozenset(i for i in range(4) if draw(st.booleans()))
    text = builders.har(sent, stream_ids=streams, ensure_ascii=draw(st.booleans()))
    if draw(st.booleans()):
        text = text.replace("/", "\\/")  # a writer that escapes every slash
    return text


@settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(har_files(), st.booleans())
def test_fix_changes_only_rewritten_bodies(text: str, unsafe: bool) -> None:
    after, report = fix_text(text, options=Options(unsafe_fixes=unsafe))
    if not report.fixes:
        assert after == text
        return
    before, now = entries(text), entries(after)
    changed = 0
    for old, new in zip(before, now, strict=True):
        assert old["request"] == new["request"]
        old_content, new_content = old["response"]["content"], new["response"]["content"]
        if old_content["text"] != new_content["text"]:
            changed += 1
            assert new_content["size"] == len(new_content["text"].encode())
            assert new["response"]["bodySize"] == new_content["size"]
        else:
            assert old == new
    assert changed == report.fixes  # one rewritten response per body here
    # Outside the changed bodies and sizes, every line is the same.
    moved = [(a, b) for a, b in zip(text.splitlines(), after.splitlines(), strict=True) if a != b]
    assert all(
        '"text"' in a or '"size"' in a or '"bodySize"' in a or '"value"' in a for a, _ in moved
    )
    again, second = fix_text(after, options=Options(unsafe_fixes=unsafe))
    assert again == after and second.fixes == 0
