"""The edit stage: what a fix writes, and the check that it is valid before it is written.

A rewrite replaces one member of the response object (``error`` becomes
``result``, or the reverse) and nothing else: the id, the other members, their
order and spelling, and every byte around the message stay as they were. The
new member is written in the message's own JSON style.

Rules decide *whether* a response is rewritten and hand over a :class:`Rewrite`;
this module builds the new values (:func:`rewrite_as_tool_error`,
:func:`unknown_tool_error`), the edit (:func:`replace_member`) and refuses a
rewrite that would not be valid for its protocol version (:func:`check_rewrite`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from migrator.errors import UnsafeRewriteError
from migrator.judge.argument_blame import blamed_argument
from migrator.judge.classify import Outcome, Verdict
from migrator.judge.json_messages import json_message
from migrator.judge.wording import Issue, MessageKind, complaint_of, generic_detail
from migrator.model import jsontext
from migrator.model.provenance import ORIGINAL_ERROR as PROVENANCE_KEY
from migrator.model.provenance import ORIGINAL_RESULT as PROVENANCE_RESULT_KEY
from migrator.model.session import Exchange
from migrator.model.units import Edit, SourceMessage, Unit

RESULT_TYPE_FROM = "2026-07-28"
UNKNOWN_VERSION_TARGET = "2025-11-25"


@dataclass(frozen=True)
class Rewrite:
    """A fix: the edit, and what the rewritten response must validate as."""

    edit: Edit
    member: str  # "result" or "error": the member the response has afterwards
    value: Any  # its new value
    version: str | None


def needs_result_type(version: str | None) -> bool:
    """``resultType`` is required on results from 2026-07-28 on."""
    return version is not None and (version == "draft" or version >= RESULT_TYPE_FROM)


def validation_text(verdict: Verdict, original_message: Any) -> str:
    """Text for the model: what was wrong with its arguments and where, one sentence a problem.

    Keeps the server's own words. A zod, pydantic, Go, serde or python-jsonschema
    problem becomes one ``- <message> at <path>`` line per issue (python-jsonschema's
    Python ``repr`` worded in JSON's terms); where the words do not name the
    argument, it is named from the request's arguments and the tool's
    inputSchema, or the line says it could not be. A bare "Invalid params" is
    explained from the arguments validated against the tool's inputSchema; a
    generic wording with a detail ("Invalid params: sku must match ...") keeps
    the detail and adds only the schema problems it does not already name. A
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
        return _with_issues(header, tuple(_placed(issue, verdict) for issue in reading.issues))
    generic = reading is None or reading.kind is MessageKind.GENERIC_VALIDATION
    if generic and verdict.schema_issues:
        split = generic_detail(original)
        if split is None:
            return _with_issues(f"{original.rstrip('.')} (tool {tool})", verdict.schema_issues)
        prefix, detail = split
        head = f"{prefix} (tool {tool}): {detail}"
        others = [
            issue for issue in verdict.schema_issues if not _names_same_problem(detail, issue)
        ]
        return head + "".join(f"\n- {issue.render()}" for issue in others)
    if generic:
        return f"{original.rstrip('.')} (tool {tool}): the arguments were rejected"
    return original


UNPLACED = "the argument it concerns could not be told from the request"
_QUOTED_NAME = re.compile(r'^"((?:[^"\\]|\\.)*)"')


def _names_same_problem(detail: str, issue: Issue) -> bool:
    """Whether the server's ``detail`` already tells the model about ``issue``.

    It does when it says the same sentence, or names the argument the issue
    is about (``sku must match ...`` for a pattern problem at ``arguments.sku``).
    """
    words = detail.casefold().rstrip(".")
    if words == issue.message.casefold().rstrip("."):
        return True
    name: object = issue.path[0] if issue.path else None
    if name is None:  # a required or additional property: the name is in the message
        quoted = _QUOTED_NAME.search(issue.message)
        name = quoted.group(1) if quoted else None
    if not isinstance(name, str) or not name:
        return False
    return re.search(rf"(?<![\w.-]){re.escape(name.casefold())}(?![\w-])", words) is not None


def _placed(issue: Issue, verdict: Verdict) -> Issue | str:
    """The issue at the argument it means, when its own path stops at ``arguments``.

    A line that cannot be placed says so instead of pointing at ``arguments``.
    """
    if issue.path:
        return issue
    complaint = issue.complaint or complaint_of(issue.message)
    if complaint is None:
        return issue  # words that name no type: nothing to place by
    if not isinstance(verdict.arguments, dict):
        return issue  # about the arguments as a whole: none were sent, or not an object
    name = blamed_argument(complaint, verdict.arguments, verdict.input_schema)
    if name is None:
        return f"{issue.message} ({UNPLACED})"
    return Issue(issue.message, (name,))


def _with_issues(header: str, issues: tuple[Issue | str, ...]) -> str:
    lines = (issue.render() if isinstance(issue, Issue) else issue for issue in issues)
    return header.rstrip(":") + ":\n" + "\n".join(f"- {line}" for line in lines)


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


def unknown_tool_error(
    tool: str, text: str | None, original_result: Any, provenance: bool
) -> dict[str, Any]:
    """The ``-32602`` protocol error that replaces an unknown tool's ``isError`` result."""
    message = text if text else f"Unknown tool: {tool}"
    error: dict[str, Any] = {"code": -32602, "message": message}
    if provenance:
        error["data"] = {PROVENANCE_RESULT_KEY: original_result}
    return error


def replace_member(
    unit_text: str, message: SourceMessage, old_key: str, new_key: str, value: Any
) -> Edit:
    """An edit that swaps member ``old_key`` of a message for ``new_key: value``.

    The separator between key and value is kept; the value is written in the
    message's style.
    """
    payload = message.payload
    compact = (
        jsontext.compact_members(unit_text, message.start, message.end, payload)
        if type(payload) is dict
        else None
    )
    members = compact or jsontext.object_members(unit_text, message.start)
    matching = [index for index, m in enumerate(members) if m.key == old_key]
    member = members[matching[-1]]  # parsers keep the last of duplicate keys, and so did we
    separator = member.separator(unit_text)
    indent = jsontext.line_indent(unit_text, member.key_start)
    # The style is read off the message only now: rewrites are rare, and
    # reading it for every message would cost more than parsing them.
    style = (
        message.style
        or (
            jsontext.COMPACT  # what detect_style makes of orjson's compact writing, known already
            if compact is not None
            else jsontext.detect_style(unit_text[message.start : message.end])
        )
    )
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


def rewrite_as_tool_error(
    exchange: Exchange, verdict: Verdict, unit_text: str, provenance: bool
) -> Rewrite:
    """The fix shared by MCP101, MCP103 and MCP104: the error becomes an isError result.

    Args:
        unit_text: the text holding the response, which the edit refers to.
        provenance: keep the original error under a namespaced key.
    """
    error = exchange.response.payload["error"]
    original_message = error.get("message") if isinstance(error, dict) else None
    if verdict.outcome is Outcome.TOOL_FAILURE and verdict.reading is not None:
        text = verdict.reading.text
    else:
        text = validation_text(verdict, original_message)
    result = tool_error_result(text, exchange.version, error, provenance)
    edit = replace_member(unit_text, exchange.response, "error", "result", result)
    return Rewrite(edit, "result", result, exchange.version)


def check_rewrite(
    unit: Unit, message: SourceMessage, rewrite: Rewrite, line: int, path: str
) -> None:
    """Refuse to write a rewritten message that is not valid for its protocol version.

    The check runs on the text that would be written, parsed back, so it
    covers the serialisation as well as the value.

    Raises:
        UnsafeRewriteError: the rewritten message is not valid JSON or fails validation.
    """
    edit = rewrite.edit
    new_text = (
        unit.text[message.start : edit.start] + edit.replacement + unit.text[edit.end : message.end]
    )
    try:  # orjson where it can; the strict decoder words a failure
        payload = jsontext.loads(new_text)
    except ValueError as exc:
        raise UnsafeRewriteError(
            f"rewritten message is not valid JSON: {exc}", path=path, line=line
        ) from exc
    problems = rewrite_problems(payload, rewrite.member, rewrite.version)
    if problems:
        raise UnsafeRewriteError(
            "rewritten message fails validation, nothing written: " + "; ".join(problems),
            path=path,
            line=line,
        )


def rewrite_problems(payload: Any, member: str, version: str | None) -> list[str]:
    """Why a rewritten response is invalid (empty when it is valid)."""
    from migrator.judge import schemas, validation

    # Without a known version the rewrite is written as SEP-1303 defines it
    # (2025-11-25, no resultType) and validated as that.
    governing = schemas.closest_version(version or UNKNOWN_VERSION_TARGET)
    problems: list[str] = []
    envelope = "JSONRPCResultResponse" if member == "result" else "JSONRPCErrorResponse"
    rpc = validation.jsonrpc(envelope)
    if not rpc.is_valid(payload):  # the compiled fast path decides; words only on failure
        problems += [
            f"as a JSON-RPC {member} response: {json_message(e)}" for e in rpc.errors(payload)
        ]
    if member == "result" and isinstance(payload, dict):
        result = validation.mcp(governing, "CallToolResult")
        if not result.is_valid(payload.get("result")):
            for error in result.errors(payload.get("result")):
                where = "/".join(str(p) for p in error.absolute_path)
                problems.append(
                    f"as a {governing} CallToolResult at /{where}: {json_message(error)}"
                )
    return problems
