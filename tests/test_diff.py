"""The diffs: the whole-text one, and the streaming one that must match it byte for byte."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from migrator.fix.diff import NO_NEWLINE, StreamingDiff, _aligned_diff, unified_diff
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


@st.composite
def colliding_lines(draw: st.DrawFn) -> tuple[list[str], list[str]]:
    """Line-for-line texts from a few lines, so changed lines often equal lines elsewhere."""
    before = draw(st.lists(st.sampled_from(["a\n", "b\n", "c\n", "d\r\n"]), max_size=40))
    after = [
        draw(st.sampled_from(["a\n", "b\n", "x\n", "y\r\n"])) if draw(st.booleans()) else line
        for line in before
    ]
    if before and draw(st.booleans()):  # no newline at the end of the file
        before[-1], after[-1] = before[-1].rstrip("\r\n"), after[-1].rstrip("\r\n")
    return before, after


def _apply(diff: str, before: str) -> str:
    """``before`` with a unified diff applied, as ``patch`` would (for the test below)."""
    old, out, at, sign = split_lines(before), [], 0, ""
    for line in split_lines(diff):
        if line.startswith(("--- ", "+++ ")):
            continue
        if line.startswith("@@ "):
            start = int(line.split(" ")[1][1:].split(",")[0])
            count = line.split(" ")[1].split(",")
            first = start - 1 if len(count) == 1 or count[1] != "0" else start
            out += old[at:first]
            at = first
        elif line == NO_NEWLINE:
            if sign != "-":  # the line before it, as written, has no newline
                out[-1] = out[-1].removesuffix("\n")
        elif line[0] in " -":
            assert old[at] in (line[1:], line[1:].removesuffix("\n"))
            at += 1
            if line[0] == " ":
                out.append(line[1:])
        else:
            out.append(line[1:])
        sign = line[0]
    return "".join(out + old[at:])


@settings(max_examples=examples(400), deadline=None)
@given(colliding_lines(), st.sampled_from([0, 1, 3]))
def test_streaming_diff_applies_when_lines_repeat(
    lines: tuple[list[str], list[str]], context: int
) -> None:
    # Where a changed line also stands elsewhere, the whole-text diff may pair it with
    # that other line; the streaming diff pairs each line with itself. Both apply.
    old_lines, new_lines = lines
    streaming = StreamingDiff("t.jsonl", context)
    out = "".join(streaming.feed(old, new) for old, new in zip(old_lines, new_lines, strict=True))
    out += streaming.finish()
    assert _apply(out, "".join(old_lines)) == "".join(new_lines)
    changed = {i for i, (a, b) in enumerate(zip(old_lines, new_lines, strict=True)) if a != b}
    if not any(old_lines[i] in new_lines or new_lines[i] in old_lines for i in changed):
        assert out == unified_diff("".join(old_lines), "".join(new_lines), "t.jsonl", context)


@settings(max_examples=examples(400), deadline=None)
@given(colliding_lines())
def test_a_hunk_written_directly_is_difflibs(lines: tuple[list[str], list[str]]) -> None:
    old, new = lines
    if old == new:
        return
    whole = unified_diff("".join(old), "".join(new), "t.jsonl", context=len(old))
    direct = _aligned_diff(old, new, "t.jsonl")
    assert direct in (None, whole)
    changed = {index for index, (a, b) in enumerate(zip(old, new, strict=True)) if a != b}
    if not any(old[i] in new or new[i] in old for i in changed):
        assert direct == whole  # no changed line appears on the other side: written directly
