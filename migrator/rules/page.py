"""A rule's page: the one text that ``mcp-transcripts explain`` prints and the docs site shows.

The page is built from the rule's metadata and its module docstring, in ruff's layout:
what it does, why, an example, the fix and its safety, options, related rules, known
limits. A docstring is written as prose (what the rule does) followed by ``## Before``,
``## After``, ``## Why`` and, where there is something to say, ``## Limits``; any other
``##`` section is kept, after the known ones, so nothing a rule's author writes is lost.

The examples stay in the docstring as recorded, one message a line: that is what the
tests run. A terminal shows them so; the site pretty-prints each message at build time,
highlights the lines that differ between Before and After, and folds the recorded lines
under each example.

The Chinese page translates the headings and everything the tool generates, and shows
the rule's ``summary_zh``, ``why_zh`` and ``doc_zh`` (the docstring in Chinese, into
which the docstring's examples are put); a rule without them shows the English text, and
the page says so at the top.
"""

from __future__ import annotations

import difflib
import json
import re
from dataclasses import dataclass

from migrator.model.findings import FixSafety
from migrator.rules.info import RuleInfo
from migrator.rules.registry import all_rules, tool_call_rules

__all__ = [
    "DOCS_URL",
    "RuleDoc",
    "changed_lines",
    "example_blocks",
    "localized_doc",
    "page_path",
    "page_url",
    "parse_doc",
    "pretty_transcript",
    "render_index",
    "render_page",
]

# The published site (``site_url`` in mkdocs.yml; a test keeps the two equal).
DOCS_URL = "https://mcp-transcripts.github.io/mcp-transcripts/"
# Where the rule pages live in the site, relative to its root (other pages link here).
RULES_PATH = "migrator/reference/rules/"

LANGUAGES = ("en", "zh")

_SECTION = re.compile(r"^## (?P<title>.+?)\s*$", re.MULTILINE)
_FENCE = re.compile(r"^```[a-z]*\n(?P<body>.*?)^```\s*$", re.MULTILINE | re.DOTALL)
_CODE = re.compile(r"\bMCP\d{3}\b")


@dataclass(frozen=True)
class RuleDoc:
    """A rule docstring cut into its parts (each stripped; empty when absent)."""

    what: str
    before: str
    after: str
    why: str
    limits: str
    other: tuple[tuple[str, str], ...]  # any further ``## Title`` sections, in order


def parse_doc(doc: str) -> RuleDoc:
    """Cut a rule docstring into prose and its ``##`` sections."""
    text = doc.strip()
    matches = list(_SECTION.finditer(text))
    what = text[: matches[0].start()].strip() if matches else text
    sections: dict[str, str] = {}
    other: list[tuple[str, str]] = []
    for index, match in enumerate(matches):
        end = matches[index + 1].start() if index + 1 < len(matches) else len(text)
        body = text[match.end() : end].strip()
        title = match.group("title")
        if title.lower() in ("before", "after", "why", "limits"):
            sections[title.lower()] = body
        else:
            other.append((title, body))
    return RuleDoc(
        what=what,
        before=sections.get("before", ""),
        after=sections.get("after", ""),
        why=sections.get("why", ""),
        limits=sections.get("limits", ""),
        other=tuple(other),
    )


def example_blocks(section: str) -> list[str]:
    """The contents of the fenced code blocks of a Before or After section."""
    return [match.group("body") for match in _FENCE.finditer(section)]


def page_path(code: str, lang: str = "en") -> str:
    """The page's source path in the docs (``migrator/reference/rules/mcp101.md``)."""
    suffix = "" if lang == "en" else f".{lang}"
    return f"{RULES_PATH}{code.lower()}{suffix}.md"


def page_url(code: str, lang: str = "en") -> str:
    """The published page (``.../migrator/reference/rules/mcp101/``)."""
    prefix = "" if lang == "en" else f"{lang}/"
    return f"{DOCS_URL}{prefix}{RULES_PATH}{code.lower()}/"


