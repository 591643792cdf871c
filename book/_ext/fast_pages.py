"""Sphinx extension: pages that a phone can show quickly.

After the HTML build, every page is rewritten so that its scripts do not hold up the
first paint:

* The theme loads Sphinx's search machinery (``searchtools.js``, ``language_data.js`` and
  the whole search index, ``searchindex.js``) on every page for a search-as-you-type box
  the book does not enable; the search button opens a form that goes to the search page,
  which loads them itself.  Other pages drop them.
* The theme's icons come from Font Awesome's JavaScript (1.5 MB), which replaces every
  ``<i class="fa-solid fa-…">`` by an inline SVG when the page loads.  Here that is done
  once, at build time, with the same SVG paths and Font Awesome's own stylesheet, taken
  from that script; pages then load no icon script at all.
* A static explorer (``lecture_pkg.widgets``) stores every picture it can show in the
  page, base64-encoded: up to 1.6 MB of HTML for one explorer.  Each picture goes to a
  file of its own in ``_static/explorers/`` (named by its content) and the explorer
  fetches a picture when a reader moves a control to it.  The picture sits in a box of
  its own (``div.lpx-frame``), which scrolls sideways on a phone where the picture is
  wider than the column (book.css keeps a figure's text legible), while the controls
  above it stay in place.
* The theme gives every box that scrolls sideways a tab stop, measuring every box of the
  page when it loads; with sections laid out only as they near the screen (book.css),
  that measuring lays out the whole chapter at once (half a second of a phone's time).
  ``book/_static/scroll_focus.js`` measures a box when its section is shown instead, and
  the theme's own pass is taken out of its script (``THEME_SCROLL_PASS``).
* A chapter folds the source of its plotting and set-up cells (``hide-input``): more than
  a quarter of a long chapter's elements were the colouring of code no reader had
  unfolded (Pygments wraps each word in a ``<span>``), parsed on every load.  A folded
  cell now holds its code as plain text, which find-in-page still finds (it unfolds the
  cell) and the copy button copies as before, and the coloured markup in an inert
  ``<script type="text/html">`` beside it; a few lines of script (``FOLDED_CODE_JS``,
  written once into such a page) put the colours in when the cell is first unfolded.
* The theme runs Bootstrap's script (81 kB, a fifth of a second of a phone's first
  seconds) on every page for three header controls: the download menu, the buttons'
  tooltips and the back-to-top button.  ``book/_static/bootstrap_on_demand.js`` takes its
  place and loads it at the reader's first scroll, touch, key or mouse movement
  (:func:`bootstrap_on_demand`).
* The scripts in a page's head are loaded with ``defer``: fetched in parallel, run in
  their order once the page is parsed, before ``DOMContentLoaded``, which is when they
  act.  ``documentation_options.js``, which an inline script right after it uses, is
  written into the page instead (a few hundred bytes).
"""

from __future__ import annotations

import base64
import hashlib
import json
import re
from pathlib import Path

FONTAWESOME_JS = "_static/scripts/fontawesome.js"
FONTAWESOME_CSS = "_static/fontawesome-svg.css"
SEARCH_ONLY = ("_static/searchtools.js", "_static/language_data.js", "searchindex.js")
KEEP_BLOCKING = ("documentation_options.js",)
OPTIONS_JS = "_static/documentation_options.js"
THEME_JS = "_static/scripts/pydata-sphinx-theme.js"
BOOTSTRAP_JS = "_static/scripts/bootstrap.js"
ON_DEMAND_JS = "_static/bootstrap_on_demand.js"
THEME_SCROLL_PASS = '"complete"===document.readyState?I():window.addEventListener("load",I)'
"""How the theme's script (pydata-sphinx-theme 0.17) starts its pass over scrollable boxes."""
_NO_SCROLL_PASS = "0/* the pass: book/_static/scroll_focus.js */"
_SCRIPT = re.compile(r'<script\b([^>]*)\bsrc="([^"]+)"([^>]*)>\s*</script>\s*')


def fast_head(html: str, search_page: bool = False, inline: str | None = None) -> str:
    """``html`` with the search scripts dropped (unless ``search_page``) and head scripts
    deferred; ``inline``, the text of ``documentation_options.js``, replaces its link (a
    few hundred bytes that must run before the next inline script: one request less that
    holds up the first paint)."""
    end = html.find("</head>")
    if end < 0:
        return html
    head, rest = html[:end], html[end:]

    def rewrite(m: re.Match) -> str:
        before, src, after = m.groups()
        path = src.split("?")[0]
        if not search_page and path.endswith(SEARCH_ONLY):
            return ""
        attributes = before + after
        if path.endswith(KEEP_BLOCKING) and inline is not None and "</" not in inline:
            return f"<script>{inline.strip()}</script>\n"
        if (re.search(r"\b(defer|async)\b", attributes) or path.endswith(KEEP_BLOCKING)
                or "type=" in attributes):
            return m.group(0)
        return f'<script{before}defer src="{src}"{after}></script>\n'

    return _SCRIPT.sub(rewrite, head) + rest


