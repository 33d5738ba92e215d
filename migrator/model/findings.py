"""Findings: what ``check`` reports. Read-only by contract, comparable, hashable and serialisable."""

from __future__ import annotations

import operator
import os
import pickle
import tempfile
import zlib
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field, fields
from enum import Enum
from functools import partial
from itertools import pairwise
from typing import Any, BinaryIO


class Severity(str, Enum):
    """How bad a finding is; ``--fail-on`` compares against this order."""

    INFO = "info"
    WARNING = "warning"
    ERROR = "error"

    @property
    def rank(self) -> int:
        """0 for info, 1 for warning, 2 for error."""
        return _RANK[self]


_RANK = {Severity.INFO: 0, Severity.WARNING: 1, Severity.ERROR: 2}


class FixSafety(str, Enum):
    """Whether ``fix`` applies a rule's fix by default."""

    SAFE = "safe"  # applied by `fix`
    UNSAFE = "unsafe"  # applied only with --unsafe-fixes
    NONE = "none"  # no automatic fix


# Not frozen: a frozen dataclass sets each of its 15 fields through object.__setattr__,
# which made a finding cost 2-5 us to build (6x a plain one); with the Verdict and the Hit
# around it, frozen fields were 13% of the instructions spent on an invalid call and its
# -32602 (`benchmarks/core.py --instructions`). Nothing writes to a finding once made
# (``dataclasses.replace`` makes a changed copy), and the hash is the frozen one's (the
# compared fields), kept with ``unsafe_hash``.
@dataclass(order=True, slots=True, unsafe_hash=True)
class Finding:
    """One thing ``check`` found, located at a line and column of a file.

    Treat it as read-only: reporters and baselines read the object the rule made,
    and its hash is that of its location and code.
    """

    path: str
    line: int
    column: int
    code: str
    slug: str = field(compare=False)
    severity: Severity = field(compare=False)
    message: str = field(compare=False)
    fixable: FixSafety | None = field(default=None, compare=False)
    request_id: str | int | None = field(default=None, compare=False)
    tool: str | None = field(default=None, compare=False)
    evidence: tuple[str, ...] = field(default=(), compare=False)
    pointer: str | None = field(default=None, compare=False)
    keyword: str | None = field(default=None, compare=False)
    trace_id: str | None = field(default=None, compare=False)  # findings on a trace's span
    span_id: str | None = field(default=None, compare=False)

    def as_dict(self) -> dict[str, Any]:
        """The finding as the JSON output format writes it (``trace_id``/``span_id`` only for spans)."""
        return row_as_dict(row_of(self))


Row = tuple[Any, ...]
"""A finding's fields in their order (:data:`FIELDS`): how blocks of findings are kept and read."""


def row_as_dict(row: Row) -> dict[str, Any]:
    """:meth:`Finding.as_dict` of a finding's row, without making the finding."""
    (
        path, line, column, code, slug, severity, message, fixable,
        request_id, tool, evidence, pointer, keyword, trace_id, span_id,
    ) = row  # fmt: skip
    out = {
        "path": path,
        "line": line,
        "column": column,
        "code": code,
        "slug": slug,
        "severity": severity._value_,  # the enum's value without its property's cost
        "message": message,
        "fixable": fixable._value_ if fixable else None,
        "request_id": request_id,
        "tool": tool,
        "evidence": list(evidence),
        "pointer": pointer,
        "keyword": keyword,
    }
    if span_id is not None:
        out["trace_id"] = trace_id
        out["span_id"] = span_id
    return out


CountKey = tuple[str, Severity, "FixSafety | None"]
"""What a summary counts a finding by: its code, severity and fix safety."""


@dataclass(frozen=True)
class PackedFindings:
    """A block of findings as :class:`FindingList` keeps it: pickled and compressed.

    What a list needs to know of the block (its counts, its first and last
    finding, whether it is sorted) travels with it, so a list can take it over
    without unpacking it: how ``-j N`` hands a stretch's findings from a worker
    process to the file's report.
    """

    data: bytes
    kinds: Counter[CountKey]
    first: Finding
    last: Finding
    in_order: bool

    @classmethod
    def pack(cls, findings: list[Finding]) -> PackedFindings:
        """Pack a non-empty list of findings."""
        in_order = all(a <= b for a, b in pairwise(findings))
        return cls(
            zlib.compress(pickle.dumps(list(map(row_of, findings)), pickle.HIGHEST_PROTOCOL), 1),
            Counter((f.code, f.severity, f.fixable) for f in findings),
            findings[0],
            findings[-1],
            in_order,
        )

    def unpack(self) -> list[Finding]:
        """The findings of the block, in their order."""
        return [Finding(*row) for row in self.rows()]

    def rows(self) -> list[Row]:
        """The rows of the block's findings, in their order (no finding is made)."""
        return _unpacked(self.data)


