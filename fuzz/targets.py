"""Fuzz targets: one per reader, each a function of raw bytes.

A target reads the bytes as a transcript of its format (forced with
``--input-format``, so the reader itself is exercised, not detection), checks
it and fixes it. A defined error (:class:`~migrator.errors.MigratorError`,
which names the file and line) is a correct answer; anything else is a
crash. Where ``fix`` succeeds it must be idempotent and keep every line it
did not rewrite.

``fuzz/run.py`` drives these under atheris; ``tests/test_fuzz_regressions.py``
replays the seed corpus and every crash ever found through the same functions.
"""

from __future__ import annotations

from collections.abc import Callable

from migrator.api import check_text, fix_text
from migrator.engine.pipeline import Options
from migrator.errors import MigratorError
from migrator.model.source import decode
from migrator.readers import InputFormat

# target name -> the format it forces (None: detection from the content)
TARGETS: dict[str, InputFormat] = {
    "detect": InputFormat.AUTO,
    "wire": InputFormat.WIRE,
    "envelope": InputFormat.ENVELOPE,
    "json": InputFormat.JSON,
    "yaml": InputFormat.YAML,
    "har": InputFormat.HAR,
    "claude-log": InputFormat.CLAUDE_LOG,
    "txtar": InputFormat.TXTAR,
    "supergateway": InputFormat.SUPERGATEWAY,
    "kong": InputFormat.KONG,
    "obot": InputFormat.OBOT,
    "agentgateway": InputFormat.AGENTGATEWAY,
}

# Seed files for each target, as globs under the repository root.
SEEDS: dict[str, tuple[str, ...]] = {
    "detect": ("tests/golden/*/input.*", "tests/fixtures/recorded/*.jsonl"),
    "wire": ("tests/fixtures/recorded/*.jsonl", "tests/golden/*/input.jsonl"),
    "envelope": ("tests/fixtures/recorded/*.envelope.jsonl", "tests/golden/envelope-*/input.jsonl"),
    "json": ("tests/golden/*/input.json",),
    "yaml": (
        "tests/golden/*/input.yaml",
        "tests/golden/*/input.yml",
        "docs/examples/formats/*.yaml",
    ),
    "har": ("tests/golden/*/input.har", "docs/examples/formats/*.har"),
    "claude-log": ("tests/golden/*/input.log", "docs/examples/formats/*.log"),
    "txtar": ("tests/golden/*/input.txtar",),
    "supergateway": ("tests/fixtures/gateways/supergateway/*.log",),
    "kong": ("tests/fixtures/gateways/kong/*.jsonl",),
    "obot": ("tests/fixtures/gateways/obot/**/*.jsonl",),
    "agentgateway": ("tests/fixtures/gateways/agentgateway/*",),
}


def run_target(name: str, data: bytes) -> None:
    """Feed ``data`` to one target; raises AssertionError or any crash it finds."""
    text = decode(data)
    options = Options(input_format=TARGETS[name], unsafe_fixes=True)
    try:
        check_text(text, "fuzz", options)
        after, report = fix_text(text, "fuzz", options)
    except MigratorError as exc:
        assert str(exc), "an error must say what is wrong"
        return
    again, second = fix_text(after, "fuzz", options)
    assert again == after and second.fixes == 0, "fix is not idempotent"
    if not report.fixes:
        assert after == text, "nothing fixed, yet the text changed"


def target(name: str) -> Callable[[bytes], None]:
    """The one-argument function atheris calls."""

    def fuzz_one(data: bytes) -> None:
        run_target(name, data)

    return fuzz_one
