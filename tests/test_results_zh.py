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
    assert "| 只用 orjson 解析 | 0.40 | 31 | 24,812 | 12 |" in chinese
    assert "orjson parse only" not in chinese and "share of" not in chinese
    assert len(chinese.splitlines()) <= len(english.splitlines())


def test_a_new_benchmark_row_without_chinese_fails(results_zh: ModuleType) -> None:
    table = "| task | seconds (median) |\n| --- | ---: |\n| a brand-new baseline | 1.00 |\n"
    with pytest.raises(KeyError, match="a brand-new baseline"):
        results_zh.to_chinese(table)
    with pytest.raises(KeyError, match="unexplained"):
        results_zh.to_chinese("Some unexplained paragraph.\n")
