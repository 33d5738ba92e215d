"""MkDocs hook: drop the per-page ``<link rel="alternate" hreflang>`` tags from ``<head>``,
and make the language selector's links relative.

mkdocs-static-i18n points each page's alternates at the same page in the other language.
Material's JavaScript expects those links to be language roots: on every page view it
fetches ``sitemap.xml`` relative to each of them, which for a page-level link is a URL that
does not exist (a 404 and a console error per page). The language selector in the header
already links page to page, and the root ``sitemap.xml`` lists every page with its
``hreflang`` alternates, so the head tags add nothing but the failed requests.

On the home pages mkdocs-static-i18n links each language's root absolutely
(``/mcp-transcripts/zh/``), which leads nowhere when the site is served from another path or
opened from the file system; those links are rewritten relative to the page. The 404 page
keeps absolute links: it is served at whatever path was not found.
"""

from __future__ import annotations

import posixpath
import re
from typing import Any
from urllib.parse import urlsplit

_ALTERNATE = re.compile(r'\s*<link rel="alternate" href="[^"]*" hreflang="[^"]*">')
_SELECTOR_LINK = re.compile(r'(<a href=")(/[^"]*)(" hreflang=")')


def relative_link(target: str, page_url: str, site_path: str) -> str:
    """``target``, an absolute path under ``site_path``, relative to the page at ``page_url``."""
    if not target.startswith(site_path):
        return target
    path = target[len(site_path) :]
    folder = page_url if page_url.endswith("/") else posixpath.dirname(page_url)
    relative = posixpath.relpath(path or ".", folder or ".")
    return relative + "/" if path.endswith("/") or not path else relative


def on_post_page(output: str, page: Any, config: Any, **kwargs: Any) -> str:
    head, sep, body = output.partition("</head>")
    if page.url != "404.html":
        site_path = urlsplit(config.site_url or "/").path or "/"
        body = _SELECTOR_LINK.sub(
            lambda m: m[1] + relative_link(m[2], page.url, site_path) + m[3], body
        )
    return _ALTERNATE.sub("", head) + sep + body
