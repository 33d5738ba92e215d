"""``mcp-transcripts probe``: ask a live server how it answers invalid tool arguments.

The parts, in the order a probe uses them: :mod:`~migrator.probe.transport`
(stdio or Streamable HTTP, every message recorded), :mod:`~migrator.probe.session`
(initialize, tools/list, tools/call), :mod:`~migrator.probe.cases` (invalid
arguments from each tool's inputSchema), :mod:`~migrator.probe.verdicts` (what
each answer means), :mod:`~migrator.probe.runner` (one run, with ``check``'s
findings on its transcript) and :mod:`~migrator.probe.table` (the terminal table).
"""
