"""Configuration files: ``[tool.mcp-transcripts]`` in ``pyproject.toml``, or ``.mcp-transcripts.yaml``.

:func:`discover` walks up from a folder to the first folder that holds either
file (``pyproject.toml`` counts only when it has the table; ``.mcp-transcripts.yaml``
wins when a folder has both) and returns a :class:`Config`. The files of the project's
former name (``.mcp-migrate.yaml``, ``[tool.mcp-migrate]``) are still read where no file
of the new name is found, and the :class:`Config` then carries a deprecation notice for
the command to print. :func:`load_config`
reads a named file (``--config PATH``). The content is validated against
``schemas/config.schema.json``; an unknown key or a wrong value is a
:class:`ConfigError` naming the file and the key. Nothing here prints.

Settings are resolved once: a command turns its parsed arguments into
:class:`Overrides`, :meth:`Config.resolve` merges them over the file (the
command line wins, then the file, then the built-in defaults) into engine
:class:`~migrator.engine.options.Options`, and :meth:`Config.narrow` applies the
file's ``per-file-ignores`` to one path. Globs (see :mod:`migrator.engine.globs`) are
relative to the configuration file's folder; a folder that ``exclude``
matches is not entered when walking.
"""

from __future__ import annotations

import datetime
import os
import re
import sys
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from migrator.engine.globs import glob_matcher
from migrator.engine.results import DEFAULT_FAIL_ON
from migrator.errors import UsageError
from migrator.readers.storage import is_url, key_of

if TYPE_CHECKING:
    from migrator.engine.options import Mode, Options

__all__ = [
    "CONFIG_FILES",
    "DEFAULT_FAIL_ON",
    "Config",
    "ConfigError",
    "Overrides",
    "discover",
    "find_config",
    "load",
    "load_config",
]

YAML_NAME = ".mcp-transcripts.yaml"
PYPROJECT_NAME = "pyproject.toml"
CONFIG_FILES = (YAML_NAME, PYPROJECT_NAME)
"""The files :func:`find_config` looks for, in the order it prefers them within one folder."""

TABLE_KEY = "mcp-transcripts"
TABLE = f"[tool.{TABLE_KEY}]"

# The project was called mcp-migrate before its first release (a name another project owns on the
# package index). Old settings keep working, with a notice, so nobody's CI silently
# loses them after the rename.
LEGACY_YAML_NAME = ".mcp-migrate.yaml"
LEGACY_TABLE_KEY = "mcp-migrate"


class ConfigError(UsageError):
    """A configuration file cannot be read, or holds an unknown key or a wrong value."""


@dataclass(frozen=True)
class Overrides:
    """What the command line says, typed; ``None`` (or the default) means "not given".

    A command builds this once from its parsed arguments; :meth:`Config.resolve`
    merges it over the configuration file.
    """

    config: str | None = None  # --config FILE; None: discover from the current folder
    select: tuple[str, ...] | None = None  # replaces both select and extend-select of the file
    ignore: tuple[str, ...] | None = None
    unsafe_fixes: bool = False  # --unsafe-fixes can only turn them on
    provenance: bool = True  # --no-provenance can only turn it off
    assume_version: str | None = None
    input_format: str | None = None
    mcp_schemas: tuple[str, ...] = ()
    fail_on: str | None = None
    mode: Mode | None = None  # None: check
    storage_options: tuple[tuple[str, str], ...] = ()  # --storage-option KEY=VALUE, in order

    @staticmethod
    def codes(values: Sequence[str] | None) -> tuple[str, ...] | None:
        """Repeated, comma-separated rule names (``--select A,B --select C``) as one tuple."""
        if not values:
            return None
        return tuple(part for value in values for part in value.split(",") if part.strip())


def load(overrides: Overrides) -> Config:
    """The configuration a run uses: ``overrides.config``, or the one found from here up.

    Raises:
        ConfigError: the file is missing or invalid (the CLI exits with 2).
    """
    return load_config(overrides.config) if overrides.config else discover()


