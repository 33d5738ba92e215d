"""The issue's acceptance test, on real recordings from real SDKs.

On the TypeScript SDK 1.20.2 recording, `fix` must produce the shape that the
newest TypeScript SDK sends for every invalid-argument call, and leave the
unknown-tool, malformed and unrelated errors byte-identical. The manifest
written by scripts/record_fixtures.py says what each call exercises.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from migrator.api import check_text, fix_text
from migrator.fix.rewrite import PROVENANCE_KEY
from tests.conftest import RECORDED

MANIFEST = json.loads((RECORDED / "manifest.json").read_text())


def recording(target: str) -> dict[str, Any]:
    return next(r for r in MANIFEST["recordings"] if r["target"] == target)


def responses_by_id(text: str) -> dict[Any, tuple[str, dict[str, Any]]]:
    """Server-to-client responses of a wire recording, by id (the recordings have no id collisions)."""
    out: dict[Any, tuple[str, dict[str, Any]]] = {}
    for line in text.splitlines():
        message = json.loads(line)
        if "method" not in message and "id" in message:
            out[message["id"]] = (line, message)
    return out


def test_old_sdk_fixed_matches_new_sdk_shape() -> None:
    old, new = recording("ts-sdk-old"), recording("ts-sdk-new")
    before = (RECORDED / old["file"]).read_text()
    after, report = fix_text(before)
    fixed = responses_by_id(after)
    original = responses_by_id(before)
    reference = responses_by_id((RECORDED / new["file"]).read_text())
    invalid = [c["id"] for c in old["calls"] if c["category"] == "invalid-arguments"]
    assert invalid and report.fixes == len(invalid)
    for call_id in invalid:
        _, message = fixed[call_id]
        _, new_message = reference[call_id]
        assert "error" not in message and new_message["result"]["isError"] is True
        result = message["result"]
        # The same shape the new SDK sends: text content, isError, nothing else but our provenance.
        assert set(result) - {"_meta"} == set(new_message["result"])
        assert [b["type"] for b in result["content"]] == [
            b["type"] for b in new_message["result"]["content"]
        ]
        assert result["isError"] is True
        assert result["_meta"][PROVENANCE_KEY] == original[call_id][1]["error"]
        tool = next(c["tool"] for c in old["calls"] if c["id"] == call_id)
        assert f"tool {tool}" in result["content"][0]["text"]
    untouched = [c["id"] for c in old["calls"] if c["category"] != "invalid-arguments"]
    for call_id in untouched:
        if call_id in original:
            assert fixed[call_id][0] == original[call_id][0], f"id {call_id} changed"


@pytest.mark.parametrize("target", ["ts-sdk-new", "py-sdk-old", "py-sdk-new"])
def test_new_behaviour_recordings_have_no_mcp101(target: str) -> None:
    text = (RECORDED / recording(target)["file"]).read_text()
    assert [f for f in check_text(text).findings if f.code == "MCP101"] == []


def test_envelope_and_wire_recordings_agree() -> None:
    old = recording("ts-sdk-old")
    wire = check_text((RECORDED / old["file"]).read_text()).findings
    envelope = check_text((RECORDED / old["envelope"]).read_text()).findings
    assert [(f.line, f.code, f.request_id) for f in wire] == [
        (f.line, f.code, f.request_id) for f in envelope
    ]


def test_server_everything_internal_error_dumps_are_validation() -> None:
    rec = recording("server-everything")
    report = check_text((RECORDED / rec["file"]).read_text())
    flagged = {f.request_id for f in report.findings if f.code == "MCP101"}
    invalid = {c["id"] for c in rec["calls"] if c["category"] == "invalid-arguments"}
    assert flagged == invalid
    malformed = {c["id"] for c in rec["calls"] if c["category"] == "malformed"}
    assert not malformed & {f.request_id for f in report.findings if f.code.startswith("MCP1")}
    # The malformed requests themselves break the CallToolRequest schema.
    assert malformed == {f.request_id for f in report.findings if f.code == "MCP202"}


def test_unknown_tool_results_of_new_sdks_are_mcp102() -> None:
    for target in ("ts-sdk-new", "py-sdk-old"):
        rec = recording(target)
        report = check_text((RECORDED / rec["file"]).read_text())
        unknown = {c["id"] for c in rec["calls"] if c["category"] == "unknown-tool"}
        assert {f.request_id for f in report.findings if f.code == "MCP102"} == unknown


def test_manifest_lists_existing_files() -> None:
    for rec in MANIFEST["recordings"]:
        assert Path(RECORDED / rec["file"]).exists()
