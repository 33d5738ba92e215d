"""The typed decoding of OTLP lines (msgspec) against the general one (JSON, then dicts).

``check`` reads a trace line through typed structs and builds only the spans that may be
MCP spans; a line the structs do not fit goes the general way (``spans_of``), which is kept
as the oracle here: every test compares the findings (or spans) of both ways on the same
input, on the recorded traces, on the benchmark's generated traces, and on real spans with
members replaced by values of every JSON type.
"""

from __future__ import annotations

import copy
import json
import sys
from itertools import islice
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from migrator import api
from migrator.model.findings import Finding
from migrator.model.spans import OUTCOMES, looks_like_mcp, may_be_mcp, may_be_mcp_text
from migrator.readers import otlp
from migrator.readers.otlp import spans_of, typed_spans
from migrator.rules.registry import span_rules
from tests.conftest import FIXTURES, ROOT, examples

TRACES = FIXTURES / "traces"
RECORDED_TRACES = sorted(TRACES.glob("*.otlp.jsonl"))
ERROR_LINE = next(
    text
    for text in (TRACES / "ts-sdk-1.20.2.otlp.jsonl").read_text(encoding="utf-8").splitlines()
    if "-32602" in text
)


def findings_both_ways(text: str, monkeypatch: pytest.MonkeyPatch) -> tuple[list[Finding], ...]:
    """The findings of ``check`` on ``text``: typed (as shipped), then the general way only."""
    typed = api.check_text(text, "t.otlp.jsonl").findings
    with monkeypatch.context() as patched:
        patched.setattr(otlp, "typed_spans", lambda *_args, **_kwargs: None)
        general = api.check_text(text, "t.otlp.jsonl").findings
    return typed, general


def same_spans(line: str) -> None:
    """The typed decoding gives the spans the general one gives, or leaves the line to it."""
    typed = typed_spans(line, 7)
    try:
        general = spans_of(json.loads(line), 7)
    except ValueError:
        assert typed is None
        return
    if isinstance(general, str):
        assert typed is None, general
    elif typed is not None:
        assert repr(typed) == repr(general)  # repr: a NaN attribute is equal to itself


