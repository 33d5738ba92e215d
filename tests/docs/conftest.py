"""Shared fixtures for the documentation tests."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[2]
# The site is published under this path (site_url in mkdocs.yml); the build and the local
# server use the same prefix so absolute links behave as on GitHub Pages.
SITE_PREFIX = "mcp-transcripts"


@pytest.fixture(scope="session")
def repo_root() -> Path:
    return ROOT


@pytest.fixture(scope="session")
def built_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Build the site once per session with ``mkdocs build --strict``; return its folder.

    The folder is ``<tmp>/mcp-transcripts``: serve ``<tmp>`` to browse it under ``/mcp-transcripts/``.
    """
    site = tmp_path_factory.mktemp("site") / SITE_PREFIX
    result = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(site)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    if result.returncode != 0:
        pytest.fail(f"mkdocs build --strict failed:\n{result.stderr[-6000:]}")
    return site


@pytest.fixture(scope="session")
def offline_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The site built for the file system (``OFFLINE=true``, as ``make docs-offline``).

    It is also the build with no network (``MCP_TRANSCRIPTS_DOCS_OFFLINE=1``, and an
    inventory host that does not exist should the probe run anyway): one build serves both,
    and its log is :func:`offline_build_log`'s.
    """
    site = tmp_path_factory.mktemp("offline-site")
    env = {
        **os.environ,
        "OFFLINE": "true",
        "MCP_TRANSCRIPTS_DOCS_OFFLINE": "1",
        "MCP_TRANSCRIPTS_PYTHON_INVENTORY": "https://inventory.invalid/objects.inv",
    }
    result = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(site)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
        env=env,
    )
    if result.returncode != 0:
        pytest.fail(f"OFFLINE=true mkdocs build --strict failed:\n{result.stderr[-6000:]}")
    site.with_name(site.name + ".log").write_text(result.stderr, encoding="utf-8")
    return site


def offline_build_log(offline_site: Path) -> str:
    """What the build of ``offline_site`` wrote to stderr."""
    return offline_site.with_name(offline_site.name + ".log").read_text(encoding="utf-8")


@pytest.fixture(scope="session")
def examples_script() -> ModuleType:
    """scripts/update_doc_examples.py, imported (scripts/ is not a package)."""
    path = ROOT / "scripts" / "update_doc_examples.py"
    spec = importlib.util.spec_from_file_location("update_doc_examples", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up while the class is built
    spec.loader.exec_module(module)
    return module
