"""Check every transcript under a folder on a process pool; print one SARIF report."""

import sys
from concurrent.futures import ProcessPoolExecutor

from migrator import api


def main(folder: str) -> int:
    paths = list(api.iter_transcripts([folder]))
    with ProcessPoolExecutor() as pool:
        # One task per file; a file's error comes back as a value, in order.
        merged = api.merge_reports(pool.map(api.try_check_file, paths))
    api.write_report(merged, sys.stdout, "sarif")
    return 1 if merged.findings or merged.errors else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