def member_paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [prefix]
    if isinstance(value, dict):
        for key, item in value.items():
            out += member_paths(item, (*prefix, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            out += member_paths(item, (*prefix, index))
    return out


def replaced(document: Any, path: tuple[Any, ...], value: Any) -> Any:
    mutated = copy.deepcopy(document)
    holder = mutated
    for key in path[:-1]:
        holder = holder[key]
    holder[path[-1]] = value
    return mutated


@pytest.mark.parametrize("path", RECORDED_TRACES, ids=lambda p: p.name)
def test_recorded_traces_same_spans_and_findings(
    path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    text = path.read_text(encoding="utf-8")
    for line in text.splitlines():
        assert typed_spans(line, 7) is not None  # real traces take the typed way
        same_spans(line)
    typed, general = findings_both_ways(text, monkeypatch)
    assert typed == general
    assert typed  # the old server's trace has findings; the comparison is not vacuous
    if "1.20.2" in path.name:
        assert any(finding.code == "MCP401" for finding in typed)


@pytest.mark.parametrize("others", [0, 3], ids=["mcp-only", "with-http-spans"])
def test_generated_traces_same_findings(others: int, monkeypatch: pytest.MonkeyPatch) -> None:
    sys.path.insert(0, str(ROOT / "benchmarks"))
    try:
        from traces import export_lines  # the benchmark's generator
    finally:
        sys.path.remove(str(ROOT / "benchmarks"))
    lines = list(islice(export_lines(10, others), 400))
    assert all(typed_spans(line, 1) is not None for line in lines)  # none falls back
    text = "\n".join(lines) + "\n"
    typed, general = findings_both_ways(text, monkeypatch)
    assert typed == general
    assert len({finding.code for finding in typed}) >= 2


ODD_VALUES = [
    None, True, 0, -1, 3, 2**70, 1.5, "", "x", "SPAN_KIND_SERVER", "00f067aa0ba902b7", "00F067AA0BA902B7",
    "4bf92f3577b34da6a3ce929d0e0e4736", "4bf92f3577b34da6a3ce929d0e0e473",
    "AAECAwQFBgc=", [], [1], {}, {"a": 1}, {"stringValue": 3}, {"stringValue": "s"},
    {"intValue": "12"}, {"intValue": "twelve"}, {"intValue": True}, {"doubleValue": "NaN"},
    {"doubleValue": "1.5"}, {"boolValue": 1}, {"bytesValue": "AA=="}, {"stringValue": "s", "intValue": 1},
    {"arrayValue": {"values": [{"stringValue": "a"}, {"intValue": 2}]}},
    {"arrayValue": {"values": [{"nope": 1}]}}, {"kvlistValue": {"values": [{"key": "k"}]}},
    {"kvlistValue": {"values": [{"key": 1}]}}, {"key": "mcp.method.name", "value": {}},
]  # fmt: skip


def test_every_member_of_a_real_span_replaced_same_findings(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    original = json.loads(ERROR_LINE)
    for path in member_paths(original)[1:]:
        for value in ODD_VALUES:
            line = json.dumps(replaced(original, path, value))
            same_spans(line)
            typed, general = findings_both_ways(line + "\n", monkeypatch)
            assert typed == general, (path, value)


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=12), inner, max_size=3)
    ),
    max_leaves=8,
)
MEMBER_NAMES = st.sampled_from(
    ["traceId", "spanId", "parentSpanId", "name", "kind", "attributes", "status", "events",
     "code", "message", "key", "value", "stringValue", "intValue", "doubleValue", "boolValue",
     "arrayValue", "kvlistValue", "bytesValue", "values", "scope", "spans", "resource",
     "scopeSpans", "scope_spans", "resourceSpans", "resource_spans", "links", "mcp.method.name"]
)  # fmt: skip


