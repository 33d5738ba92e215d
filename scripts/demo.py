"""``make demo``: what mcp-transcripts does, on the recordings in examples/, in one screen.

It runs the real commands (``check``, ``fix --diff``, ``fix`` on a copy and ``check`` again,
and the strict docs build) and prints what each showed, in a few lines each, then a summary.
``check`` exiting 1 is the point of the demo (the recordings have findings) and is said so;
any other failure (exit 2, a failed docs build) fails the demo with its output.

Usage: python scripts/demo.py [--no-docs]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = "examples"
DIFF_EXAMPLE = f"{EXAMPLES}/typescript-sdk-1.20.2.jsonl"  # the plain -32602 case
WIDTH = 100
CLI = [sys.executable, "-m", "migrator"]


class DemoFailed(Exception):
    """A command failed in a way the demo does not expect."""


def run(
    argv: list[str], expected: tuple[int, ...], cwd: Path = ROOT
) -> subprocess.CompletedProcess[str]:
    """Run a command; its exit code must be one of ``expected``."""
    env = {**os.environ, "NO_COLOR": "1", "NO_MKDOCS_2_WARNING": "1"}
    done = subprocess.run(argv, cwd=cwd, env=env, capture_output=True, text=True, check=False)
    if done.returncode not in expected:
        raise DemoFailed(
            f"`{' '.join(argv)}` exited {done.returncode}:\n{done.stdout[-3000:]}{done.stderr[-3000:]}"
        )
    return done


def cut(text: str, room: int) -> str:
    """``text`` on one line, at most ``room`` characters."""
    line = " ".join(text.split())
    return line if len(line) <= room else line[: room - 1] + "…"


def say(text: str = "", indent: int = 0, *, wrap: bool = True) -> None:
    """Print ``text`` wrapped to the demo's width; a list item's lines hang under its text."""
    if not text or not wrap:
        print(" " * indent + text if text else "")
        return
    hang = 2 if text.startswith("- ") else 0
    print(
        textwrap.fill(
            text,
            WIDTH,
            initial_indent=" " * indent,
            subsequent_indent=" " * (indent + hang),
            break_on_hyphens=False,
        )
    )


def step_check() -> dict[str, Any]:
    """check examples/: the findings by rule, and the exit code CI acts on."""
    from migrator.rules import get_rule

    done = run([*CLI, "check", "--output-format", "json", f"{EXAMPLES}/"], expected=(1,))
    report = json.loads(done.stdout)
    summary = report["summary"]
    counts = summary["by_severity"]
    severities = ", ".join(f"{counts[s]} {s}" for s in ("error", "warning", "info") if s in counts)
    say(f"1. mcp-transcripts check {EXAMPLES}/")
    say(
        f"{summary['findings']} findings ({severities}) in {summary['files']} files, "
        f"{summary['messages']} messages; exit code 1, so a CI job fails here",
        3,
    )
    for code, count in sorted(summary["by_code"].items()):
        say(cut(f"{code} ({count}): {get_rule(code).summary}", WIDTH - 3), 3, wrap=False)
    first = next(f for f in report["findings"] if f["code"] == "MCP101")
    say(cut(f"e.g. {first['path']}:{first['line']}: {first['message']}", WIDTH - 3), 3)
    return summary


def _answer(line: str) -> str:
    """A response line of the diff, as the one thing a model reads in it."""
    message = json.loads(line)
    if "error" in message:
        error = message["error"]
        return f"JSON-RPC error {error.get('code')}: {error.get('message', '')}"
    result = message.get("result", {})
    texts = [c.get("text", "") for c in result.get("content", []) if isinstance(c, dict)]
    return f"tool result, isError {str(result.get('isError')).lower()}: {' '.join(texts)}"


def step_diff() -> int:
    """fix --diff: one answer before and after."""
    done = run([*CLI, "fix", "--diff", DIFF_EXAMPLE], expected=(1,))
    lines = done.stdout.splitlines()
    removed = next(i for i, line in enumerate(lines) if line.startswith("-{"))
    hunk_start = max(i for i in range(removed) if lines[i].startswith("@@"))
    first_line = int(lines[hunk_start].split()[1].split(",")[0].lstrip("-"))
    line_no = first_line + sum(
        1 for line in lines[hunk_start + 1 : removed] if not line.startswith("+")
    )
    changed = sum(1 for line in lines if line.startswith("-{"))
    say(f"2. mcp-transcripts fix --diff {DIFF_EXAMPLE}")
    say(f"{changed} responses would be rewritten; line {line_no}, before and after:", 3)
    say(cut("- " + _answer(lines[removed][1:]), WIDTH - 3), 3)
    say(cut("+ " + _answer(lines[removed + 1][1:]), WIDTH - 3), 3)
    return changed


def step_fix(expected_fixes: int) -> None:
    """fix a copy of examples/, then check it again: the fixable findings are gone."""
    with tempfile.TemporaryDirectory(prefix="mcp-transcripts-demo-") as temp:
        copy = Path(temp) / EXAMPLES
        shutil.copytree(ROOT / EXAMPLES, copy)
        fixed = run([*CLI, "fix", "."], expected=(0,), cwd=copy)
        again = run([*CLI, "check", "--select", "MCP101", "."], expected=(0,), cwd=copy)
        untouched = (copy / "README.md").read_bytes() == (
            ROOT / EXAMPLES / "README.md"
        ).read_bytes()
    say(f"3. mcp-transcripts fix, on a copy of {EXAMPLES}/, then check --select MCP101 again")
    say(cut(fixed.stderr.strip().splitlines()[-1], WIDTH - 3), 3)
    left = again.stderr.strip().splitlines()[-1].split(" in ")[0].removeprefix("Found ")
    say(
        f"then {left} with MCP101 (exit code 0); the README beside them is byte for byte the same",
        3,
    )
    if expected_fixes <= 0 or not untouched:
        raise DemoFailed("fix changed nothing, or changed a file it should not have")


def step_docs() -> float:
    """The docs site, built strictly into site/."""
    began = time.perf_counter()
    mkdocs = Path(sys.executable).with_name("mkdocs")
    run(
        [str(mkdocs) if mkdocs.exists() else "mkdocs", "build", "--strict", "--quiet"],
        expected=(0,),
    )
    seconds = time.perf_counter() - began
    say("4. mkdocs build --strict")
    say(f"the docs site (English and Chinese) is in site/, built in {seconds:.0f} s", 3)
    return seconds


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--no-docs", action="store_true", help="leave out the docs build")
    args = parser.parse_args(argv)
    say(f"mcp-transcripts demo: the recorded MCP sessions in {EXAMPLES}/ ({EXAMPLES}/README.md)")
    say()
    try:
        summary = step_check()
        say()
        changed = step_diff()
        say()
        step_fix(changed)
        if not args.no_docs:
            say()
            step_docs()
    except DemoFailed as failure:
        print(f"\ndemo failed: {failure}", file=sys.stderr)
        return 1
    say()
    say("What this showed:")
    say(
        f"- check found {summary['findings']} findings; {summary['by_code'].get('MCP101', 0)} are "
        "MCP101: argument-validation failures sent as JSON-RPC errors, which SEP-1303 says "
        "should be tool results with isError, so the model can read them and retry",
        2,
    )
    say(
        f"- fix rewrites each such answer in place ({changed} in {DIFF_EXAMPLE}) and leaves every "
        "other byte, so a recorded test suite keeps working",
        2,
    )
    say("- after fix, check finds no MCP101 left: the demo ends with exit code 0", 2)
    if not args.no_docs:
        say("- read more: make serve, then http://127.0.0.1:8000/ (or make docs-offline)", 2)
    return 0


if __name__ == "__main__":
    sys.exit(main())
