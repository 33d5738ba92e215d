"""Real services the cloud and cluster tests start themselves, on the loopback address.

* :class:`S3Server`: moto's S3 server (``moto[server]``), a subprocess speaking the S3
  wire API; s3fs reaches it through ``AWS_ENDPOINT_URL`` as it would reach any S3.
* :class:`DaskCluster`: a ``dask scheduler`` and ``dask worker`` processes over real TCP.

Each stops what it started, by process id, when it is closed. The benchmark
(``benchmarks/cluster.py``) uses them too.
"""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
HOST = "127.0.0.1"


def free_port() -> int:
    """A TCP port nobody listens on just now."""
    with socket.socket() as probe:
        probe.bind((HOST, 0))
        return int(probe.getsockname()[1])


def _wait_for_port(port: int, process: subprocess.Popen[bytes], what: str, seconds: float) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"{what} exited with {process.returncode} before listening")
        with contextlib.suppress(OSError), socket.create_connection((HOST, port), timeout=0.2):
            return
        time.sleep(0.1)
    raise RuntimeError(f"{what} did not listen on port {port} within {seconds} s")


def _stop(process: subprocess.Popen[bytes]) -> None:
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=10)


class S3Server:
    """moto's S3 server in a subprocess; :attr:`env` is what a client needs to reach it."""

    def __init__(self) -> None:
        self.port = free_port()
        self.endpoint = f"http://{HOST}:{self.port}"
        self.process = subprocess.Popen(
            [sys.executable, "-m", "moto.server", "-H", HOST, "-p", str(self.port)],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        _wait_for_port(self.port, self.process, "moto's S3 server", 60)
        self.env = {
            "AWS_ACCESS_KEY_ID": "testing",
            "AWS_SECRET_ACCESS_KEY": "testing",
            "AWS_DEFAULT_REGION": "us-east-1",
            "AWS_ENDPOINT_URL": self.endpoint,
        }

    def filesystem(self):  # type: ignore[no-untyped-def]
        """An s3fs file system on this server (a fresh one, not fsspec's cached instance)."""
        import s3fs

        return s3fs.S3FileSystem(
            key="testing",
            secret="testing",
            endpoint_url=self.endpoint,
            skip_instance_cache=True,
        )

    def upload_tree(self, folder: Path, bucket: str, prefix: str = "") -> None:
        """Every file under ``folder`` as an object at the same relative key under ``prefix``."""
        fs = self.filesystem()
        if not fs.exists(bucket):
            fs.mkdir(bucket)
        for path in sorted(folder.rglob("*")):
            if path.is_file():
                key = "/".join(filter(None, [prefix, path.relative_to(folder).as_posix()]))
                fs.pipe(f"{bucket}/{key}", path.read_bytes())

    def close(self) -> None:
        _stop(self.process)


class DaskCluster:
    """A ``dask scheduler`` and ``workers`` single-threaded ``dask worker`` processes.

    The workers run without a nanny, so killing one (:meth:`kill_worker`) is a
    worker lost mid-run, as a machine lost in a real cluster is.
    """

    def __init__(self, workers: int, env: dict[str, str] | None = None) -> None:
        self.port = free_port()
        self.address = f"tcp://{HOST}:{self.port}"
        self.env = {**os.environ, "PYTHONPATH": str(ROOT), **(env or {})}
        self.scheduler = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "distributed.cli.dask_scheduler",
                "--host",
                HOST,
                "--port",
                str(self.port),
                "--dashboard-address",
                ":0",
                "--no-show",
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            env=self.env,
            cwd=ROOT,
        )
        self.workers: list[subprocess.Popen[bytes]] = []
        try:
            _wait_for_port(self.port, self.scheduler, "the dask scheduler", 60)
            for _ in range(workers):
                self.add_worker()
            self.wait_for_workers(workers)
        except BaseException:
            self.close()
            raise

    def add_worker(self) -> subprocess.Popen[bytes]:
        worker = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "distributed.cli.dask_worker",
                self.address,
                "--nthreads",
                "1",
                "--no-nanny",
                "--host",
                HOST,
                "--dashboard-address",
                ":0",
                "--memory-limit",
                "0",
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            env=self.env,
            cwd=ROOT,
        )
        self.workers.append(worker)
        return worker

    def wait_for_workers(self, count: int, seconds: float = 60) -> None:
        from distributed import Client

        with Client(self.address, timeout=seconds) as client:
            client.wait_for_workers(count, timeout=seconds)

    def kill_worker(self, pid: int) -> None:
        """Kill the worker process ``pid`` at once (SIGKILL): no goodbye to the scheduler."""
        os.kill(pid, signal.SIGKILL)

    def close(self) -> None:
        for worker in self.workers:
            _stop(worker)
        _stop(self.scheduler)
