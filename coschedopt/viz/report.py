"""The report document model every report shares: sections of paragraphs, tables and figures, and its
Markdown and standalone-HTML renderers.

The benchmark harness (:mod:`coschedopt.bench.report`) assembles a report from
its own sections and the families' (each family's ``report.py`` returns
:class:`Section` objects built from the tidy result table); both use these
types, so no family imports the harness.  Pure Python: no matplotlib here
(figures arrive as PNG bytes).
"""

from __future__ import annotations

import base64
import html
from dataclasses import dataclass, field
from typing import Any


@dataclass
class Table:
    headers: list[str]
    rows: list[list[str]]
    caption: str = ""


@dataclass
class Figure:
    png: bytes
    filename: str
    caption: str


@dataclass
class Section:
    title: str
    level: int = 2
    blocks: list[Any] = field(default_factory=list)  # str (paragraph) | Table | Figure


def _md_cell(s: str) -> str:
    return s.replace("|", "\\|").replace("\n", " ")


def render_markdown(title: str, preamble: list[str], sections: list[Section], figure_dir: str) -> str:
    lines = [f"# {title}", ""]
    for p in preamble:
        lines += [p, ""]
    for sec in sections:
        lines += [f"{'#' * sec.level} {sec.title}", ""]
        for b in sec.blocks:
            if isinstance(b, str):
                lines += [b, ""]
            elif isinstance(b, Table):
                if b.caption:
                    lines += [f"*{b.caption}*", ""]
                lines.append("| " + " | ".join(_md_cell(h) for h in b.headers) + " |")
                lines.append("|" + "|".join("---" for _ in b.headers) + "|")
                lines += ["| " + " | ".join(_md_cell(c) for c in row) + " |" for row in b.rows]
                lines.append("")
            elif isinstance(b, Figure):
                lines += [f"![{b.caption}]({figure_dir}/{b.filename})", "", f"*{b.caption}*", ""]
    return "\n".join(lines).rstrip() + "\n"


_CSS = """
body { font-family: system-ui, -apple-system, "Segoe UI", sans-serif; max-width: 1200px; margin: 2em auto;
       padding: 0 1em; color: #222; line-height: 1.45; }
table { border-collapse: collapse; margin: 0.5em 0 1.5em; font-size: 0.85em; }
th, td { border: 1px solid #ccc; padding: 0.25em 0.6em; text-align: right; }
th:first-child, td:first-child { text-align: left; }
th { background: #f2f2f2; }
caption { caption-side: top; text-align: left; font-style: italic; padding-bottom: 0.3em; }
figure { margin: 1em 0 2em; }
figure img { max-width: 100%; }
figcaption { font-style: italic; font-size: 0.9em; }
code { background: #f5f5f5; padding: 0 0.2em; }
"""


def _inline(text: str) -> str:
    """Escape, then render `code` spans."""
    parts = html.escape(text).split("`")
    return "".join(f"<code>{p}</code>" if i % 2 else p for i, p in enumerate(parts))


def render_html(title: str, preamble: list[str], sections: list[Section]) -> str:
    out = [
        "<!DOCTYPE html>",
        '<html lang="en">',
        "<head>",
        '<meta charset="utf-8">',
        f"<title>{html.escape(title)}</title>",
        f"<style>{_CSS}</style>",
        "</head>",
        "<body>",
        f"<h1>{_inline(title)}</h1>",
    ]
    out += [f"<p>{_inline(p)}</p>" for p in preamble]
    for sec in sections:
        out.append(f"<h{sec.level}>{_inline(sec.title)}</h{sec.level}>")
        for b in sec.blocks:
            if isinstance(b, str):
                out.append(f"<p>{_inline(b)}</p>")
            elif isinstance(b, Table):
                out.append("<table>")
                if b.caption:
                    out.append(f"<caption>{_inline(b.caption)}</caption>")
                out.append("<thead><tr>" + "".join(f"<th>{html.escape(h)}</th>" for h in b.headers) + "</tr></thead>")
                out.append("<tbody>")
                for row in b.rows:
                    out.append("<tr>" + "".join(f"<td>{html.escape(c)}</td>" for c in row) + "</tr>")
                out.append("</tbody></table>")
            elif isinstance(b, Figure):
                data = base64.b64encode(b.png).decode("ascii")
                out.append(
                    f'<figure><img src="data:image/png;base64,{data}" alt="{html.escape(b.caption)}">'
                    f"<figcaption>{_inline(b.caption)}</figcaption></figure>"
                )
    out += ["</body>", "</html>", ""]
    return "\n".join(out)
