"""Decide what a ``tools/call`` error really is, and say why.

Every piece of evidence counts: the shape of the request, the tool catalog, the
tool's ``inputSchema`` (the call's arguments are validated against it), the
JSON-RPC error code and the wording of the message. Each verdict carries the
evidence that decided it, in words, so a finding can explain itself.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from migrator.judge.validation import ToolSchemas, pointer
from migrator.judge.wording import (
    ARGUMENT_WORDS,
    Issue,
    MessageKind,
    MessageReading,
    WordingReader,
)
from migrator.model.jsontext import a_json_type, display, json_type
from migrator.model.provenance import rewritten_error, rewritten_result
from migrator.model.session import Exchange, ToolTrack
from migrator.model.tool_results import plain_tool_result
from migrator.model.units import Kind

INVALID_PARAMS = -32602
INTERNAL_ERROR = -32603
METHOD_NOT_FOUND = -32601
INVALID_REQUEST = -32600


class Outcome(str, Enum):
    """What happened in a ``tools/call`` that did not simply succeed."""

    INPUT_VALIDATION = "input-validation"
    UNKNOWN_TOOL = "unknown-tool"
    MALFORMED_REQUEST = "malformed-request"
    TOOL_FAILURE = "tool-failure"
    SERVER_ERROR = "server-error"
    AMBIGUOUS = "ambiguous"
    TOOL_RESULT = "tool-result"  # an ordinary result, error or not


@dataclass  # not frozen: one per tools/call exchange judged, and frozen fields cost 6x to set
class Verdict:
    """The outcome of one exchange, with the evidence for it (read-only once made)."""

    outcome: Outcome
    evidence: tuple[str, ...]
    tool: str | None = None
    reading: MessageReading | None = None
    schema_issues: tuple[Issue, ...] = ()
    schema_keyword: str | None = None
    schema_pointer: str | None = None
    arguments_checked: bool = False  # the arguments were validated against a known inputSchema
    arguments: Any = None  # as the request sent them, to name the one a message means
    input_schema: Any = None  # the tool's, when the catalog has it


@dataclass
class ArgumentChecker:
    """Validates call arguments against tool input schemas, reusing validators."""

    schemas: ToolSchemas = field(default_factory=ToolSchemas)

    def issues(
        self, schema: Any, arguments: Any, version: str | None
    ) -> tuple[tuple[Issue, ...], str | None, str | None] | None:
        """Problems of ``arguments`` against ``schema``; ``None`` if the schema is unusable.

        Valid arguments are decided by the compiled fast path; only invalid
        ones are worded by python-jsonschema.
        """
        validator = self.schemas.get(schema, version)
        if validator is None:
            return None
        try:
            if validator.is_valid(arguments):
                return (), None, None
            wording = validator.wording(arguments)  # shared with the rules reading this call
        except Exception:  # a schema can fail only when used (an unresolvable $ref)
            return None
        classified: tuple[tuple[Issue, ...], str | None, str | None] | None = wording.classified
        if classified is None:
            issues = tuple(
                Issue(message, tuple(p for p in e.path if isinstance(p, (str, int))))
                for e, message in zip(wording.errors, wording.messages, strict=True)
            )
            best = wording.best
            classified = wording.classified = (
                (issues, None, None)
                if best is None
                else (issues, str(best.validator), pointer(best.path))
            )
        return classified


def call_shape_problem(payload: Any) -> str | None:
    """Why a ``tools/call`` request fails the CallToolRequest shape, or ``None``."""
    params = payload.get("params") if isinstance(payload, dict) else None
    if not isinstance(params, dict):
        return "params is missing or not an object"
    if "name" not in params:
        return "params.name is missing"
    if not isinstance(params["name"], str):
        return "params.name is not a string"
    if "arguments" in params and not isinstance(params["arguments"], dict):
        return f"params.arguments is {a_json_type(json_type(params['arguments']))}, not an object"
    if "_meta" in params and not isinstance(params["_meta"], dict):
        return "params._meta is not an object"
    return None


DEFAULT_READER = WordingReader()


def classify(
    exchange: Exchange, checker: ArgumentChecker, reader: WordingReader = DEFAULT_READER
) -> Verdict | None:
    """The verdict on a ``tools/call`` exchange, or ``None`` when it is not one.

    The verdict is also written into the session's record of the tool
    (:class:`migrator.model.session.ToolTrack`), where the calls after this one
    read it: call the function once per exchange, in order.
    """
    if exchange.method != "tools/call" or exchange.request is None:
        return None
    if exchange.response.kind is Kind.RESULT:
        plain = plain_tool_result(exchange.response)
        if plain is not None and not plain.is_error:  # a success: nothing more to read in it
            request = exchange.request.payload
            if call_shape_problem(request) is not None:
                return Verdict(Outcome.TOOL_RESULT, ())
            name = request["params"]["name"]
            _remember_success(exchange, name, request["params"].get("arguments"))
            return Verdict(Outcome.TOOL_RESULT, (), name)
    response = exchange.response.payload
    if "error" in response:
        verdict = _classify_error(exchange, response["error"], checker, reader)
    else:
        verdict = _classify_result(exchange, response.get("result"), reader)
    _remember(exchange, verdict, response)
    return verdict


def _remember_success(exchange: Exchange, name: str, arguments: Any) -> None:
    track = exchange.session.track(name)
    if track is not None:
        track.record_success(
            exchange.response.line, arguments if isinstance(arguments, dict) else {}
        )


def _remember(exchange: Exchange, verdict: Verdict, response: dict[str, Any]) -> None:
    """Write what this exchange showed of its tool into the session, for the calls after it."""
    name = verdict.tool
    if name is None:
        return
    line = exchange.response.line
    reading = verdict.reading
    said_unknown = reading is not None and reading.kind is MessageKind.UNKNOWN_TOOL
    if "error" not in response:
        result = response.get("result")
        if not isinstance(result, dict) or result.get("isError") is not True:
            params = exchange.request.payload["params"] if exchange.request else {}
            _remember_success(exchange, name, params.get("arguments"))
            return
        if rewritten_result(result):
            # Our own text from an earlier fix: the error it was judged then, and
            # counting it now would make a second fix change what the first left.
            return
        track = exchange.session.track(name)
        if track is None:
            return
        if verdict.outcome is Outcome.UNKNOWN_TOOL or said_unknown:
            track.said_unknown = line
        else:
            track.ran = line
        return
    track = exchange.session.track(name)
    if track is None:
        return
    if verdict.outcome is Outcome.UNKNOWN_TOOL and said_unknown:
        track.said_unknown = line
    elif reading is not None and reading.kind is MessageKind.VALIDATION and reading.issues:
        track.validated = line  # an SDK validated the arguments: it has the tool


def _classify_error(
    exchange: Exchange, error: Any, checker: ArgumentChecker, reader: WordingReader
) -> Verdict:
    assert exchange.request is not None
    request = exchange.request.payload
    code = error.get("code") if isinstance(error, dict) else None
    shape = call_shape_problem(request)
    if shape is not None:
        return Verdict(
            Outcome.MALFORMED_REQUEST,
            (f"the request fails the CallToolRequest shape: {shape}",),
        )
    params = request["params"]
    name: str = params["name"]
    shown = display(name)
    reading = reader.read(error.get("message") if isinstance(error, dict) else None)
    if rewritten_error(error):
        # Made by a fix from an isError result for an unknown tool: leave it be, even
        # when this run lacks the in-house pattern that recognised it then.
        rewritten = ("rewritten from an unknown-tool result by an earlier fix",)
        return Verdict(Outcome.UNKNOWN_TOOL, rewritten, name, reading)
    session = exchange.session
    catalog = session.catalog
    tool = catalog.tools.get(name)
    evidence: list[str] = [f"error code {code}", f"message: {reading.dialect}"]

    # What settles the verdict whatever else the session holds: these stay protocol errors.
    if code == INVALID_REQUEST or reading.kind is MessageKind.REQUEST_SHAPE:
        evidence.append("the server rejected the request itself, not the tool's arguments")
        return Verdict(Outcome.MALFORMED_REQUEST, tuple(evidence), name, reading)
    if reading.kind is MessageKind.UNKNOWN_TOOL:
        if "disabled" in reading.dialect:
            evidence.append("the message says the tool is disabled: it cannot be called")
        else:
            evidence.append("the message says the tool does not exist")
        if tool is not None:
            evidence.append(f"although {shown} is in the catalog: {catalog.describe()}")
        return Verdict(Outcome.UNKNOWN_TOOL, tuple(evidence), name, reading)
    if tool is None and catalog.authoritative:
        evidence.append(f"{shown} is absent from the {catalog.describe()}")
        return Verdict(Outcome.UNKNOWN_TOOL, tuple(evidence), name, reading)
    if code == METHOD_NOT_FOUND:
        evidence.append("method not found: the server does not serve this call")
        return Verdict(Outcome.SERVER_ERROR, tuple(evidence), name, reading)
    if reading.kind is MessageKind.NOT_ARGUMENTS:
        evidence.append("the message is about something other than the arguments")
        return Verdict(Outcome.SERVER_ERROR, tuple(evidence), name, reading)

    schema_issues: tuple[Issue, ...] = ()
    keyword = pointer = None
    checked = False
    omitted = "arguments" not in params
    arguments = params.get("arguments", {})
    earlier = session.earlier_listings.get(name) if tool is None else None
    listed = tool if tool is not None else (earlier[0] if earlier is not None else None)
    input_schema = listed.get("inputSchema") if isinstance(listed, dict) else None
    if tool is not None:
        evidence.append(f"{shown} is in the {catalog.describe()}")
    elif earlier is not None:
        evidence.append(
            f"{shown} is not in this session's catalog ({catalog.describe()}) but an earlier "
            f"session listed it (tools/list result at line {earlier[1]})"
        )
    if listed is not None:
        result = checker.issues(input_schema, arguments, exchange.version)
        if result is None:
            evidence.append("the tool's inputSchema is not a usable JSON Schema")
        else:
            checked = True
            schema_issues, keyword, pointer = result
            if schema_issues:
                evidence.append(
                    f"the arguments violate the inputSchema ({len(schema_issues)} "
                    f"{'problem' if len(schema_issues) == 1 else 'problems'}, first: "
                    f"{schema_issues[0].render()})"
                )
            else:
                evidence.append(
                    "the arguments satisfy the inputSchema"
                    + (" (none were sent)" if omitted else "")
                    + ": a rule the schema cannot express"
                )
    track = session.tools.get(name)
    shown_by_session = _session_evidence(shown, track, arguments)
    # A tool the server answered, ran or validated in this session exists; so does
    # one an earlier session listed whose schema the arguments break.
    known = (
        tool is not None or bool(shown_by_session) or (earlier is not None and bool(schema_issues))
    )
    evidence += shown_by_session
    if tool is None and earlier is not None and checked and not schema_issues:
        checked = False  # an earlier session's schema cannot vouch for these arguments
    if not known:
        evidence.append(f"{shown} is not known: {catalog.describe()}")
        unknown_at = track.unknown_since if track is not None else None
        if unknown_at is not None:
            evidence.append(
                f"at line {unknown_at} the server said {shown} does not exist, "
                "and no call since has shown otherwise"
            )
            if reading.kind in (MessageKind.GENERIC_VALIDATION, MessageKind.UNCLEAR):
                return Verdict(Outcome.UNKNOWN_TOOL, tuple(evidence), name, reading)
    if track is not None and track.successes and isinstance(arguments, dict):
        evidence += _argument_differences(track, arguments)

    def verdict(outcome: Outcome) -> Verdict:
        return Verdict(
            outcome,
            tuple(evidence),
            name,
            reading,
            schema_issues,
            keyword,
            pointer,
            checked,
            params.get("arguments"),
            input_schema,
        )

    specific = reading.kind is MessageKind.VALIDATION
    # Prose that names an argument is plain enough in a -32602; under another
    # code it counts only for a tool the session knows.
    if specific and reading.dialect == ARGUMENT_WORDS and code != INVALID_PARAMS:
        specific = known
    generic = reading.kind is MessageKind.GENERIC_VALIDATION
    if code == INVALID_PARAMS:
        if known or specific:
            return verdict(Outcome.INPUT_VALIDATION)
        return verdict(Outcome.AMBIGUOUS)
    # Any other code: -32603 from server-everything, or a server's own code.
    if specific:
        return verdict(Outcome.INPUT_VALIDATION)
    if generic:
        return verdict(Outcome.INPUT_VALIDATION if known else Outcome.AMBIGUOUS)
    if schema_issues:
        evidence.append("the message does not say whether the arguments caused it")
        return verdict(Outcome.AMBIGUOUS)
    if tool is not None and checked and reading.kind is MessageKind.EXECUTION:
        return verdict(Outcome.TOOL_FAILURE)
    return verdict(Outcome.SERVER_ERROR)


def _session_evidence(shown: str, track: ToolTrack | None, arguments: Any) -> list[str]:
    """Evidence lines that the server has the tool, from the calls before this one."""
    if track is None:
        return []
    lines = []
    if track.successes:
        calls = "an earlier call" if track.successes == 1 else f"{track.successes} earlier calls"
        lines.append(
            f"{shown} answered {calls} in this session ({'' if track.successes == 1 else 'the first '}"
            f"at line {track.first_success}): the server has the tool"
        )
    if track.ran is not None:
        lines.append(f"the server ran {shown} at line {track.ran} (an isError result)")
    if track.validated is not None:
        lines.append(
            f"the server validated the arguments of {shown} at line {track.validated} "
            "in an SDK's words"
        )
    return lines


def _argument_differences(track: ToolTrack, arguments: dict[str, Any]) -> list[str]:
    """How these arguments differ from those of the calls that succeeded."""
    differences = []
    for name in sorted(track.always_sent or ()):
        if name not in arguments:
            differences.append(
                f"{display(name)} is missing here, and every call that succeeded sent it"
            )
    for name, value in arguments.items():
        before = track.sent_types.get(name)
        here = json_type(value)
        if before and here not in before and not (here == "integer" and "number" in before):
            was = " or ".join(a_json_type(t) for t in sorted(before))
            differences.append(
                f"{display(name)} is {a_json_type(here)} here, {was} in the calls that succeeded"
            )
    if not differences:
        return ["the arguments have the names and JSON types of the calls that succeeded"]
    return ["the arguments differ from the calls that succeeded: " + "; ".join(differences)]


def _classify_result(exchange: Exchange, result: Any, reader: WordingReader) -> Verdict:
    assert exchange.request is not None
    if call_shape_problem(exchange.request.payload) is not None:
        return Verdict(Outcome.TOOL_RESULT, ())
    name: str = exchange.request.payload["params"]["name"]
    if not isinstance(result, dict) or result.get("isError") is not True:
        return Verdict(Outcome.TOOL_RESULT, (), name)
    catalog = exchange.session.catalog
    reading = reader.read(first_text(result))
    evidence: list[str] = ["isError result"]
    if rewritten_result(result):
        evidence.append("rewritten from a protocol error by an earlier fix")
        return Verdict(Outcome.TOOL_RESULT, tuple(evidence), name, reading)
    if catalog.authoritative and name not in catalog.tools:
        evidence.append(f"{display(name)} is absent from the {catalog.describe()}")
        return Verdict(Outcome.UNKNOWN_TOOL, tuple(evidence), name, reading)
    if (
        reading.kind is MessageKind.UNKNOWN_TOOL
        and reading.tool in (name, None)
        and name not in catalog.tools
    ):
        evidence.append(f"the text says the tool does not exist ({reading.dialect})")
        evidence.append(catalog.describe())
        return Verdict(Outcome.UNKNOWN_TOOL, tuple(evidence), name, reading)
    return Verdict(Outcome.TOOL_RESULT, tuple(evidence), name, reading)


def first_text(result: dict[str, Any]) -> str | None:
    """The first text content block of a tool result."""
    content = result.get("content")
    if isinstance(content, list):
        for block in content:
            if (
                isinstance(block, dict)
                and block.get("type") == "text"
                and isinstance(block.get("text"), str)
            ):
                return str(block["text"])
    return None
