"""``python -m migrator``."""

import sys

from migrator.cli import console

if __name__ == "__main__":
    sys.exit(console())
