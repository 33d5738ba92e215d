"""A stdio server behind us: relay, and record or fix, until the server exits.

The stdio counterpart of :func:`migrator.live.http_proxy.serve`: ``record`` and
``proxy`` over stdio are both this function, with or without a fixer. The relay
(:mod:`migrator.live.relay`) moves the bytes; the recorder and the live fixer
watch each line as it passes.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from migrator.engine.options import Options
from migrator.live.fixer import LiveFixer
from migrator.live.recording import Recorder
from migrator.live.relay import Log, Relay


@dataclass(frozen=True)
class StdioSettings:
    """What a stdio relay does: which server, whether it fixes, where it records."""

    command: list[str]
    options: Options | None = None  # None: relay only (record); else fix as proxy does
    record: str | None = None  # a file for the traffic
    envelope: bool = False  # record envelope JSONL instead of wire lines
    quiet: bool = False  # no summary line when the server exits


def serve(settings: StdioSettings, log: Log, stdin_fd: int, stdout_fd: int) -> int:
    """Start the server, relay until it exits, and return its exit code.

    Raises:
        UsageError: the server cannot be started, or the recording cannot be opened.
    """
    fixer = None
    if settings.options is not None:
        path = Path(settings.record).name if settings.record else "<proxy>"
        fixer = LiveFixer(path, settings.options, log, quiet=settings.quiet)
    recorder = (
        Recorder.open(settings.record, envelope=settings.envelope, log=log)
        if settings.record
        else None
    )
    try:
        relay = Relay(
            settings.command,
            log=log,
            sink=recorder,
            hook=fixer,
            stdin_fd=stdin_fd,
            stdout_fd=stdout_fd,
        )
        code = relay.run()
    finally:
        if recorder is not None:
            recorder.close()
    if fixer is not None and not settings.quiet:
        log(f"proxy: {fixer.summary()}")
    return code
