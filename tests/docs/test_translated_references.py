# ruff: noqa: RUF001  (Chinese text uses full-width punctuation on purpose)
"""The Chinese CLI and API references are rendered from translations kept next to the code."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

from migrator.cli.help_zh import TEXTS
from tests.docs.conftest import ROOT


def reference_hook() -> ModuleType:
    path = ROOT / "docs" / "hooks" / "reference.py"
    spec = importlib.util.spec_from_file_location("reference_hook", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def test_the_chinese_cli_page_is_rendered_from_the_catalogue(built_site: Path) -> None:
    html = (built_site / "zh/migrator/reference/cli/index.html").read_text(encoding="utf-8")
    english = (built_site / "migrator/reference/cli/index.html").read_text(encoding="utf-8")
    for text in [
        "lowest severity that makes the exit code 1 (default: warning)",
        "a usage or input error, whatever `--fail-on` says",
        "print the evidence behind each finding under it",
    ]:
        assert text.split("`")[0] in english
        assert text.split("`")[0] not in html, text
        assert TEXTS[text].split("`")[0] in html, TEXTS[text]
    assert "用法：mcp-transcripts check" in html and "退出码" in html


def test_a_help_text_without_a_translation_fails_the_build(monkeypatch: pytest.MonkeyPatch) -> None:
    hook = reference_hook()
    shortened = dict(TEXTS)
    del shortened["print the evidence behind each finding under it"]
    del shortened["nothing would change"]
    import migrator.cli.translations as translations

    monkeypatch.setattr(translations, "catalogue", lambda lang: shortened)
    with pytest.raises(KeyError, match="print the evidence"):
        hook.render_cli_reference("zh")
    with pytest.raises(KeyError, match="nothing would change"):
        hook.render_exit_codes("zh")
    assert "print the evidence" in hook.render_cli_reference("en")


def test_every_command_has_its_section_in_both_languages() -> None:
    # Nested commands too (`schema fetch`, `schema list`): their arguments are documented
    # nowhere else.
    import argparse

    from migrator.cli import build_parser

    def commands(parser: argparse.ArgumentParser, prefix: str) -> list[str]:
        found = [prefix]
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                for name, sub in action.choices.items():
                    found += commands(sub, f"{prefix} {name}")
        return found

    hook = reference_hook()
    every = commands(build_parser(), "mcp-transcripts")
    assert "mcp-transcripts schema fetch" in every
    for lang in ("en", "zh"):
        page = hook.render_cli_reference(lang)
        for command in every:
            assert f"## `{command}` {{#" in page, (lang, command)
    assert "| `--sha256` |" in hook.render_cli_reference("en")


def api_hook() -> ModuleType:
    path = ROOT / "docs" / "hooks" / "api_zh.py"
    spec = importlib.util.spec_from_file_location("api_zh_hook", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_every_object_of_the_api_page_has_a_chinese_summary(built_site: Path) -> None:
    hook = api_hook()
    english = (built_site / "migrator/reference/api/index.html").read_text(encoding="utf-8")
    chinese = (built_site / "zh/migrator/reference/api/index.html").read_text(encoding="utf-8")
    shown = hook.documented(english)
    assert len(shown) > 30
    assert sorted(shown) == sorted(hook.SUMMARIES), "summaries missing or for objects gone"
    assert chinese.count('class="zh-summary"') == len(shown)
    # the English docstrings are marked as English, the section titles are Chinese
    assert chinese.count('<div lang="en" class="doc doc-contents') == len(shown)
    assert "参数：" in chinese and "Parameters:" not in chinese
    assert hook.SUMMARIES["migrator.api.check_file"][:10] in chinese


def test_an_object_without_a_summary_fails_the_build(built_site: Path) -> None:
    hook = api_hook()
    english = (built_site / "migrator/reference/api/index.html").read_text(encoding="utf-8")
    del hook.SUMMARIES["migrator.api.fix_text"]
    with pytest.raises(KeyError, match=r"migrator\.api\.fix_text"):
        hook.translate(english)


def test_the_chinese_rule_pages_have_no_english_prose(built_site: Path) -> None:
    """Issue 28, item 5: measured as ``scripts/zh_coverage.py`` measures the site."""
    path = ROOT / "scripts" / "zh_coverage.py"
    spec = importlib.util.spec_from_file_location("zh_coverage", path)
    assert spec is not None and spec.loader is not None
    coverage = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(coverage)
    rows = [row for row in coverage.measure(built_site) if "/reference/rules" in row[0]]
    assert len(rows) > 20
    english = {page: count for page, count, _, _ in rows if count}
    assert not english, english
