"""What a ``tools/call`` error really is: the SDKs' wording, which argument a message
blames, the classifier, the JSON Schemas and their validators, the official MCP schema.

Imports only :mod:`migrator.model` (and :mod:`migrator.errors`).
"""