# Findings are pickled as plain rows of their fields: pickling the dataclass itself goes
# through its Python-level __getstate__/__setstate__, four times slower both ways.
FIELDS = tuple(f.name for f in fields(Finding))
row_of = operator.attrgetter(*FIELDS)
"""A finding's row."""
ROW_KEY = operator.itemgetter(0, 1, 2, 3)
"""What rows sort by: path, line, column and code, as findings compare."""
_ORDER_KEY = operator.attrgetter(*(f.name for f in fields(Finding) if f.compare))
"""What findings compare by (the dataclass's compared fields), as one C call."""


class FindingList:
    """The findings of one file, in the order they were found, packed as they grow.

    A large transcript can hold hundreds of thousands of findings, and every
    report prints them at the end. Held as objects they would make memory grow
    with the file (about 0.7 KB each); here every block of :attr:`BLOCK`
    findings is pickled and compressed (similar findings compress well, to
    about 20 bytes each). Past :attr:`SPILL_BYTES` of them, the packed blocks
    go to an unnamed temporary file (gone when the list is), so memory holds
    at most that much, whatever the number of findings; a report reads them
    back one block at a time.

    It behaves as a read-mostly sequence: append, extend, iterate, ``len``,
    compare with a list. Indexing unpacks everything and is meant for tests
    and small files. What summaries count (:meth:`kinds`) is kept as findings
    come, so counting never unpacks. Packed blocks can be taken out
    (:meth:`take_packed`) and added to another list (:meth:`adopt`) unopened.
    """

    BLOCK = 2048
    SPILL_BYTES = 8 << 20
    __slots__ = (
        "_blocks", "_held", "_in_order", "_kinds", "_last", "_spill", "_spilled", "_tail",
    )  # fmt: skip
    _blocks: list[PackedFindings]  # full blocks (and adopted ones) held in memory
    _held: int  # bytes of packed data in _blocks
    _spill: BinaryIO | None  # the temporary file of the blocks before them, once there are some
    _spilled: list[_SpilledBlock]  # where each of those is, oldest first
    _tail: list[Finding]  # the block being filled
    _kinds: Counter[CountKey]  # findings by code, severity and fix safety (spilled ones too)
    _in_order: bool  # appended in sorted order, so reports need not sort
    _last: Finding | None

    def __init__(self, findings: Iterable[Finding] = ()) -> None:
        self._spill = None
        self.clear()
        self.extend(findings)

    def append(self, finding: Finding) -> None:
        """Add one finding."""
        last = self._last  # compared by their keys: the dataclass's __lt__ is Python code
        if last is not None and _ORDER_KEY(finding) < _ORDER_KEY(last):
            self._in_order = False
        self._last = finding
        self._tail.append(finding)
        self._kinds[finding.code, finding.severity, finding.fixable] += 1
        if len(self._tail) >= self.BLOCK:
            self._hold(PackedFindings.pack(self._tail))
            self._tail = []

    def extend(self, findings: Iterable[Finding]) -> None:
        """Add several findings."""
        for finding in findings:
            self.append(finding)

    def __iadd__(self, findings: Iterable[Finding]) -> FindingList:
        self.extend(findings)
        return self

    def clear(self) -> None:
        """Forget every finding."""
        if self._spill is not None:
            self._spill.close()
        self._spill = None
        self._spilled = []
        self._blocks = []
        self._held = 0
        self._tail = []
        self._kinds = Counter()
        self._in_order = True
        self._last = None

    def __del__(self) -> None:
        spill = getattr(self, "_spill", None)  # a list that never got as far as having one
        if spill is not None:
            spill.close()

    def _hold(self, block: PackedFindings) -> None:
        """Keep a full block: in memory, or with the blocks before it in the spill file."""
        self._blocks.append(block)
        self._held += len(block.data)
        if self._held > self.SPILL_BYTES:
            if self._spill is None:
                self._spill = tempfile.TemporaryFile()  # noqa: SIM115 - closed with the list
            spill = self._spill
            spill.seek(0, os.SEEK_END)
            for held in self._blocks:
                self._spilled.append(_SpilledBlock(spill.tell(), len(held.data), held.kinds))
                spill.write(held.data)
            self._blocks, self._held = [], 0

    def _packed(self) -> Iterator[PackedFindings]:
        """Every full block, oldest first (a spilled one read back, whole, as it was packed)."""
        for where in self._spilled:
            yield where.read(self._spill)
        yield from self._blocks

    def _block_rows(self) -> Iterator[list[Row]]:
        """The rows of every full block, oldest first (a spilled one read and decoded once)."""
        for where in self._spilled:
            yield where.rows(self._spill)
        for block in self._blocks:
            yield block.rows()

    def take_packed(self, *, all_of_it: bool = False) -> list[PackedFindings]:
        """Take the full blocks out of the list (with ``all_of_it``, the findings not yet packed too).

        What is taken no longer counts in this list; the findings still to
        come go on counting, in order, after the ones taken.
        """
        if all_of_it and self._tail:
            self._hold(PackedFindings.pack(self._tail))
            self._tail = []
        taken = list(self._packed())
        if self._spill is not None:
            self._spill.close()
        self._spill, self._spilled, self._blocks, self._held = None, [], [], 0
        for block in taken:
            self._kinds -= block.kinds
        return taken

    def adopt(self, block: PackedFindings) -> None:
        """Add the findings of a packed block after the ones already here, without unpacking it."""
        if self._tail:  # keep the order: what is here goes before the block
            self._hold(PackedFindings.pack(self._tail))
            self._tail = []
        if not block.in_order or (self._last is not None and block.first < self._last):
            self._in_order = False
        self._kinds += block.kinds
        self._last = block.last
        self._hold(block)

    def kinds(self) -> Counter[CountKey]:
        """How many findings there are of each (code, severity, fix safety)."""
        return Counter(self._kinds)

    def in_order(self) -> Iterator[Finding]:
        """The findings sorted by line, column and code (without sorting, when found in order)."""
        return iter(self) if self._in_order else iter(sorted(self))

    def rows_in_order(self) -> Iterator[Row]:
        """The rows of :meth:`in_order`, for reporters that write fields, not findings."""
        return self._rows() if self._in_order else iter(sorted(self._rows(), key=ROW_KEY))

    def _rows(self) -> Iterator[Row]:
        for rows in self._block_rows():
            yield from rows
        yield from map(row_of, self._tail)

    def since(self, start: int) -> list[Finding]:
        """The findings from the ``start``-th on (counting from 0), in the order they were added.

        Blocks wholly before ``start`` are passed over unopened, so reading what was
        added since the last look costs what was added (how ``check`` writes a large
        file's findings while it is still being read).
        """
        blocks: list[tuple[Counter[CountKey], Callable[[], list[Row]]]] = [
            (where.kinds, partial(where.rows, self._spill)) for where in self._spilled
        ]
        blocks += [(block.kinds, block.rows) for block in self._blocks]
        out: list[Finding] = []
        seen = 0
        for kinds, rows in blocks:
            count = kinds.total()
            if seen + count > start:
                out.extend(Finding(*row) for row in rows()[max(0, start - seen) :])
            seen += count
        out.extend(self._tail[max(0, start - seen) :])
        return out

    def __iter__(self) -> Iterator[Finding]:
        for rows in self._block_rows():
            yield from (Finding(*row) for row in rows)
        yield from self._tail

    def __len__(self) -> int:
        return self._kinds.total()

    def __bool__(self) -> bool:
        return bool(self._spilled or self._blocks or self._tail)

    def __getitem__(self, index: int | slice) -> Any:
        return (self._tail if not (self._spilled or self._blocks) else list(self))[index]

    def __eq__(self, other: object) -> bool:
        if isinstance(other, (FindingList, list)):
            return list(self) == list(other)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"FindingList({list(self)!r})"

    def __getstate__(
        self,
    ) -> tuple[list[PackedFindings], list[Finding], Counter[CountKey], bool, Finding | None]:
        # A spilled block travels as its packed bytes (a file does not pickle).
        return list(self._packed()), self._tail, self._kinds, self._in_order, self._last

    def __setstate__(
        self,
        state: tuple[list[PackedFindings], list[Finding], Counter[CountKey], bool, Finding | None],
    ) -> None:
        blocks, self._tail, self._kinds, self._in_order, self._last = state
        self._spill, self._spilled, self._blocks, self._held = None, [], [], 0
        for block in blocks:
            self._hold(block)


