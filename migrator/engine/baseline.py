"""Baselines: accept today's findings, fail on new ones and on ones that went away.

``check --write-baseline FILE`` records every finding; ``check --baseline FILE``
then reports only findings the baseline does not hold, and names the baseline
entries that no longer occur (stale) so the file is kept honest.

A finding's :class:`Key` does not contain its line number, so it survives lines
being added or removed above it: it is the file (relative to the baseline's
folder), the rule code, and the request id, or for a finding without a request
id (an unparseable line) a hash of the line's text. The file is JSON, sorted,
described by ``schemas/baseline.schema.json``.

Example:
    >>> from migrator.engine.baseline import Key, line_hash
    >>> Key("a.jsonl", "MCP301", line_hash=line_hash(b"{oops")).describe()
    'a.jsonl: MCP301 on the line with hash 935aaf3a54c0648c'
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import json
import os
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from operator import itemgetter
from pathlib import Path
from typing import TYPE_CHECKING, Any

from migrator.errors import UsageError
from migrator.model.findings import Finding, FindingList

if TYPE_CHECKING:
    from migrator.engine.results import RunResult

__all__ = [
    "BASELINE_VERSION",
    "Baseline",
    "BaselineError",
    "Comparison",
    "Key",
    "LineSource",
    "finding_keys",
    "fingerprint",
    "line_hash",
    "load_baseline",
    "write_baseline",
]

BASELINE_VERSION = 1
STDIN_NAMES = frozenset({"-", "<string>"})


class BaselineError(UsageError):
    """A baseline file cannot be read or is not a baseline."""


@dataclass(frozen=True)
class Key:
    """What identifies a finding across runs: file, rule, and request id or line hash."""

    path: str
    code: str
    request_id: str | int | None = None
    line_hash: str | None = None

    def sort_key(self) -> tuple[str, str, int, int, str, str]:
        """Path, code, then integer ids numerically before string ids, then the hash."""
        rid = self.request_id
        return (
            self.path,
            self.code,
            0 if isinstance(rid, int) else 1,
            rid if isinstance(rid, int) else 0,
            rid if isinstance(rid, str) else "",
            self.line_hash or "",
        )

    def as_entry(self, count: int = 1) -> dict[str, Any]:
        """The key as a baseline entry."""
        entry: dict[str, Any] = {"path": self.path, "code": self.code}
        if self.line_hash is not None:
            entry["line_hash"] = self.line_hash
        else:
            entry["request_id"] = self.request_id
        if count > 1:
            entry["count"] = count
        return entry

    def describe(self) -> str:
        """``a.jsonl: MCP101 for request id 13``."""
        if self.line_hash is not None:
            return f"{self.path}: {self.code} on the line with hash {self.line_hash}"
        return f"{self.path}: {self.code} for request id {json.dumps(self.request_id)}"


def line_hash(line: bytes) -> str:
    """The first 16 hex digits of the SHA-256 of a line (its line ending removed)."""
    return hashlib.sha256(line.rstrip(b"\r\n")).hexdigest()[:16]


def fingerprint(key: Key, occurrence: int = 0) -> str:
    """A stable hex fingerprint of a key (and which occurrence of it), for SARIF and GitLab."""
    text = json.dumps([*key.as_entry().values(), occurrence], ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()


@dataclass
class LineSource:
    """The bytes of a file's lines, read on demand (stdin's text is passed in).

    A file on disk is read forward from where the last line asked for ended, one
    line at a time: findings are asked for in order of path and line, and a
    transcript can be larger than memory should hold, so the file is never
    loaded whole. Asking for an earlier line reads that file again from the start.
    """

    texts: Mapping[str, str] = field(default_factory=dict)
    _cache: dict[str, list[bytes]] = field(default_factory=dict, repr=False)
    _at: tuple[str, int, int, bytes] = field(default=("", 0, 0, b""), repr=False)
    # (path, number of the last line read, offset after it, its bytes) of the file on disk

    def line(self, path: str, number: int) -> bytes:
        """Line ``number`` (1-based) of ``path``; empty when the file or line is gone."""
        if path in self.texts:
            lines = self._cache.get(path)
            if lines is None:
                data = self.texts[path].encode("utf-8", "surrogateescape")
                lines = self._cache[path] = _split_lines(data)
            return lines[number - 1] if 0 < number <= len(lines) else b""
        if number < 1:
            return b""
        at_path, at_number, offset, text = self._at
        if at_path == path and at_number == number:
            return text
        if at_path != path or number < at_number:
            at_number, offset = 0, 0
        try:
            with Path(path).open("rb") as file:
                file.seek(offset)
                while at_number < number:
                    raw = file.readline()
                    if not raw:  # past the last line
                        return b""
                    at_number += 1
                    offset += len(raw)
                    text = raw.removesuffix(b"\n").rstrip(b"\r")
        except OSError:
            return b""
        self._at = (path, at_number, offset, text)
        return text


def _split_lines(data: bytes) -> list[bytes]:
    return [line.rstrip(b"\r") for line in data.split(b"\n")]


def relative_to(path: str, base: Path) -> str:
    """``path`` relative to the folder ``base``, with ``/`` separators (stdin's name as is)."""
    if path in STDIN_NAMES:
        return path
    return _relative(path, str(base), os.getcwd())  # noqa: PTH109 - a str, the cache key


@functools.lru_cache(maxsize=4096)
def _relative(path: str, base: str, cwd: str) -> str:
    """:func:`relative_to`, remembered: every finding of a file asks it of the same path.

    ``cwd`` is in the key because a relative ``path`` or ``base`` is taken against it.
    """
    return Path(os.path.relpath(Path(path).absolute(), Path(base).absolute())).as_posix()


def finding_keys(findings: Iterable[Finding], base: Path, lines: LineSource) -> list[Key]:
    """The key of each finding, paths relative to ``base``."""
    keys = []
    for finding in findings:
        path = relative_to(finding.path, base)
        if finding.request_id is not None:
            keys.append(Key(path, finding.code, request_id=finding.request_id))
        else:
            digest = line_hash(lines.line(finding.path, finding.line))
            keys.append(Key(path, finding.code, line_hash=digest))
    return keys


def write_baseline(file: Path, keys: Iterable[Key]) -> int:
    """Write the baseline file for these keys; returns the number of entries.

    Raises:
        BaselineError: the file cannot be written.
    """
    counts = Counter(keys)
    entries = [key.as_entry(counts[key]) for key in sorted(counts, key=Key.sort_key)]
    document = {"version": BASELINE_VERSION, "findings": entries}
    text = json.dumps(document, indent=2, ensure_ascii=False) + "\n"
    try:
        file.write_text(text, encoding="utf-8")
    except OSError as exc:
        raise BaselineError(
            f"cannot write the baseline: {exc.strerror or exc}", path=str(file)
        ) from exc
    return len(entries)


@dataclass(frozen=True)
class Comparison:
    """Findings set against a baseline."""

    new: list[Finding]  # not in the baseline: report these
    known: int  # findings the baseline accepts
    stale: list[tuple[Key, int]]  # baseline entries (and how many of them) that no longer occur


@dataclass(frozen=True)
class Baseline:
    """A loaded baseline: how many findings of each key it accepts."""

    file: Path
    counts: Counter[Key]

    @property
    def folder(self) -> Path:
        """The folder the paths in the baseline are relative to."""
        return self.file.absolute().parent

    def compare(
        self,
        findings: Sequence[Finding],
        keys: Sequence[Key],
        checked: Iterable[str],
        enabled: frozenset[str] | None,
    ) -> Comparison:
        """Split ``findings`` (with their ``keys``) into new and known; find stale entries.

        An entry is stale when it no longer occurs in a file that was checked (for a
        rule that ran: ``enabled`` codes, None for all), or when its file is gone.
        Entries for files this run did not read are left alone.

        Args:
            findings: this run's findings, sorted.
            keys: their keys (see :func:`finding_keys`), relative to :attr:`folder`.
            checked: the paths of the files read, relative to :attr:`folder`.
            enabled: the rule codes that ran.
        """
        left = Counter(self.counts)
        new: list[Finding] = []
        for finding, key in zip(findings, keys, strict=True):
            if left[key] > 0:
                left[key] -= 1
            else:
                new.append(finding)
        read = set(checked)
        stale = [
            (key, left[key])
            for key in sorted(left, key=Key.sort_key)
            if left[key] > 0
            and (enabled is None or key.code in enabled)
            and (key.path in read or not (self.folder / key.path).exists())
            and key.path not in STDIN_NAMES
        ]
        return Comparison(new, len(findings) - len(new), stale)

    def filter(self, result: RunResult, enabled: frozenset[str] | None = None) -> RunResult:
        """``result`` without the findings this baseline accepts.

        The new result counts what was accepted (:attr:`RunResult.known`) and
        names the stale entries (:attr:`RunResult.stale`), which make ``check``
        exit 1.

        Args:
            result: a run's result, as :func:`migrator.engine.runner.run` returns it.
            enabled: the rule codes that ran (``None``: all), so that entries of
                rules that did not run are not called stale.

        Returns:
            A new result; ``result`` is left as it was.
        """
        # The findings, sorted, each with the index of its file: identity ties
        # them to their file, whatever paths the findings themselves carry.
        owned = sorted(
            ((f, index) for index, report in enumerate(result.files) for f in report.findings),
            key=itemgetter(0),
        )
        findings = [f for f, _ in owned]
        keys = finding_keys(findings, self.folder, LineSource(result.texts))
        checked = [relative_to(report.path, self.folder) for report in result.files]
        comparison = self.compare(findings, keys, checked, enabled)
        new = set(map(id, comparison.new))
        kept: list[FindingList] = [FindingList() for _ in result.files]
        for finding, index in owned:
            if id(finding) in new:
                kept[index].append(finding)
        return dataclasses.replace(
            result,
            files=[
                dataclasses.replace(r, findings=k) for r, k in zip(result.files, kept, strict=True)
            ],
            known=comparison.known,
            stale=[
                key.describe() + (f" ({count} times)" if count > 1 else "")
                for key, count in comparison.stale
            ],
        )


def load_baseline(file: str | Path) -> Baseline:
    """Read and validate a baseline file.

    Raises:
        BaselineError: it cannot be read, is not JSON, or does not match the schema.
    """
    import jsonschema

    from migrator.judge import schemas

    path = Path(file)
    try:
        document = json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise BaselineError(
            f"cannot read the baseline: {exc.strerror or exc}", path=str(file)
        ) from exc
    except ValueError as exc:
        raise BaselineError(f"the baseline is not valid JSON: {exc}", path=str(file)) from exc
    validator = jsonschema.Draft202012Validator(schemas.load_schema("baseline.schema.json"))
    error = jsonschema.exceptions.best_match(validator.iter_errors(document))
    if error is not None:
        where = "/".join(str(part) for part in error.absolute_path)
        raise BaselineError(f"not a baseline file: at /{where}: {error.message}", path=str(file))
    counts: Counter[Key] = Counter()
    for entry in document["findings"]:
        key = Key(entry["path"], entry["code"], entry.get("request_id"), entry.get("line_hash"))
        counts[key] += entry.get("count", 1)
    return Baseline(path, counts)
