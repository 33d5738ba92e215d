"""The engine on live traffic: judge every line, rewrite what the server sends.

:class:`LiveFixer` is a relay hook (see :mod:`migrator.live.relay`). Every line
of both directions goes, with its known direction, through the one pass of one
:class:`~migrator.engine.pipeline.Pipeline` (:mod:`migrator.engine.onepass`, the core
``check`` and ``fix`` run on a file), so the session model sees each request before
its answer, the handshake and the tool catalog, and a valid call costs what it costs
in a file. Client lines are forwarded unchanged; a server line is forwarded as the
pipeline returns it (rewritten when a rule fixed it).

A rewrite that fails validation is never sent: the original line is forwarded
and the refusal logged. Findings are logged as they happen and then dropped,
so memory stays bounded by what is in flight, however long the session runs.
"""

from __future__ import annotations

from migrator.engine.pipeline import FileReport, Options, Pipeline
from migrator.errors import UnsafeRewriteError
from migrator.live.relay import Log
from migrator.model.source import decode, encode
from migrator.model.units import Direction


class LiveFixer:
    """A line hook that runs the pipeline and returns the line to forward.

    Args:
        path: the name findings are reported under (``<proxy>`` or the recording's name).
        options: the engine options; their mode should be :attr:`Mode.FIX` (else it only reports).
        log: where findings and refusals are reported.
        quiet: do not report each finding (refusals and internal errors still are).
    """

    def __init__(self, path: str, options: Options, log: Log, *, quiet: bool = False) -> None:
        self.report = FileReport(path, format="wire", detection="live traffic, directions known")
        self.pipeline = Pipeline(path, options, self.report)
        self._feed = self.pipeline.one_pass.feed  # what it cannot decide goes the full way
        self.options = options
        self.log = log
        self.quiet = quiet
        self.lines = 0
        self.findings = 0
        self.rewritten = 0
        self.refused = 0

    def __call__(self, line: bytes, direction: Direction) -> bytes:
        """Judge one line; return it, or its rewrite for a server line a rule fixed."""
        self.lines += 1
        text = decode(line)
        out = text
        try:
            out = self._feed(text, self.lines, direction)
        except UnsafeRewriteError as exc:
            self.refused += 1
            self.log(f"{exc}; forwarded the original line")
        except Exception as exc:  # a bug of ours must not break the session
            self.log(
                f"{self.report.path}:{self.lines}: internal error ({type(exc).__name__}: {exc}); "
                "forwarded the line unchanged"
            )
        rewritten = out is not text and direction is Direction.SERVER_TO_CLIENT
        self._drain(rewritten)
        if not rewritten:
            return line  # the exact bytes that came in
        self.rewritten += 1
        return encode(out)

    def _drain(self, rewritten: bool) -> None:
        """Log the findings of the last line and forget them."""
        findings = self.report.findings
        if not findings:  # most lines: nothing to log, nothing to forget
            return
        self.findings += len(findings)
        if not self.quiet:
            for finding in findings:
                fixed = (
                    rewritten
                    and finding.fixable is not None
                    and self.options.fix_allowed(finding.fixable)
                )
                note = " [rewritten]" if fixed else ""
                self.log(
                    f"{finding.path}:{finding.line}:{finding.column}: {finding.code} {finding.message}{note}"
                )
        findings.clear()

    def summary(self) -> str:
        """``proxy: 43 lines, 7 findings, 7 rewritten``."""
        line = f"{_count(self.lines, 'line')}, {_count(self.findings, 'finding')}, {self.rewritten} rewritten"
        if self.refused:
            line += f", {_count(self.refused, 'rewrite')} refused (failed validation)"
        return line


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"
