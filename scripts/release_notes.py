"""Print the CHANGELOG section of one release; with --check, also make sure a release can be cut.

    python scripts/release_notes.py 0.2.0            # the notes of 0.2.0
    python scripts/release_notes.py --check 0.2.0    # fail unless 0.2.0 is the package version
                                                     # and CHANGELOG.md has a "## 0.2.0" section

The release workflow runs the second form with the pushed tag, so a tag that
disagrees with ``migrator.__version__`` or has no notes never reaches the index.
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
HEADING = re.compile(r"^## \[?(?P<version>[^\]\s]+)\]?(?:\s.*)?$")


def section(changelog: str, version: str) -> str | None:
    """The body of ``## <version>`` (up to the next ``## `` heading), or None."""
    lines = changelog.splitlines()
    start = None
    for index, line in enumerate(lines):
        match = HEADING.match(line)
        if match is None:
            continue
        if start is not None:
            return "\n".join(lines[start:index]).strip() + "\n"
        if match["version"] == version:
            start = index + 1
    return None if start is None else "\n".join(lines[start:]).strip() + "\n"


def package_version() -> str:
    text = (ROOT / "migrator" / "__init__.py").read_text(encoding="utf-8")
    match = re.search(r'^__version__ = "([^"]+)"', text, re.MULTILINE)
    if match is None:
        raise SystemExit("migrator/__init__.py has no __version__")
    return match[1]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("version")
    parser.add_argument(
        "--check", action="store_true", help="also require the package version to match"
    )
    args = parser.parse_args(argv)
    if args.check and package_version() != args.version:
        print(
            f"the tag says {args.version}, migrator.__version__ says {package_version()}",
            file=sys.stderr,
        )
        return 1
    notes = section((ROOT / "CHANGELOG.md").read_text(encoding="utf-8"), args.version)
    if notes is None or not notes.strip():
        print(f"CHANGELOG.md has no section '## {args.version}'", file=sys.stderr)
        return 1
    sys.stdout.write(notes)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
