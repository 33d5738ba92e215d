"""Edits to files: the validated rewrite of an answer, unified diffs, and the one
atomic writer every file the project writes goes through.

Imports :mod:`migrator.judge` and :mod:`migrator.model`.
"""
