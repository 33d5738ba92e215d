"""MkDocs hook: render the CLI and rule references from the code at build time.

A reference page holds a marker comment; ``on_page_markdown`` replaces it with markdown
rendered from ``migrator.cli.build_parser()`` (the parser the command line really uses) or
from ``migrator.rules.all_rules()`` (the rule registry). Nothing is written to disk, so the
published reference cannot drift from the code.
"""

from __future__ import annotations

import argparse
import os
import re
from collections.abc import Iterator
from typing import Any

CLI_MARKER = "<!-- mcp-transcripts:cli-reference -->"
RULES_MARKER = "<!-- mcp-transcripts:rules-reference -->"
EXIT_CODES_MARKER = "<!-- mcp-transcripts:exit-codes -->"
# <!-- mcp-transcripts:run lang=json pick=runs.0.results.0 lines=3 :: check --format sarif FILE -->
# runs the real CLI (from the repository root) while the site builds and shows what it
# printed: the output on the page is the tool's, never pasted. Options: lang (the fence's
# language), pick (a path into JSON output), lines (keep the first N lines), stream
# (stdout, the default; stderr; or both: standard output, then standard error, as a
# terminal shows a run whose summary comes last) and exit (the exit code the run must
# end with, for a refusal such as exit=2; without it, 0 or 1).
RUN_MARKER = re.compile(r"<!-- mcp-transcripts:run (?P<options>[^:]*?)\s*:: (?P<argv>.*?) -->")

# The help text is rendered at a fixed width so the page does not depend on the terminal
# the build happens to run in.
HELP_WIDTH = "88"


def on_page_markdown(markdown: str, page: Any, config: Any, files: Any, **kwargs: Any) -> str:
    if CLI_MARKER in markdown:
        markdown = markdown.replace(CLI_MARKER, render_cli_reference(_language(page)))
    if EXIT_CODES_MARKER in markdown:
        markdown = markdown.replace(EXIT_CODES_MARKER, render_exit_codes(_language(page)))
    if RULES_MARKER in markdown:
        markdown = markdown.replace(RULES_MARKER, render_rules_reference(_language(page)))
    return RUN_MARKER.sub(lambda match: render_run(match.group("options"), match.group("argv")), markdown)


def _language(page: Any) -> str:
    """``zh`` for a page of the Chinese site (``page.zh.md``), else ``en``."""
    return "zh" if page.file.src_uri.endswith(".zh.md") else "en"


def render_run(options_text: str, argv_text: str) -> str:
    """A fenced block with what ``mcp-transcripts ARGV`` prints on standard output."""
    import io
    import json
    import shlex
    from pathlib import Path

    from migrator.cli import main

    options = dict(item.split("=", 1) for item in options_text.split())
    argv = shlex.split(argv_text)
    out, err = io.StringIO(), io.StringIO()
    cwd = Path.cwd()
    os.chdir(Path(__file__).resolve().parents[2])  # paths on the page are relative to the repository
    try:
        code = main(argv, stdout=out, stderr=err)
    finally:
        os.chdir(cwd)
    expected = {int(options["exit"])} if "exit" in options else {0, 1}
    if code not in expected:
        raise RuntimeError(
            f"mcp-transcripts {argv_text} exited {code}, not {sorted(expected)}: {err.getvalue()}"
        )
    stream = options.get("stream", "stdout")
    if stream not in ("stdout", "stderr", "both"):
        raise ValueError(f"mcp-transcripts:run stream={stream}: stdout, stderr or both")
    text = {
        "stdout": out.getvalue(),
        "stderr": err.getvalue(),
        "both": out.getvalue() + err.getvalue(),
    }[stream]
    if "pick" in options:
        value = json.loads(text)
        for part in options["pick"].split("."):
            value = value[int(part)] if isinstance(value, list) else value[part]
        text = json.dumps(value, indent=2, ensure_ascii=False) + "\n"
    lines = text.splitlines()
    if "lines" in options and len(lines) > int(options["lines"]):
        lines = [*lines[: int(options["lines"])], "..."]
    lang = options.get("lang", "text")
    return f'```{lang} title="mcp-transcripts {argv_text}"\n' + "\n".join(lines) + "\n```"