_HEADINGS = {
    "en": {
        "what": "What it does",
        "why": "Why",
        "example": "Example",
        "before": "Before",
        "after": "After",
        "change": "The change, pretty-printed",
        "fix": "Fix and its safety",
        "options": "Options",
        "related": "Related rules",
        "limits": "Known limits",
    },
    "zh": {
        "what": "作用",
        "why": "原因",
        "example": "示例",
        "before": "修复前",
        "after": "修复后",
        "change": "改动（格式化显示）",
        "fix": "修复及其安全性",
        "options": "选项",
        "related": "相关规则",
        "limits": "已知限制",
    },
}

_FIX_TEXT = {
    "en": {
        FixSafety.SAFE: (
            "**Safe.** `mcp-transcripts fix` applies it. The rewritten response means the same "
            "to a client that follows the 2025-11-25 specification; it is validated before "
            "anything is written, and every byte outside the rewritten member stays as it was."
        ),
        FixSafety.UNSAFE: (
            "**Unsafe.** Applied only with `mcp-transcripts fix --unsafe-fixes` (or "
            "`unsafe-fixes: true` in the configuration), because the rewrite rests on a guess "
            "about what the server meant. Review the diff (`fix --diff --unsafe-fixes`) first."
        ),
        FixSafety.NONE: (
            "**None.** The rule reports; `mcp-transcripts fix` leaves these bytes exactly as "
            "they were. The After above is what the producer should send instead."
        ),
    },
    "zh": {
        FixSafety.SAFE: (
            "**安全。** `mcp-transcripts fix` 会应用它。改写后的响应对遵循 2025-11-25 规范的客户端"
            "含义不变；写入前先经过验证，被改写成员之外的每个字节都保持原样。"
        ),
        FixSafety.UNSAFE: (
            "**不安全。** 只有使用 `mcp-transcripts fix --unsafe-fixes`（或在配置中设置 "
            "`unsafe-fixes: true`）时才应用，因为改写依赖对服务器本意的猜测。请先查看差异"
            "（`fix --diff --unsafe-fixes`）。"
        ),
        FixSafety.NONE: (
            "**无。** 该规则只报告；`mcp-transcripts fix` 让这些字节保持原样。上面的“修复后”"
            "是生成方应当改为发送的内容。"
        ),
    },
}

# Rules that no file ``fix`` rewrites can raise: their After is not something ``fix`` writes.
_NOTHING_TO_FIX = {
    "trace": {
        "en": (
            "**None.** `mcp-transcripts fix` does not apply to traces: a trace records what "
            "happened, and rewriting a span would not change what the server answered. The "
            "After above is what a migrated server (or a conforming instrumentation) records: "
            "fix the server or its instrumentation, then record a new trace."
        ),
        "zh": (
            "**无。** `mcp-transcripts fix` 不适用于追踪：追踪记录的是已经发生的事，改写 span "
            "并不能改变服务器的回答。上面的“修复后”是迁移后的服务器（或符合约定的插桩）记录的"
            "内容：请修复服务器或插桩，然后重新录制追踪。"
        ),
    },
    "probe": {
        "en": (
            "**None.** Only a live `mcp-transcripts probe` finds it: a crash or a silence "
            "leaves no line in a recording, so there is nothing for `fix` to rewrite. The "
            "After above is the answer the server should give; fix the server and probe it "
            "again."
        ),
        "zh": (
            "**无。** 只有实际运行的 `mcp-transcripts probe` 能发现它：崩溃或沉默不会在录制中"
            "留下任何一行，`fix` 无从改写。上面的“修复后”是服务器应当给出的回答；请修复服务器"
            "后再次探测。"
        ),
    },
}

_UNTRANSLATED_NOTE = (
    '!!! note "本页正文为英文"\n'
    "    这条规则还没有中文文档，下面显示英文原文；标题和生成的各节为中文。\n"
)


