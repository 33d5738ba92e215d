"""MkDocs hook: draw the package's layers from the layer table the tests enforce.

``docs/migrator/contributing.md`` holds the layer table between ``<!-- layers:start -->``
and ``<!-- layers:end -->``; ``tests/test_layers.py`` reads the same rows and fails on an
import that runs the wrong way. A page with ``<!-- layers:diagram -->`` gets an inline
SVG of those rows (top layer first, siblings side by side), so the picture cannot drift
from the rule and needs no script or network to show.
"""

from __future__ import annotations

import html
import re
from pathlib import Path
from typing import Any

MARKER = "<!-- layers:diagram -->"
TABLE_PAGE = Path(__file__).resolve().parents[1] / "migrator" / "contributing.md"

ROW_HEIGHT = 46
BOX_HEIGHT = 30
WIDTH = 640


def layer_rows() -> dict[int, list[tuple[str, list[str]]]]:
    """Layer number -> the rows of that layer: (name, module patterns)."""
    text = TABLE_PAGE.read_text(encoding="utf-8")
    table = text.split("<!-- layers:start -->", 1)[1].split("<!-- layers:end -->", 1)[0]
    rows: dict[int, list[tuple[str, list[str]]]] = {}
    for line in table.strip().splitlines()[2:]:
        number, name, modules = (cell.strip() for cell in line.strip().strip("|").split("|"))
        rows.setdefault(int(number), []).append((name, re.findall(r"`([^`]+)`", modules)))
    return rows


def label(patterns: list[str]) -> str:
    """What a row holds, as a contributor sees it in the tree: ``engine/``, ``api.py``."""
    shown = []
    for pattern in patterns:
        parts = pattern.split(".")
        if len(parts) == 1:
            shown.append("__init__.py")  # the package itself: its version and import aliases
            continue
        if pattern.endswith(".*"):
            continue  # the folder's own pattern says it
        name = parts[-1]
        folder = pattern + ".*" in patterns
        shown.append(f"{name}/" if folder else f"{name}.py")
    return ", ".join(dict.fromkeys(shown))


def render() -> str:
    rows = layer_rows()
    layers = sorted(rows, reverse=True)  # the command line on top, the foundation at the bottom
    height = len(layers) * ROW_HEIGHT + 8
    parts = [
        f'<svg class="layers-diagram" role="img" viewBox="0 0 {WIDTH} {height}" '
        f'width="100%" style="max-width:{WIDTH}px" xmlns="http://www.w3.org/2000/svg">',
        "<title>The package's layers: each imports only the layers below it</title>",
        '<defs><marker id="layers-arrow" viewBox="0 0 8 8" refX="7" refY="4" '
        'markerWidth="6" markerHeight="6" orient="auto"><path d="M0,0 L8,4 L0,8 z" '
        'fill="currentColor"/></marker></defs>',
    ]
    for index, number in enumerate(layers):
        siblings = rows[number]
        top = 4 + index * ROW_HEIGHT
        gap = 12
        box = (WIDTH - 60 - gap * (len(siblings) - 1)) / len(siblings)
        for position, (_name, patterns) in enumerate(siblings):
            left = 52 + position * (box + gap)
            parts.append(
                f'<rect x="{left:.0f}" y="{top}" width="{box:.0f}" height="{BOX_HEIGHT}" rx="5" '
                'fill="none" stroke="currentColor" stroke-opacity="0.55"/>'
            )
            parts.append(
                f'<text x="{left + box / 2:.0f}" y="{top + 20}" text-anchor="middle" '
                f'font-family="monospace" font-size="13" fill="currentColor">'
                f"{html.escape(label(patterns))}</text>"
            )
        parts.append(
            f'<text x="8" y="{top + 20}" font-family="sans-serif" font-size="12" '
            f'fill="currentColor" fill-opacity="0.7">{number}</text>'
        )
        if index < len(layers) - 1:
            parts.append(
                f'<line x1="30" y1="{top + BOX_HEIGHT - 4}" x2="30" y2="{top + ROW_HEIGHT + 2}" '
                'stroke="currentColor" stroke-opacity="0.5" marker-end="url(#layers-arrow)"/>'
            )
    parts.append("</svg>")
    return "".join(parts)


def on_page_markdown(markdown: str, page: Any, config: Any, files: Any, **kwargs: Any) -> str:
    if MARKER in markdown:
        # In a <div>, Markdown leaves the drawing alone (an <svg> alone would be read as
        # inline text, and names such as __main__.py would turn bold).
        markdown = markdown.replace(MARKER, f'<div class="layers-diagram">{render()}</div>')
    return markdown
