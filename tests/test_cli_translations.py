# ruff: noqa: RUF001  (Chinese text uses full-width punctuation on purpose)
"""The Chinese help: every text of ``--help`` and of the exit-code table has a translation.

A new option, a changed help text or a new exit-code meaning fails here until its Chinese
is written in ``migrator/cli/help_zh.py``; an entry whose English no longer exists fails
too, so the catalogue cannot keep translating a text the CLI stopped printing.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys

import pytest

from migrator.cli import build_parser, main
from migrator.cli.help_zh import TEXTS
from migrator.cli.translations import (
    catalogue,
    help_language,
    missing,
    parsers,
    texts,
    width,
    wrap,
)
from migrator.engine.exitcodes import EXIT_CODES, RELAYED_STATUS
from tests.conftest import ROOT


def exit_code_texts() -> list[str]:
    found = [RELAYED_STATUS]
    for exit_code in EXIT_CODES:
        found += [exit_code.meaning, *(meaning for _, meaning in exit_code.per_command)]
    return found


def test_every_help_text_has_a_chinese_translation() -> None:
    assert missing(build_parser(), "zh") == []


def test_every_exit_code_meaning_has_a_chinese_translation() -> None:
    zh = catalogue("zh")
    assert [text for text in exit_code_texts() if text not in zh] == []


def test_the_catalogue_translates_only_texts_the_cli_shows() -> None:
    shown = set(texts(build_parser())) | set(exit_code_texts())
    assert [key for key in TEXTS if key not in shown] == []


def test_a_new_option_without_a_translation_is_found() -> None:
    parser = build_parser()
    check = next(sub for sub in parsers(parser) if sub.prog.endswith(" check"))
    check.add_argument("--brand-new", help="an option nobody translated yet")
    assert missing(parser, "zh") == ["an option nobody translated yet"]


def test_exit_code_meanings_cut_where_the_english_does() -> None:
    # --help shows each meaning up to its first semicolon; the translation must cut alike
    zh = catalogue("zh")
    for text in exit_code_texts():
        assert text.count(";") == zh[text].count("；"), text


def test_the_chinese_help_is_what_the_parser_shows(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "88")
    check = next(sub for sub in parsers(build_parser("zh")) if sub.prog.endswith(" check"))
    shown = check.format_help()
    assert shown.startswith("用法：mcp-transcripts check")
    assert (
        TEXTS[
            "report only findings not in this baseline; exit 1 if some of its entries no longer occur"
        ][:12]
        in shown
    )
    assert "退出码（完整的表见命令行参考）：" in shown and "1 会有改动" in shown
    assert "lowest severity" not in shown
    # help texts are filled by display width: no line of an option's help passes 88 columns
    for line in shown.splitlines():
        if line.startswith(" " * 24) and not line.startswith(" " * 25):
            assert width(line) <= 88, line


def test_english_stays_the_default() -> None:
    assert build_parser().format_help() == build_parser("en").format_help()
    assert "usage: mcp-transcripts" in build_parser().format_help()


@pytest.mark.parametrize(
    ("environ", "lang"),
    [
        ({"LANG": "zh_CN.UTF-8"}, "zh"),
        ({"LANG": "zh_TW.UTF-8"}, "zh"),
        ({"LANG": "en_US.UTF-8"}, "en"),
        ({"LC_ALL": "C.UTF-8", "LANG": "zh_CN.UTF-8"}, "en"),
        ({"LC_MESSAGES": "zh_CN.UTF-8", "LANG": "en_US.UTF-8"}, "zh"),
        ({}, "en"),
    ],
)
def test_help_language_follows_the_locale(environ: dict[str, str], lang: str) -> None:
    assert help_language(environ) == lang


def test_the_console_script_helps_in_chinese_in_a_chinese_locale() -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("LC_")}
    for lang, expected in [("zh_CN.UTF-8", "用法：mcp-transcripts fix"), ("C.UTF-8", "usage:")]:
        result = subprocess.run(
            [sys.executable, "-m", "migrator", "fix", "--help"],
            cwd=ROOT,
            env={**env, "LANG": lang, "PYTHONIOENCODING": "utf-8"},
            capture_output=True,
            text=True,
            encoding="utf-8",
            check=False,
        )
        assert result.returncode == 0, result.stderr
        assert result.stdout.startswith(expected), result.stdout[:200]


def test_main_is_english_unless_asked(capsys: pytest.CaptureFixture[str]) -> None:
    import io

    out = io.StringIO()
    assert main(["rules", "--help"], stdout=out) == 0
    assert "List every rule" in out.getvalue()
    out = io.StringIO()
    assert main(["rules", "--help"], stdout=out, lang="zh") == 0
    assert "列出每条规则" in out.getvalue()


def test_wrap_breaks_chinese_by_display_width() -> None:
    text = "工作进程数：多个文件并行处理，一个大的线路记录在各会话开始处切成几段并行处理（默认：1）"
    lines = wrap(text, 30)
    assert "".join(lines) == text
    assert all(width(line) <= 30 for line in lines)
    # closing punctuation never starts a line
    assert not any(line[0] in "，。；：）" for line in lines)
    # Latin words stay whole
    assert wrap("use --mcp-schema cached 以验证", 12) == [
        "use",
        "--mcp-schema",
        "cached 以验",
        "证",
    ]


def test_localize_leaves_untranslated_texts_english() -> None:
    parser = argparse.ArgumentParser(prog="demo")
    parser.add_argument("--x", help="nobody translated this")
    from migrator.cli.translations import localize

    localize(parser, "zh")
    assert parser._actions[-1].help == "nobody translated this"
    assert parser.format_usage().startswith("用法：demo")
