"""``mcp-transcripts check``: report findings."""

from __future__ import annotations

import argparse
from dataclasses import replace
from operator import itemgetter
from pathlib import Path

from migrator.commands import IO, formatter
from migrator.commands.common import (
    FileTask,
    add_input_options,
    config_for,
    options_for,
    options_from_args,
    run_files,
)
from migrator.exitcodes import ERROR as EXIT_ERROR
from migrator.exitcodes import FINDINGS as EXIT_FINDINGS
from migrator.exitcodes import OK as EXIT_OK
from migrator.findings import FindingList, Severity
from migrator.reporters import RunResult

NAME = "check"
HELP = "report findings"
FAIL_ON_CHOICES = ("error", "warning", "info", "never")
DEFAULT_FAIL_ON = "warning"

EPILOG = """\
output formats:
  text    path:line:col: CODE message (coloured on a terminal; NO_COLOR, FORCE_COLOR)
  json    one document (schemas/findings.schema.json); jsonl: one finding per line
  github  GitHub Actions annotations; auto: github under GitHub Actions, else text
  sarif   SARIF 2.1.0 (GitHub code scanning); junit: JUnit XML; gitlab: Code Quality

baselines:
  mcp-transcripts check --write-baseline mcp-baseline.json traces/   # accept today's findings
  mcp-transcripts check --baseline mcp-baseline.json traces/         # fail on new or stale ones"""


def configure(parser: argparse.ArgumentParser) -> None:
    """Add check's arguments."""
    from migrator.reporters import OutputFormat

    parser.description = "Report every finding, sorted, one per line (or in another output format)."
    parser.formatter_class = formatter()
    parser.epilog = EPILOG + "\n\n" + (parser.epilog or "")
    add_input_options(parser)
    parser.add_argument("--output-format", "--format", dest="output_format", choices=[f.value for f in OutputFormat], default="text", help="how to print findings (default: text)")
    parser.add_argument("--fail-on", choices=FAIL_ON_CHOICES, default=None, help=f"lowest severity that makes the exit code 1 (default: {DEFAULT_FAIL_ON})")
    parser.add_argument("--show-evidence", action="store_true", help="print the evidence behind each finding under it")
    parser.add_argument("--mcp-schema", action="append", metavar="PATH", help="validate every message against an official MCP schema.json (MCP206); its version comes from its folder name (.../2025-11-25/schema.json); 'cached' uses every schema fetched with `mcp-transcripts schema fetch` (repeatable)")
    baseline = parser.add_mutually_exclusive_group()
    baseline.add_argument("--baseline", metavar="FILE", help="report only findings not in this baseline; exit 1 if some of its entries no longer occur")
    baseline.add_argument("--write-baseline", metavar="FILE", help="record the findings in this baseline file and exit 0")


def run(args: argparse.Namespace, io: IO) -> int:
    """Check the files; 0 clean, 1 findings at or above --fail-on (or a stale baseline), 2 errors."""
    from migrator import api
    from migrator.reporters import summary_line

    options = options_from_args(args)
    fail_on = args.fail_on or config_for(args).fail_on or DEFAULT_FAIL_ON
    result = run_files(
        args,
        io,
        FileTask("check", options),
        on_stdin=lambda text, name: api.check_text(text, name, options_for(args, options, name)),
    )
    if args.write_baseline:
        return _write_baseline(args, io, result)
    stale: list[str] = []
    known = 0
    if args.baseline:
        result, known, stale = _apply_baseline(args.baseline, result, options.selected)
        if args.verbose:
            io.stderr.write(f"mcp-transcripts: baseline {args.baseline}: {known} known, {result.tally().findings} new, {len(stale)} stale\n")
    api.write_report(result, io.stdout, args.output_format, show_evidence=args.show_evidence, fail_on=fail_on)
    if not args.quiet:
        line = summary_line(result)
        if args.baseline:
            line += f"; {known} accepted by the baseline"
        io.stderr.write(line + "\n")
    if stale:
        one = len(stale) == 1
        io.stderr.write(
            f"mcp-transcripts: {len(stale)} baseline entr{'y' if one else 'ies'} in {args.baseline} "
            f"no longer occur{'s' if one else ''} (fixed? update the baseline with --write-baseline):\n"
        )
        io.stderr.writelines(f"  {line}\n" for line in stale)
    if result.errors:
        return EXIT_ERROR
    if stale:
        return EXIT_FINDINGS
    if fail_on == "never":
        return EXIT_OK
    threshold = Severity(fail_on).rank
    counts = result.tally().by_severity
    return EXIT_FINDINGS if any(counts[s.value] for s in Severity if s.rank >= threshold) else EXIT_OK


def _write_baseline(args: argparse.Namespace, io: IO, result: RunResult) -> int:
    from migrator.baseline import LineSource, finding_keys, write_baseline

    target = Path(args.write_baseline)
    keys = finding_keys(result.findings, target.absolute().parent, LineSource(result.texts))
    entries = write_baseline(target, keys)
    if not args.quiet:
        count = len(keys)
        io.stderr.write(
            f"Wrote {count} finding{'s' if count != 1 else ''} ({entries} entr{'y' if entries == 1 else 'ies'}) "
            f"from {len(result.files)} file{'s' if len(result.files) != 1 else ''} to {args.write_baseline}\n"
        )
    return EXIT_ERROR if result.errors else EXIT_OK


def _apply_baseline(
    file: str, result: RunResult, enabled: frozenset[str] | None
) -> tuple[RunResult, int, list[str]]:
    """The result without the findings the baseline accepts; how many; the stale entries."""
    from migrator.baseline import LineSource, finding_keys, load_baseline, relative_to

    baseline = load_baseline(file)
    # The findings, sorted, each with the index of its file: identity ties
    # them to their file, whatever paths the findings themselves carry.
    owned = sorted(((f, index) for index, r in enumerate(result.files) for f in r.findings), key=itemgetter(0))
    findings = [f for f, _ in owned]
    keys = finding_keys(findings, baseline.folder, LineSource(result.texts))
    checked = [relative_to(report.path, baseline.folder) for report in result.files]
    comparison = baseline.compare(findings, keys, checked, enabled)
    new = set(map(id, comparison.new))
    kept: list[FindingList] = [FindingList() for _ in result.files]
    for finding, index in owned:
        if id(finding) in new:
            kept[index].append(finding)
    files = [replace(r, findings=k) for r, k in zip(result.files, kept, strict=True)]
    filtered = RunResult(files, result.errors, result.seconds, result.texts)
    stale = [key.describe() + (f" ({count} times)" if count > 1 else "") for key, count in comparison.stale]
    return filtered, comparison.known, stale
