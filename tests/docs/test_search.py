"""Chinese search over the built index: segmented, and limited to the reader's language.

The site ships one search index per language (``docs/hooks/search_per_language.py``):
``search/search_index.json`` for English, ``zh/search/search_index.json`` for Chinese.
jieba segments the Chinese text at build time. These tests tokenise each index with its own
separator and look up Chinese queries the way Material's search worker does: a run of Han
characters in the query is split along the words the index contains (``segment`` below
follows the worker's ``fe``), and each term matches the tokens it starts.
"""

from __future__ import annotations

import json
import re
from functools import cache
from pathlib import Path
from typing import Any

import pytest

HAN = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff]+")
TAG = re.compile(r"<[^>]+>")

# query -> a page (relative to the language's root) that must be among the results
CHINESE_QUERIES = {
    "验证错误": None,
    "协议错误": "explanation/error-handling/",
    "工具执行错误": "explanation/error-handling/",
    "迁移": None,
    "记录格式": "migrator/how-to/formats/",
}


@cache
def _index(path: Path) -> dict[str, Any]:
    return json.loads(path.read_text(encoding="utf-8"))  # type: ignore[no-any-return]


def _tokens(index: dict[str, Any], document: dict[str, Any]) -> set[str]:
    separator = re.compile(index["config"]["separator"])
    text = TAG.sub(" ", f"{document['title']} {document['text']}").lower()
    return {token for token in separator.split(text) if token}


def segment(run: str, vocabulary: set[str]) -> set[str]:
    """Material's search worker's split of a Han run along the index's words (``fe``)."""
    longest = [0] * len(run)
    for start in range(len(run)):
        for end in range(start + 1, len(run)):
            if run[start:end] in vocabulary:
                longest[start] = end - start
    words: set[str] = set()
    stack = [0]
    while stack:
        at = stack.pop()
        for step in range(1, longest[at]):
            if longest[at + step] > longest[at] - step:
                words.add(run[at : at + step])
                stack.append(at + step)
        after = at + longest[at]
        if after < len(run) - 1 and longest[after]:
            stack.append(after)
        words.add(run[at:after])
    return {run} if "" in words else words


def search(index: dict[str, Any], query: str) -> list[dict[str, Any]]:
    """The documents that hold a token starting with every term of ``query``."""
    documents = [(document, _tokens(index, document)) for document in index["docs"]]
    vocabulary = set().union(*(tokens for _, tokens in documents))
    terms: set[str] = set()
    for part in query.lower().split():
        runs = HAN.findall(part)
        terms.update(word for run in runs for word in segment(run, vocabulary))
        terms.update(t for t in re.split(index["config"]["separator"], HAN.sub(" ", part)) if t)
    return [
        document
        for document, tokens in documents
        if all(any(token.startswith(term) for token in tokens) for term in terms)
    ]


@pytest.fixture(scope="module")
def indexes(built_site: Path) -> dict[str, dict[str, Any]]:
    return {
        "en": _index(built_site / "search" / "search_index.json"),
        "zh": _index(built_site / "zh" / "search" / "search_index.json"),
    }


@pytest.mark.parametrize("query", sorted(CHINESE_QUERIES))
def test_chinese_query_finds_chinese_pages(
    indexes: dict[str, dict[str, Any]], built_site: Path, query: str
) -> None:
    results = search(indexes["zh"], query)
    pages = {result["location"].split("#")[0] for result in results}
    print(f"{query}: {len(results)} sections on {len(pages)} zh pages")
    assert results, f"{query!r} finds nothing in the Chinese index"
    for page in pages:
        assert (built_site / "zh" / page / "index.html").is_file(), page
    expected = CHINESE_QUERIES[query]
    if expected is not None:
        assert expected in pages, f"{query!r} misses zh/{expected}: {sorted(pages)}"


def test_chinese_text_is_segmented(indexes: dict[str, dict[str, Any]]) -> None:
    text = " ".join(document["text"] for document in indexes["zh"]["docs"])
    assert "\u200b" in text, "jieba did not run: is the docs extra installed?"
    tokens = set().union(*(_tokens(indexes["zh"], d) for d in indexes["zh"]["docs"]))
    assert {"验证", "错误", "协议"} <= tokens


def test_each_language_searches_only_its_own_pages(indexes: dict[str, dict[str, Any]]) -> None:
    english, chinese = indexes["en"]["docs"], indexes["zh"]["docs"]
    assert english and chinese
    assert not [d["location"] for d in english if d["location"].startswith("zh/")]
    assert not [d["location"] for d in chinese if d["location"].startswith("zh/")]
    # no English page answers a Chinese query on the English site, and the reverse
    assert not search(indexes["en"], "验证错误")
    han = [d for d in chinese if HAN.search(d["title"] + d["text"])]
    assert len(han) / len(chinese) > 0.8, "the Chinese index is mostly English pages"


def test_chinese_pages_load_the_chinese_index(built_site: Path) -> None:
    page = (built_site / "zh" / "explanation" / "error-handling" / "index.html").read_text(
        encoding="utf-8"
    )
    settings = json.loads(re.search(r'id="__config"[^>]*>(.*?)</script>', page, re.S)[1])  # type: ignore[index]
    assert settings["base"] == "../../../zh/"
