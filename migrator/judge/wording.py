"""Read the wording of the error messages real MCP servers send.

Wording, not format: a transcript's format is read by :mod:`migrator.readers`;
this module reads what the text of one error or ``isError`` result says.

Each SDK words its errors its own way. These patterns come from recordings of
real servers and from the SDKs' sources:

* TypeScript SDK up to 1.20: ``MCP error -32602: Invalid arguments for tool X: [zod issues]``
  and ``MCP error -32602: Tool X not found``; 1.21 and later send the same text
  (with ``Input validation error:``) inside an ``isError`` result.
* server-everything up to 2025.11 (low-level Server): code ``-32603`` with the bare
  zod issues array as the message, and ``Unknown tool: X``.
* Go SDK before 1.5: ``invalid params: validating "arguments": ...`` and
  ``unknown tool "X"``; the detail is google/jsonschema-go's chain
  ``validating root: validating /properties/city: type: 42 has type "integer", want "string"``.
* Rust rmcp before 1.8: ``failed to deserialize parameters: ...`` (serde's words:
  ``invalid type: integer `42`, expected a string``, ``missing field `city```) and
  ``tool not found``.
* Python SDK (FastMCP): pydantic's ``N validation error(s) for XArguments`` text
  (inside ``isError`` results) and ``Unknown tool: X``.
* Python SDK low-level ``Server`` (from mcp 1.10): ``Input validation error: <message>``
  with python-jsonschema's message (``'three' is not of type 'integer'``,
  ``'city' is a required property``), read back by
  :func:`migrator.judge.json_messages.read_python_jsonschema`; a request its
  models refuse is ``Invalid request parameters``.

Some ``-32602`` errors about a ``tools/call`` are not about its arguments at all,
and must stay protocol errors whatever else the session shows: the TypeScript
SDK's ``Tool X disabled`` and its output-schema errors (``Tool X has an output
schema but no structured content was provided``, ``Output validation error: ...``),
the Python SDK's ``Invalid or expired requestState``, a capability or protocol
version the client lacks.
"""

from __future__ import annotations

import contextlib
import json
import re
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from migrator.judge.json_messages import read_python_jsonschema
from migrator.model.jsontext import json_type

