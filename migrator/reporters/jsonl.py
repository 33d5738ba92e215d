"""``--output-format jsonl``: one finding per line, as ``json`` writes each finding.

Each line is a JSON object with the fields of ``#/$defs/Finding`` in
``schemas/findings.schema.json``; there is no summary line, so the output can
be concatenated, streamed and filtered line by line (``grep``, ``jq -c``).
"""

from __future__ import annotations

import json
from itertools import islice
from typing import TextIO

import orjson

from migrator.engine.results import RunResult
from migrator.model.findings import row_as_dict
from migrator.reporters import ReportOptions, whole_report
from migrator.reporters.json import BLOCK, writes_as_json


class Writer:
    """The jsonl reporter, a part of the run at a time (see :class:`~migrator.reporters.FindingWriter`)."""

    def __init__(self, out: TextIO, options: ReportOptions) -> None:
        self.out = out

    def write(self, part: RunResult) -> None:
        """One compact JSON object per finding of ``part``, each on its own line.

        The text is ``json.dumps``'s; orjson writes it, a block at a time, wherever
        the two agree (see :func:`migrator.reporters.json.writes_as_json`).
        """
        out = self.out
        rows = part.iter_rows()  # a finding's fields are all this needs: none is made
        while block := list(map(row_as_dict, islice(rows, BLOCK))):
            if writes_as_json(block):
                try:
                    out.write("".join([orjson.dumps(item).decode() + "\n" for item in block]))
                    continue
                except TypeError:  # an integer beyond 64 bits, a lone surrogate: the standard way
                    pass
            for item in block:
                out.write(json.dumps(item, ensure_ascii=False, separators=(",", ":")) + "\n")

    def close(self, result: RunResult) -> None:
        """Nothing follows the findings: there is no summary line."""


report = whole_report(Writer)
"""One compact JSON object per finding, sorted, each on its own line."""
