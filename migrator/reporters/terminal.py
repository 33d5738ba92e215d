"""What the terminal allows: colour, and whether a live progress bar is welcome.

Colour follows https://no-color.org and https://force-color.org: ``NO_COLOR``
(non-empty) turns it off, ``FORCE_COLOR`` (non-empty) turns it on even when the
output is not a terminal; otherwise there is colour only on a terminal that is
not ``TERM=dumb``. ``NO_COLOR`` wins when both are set.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import TextIO

__all__ = ["CI_VARIABLES", "in_ci", "is_terminal", "use_color"]

CI_VARIABLES = (
    "CI",
    "GITHUB_ACTIONS",
    "GITLAB_CI",
    "BUILDKITE",
    "CIRCLECI",
    "TRAVIS",
    "TF_BUILD",
    "JENKINS_URL",
    "TEAMCITY_VERSION",
    "BITBUCKET_BUILD_NUMBER",
    "CODEBUILD_BUILD_ID",
    "DRONE",
    "APPVEYOR",
)
"""Environment variables that CI services set; any of them (not empty, ``0`` or ``false``) means CI."""


def _env(environ: Mapping[str, str] | None) -> Mapping[str, str]:
    return os.environ if environ is None else environ


def is_terminal(stream: TextIO) -> bool:
    """Whether ``stream`` is an interactive terminal."""
    isatty = getattr(stream, "isatty", None)
    try:
        return bool(isatty and isatty())
    except ValueError:  # a closed stream
        return False


def in_ci(environ: Mapping[str, str] | None = None) -> bool:
    """Whether we run under a CI service (whose logs must not get progress bars)."""
    env = _env(environ)
    return any(env.get(name, "").strip().lower() not in ("", "0", "false") for name in CI_VARIABLES)


def use_color(stream: TextIO, environ: Mapping[str, str] | None = None) -> bool:
    """Whether to colour what is written to ``stream``."""
    env = _env(environ)
    if env.get("NO_COLOR"):
        return False
    if env.get("FORCE_COLOR"):
        return True
    return is_terminal(stream) and env.get("TERM") != "dumb"
