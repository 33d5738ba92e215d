"""The official MCP schemas, for full-surface validation (opt-in).

The project's own schemas (``schemas/``) cover the tools surface. For every
other method, users can bring the official ``schema.json`` of a protocol
version: a file they have (``--mcp-schema PATH``), or one downloaded with
``mcp-transcripts schema fetch VERSION``, which pins the specification
repository's commit and each file's sha256 and keeps the file in the user's
cache folder. Nothing is downloaded unless asked, and nothing unverified is
stored.
"""

from __future__ import annotations

import functools
import json
import os
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from migrator.errors import InputError, UsageError

if TYPE_CHECKING:  # validation imports jsonschema: only when a schema is used
    from migrator.judge.validation import FastValidator, SchemaProblem

# The specification repository at a fixed commit, and what each file there hashes to.
SPEC_COMMIT = "b0f60ba5409db7a6582440a7b473cc0398890f15"
DEFAULT_URL = (
    "https://raw.githubusercontent.com/modelcontextprotocol/modelcontextprotocol/"
    f"{SPEC_COMMIT}/schema/{{version}}/schema.json"
)
PINNED_SHA256 = {
    "2024-11-05": "61cea2392d4f284092d09bc84b9ac488c0d5618ac2b38a56942fc5b99fd960ce",
    "2025-03-26": "e720669548c8100a4282c49e580efd6ddf7f28899ea786fc8db251dbdb356131",
    "2025-06-18": "af845e7e5b9d27107d1690f0936022546177a1403e63ffb11470135b296a2e01",
    "2025-11-25": "268a5f82ba70fd7e4b6dc4aa1e64f116f74b4d0edcb69dc046829c79dd4e97e7",
    "2026-07-28": "ef70b61f99b6d2e5e3b46863822eab08dff6a45bedc7a08914e0e5b133f40203",
}
TIMEOUT_SECONDS = 30


def cache_dir() -> Path:
    """The user cache folder for downloaded schemas (``MCP_TRANSCRIPTS_CACHE_DIR`` overrides it)."""
    override = os.environ.get("MCP_TRANSCRIPTS_CACHE_DIR")
    if override:
        return Path(override)
    if sys.platform == "win32":
        base = Path(os.environ.get("LOCALAPPDATA", Path.home() / "AppData" / "Local"))
    elif sys.platform == "darwin":
        base = Path.home() / "Library" / "Caches"
    else:
        base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return base / "mcp-transcripts" / "schemas"


def cached_path(version: str) -> Path:
    """Where ``schema fetch`` keeps a version's schema."""
    return cache_dir() / version / "schema.json"


@dataclass
class OfficialSchema:
    """One official ``schema.json``, indexed by method."""

    path: Path
    document: dict[str, Any]
    version: str | None  # None: applies to every session
    requests: dict[str, str] = field(default_factory=dict)  # method -> request definition
    notifications: dict[str, str] = field(default_factory=dict)
    _validators: dict[str, FastValidator] = field(default_factory=dict)

    @property
    def definitions(self) -> dict[str, Any]:
        """The schema's definitions (``definitions`` or ``$defs``)."""
        found = self.document.get("$defs") or self.document.get("definitions") or {}
        return found if isinstance(found, dict) else {}

    def index(self) -> None:
        """Map each method to the definition that describes it."""
        for name, definition in self.definitions.items():
            method = _method_const(definition)
            if method is None:
                continue
            if name.endswith("Notification"):
                self.notifications[method] = name
            elif name.endswith("Request"):
                self.requests[method] = name

    def result_definition(self, method: str) -> str | None:
        """The result definition for a request method (``tools/call`` -> ``CallToolResult``)."""
        request = self.requests.get(method)
        if request is None:
            return None
        candidate = request.removesuffix("Request") + "Result"
        if candidate in self.definitions:
            return candidate
        return "EmptyResult" if "EmptyResult" in self.definitions else None

    def problem(self, definition: str, instance: Any) -> SchemaProblem | None:
        """Validate ``instance`` against one definition."""
        validator = self._validators.get(definition)
        if validator is None:
            validator = self._validators[definition] = _build(self.document, definition)
        return validator.problem(instance)


def _method_const(definition: Any) -> str | None:
    if not isinstance(definition, dict):
        return None
    method = (
        definition.get("properties", {}).get("method")
        if isinstance(definition.get("properties"), dict)
        else None
    )
    if isinstance(method, dict):
        value = method.get(
            "const",
            (method.get("enum") or [None])[0] if isinstance(method.get("enum"), list) else None,
        )
        return value if isinstance(value, str) else None
    return None


_ANCHOR = "urn:mcp-transcripts:official-schema"


def _build(document: dict[str, Any], definition: str) -> FastValidator:
    import referencing
    from jsonschema.validators import validator_for

    from migrator.judge.validation import FastValidator

    key = "$defs" if "$defs" in document else "definitions"
    resource = referencing.Resource.from_contents(document)
    registry: referencing.Registry[Any] = referencing.Registry().with_resource(_ANCHOR, resource)
    cls = validator_for(document)
    reference = cls({"$ref": f"{_ANCHOR}#/{key}/{definition}"}, registry=registry)
    compiled = None
    try:
        import jsonschema_rs

        rs_registry = jsonschema_rs.Registry([(_ANCHOR, document)])
        compiled = jsonschema_rs.validator_for(
            {"$schema": document.get("$schema"), "$ref": f"{_ANCHOR}#/{key}/{definition}"},
            registry=rs_registry, validate_formats=False,
        )  # fmt: skip
    except Exception:  # no jsonschema-rs, or it cannot take this document: the reference decides
        compiled = None
    return FastValidator(reference, compiled)


@functools.cache
def load(path: str) -> OfficialSchema:
    """Read and index an official schema file.

    Its version comes from its folder's name when that is a date
    (``.../2025-11-25/schema.json``, as in the specification repository and
    the cache); otherwise it applies to sessions of every version.

    Raises:
        InputError: the file cannot be read or is not a JSON object.
    """
    file = Path(path)
    try:
        document = json.loads(file.read_text(encoding="utf-8"))
    except OSError as exc:
        raise InputError(f"cannot read the MCP schema: {exc.strerror or exc}", path=path) from exc
    except ValueError as exc:
        raise InputError(f"the MCP schema is not valid JSON: {exc}", path=path) from exc
    if not isinstance(document, dict):
        raise InputError("the MCP schema is not a JSON object", path=path)
    folder = file.parent.name
    version = folder if len(folder) == 10 and folder[4] == "-" and folder[7] == "-" else None
    schema = OfficialSchema(file, document, version)
    schema.index()
    if not schema.requests:
        raise InputError(
            "this JSON file defines no MCP requests; is it an MCP schema.json?", path=path
        )
    return schema


class OfficialSchemas:
    """The official schemas a run validates against, chosen per session version."""

    def __init__(self, sources: tuple[str, ...]) -> None:
        paths: list[str] = []
        for source in sources:
            if source == "cached":
                paths += [str(p) for p in sorted(cache_dir().glob("*/schema.json"))]
                if not paths:
                    raise UsageError(
                        "--mcp-schema cached: no schema in the cache; run `mcp-transcripts schema fetch VERSION`"
                    )
            else:
                paths.append(source)
        self.schemas = [load(p) for p in paths]

    def for_version(self, version: str | None) -> OfficialSchema | None:
        """The schema for a session's version: an exact match, else one without a version."""
        exact = [s for s in self.schemas if s.version is not None and s.version == version]
        if exact:
            return exact[0]
        general = [s for s in self.schemas if s.version is None]
        return general[0] if general else None
