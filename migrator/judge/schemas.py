"""The project's JSON Schemas: where they are, and validators built from them.

The schemas live in the repository's top-level ``schemas/`` folder and travel inside
the wheel as ``migrator/_schemas``. They describe JSON-RPC 2.0 as MCP uses it
(``jsonrpc-2.0.schema.json``), the tools surface of every released MCP protocol
version (``mcp/<version>.schema.json``), the JSON report of ``mcp-transcripts check``
(``findings.schema.json``) and one line of an envelope transcript
(``envelope.schema.json``).

Every ``$ref`` is resolved offline through a :class:`referencing.Registry` built
from these files; nothing is fetched over the network. Validators are built once
per definition and cached, so callers can ask for them on every message.

Example:
    >>> from migrator.judge import schemas
    >>> check = schemas.validator("2025-11-25", "CallToolResult")
    >>> check.is_valid({"content": [], "isError": True})
    True
"""

from __future__ import annotations

import functools
import importlib.resources
import json
import re
import sys
from pathlib import Path
from typing import Any, Final, cast

import jsonschema.validators
import referencing
import referencing.jsonschema
from jsonschema.protocols import Validator

from migrator.judge.json_messages import json_message
from migrator.model.jsontext import a_json_type, display, json_type

if sys.version_info >= (3, 11):
    from importlib.resources.abc import Traversable
else:  # pragma: no cover - exercised on Python 3.10 only
    from importlib.abc import Traversable

__all__ = [
    "SUPPORTED_VERSIONS",
    "check_json_schema",
    "closest_version",
    "jsonrpc_validator",
    "load_schema",
    "registry",
    "schema_dir",
    "schema_files",
    "validator",
]

SUPPORTED_VERSIONS: Final[tuple[str, ...]] = (
    "2024-11-05",
    "2025-03-26",
    "2025-06-18",
    "2025-11-25",
    "2026-07-28",
)
"""The released MCP protocol versions this project has schemas for, oldest first."""

JSONRPC_SCHEMA: Final = "jsonrpc-2.0.schema.json"
"""The path, relative to :func:`schema_dir`, of the JSON-RPC 2.0 schema."""

_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")

_DIALECTS: Final[dict[str, type[Validator]]] = {
    cast(str, cls.META_SCHEMA["$schema"]).rstrip("#"): cls
    for cls in (
        jsonschema.validators.Draft3Validator,
        jsonschema.validators.Draft4Validator,
        jsonschema.validators.Draft6Validator,
        jsonschema.validators.Draft7Validator,
        jsonschema.validators.Draft201909Validator,
        jsonschema.validators.Draft202012Validator,
    )
}


def schema_dir() -> Path | Traversable:
    """Return the folder that holds the project's schemas.

    Returns:
        The package's ``_schemas`` folder when ``migrator`` was installed from a wheel,
        otherwise the repository's top-level ``schemas/`` folder (editable install or
        source checkout).

    Raises:
        FileNotFoundError: Neither folder exists.
    """
    packaged = importlib.resources.files("migrator") / "_schemas"
    if packaged.is_dir():
        return packaged
    in_repository = Path(__file__).resolve().parents[2] / "schemas"
    if in_repository.is_dir():
        return in_repository
    raise FileNotFoundError(
        "mcp-transcripts's schemas are missing: expected the package folder "
        "'migrator/_schemas' or the repository folder 'schemas/'"
    )


def _walk(folder: Path | Traversable, prefix: str = "") -> list[str]:
    """List the ``*.json`` files under ``folder`` as sorted ``/``-separated paths."""
    found: list[str] = []
    for entry in folder.iterdir():
        if entry.is_dir():
            found.extend(_walk(entry, f"{prefix}{entry.name}/"))
        elif entry.name.endswith(".json"):
            found.append(f"{prefix}{entry.name}")
    return sorted(found)


def schema_files() -> list[str]:
    """List every schema file, relative to :func:`schema_dir`.

    Returns:
        Paths such as ``"mcp/2025-11-25.schema.json"``, sorted, ``/``-separated.
    """
    return _walk(schema_dir())


