"""Globs for ``include``, ``exclude`` and ``per-file-ignores``, matched against relative paths.

Globs are relative to the configuration file's folder. A glob without a ``/``
matches a file or folder name at any depth; ``**`` matches any number of
folders (``legacy/**`` is everything under ``legacy``).

Example:
    >>> from migrator.engine.globs import glob_matcher
    >>> matches = glob_matcher(["legacy/**", "*.ndjson"])
    >>> matches("legacy/2024/a.jsonl"), matches("x/y.ndjson"), matches("a.jsonl")
    (True, True, False)
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable

__all__ = ["glob_matcher", "glob_regex"]


def glob_regex(pattern: str) -> str:
    """The regular expression for one glob, matched against a relative ``/`` path.

    ``*`` and ``?`` stay within a folder name, ``**`` crosses folders, ``[...]``
    is a character class (``[!...]`` negated). A glob without ``/`` (apart from a
    trailing one) matches at any depth; a leading ``/`` anchors it to the root.
    """
    text = pattern.strip()
    if text.startswith("./"):
        text = text[2:]
    anchored = text.startswith("/") or "/" in text.rstrip("/")
    text = text.strip("/")
    out: list[str] = []
    i = 0
    while i < len(text):
        char = text[i]
        if text.startswith("**", i):
            i += 2
            if text.startswith("/", i):
                out.append("(?:[^/]+/)*")
                i += 1
            else:
                out.append(".*")
            continue
        if char == "*":
            out.append("[^/]*")
        elif char == "?":
            out.append("[^/]")
        elif char == "[" and (end := text.find("]", i + 2)) != -1:
            body = text[i + 1 : end]
            if body.startswith("!"):
                body = "^" + body[1:]
            out.append("[" + body.replace("\\", "\\\\") + "]")
            i = end + 1
            continue
        else:
            out.append(re.escape(char))
        i += 1
    prefix = "" if anchored else "(?:[^/]+/)*"
    return prefix + "".join(out)


def glob_matcher(patterns: Iterable[str]) -> Callable[[str], bool]:
    """A predicate: does a relative ``/`` path match any of the globs?"""
    regexes = [glob_regex(p) for p in patterns]
    if not regexes:
        return lambda path: False
    compiled = re.compile("|".join(f"(?:{r})" for r in regexes))
    return lambda path: compiled.fullmatch(path) is not None