def localized_doc(info: RuleInfo, lang: str) -> RuleDoc:
    """The docstring's parts in ``lang``: for Chinese, ``doc_zh`` with the examples put in."""
    doc = parse_doc(info.doc)
    if lang != "zh" or not info.doc_zh:
        return doc
    zh = parse_doc(info.doc_zh)
    return RuleDoc(
        what=zh.what,
        before=_with_examples(zh.before, doc.before),
        after=_with_examples(zh.after, doc.after),
        why=info.why_zh or doc.why,
        limits=zh.limits,
        other=zh.other,
    )


def _with_examples(translated: str, original: str) -> str:
    """``translated`` with each of its empty code blocks replaced by ``original``'s, in order."""
    examples = iter(match.group(0) for match in _FENCE.finditer(original))
    return _FENCE.sub(lambda _: next(examples), translated)


def render_page(info: RuleInfo, lang: str = "en", *, web: bool = True) -> str:
    """The rule's page as markdown.

    ``web`` adds heading anchors and links to other pages of the site (relative to the
    page's own path, as MkDocs resolves them); without it the text suits a terminal.
    """
    heading = _HEADINGS[lang]
    doc = localized_doc(info, lang)
    zh = lang == "zh"
    summary = info.summary_zh if zh and info.summary_zh else info.summary
    why = info.why_zh if zh and info.why_zh else doc.why
    translated = bool(info.summary_zh and info.why_zh and info.doc_zh)

    def title(level: int, key: str) -> str:
        anchor = {"what": "what-it-does", "limits": "known-limits", "change": "the-change"}.get(
            key, key
        )
        return f"{'#' * level} {heading[key]}" + (f" {{#{anchor}}}" if web else "")

    lines = [f"# {info.code} `{info.slug}` {{#{info.code.lower()}}}" if web else info.title, ""]
    if zh and not translated:
        lines += [_UNTRANSLATED_NOTE, ""]
    lines += [f"**{markdown_literal(summary.strip()) if web else summary.strip()}**", ""]
    lines += [_facts(info, lang, web), ""]
    lines += [title(2, "what"), "", doc.what, ""]
    if why:
        lines += [title(2, "why"), "", why, ""]
    if doc.before or doc.after:
        lines += [title(2, "example"), ""]
        if web:  # pretty-printed, the changed lines marked, the recorded lines folded below
            before, after = _web_examples(doc, lang)
        else:
            before, after = doc.before, doc.after
        if doc.before:
            lines += [title(3, "before"), "", before, ""]
        if doc.after:
            lines += [title(3, "after"), "", after, ""]
        # a terminal shows the lines as recorded: the lines fix rewrote follow, pretty-printed
        changed = _changed_lines(doc) if info.fix is not FixSafety.NONE and not web else []
        if changed:
            lines += [title(3, "change"), ""]
        for number, old, new in changed:
            lines += [_CHANGE_INTRO[lang].format(number=number), ""]
            lines += [_pretty_block(old, "before" if lang == "en" else "修复前", web), ""]
            lines += [_pretty_block(new, "after" if lang == "en" else "修复后", web), ""]
    fix_text = (
        _NOTHING_TO_FIX[info.found_in][lang]
        if info.found_in in _NOTHING_TO_FIX
        else _FIX_TEXT[lang][info.fix]
    )
    lines += [title(2, "fix"), "", fix_text, ""]
    lines += [title(2, "options"), "", _options(info, lang, web), ""]
    related = _related(info)
    if related:
        lines += [title(2, "related"), ""]
        lines += [f"- {_rule_link(rule, lang, web)}" for rule in related]
        lines.append("")
    for other_title, body in doc.other:
        lines += [f"## {other_title}", "", body, ""]
    lines += [
        title(2, "limits"),
        "",
        doc.limits or ("未记录已知限制。" if zh else "None known."),
        "",
    ]
    if not web:
        lines += [("网页：" if zh else "Web page: ") + page_url(info.code, lang)]
    return "\n".join(lines).rstrip() + "\n"


