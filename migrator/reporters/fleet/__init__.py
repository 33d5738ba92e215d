"""How ``mcp-transcripts report`` prints the fleet: text, json, markdown or html.

Every renderer reads the same JSON document
(:meth:`migrator.engine.fleet.Fleet.document`, described by ``schemas/report.schema.json``),
so the four outputs cannot disagree: the HTML page and the job summary show what the
JSON says. Renderers never compute a verdict.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from enum import Enum
from typing import Any, TextIO

__all__ = ["LANGUAGES", "ReportFormat", "render"]

LANGUAGES = ("en", "zh")


class ReportFormat(str, Enum):
    """The values of ``report --output-format``."""

    TEXT = "text"
    JSON = "json"
    MARKDOWN = "markdown"
    HTML = "html"


def _json(document: dict[str, Any], out: TextIO, lang: str) -> None:
    json.dump(document, out, ensure_ascii=False, indent=2)
    out.write("\n")


def _renderer(fmt: ReportFormat) -> Callable[[dict[str, Any], TextIO, str], None]:
    if fmt is ReportFormat.JSON:
        return _json
    if fmt is ReportFormat.TEXT:
        from migrator.reporters.fleet.text import render_text

        return render_text
    if fmt is ReportFormat.MARKDOWN:
        from migrator.reporters.fleet.markdown import render_markdown

        return render_markdown
    from migrator.reporters.fleet.html import render_html

    return render_html


def render(
    document: dict[str, Any], fmt: str | ReportFormat, out: TextIO, lang: str = "en"
) -> None:
    """Write the report document in one format (``lang`` applies to markdown and html)."""
    _renderer(ReportFormat(fmt))(document, out, lang)
