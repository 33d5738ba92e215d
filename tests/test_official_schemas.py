"""Full-surface validation: `schema fetch` against a local server, `--mcp-schema`, MCP206."""

from __future__ import annotations

import contextlib
import functools
import http.server
import socket
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from migrator.api import check_text
from migrator.engine import schema_download
from migrator.engine.pipeline import Options
from migrator.errors import InputError, UsageError
from tests.conftest import ROOT, SHARED, shared_missing

OFFICIAL = SHARED / "mcp-schemas"
needs_official = pytest.mark.skipif(
    not (OFFICIAL / "2025-06-18" / "schema.json").exists(),
    reason=shared_missing("mcp-schemas/2025-06-18/schema.json"),
)


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "cache"
    monkeypatch.setenv("MCP_TRANSCRIPTS_CACHE_DIR", str(folder))
    return folder


@contextlib.contextmanager
def serve(folder: Path) -> Iterator[str]:
    """Serve ``folder`` over HTTP on 127.0.0.1, on a free port."""

    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args: object) -> None:
            pass

    server = http.server.ThreadingHTTPServer(
        ("127.0.0.1", 0), functools.partial(Quiet, directory=str(folder))
    )
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/{{version}}/schema.json"
    finally:
        server.shutdown()
        server.server_close()


@needs_official
def test_fetch_verifies_and_caches(cache: Path) -> None:
    with serve(OFFICIAL) as url:
        path = schema_download.fetch("2025-11-25", url)
    assert path == cache / "2025-11-25" / "schema.json"
    assert path.read_bytes() == (OFFICIAL / "2025-11-25" / "schema.json").read_bytes()


@needs_official
def test_checksum_mismatch_caches_nothing(cache: Path, tmp_path: Path) -> None:
    tampered = tmp_path / "served" / "2025-11-25"
    tampered.mkdir(parents=True)
    (tampered / "schema.json").write_bytes(
        (OFFICIAL / "2025-11-25" / "schema.json").read_bytes() + b"\n"
    )
    with serve(tmp_path / "served") as url, pytest.raises(InputError, match="checksum mismatch"):
        schema_download.fetch("2025-11-25", url)
    assert not cache.exists() or not list(cache.rglob("*.json"))


def test_unreachable_server_caches_nothing(cache: Path) -> None:
    with socket.socket() as sock:  # a port nobody listens on
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    with pytest.raises(InputError, match="could not download the 2025-11-25 schema"):
        schema_download.fetch("2025-11-25", f"http://127.0.0.1:{port}/{{version}}/schema.json")
    assert not cache.exists() or not list(cache.rglob("*.json"))


def test_unknown_version_needs_a_checksum(cache: Path) -> None:
    with pytest.raises(UsageError, match="no pinned checksum"):
        schema_download.fetch("2099-01-01")


@needs_official
def test_schema_command_fetch_and_list(cache: Path) -> None:
    from tests.conftest import run_cli

    with serve(OFFICIAL) as url:
        fetched = run_cli("schema", "fetch", "2025-06-18", "--url", url)
    assert fetched.code == 0 and fetched.out.strip().endswith("2025-06-18/schema.json")
    listed = run_cli("schema", "list")
    assert listed.out.startswith("2025-06-18\t")


BROKEN_SESSION = (
    '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}\n'
    '{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-06-18","capabilities":{}}}\n'
    '{"jsonrpc":"2.0","method":"notifications/progress","params":{"progress":"half"}}\n'
    '{"jsonrpc":"2.0","id":2,"method":"resources/read","params":{}}\n'
    '{"jsonrpc":"2.0","id":2,"error":{"code":-32602,"message":"uri required"}}\n'
)


@needs_official
def test_mcp206_validates_the_full_surface() -> None:
    options = Options(mcp_schemas=(str(OFFICIAL / "2025-06-18" / "schema.json"),))
    found = [
        (f.line, f.code, f.pointer, f.keyword)
        for f in check_text(BROKEN_SESSION, options=options).findings
    ]
    assert found == [
        (2, "MCP206", "/result", "required"),
        (3, "MCP206", "/params", "required"),
        (4, "MCP206", "/params", "required"),
    ]
    assert check_text(BROKEN_SESSION).findings == []  # off without --mcp-schema


@needs_official
def test_mcp206_is_quiet_on_real_traffic() -> None:
    paths = tuple(
        str(OFFICIAL / v / "schema.json") for v in ("2025-03-26", "2025-06-18", "2025-11-25")
    )
    for recording in sorted((ROOT / "tests" / "fixtures" / "recorded").glob("*.jsonl")):
        report = check_text(recording.read_text(), options=Options(mcp_schemas=paths))
        assert [f for f in report.findings if f.code == "MCP206"] == [], recording.name


def test_cached_without_a_cache_is_a_usage_error(cache: Path) -> None:
    with pytest.raises(UsageError, match="no schema in the cache"):
        check_text(BROKEN_SESSION, options=Options(mcp_schemas=("cached",)))


def test_a_file_that_is_not_an_mcp_schema(tmp_path: Path) -> None:
    path = tmp_path / "package.json"
    path.write_text('{"name": "x"}')
    with pytest.raises(InputError, match="defines no MCP requests"):
        check_text(BROKEN_SESSION, options=Options(mcp_schemas=(str(path),)))