# --- exit codes ------------------------------------------------------------------------


# The column headings of the generated tables, per language.
_HEADINGS = {
    "en": {"code": "code", "meaning": "meaning", "argument": "argument", "default": "default"},
    "zh": {"code": "退出码", "meaning": "含义", "argument": "参数", "default": "默认值"},
}


def _translator(lang: str) -> Any:
    """``text -> text`` in ``lang`` from the CLI's catalogue; a missing text fails the build."""
    from migrator.cli.translations import catalogue

    known = catalogue(lang)
    if lang == "en":
        return lambda text: text

    def tr(text: str) -> str:
        if text not in known:
            raise KeyError(
                f"no {lang} translation of {text!r}: add it to migrator/cli/help_{lang}.py"
            )
        return known[text]

    return tr


def render_exit_codes(lang: str = "en") -> str:
    """The exit-code table, from ``migrator.engine.exitcodes.EXIT_CODES`` (what the commands return)."""
    from migrator.engine.exitcodes import COMMANDS, EXIT_CODES, RELAYED_STATUS

    tr, head = _translator(lang), _HEADINGS[lang]
    lines = [
        f"| {head['code']} | {head['meaning']} | " + " | ".join(f"`{c}`" for c in COMMANDS) + " |",
        "| --- | --- | " + " | ".join("---" for _ in COMMANDS) + " |",
    ]
    for exit_code in EXIT_CODES:
        cells = [
            _cell(tr(meaning)) if (meaning := exit_code.for_command(command)) else "—"
            for command in COMMANDS
        ]
        lines.append(
            f"| {exit_code.code} | {_cell(tr(exit_code.meaning))} | " + " | ".join(cells) + " |"
        )
    return "\n".join(lines) + "\n\n" + tr(RELAYED_STATUS) + "\n"


# --- CLI -------------------------------------------------------------------------------


def render_cli_reference(lang: str = "en") -> str:
    """Each command's help as ``--help`` prints it and its argument table, in ``lang``.

    The Chinese page is rendered from the parser localized with the CLI's own catalogue
    (``migrator/cli/help_zh.py``), the same help ``mcp-transcripts --help`` shows in a
    Chinese locale; a text without a translation fails the build.
    """
    from migrator.cli import build_parser
    from migrator.cli.translations import missing

    parser = build_parser()
    untranslated = missing(parser, lang) if lang != "en" else []
    if untranslated:
        raise KeyError(
            f"no {lang} translation of {untranslated!r}: add them to migrator/cli/help_{lang}.py"
        )
    parser = build_parser(lang)
    parts = [_render_parser(parser, parser.prog, level=2, lang=lang)]
    for name, sub in _subcommands(parser):
        parts.append(_render_parser(sub, f"{parser.prog} {name}", level=2, lang=lang))
    return "\n\n".join(parts) + "\n"


