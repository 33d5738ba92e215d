"""Every rule's documentation tells the truth: its Before fires it, its After is what ``fix`` writes.

A rule's module docstring is its page (``mcp-transcripts explain`` and the docs site). Its
example is run here: the Before, fed through :func:`migrator.api.fix_text`, must raise the
rule and come out as the After, byte for byte, for a rule with a fix. For a rule without
one, ``fix`` must leave the Before exactly as it was, and the After (what the producer
should send) must no longer raise the rule.

How an example runs follows from what raises the rule (``RuleInfo.found_in``): a trace
rule's Before is an OTLP JSON export request that ``check`` reports and ``fix`` refuses to
touch, and its After is the span a migrated server records; a probe-only rule is found by
a live ``probe`` against a careless fixture server.
"""

from __future__ import annotations

import re

import pytest

from migrator import api
from migrator.engine.pipeline import Options
from migrator.errors import UsageError
from migrator.model.findings import FixSafety
from migrator.rules.page import (
    DOCS_URL,
    RuleDoc,
    example_blocks,
    markdown_literal,
    page_url,
    parse_doc,
    render_page,
)
from migrator.rules.registry import RuleInfo, all_rules
from tests.conftest import ROOT, SHARED, run_cli, shared_missing
from tests.probe.helpers import careless, probe_json

OFFICIAL_SCHEMA = SHARED / "mcp-schemas"
# The careless fixture server's mode that provokes each probe-only rule.
PROBE_MODES = {"MCP503": "crash", "MCP504": "silent"}
# A ``text`` example shows a byte that is not UTF-8 as ``\xNN``; the transcript holds the
# byte itself, which the readers decode to a lone surrogate (surrogateescape).
_RAW_BYTE = re.compile(r"\\x([0-9a-f]{2})")


def _transcript(section: str, rule: RuleInfo) -> str:
    blocks = example_blocks(section)
    assert len(blocks) == 1, f"{rule.code}: expected one code block, found {len(blocks)}"
    return _RAW_BYTE.sub(lambda match: chr(0xDC00 + int(match.group(1), 16)), blocks[0])


def _options(rule: RuleInfo) -> Options:
    schemas: tuple[str, ...] = ()
    if rule.code == "MCP206":  # opt-in: validates against an official schema.json
        version = re.search(r"\d{4}-\d{2}-\d{2}", parse_doc(rule.doc).before)
        assert version, "MCP206's Before names the session's version"
        official = OFFICIAL_SCHEMA / version.group(0) / "schema.json"
        if not official.exists():
            pytest.skip(shared_missing(f"mcp-schemas/{version.group(0)}/schema.json"))
        schemas = (str(official),)
    return Options(unsafe_fixes=rule.fix is FixSafety.UNSAFE, mcp_schemas=schemas)


def _codes(text: str, options: Options) -> set[str]:
    return {finding.code for finding in api.check_text(text, "example.jsonl", options).findings}


@pytest.mark.parametrize("rule", all_rules(), ids=lambda rule: rule.code)
def test_before_fires_and_fix_gives_the_after(rule: RuleInfo) -> None:
    doc = parse_doc(rule.doc)
    assert doc.what and doc.before and doc.after and doc.why, (
        f"{rule.code}: prose, Before, After, Why"
    )
    if rule.found_in == "trace":
        _trace_example(rule, doc)
        return
    if rule.found_in == "probe":
        _probe_example(rule, doc)
        return
    options = _options(rule)
    before = _transcript(doc.before, rule)
    assert rule.code in _codes(before, options), f"{rule.code}: its Before does not raise it"

    fixed, report = api.fix_text(before, "example.jsonl", options)
    if rule.fix is FixSafety.NONE:
        assert fixed == before, f"{rule.code} has no fix, yet fix changed its Before"
        if example_blocks(doc.after):
            after = _transcript(doc.after, rule)
            assert rule.code not in _codes(after, options), (
                f"{rule.code}: its After still raises it"
            )
    else:
        assert report.fixes >= 1
        assert fixed == _transcript(doc.after, rule), (
            f"{rule.code}: the After is not what fix writes"
        )


