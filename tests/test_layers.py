"""The import graph follows the layers the contributors' page draws.

The table between ``<!-- layers:start -->`` and ``<!-- layers:end -->`` in
``docs/migrator/contributing.md`` is the single statement of the layering: each
module of ``migrator`` matches one row, and no import (at module level, inside a
function, or for type checking only) reaches a lower row. Two rows with the same
number are siblings: neither imports the other. No import circle, between modules or
between folders, is allowed anywhere.
"""

from __future__ import annotations

import ast
import re
from fnmatch import fnmatchcase
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "migrator"
PAGE = ROOT / "docs" / "migrator" / "contributing.md"


def layers() -> list[tuple[int, str, list[str]]]:
    """The rows of the page's layer table: number, name, module patterns."""
    text = PAGE.read_text(encoding="utf-8")
    table = text.split("<!-- layers:start -->", 1)[1].split("<!-- layers:end -->", 1)[0]
    rows = []
    for line in table.strip().splitlines()[2:]:  # past the header and its rule
        number, name, modules = (cell.strip() for cell in line.strip().strip("|").split("|"))
        rows.append((int(number), name, re.findall(r"`([^`]+)`", modules)))
    return rows


def modules() -> dict[str, Path]:
    """Every module of the package, by dotted name (a package by its own name)."""
    found = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = list(path.relative_to(ROOT).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


def row_of(module: str) -> tuple[int, str]:
    """The (layer, name) of the one row whose patterns match ``module``."""
    matches = {
        (n, name) for n, name, patterns in layers() for p in patterns if fnmatchcase(module, p)
    }
    assert len(matches) == 1, f"{module} matches rows {sorted(matches)}: give it exactly one row"
    return matches.pop()


def layer_of(module: str) -> int:
    return row_of(module)[0]


def graph() -> dict[str, set[str]]:
    found = modules()
    return {module: imports(module, path, set(found)) for module, path in found.items()}


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one node (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in sorted(edges.get(node, ())):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                component.append(top)
                if top == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(edges):
        if node not in index:
            visit(node)
    return found


def folder_of(module: str) -> str:
    """``migrator.engine.runner`` -> ``migrator.engine``; a package is its own folder."""
    path = modules()[module]
    return module if path.name == "__init__.py" else module.rpartition(".")[0]


def imports(module: str, path: Path, known: set[str]) -> set[str]:
    """The package modules ``module`` imports, anywhere in its source."""
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    edges = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            edges |= {alias.name for alias in node.names if alias.name.split(".")[0] == "migrator"}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            if base.split(".")[0] != "migrator":
                continue
            for alias in node.names:  # `from migrator import api` imports the module migrator.api
                edges.add(f"{base}.{alias.name}" if f"{base}.{alias.name}" in known else base)
    edges.discard(module)
    return edges


def test_the_page_has_a_layer_table() -> None:
    rows = layers()
    numbers = [n for n, _, _ in rows]
    assert numbers == sorted(numbers) and sorted(set(numbers)) == list(range(len(set(numbers))))
    assert all(patterns for _, _, patterns in rows)
    assert len({name for _, name, _ in rows}) == len(rows)


def test_only_the_facade_and_the_foundation_stay_at_the_top() -> None:
    top = sorted(path.name for path in PACKAGE.glob("*.py"))
    assert top == ["__init__.py", "__main__.py", "api.py", "errors.py"]


def test_no_import_circle_between_modules() -> None:
    assert cycles(graph()) == []


def test_no_import_circle_between_folders() -> None:
    folders: dict[str, set[str]] = {}
    for module, targets in graph().items():
        source = folder_of(module)
        # a package's own __init__ and its modules are one folder; a parent folder
        # importing its child is the tree itself, not a circle
        folders.setdefault(source, set()).update(
            folder_of(t) for t in targets if not folder_of(t).startswith(source)
        )
    assert cycles(folders) == []


def test_sibling_layers_do_not_import_each_other() -> None:
    crossing = [
        f"{module} ({row_of(module)[1]}) imports {target} ({row_of(target)[1]})"
        for module, targets in graph().items()
        for target in sorted(targets)
        if layer_of(target) == layer_of(module) and row_of(target) != row_of(module)
    ]
    assert crossing == []


def test_every_module_has_exactly_one_layer() -> None:
    for module in modules():
        layer_of(module)


def test_no_import_runs_from_a_lower_layer_to_a_higher_one() -> None:
    found = modules()
    upward = [
        f"{module} (layer {layer_of(module)}) imports {target} (layer {layer_of(target)})"
        for module, path in found.items()
        for target in sorted(imports(module, path, set(found)))
        if layer_of(target) > layer_of(module)
    ]
    assert upward == []


def test_readers_import_nothing_above_the_session_model() -> None:
    found = modules()
    session_model = next(n for n, name, _ in layers() if name == "model")
    for module, path in found.items():
        if module.startswith("migrator.readers"):
            assert all(
                layer_of(t) <= max(session_model, layer_of(module))
                for t in imports(module, path, set(found))
            )
            assert not [
                t
                for t in imports(module, path, set(found))
                if t.startswith(
                    ("migrator.engine", "migrator.api", "migrator.fix", "migrator.judge")
                )
            ]


def test_the_command_line_holds_no_file_loop_no_precedence_merge_and_no_exit_code_rule() -> None:
    for path in (PACKAGE / "cli").rglob("*.py"):
        source = path.read_text(encoding="utf-8")
        assert "ProcessPoolExecutor" not in source and "iter_transcripts" not in source, path.name
        assert "resolve_selection" not in source and "getattr(args" not in source, path.name
        assert "Severity(" not in source and ".rank" not in source, path.name


@pytest.mark.parametrize(
    ("importer", "imported"),
    [
        ("migrator.readers.pair", "migrator.engine.pipeline"),
        ("migrator.engine.results", "migrator.reporters"),
    ],
)
def test_the_checker_sees_an_upward_import(tmp_path: Path, importer: str, imported: str) -> None:
    # The graph is read from source: an upward import written anywhere is caught.
    fake = tmp_path / "m.py"
    fake.write_text(
        f"def f():\n    from {imported.rpartition('.')[0]} import {imported.rpartition('.')[2]}\n"
    )
    edges = imports(importer, fake, set(modules()))
    assert imported in edges and layer_of(imported) > layer_of(importer)


def test_one_module_creates_temporary_files_and_moves_them_into_place() -> None:
    # Every file the project writes (fix, stretches, recordings, HAR, the schema cache)
    # goes through fix/writer.py, with its fsync, its cleanup and its temporary names.
    # The runner's diff spool is a temporary file too, but it is read back and removed,
    # never moved into place.
    creators = re.compile(r"\b(mkstemp|NamedTemporaryFile|mkdtemp|TemporaryDirectory)\b")
    movers = re.compile(r"\bos\.(replace|rename)\b|\.(replace|rename)\((?:self\.)?(target|path)")
    found = {
        module: (bool(creators.search(source)), bool(movers.search(source)))
        for module, path in modules().items()
        if (source := path.read_text(encoding="utf-8"))
    }
    assert sorted(m for m, (creates, _) in found.items() if creates) == [
        "migrator.engine.runner",
        "migrator.fix.writer",
    ]
    assert [m for m, (_, moves) in found.items() if moves] == ["migrator.fix.writer"]