def bootstrap_on_demand(html: str, root: str) -> str:
    """``html`` with the theme's Bootstrap script loaded at the reader's first interaction:
    its preload hint goes and its tag becomes one for ``ON_DEMAND_JS`` (at ``root``), which
    loads the original address (``data-src``) when the reader first scrolls, touches, types
    or moves the mouse."""
    target = re.escape(BOOTSTRAP_JS)
    html = re.sub(r'<link rel="preload" as="script" href="[^"]*' + target + r'[^"]*"\s*/?>\s*',
                  "", html)

    def swap(m: re.Match) -> str:
        return (f'<script defer src="{root}{ON_DEMAND_JS}" data-src="{m.group(1)}">'
                "</script>\n")

    return re.sub(r'<script\b[^>]*\bsrc="([^"]*' + target + r'[^"]*)"[^>]*>\s*</script>\s*',
                  swap, html, count=1)


EXPLORER_DIR = "_static/explorers"
_EXPLORER = re.compile(r'(<img class="lpx-picture"[^>]*?src=")data:image/png;base64,[A-Za-z0-9+/=]+("[^>]*>)'
                       r'(\s*<script type="application/json" class="lpx-data">)(.*?)(</script>)'
                       r'(\s*<script>)(.*?)(</script>)', re.S)
_INLINE_FRAME = '"data:image/png;base64,"+data.frames'
FRAME_START, FRAME_END = '<div class="lpx-frame">', "</div>"


def explorer_files(html: str, outdir: Path, root: str) -> str:
    """``html`` with each static explorer's pictures written to files and fetched on demand.

    ``root`` is the page's path back to the site's top (``"../../"``).  An explorer whose
    script does not read its pictures as the package writes it is left as it is.
    """
    def move(m: re.Match) -> str:
        img_start, img_end, data_start, payload, data_end, js_start, js, js_end = m.groups()
        if _INLINE_FRAME not in js:
            return m.group(0)
        data = json.loads(payload.replace("<\\/", "</"))
        urls = []
        for frame in data["frames"]:
            png = base64.b64decode(frame)
            name = f"{EXPLORER_DIR}/{hashlib.sha256(png).hexdigest()[:20]}.png"
            target = outdir / name
            if not target.exists():
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_bytes(png)
            urls.append(root + name)
        data["frames"] = urls
        first = urls[data["frameOf"][_flat_index(data["initial"], data["shape"])]]
        payload = json.dumps(data, separators=(",", ":")).replace("</", "<\\/")
        return (FRAME_START + img_start + first + img_end + FRAME_END + data_start + payload
                + data_end + js_start + js.replace(_INLINE_FRAME, "data.frames") + js_end)

    return _EXPLORER.sub(move, html)


def _flat_index(position, shape) -> int:
    index = 0
    for p, n in zip(position, shape):
        index = index * n + p
    return index


_DETAILS = re.compile(r"<details\b.*?</details>", re.S)
_HIGHLIGHTED = re.compile(r'(<div class="highlight"><pre>)(.*?)(</pre>)', re.S)
DEFERRED_CLASS = "book-highlight"
FOLDED_CODE_JS = """<script>/* fast_pages.py: colour folded code when first unfolded */
(function () {
  function colour(details) {
    details.querySelectorAll("script.%s").forEach(function (markup) {
      var pre = markup.parentNode.querySelector("pre");
      if (pre) { pre.innerHTML = markup.textContent; }
      markup.remove();
    });
  }
  document.addEventListener("toggle", function (event) {
    if (event.target.open) { colour(event.target); }
  }, true);
  document.querySelectorAll("details[open]").forEach(colour);
})();
</script>
""" % DEFERRED_CLASS


def folded_code_plain(html: str) -> str:
    """``html`` with the highlighted code inside each ``<details>`` kept as plain text, its
    coloured markup beside it in an inert script that ``FOLDED_CODE_JS`` (added before
    ``</body>`` when anything was deferred) puts back when the cell is first unfolded."""
    count = 0

    def code(m: re.Match) -> str:
        nonlocal count
        start, marked, end = m.groups()
        if "<span" not in marked or "</script" in marked.lower():
            return m.group(0)
        count += 1
        plain = re.sub(r"</?span\b[^>]*>", "", marked)
        return (start + plain + end + f'<script type="text/html" class="{DEFERRED_CLASS}">'
                + marked + "</script>")

    html = _DETAILS.sub(lambda d: _HIGHLIGHTED.sub(code, d.group(0)), html)
    if count and FOLDED_CODE_JS not in html:
        at = html.rfind("</body>")
        if at >= 0:
            html = html[:at] + FOLDED_CODE_JS + html[at:]
    return html


_PACK_END = re.compile(r'\(function\(\)\{d\("(fa[brs])",p\)')
_ICON_CLASS = re.compile(r'<(i|span)\s+class="([^"]*\bfa(?:s|-solid)\b[^"]*)"([^>]*)>\s*</\1>')


