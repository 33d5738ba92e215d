"""``report --output-format html --output FILE``: one self-contained page.

Everything is in the file: the CSS is inline, the two charts are inline SVG drawn
here, and nothing is fetched (no script, font or image from the network), so the page
can be mailed, attached to a ticket or opened from a CI artifact offline. It is laid
out for a phone (390 px: the server table becomes one card per server, long paths
wrap) as for a desktop (1280 px).
"""

from __future__ import annotations

from collections import Counter
from html import escape
from typing import Any, TextIO

from migrator.reporters.fleet.words import (
    VERDICTS,
    seen_range,
    server_label,
    summary_line,
    tools_list,
    words,
)

COLORS = {
    "migrated": "#1a7f37",
    "not-migrated": "#cf222e",
    "mixed": "#bf8700",
    "no-evidence": "#6e7781",
}
KIND_COLORS = {"is_error": COLORS["migrated"], "protocol_error": COLORS["not-migrated"]}

CSS = """
*{box-sizing:border-box}
html{-webkit-text-size-adjust:100%}
body{margin:0;font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,"Noto Sans","PingFang SC","Microsoft YaHei",sans-serif;color:#1f2328;background:#f6f8fa}
main{max-width:1200px;margin:0 auto;padding:16px}
h1{font-size:1.6rem;margin:.2em 0}
h2{font-size:1.2rem;margin:1.4em 0 .5em}
p{margin:.4em 0}
a{color:#0969da}
.lead{color:#57606a}
.summary{font-weight:600}
.charts{display:grid;grid-template-columns:repeat(auto-fit,minmax(min(100%,340px),1fr));gap:16px;margin:16px 0}
figure{margin:0;background:#fff;border:1px solid #d0d7de;border-radius:8px;padding:12px;min-width:0}
figcaption{font-weight:600;margin-bottom:6px}
svg{display:block;width:100%;height:auto}
svg text{font:11px system-ui,sans-serif;fill:#1f2328}
.empty{color:#57606a;font-style:italic}
table{width:100%;border-collapse:collapse;background:#fff;border:1px solid #d0d7de;border-radius:8px}
th,td{text-align:left;padding:6px 10px;border-bottom:1px solid #d0d7de;vertical-align:top;overflow-wrap:anywhere}
th{background:#eaeef2;font-weight:600}
td.num{text-align:right;font-variant-numeric:tabular-nums}
.badge{display:inline-block;padding:1px 8px;border-radius:999px;color:#fff;font-size:.85em;font-weight:600;white-space:nowrap}
.file{color:#57606a;font-size:.85em}
details{background:#fff;border:1px solid #d0d7de;border-radius:8px;margin:10px 0;padding:8px 12px}
summary{cursor:pointer;font-weight:600;overflow-wrap:anywhere}
dl{margin:8px 0;display:grid;grid-template-columns:max-content 1fr;gap:4px 12px}
dt{color:#57606a}
dd{margin:0;min-width:0;overflow-wrap:anywhere}
pre{white-space:pre-wrap;overflow-wrap:anywhere;background:#f6f8fa;border-radius:6px;padding:8px;margin:4px 0;font-size:.85em}
code{overflow-wrap:anywhere}
footer{color:#57606a;font-size:.85em;margin:24px 0 8px}
@media (max-width:640px){
  main{padding:10px}
  table,thead,tbody,tr,th,td{display:block}
  thead{display:none}
  table{border:0;background:none}
  tr{background:#fff;border:1px solid #d0d7de;border-radius:8px;margin:0 0 10px;padding:6px 0}
  td{border:0;padding:2px 12px;display:grid;grid-template-columns:9em 1fr;gap:8px}
  td.num{text-align:left}
  td::before{content:attr(data-label);color:#57606a}
  dl{grid-template-columns:1fr}
  dd{margin-bottom:6px}
}
"""


