"""``report --output-format markdown``: GitHub-flavoured Markdown, as a job summary shows it.

GitHub renders ``$GITHUB_STEP_SUMMARY`` as GitHub-flavoured Markdown: tables, and
``<details>`` for what would make the summary long. Text from the traffic is escaped
so that a ``|`` or a ``<`` in a server's message cannot break the table.
"""

from __future__ import annotations

from typing import Any, TextIO

from migrator.reporters.fleet.words import (
    VERDICTS,
    seen_range,
    server_label,
    summary_line,
    tools_list,
    words,
)

_ICONS = {"migrated": "✅", "not-migrated": "❌", "mixed": "⚠️", "no-evidence": "❔"}


def cell(text: str) -> str:
    """Text safe inside a table cell (and in Markdown generally)."""
    out = " ".join(str(text).split())
    for char, escaped in (("\\", "\\\\"), ("|", "\\|"), ("<", "&lt;"), (">", "&gt;"), ("`", "'")):
        out = out.replace(char, escaped)
    for char in "*_[]#":
        out = out.replace(char, "\\" + char)
    return out


def code(text: str) -> str:
    """Text for a code span: backticks cannot end it early."""
    return " ".join(str(text).replace("`", "'").split())


def render_markdown(document: dict[str, Any], out: TextIO, lang: str = "en") -> None:
    """The summary line, a table of servers, then the details of those that need work."""
    w = words(lang)
    out.write(f"## {w['title']}\n\n{summary_line(document, w)}\n\n")
    servers = document["servers"]
    if servers:
        out.write(
            f"| {w['verdict']} | {w['server']} | {w['version']} | {w['is_error']} | "
            f"{w['protocol_error']} | {w['tools']} | {w['seen']} |\n"
        )
        out.write("| --- | --- | --- | ---: | ---: | --- | --- |\n")
        for server in servers:
            name = cell(server["name"]) + (" *(file)*" if server["identified_by"] == "file" else "")
            out.write(
                f"| {_ICONS[server['verdict']]} {w[server['verdict']]} | {name} | "
                f"{cell(server.get('version') or '')} | {server['counts']['is_error']} | "
                f"{server['counts']['protocol_error']} | {cell(tools_list(server))} | "
                f"{cell(seen_range(server))} |\n"
            )
        out.write("\n")
    needing = [s for s in servers if s["verdict"] != "migrated"]
    for server in needing:
        out.write(
            f"<details><summary>{_ICONS[server['verdict']]} <b>{cell(server_label(server))}</b>: "
            f"{w[server['verdict']]}</summary>\n\n"
        )
        if server["identified_by"] == "file":
            out.write(f"- {w['identified']}: {w['by_file']}\n")
        if server["sdk"]["family"]:
            out.write(f"- {w['sdk']}: {cell(server['sdk']['family'])}\n")
        for kind in ("protocol_error", "is_error"):
            example = server["examples"][kind]
            if example is None:
                continue
            out.write(
                f"- {w['example_' + kind]}: `{code(example['path'])}:{example['line']}`: "
                f"{cell(example['text'])}\n"
            )
            if server["verdict"] == "mixed":
                places = ", ".join(f"`{code(p)}`" for p in server["where"][kind])
                out.write(f"  - {w['where']}: {places}\n")
        advice = server["advice"]
        link = f" ([{advice['rule']}]({advice['url']}))" if advice["rule"] else ""
        if not advice["rule"] and advice["url"]:
            link = f" ([probe]({advice['url']}))"
        out.write(f"- {w['todo']}: {cell(advice['text'])}{link}\n\n</details>\n\n")
    changes = document.get("changes")
    if changes:
        out.write(f"### {w['changes']}\n\n| {w['server']} | {w['version']} | | {w['verdict']} |\n")
        out.write("| --- | --- | --- | --- |\n")
        for change in changes:
            before = w.get(change["before"] or "", "-")
            after = w.get(change["after"] or "", "-")
            out.write(
                f"| {cell(change['name'])} | {cell(change['version'] or '')} | "
                f"{w['change_' + change['change']]} | {before} → {after} |\n"
            )
        out.write("\n")
    if document["errors"]:
        out.write(f"### {w['errors']}\n\n")
        for error in document["errors"]:
            out.write(f"- `{code(error['path'])}`: {cell(error['message'])}\n")
        out.write("\n")
    legend = "; ".join(f"{_ICONS[v]} {w[v]}: {w['verdict_help_' + v]}" for v in VERDICTS)
    out.write(
        f"<sub>{legend}. {w['generated'].format(version=document['tool']['version'])}</sub>\n"
    )