_MCP_PREFIX = re.compile(r"^MCP error -?\d+:\s*")
_TS_INVALID_ARGS = re.compile(
    r"^(?:Input validation error:\s*)?Invalid arguments for tool (?P<tool>[^\s:]+):\s*(?P<rest>.*)\Z",
    re.DOTALL,
)
_PYDANTIC_HEADER = re.compile(r"(?P<count>\d+) validation errors? for (?P<model>\S+)\n")
_PYDANTIC_TRAILER = re.compile(r"\s*\[type=[^\]]*\]\s*$")
_GO_INVALID = re.compile(r'^invalid params: validating "arguments"', re.IGNORECASE)
_GO_STEP = re.compile(r"^validating (?P<where>root|/\S*):\s*")
_GO_PROPERTY_POINTER = re.compile(r"^(?:/properties/[^/]+)+$")
_RMCP_INVALID = re.compile(r"^failed to deserialize parameters", re.IGNORECASE)
# serde: "invalid type: integer `42`, expected a string"; "invalid value: ..." alike.
_SERDE_TYPE = re.compile(
    r"^invalid (?:type|value): (?P<got>integer|floating point|string|boolean|map|sequence|unit value|null"
    r"|unit|char|enum|newtype struct|option)\b(?: (?P<value>`[^`]*`|\"(?:[^\"\\]|\\.)*\"))?, expected (?P<want>.+?)"
    r"(?: at line \d+ column \d+)?$"
)
_GO_TYPE = re.compile(r'^type: (?P<value>.*) has type "(?P<got>\w+)", want "(?P<want>\w+)"$')
_ZOD_TYPE = re.compile(r"^(?:Invalid input: )?[Ee]xpected (?P<want>\w+), received (?P<got>\w+)$")
_ZOD_MISSING = re.compile(r"^Required$")
_GENERIC_PREFIX = re.compile(
    r"^(?P<prefix>invalid (?:params|parameters|arguments?|input)|input validation (?:error|failed)"
    r"|validation (?:error|failed)|bad (?:params|parameters|arguments?))\s*:\s*(?P<detail>.+)\Z",
    re.IGNORECASE | re.DOTALL,
)
# Sentences that name an argument problem in a server's own words (pydantic's
# "Missing required argument", a hand-written "parameter 'city' is required").
_ARGUMENT_WORDS = re.compile(
    r"^(?:missing (?:required )?(?:argument|parameter|param|property|field|key)s?\b"
    r"|required (?:argument|parameter|param|property|field)s?\b.*\b(?:is |are )?missing\b"
    r"|(?:the )?(?:argument|parameter|param|property|field)s? ['\"`]?[\w.\[\]-]+['\"`]? "
    r"(?:is (?:required|missing|invalid|not valid)|must (?:be|have|match)|should be)\b"
    r"|invalid (?:value|type) (?:for|of) (?:the )?(?:argument|parameter|param|property|field)\b"
    r"|unexpected (?:argument|parameter|param|keyword argument|property|field)s?\b)",
    re.IGNORECASE,
)
# -32602 errors of a tools/call that are about something other than its arguments.
_NOT_ARGUMENTS = re.compile(
    r"^(?:Tool \S+ has an output schema but no structured content was provided"
    r"|Invalid structured content for tool\b|Output validation error\b"
    r"|Invalid (?:or expired )?(?:requestState|request state|cursor|task|progress ?token|_meta)\b"
    r"|Unsupported protocol version\b|.*\bdoes not support\b.*\bcapabilit(?:y|ies)\b)",
    re.IGNORECASE,
)
ARGUMENT_WORDS = "wording that names an argument problem"  # a dialect of prose, not an SDK's
_REQUEST_WORDS = re.compile(r"^Invalid request parameters\.?$", re.IGNORECASE)
_DISABLED_TOOL = re.compile(r"^Tool (?P<tool>\S+) disabled\.?$")
_GENERIC_INVALID = re.compile(
    r"^(?:invalid (?:params|parameters|arguments?|input)|input validation (?:error|failed)"
    r"|validation (?:error|failed)|bad (?:params|parameters|arguments?))\b",
    re.IGNORECASE,
)
_UNKNOWN_TOOL = [
    re.compile(r"^Tool (?P<tool>\S+) not found\.?$"),
    re.compile(r"^Tool ['\"`](?P<tool>[^'\"`]+)['\"`] not found\.?$", re.IGNORECASE),
    re.compile(r"^Unknown tool:?\s*['\"`]?(?P<tool>[^'\"`\s]+)['\"`]?\.?$", re.IGNORECASE),
    re.compile(r'^unknown tool "(?P<tool>[^"]+)"', re.IGNORECASE),
    re.compile(r"^No tool named ['\"`]?(?P<tool>[^'\"`\s]+)['\"`]?", re.IGNORECASE),
    re.compile(
        r"^tool ['\"`]?(?P<tool>[^'\"`\s]+)['\"`]? (?:does not exist|is not registered)",
        re.IGNORECASE,
    ),
    re.compile(r"^tool not found\.?$", re.IGNORECASE),
]
_EXECUTION_FAILURE = re.compile(
    r"\b(?:failed|failure|timed out|timeout|ECONN\w+|ENOTFOUND|EAI_AGAIN|rate.?limit\w*|quota"
    r"|unavailable|HTTP \d{3}|status(?: code)? \d{3}|division by zero|divide by zero"
    r"|permission denied|not permitted|forbidden|unauthori[sz]ed|api error|upstream|network"
    r"|connection (?:refused|reset)|could not|cannot|unable to|exception)\b",
    re.IGNORECASE,
)


class MessageKind(str, Enum):
    """What a message says happened, read from its words alone."""

    VALIDATION = "validation"  # names an argument-validation failure in a known dialect
    GENERIC_VALIDATION = "generic-validation"  # "Invalid params" and the like, no detail
    REQUEST_SHAPE = "request-shape"  # the request itself failed the protocol schema
    NOT_ARGUMENTS = "not-arguments"  # about the call, but not its arguments (output, state, ...)
    UNKNOWN_TOOL = "unknown-tool"
    EXECUTION = "execution"  # reads as a failure while running the tool
    UNCLEAR = "unclear"


@dataclass(frozen=True)
class Issue:
    """One argument problem: what is wrong and where in the arguments.

    ``complaint`` says what the words told of the types and the value, when the
    path is empty and the argument is still to be named from the request.
    """

    message: str
    path: tuple[str | int, ...] = ()
    complaint: Complaint | None = field(default=None, compare=False)

    def render(self) -> str:
        """``<message> at <path>``, with the path written from ``arguments``."""
        return f"{self.message} at {format_path(self.path)}"


_IDENTIFIER = re.compile(r"^[A-Za-z_$][A-Za-z0-9_$]*$")


