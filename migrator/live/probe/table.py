"""The probe's terminal table: one row per tool, and the verdict for the server."""

from __future__ import annotations

from migrator.live.probe.prober import ProbeReport
from migrator.live.probe.verdicts import CaseOutcome, ServerVerdict, one_line

COLUMNS = ("tool", "cases", "migrated", "-32602", "other error", "accepted", "crashed", "timeout")

_MEANING = {
    ServerVerdict.MIGRATED: "invalid arguments are answered with isError tool results (SEP-1303)",
    ServerVerdict.NOT_MIGRATED: "invalid arguments are answered with JSON-RPC errors",
    ServerVerdict.MIXED: "some invalid arguments get isError results, others JSON-RPC errors",
    ServerVerdict.DOES_NOT_VALIDATE: "the server runs its tools on arguments their schemas reject",
    ServerVerdict.NO_ANSWERS: "no invalid call was answered",
    ServerVerdict.NOTHING_TO_PROBE: "no tool had a case to send",
}


def render(probe: ProbeReport) -> str:
    """The table, the first failing answer of each tool, and the verdict, as text."""
    rows: list[tuple[str, ...]] = []
    notes: list[str] = []
    skipped: list[str] = []
    for tool in probe.tools:
        if tool.skipped:
            skipped.append(f"  {tool.tool}: {tool.skipped}")
            continue
        rows.append(
            (
                tool.tool,
                str(len(tool.results)),
                str(tool.count(CaseOutcome.MIGRATED)),
                str(tool.count(CaseOutcome.PROTOCOL_ERROR)),
                str(tool.count(CaseOutcome.OTHER_ERROR)),
                str(tool.count(CaseOutcome.ACCEPTED)),
                str(tool.count(CaseOutcome.CRASHED)),
                str(tool.count(CaseOutcome.TIMEOUT)),
            )
        )
        failing = tool.first_failing
        if failing is not None:
            notes.append(
                f"  {tool.tool}: {failing.case.describe()} -> {failing.outcome.value}: "
                f"{one_line(failing.text, 80) or '(no text)'}"
            )
    widths = [
        max(len(c), *(len(r[i]) for r in rows)) if rows else len(c) for i, c in enumerate(COLUMNS)
    ]
    lines = [_row(COLUMNS, widths), _row(tuple("-" * w for w in widths), widths)]
    lines += [_row(row, widths) for row in rows]
    facts = probe.facts
    # serverInfo.version may be missing or empty: then the name stands alone.
    server = " ".join(part for part in (facts.server_name, facts.server_version.strip()) if part)
    head = (
        f"Probed {server} (protocol {facts.version or 'unknown'}): "
        f"{probe.calls} calls in {probe.seconds:.2f}s"
        + (
            f", {probe.restarts} restart{'s' if probe.restarts != 1 else ''} after a crash"
            if probe.restarts
            else ""
        )
    )
    out = [head, "", *lines]
    if notes:
        out += ["", "First answer that is not the SEP-1303 one, per tool:", *notes]
    if skipped:
        out += ["", "Not probed:", *skipped]
    migrated = [r for r in probe.results if r.outcome is CaseOutcome.MIGRATED]
    if migrated:
        named = sum(1 for r in migrated if r.names_argument)
        out += ["", f"{named} of {len(migrated)} isError answers name the offending argument."]
    if probe.unknown_tool:
        out.append(f"Unknown tool: {probe.unknown_tool}.")
    verdict = probe.verdict
    out += ["", f"Verdict: {verdict.value.upper()}: {_MEANING[verdict]}."]
    return "\n".join(out) + "\n"


def _row(cells: tuple[str, ...], widths: list[int]) -> str:
    first, *rest = cells
    return "  ".join(
        [first.ljust(widths[0]), *(c.rjust(w) for c, w in zip(rest, widths[1:], strict=False))]
    ).rstrip()
