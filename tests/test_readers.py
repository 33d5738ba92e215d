"""Readers: format detection, spans, directions, and lines that are not messages."""

from __future__ import annotations

import json

import orjson
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from migrator.api import check_text
from migrator.errors import UsageError
from migrator.model import jsontext
from migrator.model.source import split_lines
from migrator.model.units import Direction
from migrator.readers import InputFormat, detect

C2S, S2C = Direction.CLIENT_TO_SERVER, Direction.SERVER_TO_CLIENT
CALL = {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "t", "arguments": {}}}
REPLY = {"jsonrpc": "2.0", "id": 1, "result": {"content": []}}


def units(text: str, forced: InputFormat = InputFormat.AUTO) -> list:
    lines = split_lines(text)
    return list(detect(lines, forced).reader.units(lines))


@pytest.mark.parametrize(
    ("wrap", "expected_reason"),
    [
        (lambda d, m: {"ts": "x", "direction": d[0], "message": m}, "'direction'"),
        (lambda d, m: {"seq": 1, "t": 1.5, "dir": d[1], "msg": m}, "'dir'"),
        (lambda d, m: {"time": 1, "origin": d[2], "payload": m}, "'origin'"),
        (lambda d, m: {"event": d[3], "data": m}, "'event'"),
    ],
)
def test_envelope_vocabularies(wrap, expected_reason: str) -> None:
    c2s = ("client->server", "c2s", "client", "send")
    s2c = ("server->client", "s2c", "server", "recv")
    text = json.dumps(wrap(c2s, CALL)) + "\n" + json.dumps(wrap(s2c, REPLY)) + "\n"
    detection = detect(split_lines(text))
    assert detection.reader.name == "envelope" and expected_reason in detection.reason
    got = [m.direction for u in detection.reader.units(split_lines(text)) for m in u.messages]
    assert got == [C2S, S2C]


def test_relative_labels_are_oriented_by_content() -> None:
    # A server-side recorder: it "sends" results and "receives" the client's calls.
    text = (
        json.dumps({"event": "recv", "data": CALL})
        + "\n"
        + json.dumps({"event": "send", "data": REPLY})
        + "\n"
    )
    got = [m.direction for u in units(text) for m in u.messages]
    assert got == [C2S, S2C]


def test_envelope_message_span_is_exact() -> None:
    line = '{"ts": 1, "direction": "server->client", "message": {"jsonrpc":"2.0","id":1,"result":{}}, "note": "x"}\n'
    (unit,) = units(line)
    (message,) = unit.messages
    assert line[message.start : message.end] == '{"jsonrpc":"2.0","id":1,"result":{}}'
    assert message.column == line.index('{"jsonrpc"') + 1


def test_forced_formats() -> None:
    text = json.dumps({"direction": "c2s", "message": CALL}) + "\n"
    assert detect(split_lines(text), InputFormat.WIRE).reader.name == "wire"
    with pytest.raises(UsageError, match="no line wraps a JSON-RPC message"):
        detect(split_lines(json.dumps(CALL) + "\n"), InputFormat.ENVELOPE)


def test_batch_elements_have_their_own_spans() -> None:
    line = '[{"jsonrpc":"2.0","method":"a"}, {"jsonrpc":"2.0","id":2,"method":"b"}]\n'
    (unit,) = units(line)
    assert [line[m.start : m.end] for m in unit.messages] == [
        '{"jsonrpc":"2.0","method":"a"}',
        '{"jsonrpc":"2.0","id":2,"method":"b"}',
    ]
    assert all(m.in_batch for m in unit.messages)


@pytest.mark.parametrize(
    ("line", "code", "column"),
    [
        ('{"jsonrpc":"2.0",\n', "MCP301", 18),
        ('{"a":1} {"b":2}\n', "MCP301", 9),
        ("[garbage\n", "MCP301", 2),
        ('{"text":"caf\udce9"}\n', "MCP302", 13),
    ],
)
def test_problem_lines(line: str, code: str, column: int) -> None:
    (unit,) = units(line)
    assert unit.problem is not None and (unit.problem.code, unit.problem.column) == (code, column)
    assert unit.messages == []


def test_bom_is_kept_and_skipped() -> None:
    text = "\ufeff" + json.dumps(CALL) + "\n"
    (unit,) = units(text)
    assert unit.text == text and len(unit.messages) == 1


def test_member_spans_and_separators() -> None:
    text = '{ "a" : 1 , "b":[1,2] ,"c": {"d": "\\u00e9"} }'
    members = jsontext.object_members(text, 0)
    assert [(m.key, text[m.value_start : m.value_end]) for m in members] == [
        ("a", "1"),
        ("b", "[1,2]"),
        ("c", '{"d": "\\u00e9"}'),
    ]
    assert members[0].separator(text) == " : "


