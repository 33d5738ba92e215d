"""The JSON reporter indents findings with orjson: its text must be json.dumps's, byte for byte."""

from __future__ import annotations

import io
import json
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from migrator.engine.results import FileReport, RunResult
from migrator.model.findings import Finding, FindingList, FixSafety, Severity
from migrator.reporters import ReportOptions, jsonl
from migrator.reporters.json import BLOCK, document, indented, report

scalars = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.text()
    | st.floats(allow_nan=True, allow_infinity=True)
)
flat_objects = st.dictionaries(st.text(), scalars | st.lists(scalars, max_size=4), max_size=8)
any_json: Any = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(), inner, max_size=3),
    max_leaves=12,
)


def standard(value: Any, depth: int) -> str:
    return json.dumps(value, indent=2, ensure_ascii=False).replace("\n", "\n" + "  " * depth)


@given(flat_objects, st.integers(min_value=0, max_value=3))
def test_flat_objects_are_written_as_json_dumps_writes_them(
    value: dict[str, Any], depth: int
) -> None:
    assert indented(value, depth) == standard(value, depth)


@given(any_json)
def test_any_value_is_written_as_json_dumps_writes_it(value: Any) -> None:
    assert indented(value, 2) == standard(value, 2)


def test_values_orjson_refuses_or_words_differently_go_the_standard_way() -> None:
    finding = {
        "request_id": 2**70,
        "message": "lone \ud800 surrogate",
        "evidence": ["x"],
        "line": 1,
    }
    assert indented(finding, 2) == standard(finding, 2)
    assert (
        indented({"request_id": float("nan"), "other": 1e16}, 1)
        == '{\n    "request_id": NaN,\n    "other": 1e+16\n  }'
    )
    assert indented({1: "an integer key"}, 0) == '{\n  "1": "an integer key"\n}'
    control = "".join(map(chr, range(0x20))) + '"\\\u2028\U0001f600'
    assert indented({"message": control, "evidence": [control]}, 2) == standard(
        {"message": control, "evidence": [control]}, 2
    )


def _finding(line: int, **odd: Any) -> Finding:
    fields: dict[str, Any] = {
        "request_id": line,
        "evidence": ("error code -32602", f"request at line {line - 1}"),
        **odd,
    }
    return Finding(
        "t.jsonl", line, 1, "MCP101", "validation-error-as-protocol-error", Severity.ERROR,
        f"finding {line}", FixSafety.SAFE, tool="add", **fields,
    )  # fmt: skip


def test_the_document_is_json_dumps_text_across_blocks_with_odd_findings_among_them() -> None:
    # Findings are written a block at a time; a block holding one finding orjson
    # refuses (a huge id) or words differently (a float id, an evidence float) is
    # written one finding at a time, and the text stays json.dumps's throughout.
    odd = {
        700: {"request_id": 2**70},
        1300: {"request_id": 1e-7},
        1900: {"evidence": (float("nan"),)},
    }
    findings = [_finding(line, **odd.get(line, {})) for line in range(2, 2 * BLOCK + 700)]
    result = RunResult(files=[FileReport("t.jsonl", findings=FindingList(findings))])
    out = io.StringIO()
    report(result, out, ReportOptions())
    assert out.getvalue() == json.dumps(document(result), indent=2, ensure_ascii=False) + "\n"
    assert out.getvalue().count('"code": "MCP101"') == len(findings)
    lines = io.StringIO()
    jsonl.report(result, lines, ReportOptions())
    assert lines.getvalue() == "".join(
        json.dumps(finding, ensure_ascii=False, separators=(",", ":")) + "\n"
        for finding in document(result)["findings"]  # type: ignore[attr-defined]
    )
