"""Claude Desktop MCP logs: the JSON after the marker is the message, the rest is kept."""

from __future__ import annotations

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from migrator.api import check_text, fix_text
from migrator.engine.pipeline import Options
from migrator.model.source import split_lines
from migrator.model.units import Direction
from migrator.readers import detect
from tests.conftest import ROOT, examples
from tests.formats import builders
from tests.formats.builders import C2S, S2C, Sent

GOLDEN = ROOT / "tests" / "golden"
WIRE = (builders.RECORDED / "ts-sdk-1.20.2.jsonl").read_text()
T = "2025-06-01T10:00:00.000Z"
PREFIX = f"{T} [weather] [info] "
INIT = [
    Sent(
        T,
        C2S,
        '{"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"claude-ai","version":"0.1.0"}},"jsonrpc":"2.0","id":0}',
    ),
    Sent(
        T,
        S2C,
        '{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-06-18","capabilities":{"tools":{}},"serverInfo":{"name":"weather","version":"1"}}}',
    ),
]
CALL = Sent(
    T,
    C2S,
    '{"method":"tools/call","params":{"name":"forecast","arguments":{"days":"three"}},"jsonrpc":"2.0","id":7}',
)
ERROR = Sent(
    T,
    S2C,
    '{"jsonrpc":"2.0","id":7,"error":{"code":-32602,"message":"Invalid arguments for tool forecast: days must be a number"}}',
)


def keys(text: str) -> list[tuple[str, object]]:
    return [(f.code, f.request_id) for f in check_text(text).findings]


def test_same_findings_as_wire() -> None:
    text = (GOLDEN / "claude-log-ts-sdk-1.20.2" / "input.log").read_text()
    assert check_text(text).format == "claude-log"
    assert keys(text) == keys(WIRE)


def test_detection() -> None:
    log = builders.claude_log([*INIT, CALL, ERROR], server="weather")
    assert detect(split_lines(log)).reader.name == "claude-log"
    lifecycle = (
        f"{PREFIX}Initializing server...\n{PREFIX}Server started and connected successfully\n"
    )
    assert detect(split_lines(lifecycle)).reader.name == "claude-log"
    assert detect(split_lines('{"jsonrpc":"2.0","id":1,"method":"ping"}\n')).reader.name == "wire"


def test_fix_rewrites_the_json_only() -> None:
    stderr = "Weather server running on stdio\n"
    log = builders.claude_log([*INIT, CALL, ERROR], server="weather", stderr=stderr.rstrip("\n"))
    log += f"{T} [weather] [info] Client transport closed\n"
    after, report = fix_text(log)
    assert report.fixes == 1
    changed = [(a, b) for a, b in zip(split_lines(log), split_lines(after), strict=True) if a != b]
    ((old, new),) = changed
    marker = "Message from server: "
    assert new[: new.index(marker) + len(marker)] == old[: old.index(marker) + len(marker)]
    assert new.endswith(" { metadata: undefined }\n")
    body = new[new.index(marker) + len(marker) : new.index(" { metadata")]
    assert json.loads(body)["result"]["isError"] is True
    assert stderr in after


def test_directions_come_from_the_marker() -> None:
    log = builders.claude_log([*INIT, CALL, ERROR], server="weather")
    reader = detect(split_lines(log)).reader
    directions = [m.direction for u in reader.units(split_lines(log)) for m in u.messages]
    c2s, s2c = Direction.CLIENT_TO_SERVER, Direction.SERVER_TO_CLIENT
    assert directions == [c2s, s2c, c2s, s2c]


def test_a_truncated_message_is_reported_and_kept() -> None:
    big = ERROR.raw.replace("days must be", "days ...[18778 chars truncated]... must be")
    log = (
        builders.claude_log([*INIT, CALL], server="weather")
        + f"{PREFIX}Message from server: {big} {{ metadata: undefined }}\n"
    )
    report = check_text(log)
    (finding,) = report.findings
    assert finding.code == "MCP301" and "truncated" in finding.message and finding.line == 6
    after, _ = fix_text(log)
    assert after == log


