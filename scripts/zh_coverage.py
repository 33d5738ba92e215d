"""How much of each page of the built Chinese site is still English.

Usage: ``python scripts/zh_coverage.py SITE_DIR [--min-english N]``

Counts the text blocks of each page's article (paragraphs, list items, table cells,
headings, definition terms and code blocks) that hold prose, and how many of them have
no CJK character at all. A block holds prose when, outside its inline code, it has two
words or more; a code block when one of its lines has four words in a row (a help text,
not a command line). Option names, numbers and commands are neither language, so they
are not counted. Prints one line per page, worst first; with ``--min-english N`` only the
pages with at least N English blocks. Text inside an element marked ``lang="en"`` (the
English docstrings of the API reference, quotations kept in English) is English on
purpose and is counted apart, as "marked".
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
VOID = {"br", "img", "hr", "input", "meta", "link", "wbr", "col", "area", "source"}
IDENTIFIER = re.compile(r"\S*[A-Za-z][._/]\S*")  # migrator.api, path/to, snake_case
HELP_LINE = re.compile(r"(?:[A-Za-z][a-z']+[ ,;]+){3}[A-Za-z][a-z]+")


class _Blocks(HTMLParser):
    """The text of each block element inside ``<article>``; nested blocks are their own.

    Each open element carries the language it is in (its ``lang``, else its parent's);
    blocks in English marked as such are only counted (``marked``).
    """

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.blocks: list[str] = []
        self.marked = 0
        self._stack: list[list[str]] = []
        self._open: list[tuple[str, bool]] = []  # (tag, inside lang="en")
        self._article = 0
        self._pre = 0
        self._code = 0
        self._highlight = ""  # the language of the code block being opened (if it says)

    def _english(self) -> bool:
        return bool(self._open) and self._open[-1][1]

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "article":
            self._article += 1
        if not self._article:
            return
        attributes = dict(attrs)
        lang = attributes.get("lang") or ""
        english = lang == "en" or (not lang and self._english())
        if tag not in VOID:
            self._open.append((tag, english))
        classes = attributes.get("class") or ""
        if tag == "div" and "highlight" in classes.split():
            found = re.search(r"language-(\S+)", classes)
            self._highlight = found.group(1) if found else ""
        if self._pre:
            if tag == "span" and classes and self._stack:
                self._stack[-1][0] = PRE + "code\n"  # highlighted tokens: code, not text
            return
        if english:
            self.marked += tag in BLOCKS
            return
        if tag in BLOCKS:
            self._stack.append([])
            if tag == "pre":
                self._pre += 1
                self._stack[-1].append(PRE + self._highlight + "\n")
        elif tag == "code":
            self._code += 1

    def handle_endtag(self, tag: str) -> None:
        if tag == "article":
            self._article -= 1
        if not self._article:
            return
        english = self._english()
        if any(name == tag for name, _ in self._open):
            while self._open.pop()[0] != tag:
                pass
        if tag == "pre" and self._pre:
            self._pre -= 1
            if self._pre:
                return
        elif self._pre or english:
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
        if self._stack and (self._pre or not self._english()):
            # inline code is kept apart: it is neither language (a code block keeps it all)
            self._stack[-1].append(data if self._pre or not self._code else CODE_MARK)


def page_blocks(html: str) -> list[str]:
    return _parse(html).blocks


def _parse(html: str) -> _Blocks:
    parser = _Blocks()
    parser.feed(html)
    return parser


def prose(block: str) -> bool:
    """Whether ``block`` holds words of some language (see the module's docstring)."""
    if block.startswith(PRE):
        # help and output (text blocks) can be prose; code and its comments are code
        language, _, body = block[len(PRE) :].partition("\n")
        return language in ("", "text") and any(
            HELP_LINE.search(line) for line in body.splitlines()
        )
    text = IDENTIFIER.sub(" ", block.replace(CODE_MARK, " "))
    return bool(CJK.search(block)) or len(WORD.findall(text)) >= 2


def english_blocks(blocks: list[str]) -> list[str]:
    """The prose blocks without a CJK character."""
    return [
        block.split("\n", 1)[-1] if block.startswith(PRE) else block.replace(CODE_MARK, "`…`")
        for block in blocks
        if prose(block) and not CJK.search(block)
    ]


def measure(site: Path) -> list[tuple[str, int, int, int]]:
    """``(page, English blocks, all blocks, marked English blocks)`` per page of ``site/zh``, worst first."""
    rows = []
    for page in sorted((site / "zh").rglob("index.html")):
        if "search" in page.parts:
            continue
        parsed = _parse(page.read_text(encoding="utf-8"))
        blocks = [block for block in parsed.blocks if prose(block)]
        name = str(page.relative_to(site).parent)
        rows.append((name, len(english_blocks(blocks)), len(blocks), parsed.marked))
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
    for page, english, total, marked in measure(args.site):
        if english >= args.min_english:
            note = f"  (+{marked} marked English)" if marked else ""
            print(f"{english:4} of {total:4} English  {page}{note}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