def _trace_example(rule: RuleInfo, doc: RuleDoc) -> None:
    """A trace records what happened: ``check`` reports the Before, ``fix`` does not rewrite spans.

    The After is the export request a migrated server's instrumentation writes, so it must
    not raise the rule.
    """
    options = _options(rule)
    before = _transcript(doc.before, rule)
    assert rule.code in _codes(before, options), f"{rule.code}: its Before does not raise it"
    with pytest.raises(UsageError, match="fix does not apply to traces"):
        api.fix_text(before, "example.jsonl", options)
    after = _transcript(doc.after, rule)
    assert rule.code not in _codes(after, options), f"{rule.code}: its After still raises it"


def _probe_example(rule: RuleInfo, doc: RuleDoc) -> None:
    """A crash or a silence leaves no line in a recording, so no file can raise these rules.

    The Before is the case the probe sent: ``check`` on it must stay silent about the rule
    (the docs say so), and a live probe against the careless fixture server, in the mode
    that crashes or goes silent on such a case, must report it. The After (the case
    answered with an ``isError`` result) must not raise it either.
    """
    options = _options(rule)
    assert rule.code not in _codes(_transcript(doc.before, rule), options)
    assert rule.code not in _codes(_transcript(doc.after, rule), options)
    result, findings = probe_json("--timeout", "0.5", "--", *careless(PROBE_MODES[rule.code]))
    assert result.code == 1
    found = [f for f in findings if f["code"] == rule.code]
    assert found and all(f["tool"] and "case: `" in f["message"] for f in found), findings


def test_probe_modes_cover_the_probe_only_rules() -> None:
    assert set(PROBE_MODES) == {rule.code for rule in all_rules() if rule.found_in == "probe"}


@pytest.mark.parametrize("rule", all_rules(), ids=lambda rule: rule.code)
def test_every_rule_has_chinese_summary_and_why(rule: RuleInfo) -> None:
    assert rule.summary_zh and rule.why_zh, f"{rule.code}: summary_zh and why_zh"
    page = render_page(rule, "zh")
    assert markdown_literal(rule.summary_zh) in page and rule.why_zh in page


def test_pages_keep_every_section_of_the_docstring() -> None:
    for rule in all_rules():
        page = render_page(rule, "en", web=False)
        doc = parse_doc(rule.doc)
        for part in (doc.what, doc.before, doc.after, doc.why, doc.limits):
            assert part in page, rule.code


def test_explain_prints_the_page_and_its_address() -> None:
    for rule in all_rules():
        explained = run_cli("explain", rule.code.lower())
        assert explained.code == 0
        assert explained.out == render_page(rule, "en", web=False)
        assert explained.out.startswith(f"{rule.code} {rule.slug}\n")
        assert explained.out.rstrip().endswith(page_url(rule.code))


def test_page_addresses_are_under_the_published_site() -> None:
    config = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    assert f"site_url: {DOCS_URL}\n" in config
    assert page_url("MCP101", "zh") == f"{DOCS_URL}zh/migrator/reference/rules/mcp101/"


@pytest.mark.parametrize(
    "rule", [rule for rule in all_rules() if rule.found_in != "transcript"], ids=lambda r: r.code
)
def test_pages_say_why_fix_cannot_help_with_traces_and_probes(rule: RuleInfo) -> None:
    expected = {
        ("trace", "en"): "`mcp-transcripts fix` does not apply to traces",
        ("trace", "zh"): "`mcp-transcripts fix` 不适用于追踪",
        ("probe", "en"): "Only a live `mcp-transcripts probe` finds it",
        ("probe", "zh"): "只有实际运行的 `mcp-transcripts probe` 能发现它",
    }
    for lang in ("en", "zh"):
        page = render_page(rule, lang, web=False)
        assert expected[(rule.found_in, lang)] in page, (rule.code, lang)
        assert "leaves these bytes" not in page and "让这些字节保持原样" not in page