@dataclass(frozen=True)
class Config:
    """The settings read from a configuration file (all unset when there is none).

    ``None`` means "not set"; the command line and then the built-in default decide.
    """

    path: Path | None = None  # the file read, or None
    root: Path = field(default_factory=Path.cwd)  # the folder globs are relative to
    select: tuple[str, ...] | None = None
    extend_select: tuple[str, ...] = ()
    ignore: tuple[str, ...] | None = None
    per_file_ignores: tuple[tuple[str, tuple[str, ...]], ...] = ()
    fail_on: str | None = None
    unsafe_fixes: bool | None = None
    provenance: bool | None = None
    input_format: str | None = None
    assume_version: str | None = None
    include: tuple[str, ...] | None = None
    exclude: tuple[str, ...] = ()
    unknown_tool_patterns: tuple[str, ...] = ()
    validation_patterns: tuple[str, ...] = ()
    deprecation: str | None = None  # one line for the command to print, or None

    def describe(self) -> str:
        """The file read, as messages name it, or a note that there is none."""
        return _display(self.path) if self.path is not None else "none found, using the defaults"

    def relative(self, path: str | Path) -> str:
        """``path`` relative to :attr:`root`, with ``/`` separators (may start with ``..``).

        An object's URL is taken relative to its bucket: globs match its key.
        """
        if is_url(path):
            return key_of(str(path))
        return Path(os.path.relpath(Path(path).absolute(), self.root)).as_posix()

    def ignored_codes(self, path: str | Path) -> tuple[str, ...]:
        """The rule names ``per-file-ignores`` lists for ``path`` (not yet resolved to codes)."""
        relative = self.relative(path)
        return tuple(
            name
            for pattern, names in self.per_file_ignores
            if glob_matcher([pattern])(relative)
            for name in names
        )

    def resolve(self, overrides: Overrides | None = None) -> Options:
        """The engine options: the command line over this file over the defaults.

        ``--select`` replaces both ``select`` and ``extend-select``; ``--ignore``
        replaces ``ignore``; flags that can only turn a setting on (or off) win
        only in that direction.

        Args:
            overrides: what the command line says (default: nothing).

        Returns:
            The options for every file of the run (see :meth:`narrow` for one path).

        Raises:
            UsageError: a rule name on the command line is unknown.
        """
        from migrator.engine.options import Mode, Options
        from migrator.readers import InputFormat
        from migrator.rules.registry import resolve_selection

        given = overrides or Overrides()
        select = list(given.select) if given.select is not None else None
        if select is None:
            select = list(self.select) if self.select is not None else None
            if self.extend_select:
                select = (select if select is not None else ["ALL"]) + list(self.extend_select)
        ignore = list(given.ignore) if given.ignore is not None else list(self.ignore or ())
        provenance = given.provenance
        if provenance and self.provenance is not None:
            provenance = self.provenance
        return Options(
            selected=resolve_selection(select, ignore),
            unsafe_fixes=given.unsafe_fixes or bool(self.unsafe_fixes),
            provenance=provenance,
            assume_version=given.assume_version or self.assume_version,
            input_format=InputFormat(
                given.input_format or self.input_format or InputFormat.AUTO.value
            ),
            mode=given.mode or Mode.CHECK,
            mcp_schemas=given.mcp_schemas,
            unknown_tool_patterns=self.unknown_tool_patterns,
            validation_patterns=self.validation_patterns,
            storage_options=given.storage_options,
        )

    def narrow(self, options: Options, path: str | Path) -> Options:
        """``options`` with the rules ``per-file-ignores`` turns off for ``path``.

        Stdin (``-``) has no place in the tree, so nothing is turned off for it.
        """
        from migrator.rules.registry import all_rules, resolve_selection

        names = self.ignored_codes(path) if str(path) != "-" else ()
        if not names:
            return options
        ignored = resolve_selection(list(names), None)
        selected = (
            options.selected
            if options.selected is not None
            else frozenset(r.code for r in all_rules())
        )
        return replace(options, selected=selected - ignored)

    def fail_level(self, overrides: Overrides | None = None) -> str:
        """``--fail-on``, else the file's ``fail-on``, else :data:`DEFAULT_FAIL_ON`."""
        given = overrides.fail_on if overrides is not None else None
        return given or self.fail_on or DEFAULT_FAIL_ON

    def walk_filters(
        self,
    ) -> tuple[Callable[[Path | str], bool] | None, Callable[[Path | str], bool] | None]:
        """``include`` and ``exclude`` as predicates on paths, for ``iter_transcripts``."""
        include = exclude = None
        if self.include is not None:
            included = glob_matcher(self.include)
            include = _on_relative(self, included)
        if self.exclude:
            excluded = glob_matcher(self.exclude)
            exclude = _on_relative(self, excluded)
        return include, exclude


