"""Typed reading of tools/call results accepts only what the schema accepts, and reads it right.

:func:`migrator.model.tool_results.plain_tool_result` lets MCP202 skip validating a
result, and the classifier, MCP204 and MCP501 skip decoding it. So whatever
it accepts must be a valid ``CallToolResult`` of every version it is used
for (python-jsonschema, on the project's schemas, is the oracle), and the
facts it reports (``isError``, ``structuredContent`` present) must be the
decoded payload's. Checked on hypothesis-generated valid and invalid shapes
and on the bench corpus.
"""

from __future__ import annotations

import json
import sys
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from migrator.judge import schemas
from migrator.model.jsonrpc import envelope_message
from migrator.model.tool_results import (
    SCHEMA_VALID_VERSIONS,
    plain_call_response,
    plain_tool_result,
)
from migrator.model.units import Kind
from tests.conftest import ROOT

json_values: Any = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=5),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3)
    ),
    max_leaves=6,
)
ABSENT = object()


def maybe(value: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    """Absent two times in three: a result with every member present is rarely valid."""
    return st.integers(0, 2).flatmap(lambda pick: value if pick == 0 else st.just(ABSENT))


@st.composite
def blocks(draw: st.DrawFn) -> Any:
    block = {
        "type": draw(st.just("text") | st.sampled_from(["image", "Text", 1, None])),
        "text": draw(st.text(max_size=8) | json_values),
        "annotations": draw(maybe(st.just({"priority": 0.5}) | json_values)),
        "_meta": draw(maybe(st.just({}) | json_values)),
        "extra": draw(maybe(json_values)),
    }
    block = {key: value for key, value in block.items() if value is not ABSENT}
    if draw(st.integers(0, 3)) == 0:
        del block[draw(st.sampled_from(sorted(block)))]
    return draw(st.just(block) | json_values) if draw(st.integers(0, 9)) == 0 else block


@st.composite
def results(draw: st.DrawFn) -> Any:
    result = {
        "content": draw(st.lists(blocks(), max_size=3) | json_values),
        "isError": draw(maybe(st.booleans() | json_values)),
        "structuredContent": draw(
            maybe(st.dictionaries(st.text(max_size=3), json_values, max_size=2) | json_values)
        ),
        "_meta": draw(maybe(st.just({}) | json_values)),
        "resultType": draw(maybe(st.just("complete"))),
        "other": draw(maybe(json_values)),
    }
    result = {key: value for key, value in result.items() if value is not ABSENT}
    if draw(st.integers(0, 4)) == 0 and result:
        del result[draw(st.sampled_from(sorted(result)))]
    return draw(st.just(result) | json_values) if draw(st.integers(0, 19)) == 0 else result


def response(result_text: str) -> Any:
    message = envelope_message('{"jsonrpc":"2.0","id":7,"result":' + result_text + "}", 1)
    assert message is not None and message.kind is Kind.RESULT
    return message


def assert_agrees_with_the_oracle(result: Any, result_text: str) -> bool:
    """Check the typed reading of one result; return whether it took the typed way."""
    plain = plain_tool_result(response(result_text))
    if plain is None:
        return False
    for version in sorted(SCHEMA_VALID_VERSIONS):
        errors = [
            e.message for e in schemas.validator(version, "CallToolResult").iter_errors(result)
        ]
        assert not errors, (version, result_text, errors)
    assert isinstance(result, dict)
    assert plain.is_error == (result.get("isError") is True)
    assert bool(plain.structured_content) == ("structuredContent" in result)
    return True


@settings(max_examples=400, deadline=None)
@given(results())
def test_what_the_typed_reading_accepts_the_schema_accepts(result: Any) -> None:
    assert_agrees_with_the_oracle(result, json.dumps(result))


@pytest.mark.parametrize(
    "result",
    [
        {"content": []},
        {"content": [{"type": "text", "text": "ok"}]},
        {"content": [{"type": "text", "text": "no", "extra": [1]}], "isError": True},
        {
            "content": [{"type": "text", "text": "3"}],
            "structuredContent": {"sum": 3},
            "other": None,
        },
    ],
)
def test_plain_results_take_the_typed_way(result: Any) -> None:
    assert assert_agrees_with_the_oracle(result, json.dumps(result))


@pytest.mark.parametrize(
    "result_text",
    [
        '{"content":"ok"}',  # not an array
        "{}",  # no content
        '{"content":[{"type":"image","data":"","mimeType":"image/png"}]}',  # valid, but not text blocks
        '{"content":[{"type":"text","text":"x","annotations":{}}]}',  # annotations are checked the full way
        '{"content":[],"_meta":{}}',
        '{"content":[],"isError":1}',
        '{"content":[],"isError":null}',
        '{"content":[],"structuredContent":[1]}',  # an object from 2025-06-18 on
        '{"content":[],"content":"ok"}',  # a duplicate member: the full way decides which one counts
        '{"content":"ok","content":[]}',
        "[]",
    ],
)
def test_other_results_go_the_full_way(result_text: str) -> None:
    assert plain_tool_result(response(result_text)) is None


def test_bench_corpus_agrees_with_the_oracle() -> None:
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from generate import generate

    typed = 0
    for line in generate(3000):
        message = envelope_message(line, 1)
        if message is None or message.kind is not Kind.RESULT or '"content"' not in line:
            continue
        result = json.loads(line)["result"]
        typed += assert_agrees_with_the_oracle(result, json.dumps(result))
    assert typed > 500  # most tools/call results of the bench take the typed way


@settings(max_examples=300, deadline=None)
@given(results())
def test_a_whole_line_read_typed_is_the_result_read_envelope_first(result: Any) -> None:
    """The one-pass core reads a response line in one decode; it must read what the two steps read."""
    text = json.dumps(result)
    line = '{"jsonrpc":"2.0","id":7,"result":' + text + "}"
    whole, stepwise = plain_call_response(line), plain_tool_result(response(text))
    assert (whole is None) == (stepwise is None)
    if whole is not None and stepwise is not None:
        assert (whole.jsonrpc, whole.id) == ("2.0", 7)
        assert whole.result == stepwise


@pytest.mark.parametrize(
    "line",
    [
        '{"jsonrpc":"2.0","id":7,"result":{"content":[]},"error":{"code":1,"message":"x"}}',
        '{"jsonrpc":"2.0","id":7,"method":"x","result":{"content":[]}}',
        '{"jsonrpc":"2.0","id":7,"result":{"content":[]},"extra":1}',
        '{"jsonrpc":"2.0","result":{"content":[]}}',  # no id: not a response
        '{"jsonrpc":"2.0","id":7,"result":{"content":[{"type":"text","text":1}]}}',
        '{"jsonrpc":"2.0","id":7,"result":{"content":[]}} x',
    ],
)
def test_a_line_with_anything_more_is_read_envelope_first(line: str) -> None:
    assert plain_call_response(line) is None
