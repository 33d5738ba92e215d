"""YAML transcripts and fixtures: detection, findings, comments kept, safety."""

from __future__ import annotations

import json
import time
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from migrator.api import check_text, fix_text
from migrator.engine.pipeline import Options
from migrator.errors import InputError, NotATranscriptError, UnsafeRewriteError
from migrator.model.source import split_lines
from migrator.readers import InputFormat, detect
from tests.conftest import ROOT, examples
from tests.formats import builders

GOLDEN = ROOT / "tests" / "golden"
WIRE = (builders.RECORDED / "ts-sdk-1.20.2.jsonl").read_text()

CALL = "{jsonrpc: '2.0', id: 5, method: tools/call, params: {name: add, arguments: {a: x}}}"
INVALID = "Invalid arguments for tool add: a must be a number"


def keys(text: str) -> list[tuple[str, object]]:
    return [(f.code, f.request_id) for f in check_text(text).findings]


@pytest.mark.parametrize("case", ["yaml-ts-sdk-1.20.2", "yaml-fixture-ts-sdk-1.20.2"])
def test_same_findings_as_wire(case: str) -> None:
    text = (GOLDEN / case / "input.yaml").read_text()
    assert check_text(text).format == "yaml"
    assert keys(text) == keys(WIRE)


def test_commented_fixture_keeps_its_comments() -> None:
    text = (
        "# Fixture for the add tool.\n"
        "cases:\n"
        "  - name: add rejects a string  # issue 12\n"
        "    request:\n"
        "      jsonrpc: '2.0'  # always a string\n"
        "      id: 5\n"
        "      method: tools/call\n"
        "      params: {name: add, arguments: {a: x}}\n"
        "    # the old answer:\n"
        "    expected:\n"
        "      jsonrpc: '2.0'\n"
        "      id: 5\n"
        "      error:  # SEP-1303 says: a tool result\n"
        "        code: -32602\n"
        f"        message: '{INVALID}'  # verbatim from the SDK\n"
        "    # end of case\n"
        "\n"
        "# more cases to come\n"
    )
    after, report = fix_text(text)
    assert report.fixes == 1
    comments = [line[line.index("#") :] for line in text.splitlines() if "#" in line]
    for comment in comments:
        assert comment in after, comment
    assert after.startswith(text[: text.index("      error:")])
    assert after.endswith("  # verbatim from the SDK\n    # end of case\n\n# more cases to come\n")
    assert (
        "      result:  # SEP-1303 says: a tool result\n        content:\n          - type: text\n"
        in after
    )


def test_flow_mapping_stays_flow_and_block_stays_block() -> None:
    text = (
        f"- {CALL}\n"
        f"- {{jsonrpc: '2.0', id: 5, error: {{code: -32602, message: '{INVALID}'}}}}\n"
        f"- {CALL.replace('id: 5', 'id: 6')}\n"
        f"- jsonrpc: '2.0'\n  id: 6\n  error: {{code: -32602, message: '{INVALID}'}}\n"
    )
    after, report = fix_text(text)
    assert report.fixes == 2
    lines = after.splitlines()
    assert lines[1].startswith("- {jsonrpc: '2.0', id: 5, result: {content: [{type: text, text: ")
    assert lines[5].startswith("  result: {content: [{type: text, text: ")  # the sibling was flow
    assert len(lines) == 6


def test_crlf_and_indentation_of_the_document_are_used() -> None:
    text = (
        "messages:\r\n"
        "- jsonrpc: '2.0'\r\n  id: 5\r\n  method: tools/call\r\n  params:\r\n      name: add\r\n"
        "      arguments:\r\n          a: x\r\n"
        "- jsonrpc: '2.0'\r\n  id: 5\r\n  error:\r\n      code: -32602\r\n"
        f"      message: '{INVALID}'\r\n"
    )
    after, report = fix_text(text)
    assert report.fixes == 1
    assert "\n" not in after.replace("\r\n", "")
    # Mappings indented by 4, as the document does, and the new member at its key's column.
    assert "  result:\r\n      content:\r\n      - type: text\r\n" in after


def test_detection_needs_yaml_with_jsonrpc_members() -> None:
    assert detect(split_lines("- jsonrpc: '2.0'\n  id: 1\n  method: ping\n")).reader.name == "yaml"
    assert detect(split_lines("# c\n---\ncases:\n  - request: {}\n")).reader.name == "yaml"
    with pytest.raises(NotATranscriptError):  # YAML, but not a transcript
        detect(split_lines("name: CI\non: push\njobs: {}\n"))
    forced = detect(split_lines("{jsonrpc: '2.0', id: 1, method: ping}\n"), InputFormat.YAML)
    assert forced.reader.name == "yaml" and "forced" in forced.reason


