"""Drive the built site in headless Chromium (Debian's, never a downloaded one).

Run with ``pytest -m browser``. Locally the test skips when Chromium is missing; under CI
(the ``CI`` environment variable is set) a missing browser is a failure.
"""

from __future__ import annotations

import functools
import http.server
import os
import re
import threading
from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urljoin, urlsplit

import pytest

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts"
CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


# The label of the selected tab of a tabbed set (JavaScript, given the set element).
SELECTED_LABEL = (
    "s => s.querySelectorAll(':scope > .tabbed-labels > label')"
    "[[...s.querySelectorAll(':scope > input')].findIndex(i => i.checked)].innerText.trim()"
)


# --- internal links: no browser needed ------------------------------------------------


class _Links(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.links: list[str] = []
        self.ids: set[str] = set()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        if values.get("id"):
            self.ids.add(values["id"] or "")
        if tag == "a" and values.get("name"):
            self.ids.add(values["name"] or "")
        for attr in ("href", "src"):
            link = values.get(attr)
            if link and not (tag == "link" and values.get("rel") in ("canonical", "alternate")):
                self.links.append(link)


def _parse(path: Path) -> _Links:
    parser = _Links()
    parser.feed(path.read_text(encoding="utf-8"))
    return parser


def test_every_internal_link_resolves(built_site: Path) -> None:
    prefix = f"/{built_site.name}/"
    pages = sorted(built_site.rglob("*.html"))
    assert len(pages) > 10
    parsed = {page: _parse(page) for page in pages}
    broken = []
    for page, links in parsed.items():
        base = "/" + page.relative_to(built_site.parent).as_posix()
        for link in links.links:
            parts = urlsplit(link)
            if parts.scheme or parts.netloc or link.startswith(("mailto:", "javascript:")):
                continue
            url = urlsplit(urljoin(base, link))
            if not url.path.startswith(prefix):
                broken.append(f"{page.relative_to(built_site)}: {link} (outside the site)")
                continue
            target = built_site / unquote(url.path[len(prefix) :])
            if url.path.endswith("/"):
                target = target / "index.html"
            if not target.exists():
                broken.append(f"{page.relative_to(built_site)}: {link}")
            elif url.fragment and target.suffix == ".html":
                ids = parsed[target].ids if target in parsed else _parse(target).ids
                if unquote(url.fragment) not in ids:
                    broken.append(f"{page.relative_to(built_site)}: {link} (no such anchor)")
    assert not broken, "\n".join(broken[:50])


# --- the browser ----------------------------------------------------------------------


@pytest.fixture(scope="module")
def site_url(built_site: Path) -> Iterator[str]:
    handler = functools.partial(_QuietHandler, directory=str(built_site.parent))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/{built_site.name}/"
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        pass


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    if not CHROMIUM.exists():
        if os.environ.get("CI"):
            pytest.fail(f"under CI the browser test must run, but {CHROMIUM} is missing")
        pytest.skip(
            f"{CHROMIUM} is missing: apt-get install chromium (README, 'Running the tests')"
        )
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()


@pytest.fixture
def page(browser: object, site_url: str) -> Iterator[object]:
    context = browser.new_context(viewport={"width": 1280, "height": 900})  # type: ignore[attr-defined]
    page = context.new_page()
    errors: list[str] = []
    page.on(
        "console",
        lambda msg: (
            errors.append(f"{msg.text} ({msg.location.get('url')})")
            if msg.type == "error"
            else None
        ),
    )
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    # The site must work offline: anything not served by our server is answered locally,
    # so a fetch for, say, the repository's star count neither leaks nor errors.
    page.route(
        re.compile(r"^(?!http://127\.0\.0\.1:)"),
        lambda route: route.fulfill(status=200, content_type="application/json", body="{}"),
    )
    page.console_errors = errors  # type: ignore[attr-defined]
    yield page
    context.close()
    assert not errors, f"console errors: {errors}"


def test_home_page_renders_with_before_after_tabs(page, site_url: str) -> None:  # type: ignore[no-untyped-def]
    page.goto(site_url)
    assert "mcp-transcripts" in page.title()
    labels = page.locator(".tabbed-labels").first.locator("label")
    assert labels.all_inner_texts()[:2] == ["Before", "After"]
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "home.png"), full_page=True)


