"""The one-pass core against the full way: the same findings, fixes and bytes.

The full way (:meth:`migrator.engine.pipeline.Pipeline.handle` on every unit, every
rule hook called) is the reference; :func:`migrator.engine.onepass.reference_core`
switches the one pass off. Every input here runs both ways, with every rule and with
each rule alone (a selection changes which facts a route needs), and the reports,
the fixed text and any refusal must be equal. Valid traffic must call no rule code.
"""

from __future__ import annotations

import dataclasses
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from migrator.engine import onepass
from migrator.engine.files import check_text, fix_text
from migrator.engine.options import Mode, Options
from migrator.engine.pipeline import Pipeline
from migrator.engine.results import FileReport
from migrator.errors import MigratorError
from migrator.judge import classify as classify_module
from migrator.judge import schemas, validation
from migrator.live.fixer import LiveFixer
from migrator.model.jsonrpc import decode_envelope
from migrator.model.tool_calls import (
    PLAIN_CALL_VALID_VERSIONS,
    plain_call,
    plain_call_request,
)
from migrator.model.tool_calls import plain_arguments as call_of
from migrator.model.units import Direction
from migrator.rules import base
from migrator.rules.registry import all_rules, rule_set
from tests.conftest import ROOT, examples

sys.path.insert(0, str(ROOT / "benchmarks"))
from generate import generate, sent_by_server  # the benchmark's own generator

WIRE_CODES = [rule.code for rule in all_rules() if rule.found_in == "transcript"]
SELECTIONS: list[frozenset[str] | None] = [None, *(frozenset({code}) for code in WIRE_CODES)]


def _outcome(text: str, options: Options) -> tuple[Any, ...]:
    """Everything a run shows of a text: the report, and (fixing) the text or the refusal."""
    try:
        if options.mode is Mode.CHECK:
            report, after = check_text(text, "t.jsonl", options), None
        else:
            after, report = fix_text(text, "t.jsonl", options)
    except MigratorError as error:
        return (type(error).__name__, str(error), error.line)
    return (
        list(report.findings), report.messages, report.fixes, report.not_jsonrpc,
        report.unreadable, report.format, after,
    )  # fmt: skip


def assert_same(text: str, options: Options) -> None:
    one_pass = _outcome(text, options)
    with onepass.reference_core():
        reference = _outcome(text, options)
    assert one_pass == reference


def _both_ways(text: str, selection: frozenset[str] | None = None) -> None:
    for mode, unsafe in ((Mode.CHECK, False), (Mode.FIX, False), (Mode.FIX, True)):
        assert_same(text, Options(selected=selection, mode=mode, unsafe_fixes=unsafe))


def _wire_inputs() -> list[Path]:
    found = sorted((ROOT / "tests" / "golden").glob("*/input.jsonl"))
    found += sorted((ROOT / "tests" / "rules").glob("*/*.jsonl"))
    found += sorted((ROOT / "examples").rglob("*.jsonl"))
    return found


@pytest.mark.parametrize("path", _wire_inputs(), ids=lambda p: str(p.relative_to(ROOT)))
def test_every_fixture_runs_the_same_both_ways(path: Path) -> None:
    text = path.read_bytes().decode("utf-8", "surrogateescape")
    for selection in SELECTIONS:
        assert_same(text, Options(selected=selection))
    _both_ways(text)


@pytest.fixture(scope="module")
def benchmark_corpus() -> str:
    return "".join(line + "\n" for line in generate(3000, seed=7))


@pytest.mark.parametrize("selection", SELECTIONS, ids=lambda s: "all" if s is None else min(s))
def test_the_benchmark_corpus_runs_the_same_both_ways(
    benchmark_corpus: str, selection: frozenset[str] | None
) -> None:
    _both_ways(benchmark_corpus, selection)


