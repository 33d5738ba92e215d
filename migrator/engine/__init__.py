"""From one unit to many files: options and configuration, the pipeline that runs the
rules over a file, one file on several cores, the runner over many files, results,
baselines and exit codes.

Never imports reporters, live traffic or the command line.
"""

from __future__ import annotations

from migrator import former_names

# ``migrator.engine`` was one module (now :mod:`migrator.engine.pipeline`) before 0.1.0;
# its names still resolve here, with a warning, for one release.
__getattr__ = former_names(
    "migrator.engine",
    "migrator.engine.pipeline",
    {"FileReport", "Mode", "Options", "Pipeline", "process", "process_units"},
)
