"""One probe run: select the tools, make their cases, call them, judge the answers.

The findings are ``check``'s own, computed over the session's transcript with
the same engine, plus the two a transcript cannot show (a crash, MCP503; no
answer, MCP504). Each finding on a probe call says which case it was.
"""

from __future__ import annotations

import fnmatch
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from typing import Any

from migrator.engine.pipeline import FileReport, Options
from migrator.live.probe.cases import Case, tool_cases, unknown_tool_case
from migrator.live.probe.client import CallOutcome, ClientSession, ServerFacts
from migrator.live.probe.transport import Transcript
from migrator.live.probe.verdicts import (
    CaseResult,
    ServerVerdict,
    ToolSummary,
    judge,
    judge_unknown_tool,
    server_verdict,
)
from migrator.model.findings import Finding, FindingList
from migrator.model.provenance import PROBE_CASE
from migrator.rules.base import shared
from migrator.rules.registry import get_rule


@dataclass(frozen=True)
class ProbeOptions:
    """What to probe and how (the command line fills it in)."""

    include: tuple[str, ...] = ()  # --tool globs (none: every tool)
    exclude: tuple[str, ...] = ()  # --exclude-tool globs
    include_destructive: bool = False
    max_cases: int | None = None  # per tool
    formats: bool = False
    concurrency: int = 1
    unknown_tool: bool = True


@dataclass
class ProbeReport:
    """Everything one probe found."""

    facts: ServerFacts
    tools: list[ToolSummary] = field(default_factory=list)
    unknown_tool: str = ""  # how the unlisted-tool call was answered
    report: FileReport = field(default_factory=lambda: FileReport("<probe>"))
    restarts: int = 0
    seconds: float = 0.0
    calls: int = 0

    @property
    def results(self) -> list[CaseResult]:
        """Every validation case, tool by tool."""
        return [result for tool in self.tools for result in tool.results]

    @property
    def verdict(self) -> ServerVerdict:
        """The one verdict for the server."""
        return server_verdict(self.results)


def selected(tool: dict[str, Any], options: ProbeOptions) -> str:
    """Why a tool is left out (empty when it is probed)."""
    name = tool["name"]
    if options.include and not any(fnmatch.fnmatchcase(name, glob) for glob in options.include):
        return "not selected by --tool"
    if any(fnmatch.fnmatchcase(name, glob) for glob in options.exclude):
        return "excluded by --exclude-tool"
    annotations = tool.get("annotations")
    if (
        isinstance(annotations, dict)
        and annotations.get("destructiveHint") is True
        and not options.include_destructive
    ):
        return "destructiveHint: true (use --include-destructive)"
    return ""


def run_probe(
    session: ClientSession,
    transcript: Transcript,
    options: ProbeOptions,
    path: str = "<probe>",
) -> ProbeReport:
    """Probe the server behind ``session``, which is not started yet.

    Raises:
        SessionError: the server could not be initialized or listed.
    """
    started = time.perf_counter()
    facts = session.start()
    probe = ProbeReport(facts)
    plan: list[tuple[ToolSummary, Case]] = []
    for tool in facts.tools:
        summary = ToolSummary(tool["name"], skipped=selected(tool, options))
        probe.tools.append(summary)
        if summary.skipped:
            continue
        cases = tool_cases(
            tool["name"], tool.get("inputSchema"), facts.version, formats=options.formats
        )
        if options.max_cases is not None:
            cases = cases[: options.max_cases]
        if not cases:
            summary.skipped = "no invalid arguments can be derived from its inputSchema"
        plan.extend((summary, case) for case in cases)

    def call(case: Case) -> CallOutcome:
        return session.call(case.tool, case.arguments, {PROBE_CASE: case.meta()})

    workers = max(1, options.concurrency)
    if workers == 1:
        outcomes = [call(case) for _summary, case in plan]
    else:
        with ThreadPoolExecutor(workers) as pool:
            outcomes = list(pool.map(call, [case for _summary, case in plan]))
    by_id: dict[int, Case] = {}
    for (summary, case), outcome in zip(plan, outcomes, strict=False):
        summary.results.append(judge(case, outcome))
        by_id[outcome.request_id] = case
    probe.calls = len(plan)
    if options.unknown_tool:
        unknown = unknown_tool_case({t["name"] for t in facts.tools})
        outcome = call(unknown)
        probe.calls += 1
        by_id[outcome.request_id] = unknown
        probe.unknown_tool = judge_unknown_tool(outcome)
    probe.restarts = session.restarts
    probe.seconds = time.perf_counter() - started
    probe.report = findings_for(transcript, path, probe, by_id)
    return probe


def findings_for(
    transcript: Transcript, path: str, probe: ProbeReport, cases: dict[int, Case]
) -> FileReport:
    """``check``'s findings on the transcript, each probe call's case named, plus crashes and timeouts."""
    from migrator.api import check_text

    checked = check_text(transcript.text(), path, Options())
    findings: list[Finding] = [_with_case(f, cases) for f in checked.findings.in_order()]
    crash, silence = get_rule("MCP503"), get_rule("MCP504")
    for result in probe.results:
        call = result.call
        if call.crashed is not None:
            info, text = crash, f"the server went away on this call: {call.crashed}"
        elif call.timed_out:
            info, text = silence, "no answer within the timeout"
        else:
            continue
        findings.append(
            Finding(
                path=path,
                line=call.request_line,
                column=1,
                code=info.code,
                slug=info.slug,
                severity=info.default_severity,
                message=f"tools/call {result.case.tool!r} (id {call.request_id}): {text}; case: {result.case.describe()}",
                request_id=call.request_id,
                tool=result.case.tool,
                evidence=shared((f"probe case: {result.case.describe()}",)),
                pointer="/params/arguments" + result.case.pointer,
                keyword=result.case.keyword,
            )
        )
    report = FileReport(path, format=checked.format, detection=checked.detection)
    report.findings = FindingList(sorted(findings))
    report.messages = checked.messages
    report.line_for_line = checked.line_for_line
    return report


def _with_case(finding: Finding, cases: dict[int, Case]) -> Finding:
    case = cases.get(finding.request_id) if isinstance(finding.request_id, int) else None
    if case is None:
        return finding
    return replace(
        finding,
        message=f"{finding.message}; case: {case.describe()}",
        tool=finding.tool or case.tool,
        evidence=shared((*finding.evidence, f"probe case: {case.describe()}")),
    )
