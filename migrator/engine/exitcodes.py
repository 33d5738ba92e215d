"""The exit-code contract: one table that the commands, the CLI reference and the Guarantees page share.

CI systems act on the exit code alone, so its meaning is a promise. The commands return
the constants below, and the docs render their exit-code tables from :data:`EXIT_CODES`,
so the page cannot say one thing while the code does another.

The semantics decided for 2.x:

* findings set the code to 0 or 1 by ``--fail-on`` (``never``: always 0);
* a file that cannot be read, or any usage or input error, exits 2 whatever ``--fail-on``
  says: a broken fixture must not pass quietly; so does a run that read no MCP traffic at all
  (empty files, a folder of other files), which would otherwise pass as "0 findings";
* for ``fix``, 2 means *that* file is untouched; the other files of the run are still written;
* Ctrl-C exits 130, and a closed standard output (``| head``) exits 141, as a shell reports
  a process ended by SIGINT or SIGPIPE.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = [
    "BROKEN_PIPE",
    "CHANGES",
    "COMMANDS",
    "ERROR",
    "EXIT_CODES",
    "FINDINGS",
    "INTERRUPTED",
    "OK",
    "RELAYED_STATUS",
    "ExitCode",
]

OK = 0
FINDINGS = 1
CHANGES = 1  # fix --diff: something would change
ERROR = 2
INTERRUPTED = 130  # 128 + SIGINT
BROKEN_PIPE = 141  # 128 + SIGPIPE

# What the table cannot say in a cell: the relaying commands pass the server's status on.
RELAYED_STATUS = (
    "`record` and `proxy` otherwise exit with the server's own exit code, or 128 + N if "
    "signal N ended the server."
)

# The columns of the table, in the order the docs show them.
COMMANDS = ("check", "fix", "fix --diff", "rules, explain", "schema", "record, proxy")


@dataclass(frozen=True)
class ExitCode:
    """One exit code and what it means for each command (absent: not used by that command)."""

    code: int
    name: str
    meaning: str  # one line, true for every command that uses the code
    per_command: tuple[tuple[str, str], ...]

    def for_command(self, command: str) -> str | None:
        """What this code means for ``command`` (a name from :data:`COMMANDS`), or ``None``."""
        return dict(self.per_command).get(command)


EXIT_CODES: tuple[ExitCode, ...] = (
    ExitCode(
        OK,
        "ok",
        "success",
        (
            (
                "check",
                "no finding at or above `--fail-on` (always, with `--fail-on never`); "
                "`--write-baseline` wrote the baseline",
            ),
            (
                "fix",
                "done: the files that needed a fix were rewritten, or nothing needed one; "
                "findings without a fix may remain",
            ),
            ("fix --diff", "nothing would change"),
            ("rules, explain", "printed"),
            ("schema", "fetched and verified, or listed"),
            ("record, proxy", "the server exited 0"),
        ),
    ),
    ExitCode(
        FINDINGS,
        "findings",
        "findings, or changes `fix --diff` would make",
        (
            ("check", "findings at or above `--fail-on`, or baseline entries that no longer occur"),
            ("fix --diff", "something would change"),
        ),
    ),
    ExitCode(
        ERROR,
        "error",
        "a usage or input error, whatever `--fail-on` says",
        (
            (
                "check",
                "a usage or configuration error, a file that could not be read or that was "
                "named but holds no MCP traffic, or no MCP traffic in any path; "
                "the other files are still reported",
            ),
            (
                "fix",
                "a usage error, no MCP traffic in any path, or a file with an input error, a "
                "refused rewrite or a failed write: that file is untouched, the other files are "
                "still written",
            ),
            ("fix --diff", "a usage or input error; the other files' diffs are still printed"),
            ("rules, explain", "`explain` with an unknown code"),
            (
                "schema",
                "download failed, checksum mismatch, or no pinned checksum for that version",
            ),
            ("record, proxy", "no server command, or the server could not be started"),
        ),
    ),
    ExitCode(
        INTERRUPTED,
        "interrupted",
        "Ctrl-C (SIGINT): a file being written is left as it was",
        tuple((command, "interrupted") for command in COMMANDS),
    ),
    ExitCode(
        BROKEN_PIPE,
        "broken-pipe",
        "the reader of standard output went away (a pipe into `head`); no traceback",
        tuple((command, "standard output closed") for command in COMMANDS[:5]),
    ),
)
