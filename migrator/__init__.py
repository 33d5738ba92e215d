"""mcp-transcripts: migrate MCP transcripts to SEP-1303 tool error handling."""

from __future__ import annotations

import importlib
import importlib.machinery
import sys
import warnings
from collections.abc import Callable
from types import ModuleType
from typing import Any

__version__ = "0.1.0.dev0"

# Modules that moved when the package was laid out by layer (0.1.0): the old dotted name,
# imported, warns once and gives the module at its new place. Kept for one release.
MOVED_MODULES = {
    "migrator.baseline": "migrator.engine.baseline",
    "migrator.blame": "migrator.judge.argument_blame",
    "migrator.classify": "migrator.judge.classify",
    "migrator.commands": "migrator.cli.commands",
    "migrator.commands.common": "migrator.cli.arguments",
    "migrator.commands.relay_options": "migrator.cli.server_arguments",
    "migrator.compressed": "migrator.readers.compressed",
    "migrator.config": "migrator.engine.config",
    "migrator.diff": "migrator.fix.diff",
    "migrator.envelope": "migrator.model.jsonrpc",
    "migrator.exitcodes": "migrator.engine.exitcodes",
    "migrator.findings": "migrator.model.findings",
    "migrator.globs": "migrator.engine.globs",
    "migrator.jsontext": "migrator.model.jsontext",
    "migrator.official": "migrator.judge.official",
    "migrator.options": "migrator.engine.options",
    "migrator.probe": "migrator.live.probe",
    "migrator.probe.runner": "migrator.live.probe.prober",
    "migrator.probe.session": "migrator.live.probe.client",
    "migrator.provenance": "migrator.model.provenance",
    "migrator.results": "migrator.engine.results",
    "migrator.rewrite": "migrator.fix.rewrite",
    "migrator.runner": "migrator.engine.runner",
    "migrator.schemas": "migrator.judge.schemas",
    "migrator.session": "migrator.model.session",
    "migrator.source": "migrator.model.source",
    "migrator.spans": "migrator.model.spans",
    "migrator.split": "migrator.engine.stretches",
    "migrator.tool_results": "migrator.model.tool_results",
    "migrator.traces": "migrator.engine.traces",
    "migrator.validation": "migrator.judge.validation",
    "migrator.wire": "migrator.live",
    "migrator.wire.har": "migrator.live.har_recording",
    "migrator.wording": "migrator.judge.wording",
    "migrator.writer": "migrator.fix.writer",
}


def former_names(package: str, module: str, names: set[str]) -> Callable[[str], Any]:
    """A module ``__getattr__`` for a package that was one module: ``package.X`` still gives
    ``module.X`` for the names it had, with a warning, for one release."""

    def __getattr__(name: str) -> Any:
        if name in names:
            warnings.warn(
                f"{package}.{name} moved to {module}.{name}", DeprecationWarning, stacklevel=2
            )
            return getattr(importlib.import_module(module), name)
        raise AttributeError(f"module {package!r} has no attribute {name!r}")

    return __getattr__


class _MovedModuleFinder:
    """Finds a moved module under its old name and hands out the new one.

    A meta path finder and its loader (the protocols, not ``importlib.abc``, whose import
    costs more start-up time than everything else here).
    """

    def find_spec(
        self, fullname: str, path: object = None, target: object = None
    ) -> importlib.machinery.ModuleSpec | None:
        new = MOVED_MODULES.get(fullname) or _moved_child(fullname)
        if new is None:
            return None
        return importlib.machinery.ModuleSpec(fullname, self, origin=new)  # type: ignore[arg-type]  # a Loader by protocol

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType:
        new = str(spec.origin)
        warnings.warn(
            f"{spec.name} moved to {new}; the old name goes away in the next release",
            DeprecationWarning,
            stacklevel=4,
        )
        return importlib.import_module(new)

    def exec_module(self, module: ModuleType) -> None:
        """The new module has run already."""


def _moved_child(fullname: str) -> str | None:
    """``migrator.wire.relay`` and the like: a child of a moved package, moved with it."""
    parent, _, child = fullname.rpartition(".")
    if parent in MOVED_MODULES and parent.count(".") == 1:
        return f"{MOVED_MODULES[parent]}.{child}"
    return None


# First in line: a child of a moved package (``migrator.wire.relay``) would otherwise be
# found by the path finder in the new package's folder and load a second time.
if not any(isinstance(finder, _MovedModuleFinder) for finder in sys.meta_path):
    sys.meta_path.insert(0, _MovedModuleFinder())