def format_path(path: tuple[str | int, ...]) -> str:
    """``arguments.items[0].name`` style; other keys quoted: ``arguments.files["a.txt"]``."""
    out = "arguments"
    for part in path:
        if isinstance(part, int):
            out += f"[{part}]"
        elif _IDENTIFIER.match(part):
            out += f".{part}"
        else:
            out += f"[{json.dumps(part, ensure_ascii=False)}]"
    return out


@dataclass(frozen=True)
class MessageReading:
    """What :func:`read_message` found in an error text."""

    kind: MessageKind
    dialect: str  # which server family's wording matched, for evidence
    text: str  # the message without the "MCP error -NNNNN:" prefix
    header: str = ""  # the human sentence before any machine dump
    tool: str | None = None
    issues: tuple[Issue, ...] = field(default=())


def strip_mcp_prefix(text: str) -> str:
    """Drop the TypeScript SDK's ``MCP error -32602:`` prefix."""
    return _MCP_PREFIX.sub("", text, count=1)


class WordingReader:
    """Reads error wordings with the built-in patterns plus a project's own.

    In-house servers word their errors their own way; the configuration can
    add regular expressions for unknown-tool and validation messages (an
    unknown-tool pattern may name the tool with a ``(?P<tool>...)`` group).
    """

    def __init__(
        self, unknown_tool: tuple[str, ...] = (), validation: tuple[str, ...] = ()
    ) -> None:
        self.unknown_tool = tuple(re.compile(p) for p in unknown_tool)
        self.validation = tuple(re.compile(p) for p in validation)

    def read(self, message: Any) -> MessageReading:
        """Read an error message (or an ``isError`` result's text)."""
        if isinstance(message, str) and (self.unknown_tool or self.validation):
            text = strip_mcp_prefix(message.strip())
            for pattern in self.unknown_tool:
                match = pattern.search(text)
                if match:
                    tool = match.groupdict().get("tool")
                    return MessageReading(
                        MessageKind.UNKNOWN_TOOL,
                        "configured unknown-tool pattern",
                        text,
                        text,
                        tool,
                    )
            for pattern in self.validation:
                if pattern.search(text):
                    return MessageReading(
                        MessageKind.VALIDATION, "configured validation pattern", text, text
                    )
        return read_message(message)


_READINGS: dict[str, MessageReading] = {}
_READINGS_SIZE = 1024  # distinct texts remembered; a server words the same failure the same way
_READING_MAX_CHARS = 16_384  # longer texts are read each time rather than kept


def read_message(message: Any) -> MessageReading:
    """Read an error message (or an ``isError`` result's text) with the built-in patterns.

    A reading depends on the text alone, and a server that refuses a call once tends to
    refuse the next ones in the same words, so readings are remembered by text.
    """
    if type(message) is not str or len(message) > _READING_MAX_CHARS:
        return _read_message(message)
    reading = _READINGS.get(message)
    if reading is None:
        reading = _read_message(message)
        if len(_READINGS) >= _READINGS_SIZE:
            with contextlib.suppress(KeyError, RuntimeError):  # a proxy's threads share it
                del _READINGS[next(iter(_READINGS))]  # the oldest
        _READINGS[message] = reading
    return reading