def _mangled(corpus: str) -> str:
    """The benchmark corpus with a few lines changed the ways real files go wrong."""
    lines = corpus.splitlines(keepends=True)
    changes = [
        lambda s: s.replace('"jsonrpc":"2.0"', '"jsonrpc":"2.0","extra":1', 1),
        lambda s: s.replace('"params":{', '"params":{"_meta":{"progressToken":1},', 1),
        lambda s: s.replace('"id":', '"id":1.0,"x":', 1),
        lambda s: s.replace('"content":[', '"isError":true,"content":[', 1),
        lambda s: s.replace('"structuredContent":{', '"structuredContent":{"sum":"x","', 1),
        lambda s: s.replace('"text":', '"annotations":{},"text":', 1),
        lambda s: s[: len(s) // 2] + "\n",
        lambda s: s.replace("2025-11-25", "2026-07-28"),
        lambda s: s.replace('"tools/call"', '"tools/list"', 1),
        lambda s: s.replace('"method":"ping"', '"method":"notifications/tools/list_changed"', 1),
        lambda s: "\ufeff" + s,
        lambda s: s.replace('"arguments":{', '"arguments":{"limit":0,', 1),
    ]
    for number in range(5, len(lines), 37):
        lines[number] = changes[number % len(changes)](lines[number])
    return "".join(lines)


@pytest.mark.parametrize("selection", SELECTIONS, ids=lambda s: "all" if s is None else min(s))
def test_a_mangled_corpus_runs_the_same_both_ways(
    benchmark_corpus: str, selection: frozenset[str] | None
) -> None:
    _both_ways(_mangled(benchmark_corpus), selection)


# -- generated traffic ----------------------------------------------------------------

ids = st.one_of(st.integers(-3, 3), st.sampled_from(["a", "1", 1.0, None, True]))
VERSIONS = ["2024-11-05", "2025-06-18", "2025-11-25", "2026-07-28", "2025-09-01", "draft"]
TOOLS = [
    {
        "name": "add",
        "inputSchema": {"type": "object", "properties": {"a": {"type": "number"}}, "required": ["a"]},
        "outputSchema": {"type": "object", "properties": {"sum": {"type": "number"}}, "required": ["sum"]},
    },
    {"name": "echo", "inputSchema": {"type": "object", "properties": {"text": {"type": "string"}}}},
    {"name": "odd", "inputSchema": {"type": "object", "properties": {"p": {"pattern": "("}}}},
]  # fmt: skip
argument_values = st.one_of(st.integers(-2, 2), st.text(max_size=3), st.none(), st.just(2**70))
arguments = st.dictionaries(st.sampled_from(["a", "text", "p"]), argument_values, max_size=2)


@st.composite
def messages(draw: st.DrawFn) -> Any:
    request_id = draw(ids)
    kind = draw(st.integers(0, 11))
    if kind == 0:
        version = draw(st.sampled_from(VERSIONS))
        return {"jsonrpc": "2.0", "id": request_id, "method": "initialize",
                "params": {"protocolVersion": version, "capabilities": {},
                           "clientInfo": {"name": "c", "version": "1"}}}  # fmt: skip
    if kind == 1:
        return {"jsonrpc": "2.0", "id": request_id, "method": "tools/list"}
    if kind == 2:
        tools = draw(st.lists(st.sampled_from(TOOLS), max_size=3, unique_by=lambda t: t["name"]))
        return {"jsonrpc": "2.0", "id": request_id, "result": {"tools": tools}}
    if kind in (3, 4):
        params: dict[str, Any] = {"name": draw(st.sampled_from(["add", "echo", "odd", "gone"]))}
        if draw(st.booleans()):
            params["arguments"] = draw(arguments)
        if draw(st.integers(0, 5)) == 0:
            params["_meta"] = draw(st.sampled_from([
                {"io.github.mcp-transcripts/probe-case": {"breaks": "a"}},
                {"io.modelcontextprotocol/protocolVersion": "2026-07-28"},
            ]))  # fmt: skip
        return {"jsonrpc": "2.0", "id": request_id, "method": "tools/call", "params": params}
    if kind in (5, 6):
        result: dict[str, Any] = {"content": [{"type": "text", "text": draw(st.text(max_size=4))}]}
        if draw(st.booleans()):
            result["structuredContent"] = draw(st.sampled_from([{"sum": 1}, {"sum": "x"}, {}]))
        if draw(st.integers(0, 3)) == 0:
            result["isError"] = draw(st.booleans())
        if draw(st.integers(0, 6)) == 0:
            result["resultType"] = "complete"
        return {"jsonrpc": "2.0", "id": request_id, "result": result}
    if kind == 7:
        # Mostly well formed; sometimes not, which MCP201 must word the full way.
        code = draw(st.sampled_from([-32602, -32603, -32601, -32602, -32602.0, True, "x"]))
        message = draw(st.sampled_from(["Invalid params", "Tool gone not found", "boom", None]))
        error: dict[str, Any] = {"code": code, "message": message}
        if draw(st.integers(0, 4)) == 0:
            error["data"] = draw(st.sampled_from([None, {"field": "a"}, "why"]))
        return {"jsonrpc": "2.0", "id": request_id, "error": error}
    if kind == 8:
        method = draw(st.sampled_from(["ping", "sampling/createMessage", "resources/read"]))
        return {"jsonrpc": "2.0", "id": request_id, "method": method}
    if kind == 9:
        return {"jsonrpc": "2.0", "id": request_id, "result": {}}
    if kind == 10:
        method = draw(
            st.sampled_from(["notifications/progress", "notifications/tools/list_changed"])
        )
        return {"jsonrpc": "2.0", "method": method}
    return draw(st.sampled_from([{"id": 1, "result": {}}, [], "x", {"jsonrpc": "1.0", "id": 1}]))


@settings(max_examples=examples(200), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(messages(), max_size=30), st.sampled_from(SELECTIONS))
def test_generated_traffic_runs_the_same_both_ways(
    transcript: list[Any], selection: frozenset[str] | None
) -> None:
    text = "".join(json.dumps(m, separators=(",", ":")) + "\n" for m in transcript)
    _both_ways(text, selection)


# -- no rule code on valid traffic ----------------------------------------------------


def _valid_corpus() -> str:
    """Traffic with nothing to report: handshake, listing, calls, pings both ways, notifications."""
    lines: list[Any] = [
        {"jsonrpc": "2.0", "id": 0, "method": "initialize",
         "params": {"protocolVersion": "2025-11-25", "capabilities": {},
                    "clientInfo": {"name": "c", "version": "1"}}},
        {"jsonrpc": "2.0", "id": 0, "result": {"protocolVersion": "2025-11-25", "capabilities": {},
                                               "serverInfo": {"name": "s", "version": "1"}}},
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {"jsonrpc": "2.0", "id": 1, "method": "tools/list"},
        {"jsonrpc": "2.0", "id": 1, "result": {"tools": TOOLS[:2]}},
    ]  # fmt: skip
    for number in range(2, 60):
        if number % 3:
            params = {"name": "add", "arguments": {"a": number}}
            result = {"content": [{"type": "text", "text": "ok"}], "structuredContent": {"sum": 1}}
        else:
            params = {"name": "echo", "arguments": {"text": "hi"}}
            result = {"content": [{"type": "text", "text": "hi"}]}
        lines += [
            {"jsonrpc": "2.0", "id": number, "method": "tools/call", "params": params},
            {"jsonrpc": "2.0", "method": "notifications/progress", "params": {"progressToken": 1}},
            {"jsonrpc": "2.0", "id": number, "method": "ping"},  # the server's, same id
            {"jsonrpc": "2.0", "id": number, "result": {}},
            {"jsonrpc": "2.0", "id": f"s{number}", "method": "ping"},
            {"jsonrpc": "2.0", "id": f"s{number}", "result": {}},
            {"jsonrpc": "2.0", "id": number, "result": result},
        ]
    return "".join(json.dumps(m, separators=(",", ":")) + "\n" for m in lines)


def _counting(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Count every call of rule code (hooks, tools/call rules) and of the classifier."""
    calls: list[str] = []

    def counted(name: str, function: Any) -> Any:
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            calls.append(name)
            return function(*args, **kwargs)

        return wrapper

    for rule in all_rules():
        from migrator.rules.info import RULE_OBJECTS

        cls = type(RULE_OBJECTS.get(rule.code))
        for hook in ("check_message", "check_exchange", "check"):
            if hook in cls.__dict__:
                monkeypatch.setattr(cls, hook, counted(f"{rule.code}.{hook}", cls.__dict__[hook]))
    import migrator.engine.pipeline as pipeline_module

    monkeypatch.setattr(pipeline_module, "classify", counted("classify", classify_module.classify))
    rule_set.cache_clear()  # the dispatch tables hold the hooks they were built with
    return calls


def test_valid_traffic_calls_no_rule_code(monkeypatch: pytest.MonkeyPatch) -> None:
    calls = _counting(monkeypatch)
    try:
        text = _valid_corpus()
        report = check_text(text, "t.jsonl")
        assert list(report.findings) == []
        assert report.messages == text.count("\n")
        assert calls == []
        with onepass.reference_core():  # the counting itself works: the full way calls them
            check_text(text, "t.jsonl")
        assert "MCP201.check_message" in calls and "classify" in calls
    finally:
        rule_set.cache_clear()


def test_a_line_with_something_to_report_goes_the_full_way() -> None:
    text = _valid_corpus()
    call = '{"jsonrpc":"2.0","id":99,"method":"tools/call","params":{"name":"add","arguments":{"a":1}}}\n'
    text += call + call
    report = FileReport("t.jsonl")
    pipeline = Pipeline("t.jsonl", Options(), report)
    for number, line in enumerate(text.splitlines(keepends=True), start=1):
        pipeline.one_pass.feed(line, number)
    assert pipeline.one_pass.lines_full_way == 1  # the reused id: MCP304's to word
    assert [finding.code for finding in report.findings] == ["MCP304"]


def test_what_a_call_is_checked_against_follows_the_catalog_and_the_version() -> None:
    """A tool's plan is worked out once per session, catalog and version: each change is seen.

    ``add`` first takes a number, then (re-listed between a call and its result) a string and
    no outputSchema; a new session at a version whose results need more than the plain shape
    sends its calls the full way.
    """
    add = TOOLS[0]
    relisted = {
        "name": "add",
        "inputSchema": {"type": "object", "properties": {"a": {"type": "string"}}},
    }
    lines: list[Any] = [
        {"jsonrpc": "2.0", "id": 0, "method": "initialize",
         "params": {"protocolVersion": "2025-11-25", "capabilities": {},
                    "clientInfo": {"name": "c", "version": "1"}}},
        {"jsonrpc": "2.0", "id": 0, "result": {"protocolVersion": "2025-11-25", "capabilities": {},
                                               "serverInfo": {"name": "s", "version": "1"}}},
        {"jsonrpc": "2.0", "id": 1, "method": "tools/list"},
        {"jsonrpc": "2.0", "id": 1, "result": {"tools": [add]}},
        {"jsonrpc": "2.0", "id": 2, "method": "tools/call",
         "params": {"name": "add", "arguments": {"a": 1}}},
        {"jsonrpc": "2.0", "id": 3, "method": "tools/list"},
        {"jsonrpc": "2.0", "id": 3, "result": {"tools": [relisted]}},
        # No structuredContent: add no longer declares an outputSchema, so nothing is missing.
        {"jsonrpc": "2.0", "id": 2, "result": {"content": [{"type": "text", "text": "1"}]}},
        {"jsonrpc": "2.0", "id": 4, "method": "tools/call",
         "params": {"name": "add", "arguments": {"a": "x"}}},
        {"jsonrpc": "2.0", "id": 4, "result": {"content": [{"type": "text", "text": "x"}]}},
        {"jsonrpc": "2.0", "id": 5, "method": "tools/call",
         "params": {"name": "add", "arguments": {"a": 1}}},  # now invalid: MCP203
        {"jsonrpc": "2.0", "id": 5, "error": {"code": -32602, "message": "Invalid params"}},
        {"jsonrpc": "2.0", "id": 6, "method": "initialize",
         "params": {"protocolVersion": "2026-07-28", "capabilities": {},
                    "clientInfo": {"name": "c", "version": "1"}}},
        {"jsonrpc": "2.0", "id": 6, "result": {"protocolVersion": "2026-07-28", "capabilities": {},
                                               "serverInfo": {"name": "s", "version": "1"}}},
        {"jsonrpc": "2.0", "id": 7, "method": "tools/call",
         "params": {"name": "add", "arguments": {"a": 1}}},
        {"jsonrpc": "2.0", "id": 7, "result": {"content": [{"type": "text", "text": "1"}]}},
    ]  # fmt: skip
    text = "".join(json.dumps(m, separators=(",", ":")) + "\n" for m in lines)
    report = FileReport("t.jsonl")
    pipeline = Pipeline("t.jsonl", Options(), report)
    for number, line in enumerate(text.splitlines(keepends=True), start=1):
        pipeline.one_pass.feed(line, number)
    codes = [(finding.line, finding.code) for finding in report.findings]
    assert (11, "MCP203") in codes and (12, "MCP101") in codes
    assert not [line for line, _ in codes if line in (5, 8, 9, 10)]
    assert pipeline.one_pass.lines_full_way >= 2  # the 2026-07-28 call and its result
    _both_ways(text)


def test_an_invalid_call_calls_only_the_hooks_that_read_arguments(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Valid arguments are the one fact an invalid call lacks: only MCP203 is called on it."""
    calls = _counting(monkeypatch)
    try:
        text = _valid_corpus()
        text += '{"jsonrpc":"2.0","id":99,"method":"tools/call","params":{"name":"add","arguments":{"a":"x"}}}\n'
        report = FileReport("t.jsonl")
        pipeline = Pipeline("t.jsonl", Options(), report)
        for number, line in enumerate(text.splitlines(keepends=True), start=1):
            pipeline.one_pass.feed(line, number)
        assert pipeline.one_pass.lines_full_way == 0
        assert calls == ["MCP203.check_message"]
        assert [finding.code for finding in report.findings] == ["MCP203"]
        # Its error answer calls no hook: only the classifier and the rule of its outcome.
        answer = '{"jsonrpc":"2.0","id":99,"error":{"code":-32602,"message":"Invalid arguments"}}\n'
        pipeline.one_pass.feed(answer, text.count("\n") + 1)
        assert pipeline.one_pass.lines_full_way == 0
        assert calls == ["MCP203.check_message", "classify", "MCP101.check"]
        assert [finding.code for finding in report.findings] == ["MCP203", "MCP101"]
        with onepass.reference_core():
            assert list(check_text(text + answer, "t.jsonl").findings) == list(report.findings)
    finally:
        rule_set.cache_clear()


def test_an_invalid_call_is_worded_once_for_every_reader(monkeypatch: pytest.MonkeyPatch) -> None:
    """MCP203, MCP501/502 and the classifier read one call's arguments: python-jsonschema words them once."""
    worded: list[Any] = []
    wording = validation.Wording.__init__

    def counted(self: validation.Wording, errors: list[Any]) -> None:
        worded.append(errors)
        wording(self, errors)

    monkeypatch.setattr(validation.Wording, "__init__", counted)
    text = _valid_corpus()
    call = '{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"add","arguments":{"a":"x%d"}}}\n'
    answer = '{"jsonrpc":"2.0","id":%d,"error":{"code":-32602,"message":"Invalid arguments"}}\n'
    text += call % (98, 1) + answer % 98 + call % (99, 2) + answer % 99
    report = check_text(text, "t.jsonl")
    assert [f.code for f in report.findings].count("MCP203") == 2
    assert len(worded) == 2  # one wording per distinct call, whoever reads it
    with onepass.reference_core():
        assert list(check_text(text, "t.jsonl").findings) == list(report.findings)


def test_a_server_wording_is_read_once() -> None:
    from migrator.judge import wording

    text = "MCP error -32602: Invalid arguments for tool add: expected a number"
    first, again = wording.read_message(text), wording.read_message(text)
    assert first is again and first.kind is wording.MessageKind.VALIDATION
    assert wording.read_message(None).kind is wording.MessageKind.UNCLEAR


def test_every_rule_that_reads_wire_traffic_declares_when_it_is_quiet() -> None:
    """A hook without a declaration sends every message it reads the full way."""
    undeclared = {
        rule.info.code
        for rule in rule_set(None, True).validators
        for hook, declared in (
            ("check_message", "message_quiet_given"),
            ("check_exchange", "exchange_quiet_given"),
        )
        if hook in type(rule).__dict__ and getattr(rule, declared) is None
    }
    assert undeclared == {"MCP206"}  # every message against the official schema: always called
    declared = {
        fact
        for rule in rule_set(None, True).validators
        for facts in (rule.message_quiet_given, rule.exchange_quiet_given)
        for fact in facts or ()
    }
    assert declared == set(base.Fact)  # no fact established that no rule reads


# -- the typed subsets, held to the python-jsonschema oracle --------------------------

plain_names = st.text(max_size=5)
plain_arguments = st.dictionaries(st.text(max_size=3), argument_values, max_size=3)


@settings(max_examples=examples(100), deadline=None)
@given(
    st.one_of(st.integers(-(2**63), 2**63), st.text(max_size=4)),
    plain_names,
    st.one_of(st.none(), plain_arguments),
    st.dictionaries(st.sampled_from(["extra", "x"]), argument_values, max_size=1),
)
def test_a_plain_call_is_a_valid_request_of_every_version_it_claims(
    request_id: Any, name: str, arguments: Any, extra: dict[str, Any]
) -> None:
    params: dict[str, Any] = {"name": name}
    if arguments is not None:
        params["arguments"] = arguments
    raw = json.dumps(params).encode()
    import msgspec

    assert plain_call(msgspec.Raw(raw)) == (name, arguments)
    request = {"jsonrpc": "2.0", "id": request_id, "method": "tools/call", "params": params}
    request.update(extra)
    for version in PLAIN_CALL_VALID_VERSIONS:
        assert validation.mcp(version, "CallToolRequest").reference.is_valid(request), version
    assert set(schemas.SUPPORTED_VERSIONS) - PLAIN_CALL_VALID_VERSIONS == {"2026-07-28"}


member_texts = st.sampled_from([
    '"jsonrpc":"2.0"', '"jsonrpc":"1.0"', '"id":7', '"id":"a"', '"id":1.5', '"id":null',
    '"method":"tools/call"', '"method":"ping"', '"method":1',
    '"params":{"name":"add"}', '"params":{"name":"add","arguments":{"a":1}}',
    '"params":{"name":"b","arguments":[]}', '"params":{"name":"b","_meta":{}}', '"params":[]',
    '"result":{}', '"extra":{"method":"ping"}',
])  # fmt: skip


@settings(max_examples=examples(300), deadline=None)
@given(st.lists(member_texts, max_size=7))
def test_a_call_read_whole_is_the_call_its_envelope_gives(members: list[str]) -> None:
    """The one pass reads a tools/call request in one decode (members repeated or not, in
    any order) only where its envelope and params would give the same id, version and call."""
    text = "{" + ",".join(members) + "}"
    whole = plain_call_request(text)
    envelope = decode_envelope(text)  # every generated line is one JSON object
    if whole is None or whole.params is None:
        return
    assert envelope.method == "tools/call"
    assert (whole.jsonrpc, whole.id) == (envelope.jsonrpc, envelope.id)
    assert call_of(whole.params) == plain_call(envelope.params)


def test_the_usual_call_is_read_whole() -> None:
    line = (
        '{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"add","arguments":{"a":1}}}'
    )
    whole = plain_call_request(line + "\n")
    assert whole is not None and whole.params is not None
    assert (whole.jsonrpc, whole.id, call_of(whole.params)) == ("2.0", 3, ("add", {"a": 1}))
    assert plain_call_request(line.replace("tools/call", "tools/list")) is None
    assert plain_call_request(line[:-1] + ',"method":"ping"}') is None  # any other method refuses
    assert plain_call_request(line.replace('"method":"tools/call",', "")) is None  # so does none


@pytest.mark.parametrize(
    "params",
    [
        '{"name":"a","_meta":{}}',
        '{"name":"a","arguments":[]}',
        '{"name":1}',
        '{"arguments":{}}',
        '{"name":"a","task":{}}',
        '{"name":"a","arguments":{"x":1e400}}',
    ],
)
def test_anything_else_is_not_a_plain_call(params: str) -> None:
    import msgspec

    assert plain_call(msgspec.Raw(params.encode())) is None


def test_the_report_command_reads_every_verdict_the_full_way() -> None:
    pipeline = Pipeline("t.jsonl", dataclasses.replace(Options(), servers=True), FileReport("t"))
    assert not pipeline.one_pass.enabled


# -- the proxies share the one pass ---------------------------------------------------


def _with_directions(corpus: str) -> list[tuple[bytes, Direction]]:
    """Each line with the side that sent it, as a proxy knows it."""
    return [
        (line.encode(), Direction.SERVER_TO_CLIENT if server else Direction.CLIENT_TO_SERVER)
        for line, server in sent_by_server(corpus.splitlines(keepends=True))
    ]


def _through_a_proxy(lines: list[tuple[bytes, Direction]], options: Options) -> tuple[Any, ...]:
    logged: list[str] = []
    fixer = LiveFixer("<proxy>", options, logged.append)
    forwarded = [fixer(line, direction) for line, direction in lines]
    return forwarded, logged, fixer.summary(), fixer.pipeline.one_pass.lines_full_way


def test_a_proxy_forwards_what_the_full_way_forwards_and_sends_valid_calls_through_the_one_pass(
    benchmark_corpus: str,
) -> None:
    lines = _with_directions(benchmark_corpus)
    for options in (Options(mode=Mode.FIX), Options()):
        forwarded, logged, summary, full_way = _through_a_proxy(lines, options)
        with onepass.reference_core():
            reference = _through_a_proxy(lines, options)
        assert (forwarded, logged, summary) == reference[:3]
        assert reference[3] == len(lines)  # the reference sends every line the full way
        assert full_way < len(lines) // 4  # the one pass decided the rest itself
        rewritten = sum(out != line for out, (line, _) in zip(forwarded, lines, strict=True))
        # The corpus's -32602 answers are rewritten when fixing, and only then.
        assert (rewritten > 0) is options.apply_fixes
        assert logged  # findings are logged either way


def test_the_counted_pass_is_check_s_one_pass_over_the_file(tmp_path: Path) -> None:
    """``benchmarks/core.py --instructions`` counts the pass check makes (valgrind aside)."""
    import core  # benchmarks/core.py

    text = "".join(line + "\n" for line in generate(400))
    path = tmp_path / "t.jsonl"
    path.write_text(text, encoding="utf-8")
    counted = subprocess.run(
        [sys.executable, "-c", core.COUNTED, str(ROOT), str(path), "pass", "1"],
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    found = len(check_text(text, str(path)).findings)
    assert found > 0
    assert int(counted.stdout) == found
    orjson_loop = [sys.executable, "-c", core.COUNTED, str(ROOT), str(path), "orjson", "1"]
    assert subprocess.run(orjson_loop, capture_output=True, check=False).returncode == 0


def test_the_counted_check_of_a_trace_is_check_file(tmp_path: Path) -> None:
    """``benchmarks/traces.py --instructions`` counts what ``check`` does with a trace."""
    import core  # benchmarks/core.py
    import traces  # benchmarks/traces.py

    path = tmp_path / "t.otlp.jsonl"
    path.write_text(
        "".join(line + "\n" for _, line in zip(range(40), traces.export_lines(10), strict=False)),
        encoding="utf-8",
    )
    counted = subprocess.run(
        [sys.executable, "-c", core.COUNTED, str(ROOT), str(path), "check", "1"],
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    found = len(check_text(path.read_text(encoding="utf-8"), str(path)).findings)
    assert found > 0
    assert int(counted.stdout) == found


def test_by_function_reads_callgrind_annotate_by_library_and_function() -> None:
    """``benchmarks/core.py --by-function`` sums callgrind_annotate's own counts per function."""
    import core  # benchmarks/core.py

    annotated = """\
--------------------------------------------------------------------------------
Ir
--------------------------------------------------------------------------------
1,000,000 (100.0%)  PROGRAM TOTALS

--------------------------------------------------------------------------------
Ir                    file:function
--------------------------------------------------------------------------------
500,000 (50.00%)  /build/Python-3.11.7/Python/ceval.c:_PyEval_EvalFrameDefault'2 [/opt/py/lib/libpython3.11.so.1.0]
200,000 (20.00%)  /build/Python-3.11.7/Python/ceval.c:_PyEval_EvalFrameDefault [/opt/py/lib/libpython3.11.so.1.0]
150,000 (15.00%)  ???:json_decode_string_view [/venv/lib/python3.11/site-packages/msgspec/_core.so]
 90,000 ( 9.00%)  /build/Python-3.11.7/./Include/object.h:_PyFrame_Clear
 60,000 ( 6.00%)  ./string/memcmp.S:__memcmp_avx2_movbe [/usr/lib/x86_64-linux-gnu/libc.so.6]
"""
    assert core.function_costs(annotated) == {
        ("CPython", "ceval.c:_PyEval_EvalFrameDefault"): 700_000,
        ("msgspec", "???:json_decode_string_view"): 150_000,
        ("CPython", "object.h:_PyFrame_Clear"): 90_000,
        ("libc", "memcmp.S:__memcmp_avx2_movbe"): 60_000,
    }
