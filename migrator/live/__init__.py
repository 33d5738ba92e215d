"""Live traffic: a transparent stdio relay between an MCP client and its server.

``mcp-transcripts record`` and ``mcp-transcripts proxy`` sit where the server was: the
client starts them instead of the server, they start the server and pass every
line through.

* :mod:`migrator.live.relay`: the relay itself (processes, pipes, signals, exit codes).
* :mod:`migrator.live.recording`: appending the traffic to a file, wire or envelope form.
* :mod:`migrator.live.fixer`: the engine's :class:`~migrator.engine.pipeline.Pipeline` as a line hook.

The submodules are imported where they are used, so ``record`` stays light.
"""