@settings(max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_random_edits_of_a_real_line_same_spans(data: st.DataObject) -> None:
    document = json.loads(ERROR_LINE)
    for _ in range(data.draw(st.integers(1, 3))):
        paths = member_paths(document)[1:]
        path = data.draw(st.sampled_from(paths))
        if data.draw(st.booleans()) and isinstance(document, dict):
            holder = document
            for key in path[:-1]:
                holder = holder[key]
            if isinstance(holder, dict):  # a member added next to an existing one
                holder[data.draw(MEMBER_NAMES)] = data.draw(JSON_VALUES)
                continue
        document = replaced(document, path, data.draw(JSON_VALUES))
    same_spans(json.dumps(document, separators=(",", ":")))


def test_bad_lines_keep_their_findings_and_lines(monkeypatch: pytest.MonkeyPatch) -> None:
    good = (TRACES / "py-sdk-2.3.0.otlp.jsonl").read_text(encoding="utf-8").splitlines()[0]
    lines = [good, "{not json", '{"resourceSpans": 3}', "[]", "", good.replace('"key"', '"k"', 1)]
    typed, general = findings_both_ways("\n".join(lines) + "\n", monkeypatch)
    assert typed == general
    assert [(f.code, f.line) for f in typed if f.code in ("MCP301", "MCP407")] == [
        ("MCP301", 2),
        ("MCP407", 3),
        ("MCP407", 4),
    ]


def test_only_spans_that_may_be_mcp_are_built() -> None:
    line = json.loads(ERROR_LINE)
    spans = line["resourceSpans"][0]["scopeSpans"][0]["spans"]
    spans.append({"traceId": "0" * 31 + "1", "spanId": "0" * 15 + "1", "name": "GET /health"})
    text = json.dumps(line)
    every = typed_spans(text, 1)
    kept = typed_spans(text, 1, keep=may_be_mcp)
    assert every is not None and kept is not None
    assert [s.name for s in every if looks_like_mcp(s)] == [s.name for s in kept]
    assert "GET /health" in [s.name for s in every]
    assert "GET /health" not in [s.name for s in kept]


def test_every_kind_of_value_and_events_take_the_typed_way() -> None:
    document = json.loads(ERROR_LINE)
    span = document["resourceSpans"][0]["scopeSpans"][0]["spans"][0]
    span["attributes"] += [
        {"key": "server.port", "value": {"intValue": "8080"}},
        {"key": "client.port", "value": {"intValue": 51234}},
        {"key": "retry.ratio", "value": {"doubleValue": 0.5}},
        {"key": "cached", "value": {"boolValue": False}},
        {"key": "payload", "value": {"bytesValue": "AAEC"}},
        {"key": "tags", "value": {"arrayValue": {"values": [{"stringValue": "a"}]}}},
        {"key": "extra", "value": {"kvlistValue": {"values": [{"key": "k", "value": {}}]}}},
        {"key": "unset"},
    ]
    span["events"] = [
        {
            "name": "exception",
            "attributes": [
                {"key": "exception.type", "value": {"stringValue": "McpError"}},
                {"key": "exception.message", "value": {"stringValue": "MCP error -32602: bad"}},
            ],
        },
        {"timeUnixNano": "1", "attributes": [{"key": "n", "value": {"intValue": "x"}}]},
    ]
    line = json.dumps(document)
    typed = typed_spans(line, 1)
    assert typed is not None
    assert typed[0].attributes["server.port"].value == 8080
    assert [event.name for event in typed[0].events] == ["exception", ""]
    assert "event None: attribute 'n': the value is not an OTLP AnyValue" in typed[0].defects
    same_spans(line)


ALL_TRACES = [*RECORDED_TRACES, *sorted((FIXTURES / "gateways" / "spans").glob("*.jsonl"))]


def findings_routed_and_every_rule_called(
    text: str, monkeypatch: pytest.MonkeyPatch
) -> tuple[list[Finding], list[Finding]]:
    """The findings of ``check`` on ``text``: as shipped (a call rule is called only for the
    outcomes it declares), then with every call rule called for every span."""
    routed = api.check_text(text, "t.otlp.jsonl").findings
    with monkeypatch.context() as patched:
        for rule in span_rules():
            patched.setattr(type(rule), "outcomes", None)
        every = api.check_text(text, "t.otlp.jsonl").findings
    return routed, every


@pytest.mark.parametrize("path", ALL_TRACES, ids=lambda p: p.name)
def test_call_rules_called_only_for_their_outcomes_miss_nothing(
    path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    routed, every = findings_routed_and_every_rule_called(
        path.read_text(encoding="utf-8"), monkeypatch
    )
    assert routed == every
    assert routed  # every file has findings: the comparison is not vacuous


def test_rules_declare_outcomes_that_spans_have() -> None:
    declared = [rule.outcomes for rule in span_rules() if rule.outcomes is not None]
    assert declared  # MCP401 and MCP402 are routed
    assert all(outcomes <= set(OUTCOMES) for outcomes in declared)


def test_every_member_of_a_real_span_replaced_routing_misses_nothing(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    with_result = json.loads(ERROR_LINE)  # and a tool result with isError (MCP402's case)
    with_result["resourceSpans"][0]["scopeSpans"][0]["spans"][0]["attributes"].append(
        {"key": "gen_ai.tool.call.result", "value": {"stringValue": '{"isError": true}'}}
    )
    codes: set[str] = set()
    for original in (json.loads(ERROR_LINE), with_result):
        for path in member_paths(original)[1:]:
            for value in ODD_VALUES:
                line = json.dumps(replaced(original, path, value))
                routed, every = findings_routed_and_every_rule_called(line + "\n", monkeypatch)
                assert routed == every, (path, value)
                codes |= {finding.code for finding in routed}
    assert {"MCP401", "MCP402"} <= codes  # both routed rules found something on the way


KEYS = st.sampled_from(
    ["mcp.method.name", "mcp.x", "mcp.", "http.method", "xmcp.y", "gen_ai.tool.name", "m", ""]
) | st.text(max_size=12)


def escaped(key: str) -> str:
    """A JSON string of ``key`` with every ASCII letter escaped, as a writer is allowed to."""
    return (
        '"'
        + "".join(
            f"\\u{ord(c):04x}" if c.isascii() and c.isalpha() else json.dumps(c)[1:-1] for c in key
        )
        + '"'
    )


@settings(max_examples=examples(300), deadline=None)
@given(
    name=st.sampled_from(["GET", "tools/call add", "MCP send tools/call x", "mcp.tool.call", ""])
    | st.text(max_size=10),
    keys=st.lists(KEYS, max_size=4),
    escape=st.lists(st.booleans(), min_size=4, max_size=4),
    spaced=st.booleans(),
)
def test_the_text_test_keeps_every_span_the_key_test_keeps(
    name: str, keys: list[str], escape: list[bool], spaced: bool
) -> None:
    colon = ": " if spaced else ":"
    entries = [
        "{"
        + f'"key"{colon}{escaped(key) if escape[i] else json.dumps(key)},"value"{colon}{{}}'
        + "}"
        for i, key in enumerate(keys)
    ]
    text = ("[" + ", ".join(entries) + "]").encode()
    assert [entry["key"] for entry in json.loads(text)] == keys
    if may_be_mcp(name, keys):
        assert may_be_mcp_text(name, text)


def test_spans_left_out_by_their_text_are_the_spans_left_out_by_their_keys() -> None:
    line = json.loads(ERROR_LINE)
    spans = line["resourceSpans"][0]["scopeSpans"][0]["spans"]
    http = {"traceId": "0" * 31 + "1", "spanId": "0" * 15 + "1", "name": "GET"}
    spans += [
        {**http, "attributes": [{"key": "url.full", "value": {"stringValue": '"mcp.x'}}]},
        {**http, "attributes": [{"key": "\u006dcp.method.name", "value": {"stringValue": "ping"}}]},
        {**http, "attributes": [{"key": "http.method", "value": {"stringValue": "GET"}}]},
        {**http, "attributes": 3},
    ]
    for text in (json.dumps(line), json.dumps(line, ensure_ascii=False)):
        by_keys = typed_spans(text, 1, keep=may_be_mcp)
        by_text = typed_spans(text, 1, keep=may_be_mcp, keep_text=may_be_mcp_text)
        assert by_keys is not None and by_text is not None
        assert repr(by_text) == repr(by_keys)
        assert len(by_text) == len(spans) - 3  # the escaped mcp. key is kept; the others are not


ATTRIBUTE_TEXTS = [
    '[{"key":"mcp.method.name","value":{"stringValue":"tools/call"}}]',
    '[{"key":"a","value":{}}]',  # an empty AnyValue
    '[{"key":"a"}]',  # no value at all
    '[{"key":"a","value":null}]',
    '[{"key":"a","value":{"stringValue":"x","stringValue":"y"}}]',  # the last one counts
    '[{"key":"a","key":"b","value":{"stringValue":"x"}}]',
    '[{"key":"a","value":{"stringValue":"x"}},{"key":"a","value":{"stringValue":"z"}}]',
    '[{"key":"a","value":{"stringValue":"x"},"extra":1}]',
    '[{"key":"a","value":{"stringValue":"x","intValue":1}}]',
    '[{"key":"a","value":{"stringValue":null}}]',
    '[{"key":"server.port","value":{"intValue":"8080"}},{"key":"b","value":{"stringValue":"s"}}]',
    '[{"key":3,"value":{"stringValue":"x"}}]',
    "[1]",
    "{}",
    "null",
    "[]",
]


@pytest.mark.parametrize("text", ATTRIBUTE_TEXTS)
def test_span_attributes_read_typed_are_the_general_way_s(text: str) -> None:
    """A span's attributes decoded as string-valued entries give what ``key_values`` gives."""
    import msgspec

    raw = msgspec.Raw(text.encode())
    assert otlp._span_attributes(raw) == otlp.key_values(json.loads(text))
