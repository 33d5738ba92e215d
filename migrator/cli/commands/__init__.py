"""The subcommands of ``mcp-transcripts``: one module each.

A command module has ``NAME``, ``HELP``, ``configure(parser)`` and
``run(args, io) -> int``, and imports :mod:`migrator.cli.io` for the streams.
:func:`command_modules` lists them in the order ``--help`` shows them; adding a
command is one module and one line there.
"""

from __future__ import annotations

from types import ModuleType


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
