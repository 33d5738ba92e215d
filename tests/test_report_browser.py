"""The HTML report in headless Chromium (Debian's): readable at 390 px and 1280 px, offline.

Run with ``pytest -m browser``. Locally the test skips when Chromium is missing; under CI
(the ``CI`` environment variable is set) a missing browser is a failure.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import FIXTURES, RECORDED, run_cli
from tests.test_report import RECORDED_VERDICTS

pytestmark = pytest.mark.browser

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--no-first-run",
    "--disable-background-networking",
]


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    if not CHROMIUM.exists():
        if os.environ.get("CI"):
            pytest.fail(f"under CI the browser test must run, but {CHROMIUM} is missing")
        pytest.skip(f"{CHROMIUM} is missing (apt-get install chromium)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()


@pytest.fixture(scope="module")
def pages(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("fleet")
    for source in [*RECORDED.glob("*.jsonl"), *(FIXTURES / "fleet").glob("*.jsonl")]:
        shutil.copy(source, folder / source.name)
    out = {}
    for lang in ("en", "zh"):
        page = folder.parent / f"fleet.{lang}.html"
        result = run_cli(
            "report", "--output-format", "html", "--lang", lang, "-o", str(page), str(folder)
        )
        assert result.code == 0, result.err
        out[lang] = page
    return out


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("width", [390, 1280])
def test_the_page_fits_the_screen_and_needs_no_network(
    browser: object, pages: dict[str, Path], lang: str, width: int
) -> None:
    context = browser.new_context(viewport={"width": width, "height": 900})  # type: ignore[attr-defined]
    page = context.new_page()
    requested: list[str] = []
    page.on("request", lambda request: requested.append(request.url))
    try:
        page.goto(pages[lang].as_uri())
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        assert requested == [pages[lang].as_uri()]  # the page itself, nothing else
        rows = page.locator("tr.server")
        assert rows.count() == len(RECORDED_VERDICTS)
        for index in range(rows.count()):
            box = rows.nth(index).bounding_box()
            assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width + 0.5
        for chart in ("#chart-verdicts", "#chart-time"):
            box = page.locator(chart).bounding_box()
            assert box is not None and 100 < box["width"] <= width
        bars = page.locator('#chart-verdicts rect[data-verdict="migrated"]')
        migrated = sum(1 for verdict in RECORDED_VERDICTS.values() if verdict == "migrated")
        assert bars.get_attribute("data-count") == str(migrated)
        if width == 390:  # one card per server: the header row is hidden, labels come from CSS
            assert not page.locator("thead").first.is_visible()
        else:
            assert page.locator("thead").first.is_visible()
        if lang == "zh":
            assert "未迁移" in page.locator("table").first.inner_text()
    finally:
        context.close()