_CHANGE_INTRO = {
    "en": "Line {number}, the response `fix` rewrote, before and after:",
    "zh": "第 {number} 行，即 `fix` 改写的响应，修复前后对照：",
}


def _changed_lines(doc: RuleDoc) -> list[tuple[int, str, str]]:
    """(line number, before, after) of each line the example's fix changed."""
    before, after = example_blocks(doc.before), example_blocks(doc.after)
    if len(before) != 1 or len(after) != 1:
        return []
    old_lines, new_lines = before[0].splitlines(), after[0].splitlines()
    if len(old_lines) != len(new_lines):
        return []
    return [
        (number, old, new)
        for number, (old, new) in enumerate(zip(old_lines, new_lines, strict=True), start=1)
        if old != new
    ]


# A web page's code blocks sit in this class: they wrap inside their box (extra.css).
CODE_CLASS = "rule-code"

_RECORDED = {
    "en": "As recorded: one message a line",
    "zh": "原始记录：每行一条消息",
}


def _web_examples(doc: RuleDoc, lang: str) -> tuple[str, str]:
    """The Before and After sections for the site: each JSON message pretty-printed.

    When both sections hold one block, the lines that differ between the two are
    highlighted (as on the error-handling page). The lines as recorded, which the tests
    run and which ``check`` reads, follow each pretty-printed block, folded.
    """
    before_blocks, after_blocks = example_blocks(doc.before), example_blocks(doc.after)
    marks: tuple[list[int], list[int]] = ([], [])
    if len(before_blocks) == 1 and len(after_blocks) == 1:
        marks = changed_lines(
            pretty_transcript(before_blocks[0]), pretty_transcript(after_blocks[0])
        )
    return (
        _shown_blocks(doc.before, marks[0], lang),
        _shown_blocks(doc.after, marks[1], lang),
    )


def _shown_blocks(section: str, marked: list[int], lang: str) -> str:
    """``section`` with each fenced block pretty-printed in a wrapping box.

    ``marked``: the lines to highlight, when the section holds one block.
    """

    def shown(match: re.Match[str]) -> str:
        recorded = match.group("body")
        pretty = pretty_transcript(recorded)
        fence = match.group(0).split("\n", 1)[0]
        options = f' hl_lines="{" ".join(map(str, marked))}"' if marked else ""
        parts = [f"{fence}{options}", pretty, "```", ""]
        if pretty != recorded.rstrip("\n"):
            parts += [f'??? note "{_RECORDED[lang]}"', "", _indent(match.group(0), "    "), ""]
        return _code_box("\n".join(parts))

    return _FENCE.sub(shown, section)


def _code_box(markdown: str) -> str:
    """Markdown holding code blocks, in the box whose code wraps (see ``CODE_CLASS``)."""
    return f'<div class="{CODE_CLASS}" markdown>\n\n{markdown.strip()}\n\n</div>'


def pretty_transcript(body: str) -> str:
    """A block's JSON lines pretty-printed (indent 2), a blank line between messages.

    A line is pretty-printed only when that loses nothing: it must be the compact form
    of what it parses to (so no duplicate key, number spelling or escape is lost). Any
    other line (not JSON, or spelled otherwise) is shown as it is.
    """
    return "\n\n".join(_pretty_line(line) for line in body.rstrip("\n").split("\n"))


def _pretty_line(line: str) -> str:
    try:
        message = json.loads(line)
    except ValueError:
        return line
    for ascii_only in (False, True):
        compact = json.dumps(message, separators=(",", ":"), ensure_ascii=ascii_only)
        if compact == line:
            return _pretty_json(message, ascii_only)
    return line


# An object or array this short (its name included, its indentation not) stays on one
# line: {"type": "number"}, or a span attribute {"key": ..., "value": {...}}.
PRETTY_WIDTH = 72


