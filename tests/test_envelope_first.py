"""Envelope-first decoding changes no verdict and no byte.

The wire reader decodes a line into a msgspec envelope and leaves the payload
undecoded until a rule asks for it. Every test here runs the same input twice,
once that way and once with every payload decoded up front (the exact path,
as before the envelope existed), and wants the same findings, the same output
bytes and the same errors: on the fixture corpus, on generated bench
transcripts, and on hypothesis-generated transcripts with broken envelopes.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from migrator.engine.options import Mode
from migrator.engine.pipeline import FileReport, Options, Pipeline, process
from migrator.errors import MigratorError
from migrator.model.jsonrpc import envelope_message
from migrator.model.source import iter_lines, split_lines
from migrator.model.units import Kind
from migrator.readers import wire
from tests.conftest import ROOT
from tests.test_properties import transcripts

Outcome = tuple[list[Any], str | None, int, str | None]

CORPUS = sorted(
    path
    for folder in ("tests/golden", "tests/fixtures/recorded", "docs/examples")
    for path in (ROOT / folder).rglob("*")
    if path.is_file()
    and path.suffix in {".jsonl", ".json", ".yaml", ".yml", ".har", ".log", ".txt"}
    and path.name not in {"check.txt", "manifest.json", "options.json"}
)


def _run(lines: list[str], options: Options) -> Outcome:
    report = FileReport("t.jsonl")
    try:
        output = "".join(process(iter(lines), "t.jsonl", options, report))
    except MigratorError as exc:
        return list(report.findings), None, report.fixes, f"{type(exc).__name__}: {exc}"
    return list(report.findings), output, report.fixes, None


def _both(
    lines: list[str], options: Options, monkeypatch: pytest.MonkeyPatch
) -> tuple[Outcome, Outcome]:
    fast = _run(lines, options)
    with monkeypatch.context() as patch:
        patch.setattr(
            wire, "envelope_message", lambda *args: None
        )  # every payload decoded up front
        exact = _run(lines, options)
    return fast, exact


MODES = {
    "check": Options(),
    "fix": Options(mode=Mode.FIX),
    "fix-unsafe": Options(mode=Mode.FIX, unsafe_fixes=True),
}


@pytest.mark.parametrize("path", CORPUS, ids=lambda p: str(p.relative_to(ROOT)))
def test_fixture_corpus_unchanged(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with path.open("rb") as stream:
        lines = list(iter_lines(stream))
    for mode, options in MODES.items():
        fast, exact = _both(lines, options, monkeypatch)
        assert fast == exact, f"{mode}: envelope-first differs from the exact path"


@pytest.mark.slow
def test_bench_corpus_unchanged(monkeypatch: pytest.MonkeyPatch) -> None:
    import sys

    sys.path.insert(0, str(ROOT / "benchmarks"))
    try:
        from generate import generate
    finally:
        sys.path.remove(str(ROOT / "benchmarks"))
    lines = [line + "\n" for line in generate(100_000)]
    for mode, options in {"check": Options(), "fix": Options(mode=Mode.FIX)}.items():
        fast, exact = _both(lines, options, monkeypatch)
        assert fast[1:] == exact[1:], mode
        assert fast[0] == exact[0], mode
        assert fast[0], "the bench corpus has findings"


SETTINGS = settings(
    max_examples=200,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)

# Lines that bend the envelope: wrong types in each member, members twice,
# numbers and strings the decoders disagree on, whitespace, a byte-order mark.
awkward_lines = st.sampled_from(
    [
        '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":null}',
        '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":[1]}',
        '{"jsonrpc":"2.0","id":1,"method":7}',
        '{"jsonrpc":"2.0","id":null,"method":"ping"}',
        '{"jsonrpc":"2.0","id":1.5,"method":"ping"}',
        '{"jsonrpc":"2.0","id":2.0,"result":{}}',
        '{"jsonrpc":"2.0","id":true,"result":{}}',
        '{"jsonrpc":"2.0","id":{"a":1},"result":{}}',
        '{"jsonrpc":"1.0","id":1,"result":{}}',
        '{"jsonrpc":2.0,"id":1,"result":{}}',
        '{"id":1,"result":{}}',
        '{"jsonrpc":"2.0","id":1,"result":[]}',
        '{"jsonrpc":"2.0","id":1,"result":null}',
        '{"jsonrpc":"2.0","id":1,"result":{},"error":{"code":1,"message":"x"}}',
        '{"jsonrpc":"2.0","id":1,"error":{"code":"x","message":"y"}}',
        '{"jsonrpc":"2.0","id":1,"error":{"code":-32602}}',
        '{"jsonrpc":"2.0","id":1,"error":null}',
        '{"jsonrpc":"2.0","result":{}}',
        '{"jsonrpc":"2.0"}',
        "{}",
        '{"jsonrpc":"2.0","id":1,"id":"1","method":"ping"}',
        '{"jsonrpc":"2.0","id":1,"method":"ping","method":"tools/list"}',
        '{"jsonrpc":"2.0","id":1,"result":{},"result":{"tools":[]}}',
        '{"jsonrpc":"2.0","id":123456789012345678901234567890,"method":"ping"}',
        '{"jsonrpc":"2.0","id":1,"result":{"n":123456789012345678901234567890}}',
        '{"jsonrpc":"2.0","id":"\\ud800","method":"ping"}',
        '{"jsonrpc":"2.0","id":1,"result":{"s":"\\ud800"}}',
        '{"jsonrpc":"2.0","id":1,"result":{"n":NaN}}',
        '{"jsonrpc":"2.0","id":1,"result":{"n":Infinity}}',
        '{"jsonrpc":"2.0","id":1,"result":{"n":1e999}}',
        '{"jsonrpc":"2.0","id":1,"result":{"s":"tab\there"}}',
        '{"jsonrpc":"2.0","id":1,"result":{}} x',
        '{"jsonrpc":"2.0","id":1,"result":{}}\x0c',
        '{"jsonrpc":"2.0","id":1,"result":{}} \t ',
        '{"jsonrpc":"2.0","id":1,"result":{}}{}',
        '{"jsonrpc":"2.0","id":1,"result":{}',
        '{"jsonrpc":"2.0","id":1,"result":{"a":tru}}',
        '{"jsonrpc":"2.0","id":1,"result":{"a":[1,]}}',
        '{"jsonrpc":"2.0","id":1,"result":{"a":01}}',
        '{"jsonrpc":"2.0", "id" : 1 , "result" : { } }',
        '{ "jsonrpc":"2.0","id":1,"result":{}}',
        '\ufeff{"jsonrpc":"2.0","id":1,"method":"ping"}',
        '{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"cursor":"c"}}',
        '{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}',
        '{"jsonrpc":"2.0","id":1,"result":{"content":[]}}',
        '{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2026-07-28"}}',
        '{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2024-11-05"}}',
        '{"jsonrpc":"2.0","id":"é","method":"ping"}',
        '[{"jsonrpc":"2.0","id":1,"method":"ping"}]',
        "[]",
        "7",
        '"text"',
        "",
    ]
)


@st.composite
def bent_transcripts(draw: st.DrawFn) -> list[str]:
    base = split_lines(draw(transcripts()))
    for _ in range(draw(st.integers(0, 6))):
        base.insert(
            draw(st.integers(0, len(base))),
            draw(awkward_lines) + draw(st.sampled_from(["\n", "\r\n"])),
        )
    return base


@SETTINGS
@given(lines=bent_transcripts(), fixing=st.booleans())
def test_generated_transcripts_unchanged(
    lines: list[str], fixing: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    options = Options(mode=Mode.FIX if fixing else Mode.CHECK)
    fast, exact = _both(lines, options, monkeypatch)
    assert fast == exact


def _decoded(line: str) -> Iterator[Any]:
    message = envelope_message(line, 1)
    if message is not None:
        yield message


def test_a_message_no_rule_reads_is_never_decoded() -> None:
    lines = [
        '{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":1,"progress":1}}\n',
        '{"jsonrpc":"2.0","id":5,"method":"resources/read","params":{"uri":"file:///a"}}\n',
        '{"jsonrpc":"2.0","id":5,"result":{"contents":[]}}\n',
    ]
    units = list(wire.WireReader().units(lines))
    report = FileReport("t.jsonl")
    pipeline = Pipeline("t.jsonl", Options(), report)
    assert [pipeline.handle(unit) for unit in units] == lines
    assert not report.findings
    messages = [message for unit in units for message in unit.messages]
    assert [m.kind for m in messages] == [Kind.NOTIFICATION, Kind.REQUEST, Kind.RESULT]
    assert not any(m.decoded for m in messages)  # reading them decoded nothing either
    assert [m.payload for m in messages] == [json.loads(line) for line in lines]


def test_envelope_spans_match_the_exact_reader() -> None:
    line = '{"jsonrpc":"2.0","id":"a","method":"tools/call","params":{"name":"x"}} \r\n'
    (fast,) = _decoded(line)
    assert (fast.start, fast.end, fast.line, fast.column) == (0, len(line.rstrip()), 1, 1)
    assert (fast.kind, fast.method, fast.id) == (Kind.REQUEST, "tools/call", "a")
    assert fast.payload == json.loads(line)


@pytest.mark.parametrize("request_id", ["123456789012345678901234567890", "-9223372036854775809"])
def test_an_id_beyond_64_bits_is_the_same_id_both_ways(
    request_id: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # msgspec keeps such an integer, the exact path's parser reads a float: both must
    # pair (and word) it the same way, whichever decoder a line went through.
    ping = f'{{"jsonrpc":"2.0","id":{request_id},"method":"ping"}}\n'
    answer = f'{{"jsonrpc":"2.0","id":{request_id},"result":{{}}}}\n'
    for lines in ([ping] * 3, [ping, answer, ping, ping, answer]):
        for mode in (Mode.CHECK, Mode.FIX):
            fast, exact = _both(lines, Options(mode=mode), monkeypatch)
            assert fast == exact
