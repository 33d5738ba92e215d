"""MkDocs hook: give every heading of a Chinese page the ASCII anchor of its English twin.

Python-Markdown's ``toc`` turns a Chinese heading into an anchor made of its CJK text
percent-encoded in the URL, or nothing useful at all, and it changes whenever the
translation is reworded. A link to ``#exit-codes`` should work in both languages. So on
each ``page.zh.md``, a heading without an explicit ``{#id}`` gets the anchor of the
heading at the same position in ``page.md`` (its explicit id, or the slug ``toc`` makes of
its text). Pages whose heading outline differs from the English one are left alone;
``tests/docs/test_pages.py`` lists them.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from markdown.extensions.toc import slugify

_FENCE = re.compile(r"^\s*(```|~~~)")
_HEADING = re.compile(r"^(?P<hashes>#{1,6}) (?P<text>.*?)(?:\s*\{#(?P<id>[^}\s]+)[^}]*\})?\s*$")


def headings(markdown: str) -> list[tuple[int, str, str | None, int]]:
    """ATX headings outside fenced code: (level, text, explicit id, line index)."""
    found = []
    fence: str | None = None
    for index, line in enumerate(markdown.splitlines()):
        match = _FENCE.match(line)
        if match:
            fence = None if fence == match.group(1) else (fence or match.group(1))
            continue
        if fence is None:
            heading = _HEADING.match(line)
            if heading:
                found.append((len(heading["hashes"]), heading["text"], heading["id"], index))
    return found


def english_anchors(markdown: str) -> list[tuple[int, str]]:
    """(level, anchor) of each heading, as the English page gets them."""
    seen: dict[str, int] = {}
    out = []
    for level, text, explicit, _ in headings(markdown):
        anchor = explicit or slugify(re.sub(r"[`*_]|<[^>]+>", "", text), "-")
        if anchor in seen:  # toc's own way of keeping ids unique
            seen[anchor] += 1
            anchor = f"{anchor}_{seen[anchor]}"
        else:
            seen[anchor] = 0
        out.append((level, anchor))
    return out


def anchored(zh_markdown: str, en_markdown: str) -> str | None:
    """The Chinese page with ASCII anchors added, or ``None`` if the outlines differ."""
    zh = headings(zh_markdown)
    en = english_anchors(en_markdown)
    if [level for level, *_ in zh] != [level for level, _ in en]:
        return None
    lines = zh_markdown.splitlines(keepends=True)
    for (level, text, explicit, index), (_, anchor) in zip(zh, en, strict=True):
        if explicit is None:
            ending = "\n" if lines[index].endswith("\n") else ""
            lines[index] = f"{'#' * level} {text} {{#{anchor}}}{ending}"
    return "".join(lines)


def on_page_markdown(markdown: str, page: Any, config: Any, **kwargs: Any) -> str:
    src = page.file.src_uri
    if not src.endswith(".zh.md"):
        return markdown
    english = Path(config.docs_dir) / src.replace(".zh.md", ".md")
    if not english.is_file():
        return markdown
    return anchored(markdown, english.read_text(encoding="utf-8")) or markdown
