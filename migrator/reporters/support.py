"""What several reporters share: paths as CI services want them, fingerprints, rule docs."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from migrator.engine.baseline import LineSource, finding_keys, fingerprint
from migrator.engine.results import RunResult
from migrator.model.findings import Finding

PROJECT_URL = "https://github.com/mcp-transcripts/mcp-transcripts"


def display_path(path: str) -> str:
    """``path`` relative to the current folder with ``/`` separators, when it is inside it.

    CI services (GitHub, GitLab, SARIF viewers) resolve paths against the checkout,
    which is where ``mcp-transcripts`` runs; other paths are left as they were given.
    """
    candidate = Path(path)
    if not candidate.is_absolute():
        return candidate.as_posix()
    try:
        return candidate.relative_to(Path.cwd()).as_posix()
    except ValueError:
        return candidate.as_posix()


def fingerprinted(result: RunResult) -> list[tuple[Finding, str]]:
    """Every finding (sorted) with a fingerprint that survives lines moving.

    The fingerprint hashes the finding's baseline key (file, code, request id or
    the line's text, see :mod:`migrator.engine.baseline`) and which occurrence of that
    key it is, so it is unique within a run and stable across runs.
    """
    findings = result.findings
    keys = finding_keys(findings, Path.cwd(), LineSource(result.texts))
    seen: Counter[object] = Counter()
    out = []
    for finding, key in zip(findings, keys, strict=True):
        out.append((finding, fingerprint(key, seen[key])))
        seen[key] += 1
    return out


def rule_url(code: str) -> str:
    """The rule's own page in the published docs (what ``mcp-transcripts explain`` links)."""
    from migrator.rules.page import page_url

    return page_url(code)


def first_paragraph(doc: str) -> str:
    """The first paragraph of a rule's docstring, joined into one line."""
    paragraph = doc.strip().split("\n\n", 1)[0]
    return " ".join(line.strip() for line in paragraph.splitlines())