def test_envelope_entries_in_yaml() -> None:
    text = (
        f"- {{ts: 1, direction: client->server, message: {CALL}}}\n"
        "- ts: 2\n  direction: server->client\n  message:\n    jsonrpc: '2.0'\n    id: 5\n"
        f"    error: {{code: -32602, message: '{INVALID}'}}\n"
        "- {summary: done}\n"
    )
    after, report = fix_text(text)
    assert report.fixes == 1 and report.messages == 2
    assert after.endswith("- {summary: done}\n")


def test_object_tags_are_input_errors() -> None:
    for tag in ["!!python/object/apply:os.system ['echo hi']", "!Custom {a: 1}", "!!set {a, b}"]:
        with pytest.raises(InputError, match="is not allowed") as info:
            check_text(
                f"- {CALL}\n- jsonrpc: '2.0'\n  id: 5\n  result: {tag}\n",
                options=Options(input_format=InputFormat.YAML),
            )
        assert info.value.line == 4  # where the tagged value is


def test_billion_laughs_is_refused_fast() -> None:
    lines = ["a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]"]
    lines += [f"a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * 9)}]" for i in range(1, 10)]
    lines += [f"messages:\n  - {CALL}\n  - jsonrpc: '2.0'\n    id: 5\n    result: *a9"]
    started = time.perf_counter()
    with pytest.raises(InputError, match="aliases"):
        check_text("\n".join(lines) + "\n", options=Options(input_format=InputFormat.YAML))
    assert time.perf_counter() - started < 5


def test_a_few_aliases_are_fine_and_a_recursive_one_is_refused() -> None:
    shared = "defaults: &call {jsonrpc: '2.0', method: tools/call}\n"
    text = shared + "messages:\n  - {<<: *call, id: 5, params: {name: add, arguments: {a: x}}}\n"
    text += f"  - {{jsonrpc: '2.0', id: 5, error: {{code: -32602, message: '{INVALID}'}}}}\n"
    assert [f.code for f in check_text(text).findings if f.code == "MCP101"] == ["MCP101"]
    after, report = fix_text(text)
    assert report.fixes == 1 and after.startswith(shared + "messages:\n  - {<<: *call,")
    with pytest.raises(InputError, match="refers to itself"):
        check_text("messages: &m\n  - jsonrpc: '2.0'\n    id: 1\n    method: ping\n  - *m\n")


def test_a_rewrite_that_would_change_an_alias_elsewhere_is_refused() -> None:
    text = (
        "errors:\n  bad: &bad {code: -32602, message: 'Invalid arguments for tool add: a must be a number'}\n"
        f"messages:\n  - {CALL}\n  - {{jsonrpc: '2.0', id: 5, error: *bad}}\n"
    )
    # The error is an alias: its text is at the anchor, which other documents may share.
    with pytest.raises(UnsafeRewriteError):
        fix_text(text)
    assert check_text(text).findings  # check still reports it


def test_broken_yaml_and_several_documents_name_the_line() -> None:
    with pytest.raises(InputError) as info:
        check_text(
            "- jsonrpc: '2.0'\n  id: 1\n  method: [ping\n",
            options=Options(input_format=InputFormat.YAML),
        )
    assert info.value.line is not None and info.value.line >= 3
    with pytest.raises(InputError, match="several YAML documents"):
        check_text(f"- {CALL}\n---\n- {CALL}\n")


def test_yaml_without_messages_is_an_input_error() -> None:
    with pytest.raises(InputError, match="no JSON-RPC messages"):
        check_text("name: x\nmethod: y\n", options=Options(input_format=InputFormat.YAML))


def test_nothing_to_fix_leaves_the_file_byte_identical() -> None:
    text = (
        "\ufeff%YAML 1.2\n---\n# a successful call\n"
        f"-   {CALL}   # odd spacing\n"
        "-   jsonrpc:   \"2.0\"\n    id: 5\n    result:\n        content: [{type: text, text: 'ok'}]\n"
        "...\n"
    )
    after, report = fix_text(text, options=Options(unsafe_fixes=True))
    assert report.messages == 2 and report.fixes == 0
    assert after == text


# --- property: random YAML documents, `fix` changes only the rewritten messages -------------

scalars = st.one_of(
    st.integers(-5, 5),
    st.booleans(),
    st.none(),
    st.sampled_from(["x", "two", "2.0", "yes", "a: b", "ü", "#c", ""]),
)
arguments = st.dictionaries(st.sampled_from(["a", "b"]), scalars, max_size=2)
messages_text = st.sampled_from([INVALID, "Invalid params", "Internal error", "Tool add not found"])


