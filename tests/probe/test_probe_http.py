"""``mcp-transcripts probe --url`` against the TypeScript SDK 1.20.2 Streamable HTTP server.

The server (``scripts/fixture_servers/ts_http_server.mjs``, shared with the HTTP proxy
tests) runs beside the SDK release
the recorder installs into ``.fixtures-work/ts-sdk-old/``; skipped without node or npm.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import ROOT
from tests.probe.helpers import check_json, keys, probe_json, table
from tests.probe.test_probe_sdk import installed, recorder  # noqa: F401 - a fixture

pytest.importorskip("httpx", reason="the http extra is not installed")
pytest.importorskip("httpx_sse", reason="the http extra is not installed")

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(sys.platform == "win32", reason="POSIX pipes"),
]


@pytest.fixture(params=["sse", "json"])
def http_server(request: pytest.FixtureRequest, recorder) -> Iterator[str]:  # noqa: F811
    command = installed(recorder, "ts-sdk-old")
    folder = Path(command[1]).parent
    script = folder / "ts_http_server.mjs"
    shutil.copyfile(ROOT / "scripts" / "fixture_servers" / "ts_http_server.mjs", script)
    process = subprocess.Popen(["node", str(script), request.param], stdout=subprocess.PIPE)
    try:
        assert process.stdout is not None
        url = process.stdout.readline().decode().strip()  # the server prints its URL when ready
        assert url.startswith("http://127.0.0.1:") and url.endswith("/mcp"), url
        yield url
    finally:
        process.terminate()
        process.wait(timeout=10)
        if process.stdout is not None:
            process.stdout.close()


def test_streamable_http_server_is_probed_and_credentials_stay_out(
    http_server: str, tmp_path: Path
) -> None:
    out = tmp_path / "http.jsonl"
    result, findings = probe_json(
        "--out", str(out), "--header", "Authorization: Bearer s3cret", "--url", http_server
    )
    assert result.code == 1
    text = table(result)
    assert "Verdict: NOT MIGRATED" in text and "(protocol 2025-06-18)" in text
    assert sum(f["code"] == "MCP101" for f in findings) >= 8
    recording = out.read_bytes()
    assert b"s3cret" not in recording and b"Mcp-Session-Id" not in recording
    assert keys(check_json(out)) == keys(findings)


def test_unreachable_url_is_a_clear_error() -> None:
    from tests.conftest import run_cli

    result = run_cli("probe", "--timeout", "2", "--url", "http://127.0.0.1:9/mcp")
    assert result.code == 2 and "cannot probe http://127.0.0.1:9/mcp" in result.err
