"""``report --output-format text``: a table of servers, then what to do about each that needs it."""

from __future__ import annotations

from typing import Any, TextIO

from migrator.reporters.fleet.words import seen_range, summary_line, tools_list, words

_COLUMNS = ("verdict", "server", "version", "isError", "-32602 etc.", "tools", "seen")


def render_text(document: dict[str, Any], out: TextIO, lang: str = "en") -> None:
    """The table, then per server that is not migrated: an example, where, and what to do."""
    w = words("en")  # a terminal table: English labels, as every other text output
    rows = [
        (
            server["verdict"],
            server["name"] if server["identified_by"] != "file" else f"{server['name']} (file)",
            server.get("version") or "-",
            str(server["counts"]["is_error"]),
            str(server["counts"]["protocol_error"]),
            tools_list(server, 3) or "-",
            seen_range(server) or "-",
        )
        for server in document["servers"]
    ]
    out.write(summary_line(document, w) + "\n\n")
    if rows:
        widths = [max(len(c), *(len(r[i]) for r in rows)) for i, c in enumerate(_COLUMNS)]
        numeric = {3, 4}

        def line(cells: tuple[str, ...]) -> str:
            return "  ".join(
                cell.rjust(widths[i]) if i in numeric else cell.ljust(widths[i])
                for i, cell in enumerate(cells)
            ).rstrip()

        out.write(line(_COLUMNS) + "\n")
        out.write(line(tuple("-" * width for width in widths)) + "\n")
        for row in rows:
            out.write(line(row) + "\n")
    for server in document["servers"]:
        if server["verdict"] == "migrated":
            continue
        label = server["name"] + (f" {server['version']}" if server.get("version") else "")
        out.write(f"\n{label}: {server['verdict']}")
        if server["identified_by"] == "file":
            out.write(" (no serverInfo: named by its file)")
        out.write("\n")
        if server["sdk"]["family"]:
            out.write(f"  SDK: {server['sdk']['family']}; {server['sdk']['evidence']}\n")
        for kind, title in (("protocol_error", "JSON-RPC error"), ("is_error", "isError result")):
            example = server["examples"][kind]
            if example is None:
                continue
            code = f" {example['error_code']}" if example["error_code"] is not None else ""
            out.write(f"  {title}{code} at {example['path']}:{example['line']}")
            if example["request_line"] is not None:
                out.write(f" (request at line {example['request_line']})")
            out.write(f": {example['text']}\n")
            if server["verdict"] == "mixed":
                out.write(f"    seen at: {', '.join(server['where'][kind])}\n")
        advice = server["advice"]
        out.write(f"  what to do: {advice['text']}")
        if advice["url"]:
            out.write(f" ({advice['rule'] + ': ' if advice['rule'] else ''}{advice['url']})")
        out.write("\n")
    _changes(document, out)
    for error in document["errors"]:
        where = f"{error['path']}:{error['line']}" if error["line"] else error["path"]
        out.write(f"\nerror: {where}: {error['message']}")
    if document["errors"]:
        out.write("\n")


def _changes(document: dict[str, Any], out: TextIO) -> None:
    changes = document.get("changes")
    if changes is None:
        return
    out.write(f"\nSince {document.get('compared_with') or 'the last run'}: ")
    if not changes:
        out.write("no server changed verdict\n")
        return
    out.write(f"{len(changes)} change{'s' if len(changes) != 1 else ''}\n")
    for change in changes:
        label = change["name"] + (f" {change['version']}" if change["version"] else "")
        out.write(
            f"  {change['change']:7}  {label}: {change['before'] or '-'} -> {change['after'] or '-'}\n"
        )
