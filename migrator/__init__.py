"""mcp-transcripts: migrate MCP transcripts to SEP-1303 tool error handling."""

__version__ = "0.1.0.dev0"
