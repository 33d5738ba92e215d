"""What every command shares: the streams it uses and the help layout.

A command module imports this module, never the package that lists the commands
(:mod:`migrator.cli`), so the list of commands sits beside what it lists.
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass
from typing import TextIO


@dataclass(frozen=True)
class IO:
    """The streams a command uses (tests pass their own)."""

    stdin: TextIO
    stdout: TextIO
    stderr: TextIO


def formatter() -> type[argparse.HelpFormatter]:
    """Help formatter that keeps the hand-written layout of epilogs."""
    return argparse.RawDescriptionHelpFormatter
