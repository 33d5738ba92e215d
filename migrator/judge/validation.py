"""Validation with a compiled fast path and python-jsonschema as the reference.

Deciding valid or invalid is the hot path: most messages are valid. When the
``jsonschema-rs`` package is installed (it is by default) a compiled validator
decides; only an instance it rejects goes to python-jsonschema, which gives
the readable messages, paths and keywords findings carry. Without
``jsonschema-rs`` python-jsonschema does both, with the same verdicts (a
differential test holds the two to that).
"""

from __future__ import annotations

import contextlib
import functools
import json
import threading
from dataclasses import dataclass, field
from typing import Any

import orjson
from jsonschema import Draft7Validator, Draft202012Validator
from jsonschema.exceptions import ValidationError, best_match
from jsonschema.protocols import Validator
from jsonschema.validators import validator_for
from referencing.exceptions import Unresolvable

from migrator.judge import schemas
from migrator.judge.json_messages import json_message

DRAFT_07 = "http://json-schema.org/draft-07/schema#"
DRAFT_2020_12 = "https://json-schema.org/draft/2020-12/schema"
FIRST_2020_12_VERSION = "2025-11-25"


def _rs() -> Any:
    try:
        import jsonschema_rs
    except ImportError:  # the pure-Python fallback
        return None
    return jsonschema_rs


@dataclass(frozen=True)
class SchemaProblem:
    """The first (best) problem python-jsonschema reports, ready for a finding."""

    message: str  # in JSON's terms (see migrator.judge.json_messages)
    pointer: str  # JSON pointer into the validated instance
    keyword: str
    count: int  # how many problems in all


def pointer(path: Any) -> str:
    """A JSON pointer from a path of keys and indexes."""
    return "".join("/" + str(part).replace("~", "~0").replace("/", "~1") for part in path)


class Wording:
    """How python-jsonschema words one invalid instance, worked out once for every reader.

    Several rules and the classifier ask about the same call's arguments, one after
    the other; each reads what it needs of this (the problems, the best one, their
    messages in JSON's terms), and each part is computed on first use only.
    """

    __slots__ = ("_messages", "_problem", "best", "classified", "errors")

    def __init__(self, errors: list[ValidationError]) -> None:
        self.errors = errors  # every problem, sorted by path
        self.best = best_match(errors) if errors else None
        self._messages: tuple[str, ...] | None = None
        self._problem: SchemaProblem | None = None
        # What the classifier made of it (ArgumentChecker.issues), made once: a
        # wording is remembered by content, and a model repeats its bad calls.
        self.classified: Any = None

    @property
    def messages(self) -> tuple[str, ...]:
        """:func:`~migrator.judge.json_messages.json_message` of each error, in order."""
        if self._messages is None:
            known = self._problem  # the best error's message, if a finding asked first
            self._messages = tuple(
                known.message if known is not None and error is self.best else json_message(error)
                for error in self.errors
            )
        return self._messages

    @property
    def problem(self) -> SchemaProblem | None:
        """The best-matching problem, ready for a finding (``None`` when there is none)."""
        best = self.best
        if best is None:
            return None
        if self._problem is None:
            self._problem = SchemaProblem(
                json_message(best),
                pointer(best.absolute_path),
                str(best.validator),
                len(self.errors),
            )
        return self._problem


