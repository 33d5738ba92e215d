"""Module paths from before the layered layout still import, with a warning, for one release."""

from __future__ import annotations

import importlib
import sys

import pytest

import migrator


def fresh_import(name: str) -> object:
    sys.modules.pop(name, None)
    return importlib.import_module(name)


@pytest.mark.parametrize(("old", "new"), sorted(migrator.MOVED_MODULES.items()))
def test_every_former_module_path_gives_the_module_at_its_new_place(old: str, new: str) -> None:
    with pytest.warns(DeprecationWarning, match=f"{old} moved to {new}"):
        module = fresh_import(old)
    assert module is importlib.import_module(new)


def test_a_former_child_of_a_moved_package_moves_with_it() -> None:
    with pytest.warns(DeprecationWarning, match="migrator.wire.relay moved to migrator.live.relay"):
        module = fresh_import("migrator.wire.relay")
    from migrator.live import relay

    assert module is relay


def test_names_from_a_former_module_that_is_now_a_package_still_resolve() -> None:
    from migrator.engine import pipeline
    from migrator.model import units

    with pytest.warns(DeprecationWarning, match="migrator.model.Unit moved"):
        from migrator.model import Unit
    with pytest.warns(DeprecationWarning, match="migrator.engine.Pipeline moved"):
        from migrator.engine import Pipeline
    assert Unit is units.Unit and Pipeline is pipeline.Pipeline


def test_a_name_that_never_existed_is_still_an_error() -> None:
    with pytest.raises(ImportError):
        fresh_import("migrator.no_such_module")
    with pytest.raises(AttributeError):
        importlib.import_module("migrator.model").__getattribute__("no_such_name")


def test_the_documented_facade_imports_without_a_warning() -> None:
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        from migrator.api import check_text, write_report
        from migrator.cli import main
        from migrator.rules import all_rules
    assert callable(check_text) and callable(write_report) and callable(main)
    assert all_rules()
