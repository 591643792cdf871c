"""Sphinx extension: accessible markup where the HTML writer's own fails readers.

* Docutils writes a bibliography as ``<div role="list" class="citation-list">`` whose
  entries carry ``role="doc-biblioentry"``.  ARIA 1.2 deprecates that role, and a list
  must own list items, so axe-core reports a critical ``aria-required-children``
  violation on the Bibliography page.  Each entry becomes a ``listitem`` of the list it
  already is in.
* myst-nb gives a figure of a notebook output its file name as ``alt`` text
  (``../_images/25ad…png``), which a screen reader announces as a hash.  The book's
  figures carry a description in their output metadata (``lecture_pkg.plotting``
  composes it from the figure's titles, axis labels and legend, or takes the one a
  notebook sets); each figure gets that description as its ``alt`` text.  Figures load
  lazily, so that a phone fetches only what it scrolls to (an explorer's picture, which
  its controls swap, loads at once).
* A figure's text is legible only down to a certain size: each figure carries its
  display width (the size its text was set for) as ``--figure-width`` in its ``style``,
  so that book.css can keep it from shrinking below about 0.7 of that on a phone (a
  wider figure scrolls sideways inside its own box there).
* Every page gets a ``<meta name="description">``, its first paragraph shortened, which
  search engines and link previews show.
* Generated pages (the indices) get a description from their title, and the index of
  theorems, algorithms and proofs a header row naming its columns.
* The "Show code cell source" toggles carry ``aria-label="Toggle hidden content"``,
  which does not contain their visible text (axe-core: ``label-content-name-mismatch``);
  without the label their accessible name is the visible text.
"""

from __future__ import annotations

import base64
import hashlib
import html
import json
import re
from pathlib import Path

_BIBLIOENTRY = re.compile(r'(<div class="citation" id="[^"]*") role="doc-biblioentry"')
_IMG = re.compile(r"<img\b[^>]*>")
_SRC = re.compile(r'\bsrc="[^"]*?([0-9a-f]{64})\.png"')
_ALT = re.compile(r'\balt="[^"]*"')
_TOGGLE_LABEL = re.compile(r'\s+aria-label="Toggle hidden content"')
_STYLE = re.compile(r'\sstyle="([^"]*)"')
_STYLE_WIDTH = re.compile(r'(?:^|;)\s*width:\s*([\d.]+)px')
_WIDTH = re.compile(r'\swidth="([\d.]+)"')


def figure_descriptions(notebooks) -> dict[str, str]:
    """``sha256 of a PNG -> alt text`` for every figure output of ``notebooks`` that has one.

    myst-nb names a figure's file by the SHA-256 of its bytes, so the hash finds a
    figure's description in the notebook that made it.
    """
    found = {}
    for path in notebooks:
        nb = json.loads(Path(path).read_text(encoding="utf-8"))
        for cell in nb.get("cells", []):
            for output in cell.get("outputs", []):
                png = output.get("data", {}).get("image/png")
                alt = output.get("metadata", {}).get("image/png", {}).get("alt")
                if png and alt:
                    data = base64.b64decode("".join(png) if isinstance(png, list) else png)
                    found[hashlib.sha256(data).hexdigest()] = alt
    return found


def _describe_image(tag: str, descriptions: dict[str, str]) -> str:
    src = _SRC.search(tag)
    if src and src.group(1) in descriptions:
        alt = descriptions[src.group(1)].replace("&", "&amp;").replace('"', "&quot;")
        alt = alt.replace("<", "&lt;").replace(">", "&gt;")
        tag = _ALT.sub(f'alt="{alt}"', tag) if _ALT.search(tag) else tag.replace("<img", f'<img alt="{alt}"', 1)
    if "loading=" not in tag and "lpx-picture" not in tag:   # an explorer's picture: at once
        tag = tag.replace("<img", '<img loading="lazy" decoding="async"', 1)
    return with_display_width(tag)


