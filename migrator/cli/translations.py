"""The help of the command line in another language, from a catalogue of its English texts.

Every text ``--help`` shows (a command's description, each paragraph of its epilog, each
argument's help, argparse's own headings) is looked up, as it is, in the language's
catalogue (:mod:`migrator.cli.help_zh` for Chinese), the way gettext looks up a message:
the English text is the key. A text that changes, or a new option, has no translation
until one is written, and ``tests/test_cli_translations.py`` fails until then.

The Chinese CLI reference of the site is rendered from the parser localized here, and
``mcp-transcripts --help`` shows the same Chinese help when the locale asks for Chinese
(``LC_ALL``, ``LC_MESSAGES`` or ``LANG`` starting with ``zh``); a text without a
translation is then shown in English rather than failing.
"""

from __future__ import annotations

import argparse
import functools
import re
import unicodedata
from collections.abc import Iterable, Iterator, Mapping
from typing import Any

LANGUAGES = ("en", "zh")

EXIT_CODES_HEADING_EN = "exit codes (the whole table: the CLI reference):"

# argparse's own texts: the usage prefix, the section titles and the help of -h and --version.
USAGE = "usage: "
ARGPARSE_TEXTS = (
    USAGE,
    "positional arguments",
    "options",
    "show this help message and exit",
    "show program's version number and exit",
)


def catalogue(lang: str) -> Mapping[str, str]:
    """The translations of ``lang``, keyed by the English text (empty for English)."""
    if lang == "en":
        return {}
    if lang == "zh":
        return _zh()
    raise ValueError(f"no help translations for {lang!r}; known: {', '.join(LANGUAGES)}")


@functools.cache
def _zh() -> Mapping[str, str]:
    from migrator.cli.help_zh import EXIT_CODES_HEADING, TEXTS

    # The epilog's exit-code paragraph is built from the shared table, in each language.
    english = EXIT_CODES_HEADING_EN + "\n" + exit_code_lines("en").rstrip("\n")
    texts = dict(TEXTS)
    texts[english] = EXIT_CODES_HEADING + "\n" + exit_code_lines("zh", TEXTS).rstrip("\n")
    return texts


def help_language(environ: Mapping[str, str]) -> str:
    """The language of ``--help`` for this environment: the first locale variable set wins."""
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = environ.get(name)
        if value:
            return "zh" if value.lower().startswith("zh") else "en"
    return "en"


def paragraphs(text: str) -> list[str]:
    """The blank-line separated paragraphs of a description or an epilog (one key each)."""
    return [part for part in re.split(r"\n\s*\n", text.strip("\n")) if part.strip()]


def parsers(parser: argparse.ArgumentParser) -> Iterator[argparse.ArgumentParser]:
    """``parser`` and every subcommand parser under it, each once (aliases share one)."""
    yield parser
    seen: set[int] = set()
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for sub in action.choices.values():
                if id(sub) not in seen:
                    seen.add(id(sub))
                    yield from parsers(sub)


def _helped_actions(parser: argparse.ArgumentParser) -> Iterator[argparse.Action]:
    """The actions whose help text is shown, and the one-line entries of subcommands."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            yield from action._choices_actions
        elif action.help and action.help is not argparse.SUPPRESS:
            yield action


def texts(parser: argparse.ArgumentParser) -> list[str]:
    """Every English text the help of ``parser`` and its subcommands shows, each once."""
    found: dict[str, None] = dict.fromkeys(ARGPARSE_TEXTS)
    for each in parsers(parser):
        for text in (each.description, each.epilog):
            if text:
                found.update(dict.fromkeys(paragraphs(text)))
        for action in _helped_actions(each):
            if action.help:
                found[action.help] = None
    return list(found)


def missing(parser: argparse.ArgumentParser, lang: str) -> list[str]:
    """The texts of ``parser``'s help that have no translation into ``lang``."""
    known = catalogue(lang)
    return [text for text in texts(parser) if text not in known]


