"""What one run is asked to do: the :class:`Mode` and the engine :class:`Options`.

:func:`migrator.engine.config.resolve` builds the options from the configuration file
and the command line; :func:`migrator.engine.config.narrow` adapts them to one path.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from migrator.model.findings import FixSafety
from migrator.readers import InputFormat

__all__ = ["Mode", "Options"]


class Mode(str, Enum):
    """What a run does with each file: report, rewrite, or show the rewrite as a diff."""

    CHECK = "check"
    FIX = "fix"
    DIFF = "diff"  # what fix would write, as a unified diff; nothing is written

    @property
    def fixes(self) -> bool:
        """Whether edits are built and validated (fix and diff); check only reports."""
        return self is not Mode.CHECK


@dataclass(frozen=True)
class Options:
    """How to process files; :func:`migrator.engine.config.resolve` fills it in."""

    selected: frozenset[str] | None = None  # rule codes; None means every rule
    unsafe_fixes: bool = False
    provenance: bool = True
    assume_version: str | None = None
    input_format: InputFormat = InputFormat.AUTO
    mode: Mode = Mode.CHECK
    mcp_schemas: tuple[str, ...] = ()  # official schema.json files (or "cached"): enables MCP206
    unknown_tool_patterns: tuple[str, ...] = ()  # extra regexes for in-house servers
    validation_patterns: tuple[str, ...] = ()
    servers: bool = False  # also note per server how it answers invalid calls (``report``)
    # --storage-option KEY=VALUE pairs for the stores URLs name (see migrator.readers.storage)
    storage_options: tuple[tuple[str, str], ...] = ()

    @property
    def apply_fixes(self) -> bool:
        """Whether edits are built and validated (``fix`` and ``diff``); ``check`` only reports."""
        return self.mode.fixes

    def enabled(self, code: str) -> bool:
        """Whether a rule is selected."""
        return self.selected is None or code in self.selected

    def fix_allowed(self, safety: FixSafety | None) -> bool:
        """Whether a fix of this safety is applied."""
        return safety is FixSafety.SAFE or (safety is FixSafety.UNSAFE and self.unsafe_fixes)
