"""Configuration: discovery, validation with clear errors, and every key through the CLI."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest

from migrator.engine import config as config_module
from migrator.engine.config import Config, ConfigError, discover, find_config, load_config
from migrator.engine.globs import glob_matcher
from tests.ci.conftest import REPO
from tests.ci.transcripts import SELECT, session, write
from tests.conftest import run_cli

CONFIG_SCHEMA = REPO / "schemas" / "config.schema.json"

ACME = (
    "\n".join(
        [
            '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}',
            '{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"acme","version":"1"}}}',
            '{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"lookup","arguments":{"q":1}}}',
            '{"jsonrpc":"2.0","id":2,"error":{"code":-32602,"message":"ACME-422 payload rejected"}}',
            '{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"nothing","arguments":{}}}',
            '{"jsonrpc":"2.0","id":3,"error":{"code":-32602,"message":"ACME-404 no such thing"}}',
        ]
    )
    + "\n"
)
"""An in-house server without a tool catalog: its wording is ambiguous (MCP103) until taught."""


def codes(out: str) -> list[str]:
    return [line.split(": ", 1)[1].split()[0] for line in out.splitlines()]


# -- the schema ---------------------------------------------------------------------


def test_the_schema_is_strict_2020_12_and_covers_every_setting() -> None:
    schema = json.loads(CONFIG_SCHEMA.read_text())
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    jsonschema.Draft202012Validator.check_schema(schema)
    assert schema["additionalProperties"] is False
    settings = {f.replace("_", "-") for f in Config.__dataclass_fields__} - {
        "path",
        "root",
        "deprecation",
    }
    assert set(schema["properties"]) == settings


# -- discovery ----------------------------------------------------------------------


def test_no_configuration_means_defaults(work: Path) -> None:
    assert find_config(work) is None
    found = discover(work)
    assert found.path is None and found.root == work and found.select is None


def test_yaml_is_found_walking_up(work: Path) -> None:
    (work / ".mcp-transcripts.yaml").write_text("fail-on: error\n")
    deep = work / "a" / "b"
    deep.mkdir(parents=True)
    assert find_config(deep) == work / ".mcp-transcripts.yaml"
    assert discover(deep).fail_on == "error"


def test_pyproject_counts_only_with_the_table(work: Path) -> None:
    (work / ".mcp-transcripts.yaml").write_text("fail-on: info\n")
    inner = work / "project"
    inner.mkdir()
    (inner / "pyproject.toml").write_text('[project]\nname = "x"\n')
    assert find_config(inner) == work / ".mcp-transcripts.yaml"  # no table: keep walking
    (inner / "pyproject.toml").write_text(
        '[project]\nname = "x"\n\n[tool.mcp-transcripts]\nfail-on = "error"\n'
    )
    assert find_config(inner) == inner / "pyproject.toml"  # the first found stops the walk
    assert discover(inner).fail_on == "error"


def test_yaml_wins_over_pyproject_in_the_same_folder(work: Path) -> None:
    (work / "pyproject.toml").write_text('[tool.mcp-transcripts]\nfail-on = "error"\n')
    (work / ".mcp-transcripts.yaml").write_text("fail-on: info\n")
    assert discover(work).fail_on == "info"


def test_explicit_config_file(work: Path) -> None:
    write(work, "t.jsonl", session())
    write(work, "settings/ci.yaml", "select: [MCP301]\n")
    (work / ".mcp-transcripts.yaml").write_text("select: [MCP104]\n")
    assert codes(run_cli("check", "--config", "settings/ci.yaml", "t.jsonl").out) == ["MCP301"]
    assert codes(run_cli("check", "t.jsonl").out) == ["MCP104"]


def test_explicit_config_errors(work: Path) -> None:
    write(work, "t.jsonl", session())
    missing = run_cli("check", "--config", "nope.yaml", "t.jsonl")
    assert missing.code == 2 and "nope.yaml: no such configuration file" in missing.err
    (work / "other.toml").write_text("[tool.black]\nline-length = 1\n")
    no_table = run_cli("check", "--config", "other.toml", "t.jsonl")
    assert no_table.code == 2 and "other.toml: has no [tool.mcp-transcripts] table" in no_table.err


# -- validation errors name the file and the key ------------------------------------


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("selekt: [MCP1]\n", "unknown key 'selekt' (known keys: assume-version, exclude, "),
        (
            "fail-on: fatal\n",
            "key 'fail-on': 'fatal' is not one of ['error', 'warning', 'info', 'never']",
        ),
        ("ignore: MCP104\n", "key 'ignore': 'MCP104' is not of type 'array'"),
        ("select: [MCP9]\n", "key 'select': 'MCP9' names no rule"),
        (
            "per-file-ignores:\n  'a/**': [nope]\n",
            "key 'per-file-ignores'['a/**']: 'nope' names no rule",
        ),
        (
            "per-file-ignores:\n  'a/**': [1]\n",
            "key 'per-file-ignores'['a/**'][0]: 1 is not of type 'string'",
        ),
        (
            "validation-patterns: ['(oops']\n",
            "key 'validation-patterns': '(oops' is not a regular expression",
        ),
        ("input-format: xml\n", "key 'input-format': 'xml' is not one of"),
        ("unsafe-fixes: maybe\n", "key 'unsafe-fixes': 'maybe' is not of type 'boolean'"),
        ("assume-version: soon\n", "key 'assume-version': 'soon' does not match"),
        ("- a\n- b\n", "the configuration must be a table of keys, not list"),
        ("fail-on: [unclosed\n", "not valid YAML"),
    ],
)
def test_invalid_yaml_settings_exit_2_naming_file_and_key(
    work: Path, text: str, message: str
) -> None:
    write(work, "t.jsonl", session())
    (work / ".mcp-transcripts.yaml").write_text(text)
    result = run_cli("check", "t.jsonl")
    assert result.code == 2
    assert result.err.startswith("mcp-transcripts: error: .mcp-transcripts.yaml: ")
    assert message in result.err
    assert result.out == ""


def test_invalid_pyproject_settings_name_the_table(work: Path) -> None:
    write(work, "t.jsonl", session())
    (work / "pyproject.toml").write_text('[tool.mcp-transcripts]\nfail_on = "error"\n')
    result = run_cli("check", "t.jsonl")
    assert result.code == 2
    assert "pyproject.toml: [tool.mcp-transcripts] unknown key 'fail_on'" in result.err
    (work / "pyproject.toml").write_text("[tool.mcp-transcripts\n")
    broken = run_cli("check", "t.jsonl")
    assert broken.code == 2 and "pyproject.toml: not valid TOML" in broken.err


def test_load_config_raises_config_error(work: Path) -> None:
    (work / "c.yaml").write_text("bogus: 1\n")
    with pytest.raises(ConfigError, match="unknown key 'bogus'") as caught:
        load_config(work / "c.yaml")
    assert caught.value.path == "c.yaml"


def test_empty_yaml_is_an_empty_configuration(work: Path) -> None:
    (work / ".mcp-transcripts.yaml").write_text("# nothing yet\n")
    assert discover(work).path == work / ".mcp-transcripts.yaml"


# -- every key, through the CLI -----------------------------------------------------


def test_select_ignore_and_extend_select(work: Path) -> None:
    write(work, "t.jsonl", session())
    (work / ".mcp-transcripts.yaml").write_text("select: [MCP104]\nextend-select: [MCP301]\n")
    assert codes(run_cli("check", "t.jsonl").out) == ["MCP104", "MCP301"]
    (work / ".mcp-transcripts.yaml").write_text("extend-select: [MCP301]\nignore: [MCP1, MCP2]\n")
    assert codes(run_cli("check", "t.jsonl").out) == ["MCP301"]


def test_cli_flags_win_over_the_configuration(work: Path) -> None:
    write(work, "t.jsonl", session("2025-06-18", broken=False))  # MCP104 info, MCP101 warning
    (work / ".mcp-transcripts.yaml").write_text(
        "select: [MCP104]\nignore: [MCP101]\nfail-on: error\n"
    )
    assert run_cli("check", "t.jsonl").code == 0  # only an info finding, fail-on error
    assert run_cli("check", "--fail-on", "info", "t.jsonl").code == 1
    assert (
        codes(run_cli("check", "--select", "MCP101", "t.jsonl").out) == []
    )  # config ignore still applies
    assert codes(run_cli("check", "--select", "MCP101", "--ignore", "MCP104", "t.jsonl").out) == [
        "MCP101"
    ]


def test_fail_on_from_the_configuration(work: Path) -> None:
    write(work, "t.jsonl", session("2025-06-18", broken=False))
    (work / ".mcp-transcripts.yaml").write_text("fail-on: never\n")
    assert run_cli("check", "t.jsonl").code == 0
    (work / ".mcp-transcripts.yaml").write_text("fail-on: warning\n")
    assert run_cli("check", "t.jsonl").code == 1


def test_per_file_ignores(work: Path) -> None:
    write(work, "traces/legacy/old.jsonl", session())
    write(work, "traces/new.jsonl", session())
    (work / ".mcp-transcripts.yaml").write_text(
        "per-file-ignores:\n  'traces/legacy/**': [MCP104, unparseable-line]\n"
    )
    lines = run_cli("check", *SELECT, "traces").out.splitlines()
    legacy = [line for line in lines if line.startswith("traces/legacy/")]
    assert codes("\n".join(legacy)) == ["MCP101"]
    assert len(lines) == 4
    # Globs are relative to the configuration's folder, wherever check runs from.
    (work / "traces").joinpath("sub").mkdir()
    import os

    os.chdir(work / "traces" / "sub")
    assert codes(run_cli("check", *SELECT, "../legacy/old.jsonl").out) == ["MCP101"]


def test_fix_applies_per_file_ignores(work: Path) -> None:
    legacy = write(work, "legacy/old.jsonl", session())
    current = write(work, "current/new.jsonl", session())
    before = legacy.read_text()
    (work / ".mcp-transcripts.yaml").write_text("per-file-ignores:\n  'legacy/**': [MCP101]\n")
    result = run_cli("fix", "legacy", "current")
    assert result.code == 0, result.err
    assert legacy.read_text() == before, "MCP101 is ignored there: nothing to fix"
    assert '"isError":true' in current.read_text()


def test_include_and_exclude_when_walking(work: Path) -> None:
    write(work, "traces/a.jsonl", session())
    write(work, "traces/b.json", "[]\n")
    write(work, "traces/vendor/c.jsonl", session())
    write(work, "traces/skip-me.jsonl", session())
    (work / ".mcp-transcripts.yaml").write_text(
        "include: ['*.jsonl', '*.json']\nexclude: [vendor, 'traces/skip-*']\n"
    )
    result = run_cli("check", "-v", *SELECT, "traces")
    read = [line.split(":")[0] for line in result.err.splitlines() if line.startswith("traces/")]
    assert read == ["traces/a.jsonl", "traces/b.json"]
    # A file named on the command line is always read.
    assert run_cli("check", *SELECT, "traces/skip-me.jsonl").out.startswith(
        "traces/skip-me.jsonl:6:1:"
    )


def test_input_format_and_assume_version(work: Path) -> None:
    text = "\n".join(session().splitlines()[4:]) + "\n"  # no initialize: the version is unknown
    write(work, "t.jsonl", text)
    (work / ".mcp-transcripts.yaml").write_text(
        "assume-version: 2025-11-25\nselect: [MCP101]\n"
    )  # an unquoted YAML date
    assert discover(work).assume_version == "2025-11-25"
    assert "protocol 2025-11-25 requires" in run_cli("check", "t.jsonl").out
    (work / ".mcp-transcripts.yaml").write_text("input-format: envelope\n")
    result = run_cli("check", "t.jsonl")
    assert result.code == 2  # a wire file read as envelope lines: the configuration was used
    assert run_cli("check", "--input-format", "wire", "t.jsonl").code == 1


def test_provenance_and_unsafe_fixes_for_fix(work: Path) -> None:
    path = write(work, "t.jsonl", session(broken=False))
    (work / ".mcp-transcripts.yaml").write_text("provenance: false\n")
    added = [
        line
        for line in run_cli("fix", "--diff", "t.jsonl").out.splitlines()
        if line.startswith("+{")
    ]
    assert len(added) == 1 and '"isError":true' in added[0] and "original-error" not in added[0]
    (work / ".mcp-transcripts.yaml").write_text("unsafe-fixes: true\n")
    run_cli("fix", "t.jsonl")
    assert run_cli("check", *SELECT, "t.jsonl").out == ""  # MCP104 (unsafe) was fixed too
    assert "original-error" in path.read_text()


def test_message_patterns(work: Path) -> None:
    write(work, "acme.jsonl", ACME)
    assert codes(run_cli("check", "--select", "MCP1", "acme.jsonl").out) == ["MCP103", "MCP103"]
    (work / ".mcp-transcripts.yaml").write_text(
        "validation-patterns: ['^ACME-422']\nunknown-tool-patterns: ['^ACME-404']\n"
    )
    assert codes(run_cli("check", "--select", "MCP1", "acme.jsonl").out) == ["MCP101"]


def test_verbose_names_the_configuration(work: Path) -> None:
    write(work, "t.jsonl", session())
    assert "mcp-transcripts: configuration: none found" in run_cli("check", "-v", "t.jsonl").err
    (work / ".mcp-transcripts.yaml").write_text("fail-on: never\n")
    assert (
        "mcp-transcripts: configuration: .mcp-transcripts.yaml\n"
        in run_cli("check", "-v", "t.jsonl").err
    )


# -- globs --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("pattern", "path", "matches"),
    [
        ("*.jsonl", "a.jsonl", True),
        ("*.jsonl", "deep/er/a.jsonl", True),
        ("*.jsonl", "a.json", False),
        ("legacy/*.jsonl", "legacy/a.jsonl", True),
        ("legacy/*.jsonl", "legacy/x/a.jsonl", False),
        ("legacy/*.jsonl", "other/legacy/a.jsonl", False),
        ("legacy/**", "legacy/x/y/a.jsonl", True),
        ("**/fixtures/*.ndjson", "a/b/fixtures/t.ndjson", True),
        ("**/fixtures/*.ndjson", "fixtures/t.ndjson", True),
        ("vendor", "x/vendor", True),
        ("vendor/", "x/vendor", True),
        ("/vendor", "x/vendor", False),
        ("/vendor", "vendor", True),
        ("t?.jsonl", "t1.jsonl", True),
        ("t[!0-9].jsonl", "t1.jsonl", False),
        ("t[!0-9].jsonl", "tx.jsonl", True),
        ("a+b(c).jsonl", "a+b(c).jsonl", True),
        ("./x.jsonl", "x.jsonl", True),
    ],
)
def test_glob_semantics(pattern: str, path: str, matches: bool) -> None:
    assert glob_matcher([pattern])(path) is matches


def test_module_doctest_example() -> None:
    matches = glob_matcher(["legacy/**", "*.ndjson"])
    assert (matches("legacy/2024/a.jsonl"), matches("x/y.ndjson"), matches("a.jsonl")) == (
        True,
        True,
        False,
    )
    assert config_module.CONFIG_FILES == (".mcp-transcripts.yaml", "pyproject.toml")


# -- the former name (mcp-migrate) ----------------------------------------------------


def test_a_former_yaml_file_is_read_with_a_deprecation_warning(work: Path) -> None:
    write(work, "t.jsonl", session())
    (work / ".mcp-migrate.yaml").write_text("select: [MCP301]\n")
    assert find_config(work) == work / ".mcp-migrate.yaml"
    done = run_cli("check", "t.jsonl")
    assert codes(done.out) == ["MCP301"]  # the settings still apply
    warnings = [line for line in done.err.splitlines() if "deprecated" in line]
    assert warnings == [
        "mcp-transcripts: warning: .mcp-migrate.yaml: .mcp-migrate.yaml is deprecated; "
        "rename the file to .mcp-transcripts.yaml"
    ]


def test_a_former_pyproject_table_is_read_with_a_deprecation_warning(work: Path) -> None:
    write(work, "t.jsonl", session())
    (work / "pyproject.toml").write_text('[tool.mcp-migrate]\nselect = ["MCP301"]\n')
    done = run_cli("check", "t.jsonl")
    assert codes(done.out) == ["MCP301"]
    assert (
        "[tool.mcp-migrate] is deprecated; rename the table to [tool.mcp-transcripts]" in done.err
    )
    (work / "pyproject.toml").write_text('[tool.mcp-migrate]\nselect = ["nope"]\n')
    bad = run_cli("check", "t.jsonl")
    assert (
        bad.code == 2 and "[tool.mcp-migrate] key 'select'" in bad.err
    )  # errors name the real table


def test_the_new_name_wins_and_is_not_warned_about(work: Path) -> None:
    (work / ".mcp-migrate.yaml").write_text("fail-on: info\n")
    (work / "pyproject.toml").write_text(
        '[tool.mcp-transcripts]\nfail-on = "error"\n\n[tool.mcp-migrate]\nfail-on = "info"\n'
    )
    found = discover(work)
    assert found.path == work / "pyproject.toml" and found.fail_on == "error"
    assert found.deprecation is None
    (work / ".mcp-transcripts.yaml").write_text("fail-on: warning\n")
    assert discover(work).fail_on == "warning"
