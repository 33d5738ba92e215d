"""Screenshot the key pages of a built docs site in both languages, at 1280 px and 390 px.

The docs workflow runs this after ``mkdocs build`` and uploads the PNGs as an artifact, so a
reviewer sees the pages as a reader does without building them. It serves the site on a
local port and drives Debian's Chromium (``/usr/bin/chromium``, or ``--chromium``) with
Playwright; anything the page requests from elsewhere is answered locally, as offline.

Usage: ``python scripts/docs_screenshots.py SITE_DIR OUT_DIR [--chromium PATH]``
(``SITE_DIR`` is the folder ``mkdocs build`` wrote).
"""

from __future__ import annotations

import argparse
import functools
import http.server
import re
import sys
import tempfile
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

# The site is published under this path (site_url in mkdocs.yml).
SITE_PREFIX = "mcp-transcripts"
PAGES = {
    "home": "",
    "error-handling": "explanation/error-handling/",
    "gallery": "explanation/gallery/",
    "tutorial": "migrator/tutorial/",
}
LANGUAGES = {"en": "", "zh": "zh/"}
WIDTHS = (1280, 390)


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        pass


@contextmanager
def serve(site: Path) -> Iterator[str]:
    """Serve ``site`` under ``/mcp-transcripts/`` on a free local port; yield its URL."""
    with tempfile.TemporaryDirectory() as root:
        (Path(root) / SITE_PREFIX).symlink_to(site.resolve(), target_is_directory=True)
        handler = functools.partial(_QuietHandler, directory=root)
        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
        thread = threading.Thread(target=server.serve_forever, daemon=True)
        thread.start()
        try:
            yield f"http://127.0.0.1:{server.server_address[1]}/{SITE_PREFIX}/"
        finally:
            server.shutdown()
            server.server_close()
            thread.join()


def screenshot_all(site: Path, out: Path, chromium: Path) -> list[Path]:
    from playwright.sync_api import sync_playwright

    out.mkdir(parents=True, exist_ok=True)
    written = []
    with serve(site) as url, sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=str(chromium), args=["--no-sandbox", "--disable-gpu"]
        )
        try:
            for width in WIDTHS:
                context = browser.new_context(viewport={"width": width, "height": 900})
                context.route(
                    re.compile(r"^(?!http://127\.0\.0\.1:)"),
                    lambda route: route.fulfill(status=200, body="{}"),
                )
                page = context.new_page()
                for language, prefix in LANGUAGES.items():
                    for name, path in PAGES.items():
                        page.goto(url + prefix + path)
                        target = out / f"{name}-{language}-{width}.png"
                        page.screenshot(path=str(target), full_page=True)
                        written.append(target)
                context.close()
        finally:
            browser.close()
    return written


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("site", type=Path, help="the folder mkdocs build wrote")
    parser.add_argument("out", type=Path, help="where to write the PNG files")
    parser.add_argument("--chromium", type=Path, default=Path("/usr/bin/chromium"))
    args = parser.parse_args(argv)
    if not (args.site / "index.html").is_file():
        parser.error(f"{args.site}: no index.html (build the site first)")
    if not args.chromium.is_file():
        parser.error(f"{args.chromium}: no such browser (apt-get install chromium)")
    for path in screenshot_all(args.site, args.out, args.chromium):
        print(path.as_posix())
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
