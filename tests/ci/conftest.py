"""Fixtures of the CI-integration tests: a clean environment and a scratch folder."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from migrator.reporters.terminal import CI_VARIABLES

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True)
def plain_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    """Neither CI nor colour variables: each test sets what it is about."""
    for name in (*CI_VARIABLES, "NO_COLOR", "FORCE_COLOR", "TERM"):
        monkeypatch.delenv(name, raising=False)


@pytest.fixture
def work(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty current folder (no configuration file above it that matters)."""
    folder = tmp_path / "work"
    folder.mkdir()
    monkeypatch.chdir(folder)
    return folder


def shared_folder() -> Path:
    """The shared folder: $MCP_TRANSCRIPTS_SHARED, or ``shared`` beside the repository."""
    configured = os.environ.get("MCP_TRANSCRIPTS_SHARED")
    return Path(configured) if configured else REPO.parent / "shared"


def sarif_schema() -> dict[str, Any]:
    """The SARIF 2.1.0 schema from the shared folder (never copied into the repository)."""
    path = shared_folder() / "third-party-schemas" / "sarif-schema-2.1.0.json"
    if not path.is_file():
        pytest.skip(
            f"the SARIF 2.1.0 schema is not at {path}: set MCP_TRANSCRIPTS_SHARED to the shared "
            "folder (the one holding third-party-schemas/) to validate SARIF output"
        )
    document: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return document