def render_html(document: dict[str, Any], out: TextIO, lang: str = "en") -> None:
    """Write the whole page."""
    w = words(lang)
    servers = document["servers"]
    out.write(
        f'<!DOCTYPE html>\n<html lang="{"zh-CN" if lang == "zh" else "en"}">\n<head>\n'
        '<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>{escape(w['title'])}</title>\n<style>{CSS}</style>\n</head>\n<body>\n<main>\n"
        f'<h1>{escape(w["title"])}</h1>\n<p class="lead">{escape(w["lead"])}</p>\n'
        f'<p class="summary" id="summary">{escape(summary_line(document, w))}</p>\n'
        '<div class="charts">\n'
        f"<figure><figcaption>{escape(w['chart_verdicts'])}</figcaption>"
        f"{verdict_chart(document, w)}</figure>\n"
        f"<figure><figcaption>{escape(w['chart_time'])}</figcaption>"
        f"{timeline_chart(document, w)}</figure>\n</div>\n"
    )
    if servers:
        _table(servers, w, out)
        for server in servers:
            _details(server, w, out)
    _changes(document, w, out)
    if document["errors"]:
        out.write(f"<h2>{escape(w['errors'])}</h2>\n<ul>\n")
        for error in document["errors"]:
            out.write(
                f"<li><code>{escape(error['path'])}</code>: {escape(error['message'])}</li>\n"
            )
        out.write("</ul>\n")
    legend = "; ".join(f"{w[v]}: {w['verdict_help_' + v]}" for v in VERDICTS)
    generated = w["generated"].format(version=document["tool"]["version"])
    if document.get("generated"):
        generated += f", {document['generated']}"
    out.write(
        f"<footer><p>{escape(legend)}.</p><p>{escape(generated)}</p></footer>\n"
        "</main>\n</body>\n</html>\n"
    )


def _badge(verdict: str, w: dict[str, str]) -> str:
    return (
        f'<span class="badge" data-verdict="{verdict}" style="background:{COLORS[verdict]}">'
        f"{escape(w[verdict])}</span>"
    )


def _table(servers: list[dict[str, Any]], w: dict[str, str], out: TextIO) -> None:
    labels = (
        w["verdict"], w["server"], w["version"], w["is_error"], w["protocol_error"],
        w["tools"], w["seen"],
    )  # fmt: skip
    out.write(f"<h2>{escape(w['servers'])}</h2>\n<table>\n<thead><tr>")
    out.write("".join(f"<th>{escape(label)}</th>" for label in labels))
    out.write("</tr></thead>\n<tbody>\n")
    for server in servers:
        name = escape(server["name"])
        if server["identified_by"] == "file":
            name += f' <span class="file">({escape(w["by_file"])})</span>'
        cells = (
            ("", _badge(server["verdict"], w)),
            ("", name),
            ("", escape(server.get("version") or "")),
            ("num", str(server["counts"]["is_error"])),
            ("num", str(server["counts"]["protocol_error"])),
            ("", escape(tools_list(server))),
            ("", escape(seen_range(server))),
        )
        out.write('<tr class="server">')
        for label, (css, value) in zip(labels, cells, strict=True):
            klass = f' class="{css}"' if css else ""
            out.write(f'<td{klass} data-label="{escape(label)}">{value}</td>')
        out.write("</tr>\n")
    out.write("</tbody>\n</table>\n")


def _details(server: dict[str, Any], w: dict[str, str], out: TextIO) -> None:
    verdict = server["verdict"]
    opened = " open" if verdict in ("not-migrated", "mixed") else ""
    out.write(
        f"<details{opened}><summary>{_badge(verdict, w)} {escape(server_label(server))}</summary>\n<dl>\n"
    )
    identified = w["by_" + server["identified_by"]]
    rows = [(w["identified"], escape(identified))]
    if server["sdk"]["family"]:
        rows.append((w["sdk"], escape(f"{server['sdk']['family']} ({server['sdk']['evidence']})")))
    rows.append((w["files"], escape(f"{server['files']}: " + ", ".join(server["file_sample"]))))
    if server["tools"]:
        rows.append((w["tools"], escape(", ".join(t["name"] for t in server["tools"]))))
    if seen_range(server):
        rows.append((w["seen"], escape(seen_range(server))))
    for kind in ("protocol_error", "is_error"):
        example = server["examples"][kind]
        if example is None:
            continue
        where = f"{example['path']}:{example['line']}"
        if example["request_line"] is not None:
            where += f" ({w['request_at']} {example['request_line']})"
        value = f"<code>{escape(where)}</code><pre>{escape(example['text'])}</pre>"
        if verdict == "mixed":
            value += f"{escape(w['where'])}: " + ", ".join(
                f"<code>{escape(p)}</code>" for p in server["where"][kind]
            )
        rows.append((w["example_" + kind], value))
    advice = server["advice"]
    todo = escape(advice["text"])
    if advice["url"]:
        label = f"{advice['rule']} {w['rule_page']}" if advice["rule"] else "probe"
        todo += f' (<a href="{escape(advice["url"])}">{escape(label)}</a>)'
    rows.append((w["todo"], todo))
    for term, value in rows:
        out.write(f"<dt>{escape(term)}</dt><dd>{value}</dd>\n")
    out.write("</dl>\n</details>\n")


