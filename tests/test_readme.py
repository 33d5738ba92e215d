"""The README tells a contributor what the tests need that the clone does not hold (issue 28).

Every skip reason that points at the README must find its answer there.
"""

from __future__ import annotations

import re

from tests.conftest import ROOT, SHARED_ENV

README = (ROOT / "README.md").read_text(encoding="utf-8")


def _section(title: str) -> str:
    match = re.search(rf"^#+ {re.escape(title)}\n(.*?)(?=^#+ |\Z)", README, re.M | re.S)
    assert match, f"README has no section {title!r}"
    return match.group(1)


def test_running_the_tests_names_the_shared_folder_and_its_variable() -> None:
    section = _section("Running the tests")
    assert f"`{SHARED_ENV}`" in section
    for needed in (
        "mcp-schemas/<version>/schema.json",
        "third-party-schemas/sarif-schema-2.1.0.json",
        "transcripts/",
    ):
        assert needed in section, needed


def test_running_the_tests_says_how_to_get_chromium() -> None:
    section = _section("Running the tests")
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert "apt-get install -y -qq chromium" in ci  # what CI does, the README says too
    assert "apt-get install -y chromium" in section and "/usr/bin/chromium" in section
    assert "`.ci/run`" in section


def test_every_skip_reason_that_names_the_shared_folder_names_its_variable() -> None:
    offenders = []
    for path in sorted((ROOT / "tests").rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        for match in re.finditer(r"(?:pytest\.skip\(|reason=)(.*?)\)\s*[\n,]", text, re.S):
            reason = match.group(1)
            named = SHARED_ENV in reason or "SHARED_ENV" in reason or "shared_missing" in reason
            if "shared" in reason and not named:
                offenders.append(f"{path.relative_to(ROOT)}: {reason.strip()}")
    assert offenders == []
