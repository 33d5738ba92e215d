"""``--dask-scheduler``: the run on a real dask.distributed cluster gives the local run's result.

A ``dask scheduler`` and two single-threaded ``dask worker`` processes are
started here (real TCP on the loopback address), with moto's S3 server for the
bucket. The workers read the objects themselves; the results must be those of a
local run on the same files on disk, in the same order, and no file may be lost:
not when a worker is killed mid-run, not when an object always fails to read.
"""

from __future__ import annotations

import http.server
import json
import os
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import ROOT, run_cli
from tests.services import DaskCluster, S3Server
from tests.test_cloud import BUCKET, obot_tree

pytest.importorskip("distributed", reason="distributed is in the test extra")
pytest.importorskip("moto.server", reason="moto[server] is in the test extra")

pytestmark = pytest.mark.slow  # a scheduler, workers and a store: seconds each


@pytest.fixture(scope="module")
def cluster(s3: S3Server) -> Iterator[DaskCluster]:
    started = DaskCluster(2, env=s3.env)  # the workers find the store as any S3 client does
    try:
        yield started
    finally:
        started.close()


@pytest.fixture
def tree(
    tmp_path: Path, s3: S3Server, monkeypatch: pytest.MonkeyPatch, request: pytest.FixtureRequest
) -> tuple[Path, str]:
    for name, value in s3.env.items():
        monkeypatch.setenv(name, value)
    local = obot_tree(tmp_path / "disk")
    prefix = f"cluster-{request.node.name}/logs"
    s3.upload_tree(local, BUCKET, prefix)
    return local, f"s3://{BUCKET}/{prefix}"


def test_a_prefix_on_two_workers_gives_the_findings_of_the_files_on_disk(
    tree: tuple[Path, str], cluster: DaskCluster
) -> None:
    local, url = tree
    on_disk = run_cli("check", "--format", "json", str(local))
    on_cluster = run_cli("check", "--format", "json", "--dask-scheduler", cluster.address, url)
    assert on_cluster.code == on_disk.code == 1, on_cluster.err
    expected = json.loads(on_disk.out.replace(str(local), url))
    got = json.loads(on_cluster.out)
    assert got["findings"] == expected["findings"] and got["summary"] == expected["summary"]
    text = run_cli("check", "--dask-scheduler", cluster.address, url)
    assert text.out == run_cli("check", str(local)).out.replace(str(local), url)


def test_fix_diff_and_report_on_the_cluster_are_those_of_a_local_run(
    tree: tuple[Path, str], cluster: DaskCluster
) -> None:
    local, url = tree
    diff = run_cli("fix", "--diff", "--dask-scheduler", cluster.address, url)
    assert diff.out == run_cli("fix", "--diff", str(local)).out.replace(str(local).lstrip("/"), url)
    assert diff.code == 1 and "+++ b/" in diff.out
    local_report = json.loads(run_cli("report", "--format", "json", str(local)).out)
    report = json.loads(
        run_cli("report", "--format", "json", "--dask-scheduler", cluster.address, url).out
    )
    for document in (report, local_report):
        document.pop("generated")
    assert report == json.loads(json.dumps(local_report).replace(str(local), url))


def _large_wire_file(path: Path, sessions: int) -> Path:
    """A wire transcript of ``sessions`` generated sessions of about 2.7 MB, each opened by
    initialize: a file a cluster can cut into stretches."""
    import sys

    sys.path.insert(0, str(ROOT / "benchmarks"))
    try:
        from generate import generate
    finally:
        sys.path.remove(str(ROOT / "benchmarks"))
    session = "".join(line + "\n" for line in generate(2200))
    assert session.startswith('{"jsonrpc":"2.0","id":0,"method":"initialize"')
    path.write_text(session * sessions, encoding="utf-8")
    return path


def test_a_large_object_is_cut_into_stretches_and_reads_as_one_pass(
    tmp_path: Path, s3: S3Server, cluster: DaskCluster, monkeypatch: pytest.MonkeyPatch
) -> None:
    from distributed import Client, get_task_stream

    from migrator import api
    from migrator.engine import cluster as on_cluster

    for name, value in s3.env.items():
        monkeypatch.setenv(name, value)
    big = _large_wire_file(tmp_path / "big.jsonl", 4)
    assert big.stat().st_size > 9 * 1024 * 1024
    s3.upload_tree(tmp_path, BUCKET, "large")
    url = f"s3://{BUCKET}/large/big.jsonl"
    monkeypatch.setattr(on_cluster, "SPLIT_MIN_BYTES", 4 * 1024 * 1024)
    local = api.merge_reports([api.check_file(big)])
    with Client(cluster.address) as client, get_task_stream(client) as stream:
        result = api.check_on_cluster([url], client)
    ran = [task["key"] for task in stream.data]
    assert sum("check_stretch_remotely" in str(key) for key in ran) >= 2, ran
    assert [f.path for f in result.findings] == [url] * len(local.findings)
    assert [(f.line, f.column, f.code, f.message) for f in result.findings] == [
        (f.line, f.column, f.code, f.message) for f in local.findings
    ]
    assert result.files[0].messages == local.files[0].messages


