"""What the probe tests share: running the CLI and reading its JSON report."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from tests.conftest import ROOT, CliResult, run_cli

CARELESS = ROOT / "scripts" / "fixture_servers" / "careless_server.py"
PROBE_ONLY = {"MCP503", "MCP504"}  # a crash or a silence: a transcript cannot show them


def careless(mode: str) -> list[str]:
    """The command line of the careless fixture server."""
    return [sys.executable, str(CARELESS), mode]


def probe_json(*argv: str) -> tuple[CliResult, list[dict[str, Any]]]:
    """Run ``probe --output-format json``; the result and its findings."""
    result = run_cli("probe", "--output-format", "json", *argv)
    assert result.out, result.err
    return result, json.loads(result.out)["findings"]


def check_json(path: Path) -> list[dict[str, Any]]:
    """``check --output-format json`` on a recording: its findings."""
    result = run_cli("check", "--output-format", "json", str(path))
    return list(json.loads(result.out)["findings"])


def keys(findings: list[dict[str, Any]]) -> list[tuple[int, str, str, Any]]:
    """What must agree between a probe and a check of its recording."""
    return sorted(
        (f["line"], f["code"], f["severity"], f["tool"])
        for f in findings
        if f["code"] not in PROBE_ONLY
    )


def table(result: CliResult) -> str:
    """The probe's table (on stderr when stdout holds a JSON report)."""
    return result.err if result.out.lstrip().startswith("{") else result.out
