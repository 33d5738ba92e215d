"""MkDocs hook: one search index per language, so a reader searches only their own pages.

mkdocs-static-i18n builds each language into its own folder but merges every page into the
one ``search/search_index.json`` at the root, which every page loads: the Chinese site then
answers with English pages first. After that merge, this hook splits the index by the
location prefix: the root keeps the default language's pages, and each other language
gets ``<locale>/search/search_index.json`` with its own pages, their locations made
relative to ``<locale>/`` and its ``lang`` set to that language alone.

The Chinese pages must load their index from ``zh/``: Material fetches
``search/search_index.json`` relative to the ``base`` in each page's ``__config``, so the
hook also points ``base`` of every page under ``<locale>/`` at that language's root (the
search results' links resolve against the same ``base``). Under ``file://`` Material loads
``search/search_index.js`` instead; it is written next to each index when it exists (the
offline build).
"""

from __future__ import annotations

import json
import posixpath
import re
from pathlib import Path
from typing import Any

from mkdocs.plugins import event_priority

# lunr's language support for a locale, where the locale's own does not work in the browser:
# lunr.zh needs a Node module (@node-rs/jieba). Material splits Chinese queries along the
# words of the index itself, and jieba has segmented the index at build time.
_LUNR_LANGUAGE = {"zh": "en"}

_CONFIG = re.compile(r'(<script id="__config" type="application/json">)(.*?)(</script>)', re.S)


def _other_locales(config: Any) -> list[str]:
    i18n = config.plugins.get("i18n")
    if i18n is None:
        return []
    return [
        language.locale
        for language in i18n.config.languages
        if not language.default and language.build
    ]


def _page_locale(page_url: str, locales: list[str]) -> str | None:
    return next((locale for locale in locales if page_url.startswith(f"{locale}/")), None)


def on_post_page(output: str, page: Any, config: Any, **kwargs: Any) -> str:
    locale = _page_locale(page.url, _other_locales(config))
    if locale is None:
        return output

    def rebase(match: re.Match[str]) -> str:
        settings = json.loads(match.group(2))
        # base leads from the page to the site root; the language's root is one step below
        settings["base"] = posixpath.join(settings["base"], locale, "")
        return match.group(1) + json.dumps(settings) + match.group(3)

    return _CONFIG.sub(rebase, output, count=1)


@event_priority(-200)  # after mkdocs-static-i18n (-100) has merged every language's entries
def on_post_build(config: Any, **kwargs: Any) -> None:
    site = Path(config.site_dir)
    index_path = site / "search" / "search_index.json"
    locales = _other_locales(config)
    if not index_path.is_file() or not locales:
        return
    index = json.loads(index_path.read_text(encoding="utf-8"))
    documents: dict[str | None, list[dict[str, Any]]] = {None: []}
    for document in index["docs"]:
        locale = _page_locale(document["location"], locales)
        if locale is not None:
            document = {**document, "location": document["location"][len(locale) + 1 :]}
        documents.setdefault(locale, []).append(document)
    # the offline build (Material's offline plugin) also reads the index as a script
    as_script = index_path.with_suffix(".js").exists()
    default_lang = [lang for lang in index["config"]["lang"] if lang not in locales] or ["en"]
    _write(index_path, index, default_lang, documents[None], as_script)
    for locale in locales:
        path = site / locale / "search" / "search_index.json"
        lang = [_LUNR_LANGUAGE.get(locale, locale)]
        _write(path, index, lang, documents.get(locale, []), as_script)


def _write(
    path: Path, index: dict[str, Any], lang: list[str], docs: list[Any], as_script: bool
) -> None:
    text = json.dumps(
        {**index, "config": {**index["config"], "lang": lang}, "docs": docs},
        ensure_ascii=False,
        separators=(",", ":"),
    )
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    if as_script:
        path.with_suffix(".js").write_text(f"var __index = {text}", encoding="utf-8")
