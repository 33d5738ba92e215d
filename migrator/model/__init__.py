"""The data every stage shares: units and edits, the JSON-RPC envelope, source text,
the session, spans, tool results, findings and the provenance keys.

Imports nothing of the package but its foundation (:mod:`migrator`, :mod:`migrator.errors`).
"""

from __future__ import annotations

from migrator import former_names

# ``migrator.model`` was one module (now :mod:`migrator.model.units`) before 0.1.0;
# its names still resolve here, with a warning, for one release.
__getattr__ = former_names(
    "migrator.model",
    "migrator.model.units",
    {
        "Direction",
        "Kind",
        "message_kind",
        "SourceMessage",
        "Problem",
        "Unit",
        "Edit",
        "apply_edits",
    },
)
