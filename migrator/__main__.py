"""``python -m migrator``."""

import sys

from migrator.cli import main

if __name__ == "__main__":
    sys.exit(main())