def _pretty_json(value: object, ascii_only: bool, indent: str = "", key: str = "") -> str:
    """``value`` indented by two, an object or array on one line when it fits.

    ``key`` is the member name written before the value (``"a": ``), counted in the
    width; the indentation is not, so deep members (span attributes) stay one a line.
    """
    inline = json.dumps(value, ensure_ascii=ascii_only)
    if not isinstance(value, dict | list) or len(key + inline) <= PRETTY_WIDTH:
        return inline
    if not value:
        return inline
    inner = indent + "  "
    if isinstance(value, dict):
        items = []
        for name, member in value.items():
            label = json.dumps(name, ensure_ascii=ascii_only) + ": "
            items.append(inner + label + _pretty_json(member, ascii_only, inner, label))
        opening, closing = "{", "}"
    else:
        items = [inner + _pretty_json(member, ascii_only, inner) for member in value]
        opening, closing = "[", "]"
    return opening + "\n" + ",\n".join(items) + "\n" + indent + closing


def changed_lines(before: str, after: str) -> tuple[list[int], list[int]]:
    """The 1-based lines of ``before`` and of ``after`` that are not common to both."""
    old, new = before.splitlines(), after.splitlines()
    old_changed: list[int] = []
    new_changed: list[int] = []
    matcher = difflib.SequenceMatcher(a=old, b=new, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag != "equal":
            old_changed.extend(range(i1 + 1, i2 + 1))
            new_changed.extend(range(j1 + 1, j2 + 1))
    return old_changed, new_changed


def _pretty_block(line: str, label: str, web: bool) -> str:
    try:
        pretty = json.dumps(json.loads(line), indent=2, ensure_ascii=False)
    except ValueError:
        pretty = line
    fence = f'```json title="{label}"' if web else f"{label}:\n```json"
    return f"{fence}\n{pretty}\n```"


def _facts(info: RuleInfo, lang: str, web: bool) -> str:
    severity = info.default_severity.value
    fix = info.fix.value
    if lang == "zh":
        facts = f"默认严重级别：**{severity}**。修复：**{fix}**。"
        return facts + (
            f"在终端中运行 `mcp-transcripts explain {info.code}` 可得到相同内容。" if web else ""
        )
    facts = f"Default severity: **{severity}**. Fix: **{fix}**."
    return facts + (
        f" `mcp-transcripts explain {info.code}` prints this page in a terminal." if web else ""
    )


def _options(info: RuleInfo, lang: str, web: bool) -> str:
    code = info.code
    config = (
        '```yaml title=".mcp-transcripts.yaml"\n'
        f"ignore: [{code}]            # everywhere\n"
        "per-file-ignores:\n"
        f'  "fixtures/legacy/**": [{code}]   # only in these files, for check and fix\n'
        "```"
    )
    if info.found_in == "probe":  # the probe runs every case: selection is check's
        return (
            f"- 由 `mcp-transcripts probe` 报告；`--fail-on` 设定使运行以 1 退出的最低严重级别。"
            f"`--select`、`--ignore` 和配置中的 `ignore` 作用于 `check`，而 `check` 不会报告 {code}。"
            if lang == "zh"
            else "- `mcp-transcripts probe` reports it; `--fail-on` sets the lowest severity "
            "that makes the run exit 1. `--select`, `--ignore` and the configuration's "
            f"`ignore` apply to `check`, which does not report {code}."
        )
    if lang == "zh":
        parts = [
            f"- 只运行它：`--select {code}`；跳过它：`--ignore {code}`。"
            f"前缀同样可用（`--select {code[:4]}` 选中 {code[:4]}xx 全部规则）。",
            "- 在配置文件中忽略它，可以全局忽略，也可以只对部分文件忽略"
            "（`per-file-ignores` 对 `check` 和 `fix` 都生效）：",
        ]
    else:
        parts = [
            f"- Run only this rule with `--select {code}`, skip it with `--ignore {code}`. "
            f"A prefix works too (`--select {code[:4]}` selects every {code[:4]}xx rule).",
            "- Ignore it in the configuration file, everywhere or in some files only "
            "(`per-file-ignores` applies to `check` and to `fix`):",
        ]
    parts += ["", _indent(_code_box(config) if web else config, "    "), ""]
    if code in {rule.info.code for rule in tool_call_rules()}:
        if lang == "zh":
            parts.append(
                "- 自研服务器的措辞：`validation-patterns` 和 `unknown-tool-patterns`（正则表达式）"
                "告诉分类器哪些错误消息表示参数无效、哪些表示未知工具；它们决定本规则何时触发。"
            )
        else:
            parts.append(
                "- In-house server wordings: `validation-patterns` and `unknown-tool-patterns` "
                "(regular expressions) tell the classifier which error messages mean invalid "
                "arguments and which mean an unknown tool; they decide when this rule fires."
            )
    if info.fix is FixSafety.UNSAFE:
        parts.append(
            "- `--unsafe-fixes` / `unsafe-fixes: true`：应用本规则的修复。"
            if lang == "zh"
            else "- `--unsafe-fixes` / `unsafe-fixes: true`: apply this rule's fix."
        )
    if web:
        link = "../../how-to/ci-integration.md"
        parts += [
            "",
            (f"所有键见[配置参考]({link})，所有参数见[命令行参考](../cli.md)。")
            if lang == "zh"
            else f"Every key is in the [configuration reference]({link}), every flag in the "
            "[command line reference](../cli.md).",
        ]
    return "\n".join(parts)


def _indent(text: str, prefix: str) -> str:
    return "\n".join(prefix + line if line else line for line in text.splitlines())


def _related(info: RuleInfo) -> list[RuleInfo]:
    """Rules the docstring names, then the others of its series (MCP1xx, MCP2xx, ...)."""
    rules = {rule.code: rule for rule in all_rules()}
    named = [code for code in dict.fromkeys(_CODE.findall(info.doc)) if code in rules]
    series = [code for code in rules if code[:4] == info.code[:4]]
    ordered = dict.fromkeys(named + series)
    ordered.pop(info.code, None)
    return [rules[code] for code in ordered]


def _summary(rule: RuleInfo, lang: str) -> str:
    return rule.summary_zh if lang == "zh" and rule.summary_zh else rule.summary


_MARKDOWN_SPECIAL = re.compile(r"([\\`*_\[\]<>])")


def markdown_literal(text: str) -> str:
    """A summary as literal Markdown text: ``mcp.*`` must not open an emphasis."""
    return _MARKDOWN_SPECIAL.sub(r"\\\1", text)


def _rule_link(rule: RuleInfo, lang: str, web: bool) -> str:
    name = f"{rule.code} `{rule.slug}`"
    shown = f"[{name}]({rule.code.lower()}.md)" if web else name
    return f"{shown}: {markdown_literal(_summary(rule, lang)) if web else _summary(rule, lang)}"


def render_index(lang: str = "en", link_prefix: str = "rules/") -> str:
    """The rules index table: code, name, default severity, fix, summary.

    Each row carries the old in-page anchor (``#mcp101``) so links to the former
    single rules page still land on the rule.
    """
    head = (
        ("| 代码 | 名称 | 默认严重级别 | 修复 | 摘要 |", "| --- | --- | --- | --- | --- |")
        if lang == "zh"
        else (
            "| code | name | default severity | fix | summary |",
            "| --- | --- | --- | --- | --- |",
        )
    )
    rows = [
        f'| <span id="{rule.code.lower()}"></span>[{rule.code}]({link_prefix}{rule.code.lower()}.md) '
        f"| `{rule.slug}` | {rule.default_severity.value} | {rule.fix.value} "
        f"| {markdown_literal(_summary(rule, lang)).replace('|', chr(92) + '|')} |"
        for rule in all_rules()
    ]
    return "\n".join([*head, *rows]) + "\n"
