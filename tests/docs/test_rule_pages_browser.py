"""Every rule's page loads in Chromium, in both languages, at the URL other pages rely on.

The URL scheme is a contract (``migrator/reference/rules/`` and ``.../rules/<code>/``, the
Chinese site under ``zh/``): the index, the Guarantees page and ``mcp-transcripts explain``
link there. The pages are generated from the rule registry, so this test walks the
registry, not a list: a rule added elsewhere is checked here too.
"""

from __future__ import annotations

import pytest

from migrator.rules.registry import all_rules
from tests.docs.test_browser import browser, page, site_url  # noqa: F401  (fixtures)

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_every_rule_url_loads(page, site_url: str, lang: str) -> None:  # type: ignore[no-untyped-def]  # noqa: F811
    prefix = "" if lang == "en" else "zh/"
    index = site_url + prefix + "migrator/reference/rules/"
    response = page.goto(index)
    assert response is not None and response.ok, index
    assert page.locator("html").get_attribute("lang") == lang
    for rule in all_rules():
        url = f"{index}{rule.code.lower()}/"
        response = page.goto(url)
        assert response is not None and response.ok, url
        heading = page.locator("article h1").inner_text()
        assert rule.code in heading and rule.slug in heading, url
        assert page.locator("article h2#fix").is_visible(), url
        summary = rule.summary_zh if lang == "zh" else rule.summary
        assert summary.strip() in page.locator("article").inner_text(), url
    # from the index, a click lands on the rule's page
    page.goto(index)
    page.locator("article table a", has_text="MCP101").click()
    page.wait_for_url(f"{index}mcp101/")
