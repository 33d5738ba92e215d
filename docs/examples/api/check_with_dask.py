"""Check every transcript under a folder with a Dask bag; print one JSON report."""

import sys

import dask.bag

from migrator import api


def main(folder: str) -> int:
    paths = [str(path) for path in api.iter_transcripts([folder])]
    bag = dask.bag.from_sequence(paths, partition_size=1)
    # The local process scheduler here; a distributed Client runs the same graph.
    results = bag.map(api.try_check_file).compute(scheduler="processes")
    merged = api.merge_reports(results)
    api.write_report(merged, sys.stdout, "json")
    return 1 if merged.findings or merged.errors else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