def _read_message(message: Any) -> MessageReading:
    if not isinstance(message, str):
        return MessageReading(MessageKind.UNCLEAR, "non-string message", "")
    text = strip_mcp_prefix(message.strip())
    for pattern in _UNKNOWN_TOOL:
        match = pattern.match(text)
        if match:
            tool = match.groupdict().get("tool")
            return MessageReading(
                MessageKind.UNKNOWN_TOOL, "unknown-tool wording", text, text, tool
            )
    disabled = _DISABLED_TOOL.match(text)
    if disabled:
        return MessageReading(
            MessageKind.UNKNOWN_TOOL,
            "disabled-tool wording (TypeScript SDK)",
            text,
            text,
            disabled.group("tool"),
        )
    if _NOT_ARGUMENTS.match(text):
        return MessageReading(
            MessageKind.NOT_ARGUMENTS,
            "wording about something other than the arguments",
            text,
            text,
        )
    if _REQUEST_WORDS.match(text):
        return MessageReading(
            MessageKind.REQUEST_SHAPE, "the Python SDK's request-model wording", text, text
        )
    ts = _TS_INVALID_ARGS.match(text)
    if ts:
        dump = _zod_issues(ts.group("rest"))
        header = f"Invalid arguments for tool {ts.group('tool')}" if dump is not None else text
        return MessageReading(
            MessageKind.VALIDATION,
            "TypeScript SDK",
            text,
            header,
            ts.group("tool"),
            tuple(dump or ()),
        )
    zod = _zod_issues(text)
    if zod is not None:
        if zod and all(_under_params(i) for i in zod):
            return MessageReading(
                MessageKind.REQUEST_SHAPE, "zod issues on the request", text, "", None, tuple(zod)
            )
        return MessageReading(
            MessageKind.VALIDATION, "zod issues array", text, "", None, tuple(zod)
        )
    pydantic = _pydantic_issues(text)
    if pydantic is not None:
        header, issues = pydantic
        return MessageReading(MessageKind.VALIDATION, "pydantic", text, header, None, issues)
    go = _GO_INVALID.match(text)
    if go:
        header = text[: go.end()]
        return MessageReading(
            MessageKind.VALIDATION, "Go SDK", text, header, None, _go_issues(text[go.end() :])
        )
    rmcp = _RMCP_INVALID.match(text)
    if rmcp:
        detail = text[rmcp.end() :].lstrip(": ").strip()
        issues = (Issue(detail),) if detail else ()
        return MessageReading(
            MessageKind.VALIDATION, "Rust rmcp", text, text[: rmcp.end()], None, issues
        )
    jsonschema = _python_jsonschema(text)
    if jsonschema is not None:
        return jsonschema
    prefixed = _GENERIC_PREFIX.match(text)
    if _ARGUMENT_WORDS.match(text) or (prefixed and _ARGUMENT_WORDS.match(prefixed["detail"])):
        return MessageReading(MessageKind.VALIDATION, ARGUMENT_WORDS, text, text)
    if _GENERIC_INVALID.match(text):
        return MessageReading(
            MessageKind.GENERIC_VALIDATION, "generic invalid-params wording", text, text
        )
    if _EXECUTION_FAILURE.search(text):
        return MessageReading(MessageKind.EXECUTION, "execution-failure wording", text, text)
    return MessageReading(MessageKind.UNCLEAR, "no known wording", text, text)


def _python_jsonschema(text: str) -> MessageReading | None:
    """python-jsonschema's message, bare or after ``Input validation error:`` and the like."""
    prefixed = _GENERIC_PREFIX.match(text)
    detail = prefixed["detail"].strip() if prefixed else text
    problem = read_python_jsonschema(detail)
    if problem is None:
        return None
    # The text names no path. A required or additional property is about the
    # arguments object itself (the low-level server validates that object), as
    # our own schema check says it; any other problem quotes the value, which
    # names the argument (see migrator.judge.argument_blame).
    complaint = None
    if problem.quotes_value:
        wanted = problem.wanted_types[0] if len(problem.wanted_types) == 1 else None
        complaint = Complaint(json_type(problem.value), wanted, problem.value)
    return MessageReading(
        MessageKind.VALIDATION,
        "python-jsonschema wording (Python SDK low-level server)",
        text,
        "",
        None,
        (Issue(problem.message, (), complaint),),
    )


def generic_detail(text: str) -> tuple[str, str] | None:
    """``("Invalid params", "sku must match ...")`` for a generic wording with a detail after it."""
    match = _GENERIC_PREFIX.match(text)
    if match is None:
        return None
    return match["prefix"], match["detail"].strip()


def _under_params(issue: Issue) -> bool:
    # The TypeScript SDK validates the whole request before it looks at the
    # tool; a failure there has a path that starts at "params".
    return bool(issue.path) and issue.path[0] == "params"


def _zod_issues(text: str) -> list[Issue] | None:
    stripped = text.strip()
    if not stripped.startswith("["):
        return None
    try:
        value = json.loads(stripped)
    except ValueError:
        return None
    if not isinstance(value, list) or not all(isinstance(v, dict) for v in value):
        return None
    issues: list[Issue] = []
    for raw in value:
        message = raw.get("message")
        path = raw.get("path", [])
        if not isinstance(message, str) or not isinstance(path, list):
            return None
        issues.append(Issue(message, tuple(p for p in path if isinstance(p, (str, int)))))
    return issues


def _pydantic_issues(text: str) -> tuple[str, tuple[Issue, ...]] | None:
    """Read pydantic's ``ValidationError`` text into issues.

    The text is a header line, then for each error a location line (dotted,
    unindented), an indented message line ending in ``[type=..., ...]``, and
    sometimes an indented "For further information" line.
    """
    match = _PYDANTIC_HEADER.search(text)
    if match is None:
        return None
    header = (
        text[: match.start()].rstrip().rstrip(":") or f"{match.group('count')} validation errors"
    )
    lines = text[match.end() :].split("\n")
    issues: list[Issue] = []
    location: tuple[str | int, ...] | None = None
    for line in lines:
        if not line.strip() or line.strip().startswith("For further information"):
            continue
        if not line.startswith(" "):
            location = tuple(int(p) if p.isdigit() else p for p in line.strip().split("."))
        elif location is not None:
            issues.append(Issue(_PYDANTIC_TRAILER.sub("", line.strip()), location))
            location = None
    if not issues:
        return None
    return header, tuple(issues)


