"""``--output-format junit``: JUnit XML, for CI test-report views.

One ``<testsuite>`` with one ``<testcase>`` per transcript file. Every finding
at or above ``--fail-on`` is a ``<failure>`` of its file's test case (so a file
can have several); findings below it are listed in the case's
``<system-out>``. A file that could not be read is a test case with an
``<error>``. The suite's ``tests``, ``failures`` and ``errors`` count these.
"""

from __future__ import annotations

import itertools
import re
import shutil
import xml.etree.ElementTree as ET
from collections.abc import Iterable
from pathlib import Path
from typing import TextIO

from migrator.engine.results import RunResult
from migrator.fix.writer import spool_file
from migrator.model.findings import Finding, FindingList, Severity
from migrator.reporters import ReportOptions

SUITE_NAME = "mcp-transcripts check"
CLASS_NAME = "mcp-transcripts"
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def _clean(text: str) -> str:
    """Replace what XML 1.0 cannot hold (control characters, lone surrogates)."""
    return _NOT_XML.sub("\ufffd", text)


def _is_failure(finding: Finding, fail_on: str) -> bool:
    return fail_on != "never" and finding.severity.rank >= Severity(fail_on).rank


def _describe(finding: Finding) -> str:
    lines = [
        f"{finding.path}:{finding.line}:{finding.column}: {finding.code} {finding.slug} ({finding.severity.value})",
        finding.message,
    ]
    lines += [f"= {item}" for item in finding.evidence]
    return "\n".join(lines)


def tree(result: RunResult, fail_on: str = "warning") -> ET.Element:
    """The ``<testsuites>`` element."""
    suite = ET.Element("testsuite", name=SUITE_NAME)
    failures = 0
    for file in result.files:
        case = ET.SubElement(
            suite, "testcase", classname=CLASS_NAME, name=_clean(file.path), file=_clean(file.path)
        )
        passed = []
        for finding in sorted(file.findings):
            if not _is_failure(finding, fail_on):
                passed.append(_describe(finding))
                continue
            failures += 1
            failure = ET.SubElement(
                case,
                "failure",
                message=_clean(f"{finding.code} {finding.message}"),
                type=finding.code,
            )
            failure.text = _clean(_describe(finding))
        if passed:
            ET.SubElement(case, "system-out").text = _clean("\n\n".join(passed))
    for error in result.errors:
        name = error.path or "(input)"
        case = ET.SubElement(
            suite, "testcase", classname=CLASS_NAME, name=_clean(name), file=_clean(name)
        )
        element = ET.SubElement(
            case, "error", message=_clean(error.message), type=type(error).__name__
        )
        element.text = _clean(str(error))
    counts = {
        "tests": str(len(result.files) + len(result.errors)),
        "failures": str(failures),
        "errors": str(len(result.errors)),
        "skipped": "0",
    }
    suite.attrib.update(counts)
    root = ET.Element("testsuites", {"name": "mcp-transcripts", **counts})
    root.append(suite)
    return root


def report(result: RunResult, out: TextIO, options: ReportOptions) -> None:
    """Write the XML document as :func:`tree` indented would be, with a declaration.

    Written case by case and failure by failure rather than built first: a
    large transcript can have a hundred thousand findings. The findings below
    ``--fail-on`` come after a case's failures (in its ``<system-out>``), so they
    wait in a scratch file meanwhile, not in memory; the counts the opening tags
    carry come from the run's tally.
    """
    if not result.files and not result.errors:  # an empty suite: nothing to stream
        root = tree(result, options.fail_on)
        ET.indent(root)
        out.write('<?xml version="1.0" encoding="UTF-8"?>\n')
        out.write(ET.tostring(root, encoding="unicode") + "\n")
        return
    counts = {
        "tests": str(len(result.files) + len(result.errors)),
        "failures": str(_failures(result, options.fail_on)),
        "errors": str(len(result.errors)),
        "skipped": "0",
    }
    out.write('<?xml version="1.0" encoding="UTF-8"?>\n')
    out.write(_opening("testsuites", {"name": "mcp-transcripts", **counts}) + "\n  ")
    out.write(_opening("testsuite", {"name": SUITE_NAME, **counts}))
    for file in result.files:
        out.write("\n    ")
        _write_case(file.path, file.findings, options.fail_on, out)
    for error in result.errors:
        name = error.path or "(input)"
        case = _case(name)
        element = ET.SubElement(
            case, "error", message=_clean(error.message), type=type(error).__name__
        )
        element.text = _clean(str(error))
        ET.indent(case, level=2)
        out.write("\n    " + ET.tostring(case, encoding="unicode"))
    out.write("\n  </testsuite>\n</testsuites>\n")


def _case(name: str) -> ET.Element:
    return ET.Element("testcase", classname=CLASS_NAME, name=_clean(name), file=_clean(name))


def _failures(result: RunResult, fail_on: str) -> int:
    if fail_on == "never":
        return 0
    threshold = Severity(fail_on).rank
    counts = result.tally().by_severity
    return sum(counts[s.value] for s in Severity if s.rank >= threshold)


def _opening(tag: str, attributes: dict[str, str]) -> str:
    """``<tag a="..." ...>``, its attributes escaped as ElementTree escapes them."""
    empty = ET.tostring(ET.Element(tag, attributes), encoding="unicode")
    return empty.removesuffix(" />") + ">"


def _text(text: str) -> str:
    """``text`` escaped as ElementTree escapes an element's text."""
    element = ET.Element("t")
    element.text = text
    return ET.tostring(element, encoding="unicode").removeprefix("<t>").removesuffix("</t>")


def _write_case(path: str, findings: Iterable[Finding], fail_on: str, out: TextIO) -> None:
    """One file's test case: its failures as they come, then the rest (from a scratch file)."""
    ordered = findings.in_order() if isinstance(findings, FindingList) else iter(sorted(findings))
    first = next(ordered, None)
    if first is None:
        out.write(ET.tostring(_case(path), encoding="unicode"))
        return
    out.write(_opening("testcase", _case(path).attrib))
    scratch = spool_file("junit")
    try:
        passed = 0
        with Path(scratch.path).open("w+", encoding="utf-8") as below:
            for finding in itertools.chain([first], ordered):
                if not _is_failure(finding, fail_on):
                    below.write(("\n\n" if passed else "") + _text(_clean(_describe(finding))))
                    passed += 1
                    continue
                failure = ET.Element(
                    "failure",
                    message=_clean(f"{finding.code} {finding.message}"),
                    type=finding.code,
                )
                failure.text = _clean(_describe(finding))
                out.write("\n      " + ET.tostring(failure, encoding="unicode"))
            if passed:
                out.write("\n      <system-out>")
                below.seek(0)
                shutil.copyfileobj(below, out, 1 << 16)
                out.write("</system-out>")
    finally:
        scratch.close()
    out.write("\n    </testcase>")