def test_gallery_tabs_switch_together(page, site_url: str) -> None:  # type: ignore[no-untyped-def]
    page.goto(site_url + "explanation/gallery/")
    # the whole sessions are folded under each side-by-side pair
    page.evaluate("document.querySelectorAll('details').forEach(d => d.open = true)")
    sets = page.locator(".tabbed-set")
    assert sets.count() >= 6

    def selected(index: int) -> str:
        return str(sets.nth(index).evaluate(f"s => ({SELECTED_LABEL})(s)"))

    assert selected(0) == "Before" and selected(1) == "Before"
    first_block = sets.nth(0).locator(".tabbed-content > .tabbed-block")
    assert first_block.nth(0).is_visible() and not first_block.nth(1).is_visible()

    sets.nth(0).locator(".tabbed-labels label", has_text="After").click()
    assert selected(0) == "After"
    assert first_block.nth(1).is_visible() and not first_block.nth(0).is_visible()
    # content.tabs.link: every other Before/After group on the page follows
    page.wait_for_function(
        f"() => [...document.querySelectorAll('.tabbed-set')]"
        f".every(s => ({SELECTED_LABEL})(s) === 'After')"
    )
    assert selected(sets.count() - 1) == "After"
    page.screenshot(path=str(ARTIFACTS / "gallery.png"), full_page=True)

    sets.nth(1).locator(".tabbed-labels label", has_text="Before").click()
    assert selected(0) == "Before"


def test_search_finds_iserror(page, site_url: str) -> None:  # type: ignore[no-untyped-def]
    page.goto(site_url)
    search = page.locator("input.md-search__input")
    search.click()
    # typed key by key: the search listens to keyboard events, not only to value changes
    search.press_sequentially("isError", delay=30)
    results = page.locator(".md-search-result__item")
    results.first.wait_for(state="visible", timeout=15000)
    assert results.count() >= 1
    assert "iserror" in page.locator(".md-search-result").inner_text().lower()


def test_language_switch_reaches_the_chinese_page(page, site_url: str) -> None:  # type: ignore[no-untyped-def]
    page.goto(site_url + "explanation/error-handling/")
    page.locator(".md-header__option .md-select").hover()
    page.locator(".md-select__link[hreflang='zh']").click()
    page.wait_for_url(re.compile(r"/zh/explanation/error-handling/"))
    assert page.locator("html").get_attribute("lang") == "zh"
    assert "协议错误" in page.locator("article").inner_text()


# --- issue 20: the change at a glance, Chinese search, narrow screens ---------------------

LANGUAGES = ["", "zh/"]


def _new_page(browser, width: int):  # type: ignore[no-untyped-def]
    context = browser.new_context(viewport={"width": width, "height": 900})
    context.route(
        re.compile(r"^(?!http://127\.0\.0\.1:)"),
        lambda route: route.fulfill(status=200, content_type="application/json", body="{}"),
    )
    return context, context.new_page()


@pytest.mark.parametrize("language", LANGUAGES)
def test_response_pairs_sit_side_by_side_at_1280(browser, site_url: str, language: str) -> None:  # type: ignore[no-untyped-def]
    context, page = _new_page(browser, 1280)
    try:
        page.goto(site_url + language + "explanation/error-handling/")
        pairs = page.locator(".response-pair")
        assert pairs.count() == 2, "one pair that converts, one that stays a protocol error"
        for index in range(pairs.count()):
            boxes = [
                column.bounding_box() for column in pairs.nth(index).locator(":scope > div").all()
            ]
            assert len(boxes) == 2 and all(boxes)
            before, after = boxes
            assert abs(before["y"] - after["y"]) < 1, "the two answers are not on one row"
            assert before["x"] + before["width"] <= after["x"]
            assert after["x"] + after["width"] <= 1280, "the After column is past the right edge"
        # the code wraps inside its column: no block of a pair scrolls sideways
        overflowing = page.evaluate(
            "[...document.querySelectorAll('.response-pair pre > code')]"
            ".filter(c => c.scrollWidth > c.clientWidth + 1).length"
        )
        assert overflowing == 0
        assert page.evaluate("document.documentElement.scrollWidth") <= 1280
        # the converted answer has its changed lines marked on both sides; the other none
        first, second = pairs.nth(0), pairs.nth(1)
        assert first.locator(":scope > div").nth(0).locator(".hll").count() >= 1
        after_marked = "".join(
            first.locator(":scope > div").nth(1).locator(".hll").all_inner_texts()
        )
        assert '"isError": true' in after_marked
        assert second.locator(".hll").count() == 0
        ARTIFACTS.mkdir(exist_ok=True)
        name = "error-handling-" + (language.strip("/") or "en")
        first.screenshot(path=str(ARTIFACTS / f"{name}-pair.png"))
    finally:
        context.close()


