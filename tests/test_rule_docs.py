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

import dataclasses
import json
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
    localized_doc,
    markdown_literal,
    page_url,
    parse_doc,
    pretty_transcript,
    render_page,
)
from migrator.rules.registry import RuleInfo, all_rules, get_rule
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


@pytest.mark.parametrize("rule", all_rules(), ids=lambda rule: rule.code)
def test_web_examples_are_the_recorded_lines_pretty_printed(rule: RuleInfo) -> None:
    """The site shows each example pretty-printed; it must hold the same messages, and the
    lines as recorded (what the test above runs) stay on the page, folded."""
    doc = parse_doc(rule.doc)
    page = render_page(rule, "en")
    for recorded in example_blocks(doc.before) + example_blocks(doc.after):
        pretty = pretty_transcript(recorded)
        assert pretty in page, rule.code
        shown, lines = pretty.split("\n\n"), recorded.splitlines()
        assert len(shown) == len(lines), rule.code
        for part, line in zip(shown, lines, strict=True):  # the same message, or the line itself
            assert part == line or json.loads(part) == json.loads(line), rule.code
        if pretty != recorded.rstrip("\n"):
            assert _indent_block(recorded) in page, f"{rule.code}: the recorded lines are not kept"


def _indent_block(text: str) -> str:
    return "\n".join("    " + line for line in text.rstrip("\n").splitlines())


def test_pretty_print_keeps_what_it_cannot_show_faithfully() -> None:
    # a duplicate key, a number spelled 1e2, an escaped slash: pretty-printing would lose them
    for line in ('{"id":1,"id":2}', '{"n":1e2}', '{"path":"a\\/b"}', "not json"):
        assert pretty_transcript(line + "\n") == line
    assert pretty_transcript('{"a":"é"}\n{"b":"\\u00e9"}\n') == '{"a": "é"}\n\n{"b": "\\u00e9"}'
    wide = json.dumps({"message": "x" * 80}, separators=(",", ":"))
    assert pretty_transcript(wide) == '{\n  "message": "' + "x" * 80 + '"\n}'


def test_web_example_highlights_the_lines_fix_changed() -> None:
    page = render_page(get_rule("MCP101"), "en")
    after = page.split("### After", 1)[1]
    marked = re.search(r'```json hl_lines="([\d ]+)"\n(.*?)\n```', after, re.DOTALL)
    assert marked, "the After has highlighted lines"
    lines = marked.group(2).splitlines()
    shown = [lines[int(number) - 1] for number in marked.group(1).split()]
    assert '  "result": {' in shown and any('"isError": true' in line for line in shown)
    assert not any('"method": "tools/call"' in line for line in shown)
    # the terminal keeps the recorded lines and the changed line, pretty-printed, after them
    assert "hl_lines" not in render_page(get_rule("MCP101"), "en", web=False)


_CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff]")


def _english_paragraphs(text: str) -> list[str]:
    """The paragraphs and list items of ``text`` outside code blocks with no Chinese."""
    prose = re.sub(r"^```[a-z]*\n.*?^```\s*$", "", text, flags=re.MULTILINE | re.DOTALL)
    parts = [part.strip() for block in prose.split("\n\n") for part in block.split("\n* ")]
    return [part for part in parts if part and not part.startswith("|") and not _CJK.search(part)]


@pytest.mark.parametrize("rule", all_rules(), ids=lambda rule: rule.code)
def test_every_rule_has_its_docstring_in_chinese(rule: RuleInfo) -> None:
    """Issue 28, item 5: the Chinese page is Chinese, except the examples (code)."""
    assert rule.doc_zh, f"{rule.code}: doc_zh (the docstring in Chinese) is missing"
    english, chinese = parse_doc(rule.doc), parse_doc(rule.doc_zh)
    assert not chinese.why, f"{rule.code}: the Chinese Why is why_zh, not a section of doc_zh"
    assert bool(chinese.limits) == bool(english.limits), f"{rule.code}: Limits in one only"
    assert len(chinese.other) == len(english.other), f"{rule.code}: other sections differ"
    for name in ("before", "after"):
        original, translated = getattr(english, name), getattr(chinese, name)
        assert len(example_blocks(translated)) == len(example_blocks(original)), (
            f"{rule.code}: {name}: one empty code block per example"
        )
        assert all(not block for block in example_blocks(translated)), (
            f"{rule.code}: {name}: the examples live in the docstring only"
        )
    texts = [chinese.what, chinese.before, chinese.after, chinese.limits]
    texts += [body for _, body in chinese.other]
    untranslated = [part for text in texts for part in _english_paragraphs(text)]
    assert not untranslated, f"{rule.code}: English in doc_zh: {untranslated}"


@pytest.mark.parametrize("rule", all_rules(), ids=lambda rule: rule.code)
def test_chinese_page_shows_the_docstrings_examples(rule: RuleInfo) -> None:
    english, chinese = parse_doc(rule.doc), localized_doc(rule, "zh")
    for name in ("before", "after"):
        assert example_blocks(getattr(chinese, name)) == example_blocks(getattr(english, name))
    page = render_page(rule, "zh")
    assert "本页正文为英文" not in page
    for heading in ("## 作用", "## 已知限制", "### 修复前"):
        assert heading in page, rule.code
    assert english.what not in page and chinese.what in page
    for pretty in map(pretty_transcript, example_blocks(english.before)):
        assert pretty in page


def test_a_rule_without_chinese_says_its_page_is_english() -> None:
    rule = dataclasses.replace(get_rule("MCP101"), doc_zh="")
    page = render_page(rule, "zh")
    assert "本页正文为英文" in page and parse_doc(rule.doc).what in page
