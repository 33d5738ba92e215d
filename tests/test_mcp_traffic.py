"""What a run reads: files without MCP traffic, empty input and the configuration file (issue 28).

A folder walk passes over what is not MCP traffic (a ``package.json``, an application log in
JSON Lines, an empty file); a file named on the command line that holds none is an input
error that says so; a run that reads no MCP traffic at all never passes as "0 findings";
the configuration file is never read as input.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import run_cli

CALL = '{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"q","arguments":{}}}\n'
FIXABLE = (
    CALL
    + '{"jsonrpc":"2.0","id":3,"error":{"code":-32602,"message":"Invalid arguments for tool q: bad a"}}\n'
)
PACKAGE = '{"name":"pkg","version":"1.0.0"}\n'  # one line: read as JSON Lines, not a document
APP_LOG = '{"level":"info","msg":"x"}\n{"level":"warn","msg":"y"}\n'


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A project folder as a new user has one: a transcript among other JSON files."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "package.json").write_text(PACKAGE)
    (tmp_path / "app.jsonl").write_text(APP_LOG)
    (tmp_path / "session.jsonl").write_text(FIXABLE)
    return tmp_path


def test_a_walk_passes_over_json_that_is_not_json_rpc(project: Path) -> None:
    result = run_cli("check", "-v", ".")
    assert result.code == 1, result.err
    assert "MCP201" not in result.out
    assert {line.split(":")[0] for line in result.out.splitlines()} == {"session.jsonl"}
    assert "package.json: skipped (holds no JSON-RPC messages" in result.err
    assert "app.jsonl: skipped (holds no JSON-RPC messages: none of its 2 JSON values" in result.err
    assert "in 1 file," in result.err


def test_a_walk_of_nothing_but_other_json_is_not_0_findings(project: Path) -> None:
    (project / "session.jsonl").unlink()
    for command in (["check"], ["fix"], ["fix", "--diff"]):
        result = run_cli(*command, ".")
        assert result.code == 2, (command, result.err)
        assert "MCP201" not in result.out and "Found 0 findings" not in result.err
        assert "no MCP traffic found in .: 2 files looked at" in result.err
    assert (project / "package.json").read_text() == PACKAGE  # fix wrote nothing


def test_a_named_file_without_json_rpc_says_so_once(project: Path) -> None:
    many = "".join(f'{{"level":"info","n":{n}}}\n' for n in range(40))
    (project / "big.jsonl").write_text(many)
    result = run_cli("check", "package.json", "big.jsonl")
    assert result.code == 2 and result.out == ""
    assert result.err.count("holds no JSON-RPC messages") == 2
    assert "big.jsonl: holds no JSON-RPC messages: none of its 40 JSON values" in result.err


def test_a_damaged_transcript_is_still_reported(tmp_path: Path) -> None:
    # Unreadable lines may be what is left of a transcript: they are findings, not passed over.
    (tmp_path / "cut.jsonl").write_text('{"jsonrpc":"2.0","id":1,"meth\n')
    result = run_cli("check", str(tmp_path))
    assert result.code == 1 and "MCP301" in result.out


@pytest.mark.parametrize(
    ("data", "reason"),
    [(b"", "the file is empty"), (b"\n  \n\r\n", "the file holds only blank lines")],
)
def test_empty_input_is_said_plainly(tmp_path: Path, data: bytes, reason: str) -> None:
    path = tmp_path / "t.jsonl"
    path.write_bytes(data)
    named = run_cli("check", str(path))
    assert named.code == 2 and f"{path}: holds no JSON-RPC messages: {reason}" in named.err
    walked = run_cli("check", str(tmp_path))
    assert walked.code == 2 and "no MCP traffic found" in walked.err
    piped = run_cli("check", "-", stdin=data.decode())
    assert piped.code == 2 and "holds no JSON-RPC messages" in piped.err


def test_an_empty_folder_is_not_0_findings(tmp_path: Path) -> None:
    result = run_cli("check", str(tmp_path))
    assert result.code == 2 and "no transcript files there" in result.err


def test_the_configuration_file_is_never_input(project: Path) -> None:
    (project / ".mcp-transcripts.yaml").write_text("")  # empty: still the configuration
    walked = run_cli("check", "-v", ".")
    assert walked.code == 1
    assert "configuration: .mcp-transcripts.yaml" in walked.err
    assert ".mcp-transcripts.yaml:" not in walked.err.replace("configuration: ", "")
    named = run_cli("check", ".mcp-transcripts.yaml")
    assert named.code == 2 and "a configuration file, not a transcript" in named.err
    (project / "pyproject.toml").write_text('[project]\nname = "x"\n')
    pyproject = run_cli("check", str(project / "pyproject.toml"))
    assert pyproject.code == 2 and "a configuration file" in pyproject.err


def test_a_configuration_given_by_name_is_not_walked_either(project: Path) -> None:
    (project / "ci").mkdir()
    # A configuration file that a reader would take for a YAML transcript if it were input.
    (project / "ci" / "mcp.yaml").write_text("ignore: [MCP405]\n# method: tools/call\n")
    (project / "ci" / "t.jsonl").write_text(FIXABLE)
    result = run_cli("check", "-v", "--config", "ci/mcp.yaml", "ci")
    assert result.code == 1, result.err
    assert "mcp.yaml: " not in result.err.replace("configuration: ci/mcp.yaml", "")


def test_a_yaml_file_that_is_not_a_transcript_is_not_told_yaml_does_not_match(
    tmp_path: Path,
) -> None:
    path = tmp_path / "settings.yaml"
    path.write_text("name: x\nitems: [1, 2]\n")
    result = run_cli("check", str(path))
    assert result.code == 2
    assert "YAML with jsonrpc:, method: or request: members" in result.err
    assert "(JSON document, YAML," not in result.err
