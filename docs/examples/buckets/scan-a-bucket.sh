#!/bin/sh
# Check a day of Obot's MCP audit export and an hour of Collector traces where they lie, in S3.
# Credentials and the endpoint come the way every AWS client finds them: a profile
# (AWS_PROFILE), the environment, or the instance's role; AWS_ENDPOINT_URL for an
# S3-compatible store (MinIO, Ceph).
set -u
AUDIT_BUCKET=${AUDIT_BUCKET:-acme-obot-audit}
TELEMETRY_BUCKET=${TELEMETRY_BUCKET:-acme-telemetry}
status=0

# One day of the audit export: the prefix is walked like a folder, and the findings
# (each naming its object's URL) go to a JSON report for the CI job to keep.
mcp-transcripts check --format json \
  "s3://$AUDIT_BUCKET/mcp-audit-logs/2026/01/15/" > obot-day.json || status=$?

# One hour of traces: the gzip objects are read as they are.
mcp-transcripts check \
  "s3://$TELEMETRY_BUCKET/traces/year=2026/month=01/day=15/hour=10/" || status=$?

exit "$status"