@functools.cache
def load_schema(relative_path: str) -> dict[str, Any]:
    """Load one of the project's schemas.

    The result is cached: every call with the same path returns the same object,
    which callers must therefore not modify.

    Args:
        relative_path: The file's path under :func:`schema_dir`, with ``/``
            separators, for example ``"mcp/2025-11-25.schema.json"``.

    Returns:
        The parsed schema document.

    Raises:
        ValueError: The path is absolute or leaves the schema folder.
        FileNotFoundError: There is no such schema.
    """
    parts = relative_path.split("/")
    if relative_path.startswith("/") or any(part in ("", ".", "..") for part in parts):
        raise ValueError(f"not a relative schema path: {relative_path!r}")
    node: Path | Traversable = schema_dir()
    for part in parts:
        node = node / part
    if not node.is_file():
        raise FileNotFoundError(f"no schema {relative_path!r} (known: {', '.join(schema_files())})")
    document = json.loads(node.read_text(encoding="utf-8"))
    if not isinstance(document, dict):
        raise ValueError(f"schema {relative_path!r} is not a JSON object")
    return document


@functools.cache
def registry() -> referencing.Registry[Any]:
    """Return a registry holding every project schema under its ``$id``.

    The registry has no retrieval function, so a reference to anything outside the
    project's schemas fails instead of reaching the network.

    Returns:
        The crawled registry (cached).

    Raises:
        ValueError: A schema has no ``$id`` or two schemas share one.
    """
    resources: dict[str, referencing.Resource[Any]] = {}
    for path in schema_files():
        document = load_schema(path)
        uri = document.get("$id")
        if not isinstance(uri, str):
            raise ValueError(f"schema {path!r} has no $id")
        if uri in resources:
            raise ValueError(f"schemas share the $id {uri!r}")
        resources[uri] = referencing.Resource.from_contents(document)
    return referencing.Registry().with_resources(resources.items()).crawl()


def _definitions_key(document: dict[str, Any]) -> str:
    return "definitions" if "definitions" in document else "$defs"


def _build(relative_path: str, definition: str, what: str) -> Validator:
    document = load_schema(relative_path)
    definitions = document.get(_definitions_key(document), {})
    if definition not in definitions:
        raise KeyError(
            f"{what} has no definition {definition!r}; it defines: {', '.join(sorted(definitions))}"
        )
    cls = jsonschema.validators.validator_for(document)
    pointer = f"{document['$id']}#/{_definitions_key(document)}/{definition}"
    return cls({"$ref": pointer}, registry=registry())


@functools.cache
def validator(version: str, definition: str) -> Validator:
    """Return a validator for one definition of one MCP version's schema.

    The validator uses that version's dialect (draft-07 up to 2025-06-18, 2020-12
    from 2025-11-25) and does not check formats. It is built once and cached.

    Args:
        version: One of :data:`SUPPORTED_VERSIONS` (see :func:`closest_version` to map
            any version string to one).
        definition: A definition name, such as ``"CallToolResult"`` or ``"Tool"``.

    Returns:
        A validator whose ``is_valid`` / ``iter_errors`` check an instance against
        the definition.

    Raises:
        KeyError: The version is not supported or has no such definition.
    """
    if version not in SUPPORTED_VERSIONS:
        raise KeyError(
            f"no schema for MCP protocol version {version!r}; "
            f"supported: {', '.join(SUPPORTED_VERSIONS)} (see closest_version())"
        )
    return _build(f"mcp/{version}.schema.json", definition, f"the MCP {version} schema")


@functools.cache
def jsonrpc_validator(definition: str) -> Validator:
    """Return a validator for one definition of the JSON-RPC 2.0 schema.

    Args:
        definition: For example ``"JSONRPCMessage"``, ``"JSONRPCErrorResponse"`` or
            ``"JSONRPCBatch"``.

    Returns:
        A cached 2020-12 validator, without format checking.

    Raises:
        KeyError: The JSON-RPC schema has no such definition.
    """
    return _build(JSONRPC_SCHEMA, definition, "the JSON-RPC 2.0 schema")


