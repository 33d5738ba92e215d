"""What several reporters share: paths as CI services want them, fingerprints, rule docs."""

from __future__ import annotations

import functools
import os
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

from migrator.engine.baseline import Key, LineSource, finding_keys, fingerprint, relative_to
from migrator.engine.results import RunResult
from migrator.model.findings import Finding

PROJECT_URL = "https://github.com/mcp-transcripts/mcp-transcripts"


def display_path(path: str) -> str:
    """``path`` relative to the current folder with ``/`` separators, when it is inside it.

    CI services (GitHub, GitLab, SARIF viewers) resolve paths against the checkout,
    which is where ``mcp-transcripts`` runs; other paths are left as they were given.
    """
    return _display_path(path, os.getcwd())  # noqa: PTH109 - a str, the cache key


@functools.lru_cache(maxsize=4096)
def _display_path(path: str, cwd: str) -> str:
    """:func:`display_path` in the folder ``cwd``, remembered: a file's findings share a path."""
    candidate = Path(path)
    if not candidate.is_absolute():
        return candidate.as_posix()
    try:
        return candidate.relative_to(Path(cwd)).as_posix()
    except ValueError:
        return candidate.as_posix()


def fingerprinted(result: RunResult) -> Iterator[tuple[Finding, str]]:
    """Every finding (sorted) with a fingerprint that survives lines moving, as they stream.

    The fingerprint hashes the finding's baseline key (file, code, request id or
    the line's text, see :mod:`migrator.engine.baseline`) and which occurrence of that
    key it is, so it is unique within a run and stable across runs.

    Findings come sorted by path, so the occurrences of one file's keys are
    forgotten once its last finding is out: what is held is one file's keys,
    not the run's. A file given twice under two spellings of one path (the same
    relative path) keeps its counts, so the numbering is the same either way.
    """
    cwd = Path.cwd()
    lines = LineSource(result.texts)
    spellings = Counter(relative_to(report.path, cwd) for report in result.files)
    seen: dict[str, Counter[Key]] = {}
    current: str | None = None
    for finding in result.iter_findings():
        (key,) = finding_keys([finding], cwd, lines)
        if key.path != current:
            if current is not None and spellings[current] == 1:
                del seen[current]  # sorted by path: that file has no finding left to come
            current = key.path
        counts = seen.setdefault(key.path, Counter())
        yield finding, fingerprint(key, counts[key])
        counts[key] += 1


def rule_url(code: str) -> str:
    """The rule's own page in the published docs (what ``mcp-transcripts explain`` links)."""
    from migrator.rules.page import page_url

    return page_url(code)


def first_paragraph(doc: str) -> str:
    """The first paragraph of a rule's docstring, joined into one line."""
    paragraph = doc.strip().split("\n\n", 1)[0]
    return " ".join(line.strip() for line in paragraph.splitlines())
