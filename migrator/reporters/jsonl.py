"""``--output-format jsonl``: one finding per line, as ``json`` writes each finding.

Each line is a JSON object with the fields of ``#/$defs/Finding`` in
``schemas/findings.schema.json``; there is no summary line, so the output can
be concatenated, streamed and filtered line by line (``grep``, ``jq -c``).
"""

from __future__ import annotations

import json
from typing import TextIO

from migrator.engine.results import RunResult
from migrator.reporters import ReportOptions


def report(result: RunResult, out: TextIO, options: ReportOptions) -> None:
    """One compact JSON object per finding, sorted, each on its own line."""
    for finding in result.iter_findings():
        out.write(json.dumps(finding.as_dict(), ensure_ascii=False, separators=(",", ":")) + "\n")
