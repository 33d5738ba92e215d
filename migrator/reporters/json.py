"""``--output-format json``: one document, described by ``schemas/findings.schema.json``.

The document is written a block of findings at a time rather than built in
memory first: a large transcript can have a hundred thousand findings, and the
output should not cost more memory than one block of them.
"""

from __future__ import annotations

import json
from itertools import chain, islice
from typing import Any, TextIO

import orjson

from migrator import __version__
from migrator.engine.results import RunResult
from migrator.model.findings import row_as_dict
from migrator.reporters import ReportOptions, whole_report

DOCUMENT_VERSION = 1


def summary(result: RunResult) -> dict[str, Any]:
    """The document's summary object."""
    tally = result.tally()
    return {
        "files": len(result.files),
        "messages": result.messages,
        "findings": tally.findings,
        "fixable": tally.safe_fixes + tally.unsafe_fixes,
        "by_code": dict(sorted(tally.by_code.items())),
        "by_severity": dict(sorted(tally.by_severity.items())),
    }


def document(result: RunResult) -> dict[str, object]:
    """The findings document as one object (for the Python API; the reporter streams it)."""
    return {
        "version": DOCUMENT_VERSION,
        "tool": {"name": "mcp-transcripts", "version": __version__},
        "findings": [f.as_dict() for f in result.findings],
        "summary": summary(result),
    }


_PLAIN = frozenset({str, int, bool, type(None)})
_PLAIN_OR_LIST = _PLAIN | {list}


def _orjson_writes_as_json(value: Any) -> bool:
    """Whether orjson's indented text of ``value`` is ``json.dumps``'s, byte for byte.

    It is for objects and arrays, at any depth, of strings, integers, booleans and
    null (what orjson refuses, it says so: an integer beyond 64 bits, a key that is
    no string, a lone surrogate). Floats are where the two differ (``1e-07``, NaN),
    so a value holding one goes the standard way.
    """
    kind = type(value)
    if kind is dict:
        return all(map(_orjson_writes_as_json, value.values()))
    if kind is list:
        return all(map(_orjson_writes_as_json, value))
    return kind in _PLAIN


def indented(value: Any, depth: int) -> str:
    """``value`` as ``json.dump(..., indent=2)`` writes it ``depth`` levels down (the reporters of
    indented documents write their parts with it)."""
    text = None
    if _orjson_writes_as_json(value):
        try:
            text = orjson.dumps(value, option=orjson.OPT_INDENT_2).decode()
        except TypeError:  # an integer beyond 64 bits, a lone surrogate: the standard way words it
            text = None
    if text is None:
        text = json.dumps(value, indent=2, ensure_ascii=False)
    return text.replace("\n", "\n" + "  " * depth)


BLOCK = 512  # findings written per orjson call


def writes_as_json(dicts: list[dict[str, Any]]) -> bool:
    """Whether orjson writes a block of findings' dicts as ``json.dumps`` does, looked at in C.

    A finding's values are plain, or lists of plain values; a block holding anything
    else (deeper, or a float) is not for one call, and :func:`indented` takes its dicts.
    """
    members = list(chain.from_iterable(map(dict.values, dicts)))
    kinds = set(map(type, members))
    if not kinds <= _PLAIN_OR_LIST:
        return False
    if list in kinds:
        lists = [member for member in members if type(member) is list]
        return set(map(type, chain.from_iterable(lists))) <= _PLAIN
    return True


def _findings(findings: list[dict[str, Any]]) -> str:
    """Findings as the members of the document's ``findings`` list, indented to their depth.

    A block of plain findings (every one, in practice) is written by one orjson
    call, the rest one by one by :func:`indented`; the text is the same.
    """
    if writes_as_json(findings):
        try:
            text = orjson.dumps(findings, option=orjson.OPT_INDENT_2).decode()
        except TypeError:  # an integer beyond 64 bits, a lone surrogate: one by one
            pass
        else:  # "[\n  {...},\n  {...}\n]", one level deeper and without its brackets
            return text[1:-2].replace("\n", "\n  ")[1:]
    return ",\n".join("    " + indented(value, 2) for value in findings)


class Writer:
    """The document, a part of the run at a time (see :class:`~migrator.reporters.FindingWriter`).

    Its head is written with the first part, its findings as each part comes, and the
    summary, which counts the whole run, by :meth:`close`.
    """

    def __init__(self, out: TextIO, options: ReportOptions) -> None:
        self.out = out
        self.started = False  # the head is written
        self.listed = False  # at least one finding is written

    def _head(self) -> None:
        if not self.started:
            self.started = True
            self.out.write("{\n")
            self.out.write(f'  "version": {DOCUMENT_VERSION},\n')
            tool = {"name": "mcp-transcripts", "version": __version__}
            self.out.write(f'  "tool": {indented(tool, 1)},\n')

    def write(self, part: RunResult) -> None:
        """The findings of ``part``, members of the document's ``findings`` list."""
        self._head()
        out = self.out
        rows = part.iter_rows()  # a finding's fields are all this needs: none is made
        while block := list(map(row_as_dict, islice(rows, BLOCK))):
            out.write(",\n" if self.listed else '  "findings": [\n')
            self.listed = True
            out.write(_findings(block))

    def close(self, result: RunResult) -> None:
        """The end of the findings list and the summary of the whole run."""
        self._head()
        self.out.write("\n  ],\n" if self.listed else '  "findings": [],\n')
        self.out.write(f'  "summary": {indented(summary(result), 1)}\n')
        self.out.write("}\n")


report = whole_report(Writer)
"""Write the document, indented as ``json.dump(indent=2)`` would, with a final newline."""
