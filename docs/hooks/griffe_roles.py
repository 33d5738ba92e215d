"""Griffe extension: turn Sphinx roles in docstrings into mkdocstrings cross-references.

The code's docstrings say ``:func:`merge_reports``` (read well in ``help()`` and editors),
which Markdown would print literally. Each role becomes ``[`merge_reports`][merge_reports]``,
resolved by mkdocstrings' scoped cross-references from where the docstring sits. Only public
functions and classes are linked: attributes and module constants get no heading of their
own in the reference, so those become plain code.
"""

from __future__ import annotations

import functools
import re
from typing import Any

import griffe

_ROLE = re.compile(r":(?:func|class|meth|attr|data|mod|exc|obj):`~?([A-Za-z_][\w.]*)`")


class SphinxRoles(griffe.Extension):
    """Rewrite ``:role:`name``` in every docstring of the loaded package."""

    def on_package(self, *, pkg: griffe.Module, **kwargs: Any) -> None:
        for obj in _walk(pkg):
            if obj.docstring is not None:
                obj.docstring.value = _ROLE.sub(
                    functools.partial(_replace, obj), obj.docstring.value
                )


def _replace(obj: griffe.Object, match: re.Match[str]) -> str:
    return _reference(obj, match.group(1))


def _reference(obj: griffe.Object, name: str) -> str:
    scope = obj if obj.is_module or obj.is_class else obj.parent
    head = name.split(".", 1)[0]
    while scope is not None:
        if head in scope.members and not head.startswith("_"):
            target = scope.members[head]
            if target.is_public and (target.is_function or target.is_class) and "." not in name:
                return f"[`{name}`][{scope.path}.{name}]"
            break
        scope = scope.parent
    return f"`{name}`"


def _walk(obj: griffe.Object | griffe.Alias) -> Any:
    if isinstance(obj, griffe.Alias):
        return
    yield obj
    for member in obj.members.values():
        if not isinstance(member, griffe.Alias):
            yield from _walk(member)