@pytest.mark.parametrize("language", LANGUAGES)
def test_error_handling_fits_390_px(browser, site_url: str, language: str) -> None:  # type: ignore[no-untyped-def]
    context, page = _new_page(browser, 390)
    try:
        page.goto(site_url + language + "explanation/error-handling/")
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        # the decision table turns into one card per row, each cell labelled
        table = page.locator(".stacked-table table")
        assert table.evaluate("t => t.scrollWidth <= t.clientWidth + 1")
        labels = table.locator("td[data-label]")
        assert labels.count() >= 6 * 5
        assert labels.first.evaluate("c => getComputedStyle(c, '::before').content") != "none"
        # the response pairs stack: After below Before
        columns = page.locator(".response-pair").first.locator(":scope > div")
        assert columns.nth(1).bounding_box()["y"] > columns.nth(0).bounding_box()["y"]
    finally:
        context.close()


def test_chinese_search_answers_with_chinese_pages(page, site_url: str) -> None:  # type: ignore[no-untyped-def]
    page.goto(site_url + "zh/")
    search = page.locator("input.md-search__input")
    search.click()
    # an input method commits the whole word at once; the search reads it on the key up
    search.fill("验证错误")
    search.press("End")
    results = page.locator(".md-search-result__item > .md-search-result__link")
    results.first.wait_for(state="visible", timeout=15000)
    hrefs = results.evaluate_all("links => links.map(a => a.href)")
    assert hrefs, "验证错误 finds nothing"
    assert "/zh/" in hrefs[0], f"the first result is not a Chinese page: {hrefs[0]}"
    assert all("/zh/" in href for href in hrefs), "English pages in the Chinese results"


# --- the offline build, opened from the file system -----------------------------------


@pytest.mark.slow
def test_offline_build_browses_from_the_file_system(browser, offline_site: Path) -> None:  # type: ignore[no-untyped-def]
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    # nothing leaves the machine; file:// pages load as they are
    context.route(re.compile(r"^https?://"), lambda route: route.fulfill(status=200, body=""))
    page = context.new_page()
    try:
        page.goto((offline_site / "index.html").as_uri())
        page.locator(".md-tabs__link", has_text="Explanation").click()
        page.wait_for_url(re.compile(r"/explanation/error-handling\.html$"))
        assert page.locator("h1").inner_text().startswith("Error handling, revised")
        page.locator(".md-header__option .md-select").hover()
        page.locator(".md-select__link[hreflang='zh']").click()
        page.wait_for_url(re.compile(r"/zh/explanation/error-handling\.html$"))
        assert page.locator("html").get_attribute("lang") == "zh"
        page.goto((offline_site / "zh" / "index.html").as_uri())
        page.locator(".md-header__option .md-select").hover()
        page.locator(".md-select__link[hreflang='en']").click()
        page.wait_for_url(re.compile(r"/index\.html$"))
        assert page.locator("html").get_attribute("lang") == "en"
        # search works from the file system too, each language in its own index
        for start, query, expected in [
            ("index.html", "isError", "/explanation/"),
            ("zh/index.html", "验证错误", "/zh/"),
        ]:
            page.goto((offline_site / start).as_uri())
            search = page.locator("input.md-search__input")
            search.click()
            search.fill(query)
            search.press("End")
            results = page.locator(".md-search-result__item > .md-search-result__link")
            results.first.wait_for(state="visible", timeout=15000)
            hrefs = results.evaluate_all("links => links.map(a => a.href)")
            assert hrefs[0].startswith("file://") and ".html" in hrefs[0]
            assert any(expected in href for href in hrefs)
            in_chinese = ["/zh/" in href for href in hrefs]
            assert all(in_chinese) if expected == "/zh/" else not any(in_chinese)
    finally:
        context.close()
