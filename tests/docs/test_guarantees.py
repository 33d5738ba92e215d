"""The Guarantees page names its tests; every name must be a test that exists.

The page cites ``tests/module.py::test_name`` and, for more tests of the same module,
``::test_name``. A renamed or deleted test would leave a promise with nothing behind it.
"""

from __future__ import annotations

import re

import pytest

from tests.docs.conftest import ROOT

PAGES = ["docs/migrator/guarantees.md", "docs/migrator/guarantees.zh.md"]
CITATION = re.compile(r"`(?P<module>tests/[\w/]+\.py)?(?:::(?P<test>\w+))?(?:\[[^\]`]*\])?`")


def citations(text: str) -> list[tuple[str, str | None]]:
    found: list[tuple[str, str | None]] = []
    module: str | None = None
    for match in CITATION.finditer(text):
        if match["module"]:
            module = match["module"]
        if module and (match["module"] or match["test"]):
            found.append((module, match["test"]))
    return found


@pytest.mark.parametrize("page", PAGES)
def test_every_cited_test_exists(page: str) -> None:
    cited = citations((ROOT / page).read_text(encoding="utf-8"))
    assert len(cited) > 50
    missing = []
    for module, test in cited:
        path = ROOT / module
        if not path.is_file():
            missing.append(module)
        elif test and not re.search(
            rf"^(async )?def {test}\(", path.read_text(encoding="utf-8"), re.MULTILINE
        ):
            missing.append(f"{module}::{test}")
    assert not missing, f"{page} cites tests that do not exist: {sorted(set(missing))}"