def _on_relative(config: Config, matches: Callable[[str], bool]) -> Callable[[Path | str], bool]:
    return lambda path: matches(config.relative(path))


# -- finding and reading files ------------------------------------------------------


def find_config(start: Path | None = None) -> Path | None:
    """The configuration file for ``start`` (default: the current folder), or ``None``.

    Walks up from ``start``; in each folder ``.mcp-transcripts.yaml`` is taken, else a
    ``pyproject.toml`` with a ``[tool.mcp-transcripts]`` table, else the same under the
    former name (``.mcp-migrate.yaml``, ``[tool.mcp-migrate]``); the first found wins.

    Raises:
        ConfigError: a ``pyproject.toml`` on the way is not valid TOML.
    """
    folder = (start or Path.cwd()).absolute()
    for candidate in (folder, *folder.parents):
        yaml_file = candidate / YAML_NAME
        if yaml_file.is_file():
            return yaml_file
        pyproject = candidate / PYPROJECT_NAME
        tables = _pyproject_tables(pyproject) if pyproject.is_file() else (None, None)
        if tables[0] is not None:
            return pyproject
        legacy_yaml = candidate / LEGACY_YAML_NAME
        if legacy_yaml.is_file():
            return legacy_yaml
        if tables[1] is not None:
            return pyproject
    return None


def discover(start: Path | None = None) -> Config:
    """The configuration that applies in ``start`` (default: the current folder).

    Returns:
        The loaded :class:`Config`, or an empty one rooted at ``start`` when there is
        no configuration file.

    Raises:
        ConfigError: the file found is invalid.
    """
    found = find_config(start)
    if found is None:
        return Config(root=(start or Path.cwd()).absolute())
    return load_config(found)


def load_config(path: str | Path) -> Config:
    """Read and validate one configuration file.

    A ``.toml`` file must have a ``[tool.mcp-transcripts]`` table; any other file is
    read as YAML (the whole document is the configuration).

    Raises:
        ConfigError: the file cannot be read or parsed, or its content is invalid.
    """
    file = Path(path)
    shown = _display(file)
    if not file.is_file():
        raise ConfigError("no such configuration file", path=shown)
    deprecation = None
    if file.suffix == ".toml":
        table, legacy = _pyproject_tables(file)
        if table is None and legacy is not None:
            table = legacy
            deprecation = (
                f"{shown}: [tool.{LEGACY_TABLE_KEY}] is deprecated; rename the table to {TABLE}"
            )
        if table is None:
            raise ConfigError(f"has no {TABLE} table", path=shown)
        key = TABLE_KEY if deprecation is None else LEGACY_TABLE_KEY
        data, where = table, f"[tool.{key}] "
    else:
        data, where = _read_yaml(file), ""
        if file.name == LEGACY_YAML_NAME:
            deprecation = (
                f"{shown}: {LEGACY_YAML_NAME} is deprecated; rename the file to {YAML_NAME}"
            )
    config = _build(_normalise(data), file.absolute(), shown, where)
    return replace(config, deprecation=deprecation) if deprecation else config


def _display(file: Path) -> str:
    """The file as messages name it: relative to the current folder when inside it."""
    absolute = file.absolute()
    try:
        return absolute.relative_to(Path.cwd()).as_posix()
    except ValueError:
        return str(absolute)


def _read_text(file: Path) -> str:
    try:
        return file.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"cannot read: {exc}", path=_display(file)) from exc


def _toml_loads(text: str) -> dict[str, Any]:
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover - Python 3.10 only
        import tomli as tomllib  # type: ignore[import-not-found, unused-ignore]
    loaded: dict[str, Any] = tomllib.loads(text)
    return loaded


def _pyproject_tables(file: Path) -> tuple[Any | None, Any | None]:
    """The ``[tool.mcp-transcripts]`` and former ``[tool.mcp-migrate]`` values of a TOML file.

    Either is ``None`` when absent.
    """
    try:
        document = _toml_loads(_read_text(file))
    except ValueError as exc:  # tomllib.TOMLDecodeError is a ValueError
        raise ConfigError(f"not valid TOML: {exc}", path=_display(file)) from exc
    tool = document.get("tool")
    if not isinstance(tool, dict):
        return None, None
    return tool.get(TABLE_KEY), tool.get(LEGACY_TABLE_KEY)


