#!/bin/sh
# Any CI system: the exit code is the verdict.
#   0  nothing at or above --fail-on
#   1  findings at or above --fail-on
#   2  usage or input error (a file that cannot be read or parsed)
set -e
pip install mcp-transcripts

# Only errors fail the build; warnings and info are still printed.
mcp-transcripts check --fail-on error tests/fixtures/mcp/

# The same findings as JSON, for a report or a dashboard.
mcp-transcripts check --output-format json tests/fixtures/mcp/ > mcp-findings.json || true

# Fail if a fix would change anything, and show the change in the log.
mcp-transcripts fix --diff tests/fixtures/mcp/
