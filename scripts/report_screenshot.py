"""Make the screenshot of the HTML report the how-to shows (docs/assets/report/).

    python scripts/report_screenshot.py

Reports the recorded fixtures (tests/fixtures/recorded/ and tests/fixtures/fleet/) as HTML
and photographs the page in Debian's headless Chromium at 1280 px and at 390 px.
"""

from __future__ import annotations

import shutil
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from migrator.cli import main  # noqa: E402

CHROMIUM = "/usr/bin/chromium"
OUT = ROOT / "docs" / "assets" / "report"


def shoot() -> None:
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as scratch:
        folder = Path(scratch) / "recordings"
        folder.mkdir()
        for source in [
            *(ROOT / "tests/fixtures/recorded").glob("*.jsonl"),
            *(ROOT / "tests/fixtures/fleet").glob("*.jsonl"),
        ]:
            shutil.copy(source, folder / source.name)
        page_file = Path(scratch) / "fleet.html"
        import os

        here = Path.cwd()
        os.chdir(scratch)  # paths in the page relative to the folder, as a user would run it
        try:
            code = main(
                ["report", "-q", "--output-format", "html", "-o", "fleet.html", "recordings"]
            )
        finally:
            os.chdir(here)
        assert code == 0, code
        OUT.mkdir(parents=True, exist_ok=True)
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
            for width, height, name in (
                (1280, 900, "report-1280.png"),
                (390, 844, "report-390.png"),
            ):
                page = browser.new_page(viewport={"width": width, "height": height})
                page.goto(page_file.as_uri())
                page.screenshot(path=str(OUT / name))
                page.close()
            browser.close()


if __name__ == "__main__":
    shoot()
