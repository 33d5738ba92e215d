"""FindingList: findings packed as they grow, reported exactly as a plain list would be."""

from __future__ import annotations

import dataclasses
import json
import pickle
import shutil
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from migrator.model.findings import Finding, FindingList, FixSafety, Severity
from tests.conftest import RECORDED, run_cli


def finding(line: int, code: str = "MCP101", path: str = "a.jsonl") -> Finding:
    return Finding(
        path,
        line,
        1,
        code,
        "slug",
        Severity.ERROR,
        f"message {line}",
        FixSafety.SAFE,
        line,
        "t",
        ("e",),
    )


@pytest.fixture
def small_blocks(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(FindingList, "BLOCK", 3)


@given(st.lists(st.integers(1, 50), max_size=40))
def test_behaves_like_the_list_it_was_given(lines: list[int]) -> None:
    FindingList.BLOCK = 3  # several packed blocks for most draws
    try:
        items = [finding(n) for n in lines]
        packed = FindingList(items)
        assert len(packed) == len(items) and bool(packed) == bool(items)
        assert list(packed) == items and packed == items
        assert list(packed.in_order()) == sorted(items)
        again = pickle.loads(pickle.dumps(packed))
        assert again == items and list(again.in_order()) == sorted(items)
        if items:
            assert packed[-1] == items[-1] and packed[0] == items[0]
    finally:
        FindingList.BLOCK = 2048


def test_clear_and_iadd(small_blocks: None) -> None:
    packed = FindingList()
    packed += [finding(n) for n in range(1, 8)]
    assert len(packed) == 7
    packed.clear()
    assert len(packed) == 0 and list(packed) == [] and packed == []


def test_packed_reports_match_across_files_and_formats(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The same run with tiny blocks (everything packed, merged across files)
    # must print exactly what it prints with everything in memory.
    for name in ("b", "a", "c"):
        shutil.copyfile(RECORDED / "ts-sdk-1.20.2.jsonl", tmp_path / f"{name}.jsonl")
    expected = {
        fmt: run_cli("check", "--format", fmt, str(tmp_path))
        for fmt in ("text", "json", "sarif", "junit")
    }
    monkeypatch.setattr(FindingList, "BLOCK", 2)
    for spill_bytes in (FindingList.SPILL_BYTES, 0):  # and with every block spilled to disk
        monkeypatch.setattr(FindingList, "SPILL_BYTES", spill_bytes)
        for fmt, want in expected.items():
            got = run_cli("check", "--format", fmt, str(tmp_path))
            assert (got.code, got.out, got.err.split(", ")[0]) == (
                want.code,
                want.out,
                want.err.split(", ")[0],
            )
    document = json.loads(expected["json"].out)
    paths = [f["path"] for f in document["findings"]]
    assert paths == sorted(paths) and document["summary"]["findings"] > 10


@given(st.lists(st.integers(1, 50), max_size=40), st.lists(st.integers(1, 50), max_size=40))
def test_blocks_taken_from_one_list_and_adopted_by_another_keep_findings_counts_and_order(
    first: list[int], second: list[int]
) -> None:
    # How -j N hands a stretch's findings to the file's report: packed blocks, never unpacked.
    FindingList.BLOCK = 3
    try:
        head = FindingList(finding(n) for n in first)
        worker = FindingList()
        moved = []
        for n in second:
            worker.append(finding(n))
            moved += worker.take_packed()
        moved += worker.take_packed(all_of_it=True)
        assert len(worker) == 0 and not worker and list(worker) == []
        for block in moved:
            head.adopt(block)
        items = [finding(n) for n in first + second]
        assert list(head) == items and len(head) == len(items)
        assert head.kinds() == FindingList(items).kinds()
        assert list(head.in_order()) == sorted(items)
    finally:
        FindingList.BLOCK = 2048


@given(
    st.lists(st.integers(1, 50), max_size=60),
    st.lists(st.integers(1, 50), max_size=20),
    st.sampled_from([0, 200]),
)
def test_blocks_spilled_to_a_temporary_file_read_back_as_they_were(
    lines: list[int], more: list[int], spill_bytes: int
) -> None:
    # Past SPILL_BYTES of packed findings in memory, the blocks go to a temporary file;
    # iterating, sorting, counting, pickling, taking and adopting see the same findings.
    FindingList.BLOCK, FindingList.SPILL_BYTES = 3, spill_bytes
    try:
        items = [finding(n) for n in lines]
        packed = FindingList(items)
        if len(items) >= 2 * FindingList.BLOCK and spill_bytes == 0:
            assert packed._spilled and packed._held == 0  # the path under test was taken
        assert list(packed) == items and len(packed) == len(items)
        assert list(packed.in_order()) == sorted(items)
        assert [Finding(*row) for row in packed.rows_in_order()] == sorted(items)
        assert pickle.loads(pickle.dumps(packed)) == items
        packed += [finding(n) for n in more]  # appending after a spill, and reading again
        assert list(packed) == items + [finding(n) for n in more]
        head = FindingList()
        for block in packed.take_packed(all_of_it=True):
            head.adopt(block)
        assert not packed and len(packed) == 0 and list(packed) == []
        assert list(head) == items + [finding(n) for n in more]
        assert head.kinds() == FindingList(items + [finding(n) for n in more]).kinds()
        head.clear()
        assert list(head) == [] and not head
    finally:
        FindingList.BLOCK, FindingList.SPILL_BYTES = 2048, 8 << 20


def test_a_finding_equals_hashes_and_orders_by_its_location_and_code_alone() -> None:
    """What findings compare by stayed as it was when ``Finding`` stopped being frozen."""
    first = finding(3)
    reworded = dataclasses.replace(first, message="other words", evidence=("other",))
    assert reworded == first
    assert hash(reworded) == hash(first)
    assert len({first, reworded, finding(4)}) == 2
    assert sorted([finding(4), finding(3, "MCP203"), first]) == [
        first,
        finding(3, "MCP203"),
        finding(4),
    ]
    assert finding(3, path="b.jsonl") > finding(9)
