"""The command line: a thin layer over :mod:`migrator.api`.

Exit codes (the contract, as in black and ruff) are one table,
:data:`migrator.engine.exitcodes.EXIT_CODES`, which ``--help`` prints: ``check`` exits 0
(no finding at or above ``--fail-on``), 1 (findings) or 2 (a usage or input
error, whatever ``--fail-on`` says); ``fix`` 0 or 2; ``fix --diff`` 0, 1 or 2.

Data goes to stdout, status lines to stderr. Each subcommand is a module of
:mod:`migrator.cli.commands`.
"""

from __future__ import annotations

import argparse
import contextlib
import sys
from collections.abc import Sequence
from typing import TextIO

from migrator import __version__
from migrator.cli.translations import EXIT_CODES_HEADING_EN, exit_code_lines
from migrator.engine.exitcodes import BROKEN_PIPE as EXIT_BROKEN_PIPE
from migrator.engine.exitcodes import ERROR as EXIT_ERROR
from migrator.engine.exitcodes import INTERRUPTED as EXIT_INTERRUPTED
from migrator.errors import MigratorError

DESCRIPTION = """\
Find and fix MCP tools/call input-validation errors that are still sent as
JSON-RPC protocol errors (SEP-1303, protocol 2025-11-25), in recorded transcripts."""


EPILOG = f"""\
{EXIT_CODES_HEADING_EN}
{exit_code_lines()}
examples:
  mcp-transcripts check traces/
  mcp-transcripts fix --diff traces/session.jsonl
  mcp-transcripts fix traces/
  mcp-transcripts explain MCP101"""


def build_parser(lang: str = "en", only: str | None = None) -> argparse.ArgumentParser:
    """The real argument parser (the docs' CLI reference is generated from it).

    Args:
        lang: the language of the help texts: ``en``, or ``zh`` for the translations of
            :mod:`migrator.cli.help_zh` (a text without one stays English).
        only: configure only this command's options (the others are listed with their
            help line): what the command line does, so that ``check`` does not import
            what ``probe`` or ``proxy`` need to describe their options.
    """
    from migrator.cli.commands import command_modules
    from migrator.cli.io import formatter

    parser = argparse.ArgumentParser(
        prog="mcp-transcripts", description=DESCRIPTION, epilog=EPILOG, formatter_class=formatter()
    )
    parser.add_argument("--version", action="version", version=f"mcp-transcripts {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    commands.required = True
    for module in command_modules():
        sub = commands.add_parser(
            module.NAME, help=module.HELP, epilog=EPILOG, formatter_class=formatter()
        )
        if only is None or only == module.NAME:
            module.configure(sub)
        sub.set_defaults(handler=module.run)
    if lang != "en":
        from migrator.cli.translations import localize

        localize(parser, lang)
    return parser


def main(
    argv: Sequence[str] | None = None,
    *,
    stdin: TextIO | None = None,
    stdout: TextIO | None = None,
    stderr: TextIO | None = None,
    lang: str = "en",
) -> int:
    """Run the CLI; returns the exit code (never calls ``sys.exit`` itself).

    ``lang`` is the language of ``--help`` (``en`` or ``zh``); findings, errors and
    reports are English whatever it says.
    """
    from migrator.cli.io import IO

    io = IO(stdin or sys.stdin, stdout or sys.stdout, stderr or sys.stderr)
    arguments = list(sys.argv[1:] if argv is None else argv)
    if _asks_for_version(arguments):  # answered before any command module is imported
        io.stdout.write(f"mcp-transcripts {__version__}\n")
        return 0
    parser = build_parser(lang, only=_command_named(arguments))
    try:
        # argparse prints help, --version and usage errors itself: to our streams.
        with contextlib.redirect_stdout(io.stdout), contextlib.redirect_stderr(io.stderr):
            args = parser.parse_args(argv)
    except SystemExit as exc:  # argparse exits on --help, --version and usage errors
        return exc.code if isinstance(exc.code, int) else EXIT_ERROR
    try:
        code: int = args.handler(args, io)
    except MigratorError as exc:
        io.stderr.write(f"mcp-transcripts: error: {exc}\n")
        return EXIT_ERROR
    except BrokenPipeError:
        raise  # the reader went away: console() ends quietly
    except (
        Exception
    ):  # a bug of ours: say so, with what a report needs, and never exit 1 ("findings")
        import traceback

        io.stderr.write(traceback.format_exc())
        io.stderr.write(
            f"mcp-transcripts: internal error (mcp-transcripts {__version__}); please report it with the "
            "traceback above. No file was left half-written.\n"
        )
        return EXIT_ERROR
    return code


def _asks_for_version(arguments: Sequence[str]) -> bool:
    """Whether argparse would answer ``--version`` (it comes before the command and ``-h``)."""
    for argument in arguments:
        if not argument.startswith("-") or argument in ("-h", "--help"):
            return False
        if len(argument) > 2 and "--version".startswith(argument):  # argparse takes --vers too
            return True
    return False


def _command_named(arguments: Sequence[str]) -> str | None:
    """The command the arguments run: the first one that is not an option (top-level options take no value)."""
    return next((argument for argument in arguments if not argument.startswith("-")), None)


def console() -> int:
    """The ``mcp-transcripts`` console script: :func:`main`, quiet when the reader goes away.

    ``--help`` is in Chinese when the locale is (``LC_ALL``, ``LC_MESSAGES`` or ``LANG``
    starting with ``zh``).

    ``mcp-transcripts check traces/ | head`` closes the pipe early; like ``cat`` or
    ``grep``, stop without a traceback and with the status a shell gives SIGPIPE.
    """
    import os

    # Transcript text carries bytes that were not UTF-8 as lone surrogates;
    # they go out as the bytes they came in as, whatever the locale.
    if (sys.stdout.encoding or "").lower().replace("-", "") == "utf8":
        with contextlib.suppress(AttributeError, ValueError):
            sys.stdout.reconfigure(errors="surrogateescape")  # type: ignore[union-attr]
    from migrator.cli.translations import help_language

    try:
        code = main(lang=help_language(os.environ))
        sys.stdout.flush()
    except KeyboardInterrupt:
        sys.stderr.write(
            "mcp-transcripts: interrupted; files being rewritten were left as they were\n"
        )
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        # Point stdout at /dev/null so the interpreter's final flush cannot fail again.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return EXIT_BROKEN_PIPE
    return code


__all__ = ["build_parser", "console", "main"]
