"""The diffs: the whole-text one, and the streaming one that must match it byte for byte."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from migrator.fix.diff import StreamingDiff, unified_diff
from migrator.model.source import split_lines
from tests.conftest import examples


def test_no_newline_marker() -> None:
    diff = unified_diff("a\nb", "a\nc", "t.jsonl")
    assert (
        diff
        == "--- a/t.jsonl\n+++ b/t.jsonl\n@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+c\n\\ No newline at end of file\n"
    )


def test_same_text_no_diff() -> None:
    assert unified_diff("a\n", "a\n", "t") == ""


@st.composite
def line_for_line(draw: st.DrawFn) -> tuple[str, str]:
    count = draw(st.integers(0, 60))
    before = [f"line {i}\n" if draw(st.booleans()) else f'{{"id":{i}}}\r\n' for i in range(count)]
    changed = draw(st.sets(st.integers(0, max(0, count - 1)), max_size=count)) if count else set()
    after = [f"new {i}\n" if i in changed else line for i, line in enumerate(before)]
    if count and draw(st.booleans()):  # no newline at the end of the file
        before[-1] = before[-1].rstrip("\r\n")
        after[-1] = after[-1].rstrip("\r\n")
    return "".join(before), "".join(after)


@settings(max_examples=examples(400), deadline=None)
@given(line_for_line(), st.sampled_from([0, 1, 3]))
def test_streaming_diff_matches_the_whole_diff(texts: tuple[str, str], context: int) -> None:
    before, after = texts
    old_lines, new_lines = split_lines(before), split_lines(after)
    if len(old_lines) != len(new_lines):
        return  # not line for line: the streaming diff is not used for such files
    streaming = StreamingDiff("t.jsonl", context)
    out = "".join(streaming.feed(old, new) for old, new in zip(old_lines, new_lines, strict=True))
    out += streaming.finish()
    assert out == unified_diff(before, after, "t.jsonl", context)


def test_absolute_path_header_as_git_writes_it() -> None:
    diff = unified_diff("a\n", "b\n", "/abs/path/t.jsonl")
    assert diff.startswith("--- a/abs/path/t.jsonl\n+++ b/abs/path/t.jsonl\n")


def test_absolute_path_header_of_the_streaming_diff() -> None:
    streaming = StreamingDiff("/abs/t.jsonl")
    text = streaming.feed("a\n", "b\n") + streaming.finish()
    assert text.startswith("--- a/abs/t.jsonl\n+++ b/abs/t.jsonl\n")
