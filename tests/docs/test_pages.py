"""The site's structure: translations, the generated references, the strict build."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from migrator.cli import build_parser
from migrator.rules.registry import all_rules

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"

# Pages rendered from the code at build time, whose Chinese page translates only the intro
# and headings; each says so at the top.
GENERATED = {
    "migrator/reference/cli.md",
    "migrator/reference/rules.md",
    "migrator/reference/api.md",
}
ENGLISH_BODY_NOTE = "本页正文为英文"

CODE = re.compile(r"\bMCP\d{3}\b")


def english_pages() -> list[str]:
    return sorted(
        p.relative_to(DOCS).as_posix()
        for p in DOCS.rglob("*.md")
        if not p.name.endswith(".zh.md")
        and not {"examples", "quotes", "hooks"} & set(p.relative_to(DOCS).parts)
    )


def test_every_page_has_a_chinese_counterpart() -> None:
    missing = [
        page for page in english_pages() if not (DOCS / page.replace(".md", ".zh.md")).exists()
    ]
    assert not missing, f"pages without a .zh.md translation: {missing}"


def test_every_chinese_page_has_an_english_page() -> None:
    orphans = [
        p.relative_to(DOCS).as_posix()
        for p in DOCS.rglob("*.zh.md")
        if not p.with_name(p.name.replace(".zh.md", ".md")).exists()
    ]
    assert not orphans


def test_generated_pages_exist_and_carry_their_marker() -> None:
    for page in GENERATED:
        assert (DOCS / page).exists(), page
        assert (DOCS / page.replace(".md", ".zh.md")).exists(), page
    assert (
        "<!-- mcp-transcripts:cli-reference -->" in (DOCS / "migrator/reference/cli.md").read_text()
    )
    assert (
        "<!-- mcp-transcripts:rules-reference -->"
        in (DOCS / "migrator/reference/rules.md").read_text()
    )


def test_strict_build_passes(built_site: Path) -> None:
    for page in ["index.html", "zh/index.html", "explanation/gallery/index.html"]:
        assert (built_site / page).is_file(), page


def test_every_rule_has_its_own_page_in_both_languages(built_site: Path) -> None:
    """The registry, not a list kept by hand: a rule added anywhere gets its pages."""
    rules = all_rules()
    assert rules
    for prefix in ["", "zh/"]:
        index = (built_site / prefix / "migrator/reference/rules/index.html").read_text(
            encoding="utf-8"
        )
        for rule in rules:
            slug = rule.code.lower()
            assert f'href="{slug}/"' in index, f"{prefix}rules index does not link {rule.code}"
            assert f'id="{slug}"' in index, f"{prefix}rules index lost the #{slug} anchor"
            page = built_site / prefix / "migrator/reference/rules" / slug / "index.html"
            assert page.is_file(), f"no page {page.relative_to(built_site)}"
            html = page.read_text(encoding="utf-8")
            assert rule.slug in html
            # ruff's layout, with the same ASCII anchors in both languages
            for anchor in [
                "what-it-does",
                "why",
                "example",
                "before",
                "after",
                "fix",
                "options",
                "known-limits",
            ]:
                assert f'id="{anchor}"' in html, f"{prefix}{slug} lacks #{anchor}"
        zh_page = (built_site / "zh/migrator/reference/rules/mcp101/index.html").read_text(
            encoding="utf-8"
        )
        assert all_rules()[0].summary_zh in zh_page and "修复及其安全性" in zh_page


def test_every_documented_code_exists(built_site: Path) -> None:
    known = {rule.code for rule in all_rules()}
    documented: dict[str, set[str]] = {}
    sources = [*DOCS.rglob("*.md"), *DOCS.glob("examples/**/*.txt")]
    for path in sources:
        for code in CODE.findall(path.read_text(encoding="utf-8")):
            documented.setdefault(code, set()).add(path.relative_to(ROOT).as_posix())
    rules_html = (built_site / "migrator/reference/rules/index.html").read_text(encoding="utf-8")
    for code in re.findall(r'id="(mcp\d{3})"', rules_html):
        documented.setdefault(code.upper(), set()).add("built rule reference")
    unknown = {code: sorted(where) for code, where in documented.items() if code not in known}
    assert not unknown, f"documented codes the migrator does not have: {unknown}"


def test_cli_reference_covers_every_subcommand(built_site: Path) -> None:
    html = (built_site / "migrator/reference/cli/index.html").read_text(encoding="utf-8")
    parser = build_parser()
    subcommands = next(a for a in parser._actions if a.__class__.__name__ == "_SubParsersAction")
    assert {"check", "fix", "rules", "explain"} <= set(subcommands.choices)
    for name, sub in subcommands.choices.items():
        assert f'id="{parser.prog}-{name}"' in html, name
        for action in sub._actions:
            for option in action.option_strings:
                assert option in html, f"{name} {option}"


def test_api_reference_is_rendered(built_site: Path) -> None:
    html = (built_site / "migrator/reference/api/index.html").read_text(encoding="utf-8")
    for name in [
        "migrator.cli.main",
        "migrator.cli.build_parser",
        "migrator.rules.registry.all_rules",
    ]:
        assert f'id="{name}"' in html, name


def test_changelog_is_included(built_site: Path) -> None:
    changelog = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    first_heading = next(line for line in changelog.splitlines() if line.startswith("## "))
    html = (built_site / "changelog/index.html").read_text(encoding="utf-8")
    assert first_heading[3:].strip() in html


def test_chinese_headings_keep_the_english_anchors(built_site: Path) -> None:
    # Links into a page (#exit-codes, #decision-table) must work in both languages, and
    # a Chinese heading would otherwise get an anchor like "_1" that shifts with any edit.
    heading_ids = re.compile(r'<h[2-6] id="([^"]+)"')
    differ = {}
    for page in english_pages():
        html = page.removesuffix(".md")
        html = "index.html" if html == "index" else f"{html}/index.html"
        english = heading_ids.findall((built_site / html).read_text(encoding="utf-8"))
        chinese = heading_ids.findall((built_site / "zh" / html).read_text(encoding="utf-8"))
        if english != chinese:
            differ[page] = sorted(set(chinese) ^ set(english))
    assert not differ, f"zh headings whose anchors differ from the English page: {differ}"


@pytest.mark.slow
def test_offline_build_links_files_relatively(offline_site: Path) -> None:
    # Opened from the file system, a link to a folder shows a listing and an absolute link
    # leaves the site: every internal link must name an existing file, relatively.
    href = re.compile(r'(?:href|src)="([^"]*)"')
    broken = []
    pages = sorted(offline_site.rglob("*.html"))
    for page in pages:
        if page.name == "404.html":  # served at any path, so its links are absolute
            continue
        for link in href.findall(page.read_text(encoding="utf-8")):
            if re.match(r"^[a-z]+:|^#|^//", link):
                continue
            path = link.split("#")[0].split("?")[0]
            if not path:
                continue
            target = (page.parent / path).resolve()
            if link.startswith("/") or path.endswith("/") or not target.is_file():
                broken.append(f"{page.relative_to(offline_site)}: {link}")
    assert len(pages) > 10
    assert not broken, "\n".join(broken[:40])
    for language in ["", "zh/"]:
        script = offline_site / language / "search" / "search_index.js"
        assert script.read_text(encoding="utf-8").startswith("var __index = {")


def test_error_handling_links_the_key_changes_entry(built_site: Path) -> None:
    entry = "https://modelcontextprotocol.io/specification/2025-11-25/changelog#minor-changes"
    for prefix in ["", "zh/"]:
        html = (built_site / prefix / "explanation/error-handling/index.html").read_text(
            encoding="utf-8"
        )
        assert f'href="{entry}"' in html, prefix or "en"


def test_pages_link_within_the_site_relatively(built_site: Path) -> None:
    # An absolute link (/mcp-transcripts/zh/) breaks when the site is served from another
    # path; the 404 page is the exception, served at whatever path was not found.
    absolute = re.compile(r'(?:href|src)="(/[^/"][^"]*)"')
    found = {
        page.relative_to(built_site).as_posix(): absolute.findall(page.read_text(encoding="utf-8"))
        for page in built_site.rglob("*.html")
        if page.name != "404.html"
    }
    assert not {page: links for page, links in found.items() if links}


def test_chinese_headings_get_the_english_ascii_anchors(built_site: Path) -> None:
    """Every heading of the Chinese site has an ASCII id, the same one as in English."""
    heading_id = re.compile(r'<h[1-6] id="([^"]*)"')
    for zh_page in sorted((built_site / "zh").rglob("index.html")):
        en_page = built_site / zh_page.relative_to(built_site / "zh")
        zh_ids = heading_id.findall(zh_page.read_text(encoding="utf-8"))
        bad = [anchor for anchor in zh_ids if not anchor.isascii() or re.fullmatch(r"_\d+", anchor)]
        assert not bad, f"{zh_page.relative_to(built_site)}: non-ASCII or numbered anchors {bad}"
        if en_page.is_file():
            assert zh_ids == heading_id.findall(en_page.read_text(encoding="utf-8")), zh_page


def test_chinese_pages_with_an_english_body_say_so(built_site: Path) -> None:
    # The CLI reference is Chinese throughout (tests/docs/test_translated_references.py);
    # the API reference keeps the code's English docstrings under Chinese summaries.
    notes = (ENGLISH_BODY_NOTE, "本页部分内容为英文", "文档字符串为英文原文")
    for page in ["migrator/reference/api"]:
        html = (built_site / "zh" / page / "index.html").read_text(encoding="utf-8")
        article = html[html.index("<article") :]
        assert any(note in article[:3000] for note in notes), page
    # the rule pages are Chinese throughout (their doc_zh), so none says otherwise
    rule_pages = sorted((built_site / "zh" / "migrator/reference/rules").glob("mcp*/index.html"))
    assert len(rule_pages) > 20
    for rule_page in rule_pages:
        html = rule_page.read_text(encoding="utf-8")
        article = html[html.index("<article") :]
        assert not any(note in article for note in notes), rule_page.parent.name
