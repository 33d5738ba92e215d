"""The Python API as a per-file map function for engines users already run.

The docs show two scripts (a process pool, a Dask bag); they run here for
real and must give the same report as ``mcp-transcripts check`` on the folder.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from migrator import api
from migrator.errors import InputError
from tests.conftest import ROOT, run_cli

SCRIPTS = ROOT / "docs" / "examples" / "api"


@pytest.fixture
def traces(tmp_path: Path) -> Path:
    folder = tmp_path / "traces"
    shutil.copytree(ROOT / "examples", folder, ignore=shutil.ignore_patterns("*.md"))
    return folder


def _run(script: str, *args: Path, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(SCRIPTS / script), *map(str, args)],
        capture_output=True,
        text=True,
        cwd=cwd,
        timeout=300,
        check=False,
    )


@pytest.mark.slow
def test_dask_bag_gives_the_report_check_gives(traces: Path) -> None:
    pytest.importorskip("dask.bag", reason="dask is in the test extra")
    run = _run("check_with_dask.py", traces)
    assert run.returncode == 1, run.stderr
    expected = json.loads(run_cli("check", "--format", "json", str(traces)).out)
    assert json.loads(run.stdout) == expected
    assert expected["summary"]["files"] == 4 and expected["findings"]


@pytest.mark.slow
def test_process_pool_gives_the_sarif_check_gives(traces: Path) -> None:
    run = _run("check_with_futures.py", traces)
    assert run.returncode == 1, run.stderr
    expected = json.loads(run_cli("check", "--format", "sarif", str(traces)).out)
    got = json.loads(run.stdout)
    assert got["runs"][0]["results"] == expected["runs"][0]["results"]
    assert (
        len(got["runs"][0]["results"])
        == json.loads(run_cli("check", "--format", "json", str(traces)).out)["summary"]["findings"]
    )


def test_errors_come_back_as_values_and_are_kept_apart(traces: Path) -> None:
    broken = traces / "broken.jsonl"
    broken.write_bytes(b"\x00\x01binary\n")
    results = [api.try_check_file(path) for path in api.iter_transcripts([traces])]
    errors = [r for r in results if isinstance(r, InputError)]
    assert len(errors) == 1 and errors[0].path == str(broken)
    merged = api.merge_reports(results)
    assert merged.errors == errors and len(merged.files) == 4
    assert (
        merged.findings
        == api.merge_reports(
            [api.check_file(path) for path in api.iter_transcripts([traces]) if path != broken]
        ).findings
    )


def test_write_report_refuses_an_unknown_format(traces: Path) -> None:
    import io

    with pytest.raises(ValueError, match="'yaml' is not a valid OutputFormat"):
        api.write_report(api.merge_reports([]), io.StringIO(), "yaml")


def test_the_command_line_example_runs(traces: Path, tmp_path: Path) -> None:
    # docs/examples/api/use_from_python.py checks "traces/" from the current folder.
    run = _run("use_from_python.py", cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    assert "MCP101 validation-error-as-protocol-error error safe" in run.stdout.splitlines()
    assert "examples" not in run.stdout and "traces/" in run.stdout
