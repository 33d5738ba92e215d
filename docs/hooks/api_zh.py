"""MkDocs hook: a Chinese summary for each object of the Chinese Python API reference.

mkdocstrings renders the reference from the code's docstrings, which are English, on both
pages. On the Chinese page each documented object (module, class, function, method,
attribute) gets our own Chinese summary, placed above its English docstring, and the
docstring is marked as the English original (``lang="en"``). The docstring section
headings mkdocstrings writes (Parameters, Returns, ...) are put into Chinese too.

An object on the page without a summary here fails the build, and
``tests/docs/test_translated_references.py`` fails for a summary of an object the page no
longer shows: a new public function cannot reach the Chinese page untranslated.
"""

from __future__ import annotations

import html
import re
from typing import Any

PAGE = "migrator/reference/api.zh.md"

SUMMARIES: dict[str, str] = {
    "migrator.api": "Python API：在代码中检查和修复记录。每个函数每次处理一个文件或一个字符串，从不打印，也从不退出。",
    "migrator.api.FixOutcome": "修复一个文件（或一份双文件抓包）的结果：报告、是否改写了文件，以及 diff 模式下的差异。",
    "migrator.api.Options": "如何处理文件：运行模式、选中的规则、是否应用不安全的修复等；由 `migrator.engine.config` 的解析填写。",
    "migrator.api.Options.apply_fixes": "是否构建并验证修改（fix 和 diff 模式）；check 模式只报告。",
    "migrator.api.Options.enabled": "某条规则是否被选中。",
    "migrator.api.Options.fix_allowed": "某种安全级别的修复是否会被应用。",
    "migrator.api.Mode": "一次运行对每个文件做什么：报告（CHECK）、改写（FIX），或以差异显示改写（DIFF）。",
    "migrator.api.Mode.fixes": "此模式是否构建并验证修改（fix 和 diff）；check 只报告。",
    "migrator.api.FileReport": "一个文件的处理结果：发现、读到的消息数、格式，以及改写后的内容或差异。",
    "migrator.api.FileReport.holds_traffic": "文件是否含有 MCP 流量：至少一条 JSON-RPC 消息，或有读取失败的部分。",
    "migrator.api.FileReport.changed": "输出与输入不同时为真。",
    "migrator.api.RunResult": "一次 check 或 fix 运行产生的全部结果：各文件的报告、错误和计数。",
    "migrator.api.RunResult.findings": "所有发现，按路径、行、列和代码排序（作为一个列表）。",
    "migrator.api.RunResult.messages": "所有文件中读到的消息数。",
    "migrator.api.RunResult.refused": "读取了但没有改写的文件：只读、期间被修改，或改写被拒绝。",
    "migrator.api.RunResult.gather": "由各文件的报告和错误（作为值）按其顺序组成一次运行的结果。",
    "migrator.api.RunResult.iter_findings": "逐条给出所有发现，按路径、行、列和代码排序，不必把它们全部留在内存中。",
    "migrator.api.RunResult.iter_rows": "与 iter_findings 次序相同，但给出每条发现的字段元组（行），不构造发现对象：供要写出大量发现的报告器使用。",
    "migrator.api.RunResult.tally": "所有发现的计数（按发现时的原样统计，不展开任何内容）。",
    "migrator.api.RunResult.exit_code": "这次运行的退出码，与 `migrator.engine.exitcodes.EXIT_CODES` 的规定一致。",
    "migrator.api.RunResult.summary": "check 或 fix 之后写到标准错误的一行摘要。",
    "migrator.api.check_file": "检查一个记录文件，以流式读取（对按行的格式，内存占用有上限）。",
    "migrator.api.try_check_file": "供执行器使用的 `check_file`：文件的错误作为值返回，而不是抛出。",
    "migrator.api.merge_reports": "像 check 那样，由各文件的报告和错误组成一次运行的结果。",
    "migrator.api.write_report": "以任意一种 `--output-format` 格式写出结果的报告。",
    "migrator.api.fix_file": "原地、原子地修复一个文件；在 diff 模式下只计算差异。",
    "migrator.api.check_text": "检查保存在字符串中的一份记录。",
    "migrator.api.fix_text": "修复保存在字符串中的一份记录，返回改写后的文本。",
    "migrator.api.check_pair": "检查一份双文件 stdio 抓包（客户端写的和服务器写的）。",
    "migrator.api.fix_pair": "修复一份双文件 stdio 抓包：原地、原子地改写服务器到客户端的那个文件。",
    "migrator.api.iter_transcripts": "要处理的文件：给出的文件原样使用，文件夹则遍历其中的记录文件。",
    "migrator.engine.runner": "处理许多文件：遍历、工作进程池、按顺序输出，错误作为值返回。",
    "migrator.engine.runner.run": "检查或修复（按 `options.mode`）各路径下的每个记录文件或双文件抓包，返回 `RunResult`；从不打印。",
    "migrator.cli": "命令行：`migrator.api` 之上的薄薄一层。",
    "migrator.cli.main": "运行命令行并返回退出码（自身从不调用 `sys.exit`）。",
    "migrator.cli.build_parser": "命令行实际使用的参数解析器（文档的命令行参考由它生成）；`lang=\"zh\"` 时帮助文本为中文。",
    "migrator.rules.registry": "规则注册表：所有规则，可按代码或 slug 查找，以及分派表。",
    "migrator.rules.registry.RuleInfo": "面向用户的规则信息：代码、名字、默认行为和文档。",
    "migrator.rules.registry.RuleInfo.title": "规则的标题：代码加 slug，例如 `MCP101 validation-error-as-protocol-error`。",
    "migrator.rules.registry.all_rules": "所有规则，按代码排序。",
}

