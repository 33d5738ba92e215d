"""Objects at URLs: ``check``, ``fix --diff``, ``fix --output-dir`` and ``report`` on S3.

The store is moto's S3 server, started here as a subprocess and reached over
HTTP by s3fs, as any S3 endpoint is (``AWS_ENDPOINT_URL``). Every result on a
bucket must be the result on the same files on disk, with the objects' URLs in
place of the local paths.
"""

from __future__ import annotations

import gzip
import json
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
import yaml

from tests.conftest import ROOT, run_cli
from tests.services import S3Server

pytest.importorskip("s3fs", reason="s3fs is in the test extra")
pytest.importorskip("moto.server", reason="moto[server] is in the test extra")

BUCKET = "mcp-logs"


@pytest.fixture
def on_s3(s3: S3Server, monkeypatch: pytest.MonkeyPatch) -> S3Server:
    """The AWS variables that point every S3 client of this process at the server."""
    for name, value in s3.env.items():
        monkeypatch.setenv(name, value)
    return s3


def obot_tree(root: Path) -> Path:
    """An Obot-style export (``mcp-audit-logs/YYYY/MM/DD/*.jsonl``) with the walk's corner cases.

    A gzip object, a file with no MCP traffic (passed over), a README (not walked),
    a hidden folder (skipped) and files both beside and below a folder (the walk's order).
    """
    logs = root / "logs"
    days = [logs / "mcp-audit-logs" / "2025" / "01" / day for day in ("02", "03")]
    for day in days:
        day.mkdir(parents=True)
    examples = sorted((ROOT / "examples").glob("*.jsonl"))
    shutil.copy(examples[0], days[0] / "gateway-a.jsonl")
    shutil.copy(examples[1], days[0] / "gateway-b.jsonl")
    (days[1] / "gateway-a.jsonl.gz").write_bytes(gzip.compress(examples[2].read_bytes(), mtime=0))
    shutil.copy(examples[3], logs / "top.jsonl")  # beside the folder: walked before it
    (logs / "package.json").write_text('{"name": "not-a-transcript"}\n')
    (logs / "README.md").write_text("notes\n")
    (logs / ".cache").mkdir()
    shutil.copy(examples[0], logs / ".cache" / "hidden.jsonl")
    return logs


@pytest.fixture
def tree(tmp_path: Path, on_s3: S3Server, request: pytest.FixtureRequest) -> tuple[Path, str]:
    """The tree on disk and the same files under a prefix of the bucket (a prefix per test)."""
    local = obot_tree(tmp_path / "disk")
    prefix = f"{request.node.name.replace('[', '-').replace(']', '')}/logs"
    on_s3.upload_tree(local, BUCKET, prefix)
    return local, f"s3://{BUCKET}/{prefix}"


def _json(*argv: str) -> tuple[int, dict, str]:
    run = run_cli(*argv)
    return run.code, json.loads(run.out), run.err


def test_check_on_a_prefix_finds_what_check_finds_on_disk(tree: tuple[Path, str]) -> None:
    local, url = tree
    code, on_disk, _ = _json("check", "--format", "json", str(local))
    url_code, in_bucket, _ = _json("check", "--format", "json", url + "/")
    assert (url_code, code) == (1, 1)
    assert on_disk["summary"]["files"] == 4 and on_disk["findings"]
    expected = json.loads(json.dumps(on_disk).replace(str(local), url))
    assert in_bucket["findings"] == expected["findings"]
    assert {f["path"] for f in in_bucket["findings"]} >= {
        f"{url}/mcp-audit-logs/2025/01/03/gateway-a.jsonl.gz",
        f"{url}/top.jsonl",
    }
    assert in_bucket["summary"] == expected["summary"]


def test_text_output_names_each_object_by_its_url_in_the_walk_order(
    tree: tuple[Path, str],
) -> None:
    local, url = tree
    on_disk = run_cli("check", str(local))
    in_bucket = run_cli("check", url)  # no trailing slash: still a prefix
    assert in_bucket.code == on_disk.code == 1
    assert in_bucket.out == on_disk.out.replace(str(local), url)
    assert "hidden.jsonl" not in in_bucket.out and "package.json" not in in_bucket.out