@dataclass
class FastValidator:
    """A schema, compiled twice: for speed and for words.

    The wording of an invalid instance is remembered (a model that sends a bad
    call tends to send it again, and two rules ask about the same call): by its
    content for a few hundred instances, and the last instance by identity, so
    that the readers of one call share one :class:`Wording`.
    """

    reference: Validator
    compiled: Any = None
    _worded: dict[bytes | str, Wording] = field(default_factory=dict, repr=False)
    # The last instance worded and its wording; the instance is held, so its identity stays its own.
    _last: tuple[Any, Wording] | None = field(default=None, repr=False)

    MEMO_SIZE = 256

    def is_valid(self, instance: Any) -> bool:
        """The verdict, from the compiled validator when there is one."""
        if self.compiled is not None:
            try:
                return bool(self.compiled.is_valid(instance))
            except (ValueError, OverflowError):  # values jsonschema-rs cannot take (huge integers)
                pass
        return bool(self.reference.is_valid(instance))

    def wording(self, instance: Any) -> Wording:
        """How python-jsonschema words ``instance`` (no errors when it is valid).

        Raises:
            referencing.exceptions.Unresolvable: the schema refers somewhere it cannot go.
        """
        last = self._last
        if last is not None and last[0] is instance:
            return last[1]
        key = content_key(instance)
        worded = self._worded.get(key) if key is not None else None
        if worded is None:
            worded = Wording(
                sorted(
                    self.reference.iter_errors(instance),
                    key=lambda e: (list(map(str, e.absolute_path)), e.message),
                )
            )
            if key is not None:
                if len(self._worded) >= self.MEMO_SIZE:
                    with contextlib.suppress(KeyError, RuntimeError):  # a proxy's threads share it
                        del self._worded[next(iter(self._worded))]
                self._worded[key] = worded
        self._last = (instance, worded)
        return worded

    def errors(self, instance: Any) -> list[ValidationError]:
        """Every problem, as python-jsonschema words it, sorted by path."""
        return self.wording(instance).errors

    def problem(self, instance: Any) -> SchemaProblem | None:
        """``None`` when valid (or when the schema cannot judge), else the best-matching problem."""
        try:
            if self.is_valid(instance):
                return None
            # None when python-jsonschema finds nothing: the two disagree, and it is the reference.
            return self.wording(instance).problem
        except Unresolvable:  # a tool schema's $ref to somewhere we do not go
            return None


def content_key(instance: Any) -> bytes | str | None:
    """Canonical JSON of a decoded value, to remember things by content; ``None`` if it has none.

    orjson writes it (sorted keys) in a fraction of json.dumps's time. It writes an
    infinite or NaN float (a YAML transcript can hold one) as ``null``, so text with
    a ``null`` in it is made by json.dumps instead, which keeps them apart; so are
    what orjson refuses (integers beyond 64 bits, keys that are not strings).
    """
    try:
        key = orjson.dumps(instance, option=orjson.OPT_SORT_KEYS)
    except TypeError:
        pass
    else:
        if b"null" not in key:
            return key
    try:
        return json.dumps(instance, sort_keys=True)
    except (TypeError, ValueError):
        return None


@functools.cache
def _rs_registry() -> Any:
    rs = _rs()
    if rs is None:
        return None
    documents = [schemas.load_schema(path) for path in schemas.schema_files()]
    return rs.Registry([(doc["$id"], doc) for doc in documents if "$id" in doc])


def _compile_definition(relative_path: str, definition: str) -> Any:
    rs = _rs()
    if rs is None:
        return None
    document = schemas.load_schema(relative_path)
    key = "definitions" if "definitions" in document else "$defs"
    ref = {"$schema": document["$schema"], "$ref": f"{document['$id']}#/{key}/{definition}"}
    return rs.validator_for(ref, registry=_rs_registry(), validate_formats=False)


@functools.cache
def mcp(version: str, definition: str) -> FastValidator:
    """A definition of one MCP version's schema (see :func:`migrator.judge.schemas.validator`)."""
    reference = schemas.validator(version, definition)
    return FastValidator(reference, _compile_definition(f"mcp/{version}.schema.json", definition))


@functools.cache
def jsonrpc(definition: str) -> FastValidator:
    """A definition of the JSON-RPC 2.0 schema."""
    reference = schemas.jsonrpc_validator(definition)
    return FastValidator(reference, _compile_definition(schemas.JSONRPC_SCHEMA, definition))