@pytest.mark.parametrize(
    ("text", "items", "keys", "ascii_escapes"),
    [
        ('{"a":1,"b":[1,2]}', ",", ":", False),
        ('{"a": 1, "b": [1, 2]}', ", ", ": ", False),
        ('{"a": "x,y:z", "b": "\\u00e9"}', ", ", ": ", True),
        ('{"a":"é"}', ",", ":", False),
    ],
)
def test_style_detection(text: str, items: str, keys: str, ascii_escapes: bool) -> None:
    style = jsontext.detect_style(text)
    assert (style.item_separator, style.key_separator, style.ensure_ascii) == (
        items,
        keys,
        ascii_escapes,
    )


def _separators_char_by_char(text: str) -> tuple[str, str]:
    """The separators a JSON text uses, read one character at a time (the reference)."""
    spaced_items = compact_items = spaced_keys = compact_keys = 0
    in_string = escaped = False
    for i, ch in enumerate(text):
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
            continue
        if ch == '"':
            in_string = True
        elif ch in ",:":
            spaced = text[i + 1 : i + 2] == " "
            if ch == ",":
                spaced_items, compact_items = spaced_items + spaced, compact_items + (not spaced)
            else:
                spaced_keys, compact_keys = spaced_keys + spaced, compact_keys + (not spaced)
    return (
        ", " if spaced_items > compact_items else ",",
        ": " if spaced_keys > compact_keys else ":",
    )


@settings(max_examples=400, deadline=None)
@given(
    st.lists(
        st.sampled_from(['"', "\\", ",", ", ", ":", ": ", " ", "a", "{", "}", "\n", "é"]),
        max_size=40,
    ).map("".join)
    | st.recursive(
        st.none() | st.booleans() | st.integers() | st.text(max_size=6),
        lambda inner: (
            st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner, max_size=3)
        ),
        max_leaves=8,
    ).flatmap(
        lambda v: st.sampled_from(
            [json.dumps(v), json.dumps(v, separators=(",", ":")), json.dumps(v, indent=2)]
        )
    )
)
def test_style_detection_agrees_with_reading_char_by_char(text: str) -> None:
    style = jsontext.detect_style(text)
    assert (style.item_separator, style.key_separator) == _separators_char_by_char(text)


@settings(max_examples=300, deadline=None)
@given(
    st.recursive(
        st.none()
        | st.booleans()
        | st.integers(min_value=-(2**70), max_value=2**70)
        | st.floats(allow_nan=False, allow_infinity=False)
        | st.text(max_size=6),
        lambda inner: (
            st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner, max_size=3)
        ),
        max_leaves=8,
    ).flatmap(
        lambda v: st.sampled_from(
            [
                json.dumps(v, separators=(",", ":"), ensure_ascii=False),
                json.dumps(v, separators=(",", ":")),
                json.dumps(v),
                json.dumps(v, indent=2),
            ]
            + ([orjson.dumps(v).decode()] if _orjson_writes(v) else [])
        )
    )
)
def test_a_text_written_compact_is_styled_as_the_long_way_styles_it(text: str) -> None:
    # The shortcut (is the text orjson's compact writing of itself?) must give the
    # style that counting the separators and escapes gives.
    style = jsontext.detect_style(text)
    shortcut = jsontext._written_compact
    jsontext._written_compact = lambda _text: False  # type: ignore[assignment]
    try:
        assert style == jsontext.detect_style(text)
    finally:
        jsontext._written_compact = shortcut


def _orjson_writes(value: object) -> bool:
    try:
        orjson.dumps(value)
    except TypeError:  # an integer beyond 64 bits, a lone surrogate
        return False
    return True


@settings(max_examples=300, deadline=None)
@given(
    st.dictionaries(
        st.text(max_size=5),
        st.recursive(
            st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(),
            lambda inner: (
                st.lists(inner, max_size=3)
                | st.dictionaries(st.text(max_size=4), inner, max_size=3)
            ),
            max_leaves=6,
        ),
        max_size=5,
    ),
    st.sampled_from(["", "  ", '{"before":1,"msg":']),
    st.booleans(),
)
def test_members_of_a_compact_object_are_where_scanning_finds_them(
    value: dict[str, object], prefix: str, spaced: bool
) -> None:
    try:
        text = orjson.dumps(value).decode()
    except TypeError:  # a lone surrogate: not what orjson writes
        return
    if spaced:  # another writer's text: left to the scan
        text = json.dumps(value)
    line = prefix + text + "}\n"
    found = jsontext.compact_members(line, len(prefix), len(prefix) + len(text), value)
    if spaced and text != orjson.dumps(value).decode():
        assert found is None
    else:
        assert found == jsontext.object_members(line, len(prefix))


def test_verbose_names_the_detected_format(tmp_path) -> None:
    from tests.conftest import run_cli

    path = tmp_path / "e.jsonl"
    path.write_text(json.dumps({"dir": "c2s", "msg": CALL}) + "\n")
    result = run_cli("check", "-v", str(path))
    assert (
        f"{path}: envelope (envelope lines: messages under 'msg', direction from 'dir' (c2s=c2s))"
        in result.err
    )


def test_check_text_counts_messages() -> None:
    assert check_text(json.dumps(CALL) + "\n" + json.dumps(REPLY) + "\n").messages == 2