def test_one_object_named_is_checked_and_a_missing_one_is_an_error(
    tree: tuple[Path, str],
) -> None:
    local, url = tree
    one = run_cli("check", f"{url}/top.jsonl")
    assert one.out == run_cli("check", str(local / "top.jsonl")).out.replace(str(local), url)
    missing = run_cli("check", f"{url}/nothing-here/")
    assert missing.code == 2
    assert f"{url}/nothing-here/: no such object or prefix" in missing.err
    not_mcp = run_cli("check", f"{url}/package.json")  # named, it is an error, as on disk
    assert not_mcp.code == 2 and "holds no JSON-RPC messages" in not_mcp.err


def test_include_and_exclude_globs_apply_to_keys(
    tmp_path: Path, on_s3: S3Server, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The bucket is the root of an object's globs, as the configuration's folder is on disk:
    # with the same layout under both, one configuration leaves out the same files.
    local = obot_tree(tmp_path)
    on_s3.upload_tree(local, "mcp-globs", "logs")
    (tmp_path / ".mcp-transcripts.yaml").write_text(
        'exclude: ["logs/mcp-audit-logs/2025/01/03/**", "top.jsonl"]\n'
    )
    monkeypatch.chdir(tmp_path)
    on_disk = run_cli("check", "logs")
    in_bucket = run_cli("check", "s3://mcp-globs/logs/")
    assert "gateway-a.jsonl.gz" not in on_disk.out and "top.jsonl" not in on_disk.out
    assert "gateway-b.jsonl" in on_disk.out
    assert in_bucket.out == re.sub("^logs/", "s3://mcp-globs/logs/", on_disk.out, flags=re.M)


def test_fix_diff_of_a_prefix_is_the_diff_on_disk(tree: tuple[Path, str]) -> None:
    local, url = tree
    on_disk = run_cli("fix", "--diff", str(local))
    in_bucket = run_cli("fix", "--diff", url)
    assert on_disk.code == in_bucket.code == 1
    assert "+++ " in on_disk.out
    # The headers are a/PATH and b/PATH, so the local path loses its leading "/" there.
    assert in_bucket.out == on_disk.out.replace(str(local).lstrip("/"), url)


def test_report_of_a_prefix_is_the_report_on_disk(tree: tuple[Path, str]) -> None:
    local, url = tree
    code, on_disk, _ = _json("report", "--format", "json", str(local))
    url_code, in_bucket, _ = _json("report", "--format", "json", url)
    assert code == url_code == 0
    for document in (on_disk, in_bucket):
        document.pop("generated")
    assert in_bucket == json.loads(json.dumps(on_disk).replace(str(local), url))
    assert in_bucket["servers"]


def test_fix_never_rewrites_an_object_in_place(tree: tuple[Path, str], s3: S3Server) -> None:
    _, url = tree
    before = s3.filesystem().cat(f"{url}/top.jsonl")
    run = run_cli("fix", url)
    assert run.code == 2
    assert "fix does not rewrite objects in place: give --output-dir" in run.err
    assert s3.filesystem().cat(f"{url}/top.jsonl") == before


def test_fix_output_dir_in_the_bucket_holds_the_copies_fix_writes_on_disk(
    tree: tuple[Path, str], s3: S3Server, tmp_path: Path
) -> None:
    local, url = tree
    originals = {p: p.read_bytes() for p in local.rglob("*") if p.is_file()}
    copies = tmp_path / "fixed-on-disk"
    assert run_cli("fix", "--output-dir", str(copies), str(local)).code == 0
    assert {p: p.read_bytes() for p in local.rglob("*") if p.is_file()} == originals
    written = sorted(p.relative_to(copies).as_posix() for p in copies.rglob("*") if p.is_file())
    assert written  # only the files that change are written
    fixed = f"s3://{BUCKET}/fixed/{url.split('/', 3)[3]}"
    run = run_cli("fix", "--output-dir", fixed + "/", url)
    assert run.code == 0, run.err
    fs = s3.filesystem()
    in_bucket = sorted(
        name.split(fixed.removeprefix("s3://") + "/", 1)[1] for name in fs.find(fixed)
    )
    assert in_bucket == written
    for name in written:
        assert fs.cat(f"{fixed}/{name}") == (copies / name).read_bytes()
    # The gzip object's copy is gzip, and is what fix writes for the file decompressed.
    plain = tmp_path / "plain.jsonl"
    plain.write_bytes(
        gzip.decompress((local / "mcp-audit-logs/2025/01/03/gateway-a.jsonl.gz").read_bytes())
    )
    assert run_cli("fix", str(plain)).code == 0
    compressed = fs.cat(f"{fixed}/mcp-audit-logs/2025/01/03/gateway-a.jsonl.gz")
    assert gzip.decompress(compressed) == plain.read_bytes()


def test_fix_output_dir_on_disk_leaves_the_originals_and_writes_what_fix_would(
    tmp_path: Path,
) -> None:
    folder = tmp_path / "traces"
    shutil.copytree(ROOT / "examples", folder, ignore=shutil.ignore_patterns("*.md"))
    in_place = tmp_path / "in-place"
    shutil.copytree(folder, in_place)
    assert run_cli("fix", str(in_place)).code == 0
    out = tmp_path / "out"
    run = run_cli("fix", "--output-dir", str(out), str(folder))
    assert run.code == 0, run.err
    for original in folder.iterdir():
        assert original.read_bytes() == (ROOT / "examples" / original.name).read_bytes()
        copy = out / original.name
        changed = (in_place / original.name).read_bytes() != original.read_bytes()
        assert copy.exists() == changed
        if changed:
            assert copy.read_bytes() == (in_place / original.name).read_bytes()


def test_output_dir_is_refused_where_it_has_no_meaning(tmp_path: Path) -> None:
    example = str(ROOT / "examples" / "python-sdk-1.9.4.jsonl")
    diff = run_cli("fix", "--diff", "--output-dir", str(tmp_path), example)
    assert diff.code == 2 and "--output-dir is for fix" in diff.err
    backup = run_cli("fix", "--backup", ".orig", "--output-dir", str(tmp_path), example)
    assert backup.code == 2 and "--backup and --output-dir" in backup.err
    assert not list(tmp_path.iterdir())


def test_an_object_is_written_whole_or_not_at_all(on_s3: S3Server) -> None:
    from migrator.errors import UnsafeRewriteError
    from migrator.fix.writer import write_object

    url = f"s3://{BUCKET}/whole/object.jsonl"

    def refused_midway() -> Iterator[bytes]:
        yield b'{"jsonrpc":"2.0"}\n' * 1000
        raise UnsafeRewriteError("refused", path=url)

    with pytest.raises(UnsafeRewriteError):
        write_object(url, refused_midway())
    assert not on_s3.filesystem().exists(url)
    write_object(url, iter([b"a\n", b"b\n"]))
    assert on_s3.filesystem().cat(url) == b"a\nb\n"


def test_storage_options_reach_the_file_system(
    tree: tuple[Path, str], s3: S3Server, monkeypatch: pytest.MonkeyPatch
) -> None:
    local, url = tree
    monkeypatch.delenv("AWS_ENDPOINT_URL")  # the endpoint comes from the command line now
    run = run_cli(
        "check",
        "--storage-option",
        f"endpoint_url={s3.endpoint}",
        "--storage-option",
        'client_kwargs={"region_name": "us-east-1"}',
        url,
    )
    assert run.out == run_cli("check", str(local)).out.replace(str(local), url)
    bad = run_cli("check", "--storage-option", "no-equals-sign", url)
    assert bad.code == 2 and "--storage-option wants KEY=VALUE" in bad.err


def _python(code: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=120
    )


def test_a_local_run_does_not_import_fsspec() -> None:
    run = _python(
        "import sys, io\n"
        "from migrator.cli import main\n"
        "code = main(['check', 'examples'], stdout=io.StringIO(), stderr=io.StringIO())\n"
        "print(code, sorted(m for m in sys.modules if m.split('.')[0] in "
        "('fsspec', 's3fs', 'gcsfs', 'adlfs', 'distributed')))\n"
    )
    assert run.stdout.strip() == "1 []", run.stderr


def test_a_url_without_the_cloud_extra_says_which_extra_to_install() -> None:
    run = _python(
        "import sys, io\n"
        "sys.modules['fsspec'] = None  # as if the cloud extra were not installed\n"
        "from migrator.cli import main\n"
        "err = io.StringIO()\n"
        "code = main(['check', 's3://bucket/logs/'], stdout=io.StringIO(), stderr=err)\n"
        "print(code, err.getvalue())\n"
    )
    assert run.stdout.startswith("2 "), run.stderr
    assert "s3://bucket/logs/: reading s3:// URLs needs the cloud extra" in run.stdout
    assert "pip install 'mcp-transcripts[cloud]'" in run.stdout


EXAMPLES = ROOT / "docs" / "examples" / "buckets"


def _bucket_layouts(root: Path) -> tuple[Path, Path]:
    """An Obot audit export day and an hour of Collector trace objects, as the how-to shows them."""
    audit = root / "audit"
    day = audit / "mcp-audit-logs" / "2026" / "01" / "15"
    day.mkdir(parents=True)
    obot = ROOT / "tests" / "fixtures" / "gateways" / "obot" / "mcp-audit-logs" / "2026" / "01"
    shutil.copy(obot / "15" / "fixture-export.jsonl", day / "export-1000.jsonl")
    telemetry = root / "telemetry"
    hour = telemetry / "traces" / "year=2026" / "month=01" / "day=15" / "hour=10"
    trace = (ROOT / "tests" / "fixtures" / "traces" / "ts-sdk-1.20.2.otlp.jsonl").read_bytes()
    for number, request in enumerate(trace.splitlines(keepends=True)):  # one export per object
        minute = hour / f"minute={5 + number // 5:02d}"
        minute.mkdir(parents=True, exist_ok=True)
        (minute / f"traces_{number:04d}.json.gz").write_bytes(gzip.compress(request, mtime=0))
    return audit, telemetry


def test_the_bucket_how_to_script_finds_what_the_files_on_disk_hold(
    tmp_path: Path, on_s3: S3Server
) -> None:
    audit, telemetry = _bucket_layouts(tmp_path / "local")
    on_s3.upload_tree(audit, "docs-audit")
    on_s3.upload_tree(telemetry, "docs-telemetry")
    env = {
        **os.environ,
        **on_s3.env,
        "AUDIT_BUCKET": "docs-audit",
        "TELEMETRY_BUCKET": "docs-telemetry",
        "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}",
    }
    run = subprocess.run(
        ["sh", str(EXAMPLES / "scan-a-bucket.sh")],
        capture_output=True, text=True, cwd=tmp_path, env=env, timeout=300, check=False,
    )  # fmt: skip
    assert run.returncode == 1, run.stderr  # findings in both
    day = audit / "mcp-audit-logs" / "2026" / "01" / "15"
    local_day = json.loads(run_cli("check", "--format", "json", str(day)).out)
    in_bucket = json.loads((tmp_path / "obot-day.json").read_text(encoding="utf-8"))
    url = "s3://docs-audit/mcp-audit-logs/2026/01/15"
    assert in_bucket["findings"] == json.loads(
        json.dumps(local_day["findings"]).replace(str(day), url)
    )
    assert any(f["code"] == "MCP101" for f in in_bucket["findings"])
    hour = telemetry / "traces" / "year=2026" / "month=01" / "day=15" / "hour=10"
    local_hour = run_cli("check", str(hour))
    assert "MCP401" in run.stdout
    assert run.stdout == local_hour.out.replace(
        str(hour), "s3://docs-telemetry/traces/year=2026/month=01/day=15/hour=10"
    )


def test_the_collector_example_writes_what_the_how_to_says() -> None:
    collector = yaml.safe_load((EXAMPLES / "otel-collector-s3.yaml").read_text(encoding="utf-8"))
    exporter = collector["exporters"]["awss3"]
    assert exporter["marshaler"] == "otlp_json"  # the OTLP JSON the trace reader reads
    assert exporter["s3uploader"]["compression"] == "gzip"
    assert collector["service"]["pipelines"]["traces"]["exporters"] == ["awss3"]


def test_a_pair_of_objects_reads_as_the_pair_on_disk(tmp_path: Path, on_s3: S3Server) -> None:
    from tests.test_cli import _split_capture

    c2s, s2c = _split_capture(tmp_path)
    on_s3.upload_tree(tmp_path, "mcp-pairs")
    urls = [f"s3://mcp-pairs/{path.name}" for path in (c2s, s2c)]
    local = [str(c2s), str(s2c)]

    def in_bucket(text: str) -> str:
        return text.replace(str(s2c), urls[1]).replace(str(c2s), urls[0])

    checked = run_cli("check", "--pair", *urls)
    assert checked.code == 1
    assert checked.out == in_bucket(run_cli("check", "--pair", *local).out)
    diffed = run_cli("fix", "--diff", "--pair", *urls)
    assert diffed.code == 1 and diffed.out
    assert diffed.out == run_cli("fix", "--diff", "--pair", *local).out.replace(
        str(s2c).lstrip("/"), urls[1]
    )
    refused = run_cli("fix", "--pair", *urls)  # the server's object would be rewritten in place
    assert refused.code == 2 and "does not rewrite objects in place" in refused.err
    fs = on_s3.filesystem()
    assert fs.cat_file(f"mcp-pairs/{s2c.name}") == s2c.read_bytes()
