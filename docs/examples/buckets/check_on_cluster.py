"""Check objects on a dask.distributed cluster from Python; print one JSON report.

Usage: python check_on_cluster.py SCHEDULER_ADDRESS URL_OR_PATH...
"""

import sys

from distributed import Client

from migrator import api


def main(scheduler: str, paths: list[str]) -> int:
    with Client(scheduler) as client:
        # One task per object (a large one is cut at its session starts); results come back
        # in the order of a local run, and a task that keeps failing is an error of its file.
        result = api.check_on_cluster(paths, client)
    api.write_report(result, sys.stdout, "json")
    return result.exit_code()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2:]))
