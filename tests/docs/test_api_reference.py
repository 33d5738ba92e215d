"""The Python API reference: typed signatures, cross-references, and the inventory only when online."""

from __future__ import annotations

import functools
import http.server
import os
import subprocess
import sys
import threading
import zlib
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.docs.conftest import ROOT, offline_build_log


def test_signatures_are_typed_and_roles_are_links(built_site: Path) -> None:
    for lang in ["", "zh/"]:
        html = (built_site / lang / "migrator/reference/api/index.html").read_text(encoding="utf-8")
        assert "doc-signature" in html, "separate signatures"
        assert "FileReport" in html[html.index('id="migrator.api.check_file"') :][:4000], (
            "annotations"
        )
        for role in [":func:", ":class:", ":data:", ":attr:", ":meth:"]:
            assert role not in html, f"{lang}: {role} printed literally"
        # try_check_file's docstring says :func:`check_file`; it is now a link on the page
        assert 'href="#migrator.api.check_file"' in html


@pytest.fixture
def inventory_server(tmp_path: Path) -> Iterator[str]:
    """A local stand-in for docs.python.org serving a Sphinx inventory with ``pathlib.Path``."""
    header = (
        b"# Sphinx inventory version 2\n# Project: Python\n# Version: 3\n"
        b"# The remainder of this file is compressed using zlib.\n"
    )
    body = b"pathlib.Path py:class 1 library/pathlib.html#$ -\n"
    (tmp_path / "objects.inv").write_bytes(header + zlib.compress(body))

    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, format: str, *args: object) -> None:
            pass

    server = http.server.ThreadingHTTPServer(
        ("127.0.0.1", 0), functools.partial(Quiet, directory=str(tmp_path))
    )
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/objects.inv"
    finally:
        server.shutdown()
        server.server_close()


@pytest.mark.slow
def test_the_inventory_is_used_when_reachable(inventory_server: str, tmp_path: Path) -> None:
    site = tmp_path / "site"
    env = {**os.environ, "MCP_TRANSCRIPTS_PYTHON_INVENTORY": inventory_server}
    env.pop("MCP_TRANSCRIPTS_DOCS_OFFLINE", None)
    result = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(site)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr[-4000:]
    html = (site / "migrator/reference/api/index.html").read_text(encoding="utf-8")
    base = inventory_server.rsplit("/", 1)[0]
    assert f'href="{base}/library/pathlib.html#pathlib.Path"' in html


def test_the_build_passes_offline(offline_site: Path) -> None:
    # offline_site is built with MCP_TRANSCRIPTS_DOCS_OFFLINE=1 and an inventory host that
    # does not exist; the fixture fails the test unless the strict build passed
    assert "offline: building without" in offline_build_log(offline_site)