# The headings mkdocstrings writes into a docstring's sections and tables.
SECTION_TITLES = {
    "Parameters:": "参数：",
    "Returns:": "返回：",
    "Yields:": "产出：",
    "Raises:": "异常：",
    "Attributes:": "属性：",
    "Methods:": "方法：",
    "Functions:": "函数：",
    "Classes:": "类：",
    "Modules:": "模块：",
    "Examples:": "示例：",
    "Notes:": "注：",
}
COLUMNS = {"Name": "名称", "Type": "类型", "Description": "说明", "Default": "默认值"}

_HEADING = re.compile(r'<h(?P<level>\d) id="(?P<id>migrator\.[\w.]+)" class="doc doc-heading">')
_CONTENTS = '<div class="doc doc-contents'


def documented(page_html: str) -> list[str]:
    """The objects the rendered API page documents, in page order."""
    return [match.group("id") for match in _HEADING.finditer(page_html)]


def on_page_content(page_html: str, page: Any, config: Any, files: Any, **kwargs: Any) -> str:
    if page.file.src_uri != PAGE:
        return page_html
    return translate(page_html)


def translate(page_html: str) -> str:
    """The Chinese API page: summaries above the English docstrings, section titles in Chinese."""
    missing = [name for name in documented(page_html) if name not in SUMMARIES]
    if missing:
        raise KeyError(f"no Chinese summary for {missing}: add them to docs/hooks/api_zh.py")
    out: list[str] = []
    position = 0
    for match in _HEADING.finditer(page_html):
        contents = page_html.find(_CONTENTS, match.end())
        if contents < 0:
            continue
        opened = page_html.index(">", contents) + 1
        out.append(page_html[position:contents])
        out.append('<div lang="en" ' + page_html[contents + len("<div ") : opened])
        out.append(
            f'<p class="zh-summary" lang="zh-Hans"><strong>中文摘要：</strong>'
            f"{_inline(SUMMARIES[match.group('id')])}</p>"
            '<p class="zh-original-note" lang="zh-Hans"><em>以下为代码中的英文文档字符串：</em></p>'
        )
        position = opened
    out.append(page_html[position:])
    translated = "".join(out)
    for english, chinese in SECTION_TITLES.items():
        translated = translated.replace(
            f'<span class="doc-section-title">{english}</span>',
            f'<span class="doc-section-title">{chinese}</span>',
        )
    for english, chinese in COLUMNS.items():
        translated = translated.replace(f"<th>{english}</th>", f"<th>{chinese}</th>")
    return translated.replace("<em>required</em>", "<em>必填</em>")


def _inline(text: str) -> str:
    """``code`` spans of a summary as HTML, the rest escaped."""
    parts = text.split("`")
    return "".join(
        f"<code>{html.escape(part)}</code>" if index % 2 else html.escape(part)
        for index, part in enumerate(parts)
    )
