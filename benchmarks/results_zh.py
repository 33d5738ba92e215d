"""The Chinese benchmark tables: ``results.md`` with every label translated, numbers untouched.

``benchmarks/run.py`` writes ``results.zh.md`` next to ``results.md`` with :func:`to_chinese`,
and the Chinese Performance page includes it. A label (a task, a ratio, a column, a
paragraph added by hand) without an entry here raises :class:`KeyError` naming it, so a new
benchmark row cannot reach the Chinese page in English; ``tests/test_results_zh.py`` checks
that the committed file is the translation of the committed ``results.md``.

Usage: ``python benchmarks/results_zh.py [RESULTS_DIR]`` rewrites ``results.zh.md`` from
``results.md`` (no measuring).
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

LABELS = {
    # columns
    "task": "任务",
    "seconds (median)": "秒（中位数）",
    "MB/s": "MB/s",
    "messages/s": "消息/秒",
    "peak RSS (MB)": "峰值 RSS（MB）",
    "ratio": "比值",
    "value": "值",
    "run": "运行",
    "command": "命令",
    "CPU seconds (median)": "CPU 秒（中位数）",
    "spans/s": "span/秒",
    "target": "目标",
    "messages": "消息数",
    "wanted": "要求",
    "measured": "实测",
    "met?": "达到？",
    # cells of the targets table
    "yes": "是",
    "no": "否",
    "not measured": "未测量",
    "-": "-",
    "check: share of orjson parse-only throughput": "check：占 orjson 仅解析吞吐量的比例",
    "check: speed-up over the jq one-liner": "check：相对 jq 单行命令的加速比",
    "fix --diff: share of orjson parse-only throughput": "fix --diff：占 orjson 仅解析吞吐量的比例",
    "peak RSS of check, fix and fix --diff (MB)": "check、fix 与 fix --diff 的峰值 RSS（MB）",
    "MCP-only OTLP trace: share of orjson parse-only (CPU time)": (
        "只含 MCP span 的 OTLP trace：占 orjson 仅解析的比例（CPU 时间）"
    ),
    "`mcp-transcripts --version` (seconds)": "`mcp-transcripts --version`（秒）",
    "HTTP proxy: latency added per call, median (ms)": "HTTP 代理：每次调用增加的延迟，中位数（毫秒）",
    # tasks (tool names and command lines stay as they are)
    "orjson parse only": "只用 orjson 解析",
    "json parse only": "只用 json 解析",
    "msgspec envelope decode only (prefilter-free)": "只用 msgspec 解码信封（无预过滤）",
    "jq select (detect only)": "jq select（只检测）",
    "check-jsonschema (JSON-RPC schema)": "check-jsonschema（JSON-RPC schema）",
    "mcp-transcripts check": "mcp-transcripts check",
    "mcp-transcripts check --select MCP1: tools/call outcomes (MCP101-MCP104)": (
        "mcp-transcripts check --select MCP1：tools/call 结果（MCP101-MCP104）"
    ),
    "mcp-transcripts check --select MCP2: schema validation (MCP201-MCP206)": (
        "mcp-transcripts check --select MCP2：schema 验证（MCP201-MCP206）"
    ),
    "mcp-transcripts check --select MCP3: envelope and pairing (MCP301-MCP304)": (
        "mcp-transcripts check --select MCP3：信封与配对（MCP301-MCP304）"
    ),
    "mcp-transcripts check -j 2 (one file, two processes)": (
        "mcp-transcripts check -j 2（一个文件，两个进程）"
    ),
    "mcp-transcripts fix --diff": "mcp-transcripts fix --diff",
    "mcp-transcripts fix": "mcp-transcripts fix",
    "orjson parse only (MCP-only OTLP trace)": "只用 orjson 解析（只含 MCP span 的 OTLP trace）",
    "mcp-transcripts check (MCP-only OTLP trace)": (
        "mcp-transcripts check（只含 MCP span 的 OTLP trace）"
    ),
    # ratios
    "mcp-transcripts check: share of orjson parse-only throughput": (
        "mcp-transcripts check：占 orjson 仅解析吞吐量的比例"
    ),
    "mcp-transcripts fix: share of orjson parse-only throughput": (
        "mcp-transcripts fix：占 orjson 仅解析吞吐量的比例"
    ),
    "mcp-transcripts fix --diff: share of orjson parse-only throughput": (
        "mcp-transcripts fix --diff：占 orjson 仅解析吞吐量的比例"
    ),
    "mcp-transcripts check: share of msgspec envelope-only throughput": (
        "mcp-transcripts check：占 msgspec 仅解码信封吞吐量的比例"
    ),
    "check -j 2 on one file: speed-up over -j 1": "对一个文件 check -j 2：相对 -j 1 的加速比",
    "check -j 2 on one file: CPU seconds against -j 1": "对一个文件 check -j 2：CPU 秒数与 -j 1 之比",
    "check speed-up over the jq one-liner": "check 相对 jq 单行命令的加速比",
    "check speed-up over check-jsonschema": "check 相对 check-jsonschema 的加速比",
    # runs
    "one large file, -j 1": "一个大文件，-j 1",
    "20 small files, -j 1": "20 个小文件，-j 1",
    "20 small files, -j 2": "20 个小文件，-j 2",
    "`mcp-transcripts --version`": "`mcp-transcripts --version`",
    "`check on a 1-line file`": "`check`（只有一行的文件）",
    # section headings
    "Many files and worker processes": "多个文件与工作进程",
    "Start-up": "启动",
    "Against the targets (issue 29)": "与目标对照（issue 29）",
    "After the second pass on the tools/call path: 100,000 messages, a later run": (
        "tools/call 路径第二轮优化之后：100,000 条消息，稍后的一次运行"
    ),
}

# Paragraphs added to results.md by hand, keyed by their English (joined to one line).
PARAGRAPHS = {
    "One run of `benchmarks/run.py --sizes 100000 --repeat 3` after the second pass (issue 15), "
    "on the same machine while other jobs were running: wall-clock rows are noisier than the "
    "ones above (the `MCP3` row, which does the least, came out at 3.89 s against 1.98 s above). "
    "check-jsonschema was not measured in this run.": (
        "第二轮优化之后（issue 15）运行一次 `benchmarks/run.py --sizes 100000 --repeat 3`，"
        "机器相同，但同时有别的任务在运行：墙钟时间比上面几行噪声更大（做得最少的 `MCP3` 那一行"
        "为 3.89 秒，上面是 1.98 秒）。这次运行没有测量 check-jsonschema。"
    ),
}

_MEASURED = re.compile(r"Measured on (?P<machine>.+)\.$")
_SIZE = re.compile(r"### (?P<messages>[\d,]+) messages \((?P<mb>[\d,.]+) MB\)$")
_TRACE = re.compile(r"### MCP-only OTLP trace \((?P<mb>[\d,.]+) MB\)$")
_NUMBER = re.compile(r"[\d,.]+(?:%|x| s)?")


def label(text: str) -> str:
    """The Chinese of one label; numbers stay as they are."""
    if _NUMBER.fullmatch(text) or text.startswith("---") or text.startswith(":---"):
        return text
    if text not in LABELS:
        raise KeyError(
            f"no Chinese for the benchmark label {text!r}: add it to benchmarks/results_zh.py"
        )
    return LABELS[text]


def anchor(heading: str) -> str:
    """``{#slug}``: the anchor the English heading gets (as Markdown's toc makes it), so links
    into the tables work in both languages."""
    slug = re.sub(r"[^\w\s-]", "", heading.lower()).strip()
    return "{#" + re.sub(r"[-\s]+", "-", slug) + "}"


def to_chinese(markdown: str) -> str:
    """``results.md`` in Chinese, line for line (a paragraph becomes one line)."""
    out: list[str] = []
    paragraph: list[str] = []

    def flush() -> None:
        if paragraph:
            text = " ".join(paragraph)
            if text not in PARAGRAPHS:
                raise KeyError(
                    f"no Chinese for the paragraph {text!r}: add it to benchmarks/results_zh.py"
                )
            out.append(PARAGRAPHS[text])
            paragraph.clear()

    for line in markdown.splitlines():
        if line.startswith("|"):
            flush()
            cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
            out.append("| " + " | ".join(label(cell) for cell in cells) + " |")
        elif match := _MEASURED.fullmatch(line):
            flush()
            machine = re.sub(r"(\d+) cores", r"\1 核", match.group("machine"))
            out.append(f"测量环境：{machine}。")
        elif match := _SIZE.fullmatch(line):
            flush()
            out.append(
                f"### {match.group('messages')} 条消息（{match.group('mb')} MB） {anchor(line[4:])}"
            )
        elif match := _TRACE.fullmatch(line):
            flush()
            out.append(
                f"### 只含 MCP span 的 OTLP trace（{match.group('mb')} MB） {anchor(line[4:])}"
            )
        elif line.startswith("### "):
            flush()
            out.append("### " + label(line[4:]) + " " + anchor(line[4:]))
        elif not line.strip():
            flush()
            out.append("")
        else:
            paragraph.append(line.strip())
    flush()
    return "\n".join(out) + "\n"


def main(argv: list[str]) -> int:
    folder = Path(argv[0]) if argv else Path(__file__).resolve().parent / "results"
    english = (folder / "results.md").read_text(encoding="utf-8")
    (folder / "results.zh.md").write_text(to_chinese(english), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