def closest_version(version: str | None) -> str:
    """Map a protocol version string to the supported version whose schema governs it.

    MCP versions are dates, and a version stays in force until the next one, so an
    unknown date between two releases maps to the earlier release.

    Args:
        version: A negotiated or requested protocol version, or ``None`` when unknown.

    Returns:
        ``version`` itself when supported; for an unknown date, the newest supported
        version not after it, or the oldest when it predates them all; the newest
        version for ``None`` and for strings that are not dates (such as "draft").
    """
    if version is None:
        return SUPPORTED_VERSIONS[-1]
    if version in SUPPORTED_VERSIONS:
        return version
    if not _DATE.fullmatch(version):
        return SUPPORTED_VERSIONS[-1]
    earlier = [known for known in SUPPORTED_VERSIONS if known <= version]
    return earlier[-1] if earlier else SUPPORTED_VERSIONS[0]


@functools.cache
def _metaschema_validator(cls: type[Validator]) -> Validator:
    return cls(cls.META_SCHEMA, format_checker=cls.FORMAT_CHECKER)


def _pointer(path: Any) -> str:
    return "".join("/" + str(part).replace("~", "~0").replace("/", "~1") for part in path)


def check_json_schema(schema: Any, default_dialect: str) -> list[str]:
    """Check that a value is a valid JSON Schema (remembering recent answers by content).

    Servers list the same tools in every session; checking each schema
    against its metaschema once is enough. See :func:`_check_json_schema`.
    """
    try:
        key = json.dumps(schema, sort_keys=True)
    except (TypeError, ValueError):
        return _check_json_schema(schema, default_dialect)
    return list(_check_cached(key, default_dialect))


@functools.lru_cache(maxsize=512)
def _check_cached(key: str, default_dialect: str) -> tuple[str, ...]:
    return tuple(_check_json_schema(json.loads(key), default_dialect))


def _check_json_schema(schema: Any, default_dialect: str) -> list[str]:
    """Check that a value is a valid JSON Schema, such as a tool's ``inputSchema``.

    The dialect is the schema's own ``$schema`` if it has one, else ``default_dialect``.
    The check is the metaschema's, as ``check_schema`` does it (``pattern`` values
    must also compile as regular expressions); references are not followed.

    Args:
        schema: The value to check (an object or a boolean, if it is a schema).
        default_dialect: The metaschema URI to use when ``schema`` has no ``$schema``,
            for example ``"https://json-schema.org/draft/2020-12/schema"`` or
            ``"http://json-schema.org/draft-07/schema#"``.

    Returns:
        One message per problem, each prefixed with the JSON Pointer of the offending
        location (empty for the root); an empty list when the schema is valid.

    Raises:
        ValueError: ``default_dialect`` is not a JSON Schema dialect jsonschema knows.
    """
    default = _DIALECTS.get(default_dialect.rstrip("#"))
    if default is None:
        raise ValueError(
            f"unknown default dialect {default_dialect!r}; known: {', '.join(sorted(_DIALECTS))}"
        )
    if isinstance(schema, bool):
        return []
    if not isinstance(schema, dict):
        return [f": a schema must be an object or a boolean, not {a_json_type(json_type(schema))}"]
    cls = default
    if "$schema" in schema:
        declared = schema["$schema"]
        if not isinstance(declared, str):
            return [f"/$schema: must be a string, not {a_json_type(json_type(declared))}"]
        found = _DIALECTS.get(declared.rstrip("#"))
        if found is None:
            return [
                f"/$schema: unknown dialect {display(declared)}; known: {', '.join(sorted(_DIALECTS))}"
            ]
        cls = found
    checker = _metaschema_validator(cls)
    errors = sorted(checker.iter_errors(schema), key=lambda error: list(map(str, error.path)))
    return [f"{_pointer(error.absolute_path)}: {json_message(error)}" for error in errors]
