"""Every format gives the same findings as the equivalent wire JSONL."""

from __future__ import annotations

import pytest

from migrator.api import check_text, fix_text
from migrator.errors import InputError
from tests.conftest import RECORDED, ROOT

GOLDEN = ROOT / "tests" / "golden"
WIRE = (RECORDED / "ts-sdk-1.20.2.jsonl").read_text()


def keys(text: str) -> list[tuple[str, object]]:
    return [(f.code, f.request_id) for f in check_text(text).findings]


@pytest.mark.parametrize(
    ("case", "fmt"),
    [
        ("envelope-ts-sdk-1.20.2/input.jsonl", "envelope"),
        ("inspector-history-export/input.json", "json"),
        ("cassette/input.json", "json"),
    ],
)
def test_same_findings_as_wire(case: str, fmt: str) -> None:
    text = (GOLDEN / case).read_text()
    report = check_text(text)
    assert report.format == fmt
    assert keys(text) == keys(WIRE)


def test_pretty_document_keeps_indentation_and_newlines() -> None:
    text = (GOLDEN / "json-array-pretty" / "input.json").read_bytes().decode()
    after, report = fix_text(text)
    assert report.fixes == 3
    assert "\r\n" in after and "\n" not in after.replace("\r\n", "")
    assert '\r\n        "result": {\r\n            "content": [' in after


def test_document_that_is_not_a_transcript_is_an_input_error() -> None:
    with pytest.raises(InputError, match="holds no JSON-RPC messages"):
        check_text('{\n  "name": "my-package",\n  "version": "1.0.0"\n}\n')


def test_broken_document_names_the_line() -> None:
    with pytest.raises(InputError) as info:
        check_text('[\n  {"jsonrpc": "2.0", "id": 1, "method": "ping"},\n  {"jsonrpc": \n]\n')
    assert info.value.line == 4
    assert str(info.value).startswith("<string>:4: not a valid JSON document")


@pytest.mark.parametrize(
    ("text", "fmt"),
    [
        # A wrapper whose list holds one message: the indented line is a whole value.
        ('{"messages": [\n  {"jsonrpc": "2.0", "id": 1, "method": "ping"}\n]}\n', "json"),
        (
            '{"messages": [\n  {"jsonrpc": "2.0", "id": 1, "method": "ping"},\n  {"jsonrpc": "2.0", "id": 1, "result": {}}\n]}\n',
            "json",
        ),
        # A JSONL file whose first line was cut short stays a line format.
        (
            '{"jsonrpc": "2.0", "id": 1, "meth\n{"jsonrpc": "2.0", "id": 2, "method": "ping"}\n',
            "wire",
        ),
    ],
)
def test_document_or_lines_is_told_by_the_second_line(text: str, fmt: str) -> None:
    assert check_text(text).format == fmt