def solid_icons(fontawesome_js: str) -> dict[str, tuple[int, int, str]]:
    """``name -> (width, height, SVG path)`` of Font Awesome's solid icons in its script."""
    ends = {m.group(1): m.start() for m in _PACK_END.finditer(fontawesome_js)}
    start, end = ends.get("far", 0), ends.get("fas", len(fontawesome_js))
    pack = fontawesome_js[start:end]
    found = re.finditer(r'(?:"([a-z0-9-]+)"|\b([a-z][a-z0-9]*)):\[(\d+),(\d+),\[[^\]]*\],'
                        r'"[0-9a-f]+","([^"]+)"\]', pack)
    return {m.group(1) or m.group(2): (int(m.group(3)), int(m.group(4)), m.group(5))
            for m in found}


def fontawesome_css(fontawesome_js: str) -> str:
    """The stylesheet Font Awesome's script injects for its inline SVGs.

    Its first rule names the icon fonts (``--fa-font-solid`` …) after fonts the site does
    not serve.  The script put its sheet before the theme's, so the theme's names (its
    served "Font Awesome 6 Free", which draws the icons of admonition titles and download
    links as CSS text) won; this sheet comes after the theme's, so that rule is left out.
    """
    start = fontawesome_js.find("':host,:root{")
    if start < 0:
        return ""
    css = fontawesome_js[start + 1:fontawesome_js.find("'", start + 1)]
    if css.startswith(":host,:root{--fa-font"):
        css = css[css.find("}") + 1:]
    return css


def inline_icons(html: str, icons: dict[str, tuple[int, int, str]]) -> str:
    """``html`` with each solid Font Awesome ``<i>``/``<span>`` icon replaced by its SVG."""

    def svg(m: re.Match) -> str:
        classes = m.group(2).split()
        names = [c[3:] for c in classes if c.startswith("fa-") and c[3:] in icons]
        if not names:
            return m.group(0)
        width, height, path = icons[names[0]]
        kept = " ".join(c for c in classes if c not in ("fas", "fa-solid"))
        return (f'<svg class="svg-inline--fa {kept}"{m.group(3)} aria-hidden="true" '
                f'focusable="false" role="img" xmlns="http://www.w3.org/2000/svg" '
                f'viewBox="0 0 {width} {height}"><path fill="currentColor" d="{path}"></path></svg>')

    return _ICON_CLASS.sub(svg, html)


def without_theme_scroll_pass(theme_js: str) -> str:
    """The theme's script without its start of the pass over scrollable boxes (which
    ``scroll_focus.js`` does section by section).  A theme that starts it otherwise is an
    error: the book would measure every box twice, or none."""
    if THEME_SCROLL_PASS not in theme_js:
        if "scrollWidth>e.clientWidth" in theme_js and _NO_SCROLL_PASS not in theme_js:
            raise RuntimeError(f"{THEME_JS}: its pass over scrollable boxes starts in a way "
                               "fast_pages.py does not know; update THEME_SCROLL_PASS")
        return theme_js
    # its source map no longer matches the script: the reference goes (Lighthouse)
    theme_js = re.sub(r"\n//# sourceMappingURL=\S+\s*$", "\n", theme_js)
    return theme_js.replace(THEME_SCROLL_PASS, _NO_SCROLL_PASS, 1)


def _rewrite_pages(app, exception):
    if exception is not None or app.builder.format != "html":
        return
    outdir = Path(app.outdir)
    theme = outdir / THEME_JS
    if theme.is_file():
        theme.write_text(without_theme_scroll_pass(theme.read_text(encoding="utf-8")),
                         encoding="utf-8")
    script = outdir / FONTAWESOME_JS
    icons, css = {}, ""
    if script.is_file():
        js = script.read_text(encoding="utf-8")
        icons, css = solid_icons(js), fontawesome_css(js)
        (outdir / FONTAWESOME_CSS).write_text(css, encoding="utf-8")
    options_js = outdir / OPTIONS_JS
    options = options_js.read_text(encoding="utf-8") if options_js.is_file() else None
    for page in outdir.rglob("*.html"):
        html = page.read_text(encoding="utf-8")
        rel = page.relative_to(outdir)
        fast = fast_head(html, search_page=rel.as_posix() == "search.html", inline=options)
        root = "../" * (len(rel.parts) - 1)
        fast = bootstrap_on_demand(fast, root)
        if icons and css:
            fast = _use_static_icons(inline_icons(fast, icons), root)
        if "lpx-data" in fast:
            fast = explorer_files(fast, outdir, root)
        if "<details" in fast:
            fast = folded_code_plain(fast)
        if fast != html:
            page.write_text(fast, encoding="utf-8")


def _use_static_icons(html: str, root: str) -> str:
    """Drop the icon script; link the icons' stylesheet instead."""
    script = r'<script\b[^>]*src="[^"]*' + re.escape(FONTAWESOME_JS) + r'[^"]*"[^>]*>\s*</script>\s*'
    html = re.sub(script, "", html)
    link = f'<link rel="stylesheet" href="{root}{FONTAWESOME_CSS}">\n'
    return html.replace("</head>", link + "</head>", 1) if FONTAWESOME_CSS not in html else html


def setup(app):
    app.connect("build-finished", _rewrite_pages)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
