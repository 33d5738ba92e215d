"""``--output-format junit``: JUnit XML, for CI test-report views.

One ``<testsuite>`` with one ``<testcase>`` per transcript file. Every finding
at or above ``--fail-on`` is a ``<failure>`` of its file's test case (so a file
can have several); findings below it are listed in the case's
``<system-out>``. A file that could not be read is a test case with an
``<error>``. The suite's ``tests``, ``failures`` and ``errors`` count these.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from typing import TextIO

from migrator.engine.results import RunResult
from migrator.model.findings import Finding, Severity
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
    """Write the XML document, indented, with a declaration."""
    root = tree(result, options.fail_on)
    ET.indent(root)
    out.write('<?xml version="1.0" encoding="UTF-8"?>\n')
    out.write(ET.tostring(root, encoding="unicode"))
    out.write("\n")
