"""The subcommands of ``mcp-transcripts``: one module each.

A command module has ``NAME``, ``HELP``, ``configure(parser)`` and
``run(args, io) -> int``. :data:`COMMANDS` lists them in the order ``--help``
shows them; adding a command is one module and one line here.
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass
from types import ModuleType
from typing import TextIO


@dataclass(frozen=True)
class IO:
    """The streams a command uses (tests pass their own)."""

    stdin: TextIO
    stdout: TextIO
    stderr: TextIO


def command_modules() -> list[ModuleType]:
    """The command modules, imported on demand (start-up stays fast)."""
    from migrator.cli.commands import (
        check,
        explain,
        fix,
        probe,
        proxy,
        record,
        report,
        rules,
        schema,
    )

    return [check, fix, rules, explain, schema, record, proxy, probe, report]


def formatter() -> type[argparse.HelpFormatter]:
    """Help formatter that keeps the hand-written layout of epilogs."""
    return argparse.RawDescriptionHelpFormatter
