"""Regenerate the outputs of the documentation examples from the real migrator.

Every folder under ``docs/examples/`` that holds a ``before.jsonl`` is a case. For each
case this writes, next to ``before.jsonl``:

- ``after.jsonl``: ``mcp-transcripts fix -`` with ``before.jsonl`` on standard input;
- ``fix.diff``: ``mcp-transcripts fix --diff docs/examples/<case>/before.jsonl``;
- ``check.txt``: ``mcp-transcripts check docs/examples/<case>/before.jsonl``.

It also writes ``docs/examples/home/{before,after}.json``: one response of one case before
and after the fix, pretty-printed for the home page; and for each tools/call in ``PAIRS``,
the request and its response before and after the fix, pretty-printed for the side-by-side
pairs of the explanation pages:

- ``call-<id>.request.json``: the request;
- ``call-<id>.before.md`` and ``call-<id>.after.md``: the response as a fenced JSON block
  whose ``hl_lines`` are the lines that differ between the two (none when ``fix`` leaves
  the response alone).

Paths in the diff and the findings are relative to the repository root, which is where
the commands run. ``tests/docs/test_examples.py`` renders the same outputs with
``render_case`` and compares them with the files byte for byte.

Usage: ``python scripts/update_doc_examples.py [--check]`` (``--check`` writes nothing and
exits 1 if a file is out of date).
"""

from __future__ import annotations

import contextlib
import difflib
import io
import json
import os
import sys
from dataclasses import dataclass
from pathlib import Path

from migrator.cli import main

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = Path("docs", "examples")
# The response the home page shows: (case, 1-based line in before.jsonl and after.jsonl).
HIGHLIGHT = ("rmcp", 7)
# The tools/calls shown as a request with its response before and after, side by side:
# (case, JSON-RPC id of the request). "weather" mirrors the specification's two cases on
# "Error handling, revised"; the others are the gallery's.
PAIRS = (
    ("weather", 3),
    ("weather", 4),
    ("typescript-sdk", 3),
    ("server-everything", 3),
    ("go-sdk", 3),
    ("rmcp", 3),
)


@dataclass(frozen=True)
class Run:
    exit_code: int
    stdout: bytes
    stderr: bytes


def run_cli(argv: list[str], stdin: bytes = b"") -> Run:
    """Run ``migrator.cli.main(argv)`` in-process with byte-exact standard streams."""

    def stream(data: bytes = b"") -> io.TextIOWrapper:
        # newline="" keeps line endings as they are; `.buffer` is there for byte I/O.
        return io.TextIOWrapper(io.BytesIO(data), encoding="utf-8", newline="")

    stdin_stream, stdout_stream, stderr_stream = stream(stdin), stream(), stream()
    saved_stdin = sys.stdin
    saved_color = os.environ.get("NO_COLOR")
    os.environ["NO_COLOR"] = "1"
    sys.stdin = stdin_stream
    try:
        with contextlib.redirect_stdout(stdout_stream), contextlib.redirect_stderr(stderr_stream):
            exit_code = main(argv)
    finally:
        sys.stdin = saved_stdin
        if saved_color is None:
            del os.environ["NO_COLOR"]
        else:
            os.environ["NO_COLOR"] = saved_color
    stdout_stream.flush()
    stderr_stream.flush()
    return Run(
        exit_code,
        stdout_stream.buffer.getvalue(),  # type: ignore[attr-defined]
        stderr_stream.buffer.getvalue(),  # type: ignore[attr-defined]
    )


def cases(root: Path = ROOT) -> list[str]:
    """Names of the example cases: the folders under docs/examples with a before.jsonl."""
    return sorted(p.parent.name for p in (root / EXAMPLES).glob("*/before.jsonl"))


def render_case(case: str) -> dict[str, bytes]:
    """The generated files of one case, as the migrator produces them now.

    Must run with the repository root as the working directory.
    """
    before = EXAMPLES / case / "before.jsonl"
    return {
        "after.jsonl": run_cli(["fix", "-"], stdin=before.read_bytes()).stdout,
        "fix.diff": run_cli(["fix", "--diff", before.as_posix()]).stdout,
        "check.txt": run_cli(["check", before.as_posix()]).stdout,
    }


def render_highlight() -> dict[Path, bytes]:
    """The home page's pair: one response line of ``HIGHLIGHT``, before and after, indented."""
    case, line = HIGHLIGHT
    before = (EXAMPLES / case / "before.jsonl").read_bytes()
    after = render_case(case)["after.jsonl"]

    def pretty(jsonl: bytes) -> bytes:
        message = json.loads(jsonl.decode("utf-8").splitlines()[line - 1])
        return (json.dumps(message, indent=2, ensure_ascii=False) + "\n").encode("utf-8")

    home = EXAMPLES / "home"
    return {home / "before.json": pretty(before), home / "after.json": pretty(after)}


def _pretty(message: object) -> str:
    return json.dumps(message, indent=2, ensure_ascii=False) + "\n"


def _message_lines(jsonl: bytes) -> list[object]:
    return [json.loads(line) for line in jsonl.decode("utf-8").splitlines()]


def _find(messages: list[object], request_id: int, *, request: bool) -> object:
    for message in messages:
        if (
            isinstance(message, dict)
            and message.get("id") == request_id
            and ("method" in message) == request
        ):
            return message
    kind = "request" if request else "response"
    raise LookupError(f"no {kind} with id {request_id}")


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


def fenced_json(text: str, highlighted: list[int]) -> bytes:
    """A fenced JSON block for pymdownx.highlight, ``highlighted`` lines marked."""
    options = f' hl_lines="{" ".join(map(str, highlighted))}"' if highlighted else ""
    return f"```json{options}\n{text}```\n".encode()


def render_pairs() -> dict[Path, bytes]:
    """For each of ``PAIRS``: the request, and the response before and after ``fix``."""
    files: dict[Path, bytes] = {}
    for case, request_id in PAIRS:
        before_jsonl = (EXAMPLES / case / "before.jsonl").read_bytes()
        before_messages = _message_lines(before_jsonl)
        after_messages = _message_lines(render_case(case)["after.jsonl"])
        request = _pretty(_find(before_messages, request_id, request=True))
        before = _pretty(_find(before_messages, request_id, request=False))
        after = _pretty(_find(after_messages, request_id, request=False))
        before_changed, after_changed = changed_lines(before, after)
        stem = EXAMPLES / case / f"call-{request_id}"
        files[stem.with_name(stem.name + ".request.json")] = request.encode()
        files[stem.with_name(stem.name + ".before.md")] = fenced_json(before, before_changed)
        files[stem.with_name(stem.name + ".after.md")] = fenced_json(after, after_changed)
    return files


def generated_files() -> dict[Path, bytes]:
    """Every generated file and its current content, keyed by path relative to the root."""
    files = {
        EXAMPLES / case / name: content
        for case in cases()
        for name, content in render_case(case).items()
    }
    files.update(render_highlight())
    files.update(render_pairs())
    return files


def update(check_only: bool = False) -> list[Path]:
    """Write (or with ``check_only``, only compare) every generated file; return the stale ones."""
    os.chdir(ROOT)
    stale = []
    for path, content in generated_files().items():
        if not path.exists() or path.read_bytes() != content:
            stale.append(path)
            if not check_only:
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_bytes(content)
    return stale


if __name__ == "__main__":
    check_only = "--check" in sys.argv[1:]
    stale = update(check_only)
    for path in stale:
        print(f"{'out of date' if check_only else 'updated'}: {path.as_posix()}")
    sys.exit(1 if check_only and stale else 0)
