"""``mcp-transcripts probe``: ask a live server how it answers invalid tool arguments.

The parts, in the order a probe uses them: :mod:`~migrator.live.probe.transport`
(stdio or Streamable HTTP, every message recorded), :mod:`~migrator.live.probe.client`
(initialize, tools/list, tools/call), :mod:`~migrator.live.probe.cases` (invalid
arguments from each tool's inputSchema), :mod:`~migrator.live.probe.verdicts` (what
each answer means), :mod:`~migrator.live.probe.prober` (one run, with ``check``'s
findings on its transcript) and :mod:`~migrator.live.probe.table` (the terminal table).
"""
