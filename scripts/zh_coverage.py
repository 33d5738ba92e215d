"""How much of each page of the built Chinese site is still English.

Usage: ``python scripts/zh_coverage.py SITE_DIR [--min-english N]``

Counts the text blocks of each page's article (paragraphs, list items, table cells,
headings, definition terms and code blocks) that hold prose, and how many of them have
no CJK character at all. A block holds prose when, outside its inline code, it has two
words or more; a code block when one of its lines has four words in a row (a help text,
not a command line). Option names, numbers and commands are neither language, so they
are not counted. Prints one line per page, worst first; with ``--min-english N`` only the
pages with at least N English blocks.
"""

from __future__ import annotations

import argparse
import re
import sys
from html.parser import HTMLParser
from pathlib import Path

BLOCKS = {"p", "li", "td", "th", "dt", "dd", "pre", "h1", "h2", "h3", "h4", "h5", "h6"}
CJK = re.compile(r"[\u3000-\u303f\u3400-\u4dbf\u4e00-\u9fff\uff00-\uffef]")
# Headings end with a permalink sign; it is not text.
PERMALINK = "¶"
PRE = "\x00pre\x00"  # marks a code block's text
CODE_MARK = "\x00"  # stands for inline code
WORD = re.compile(r"[A-Za-z][a-z]+|[A-Z]{2,}")
HELP_LINE = re.compile(r"(?:[A-Za-z][a-z']+[ ,;]+){3}[A-Za-z][a-z]+")


class _Blocks(HTMLParser):
    """The text of each block element inside ``<article>``; nested blocks are their own."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.blocks: list[str] = []
        self._stack: list[list[str]] = []
        self._article = 0
        self._pre = 0
        self._code = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "article":
            self._article += 1
        if not self._article or self._pre:
            return
        if tag in BLOCKS:
            self._stack.append([])
            if tag == "pre":
                self._pre += 1
                self._stack[-1].append(PRE)
        elif tag == "code":
            self._code += 1

    def handle_endtag(self, tag: str) -> None:
        if tag == "article":
            self._article -= 1
        if not self._article:
            return
        if tag == "pre" and self._pre:
            self._pre -= 1
            if self._pre:
                return
        elif self._pre:
            return
        if tag == "code" and self._code:
            self._code -= 1
            return
        if tag in BLOCKS and self._stack:
            raw = "".join(self._stack.pop()).replace(PERMALINK, "")
            text = raw if raw.startswith(PRE) else " ".join(raw.split())
            if text.strip():
                self.blocks.append(text)

    def handle_data(self, data: str) -> None:
        if self._stack:
            # inline code is kept apart: it is neither language (a code block keeps it all)
            self._stack[-1].append(data if self._pre or not self._code else CODE_MARK)


def page_blocks(html: str) -> list[str]:
    parser = _Blocks()
    parser.feed(html)
    return parser.blocks


def prose(block: str) -> bool:
    """Whether ``block`` holds words of some language (see the module's docstring)."""
    if block.startswith(PRE):
        return any(HELP_LINE.search(line) for line in block.splitlines())
    return bool(CJK.search(block)) or len(WORD.findall(block.replace(CODE_MARK, " "))) >= 2


def english_blocks(blocks: list[str]) -> list[str]:
    """The prose blocks without a CJK character."""
    return [
        block.replace(PRE, "").replace(CODE_MARK, "`…`")
        for block in blocks
        if prose(block) and not CJK.search(block)
    ]


def measure(site: Path) -> list[tuple[str, int, int]]:
    """``(page, English blocks, all blocks)`` for each page of ``site/zh``, worst first."""
    rows = []
    for page in sorted((site / "zh").rglob("index.html")):
        if "search" in page.parts:
            continue
        blocks = [block for block in page_blocks(page.read_text(encoding="utf-8")) if prose(block)]
        rows.append((str(page.relative_to(site).parent), len(english_blocks(blocks)), len(blocks)))
    return sorted(rows, key=lambda row: (-row[1] / max(row[2], 1), row[0]))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("site", type=Path, help="the built site (mkdocs build -d SITE)")
    parser.add_argument("--min-english", type=int, default=0, metavar="N")
    parser.add_argument("--show", metavar="PAGE", help="print the English blocks of one page")
    args = parser.parse_args(argv)
    if not (args.site / "zh").is_dir():
        print(f"{args.site}: no zh/ folder; build the site first", file=sys.stderr)
        return 2
    if args.show:
        html = (args.site / args.show / "index.html").read_text(encoding="utf-8")
        for block in english_blocks(page_blocks(html)):
            print(block[:160])
        return 0
    for page, english, total in measure(args.site):
        if english >= args.min_english:
            print(f"{english:4} of {total:4} English  {page}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