def test_a_worker_killed_mid_run_loses_no_file(tmp_path: Path, s3: S3Server) -> None:
    from distributed import Client

    from migrator import api

    folder = tmp_path / "many"
    folder.mkdir()
    for index in range(6):  # each takes a worker a second or so: there is time to kill one
        _large_wire_file(folder / f"part-{index}.jsonl", 2)
    local = api.merge_reports([api.check_file(p) for p in sorted(folder.iterdir())])
    doomed = DaskCluster(2, env=s3.env)
    try:
        with Client(doomed.address) as client:
            pids = client.run(lambda: __import__("os").getpid())
            results: list[object] = []
            runner = threading.Thread(
                target=lambda: results.append(api.check_on_cluster([folder], client))
            )
            runner.start()
            busy: str | None = None
            deadline = time.monotonic() + 60
            while busy is None and time.monotonic() < deadline:
                busy = next((w for w, tasks in client.processing().items() if tasks), None)
                time.sleep(0.05)
            assert busy is not None, "no worker ever got a task"
            doomed.kill_worker(pids[busy])
            runner.join(timeout=300)
        assert not runner.is_alive()
    finally:
        doomed.close()
    (result,) = results
    assert not result.errors  # type: ignore[attr-defined]
    assert len(result.files) == 6  # type: ignore[attr-defined]
    assert result.findings == local.findings  # type: ignore[attr-defined]


class _FlakyStore(http.server.BaseHTTPRequestHandler):
    """Serves ``/ok.jsonl``; ``/broken.jsonl`` says it exists but every read of it fails."""

    body = (ROOT / "examples" / "python-sdk-1.9.4.jsonl").read_bytes()
    reads_of_broken = 0

    def do_HEAD(self) -> None:
        self.send_response(200)
        self.send_header("Content-Length", str(len(self.body)))
        self.end_headers()

    def do_GET(self) -> None:
        if self.path.startswith("/broken"):
            type(self).reads_of_broken += 1
            self.send_response(503)
            self.end_headers()
            return
        self.send_response(200)
        self.send_header("Content-Length", str(len(self.body)))
        self.end_headers()
        self.wfile.write(self.body)

    def log_message(self, *args: object) -> None:
        pass


def test_an_object_that_always_fails_is_retried_then_reported(cluster: DaskCluster) -> None:
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _FlakyStore)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_port}"
    try:
        run = run_cli(
            "check", "--dask-scheduler", cluster.address, f"{base}/ok.jsonl", f"{base}/broken.jsonl"
        )
    finally:
        server.shutdown()
        server.server_close()
    assert run.code == 2
    assert f"{base}/broken.jsonl: failed on the cluster after 3 tries: cannot read: " in run.err
    assert _FlakyStore.reads_of_broken >= 3
    local = run_cli("check", str(ROOT / "examples" / "python-sdk-1.9.4.jsonl"))
    assert run.out == local.out.replace(
        str(ROOT / "examples" / "python-sdk-1.9.4.jsonl"), f"{base}/ok.jsonl"
    )


def test_a_scheduler_that_is_not_there_is_a_usage_error() -> None:
    from tests.services import free_port

    run = run_cli(
        "check", "--dask-scheduler", f"tcp://127.0.0.1:{free_port()}", str(ROOT / "examples")
    )
    assert run.code == 2 and "cannot reach the dask scheduler at tcp://127.0.0.1:" in run.err


def test_the_how_to_python_example_checks_a_prefix_on_the_cluster(
    tree: tuple[Path, str], cluster: DaskCluster
) -> None:
    local, url = tree
    script = ROOT / "docs" / "examples" / "buckets" / "check_on_cluster.py"
    run = subprocess.run(
        [sys.executable, str(script), cluster.address, url],
        capture_output=True, text=True, cwd=ROOT, timeout=300, check=False,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )  # fmt: skip
    assert run.returncode == 1, run.stderr
    expected = json.loads(
        run_cli("check", "--format", "json", str(local)).out.replace(str(local), url)
    )
    got = json.loads(run.stdout)
    assert got["findings"] == expected["findings"] and got["summary"] == expected["summary"]


def test_a_prefix_is_listed_on_a_worker_so_the_client_needs_no_store_library(
    tree: tuple[Path, str], cluster: DaskCluster
) -> None:
    local, url = tree
    code = (
        "import io, sys\n"
        "from migrator.cli import main\n"
        "out = io.StringIO()\n"
        f"code = main(['check', '--format', 'json', '--dask-scheduler', {cluster.address!r}, "
        f"{url!r}], stdout=out, stderr=io.StringIO())\n"
        "print(code, sorted(m for m in sys.modules if m.split('.')[0] in ('fsspec', 's3fs')))\n"
        "print(out.getvalue())\n"
    )
    run = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True, text=True, cwd=ROOT, timeout=300, check=False,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )  # fmt: skip
    status, _, report = run.stdout.partition("\n")
    assert status == "1 []", run.stderr
    expected = json.loads(
        run_cli("check", "--format", "json", str(local)).out.replace(str(local), url)
    )
    assert json.loads(report)["findings"] == expected["findings"]


def test_a_prefix_that_is_not_there_is_an_input_error_from_the_worker(
    s3: S3Server, cluster: DaskCluster, monkeypatch: pytest.MonkeyPatch
) -> None:
    for name, value in s3.env.items():
        monkeypatch.setenv(name, value)
    s3.filesystem().mkdir("cluster-empty")
    missing = run_cli("check", "--dask-scheduler", cluster.address, "s3://cluster-empty/none/")
    assert missing.code == 2
    assert "s3://cluster-empty/none/: no such object or prefix" in missing.err


def test_the_cluster_benchmark_runs_and_finds_the_same_in_every_run() -> None:
    # benchmarks/cluster.py on its smallest setting: its own moto server and clusters of 1
    # and 2 workers; it exits 1 when a run's findings differ from the others'.
    done = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "cluster.py"), "--quick"],
        capture_output=True, text=True, cwd=ROOT, timeout=300,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    assert "in every run" in done.stdout
    for run in ("local disk, one process", "s3://, dask, 1 worker", "s3://, dask, 2 workers"):
        assert f"| {run}" in done.stdout
