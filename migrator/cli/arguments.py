"""The arguments ``check``, ``fix`` and ``proxy`` share, and how they become settings.

The arguments become typed :class:`~migrator.engine.config.Overrides` once; the
configuration layer resolves them over the configuration file (the command line
wins, then the file, then the built-in defaults). How a run over many files is shown
on the terminal is :mod:`migrator.cli.progress`.
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

from migrator.cli.io import IO

if TYPE_CHECKING:  # imported where used: start-up stays fast
    from migrator.engine.config import Config, Overrides
    from migrator.engine.options import Options


def add_report_options(
    parser: argparse.ArgumentParser, *, fail_on_default: str | None, format_note: str = ""
) -> None:
    """``--output-format`` and ``--fail-on``, as every command that reports findings has them.

    ``fail_on_default`` is ``None`` where the configuration file may set it.
    """
    from migrator.engine.results import DEFAULT_FAIL_ON, FAIL_ON_CHOICES
    from migrator.reporters import OutputFormat

    parser.add_argument(
        "--output-format",
        "--format",
        dest="output_format",
        choices=[f.value for f in OutputFormat],
        default="text",
        help=f"how to print findings (default: text{format_note})",
    )
    parser.add_argument(
        "--fail-on",
        choices=FAIL_ON_CHOICES,
        default=fail_on_default,
        help=f"lowest severity that makes the exit code 1 (default: {DEFAULT_FAIL_ON})",
    )


def add_fix_options(parser: argparse.ArgumentParser) -> None:
    """``--unsafe-fixes`` and ``--no-provenance``, shared by ``fix`` and ``proxy``."""
    from migrator.model.provenance import ORIGINAL_ERROR

    parser.add_argument(
        "--unsafe-fixes",
        action="store_true",
        help="also apply unsafe fixes (MCP102, MCP103, MCP104)",
    )
    parser.add_argument(
        "--no-provenance",
        dest="provenance",
        action="store_false",
        help=f'do not keep the original under _meta["{ORIGINAL_ERROR}"]',
    )


def add_input_options(parser: argparse.ArgumentParser) -> None:
    """PATH arguments and the options that choose what to read and which rules run."""
    from migrator.readers import InputFormat, walked_patterns

    walked = ", ".join(walked_patterns())
    parser.add_argument(
        "paths",
        nargs="*",
        metavar="PATH",
        help=f"transcript files or folders (walked for {walked} files that hold MCP traffic, "
        "each also gzip-compressed as .gz); '-' reads stdin",
    )
    parser.add_argument(
        "--input-format",
        choices=[f.value for f in InputFormat],
        default=None,
        help="the transcript format (default: detected from the content)",
    )
    parser.add_argument(
        "--select",
        action="append",
        metavar="CODES",
        help="only these rules: codes, slugs or prefixes such as MCP1, comma-separated (repeatable)",
    )
    parser.add_argument(
        "--ignore",
        action="append",
        metavar="CODES",
        help="skip these rules (comma-separated, repeatable)",
    )
    parser.add_argument(
        "--assume-version",
        metavar="VERSION",
        help="protocol version for sessions without an initialize handshake, e.g. 2025-11-25",
    )
    parser.add_argument("--stdin-filename", metavar="NAME", help="the path to report for '-'")
    parser.add_argument(
        "--config",
        metavar="FILE",
        help="the configuration file (default: the nearest .mcp-transcripts.yaml, or pyproject.toml with [tool.mcp-transcripts], from the current folder up)",
    )
    parser.add_argument(
        "--pair",
        nargs=2,
        action="append",
        metavar=("C2S_FILE", "S2C_FILE"),
        help="a two-file stdio capture: what the client wrote and what the server wrote, merged by time or causality; either may be an object's URL, as PATH may (repeatable; fix rewrites only S2C_FILE, and never an object)",
    )
    parser.add_argument(
        "-j",
        "--jobs",
        type=_jobs,
        metavar="N",
        help="worker processes, or auto: files run in parallel, and one large wire transcript is cut at its session starts into stretches that run in parallel (auto, the default: one per core when there are several files and over 16 MB to read, or one wire transcript of 64 MB or more; else 1)",
    )
    parser.add_argument(
        "--storage-option",
        action="append",
        metavar="KEY=VALUE",
        help="a keyword argument of the fsspec file system that reads PATHs given as URLs "
        "(s3://, gs://, az://, abfs://, http(s)://; the cloud extra), e.g. "
        "endpoint_url=http://127.0.0.1:9000 or anon=true; VALUE is read as JSON where it is "
        "JSON (repeatable)",
    )
    parser.add_argument(
        "--dask-scheduler",
        metavar="ADDRESS",
        help="run the files on the dask.distributed cluster whose scheduler is at ADDRESS "
        "(tcp://host:8786; the dask extra): a task per file or object, a large one cut at its "
        "session starts; results come in the order of a local run, a failed task is retried "
        "and then reported",
    )
    parser.add_argument("-q", "--quiet", action="store_true", help="no summary line")
    parser.add_argument(
        "-v",
        "--verbose",
        action="store_true",
        help="also say which configuration is used, and for each file its format, messages and findings",
    )


def _jobs(text: str) -> int | None:
    """``-j``: a number of processes, or ``auto`` (``None``: the runner decides by the input)."""
    return None if text == "auto" else _positive(text)


def _positive(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError("must be 1 or more")
    return value


def overrides(args: argparse.Namespace, **command: Any) -> Overrides:
    """The typed overrides of the options :func:`add_input_options` adds, plus the command's own.

    Args:
        args: the parsed command line.
        command: the command's own :class:`~migrator.engine.config.Overrides` fields
            (``mode``, ``fail_on``, ``unsafe_fixes``, ...).
    """
    from migrator.engine.config import Overrides
    from migrator.readers.storage import parse_storage_option

    return Overrides(
        storage_options=tuple(parse_storage_option(o) for o in args.storage_option or ()),
        config=args.config,
        select=Overrides.codes(args.select),
        ignore=Overrides.codes(args.ignore),
        assume_version=args.assume_version,
        input_format=args.input_format,
        **command,
    )


def settings(io: IO, given: Overrides, *, verbose: bool) -> tuple[Config, Options]:
    """The configuration and the resolved options of a run; says which file is used.

    Prints the configuration's deprecation notice (a file of the former name)
    and, with ``--verbose``, which configuration file is read.

    Raises:
        ConfigError: the file is missing or invalid.
        UsageError: a rule name is unknown.
    """
    from migrator.engine import config

    loaded = config.load(given)
    if loaded.deprecation:
        io.stderr.write(f"mcp-transcripts: warning: {loaded.deprecation}\n")
    if verbose:
        io.stderr.write(f"mcp-transcripts: configuration: {loaded.describe()}\n")
    return loaded, loaded.resolve(given)
