"""From one unit to many files: options and configuration, the pipeline that runs the
rules over a file, one file on several cores, the runner over many files, results,
baselines and exit codes.

Never imports reporters, live traffic or the command line.
"""

from __future__ import annotations

import importlib
import warnings
from typing import Any

# ``migrator.engine`` was one module (now :mod:`migrator.engine.pipeline`) before 0.1.0;
# its names still resolve here, with a warning, for one release.
_FORMER_NAMES = {"FileReport", "Mode", "Options", "Pipeline", "process", "process_units"}


def __getattr__(name: str) -> Any:
    if name in _FORMER_NAMES:
        warnings.warn(
            f"migrator.engine.{name} moved to migrator.engine.pipeline.{name}",
            DeprecationWarning,
            stacklevel=2,
        )
        return getattr(importlib.import_module("migrator.engine.pipeline"), name)
    raise AttributeError(f"module 'migrator.engine' has no attribute {name!r}")