def _changes(document: dict[str, Any], w: dict[str, str], out: TextIO) -> None:
    changes = document.get("changes")
    if not changes:
        return
    out.write(f"<h2>{escape(w['changes'])}</h2>\n<table>\n<thead><tr>")
    labels = (w["server"], w["version"], "", w["verdict"])
    out.write("".join(f"<th>{escape(label)}</th>" for label in labels) + "</tr></thead>\n<tbody>\n")
    for change in changes:
        before = _badge(change["before"], w) if change["before"] else "-"
        after = _badge(change["after"], w) if change["after"] else "-"
        cells = (
            escape(change["name"]),
            escape(change["version"] or ""),
            escape(w["change_" + change["change"]]),
            f"{before} → {after}",
        )
        out.write('<tr class="change">')
        out.write(
            "".join(
                f'<td data-label="{escape(label)}">{value}</td>'
                for label, value in zip(labels, cells, strict=True)
            )
        )
        out.write("</tr>\n")
    out.write("</tbody>\n</table>\n")


def verdict_chart(document: dict[str, Any], w: dict[str, str]) -> str:
    """Horizontal bars: how many servers have each verdict."""
    counts = document["summary"]["verdicts"]
    top = max([1, *counts.values()])
    row, label_width, width = 30, 110, 340
    bar_space = width - label_width - 40
    parts = [
        f'<svg viewBox="0 0 {width} {row * len(VERDICTS) + 8}" role="img" '
        f'aria-label="{escape(w["chart_verdicts"])}" id="chart-verdicts">'
    ]
    for index, verdict in enumerate(VERDICTS):
        y = 4 + index * row
        count = counts.get(verdict, 0)
        length = round(bar_space * count / top) if count else 0
        parts.append(
            f'<text x="0" y="{y + 17}">{escape(w[verdict])}</text>'
            f'<rect x="{label_width}" y="{y + 4}" width="{max(length, 1)}" height="20" rx="3" '
            f'fill="{COLORS[verdict]}" data-verdict="{verdict}" data-count="{count}"/>'
            f'<text x="{label_width + length + 6}" y="{y + 18}">{count}</text>'
        )
    parts.append("</svg>")
    return "".join(parts)


def timeline_chart(document: dict[str, Any], w: dict[str, str]) -> str:
    """Stacked columns per day: invalid calls answered as isError results and as JSON-RPC errors."""
    days: Counter[tuple[str, str]] = Counter()
    for server in document["servers"]:
        for point in server["timeline"]:
            days[point["day"], "is_error"] += point["is_error"]
            days[point["day"], "protocol_error"] += point["protocol_error"]
    ordered = sorted({day for day, _ in days})
    if not ordered:
        return f'<p class="empty">{escape(w["chart_time_empty"])}</p>'
    width, height, left, bottom = 340, 170, 34, 34
    plot_w, plot_h = width - left - 6, height - bottom - 8
    top = max(days[day, "is_error"] + days[day, "protocol_error"] for day in ordered) or 1
    step = plot_w / len(ordered)
    bar = max(2.0, min(28.0, step * 0.7))
    parts = [
        f'<svg viewBox="0 0 {width} {height}" role="img" aria-label="{escape(w["chart_time"])}" '
        'id="chart-time">',
        f'<line x1="{left}" y1="{8 + plot_h}" x2="{width - 6}" y2="{8 + plot_h}" stroke="#8c959f"/>',
        f'<text x="{left - 4}" y="14" text-anchor="end">{top}</text>',
        f'<text x="{left - 4}" y="{8 + plot_h}" text-anchor="end">0</text>',
    ]
    label_every = max(1, len(ordered) // 4)
    for index, day in enumerate(ordered):
        x = left + index * step + (step - bar) / 2
        base: float = 8 + plot_h
        for kind in ("protocol_error", "is_error"):
            value = days[day, kind]
            if not value:
                continue
            size = plot_h * value / top
            base -= size
            parts.append(
                f'<rect x="{x:.1f}" y="{base:.1f}" width="{bar:.1f}" height="{size:.1f}" '
                f'fill="{KIND_COLORS[kind]}" data-day="{day}" data-kind="{kind}" data-count="{value}"/>'
            )
        if index % label_every == 0:
            parts.append(
                f'<text x="{x + bar / 2:.1f}" y="{8 + plot_h + 14}" text-anchor="middle">{day[5:]}</text>'
            )
    legend_y = height - 4
    parts.append(
        f'<rect x="{left}" y="{legend_y - 9}" width="10" height="10" fill="{KIND_COLORS["is_error"]}"/>'
        f'<text x="{left + 14}" y="{legend_y}">{escape(w["is_error"])}</text>'
        f'<rect x="{left + 150}" y="{legend_y - 9}" width="10" height="10" fill="{KIND_COLORS["protocol_error"]}"/>'
        f'<text x="{left + 164}" y="{legend_y}">{escape(w["protocol_error"])}</text>'
    )
    parts.append("</svg>")
    return "".join(parts)
