from migrator.cli import main
from migrator.rules.registry import all_rules

# The same as `mcp-transcripts check --fail-on error traces/`; returns the exit code.
exit_code = main(["check", "--fail-on", "error", "traces/"])

for rule in all_rules():
    print(rule.code, rule.slug, rule.default_severity.value, rule.fix.value)
