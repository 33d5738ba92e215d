"""The data every stage shares: units and edits, the JSON-RPC envelope, source text,
the session, spans, tool results, findings and the provenance keys.

Imports nothing of the package but :mod:`migrator.errors`.
"""

from __future__ import annotations

import importlib
import warnings
from typing import Any

# ``migrator.model`` was one module (now :mod:`migrator.model.units`) before 0.1.0;
# its names still resolve here, with a warning, for one release.
_FORMER_NAMES = {
    "Direction", "Kind", "message_kind", "SourceMessage", "Problem", "Unit", "Edit", "apply_edits",
}  # fmt: skip


def __getattr__(name: str) -> Any:
    if name in _FORMER_NAMES:
        warnings.warn(
            f"migrator.model.{name} moved to migrator.model.units.{name}",
            DeprecationWarning,
            stacklevel=2,
        )
        return getattr(importlib.import_module("migrator.model.units"), name)
    raise AttributeError(f"module 'migrator.model' has no attribute {name!r}")