def default_dialect(version: str | None) -> str:
    """The dialect of a tool schema without ``$schema``: 2020-12 from 2025-11-25, draft-07 before."""
    return (
        DRAFT_2020_12 if (version or FIRST_2020_12_VERSION) >= FIRST_2020_12_VERSION else DRAFT_07
    )


class _Refuse:
    """A retriever that never reaches the network."""

    def __call__(self, uri: str) -> Any:
        raise ValueError(f"remote reference {uri} not followed")


_MISSING: Any = object()
# The content cache of every ToolSchemas (bounded by ToolSchemas.MAX_ENTRIES);
# the lock keeps eviction whole when a proxy's relay threads share it.
_COMPILED_BY_CONTENT: dict[str, FastValidator | None] = {}
_EVICTION = threading.Lock()


class ToolSchemas:
    """Compiled tool schemas (``inputSchema``, ``outputSchema``), shared by content.

    Servers list the same tools in every session, so validators are keyed by
    the schema's canonical JSON and the dialect: a thousand sessions compile
    each schema once. The content cache is the process's, not the instance's:
    a run over many files (one pipeline each) from the same server compiles
    each schema once too.
    """

    # Bounds that keep a long-running proxy flat in memory however often a
    # server re-lists its tools; far above the schemas any one server has.
    MAX_ENTRIES = 1024

    def __init__(self) -> None:
        # A shortcut to the content cache by the schema object's identity and the dialect:
        # one object can be read in two dialects (an earlier session's listing, judged
        # by a later session's version), and each reads the schema its own way.
        self._by_identity: dict[tuple[int, str], tuple[Any, FastValidator | None]] = {}
        self._by_content = _COMPILED_BY_CONTENT

    def get(self, schema: Any, version: str | None) -> FastValidator | None:
        """The validator for a tool schema, or ``None`` if it is not a usable schema."""
        dialect = default_dialect(version)
        cached = self._by_identity.get((id(schema), dialect))
        if cached is not None and cached[0] is schema:
            return cached[1]
        try:
            key = dialect + json.dumps(schema, sort_keys=True)
        except (TypeError, ValueError):
            key = None
        found = self._by_content.get(key, _MISSING) if key is not None else _MISSING
        if found is not _MISSING:
            built: FastValidator | None = found
        else:
            built = self._build(schema, dialect)
            if key is not None:
                with _EVICTION:
                    if len(self._by_content) >= self.MAX_ENTRIES:
                        self._by_content.pop(next(iter(self._by_content)))  # the oldest
                    self._by_content[key] = built
        if len(self._by_identity) >= self.MAX_ENTRIES:
            self._by_identity.clear()  # only a shortcut to the content cache
        self._by_identity[id(schema), dialect] = (schema, built)
        return built

    @staticmethod
    def _build(schema: Any, dialect: str) -> FastValidator | None:
        if not isinstance(schema, (dict, bool)) or schemas.check_json_schema(schema, dialect):
            return None
        default = Draft202012Validator if dialect == DRAFT_2020_12 else Draft7Validator
        try:
            cls = validator_for(schema, default=default)
            reference = cls(schema)
        except Exception:  # a schema that passes the metaschema yet cannot be used
            return None
        compiled = None
        rs = _rs()
        if rs is not None:
            try:
                rs_cls = (
                    rs.Draft202012Validator if cls is Draft202012Validator else rs.Draft7Validator
                )
                if isinstance(schema, dict) and "$schema" in schema:
                    compiled = rs.validator_for(schema, validate_formats=False, retriever=_Refuse())
                else:
                    compiled = rs_cls(schema, validate_formats=False, retriever=_Refuse())
            except (
                Exception
            ):  # jsonschema-rs refuses it (e.g. a regex it cannot compile): use the reference
                compiled = None
        return FastValidator(reference, compiled)


__all__ = [
    "FastValidator",
    "SchemaProblem",
    "ToolSchemas",
    "default_dialect",
    "jsonrpc",
    "mcp",
    "pointer",
]