def _go_issues(detail: str) -> tuple[Issue, ...]:
    """The one problem in google/jsonschema-go's ``validating X: validating Y: problem`` chain.

    The chain names schema locations; where they are ``/properties/a/properties/b``
    they are the argument's path too.
    """
    rest = detail.lstrip(": ").strip()
    pointer = ""
    while step := _GO_STEP.match(rest):
        pointer = "" if step.group("where") == "root" else step.group("where")
        rest = rest[step.end() :]
    if not rest:
        return ()
    path: tuple[str | int, ...] = ()
    if _GO_PROPERTY_POINTER.match(pointer):
        path = tuple(
            part.replace("~1", "/").replace("~0", "~") for part in pointer.split("/")[2::2]
        )
    return (Issue(rest, path),)


_NO_VALUE = object()


@dataclass(frozen=True)
class Complaint:
    """What an SDK says is wrong with an argument its text does not name.

    ``got`` and ``want`` are JSON types (``integer``, ``number``, ``string``,
    ``boolean``, ``object``, ``array``, ``null``), or ``None`` where the words do
    not say; ``value`` is the offending value where the text quotes it.
    """

    got: str | None = None
    want: str | None = None
    value: Any = _NO_VALUE
    missing: bool = False

    @property
    def quotes_value(self) -> bool:
        """Whether the text quoted the offending value."""
        return self.value is not _NO_VALUE


_SERDE_GOT = {
    "integer": "integer",
    "floating point": "number",
    "string": "string",
    "char": "string",
    "boolean": "boolean",
    "map": "object",
    "sequence": "array",
    "unit value": "null",
    "unit": "null",
    "null": "null",
}
_RUST_WANT = [
    (
        re.compile(r"\b(?:i8|i16|i32|i64|i128|isize|u8|u16|u32|u64|u128|usize|an? integer)\b"),
        "integer",
    ),
    (re.compile(r"\b(?:f32|f64|an? (?:number|float))\b"), "number"),
    (re.compile(r"\b(?:a string|string|&str|String|char|a character)\b"), "string"),
    (re.compile(r"\b(?:bool|a boolean)\b"), "boolean"),
    (re.compile(r"\b(?:a sequence|sequence|a (?:Vec|list|tuple)|tuple)"), "array"),
    (re.compile(r"\b(?:a map|map|struct \w+|an object)"), "object"),
]
_ZOD_TYPES = {
    "string": "string",
    "number": "number",
    "integer": "integer",
    "int": "integer",
    "boolean": "boolean",
    "object": "object",
    "array": "array",
    "null": "null",
    "bigint": "integer",
    "nan": "number",
}


def complaint_of(message: str) -> Complaint | None:
    """Read a problem's words (serde, jsonschema-go, zod 3 or 4) for the types involved.

    ``None`` when the words say nothing that could point at one argument.
    """
    serde = _SERDE_TYPE.match(message)
    if serde:
        want = next(
            (kind for pattern, kind in _RUST_WANT if pattern.search(serde.group("want"))), None
        )
        return Complaint(
            _SERDE_GOT.get(serde.group("got")), want, _serde_value(serde.group("value"))
        )
    go = _GO_TYPE.match(message)
    if go:
        try:
            value = json.loads(go.group("value"))
        except ValueError:
            value = _NO_VALUE  # Go's %v of a string or map is not JSON
        return Complaint(go.group("got"), go.group("want"), value)
    zod = _ZOD_TYPE.match(message)
    if zod:
        got = zod.group("got")
        if got == "undefined":
            return Complaint(None, _ZOD_TYPES.get(zod.group("want")), missing=True)
        return Complaint(_ZOD_TYPES.get(got), _ZOD_TYPES.get(zod.group("want")))
    if _ZOD_MISSING.match(message):
        return Complaint(missing=True)
    return None


def _serde_value(quoted: str | None) -> Any:
    if not quoted:
        return _NO_VALUE
    text = quoted[1:-1] if quoted.startswith("`") else quoted
    try:
        return json.loads(text)
    except ValueError:
        return _NO_VALUE
