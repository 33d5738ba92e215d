"""The site's structure: translations, the generated references, the strict build."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from migrator.cli import build_parser
from migrator.rules import all_rules

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"

# Pages rendered from the code at build time; the Chinese site falls back to them.
GENERATED_ENGLISH_ONLY = {
    "migrator/reference/cli.md",
    "migrator/reference/rules.md",
    "migrator/reference/api.md",
}

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
        page
        for page in english_pages()
        if page not in GENERATED_ENGLISH_ONLY
        and not (DOCS / page.replace(".md", ".zh.md")).exists()
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
    for page in GENERATED_ENGLISH_ONLY:
        assert (DOCS / page).exists(), page
    assert "<!-- mcp-transcripts:cli-reference -->" in (DOCS / "migrator/reference/cli.md").read_text()
    assert (
        "<!-- mcp-transcripts:rules-reference -->" in (DOCS / "migrator/reference/rules.md").read_text()
    )


def test_strict_build_passes(built_site: Path) -> None:
    for page in ["index.html", "zh/index.html", "explanation/gallery/index.html"]:
        assert (built_site / page).is_file(), page


def test_every_rule_has_its_section_in_both_languages(built_site: Path) -> None:
    rules = all_rules()
    assert rules
    for prefix in ["", "zh/"]:
        html = (built_site / prefix / "migrator/reference/rules/index.html").read_text(
            encoding="utf-8"
        )
        for rule in rules:
            assert f'id="{rule.code.lower()}"' in html, f"{prefix}rules page lacks {rule.code}"
            assert rule.slug in html
        # every section carries the before / after / why parts of the rule's doc
        assert html.count('id="before') >= len(rules)
        assert html.count('id="after') >= len(rules)
        assert html.count('id="why') >= len(rules)


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
    for name in ["migrator.cli.main", "migrator.cli.build_parser", "migrator.rules.all_rules"]:
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
        if page in GENERATED_ENGLISH_ONLY:
            continue
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
