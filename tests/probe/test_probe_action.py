"""The GitHub Action's ``probe`` input, run as the runner runs its composite steps."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from tests.ci.test_integrations import run_action
from tests.probe.helpers import CARELESS


@pytest.mark.slow
def test_github_action_probes_a_server(action_job: Path, tmp_path: Path) -> None:
    workspace = tmp_path / "workspace"
    workspace.mkdir()
    result, outputs = run_action(
        action_job,
        tmp_path,
        workspace,
        probe=f"{sys.executable} {CARELESS} lax",
        args="--max-cases 2",
        **{"sarif-file": "probe.sarif", "python": sys.executable},
    )
    assert result.returncode == 1, result.stdout + result.stderr
    assert outputs["exit-code"] == "1"
    annotations = [line for line in result.stdout.splitlines() if line.startswith("::")]
    assert annotations and all("MCP501" in line for line in annotations)
    assert "Verdict: DOES NOT VALIDATE" in result.stderr
    sarif = json.loads((workspace / "probe.sarif").read_text())
    assert "MCP501" in {r["ruleId"] for r in sarif["runs"][0]["results"]}
    recording = Path(outputs["probe-recording"])
    assert b'"method":"tools/call"' in recording.read_bytes()
