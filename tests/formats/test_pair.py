"""Two-file stdio captures: merged by time or by causality, fixed in the server's file."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from migrator.api import check_pair, check_text, fix_pair
from migrator.engine.options import Mode
from migrator.engine.pipeline import Options
from migrator.errors import InputError, UsageError, WriteError
from migrator.readers import InputFormat
from tests.conftest import examples
from tests.formats import builders
from tests.formats.builders import C2S, S2C, Sent

WIRE = (builders.RECORDED / "ts-sdk-1.20.2.jsonl").read_text()
RECORDED = builders.recorded()


def keys(findings: list) -> list[tuple[str, object]]:
    return [(f.code, f.request_id) for f in findings]


def write(tmp_path: Path, c2s: str, s2c: str) -> tuple[Path, Path]:
    (tmp_path / "c2s.jsonl").write_text(c2s)
    (tmp_path / "s2c.jsonl").write_text(s2c)
    return tmp_path / "c2s.jsonl", tmp_path / "s2c.jsonl"


@pytest.mark.parametrize("split", [builders.split_envelopes, builders.split_wire])
def test_same_findings_as_the_single_file(tmp_path: Path, split) -> None:
    c2s, s2c = write(tmp_path, *split(RECORDED))
    report = check_pair(c2s, s2c)
    assert keys(report.findings) == keys(check_text(WIRE).findings)
    assert report.messages == 43
    how = "times" if split is builders.split_envelopes else "causality"
    assert how in report.detection


def test_findings_name_the_file_their_line_is_in(tmp_path: Path) -> None:
    c2s, s2c = write(tmp_path, *builders.split_wire(RECORDED))
    report = check_pair(c2s, s2c)
    mcp101 = [f for f in report.findings if f.code == "MCP101"]
    assert mcp101 and all(f.path == str(s2c) for f in mcp101)
    lines = s2c.read_text().splitlines()
    assert all('"error"' in lines[f.line - 1] for f in mcp101)
    on_requests = [f for f in report.findings if f.code != "MCP101"]
    assert all(
        f.path == str(c2s) and '"method":"tools/call"' in c2s.read_text().splitlines()[f.line - 1]
        for f in on_requests
    )


def test_fix_rewrites_only_the_server_file(tmp_path: Path) -> None:
    c2s_text, s2c_text = builders.split_wire(RECORDED)
    c2s, s2c = write(tmp_path, c2s_text, s2c_text)
    outcome = fix_pair(c2s, s2c, Options(mode=Mode.DIFF))
    assert outcome.diff.startswith(f"--- a/{str(s2c).lstrip('/')}") and not outcome.written
    assert s2c.read_text() == s2c_text
    outcome = fix_pair(c2s, s2c)
    assert outcome.written and outcome.report.fixes == 7
    assert c2s.read_text() == c2s_text
    after = s2c.read_text()
    changed = [
        (a, b) for a, b in zip(s2c_text.splitlines(), after.splitlines(), strict=True) if a != b
    ]
    assert len(changed) == 7
    assert all(json.loads(b)["result"]["isError"] is True for _, b in changed)
    again = fix_pair(c2s, s2c)
    assert not again.written and again.report.fixes == 0
    assert sorted(tmp_path.iterdir()) == sorted([c2s, s2c])  # no temporary file left


def test_backup_on_the_command_line_keeps_the_server_file(tmp_path: Path) -> None:
    from tests.conftest import run_cli

    c2s_text, s2c_text = builders.split_wire(RECORDED)
    c2s, s2c = write(tmp_path, c2s_text, s2c_text)
    result = run_cli("fix", "--backup", ".orig", "--pair", str(c2s), str(s2c))
    assert result.code == 0, result.err
    assert (tmp_path / "s2c.jsonl.orig").read_text() == s2c_text
    assert s2c.read_text() != s2c_text and c2s.read_text() == c2s_text
    assert not (tmp_path / "c2s.jsonl.orig").exists()


def test_a_dangling_server_file_link_is_an_input_error(tmp_path: Path) -> None:
    c2s, _ = write(tmp_path, *builders.split_wire(RECORDED))
    dangling = tmp_path / "gone.jsonl"
    dangling.symlink_to(tmp_path / "nowhere.jsonl")
    with pytest.raises(InputError, match="cannot read"):
        fix_pair(c2s, dangling)


def test_fix_refuses_a_read_only_server_file(tmp_path: Path) -> None:
    c2s, s2c = write(tmp_path, *builders.split_wire(RECORDED))
    s2c.chmod(0o444)
    try:
        with pytest.raises(WriteError, match="read-only"):
            fix_pair(c2s, s2c)
    finally:
        s2c.chmod(0o644)


def test_timestamps_decide_and_a_response_before_its_request_is_an_error(tmp_path: Path) -> None:
    request = {
        "ts": "2025-06-01T10:00:01Z",
        "message": {"jsonrpc": "2.0", "id": 1, "method": "ping"},
    }
    answer = {
        "ts": "2025-06-01T10:00:00.500Z",
        "message": {"jsonrpc": "2.0", "id": 1, "result": {}},
    }
    c2s, s2c = write(tmp_path, json.dumps(request) + "\n", json.dumps(answer) + "\n")
    with pytest.raises(InputError, match=r"answers request id 1\b.*time is earlier") as info:
        check_pair(c2s, s2c)
    assert info.value.path == str(s2c) and info.value.line == 1


def test_epoch_times_and_a_server_request_in_between(tmp_path: Path) -> None:
    c2s = [
        {
            "t": 1.0,
            "msg": {
                "jsonrpc": "2.0",
                "id": 1,
                "method": "tools/call",
                "params": {"name": "ask", "arguments": {}},
            },
        },
        {
            "t": 3.0,
            "msg": {
                "jsonrpc": "2.0",
                "id": "s1",
                "result": {
                    "role": "assistant",
                    "content": {"type": "text", "text": "hi"},
                    "model": "m",
                },
            },
        },
    ]
    s2c = [
        {
            "t": 2.0,
            "msg": {
                "jsonrpc": "2.0",
                "id": "s1",
                "method": "sampling/createMessage",
                "params": {"messages": [], "maxTokens": 5},
            },
        },
        {
            "t": 4.0,
            "msg": {
                "jsonrpc": "2.0",
                "id": 1,
                "error": {
                    "code": -32602,
                    "message": "Invalid arguments for tool ask: q is required",
                },
            },
        },
    ]
    paths = write(
        tmp_path,
        "".join(json.dumps(x) + "\n" for x in c2s),
        "".join(json.dumps(x) + "\n" for x in s2c),
    )
    report = check_pair(*paths)
    assert keys([f for f in report.findings if f.code == "MCP101"]) == [("MCP101", 1)]


def test_answers_out_of_order_without_times_are_refused(tmp_path: Path) -> None:
    c2s = [
        '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"slow","arguments":{}}}',
        '{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"fast","arguments":{}}}',
    ]
    s2c = [
        '{"jsonrpc":"2.0","id":2,"result":{"content":[]}}',
        '{"jsonrpc":"2.0","id":1,"result":{"content":[]}}',
    ]
    paths = write(tmp_path, "\n".join(c2s) + "\n", "\n".join(s2c) + "\n")
    with pytest.raises(
        InputError, match=r"answered request id 2 before id 1\b.*several requests in flight"
    ):
        check_pair(*paths)


def test_a_cancelled_or_unanswered_request_does_not_make_it_ambiguous(tmp_path: Path) -> None:
    c2s = [
        '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"slow","arguments":{}}}',
        '{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}',
        '{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"add","arguments":{"a":"x"}}}',
        '{"jsonrpc":"2.0","id":3,"method":"ping"}',
    ]
    s2c = [
        '{"jsonrpc":"2.0","id":2,"error":{"code":-32602,"message":"Invalid arguments for tool add: a must be a number"}}'
    ]
    report = check_pair(*write(tmp_path, "\n".join(c2s) + "\n", "\n".join(s2c) + "\n"))
    assert keys([f for f in report.findings if f.code == "MCP101"]) == [("MCP101", 2)]


def test_files_that_wait_for_each_other_are_an_error(tmp_path: Path) -> None:
    c2s = [
        '{"jsonrpc":"2.0","id":"s1","result":{"roots":[]}}',
        '{"jsonrpc":"2.0","id":1,"method":"ping"}',
    ]
    s2c = [
        '{"jsonrpc":"2.0","id":1,"result":{}}',
        '{"jsonrpc":"2.0","id":"s1","method":"roots/list"}',
    ]
    with pytest.raises(InputError, match="each file waits for a later line of the other"):
        check_pair(*write(tmp_path, "\n".join(c2s) + "\n", "\n".join(s2c) + "\n"))


def test_only_jsonl_files_pair(tmp_path: Path) -> None:
    paths = write(
        tmp_path,
        "- jsonrpc: '2.0'\n  id: 1\n  method: ping\n",
        '{"jsonrpc":"2.0","id":1,"result":{}}\n',
    )
    with pytest.raises(InputError, match="reads as yaml"):
        check_pair(*paths)
    with pytest.raises(UsageError, match="cannot be merged"):
        check_pair(*paths, Options(input_format=InputFormat.HAR))
    with pytest.raises(InputError, match="cannot read"):
        check_pair(tmp_path / "missing.jsonl", paths[1])


# --- property: a lock-step conversation split in two merges back to the same findings -------

answers = st.sampled_from(
    [
        '{{"jsonrpc":"2.0","id":{id},"error":{{"code":-32602,"message":"Invalid arguments for tool add: a must be a number"}}}}',
        '{{"jsonrpc":"2.0","id":{id},"error":{{"code":-32603,"message":"Internal error"}}}}',
        '{{"jsonrpc":"2.0","id":{id},"result":{{"content":[{{"type":"text","text":"3"}}]}}}}',
    ]
)


@st.composite
def conversations(draw: st.DrawFn) -> list[Sent]:
    sent: list[Sent] = []
    if draw(st.booleans()):
        sent += [
            Sent(
                "",
                C2S,
                '{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}',
            ),
            Sent(
                "",
                S2C,
                '{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-06-18","capabilities":{},"serverInfo":{"name":"s","version":"1"}}}',
            ),
            Sent("", C2S, '{"jsonrpc":"2.0","method":"notifications/initialized"}'),
        ]
    for request_id in range(1, draw(st.integers(1, 6))):
        sent.append(
            Sent(
                "",
                C2S,
                f'{{"jsonrpc":"2.0","id":{request_id},"method":"tools/call","params":{{"name":"add","arguments":{{"a":"x"}}}}}}',
            )
        )
        if draw(st.booleans()):
            sent.append(
                Sent(
                    "",
                    S2C,
                    '{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":1,"progress":1}}',
                )
            )
        if draw(st.booleans()):
            sent.append(Sent("", S2C, '{"jsonrpc":"2.0","id":"srv","method":"ping"}'))
            sent.append(Sent("", C2S, '{"jsonrpc":"2.0","id":"srv","result":{}}'))
        sent.append(Sent("", S2C, draw(answers).format(id=request_id)))
    return [Sent(f"2025-06-01T10:00:{i:02d}Z", s.direction, s.raw) for i, s in enumerate(sent)]


@settings(
    max_examples=examples(40),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(conversations(), st.booleans())
def test_split_and_merged_gives_the_single_file_findings(
    tmp_path: Path, sent: list[Sent], timed: bool
) -> None:
    single = "".join(s.raw + "\n" for s in sent)
    split = builders.split_envelopes if timed else builders.split_wire
    c2s, s2c = write(tmp_path, *split(sent))
    report = check_pair(c2s, s2c)
    assert sorted(keys(report.findings), key=str) == sorted(
        keys(check_text(single).findings), key=str
    )