@st.composite
def yaml_documents(draw: st.DrawFn) -> tuple[str, list[tuple[int, int]]]:
    """A YAML list of exchanges in mixed styles, with the character span of each response."""
    lines: list[str] = []
    responses: list[tuple[int, int]] = []  # line ranges
    for request_id in range(draw(st.integers(1, 5))):
        args = json.dumps(draw(arguments))
        if draw(st.booleans()):
            lines.append(
                f"- {{jsonrpc: '2.0', id: {request_id}, method: tools/call, params: {{name: add, arguments: {args}}}}}"
            )
        else:
            lines += [
                "- jsonrpc: '2.0'",
                f"  id: {request_id}",
                "  method: tools/call",
                "  params:",
                "    name: add",
                f"    arguments: {args}",
            ]
        if draw(st.booleans()):
            lines.append("# " + draw(st.sampled_from(["note", "ünïcode", "- not a list"])))
        message = json.dumps(draw(messages_text))
        first = len(lines)
        style = draw(st.sampled_from(["flow", "block", "block-flow-error"]))
        if style == "flow":
            lines.append(
                f"- {{jsonrpc: '2.0', id: {request_id}, error: {{code: -32602, message: {message}}}}}  # c"
            )
        elif style == "block":
            lines += [
                "- jsonrpc: '2.0'",
                f"  id: {request_id}",
                "  error:",
                "    code: -32602",
                f"    message: {message}",
            ]
        else:
            lines += [
                f"- id: {request_id}",
                f"  error: {{code: -32602, message: {message}}}",
                "  jsonrpc: '2.0'",
            ]
        responses.append((first, len(lines)))
    ending = draw(st.sampled_from(["\n", "\r\n"]))
    lines.insert(0, "# transcript")
    text = ending.join(lines) + ending
    offsets = [0]
    for line in lines:
        offsets.append(offsets[-1] + len(line) + len(ending))
    return text, [(offsets[a + 1], offsets[b + 1] - len(ending)) for a, b in responses]


def _plain(text: str) -> Any:
    from migrator.readers.yamlfile import _Converter, compose

    return _Converter().value(compose(text))


@settings(max_examples=examples(80), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(yaml_documents(), st.booleans())
def test_fix_changes_only_rewritten_messages(
    document: tuple[str, list[tuple[int, int]]], unsafe: bool
) -> None:
    text, spans = document
    options = Options(unsafe_fixes=unsafe)
    after, report = fix_text(text, options=options)
    assert report.format == "yaml"
    before_items, after_items = _plain(text), _plain(after)
    changed = [i for i, (a, b) in enumerate(zip(before_items, after_items, strict=True)) if a != b]
    assert len(changed) == report.fixes
    for i in changed:
        old, new = before_items[i], after_items[i]
        assert i % 2 == 1  # a response
        assert old["id"] == new["id"] and old.keys() - {"error", "result"} == new.keys() - {
            "error",
            "result",
        }
    # Every byte outside the rewritten responses is still there, in order.
    rewritten = [spans[i // 2] for i in changed]
    cursor, kept = 0, []
    for start, end in rewritten:
        kept.append(text[cursor:start])
        cursor = end
    kept.append(text[cursor:])
    assert after.startswith(kept[0]) and after.endswith(kept[-1])
    position = 0
    for piece in kept:
        found = after.find(piece, position)
        assert found >= position, piece
        position = found + len(piece)
    if not report.fixes:
        assert after == text
    again, second = fix_text(after, options=options)
    assert again == after and second.fixes == 0


def test_ruamel_is_imported_only_to_read_yaml() -> None:
    import subprocess
    import sys

    code = (
        "import sys\n"
        "from migrator.api import check_text\n"
        'check_text(\'{"jsonrpc":"2.0","id":1,"method":"ping"}\\n\')\n'
        "assert not [m for m in sys.modules if m.startswith('ruamel')], 'ruamel imported'\n"
        "check_text(\"- {jsonrpc: '2.0', id: 1, method: ping}\\n\")\n"
        "assert 'ruamel.yaml' in sys.modules\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True, cwd=ROOT)


def test_a_key_given_twice_is_read_from_its_last_value() -> None:
    # Found by the fuzzer: the earlier `cases` (a shorter list) was walked
    # against the value of the later one. The later one counts, as in JSON.
    text = (
        "cases:\n"
        "  - request: {jsonrpc: '2.0', id: 1, method: ping}\n"
        "    expected: {jsonrpc: '2.0', id: 1, result: {}}\n"
        "cases:\n"
        "  - request: {jsonrpc: '2.0', id: 1, method: tools/call, params: {name: t, arguments: {}}}\n"
        "    expected: {jsonrpc: '2.0', id: 1, error: {code: -32602, message: 'Invalid arguments for tool t: bad'}}\n"
        "  - request: {jsonrpc: '2.0', id: 2, method: ping}\n"
        "    expected: {jsonrpc: '2.0', id: 2, result: {}}\n"
    )
    report = check_text(text, "dup.yaml")
    assert [(f.code, f.line) for f in report.findings] == [("MCP101", 6)]
    after, fixed = fix_text(text, "dup.yaml")
    assert fixed.fixes == 1
    changed = [(a, b) for a, b in zip(split_lines(text), split_lines(after), strict=True) if a != b]
    assert len(changed) == 1 and "isError: true" in changed[0][1]