def with_display_width(tag: str) -> str:
    """An ``<img>`` tag with its display width (``style="width: 669px"``, or an explorer's
    ``width="680"``) repeated as the CSS property ``--figure-width``; a tag without a
    width in pixels, or with the property already, is returned as it is."""
    style = _STYLE.search(tag)
    width = _STYLE_WIDTH.search(style.group(1)) if style else None
    width = width or _WIDTH.search(tag)
    if width is None or "--figure-width" in tag:
        return tag
    prop = f"--figure-width: {width.group(1)}px;"
    if style:
        value = style.group(1).strip()
        value = f"{value}{'' if value.endswith(';') else ';'} {prop}" if value else prop
        return f'{tag[:style.start()]} style="{value}"{tag[style.end():]}'
    end = len(tag) - (2 if tag.endswith("/>") else 1)
    return f'{tag[:end].rstrip()} style="{prop}"{" " if tag.endswith("/>") else ""}{tag[end:]}'


def accessible_body(body: str, descriptions: dict[str, str] | None = None) -> str:
    """``body`` with list-item bibliography entries, described figures and plain toggles."""
    body = _BIBLIOENTRY.sub(r'\1 role="listitem"', body)
    body = _TOGGLE_LABEL.sub("", body)
    return _IMG.sub(lambda m: _describe_image(m.group(0), descriptions or {}), body)


_PARAGRAPH = re.compile(r"<p\b[^>]*>(.*?)</p>", re.S)


def page_description(body: str, title: str = "", limit: int = 155) -> str:
    """The first paragraph of ``body`` as plain text of at most ``limit`` characters."""
    for m in _PARAGRAPH.finditer(body):
        text = html.unescape(re.sub(r"<[^>]+>", "", m.group(1)))
        text = re.sub(r"\s+", " ", text).strip()
        if len(text) >= 40:
            break
    else:
        text = title
    if len(text) > limit:
        text = text[:limit - 1].rsplit(" ", 1)[0].rstrip(",;:") + "…"
    return text


def _load(app):
    notebooks = sorted(Path(app.srcdir).glob("book/**/*.ipynb"))
    app.book_figure_descriptions = figure_descriptions(
        p for p in notebooks if ".ipynb_checkpoints" not in p.parts)


_INDEX_TABLE = '<table class="indextable modindextable">'
_INDEX_HEADER = ('<thead><tr><th scope="col"><span class="visually-hidden">Letter</span></th>'
                 '<th scope="col">Label (page)</th><th scope="col">Kind</th></tr></thead>')


def index_with_header(html_text: str) -> str:
    """A domain index page (the theorems, algorithms and proofs, ``prf-prf.html``) with a
    header row naming its table's columns (axe-core: ``td-has-header``)."""
    if _INDEX_HEADER in html_text:
        return html_text
    return html_text.replace(_INDEX_TABLE, _INDEX_TABLE + _INDEX_HEADER)


def _fix_indices(app, exception):
    if exception is not None or app.builder.format != "html":
        return
    for page in Path(app.outdir).glob("*-*.html"):   # domain indices: <domain>-<index>.html
        text = page.read_text(encoding="utf-8")
        if _INDEX_TABLE in text:
            page.write_text(index_with_header(text), encoding="utf-8")


def _fix(app, pagename, templatename, context, doctree):
    if "body" in context:
        descriptions = getattr(app, "book_figure_descriptions", None)
        if descriptions is None:
            _load(app)
            descriptions = app.book_figure_descriptions
        context["body"] = accessible_body(context["body"], descriptions)
        description = page_description(context["body"], context.get("title", ""))
    else:   # a generated page (an index): its title says what it is
        title = re.sub(r"<[^>]+>", "", context.get("title", ""))
        book = context.get("docstitle", "")
        description = (f"Search {book}." if pagename == "search" else
                       f"{title} of {book}: each entry links to the page where it appears.")
    if description:
        context["metatags"] = (context.get("metatags", "")
                               + f'\n<meta name="description" content="{html.escape(description)}">')


def setup(app):
    app.connect("builder-inited", _load)
    app.connect("html-page-context", _fix)
    app.connect("build-finished", _fix_indices)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
