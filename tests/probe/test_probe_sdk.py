"""``mcp-transcripts probe`` against real SDK servers over stdio.

The servers are installed by ``scripts/record_fixtures.py`` into the git-ignored
``.fixtures-work/`` (the first run needs npm and PyPI; later runs reuse it). A
test skips, saying why, when node, npm or a registry is missing.
"""

from __future__ import annotations

import importlib.util
import shutil
import sys
from collections import Counter
from pathlib import Path
from types import ModuleType

import pytest

from tests.conftest import ROOT, installing
from tests.probe.helpers import check_json, keys, probe_json, table

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(sys.platform == "win32", reason="POSIX pipes"),
]


@pytest.fixture(scope="module")
def recorder() -> ModuleType:
    """``scripts/record_fixtures.py``, imported for its install steps."""
    spec = importlib.util.spec_from_file_location(
        "record_fixtures", ROOT / "scripts" / "record_fixtures.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def installed(recorder: ModuleType, key: str) -> list[str]:
    """The command line of a recorder target's server, installed on first use."""
    target = next(t for t in recorder.TARGETS if t.key == key)
    if target.prefix != "py-sdk":
        for tool in ("node", "npm"):
            if shutil.which(tool) is None:
                pytest.skip(f"{tool} is not on PATH: the {key} server cannot run")
    try:
        with installing():
            return list(target.install(target.workdir, True).command)
    except recorder.RecordingError as exc:
        pytest.skip(f"cannot install {key} (registry unreachable?): {exc}")


def codes(findings: list[dict[str, object]]) -> Counter[object]:
    return Counter(f["code"] for f in findings)


def test_typescript_sdk_1_20_is_not_migrated(recorder: ModuleType, tmp_path: Path) -> None:
    out = tmp_path / "old.jsonl"
    result, findings = probe_json("--out", str(out), "--", *installed(recorder, "ts-sdk-old"))
    assert result.code == 1
    text = table(result)
    assert "(protocol 2025-06-18)" in text and "Verdict: NOT MIGRATED" in text
    found = codes(findings)
    # Every case but the extra property (zod drops it silently and runs the tool) is -32602.
    not_migrated = [f for f in findings if f["code"] == "MCP101"]
    assert not_migrated and all(f["keyword"] != "additionalProperties" for f in not_migrated)
    assert "MCP203" not in found  # the probe's own cases are not reported as bad arguments
    accepted = [f for f in findings if f["code"] == "MCP501"]
    assert {f["keyword"] for f in accepted} == {"additionalProperties"}
    assert {f["severity"] for f in findings if f["code"] == "MCP101"} == {
        "warning"
    }  # before 2025-11-25
    assert "Unknown tool: protocol error -32602 (right" in text and "MCP102" not in found
    assert keys(check_json(out)) == keys(findings)


def test_typescript_sdk_new_is_migrated(recorder: ModuleType, tmp_path: Path) -> None:
    out = tmp_path / "new.jsonl"
    result, findings = probe_json("--out", str(out), "--", *installed(recorder, "ts-sdk-new"))
    text = table(result)
    assert "(protocol 2025-11-25)" in text and "Verdict: MIGRATED" in text
    found = codes(findings)
    assert not found.keys() & {"MCP101", "MCP103", "MCP104", "MCP501", "MCP502", "MCP503"}
    assert found["MCP102"] == 1  # its isError answer to the unknown tool
    assert result.code == 1  # MCP102 is a warning
    assert keys(check_json(out)) == keys(findings)


def test_python_sdk_is_migrated(recorder: ModuleType) -> None:
    result, findings = probe_json("--", *installed(recorder, "py-sdk-new"))
    assert "Verdict: MIGRATED" in table(result)
    assert not codes(findings).keys() & {"MCP101", "MCP501", "MCP502", "MCP503"}


def test_server_everything_hides_validation_as_internal_errors(recorder: ModuleType) -> None:
    command = installed(recorder, "server-everything")
    result, findings = probe_json(
        "--tool", "echo", "--tool", "add", "--timeout", "5", "--", *command
    )
    assert "Verdict: NOT MIGRATED" in table(result)
    found = codes(findings)
    assert (
        found["MCP502"] >= 3 and found["MCP502"] == found["MCP101"]
    )  # -32603 for each validation case
    assert {f["tool"] for f in findings if f["code"] == "MCP502"} == {"echo", "add"}


FILESYSTEM = "@modelcontextprotocol/server-filesystem"
FILESYSTEM_VERSION = "2026.8.31"


def test_server_filesystem_on_a_temporary_folder(recorder: ModuleType, tmp_path: Path) -> None:
    for tool in ("node", "npm"):
        if shutil.which(tool) is None:
            pytest.skip(f"{tool} is not on PATH: server-filesystem cannot run")
    prefix = recorder.WORK / "server-filesystem"
    try:
        with installing():
            if recorder.npm_version(prefix, FILESYSTEM) != FILESYSTEM_VERSION:
                recorder.npm_install(prefix, f"{FILESYSTEM}@{FILESYSTEM_VERSION}")
    except recorder.RecordingError as exc:
        pytest.skip(f"cannot install {FILESYSTEM} (npm registry?): {exc}")
    entry = prefix / "node_modules" / FILESYSTEM / "dist" / "index.js"
    folder = tmp_path / "root"
    folder.mkdir()
    result, findings = probe_json("--", "node", str(entry), str(folder))
    text = table(result)
    assert "Verdict: MIGRATED" in text
    for destructive in ("write_file", "edit_file", "move_file"):
        assert f"  {destructive}: destructiveHint: true" in text
    assert not codes(findings).keys() & {"MCP101", "MCP501", "MCP502", "MCP503"}
    assert list(folder.iterdir()) == []  # invalid calls changed nothing