def _subcommands(parser: argparse.ArgumentParser) -> Iterator[tuple[str, argparse.ArgumentParser]]:
    """Every command under ``parser``, by its name from there: ``check``, ``schema fetch``, ..."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            seen: set[int] = set()
            for name, sub in action.choices.items():
                if id(sub) not in seen:  # aliases point at the same parser
                    seen.add(id(sub))
                    yield name, sub
                    for inner, nested in _subcommands(sub):  # `schema fetch`, `schema list`
                        yield f"{name} {inner}", nested


def _render_parser(
    parser: argparse.ArgumentParser, title: str, level: int, lang: str = "en"
) -> str:
    anchor = re.sub(r"[^a-z0-9]+", "-", title.lower()).strip("-")
    lines = [f"{'#' * level} `{title}` {{#{anchor}}}", ""]
    if parser.description:
        lines += [parser.description.strip(), ""]
    lines += ["```text", _format_help(parser).rstrip(), "```", ""]
    rows = [_option_row(parser, action) for action in parser._actions if _documented(action)]
    if rows:
        head = _HEADINGS[lang]
        lines += [
            f"| {head['argument']} | {head['default']} | {head['meaning']} |",
            "| --- | --- | --- |",
            *rows,
        ]
    return "\n".join(lines)


def _format_help(parser: argparse.ArgumentParser) -> str:
    previous = os.environ.get("COLUMNS")
    os.environ["COLUMNS"] = HELP_WIDTH
    try:
        return parser.format_help()
    finally:
        if previous is None:
            del os.environ["COLUMNS"]
        else:
            os.environ["COLUMNS"] = previous


def _documented(action: argparse.Action) -> bool:
    return action.help is not argparse.SUPPRESS and not isinstance(
        action, (argparse._HelpAction, argparse._SubParsersAction)
    )


def _option_row(parser: argparse.ArgumentParser, action: argparse.Action) -> str:
    if action.option_strings:
        name = ", ".join(f"`{opt}`" for opt in action.option_strings)
    else:
        name = f"`{action.metavar or action.dest}`"
    if action.choices:
        name += "<br>" + " \\| ".join(f"`{choice}`" for choice in action.choices)
    default = action.default
    shown_default = (
        ""
        if default in (None, False, argparse.SUPPRESS)
        or isinstance(action, argparse._VersionAction)
        else f"`{default}`"
    )
    return f"| {name} | {shown_default} | {_cell(_expand_help(parser, action))} |"


def _expand_help(parser: argparse.ArgumentParser, action: argparse.Action) -> str:
    text = action.help or ""
    if "%" not in text:
        return text
    params = {k: v for k, v in vars(action).items() if v is not argparse.SUPPRESS}
    params["prog"] = parser.prog
    if params.get("choices") is not None:
        params["choices"] = ", ".join(map(str, params["choices"]))
    return text % params


def _cell(text: str) -> str:
    return " ".join(text.split()).replace("|", "\\|")


# --- rules ---------------------------------------------------------------------------


# The rule pages of this build: their source path -> (rule code, language).
_RULE_PAGES: dict[str, tuple[str, str]] = {}


def on_files(files: Any, config: Any, **kwargs: Any) -> Any:
    """Add one page per registered rule and language (``migrator/reference/rules/mcp101.md``).

    The pages exist only in the build: a rule added to the registry gets its page, in both
    languages, with nothing to edit here. They are added as ordinary pages of the docs
    folder, so the i18n plugin (which runs after this hook and rebuilds every file from its
    path) sorts the ``.zh.md`` pages into the Chinese site; their text comes from
    ``on_page_read_source``, never from disk.
    """
    from mkdocs.structure.files import File

    from migrator.rules.page import LANGUAGES, page_path
    from migrator.rules.registry import all_rules

    for rule in all_rules():
        for lang in LANGUAGES:
            path = page_path(rule.code, lang)
            _RULE_PAGES[path] = (rule.code, lang)
            files.append(File(path, config.docs_dir, config.site_dir, config.use_directory_urls))
    return files


def on_page_read_source(page: Any, config: Any, **kwargs: Any) -> str | None:
    """The markdown of a generated rule page; ``None`` lets MkDocs read any other page."""
    found = _RULE_PAGES.get(page.file.src_uri)
    if found is None:
        return None
    from migrator.rules.page import render_page
    from migrator.rules.registry import get_rule

    code, lang = found
    return render_page(get_rule(code), lang)


def render_rules_reference(lang: str = "en") -> str:
    """The rules index table; each code links to the rule's own page."""
    from migrator.rules.page import render_index

    return render_index(lang, link_prefix="rules/")
