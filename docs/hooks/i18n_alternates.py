"""MkDocs hook: drop the per-page ``<link rel="alternate" hreflang>`` tags from ``<head>``.

mkdocs-static-i18n points each page's alternates at the same page in the other language.
Material's JavaScript expects those links to be language roots: on every page view it
fetches ``sitemap.xml`` relative to each of them, which for a page-level link is a URL that
does not exist (a 404 and a console error per page). The language selector in the header
already links page to page, and the root ``sitemap.xml`` lists every page with its
``hreflang`` alternates, so the head tags add nothing but the failed requests.
"""

from __future__ import annotations

import re
from typing import Any

_ALTERNATE = re.compile(r'\s*<link rel="alternate" href="[^"]*" hreflang="[^"]*">')


def on_post_page(output: str, page: Any, config: Any, **kwargs: Any) -> str:
    head, sep, body = output.partition("</head>")
    return _ALTERNATE.sub("", head) + sep + body