def _read_yaml(file: Path) -> Any:
    from ruamel.yaml import YAML
    from ruamel.yaml.error import YAMLError

    text = _read_text(file)
    try:
        data = YAML(typ="safe", pure=True).load(text)
    except YAMLError as exc:
        raise ConfigError(f"not valid YAML: {exc}", path=_display(file)) from exc
    return {} if data is None else data


def _normalise(value: Any) -> Any:
    """Dates (``assume-version: 2025-11-25`` unquoted) become ISO strings."""
    if isinstance(value, dict):
        return {key: _normalise(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_normalise(item) for item in value]
    if isinstance(value, (datetime.date, datetime.datetime)):
        return value.isoformat()
    return value


# -- validating ---------------------------------------------------------------------


def _where(parts: Sequence[str | int]) -> str:
    """``'fail-on'``, ``'per-file-ignores'['legacy/**'][0]``: the key a problem is at."""
    key, *rest = parts
    return repr(key) + "".join(f"[{item!r}]" for item in rest)


def _schema_problems(data: Any) -> list[str]:
    import jsonschema

    from migrator.judge import schemas

    schema = schemas.load_schema("config.schema.json")
    if not isinstance(data, dict):
        return [f"the configuration must be a table of keys, not {type(data).__name__}"]
    known = set(schema["properties"])
    problems = [
        f"unknown key {key!r} (known keys: {', '.join(sorted(known))})"
        for key in data
        if key not in known
    ]
    validator = jsonschema.Draft202012Validator(schema)
    errors = sorted(validator.iter_errors(data), key=lambda e: [str(p) for p in e.absolute_path])
    for error in errors:
        if error.validator == "additionalProperties" and not error.absolute_path:
            continue  # reported above, with the known keys
        if error.absolute_path:
            problems.append(f"key {_where(list(error.absolute_path))}: {error.message}")
        else:
            problems.append(error.message)
    return problems


def _check_rules(key: str, names: Iterable[str]) -> list[str]:
    from migrator.rules.registry import resolve_selection

    problems = []
    for name in names:
        try:
            resolve_selection([name], None)
        except UsageError as exc:
            problems.append(f"key {key}: {exc.message}")
    return problems


def _check_patterns(key: str, patterns: Iterable[str]) -> list[str]:
    problems = []
    for pattern in patterns:
        try:
            re.compile(pattern)
        except re.error as exc:
            problems.append(f"key {key}: {pattern!r} is not a regular expression ({exc})")
    return problems


def _build(data: Any, file: Path, shown: str, where: str) -> Config:
    problems = _schema_problems(data)
    if not problems:
        problems += _semantic_problems(data)
    if problems:
        raise ConfigError(where + "; ".join(problems), path=shown)

    def strings(key: str) -> tuple[str, ...] | None:
        value = data.get(key)
        return None if value is None else tuple(value)

    per_file: Mapping[str, list[str]] = data.get("per-file-ignores", {})
    return Config(
        path=file,
        root=file.parent,
        select=strings("select"),
        extend_select=strings("extend-select") or (),
        ignore=strings("ignore"),
        per_file_ignores=tuple((glob, tuple(names)) for glob, names in per_file.items()),
        fail_on=data.get("fail-on"),
        unsafe_fixes=data.get("unsafe-fixes"),
        provenance=data.get("provenance"),
        input_format=data.get("input-format"),
        assume_version=data.get("assume-version"),
        include=strings("include"),
        exclude=strings("exclude") or (),
        unknown_tool_patterns=strings("unknown-tool-patterns") or (),
        validation_patterns=strings("validation-patterns") or (),
    )


def _semantic_problems(data: dict[str, Any]) -> list[str]:
    """What the schema cannot say: rule names exist, regexes compile, formats are known."""
    from migrator.readers import InputFormat

    problems: list[str] = []
    for key in ("select", "extend-select", "ignore"):
        problems += _check_rules(_where([key]), data.get(key, []))
    for glob, names in data.get("per-file-ignores", {}).items():
        problems += _check_rules(_where(["per-file-ignores", glob]), names)
    for key in ("unknown-tool-patterns", "validation-patterns"):
        problems += _check_patterns(_where([key]), data.get(key, []))
    formats = [f.value for f in InputFormat]
    if "input-format" in data and data["input-format"] not in formats:
        problems.append(f"key 'input-format': {data['input-format']!r} is not one of {formats}")
    return problems
