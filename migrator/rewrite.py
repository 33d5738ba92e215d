"""Build the replacement text for a rewritten response.

A rewrite replaces one member of the response object (``error`` becomes
``result``, or the reverse) and nothing else: the id, the other members, their
order and spelling, and every byte around the message stay as they were. The
new member is written in the message's own JSON style.
"""

from __future__ import annotations

from typing import Any

from migrator import jsontext
from migrator.classify import Verdict
from migrator.model import Edit, SourceMessage
from migrator.provenance import ORIGINAL_ERROR as PROVENANCE_KEY
from migrator.provenance import ORIGINAL_RESULT as PROVENANCE_RESULT_KEY
from migrator.wording import Issue, MessageKind

RESULT_TYPE_FROM = "2026-07-28"


def needs_result_type(version: str | None) -> bool:
    """``resultType`` is required on results from 2026-07-28 on."""
    return version is not None and (version == "draft" or version >= RESULT_TYPE_FROM)


def validation_text(verdict: Verdict, original_message: Any) -> str:
    """Text for the model: what was wrong with its arguments and where.

    Keeps the server's own words. A zod or pydantic dump becomes one
    ``- <message> at <path>`` line per issue; a bare "Invalid params" is
    explained from the arguments validated against the tool's inputSchema; a
    specific sentence (a business rule: "Dates must be in the future") is kept
    as it is.
    """
    reading = verdict.reading
    tool = verdict.tool or "?"
    original = reading.text if reading is not None else str(original_message)
    if reading is not None and reading.issues and reading.kind is MessageKind.VALIDATION:
        header = reading.header
        if not header or tool not in header:
            header = f"Invalid arguments for tool {tool}" + (f" ({header})" if header else "")
        return _with_issues(header, reading.issues)
    generic = reading is None or reading.kind is MessageKind.GENERIC_VALIDATION
    if generic and verdict.schema_issues:
        return _with_issues(f"{original.rstrip('.')} (tool {tool})", verdict.schema_issues)
    if generic:
        return f"{original.rstrip('.')} (tool {tool}): the arguments were rejected"
    return original


def _with_issues(header: str, issues: tuple[Issue, ...]) -> str:
    return header.rstrip(":") + ":\n" + "\n".join(f"- {issue.render()}" for issue in issues)


def tool_error_result(
    text: str, version: str | None, original_error: Any, provenance: bool
) -> dict[str, Any]:
    """The ``isError`` tool result that replaces a protocol error."""
    result: dict[str, Any] = {"content": [{"type": "text", "text": text}], "isError": True}
    if needs_result_type(version):
        result["resultType"] = "complete"
    if provenance:
        result["_meta"] = {PROVENANCE_KEY: original_error}
    return result


def unknown_tool_error(tool: str, text: str | None, original_result: Any, provenance: bool) -> dict[str, Any]:
    """The ``-32602`` protocol error that replaces an unknown tool's ``isError`` result."""
    message = text if text else f"Unknown tool: {tool}"
    error: dict[str, Any] = {"code": -32602, "message": message}
    if provenance:
        error["data"] = {PROVENANCE_RESULT_KEY: original_result}
    return error


def replace_member(unit_text: str, message: SourceMessage, old_key: str, new_key: str, value: Any) -> Edit:
    """An edit that swaps member ``old_key`` of a message for ``new_key: value``.

    The separator between key and value is kept; the value is written in the
    message's style.
    """
    members = jsontext.object_members(unit_text, message.start)
    matching = [index for index, m in enumerate(members) if m.key == old_key]
    member = members[matching[-1]]  # parsers keep the last of duplicate keys, and so did we
    separator = member.separator(unit_text)
    indent = jsontext.line_indent(unit_text, member.key_start)
    # The style is read off the message only now: rewrites are rare, and
    # reading it for every message would cost more than parsing them.
    style = message.style or jsontext.detect_style(unit_text[message.start : message.end])
    replacement = style.dumps(new_key) + separator + style.dumps(value, indent)
    if len(matching) == 1:
        return Edit(member.key_start, member.value_end, replacement)
    # The key is there more than once: the earlier copies go too (each with
    # what separates it from the member after it), or the output would hold
    # both the old member and the new one.
    first = members[matching[0]].key_start
    kept: list[str] = []
    position = first
    for index in matching[:-1]:
        kept.append(unit_text[position : members[index].key_start])
        position = members[index + 1].key_start
    kept.append(unit_text[position : member.key_start])
    return Edit(first, member.value_end, "".join(kept) + replacement)