def localize(parser: argparse.ArgumentParser, lang: str) -> argparse.ArgumentParser:
    """Put ``lang``'s texts into ``parser`` and its subcommands, in place; returns ``parser``.

    A text without a translation stays English (:func:`missing` lists them).
    """
    if lang == "en":
        return parser
    known = catalogue(lang)

    def tr(text: str) -> str:
        return known.get(text, text)

    for each in parsers(parser):
        if each.description:
            each.description = "\n\n".join(tr(part) for part in paragraphs(each.description))
        if each.epilog:
            each.epilog = "\n\n".join(tr(part) for part in paragraphs(each.epilog))
        for action in _helped_actions(each):
            if action.help:
                action.help = tr(action.help)
        for group in each._action_groups:
            if group.title:
                group.title = tr(group.title)
        each.formatter_class = _formatter(each.formatter_class, tr(USAGE))
    return parser


def _formatter(base: Any, usage_prefix: str) -> type[argparse.HelpFormatter]:
    """``base`` with the usage prefix ``usage_prefix`` and lines wrapped by display width.

    argparse wraps help at spaces and counts characters; Chinese has no spaces and each
    character takes two columns, so the lines are filled here instead.
    """

    class Localized(base):  # type: ignore[misc]
        def add_usage(
            self,
            usage: str | None,
            actions: Iterable[argparse.Action],
            groups: Iterable[argparse._MutuallyExclusiveGroup],
            prefix: str | None = None,
        ) -> None:
            super().add_usage(usage, actions, groups, usage_prefix if prefix is None else prefix)

        def _split_lines(self, text: str, width: int) -> list[str]:
            return wrap(" ".join(text.split()), width)

    return Localized


def width(text: str) -> int:
    """The columns ``text`` takes on a terminal (wide East Asian characters take two)."""
    return sum(2 if unicodedata.east_asian_width(char) in "WF" else 1 for char in text)


# A word of Latin text, one wide character, or a run of spaces; wide characters may break
# anywhere except before closing punctuation.
_TOKEN = re.compile(r"\s+|[^\s\u2e80-\ufaff\uff00-\uffef]+|.", re.S)
_NO_BREAK_BEFORE = set("，。、；：）」』”’！？》〉】")


def wrap(text: str, columns: int) -> list[str]:
    """``text`` filled into lines of at most ``columns`` display columns (a longer word stays whole)."""
    lines: list[str] = []
    line = ""
    for token in _TOKEN.findall(text):
        if token.isspace():
            if line:
                line += " "
            continue
        if line and width(line.rstrip() + token) > columns and token not in _NO_BREAK_BEFORE:
            lines.append(line.rstrip())
            line = token
        else:
            line += token
    if line.strip():
        lines.append(line.rstrip())
    return lines or [""]


def exit_code_lines(lang: str = "en", known: Mapping[str, str] | None = None) -> str:
    """The exit codes per command for the epilog of ``--help``, from the shared table.

    Each meaning is cut at its first semicolon so a command fits a few lines; the CLI
    reference has the whole table (:data:`migrator.engine.exitcodes.EXIT_CODES`).
    """
    import textwrap

    from migrator.engine.exitcodes import EXIT_CODES

    known = catalogue(lang) if known is None else known

    def first(text: str, stops: str = ";；") -> str:
        text = known.get(text, text)
        return re.split(f"[{stops}]", text, maxsplit=1)[0].replace("`", "")

    comma = "，" if lang == "zh" else ", "
    out = []
    for command in ("check", "fix", "fix --diff"):
        parts = []
        for exit_code in EXIT_CODES[:3]:
            meaning = exit_code.for_command(command)
            if meaning:
                parts.append(f"{exit_code.code} {first(meaning)}")
        out.append(f"{command:<11} " + comma.join(parts))
    signals = [f"{c.code} {first(c.meaning, ':：;；')}" for c in EXIT_CODES[3:]]
    out.append("any         " + comma.join(signals))
    if lang == "en":
        return "".join(
            textwrap.fill(line, width=88, initial_indent="  ", subsequent_indent=" " * 14) + "\n"
            for line in out
        )
    # the same layout, filled by display width: 2 + 12 columns of command, 74 of meaning
    return "".join(
        "  " + line[:12] + "\n              ".join(wrap(line[12:], 74)) + "\n" for line in out
    )