def test_servers_of_mcp_log_are_judged_apart() -> None:
    # mcp.log interleaves servers; each has its own ids and its own initialize.
    weather = builders.claude_log([*INIT, CALL, ERROR], server="weather").splitlines(keepends=True)[
        2:
    ]
    files = builders.claude_log([*INIT, CALL, ERROR], server="files").splitlines(keepends=True)[2:]
    mixed = "".join(line for pair in zip(weather, files, strict=True) for line in pair)
    report = check_text(mixed)
    assert sorted((f.code, f.line) for f in report.findings if f.code == "MCP101") == [
        ("MCP101", 7),
        ("MCP101", 8),
    ]
    after, fixed = fix_text(mixed)
    assert fixed.fixes == 2
    assert [line[:40] for line in split_lines(after)] == [line[:40] for line in split_lines(mixed)]


def test_nothing_to_fix_leaves_the_file_byte_identical() -> None:
    ok = Sent(
        T, S2C, '{"jsonrpc":"2.0","id":7,"result":{"content":[{"type":"text","text":"sunny"}]}}'
    )
    log = builders.claude_log(
        [*INIT, CALL, ok], server="weather", stderr="\x1b[31mwarning\x1b[0m: \xff"
    )
    log = log.replace("\n", "\r\n") + "trailing text without newline"
    after, report = fix_text(log, options=Options(unsafe_fixes=True))
    assert report.messages == 4 and after == log


# --- property: random logs, `fix` changes only the JSON of rewritten lines -------------------

noise = st.sampled_from(
    [
        f"{PREFIX}Server started and connected successfully",
        "Traceback (most recent call last):",
        f"{T} [weather] [error] Unexpected token 'x' {{ metadata: undefined }}",
        "",
        "Message from server: {not a log line}",
    ]
)
answers = st.sampled_from(
    [
        "Invalid arguments for tool forecast: days must be a number",
        "Invalid params",
        "Internal error",
        "Unknown tool: forecast",
    ]
)


@st.composite
def logs(draw: st.DrawFn) -> str:
    sent = list(INIT) if draw(st.booleans()) else []
    for request_id in range(draw(st.integers(1, 5))):
        sent.append(Sent(T, C2S, CALL.raw.replace('"id":7', f'"id":{request_id}')))
        error = {
            "jsonrpc": "2.0",
            "id": request_id,
            "error": {"code": -32602, "message": draw(answers)},
        }
        sent.append(
            Sent(
                T,
                S2C,
                json.dumps(error, separators=(",", ":") if draw(st.booleans()) else (", ", ": ")),
            )
        )
    lines = builders.claude_log(sent, server="weather").splitlines()
    for _ in range(draw(st.integers(0, 3))):
        lines.insert(draw(st.integers(0, len(lines))), draw(noise))
    return "\n".join(lines) + draw(st.sampled_from(["", "\n"]))


@settings(max_examples=examples(80), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(logs(), st.booleans())
def test_fix_changes_only_rewritten_json(log: str, unsafe: bool) -> None:
    after, report = fix_text(log, options=Options(unsafe_fixes=unsafe))
    before_lines, after_lines = split_lines(log), split_lines(after)
    assert len(before_lines) == len(after_lines)
    changed = [(a, b) for a, b in zip(before_lines, after_lines, strict=True) if a != b]
    assert len(changed) == report.fixes
    for old, new in changed:
        head = old[: old.index("Message from server: ") + len("Message from server: ")]
        assert new.startswith(head) and new.endswith(
            " { metadata: undefined }" + ("\n" if old.endswith("\n") else "")
        )
        old_json, new_json = (
            json.loads(line[len(head) : line.rindex(" { metadata")]) for line in (old, new)
        )
        assert old_json["id"] == new_json["id"]
    again, second = fix_text(after, options=Options(unsafe_fixes=unsafe))
    assert again == after and second.fixes == 0
