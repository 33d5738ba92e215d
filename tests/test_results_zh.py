"""The Chinese benchmark tables are the translation of the committed English ones."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from types import ModuleType

import pytest

from tests.conftest import ROOT

RESULTS = ROOT / "benchmarks" / "results"


@pytest.fixture
def results_zh() -> Iterator[ModuleType]:
    sys.path.insert(0, str(ROOT / "benchmarks"))
    try:
        import results_zh

        yield results_zh
    finally:
        sys.path.remove(str(ROOT / "benchmarks"))


def test_the_committed_chinese_tables_are_the_translation(results_zh: ModuleType) -> None:
    english = (RESULTS / "results.md").read_text(encoding="utf-8")
    assert (RESULTS / "results.zh.md").read_text(encoding="utf-8") == results_zh.to_chinese(english)


def test_numbers_are_kept_and_labels_translated(results_zh: ModuleType) -> None:
    english = (RESULTS / "results.md").read_text(encoding="utf-8")
    chinese = results_zh.to_chinese(english)
    # Every row of numbers comes through as it was, with only its label translated.
    rows = [line for line in english.splitlines() if line.startswith("| orjson parse only |")]
    assert rows
    for row in rows:
        assert row.replace("| orjson parse only |", "| 只用 orjson 解析 |") in chinese
    assert "orjson parse only" not in chinese and "share of" not in chinese
    assert len(chinese.splitlines()) <= len(english.splitlines())


def test_a_new_benchmark_row_without_chinese_fails(results_zh: ModuleType) -> None:
    table = "| task | seconds (median) |\n| --- | ---: |\n| a brand-new baseline | 1.00 |\n"
    with pytest.raises(KeyError, match="a brand-new baseline"):
        results_zh.to_chinese(table)
    with pytest.raises(KeyError, match="unexplained"):
        results_zh.to_chinese("Some unexplained paragraph.\n")


def test_every_table_run_py_writes_has_chinese(results_zh: ModuleType) -> None:
    # The tables of a whole run, targets and trace included, from made-up measurements.
    sys.path.insert(0, str(ROOT / "benchmarks"))
    try:
        import run
    finally:
        sys.path.remove(str(ROOT / "benchmarks"))
    tasks = [
        "orjson parse only",
        "json parse only",
        "msgspec envelope decode only (prefilter-free)",
        "jq select (detect only)",
        "check-jsonschema (JSON-RPC schema)",
        "mcp-transcripts check",
        *(f"mcp-transcripts check --select {f}: {what}" for f, what in run.RULE_FAMILIES.items()),
        "mcp-transcripts check -j 2 (one file, two processes)",
        "mcp-transcripts fix --diff",
        "mcp-transcripts fix",
    ]
    sizes = {n: [run.Measurement(t, n, n / 800, 1.0 + i, 40.0, 1.5) for i, t in enumerate(tasks)]
             for n in (200_000, 1_000_000)}  # fmt: skip
    all_ratios = {n: run.ratios(results) for n, results in sizes.items()}
    otlp = [
        run.Measurement("orjson parse only (MCP-only OTLP trace)", 10, 100.0, 0.5, 12.0, 0.5),
        run.Measurement("mcp-transcripts check (MCP-only OTLP trace)", 10, 100.0, 5.0, 60.0, 5.0),
    ]
    startup = {"mcp-transcripts --version": 0.07, "check on a 1-line file": 0.4}
    jobs = {"one large file, -j 1": 1.0, "20 small files, -j 1": 1.0, "20 small files, -j 2": 0.6}
    for proxy in (None, {"median": 1.1, "p99": 2.0}):
        goals = run.targets(sizes, all_ratios, startup, otlp, proxy)
        assert [goal.met for goal in goals][-1] == ("not measured" if proxy is None else "no")
        table = run.markdown(sizes, all_ratios, jobs, startup, "x86_64, 2 cores", otlp, goals)
        chinese = results_zh.to_chinese(table)
        assert "与目标对照（issue 29）" in chinese  # noqa: RUF001 - Chinese punctuation
        assert "只含 MCP span 的 OTLP trace（100 MB）" in chinese  # noqa: RUF001
        assert "share of" not in chinese and "wanted" not in chinese


def test_the_targets_table_goes_between_the_readmes_markers() -> None:
    sys.path.insert(0, str(ROOT / "benchmarks"))
    try:
        import run
    finally:
        sys.path.remove(str(ROOT / "benchmarks"))
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    goal = run.Target("check: share of orjson parse-only throughput", 200_000, 0.6, 0.72, True)
    once = run.into_readme(readme, [goal], "x86_64, 2 cores")
    twice = run.into_readme(once, [goal], "x86_64, 2 cores")
    assert once == twice  # the block is replaced, not added to
    assert "| check: share of orjson parse-only throughput | 200,000 | 0.60 | 0.72 | yes |" in once
    start, end = readme.index(run.README_START), readme.index(run.README_END)
    assert once.startswith(readme[:start]) and once.endswith(readme[end:])