@dataclass(frozen=True)
class _SpilledBlock:
    """Where a packed block is in a list's spill file, and what it counts."""

    offset: int
    length: int
    kinds: Counter[CountKey]

    def _data(self, spill: BinaryIO | None) -> bytes:
        assert spill is not None
        spill.seek(self.offset)
        return spill.read(self.length)

    def rows(self, spill: BinaryIO | None) -> list[Row]:
        """The rows of the block's findings, in their order."""
        return _unpacked(self._data(spill))

    def read(self, spill: BinaryIO | None) -> PackedFindings:
        """The block as it was packed (to hand it on: taken out of the list, or pickled).

        Its first and last findings and whether it is sorted are made again here: kept for
        every spilled block, two findings each would make memory grow with the count.
        """
        data = self._data(spill)
        rows = _unpacked(data)
        first, last = Finding(*rows[0]), Finding(*rows[-1])
        in_order = all(ROW_KEY(a) <= ROW_KEY(b) for a, b in pairwise(rows))
        return PackedFindings(data, self.kinds, first, last, in_order)


def count_kinds(findings: Iterable[Finding]) -> Counter[CountKey]:
    """How many findings there are of each kind; without unpacking a :class:`FindingList`."""
    if isinstance(findings, FindingList):
        return findings.kinds()
    return Counter((f.code, f.severity, f.fixable) for f in findings)


def _unpacked(data: bytes) -> list[Row]:
    """The rows a block was packed from (see :meth:`PackedFindings.pack`)."""
    rows: list[Row] = pickle.loads(zlib.decompress(data))
    return rows
