"""The rule registry.

One rule per module, each with a stable code and slug (these are a contract:
users select, ignore and baseline by them). A rule module's docstring is its
documentation: ``mcp-transcripts explain`` prints it and the docs site renders it,
one page per rule (``migrator.rules.page``). Write it as prose (what the rule does),
then ``## Before`` (a whole small transcript that raises the rule), ``## After`` (for
a rule with a fix, exactly what ``fix`` writes; ``tests/test_rule_docs.py`` runs it),
``## Why`` and ``## Limits``. ``summary_zh`` and ``why_zh`` carry the Chinese page's
summary and why. ``found_in`` says what raises the rule, and so what its example is: a
transcript, an OpenTelemetry trace (the Before is one OTLP JSON export request, the After
the span as a migrated server records it), or only a live ``probe`` (the Before is the
call the probe sent). A new rule also gets a case folder ``tests/rules/<CODE>/``.
"""

from __future__ import annotations

import importlib
from typing import Any

# The registry's names, for ``from migrator.rules.registry import all_rules``: looked up on first
# use, so that importing a rule's base types does not import every rule.
_REGISTRY_NAMES = {
    "FoundIn", "RuleInfo", "RuleSet", "all_rules", "get_rule", "resolve_selection", "rule_set",
    "span_rules", "tool_call_rules", "validation_rules",
}  # fmt: skip


def __getattr__(name: str) -> Any:
    if name in _REGISTRY_NAMES:
        return getattr(importlib.import_module("migrator.rules.registry"), name)
    raise AttributeError(f"module 'migrator.rules' has no attribute {name!r}")
