"""The probe how-to says which findings a probe gives (issue 28).

The probe marks its own invalid calls, so MCP203 never repeats them
(``tests/probe/test_probe.py::test_a_server_that_validates_nothing_is_found_out``
holds the behaviour); the page must not promise one per call.
"""

from __future__ import annotations

import re

import pytest

from tests.conftest import ROOT

PAGES = {
    "en": ROOT / "docs" / "migrator" / "how-to" / "probe.md",
    "zh": ROOT / "docs" / "migrator" / "how-to" / "probe.zh.md",
}


@pytest.mark.parametrize("language", sorted(PAGES))
def test_the_page_promises_no_mcp203_per_invalid_call(language: str) -> None:
    text = PAGES[language].read_text(encoding="utf-8")
    promised = re.findall(r"[^.。]*MCP203[^.。]*", text)
    assert promised, "the page should say what happens to MCP203"
    for sentence in promised:
        assert re.search(r"no MCP203|没有 MCP203", sentence), sentence
    assert "MCP501" in text and "probe-case" in text
