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
