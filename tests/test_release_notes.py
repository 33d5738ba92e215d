"""``scripts/release_notes.py``: the release workflow's gate and notes."""

from __future__ import annotations

import importlib.util
import sys
from types import ModuleType

import pytest

from migrator import __version__
from tests.conftest import ROOT

CHANGELOG = """# Changelog

## Unreleased

### Added

- next thing

## [0.2.0] - 2027-01-10

### Fixed

- a fix

## 0.1.0 - 2026-12-20

- first
"""


@pytest.fixture(scope="module")
def notes() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "release_notes", ROOT / "scripts" / "release_notes.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def test_a_section_ends_at_the_next_release(notes: ModuleType) -> None:
    assert notes.section(CHANGELOG, "0.2.0") == "### Fixed\n\n- a fix\n"
    assert notes.section(CHANGELOG, "0.1.0") == "- first\n"
    assert notes.section(CHANGELOG, "Unreleased") == "### Added\n\n- next thing\n"
    assert notes.section(CHANGELOG, "0.3.0") is None


def test_check_refuses_a_tag_that_is_not_the_package_version(
    notes: ModuleType, capsys: pytest.CaptureFixture[str]
) -> None:
    assert notes.main(["--check", "99.0.0"]) == 1
    assert f"migrator.__version__ says {__version__}" in capsys.readouterr().err


def test_the_changelog_has_an_unreleased_section_to_release_from(notes: ModuleType) -> None:
    text = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    assert notes.section(text, "Unreleased")


def test_the_version_lives_in_one_place() -> None:
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert 'dynamic = ["version"]' in pyproject
    assert 'path = "migrator/__init__.py"' in pyproject
    assert isinstance(__version__, str) and __version__
