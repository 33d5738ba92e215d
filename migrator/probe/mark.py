"""How a probe call says it is one: a key in the request's ``params._meta``.

Kept apart from the rules that read it (MCP501, MCP502): importing a rule
module registers it, which the probe must not do by the way.
"""

from __future__ import annotations

from typing import Any

PROBE_CASE_META = "io.github.mcp-transcripts/probe-case"
"""The ``params._meta`` key that marks a tools/call the probe sent on purpose."""


def probe_case(payload: Any) -> dict[str, Any] | None:
    """The probe's description of a case, when this tools/call request is one."""
    params = payload.get("params") if isinstance(payload, dict) else None
    meta = params.get("_meta") if isinstance(params, dict) else None
    case = meta.get(PROBE_CASE_META) if isinstance(meta, dict) else None
    return case if isinstance(case, dict) else None
