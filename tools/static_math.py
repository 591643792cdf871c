"""Typeset the built site's mathematics once, at build time, so that no reader's browser has to.

``python -m tools.static_math [_build/html]`` (``make book`` runs it after the build).
Sphinx leaves every formula as TeX (``\\(...\\)`` in a ``span.math``, ``\\[...\\]`` in a
``div.math``) for MathJax to typeset in the reader's browser, which on a phone takes
seconds of main-thread work per chapter.  This script runs the same MathJax (the copy the
site serves, ``_static/mathjax/tex-svg.js``, with the book's macros) once in headless
chromium, turns every formula of every page into an SVG with a spoken form for screen
readers, writes them into the pages and drops MathJax from each page whose formulas are
all done.  Display formulas sit in a box that scrolls sideways on a narrow screen.

What a screen reader announces is the formula's speech, written by the Speech Rule Engine
that MathJax ships for its accessibility extensions (``a11y/sre``, ClearSpeak rules: "bold
x is a member of r-N", "one half ... plus C the sum from mu equals 1 to P of xi to the
mu-th power"), as the ``aria-label`` of a ``role="math"`` container whose drawing is
hidden from it.  MathJax's default instead copies each formula as MathML into an
invisible ``mjx-assistive-mml``: a second tree of elements as large as the drawing, which
every phone parsed and styled on every load (a quarter of a chapter's elements), for a
reading that the speech string gives too.

A long chapter holds hundreds of formulas, and their markup is most of its elements; the
browser parses and styles every one.  :func:`lighter` drops from MathJax's output what
neither the drawing nor the stylesheet needs (bookkeeping attributes, groups that only
group, a group's transform moved onto its one glyph), which leaves the drawing
unchanged and a chapter such as the SVM's with a fifth fewer elements.

It needs the chromium the site tests use (Debian's ``chromium``); without it the pages
keep their TeX and typeset in the browser as before, and the script says so.
"""

from __future__ import annotations

import argparse
import html
import json
import re
import shutil
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CSS = "_static/mathjax-svg.css"
#: An in-line formula wider than this (about 180 px) may not fit a phone's column inside a
#: box: it scrolls sideways inside itself there (a browser cannot break a typeset formula).
WIDE_INLINE_EX = 25
INLINE = re.compile(r'(<span class="math notranslate nohighlight">)\\\((.*?)\\\)(</span>)', re.S)
DISPLAY = re.compile(r'(<div class="math notranslate nohighlight"[^>]*>\s*'
                     r'(?:<span class="eqno">.*?</span>)?)'
                     r'\s*\\\[(.*?)\\\](\s*</div>)', re.S)
MATHJAX_SCRIPTS = re.compile(r'<script>\s*window\.MathJax = .*?</script>\s*'
                             r'|<script\b[^>]*src="[^"]*_static/mathjax/[^"]*"[^>]*>\s*</script>\s*',
                             re.S)
EXTRA_CSS = """
/* The glyphs' stroke (MathJax's own rule selects use[data-c], an attribute lighter() drops). */
mjx-container[jax="SVG"] use { stroke-width: 3; }
/* A display formula wider than the column scrolls inside its own box; book.css fades the
   edge it can scroll towards. */
div.math > mjx-container { scrollbar-width: thin; }
span.math-nobr { white-space: nowrap; }
span.math-wide { display: inline-block; max-width: 100%; overflow-x: auto; overflow-y: hidden;
  vertical-align: middle; scrollbar-width: thin; }
"""


#: MathJax's stylesheet selects these kinds of node (g[data-mml-node="mtable"] ...): kept.
_STYLED_NODES = {"mtable", "maction", "merror"}
_TAG = re.compile(r"<(/?)([A-Za-z][\w:-]*)([^>]*?)(/?)>")


def lighter(formula: str) -> str:
    """A typeset formula (MathJax's ``mjx-container``) with fewer elements, drawn the same.

    In the SVG: ``data-c`` and ``data-mjx-texclass`` go, and ``data-mml-node`` except on the
    nodes MathJax's stylesheet selects; a ``<g>`` left without attributes is replaced by its
    children, and a ``<g transform>`` around one glyph ``<use>`` by the glyph with that
    transform.  In the MathML copy for screen readers: ``data-mjx-texclass`` goes, and an
    ``<mrow>`` around a single token element is replaced by it (MathML treats the two alike).
    """
    def attributes(m: re.Match) -> str:
        close, name, attrs, self_closing = m.groups()
        if close:
            return m.group(0)
        attrs = re.sub(r'\sdata-mjx-texclass="[^"]*"', "", attrs)
        if name in ("g", "use"):
            attrs = re.sub(r'\sdata-c="[^"]*"', "", attrs)
            attrs = re.sub(r'\sdata-mml-node="([^"]*)"',
                           lambda n: n.group(0) if n.group(1) in _STYLED_NODES else "", attrs)
        return f"<{name}{attrs}{self_closing}>"

    formula = _TAG.sub(attributes, formula)
    out, bare, pos = [], [], 0           # bare: for each open <g>, whether it is dropped
    for m in _TAG.finditer(formula):
        close, name, attrs, self_closing = m.groups()
        out.append(formula[pos:m.start()])
        pos = m.end()
        if name == "g" and not self_closing:
            if close:
                if not bare.pop():
                    out.append(m.group(0))
                continue
            bare.append(not attrs.strip())
            if bare[-1]:
                continue
        out.append(m.group(0))
    out.append(formula[pos:])
    formula = "".join(out)
    formula = re.sub(r'<g (transform="[^"]*")><use ([^>]*)></use></g>', r"<use \1 \2></use>",
                     formula)
    previous = None
    while previous != formula:
        previous = formula
        formula = re.sub(r"<mrow>(<(m[a-z]+)\b[^>]*>[^<]*</\2>)</mrow>", r"\1", formula)
    return formula


def formulas(page: str) -> list[tuple[str, bool]]:
    """The TeX of every formula on ``page`` (HTML-unescaped) and whether it is displayed."""
    return ([(html.unescape(m.group(2)), False) for m in INLINE.finditer(page)]
            + [(html.unescape(m.group(2)), True) for m in DISPLAY.finditer(page)])


def _width_ex(svg: str) -> float:
    """The width of a typeset formula, in ex (MathJax's SVG carries it as an attribute)."""
    m = re.search(r'<svg[^>]*\swidth="([\d.]+)ex"', svg)
    return float(m.group(1)) if m else 0.0


def substitute(page: str, svg: dict[tuple[str, bool], str]) -> tuple[str, bool]:
    """``page`` with each formula that ``svg`` has replaced by it; whether all were."""
    missing = []

    def replace(display):
        def one(m):
            key = (html.unescape(m.group(2)), display)
            if key not in svg:
                missing.append(key)
                return m.group(0)
            opening = m.group(1)
            if not display and _width_ex(svg[key]) > WIDE_INLINE_EX:
                opening = opening.replace('nohighlight"', 'nohighlight math-wide" tabindex="0"', 1)
            return opening + svg[key] + m.group(3)
        return one

    page = INLINE.sub(replace(False), page)
    page = DISPLAY.sub(replace(True), page)
    return _punctuation_kept(page), not missing


#: An in-line formula (typeset, not one of the wide ones that scroll) with the punctuation
#: that touches it: an opening bracket before, commas, stops and closing brackets after.
_TOUCHING = re.compile(r'([(\[\u201c\u2018]?)(<span class="math notranslate nohighlight">'
                       r'<mjx-container\b.*?</mjx-container></span>)([,.;:!?)\]\u201d\u2019]*)',
                       re.S)


def _punctuation_kept(page: str) -> str:
    """``page`` with each in-line formula held on one line with the punctuation touching it.

    A browser may break a line between a typeset formula (an inline box) and the text next
    to it, so a comma after a formula could start the next line; wrapping the two in a
    ``span.math-nobr`` (``white-space: nowrap``) keeps them together.
    """
    def wrap(m: re.Match) -> str:
        if not (m.group(1) or m.group(3)):
            return m.group(0)
        return f'<span class="math-nobr">{m.group(0)}</span>'
    return _TOUCHING.sub(wrap, page)


def spoken(svg: str, speech: str) -> str:
    """A typeset formula announced by its ``speech``: a ``role="math"`` container named by
    it, its drawing (the SVG) hidden from screen readers."""
    label = html.escape(" ".join(speech.split()), quote=True)
    svg = svg.replace("<mjx-container ", f'<mjx-container role="math" aria-label="{label}" ', 1)
    drawing = re.search(r"<svg\b[^>]*>", svg)
    if drawing and "aria-hidden" not in drawing.group(0):
        svg = (svg[:drawing.start()] + drawing.group(0)[:-1] + ' aria-hidden="true">'
               + svg[drawing.end():])
    return svg


def typeset(pages: dict[str, list[tuple[str, bool]]], site: Path) -> tuple[dict, str]:
    """Typeset each page's formulas with the site's MathJax in headless chromium.

    Returns ``({page: ({formula: svg}, glyph_defs)}, css)``: the glyphs a page's formulas
    use are defined once per page (MathJax's global font cache), not in every formula.
    The site is served over HTTP meanwhile: the speech rules are files MathJax fetches.
    """
    from playwright.sync_api import sync_playwright

    from tools.serve import start

    probe = site / "_static" / "_typeset.html"
    probe.write_text(
        "<!DOCTYPE html><html><head><script>window.MathJax = "
        + json.dumps({"loader": {"load": ["a11y/sre"]},
                      "tex": {"macros": _macros(site)},
                      "svg": {"fontCache": "global"},
                      # no MathML copy (the menu's setting decides it, even unshown)
                      "options": {"enableMenu": False, "enableAssistiveMml": False,
                                  "menuOptions": {"settings": {"assistiveMml": False}}},
                      "startup": {"typeset": False}})
        + '</script><script src="mathjax/tex-svg.js"></script></head><body></body></html>',
        encoding="utf-8")
    server, base = start(site)
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=shutil.which("chromium"),
                                        args=["--no-sandbox"])
            page = browser.new_page()
            page.goto(base + "_static/_typeset.html")
            page.wait_for_function("window.MathJax && MathJax.startup && MathJax.startup.promise")
            page.evaluate("MathJax.startup.promise")
            page.evaluate("""async () => {
                const sre = MathJax._.a11y.sre;
                await sre.Sre.setupEngine({locale: 'en', domain: 'clearspeak',
                                           modality: 'speech'});
                await sre.sreReady();
            }""")
            done = {}
            for name, items in pages.items():
                out, defs = page.evaluate(
                    """async items => {
                           const output = MathJax.startup.output;
                           output.clearFontCache();
                           const out = [];   // one at a time: a formula may load an extension
                           const Sre = MathJax._.a11y.sre.Sre;
                           for (const [tex, display] of items) {
                               const node = await MathJax.tex2svgPromise(tex, {display});
                               const error = node.querySelector('[data-mml-node="merror"]');
                               let speech;
                               try {
                                   speech = Sre.toSpeech(MathJax.tex2mml(tex, {display}));
                               } catch (e) {
                                   speech = '';
                               }
                               out.push([node.outerHTML, error ? (error.getAttribute(
                                   'data-mjx-error') || node.textContent) : null,
                                   speech || tex]);
                           }
                           const defs = output.fontCache.getCache();
                           return [out, defs ? '<svg id="MJX-SVG-global-cache" ' +
                               'style="display: none" aria-hidden="true">' +
                               defs.outerHTML + '</svg>' : ""];
                       }""", [list(i) for i in items])
                errors = [(tex, err) for (tex, _), (_, err, _) in zip(items, out) if err]
                if errors:
                    raise SystemExit(f"MathJax could not typeset on {name}:\n" + "\n".join(
                        f"  {tex!r}: {err}" for tex, err in errors[:20]))
                done[name] = ({item: spoken(_focusable(lighter(svg)) if item[1]
                                            else lighter(svg), speech)
                               for item, (svg, _, speech) in zip(items, out)}, defs)
            css = page.evaluate("MathJax.svgStylesheet().textContent")
            browser.close()
    finally:
        server.shutdown()
        probe.unlink(missing_ok=True)
    return done, css


def _focusable(svg: str) -> str:
    """A display formula reachable from the keyboard: on a narrow screen it may scroll."""
    return svg.replace("<mjx-container ", '<mjx-container tabindex="0" ', 1)


def _macros(site: Path) -> dict:
    """The ``tex.macros`` of the MathJax configuration the build wrote into its pages."""
    for page in site.rglob("*.html"):
        m = re.search(r"window\.MathJax = (\{.*?\})\s*</script>", page.read_text(encoding="utf-8"),
                      re.S)
        if m:
            return json.loads(m.group(1)).get("tex", {}).get("macros", {})
    return {}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.static_math",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("site", nargs="?", default=str(ROOT / "_build" / "html"), type=Path)
    args = parser.parse_args(argv)
    site = args.site
    if not shutil.which("chromium"):
        print("static maths: no chromium on this machine; the pages keep their TeX and "
              "MathJax typesets them in the browser", file=sys.stderr)
        return 0
    pages = {p: p.read_text(encoding="utf-8") for p in sorted(site.rglob("*.html"))}
    todo = {str(p): sorted(set(formulas(text))) for p, text in pages.items() if formulas(text)}
    typeset_pages, css = typeset(todo, site)
    (site / CSS).write_text(css + EXTRA_CSS, encoding="utf-8")
    done = 0
    for name, (svg, defs) in typeset_pages.items():
        path = Path(name)
        new, complete = substitute(pages[path], svg)
        if complete:
            new = MATHJAX_SCRIPTS.sub("", new)
            root = "../" * (len(path.relative_to(site).parts) - 1)
            new = new.replace("</head>", f'<link rel="stylesheet" href="{root}{CSS}">\n</head>', 1)
            done += 1
        new = re.sub(r"(<body\b[^>]*>)", lambda m: m.group(1) + defs, new, count=1)
        path.write_text(new, encoding="utf-8")
    idle = 0   # pages that load MathJax with nothing to typeset (a Markdown page, e.g.)
    for path, text in pages.items():
        if str(path) not in todo and MATHJAX_SCRIPTS.search(text):
            path.write_text(MATHJAX_SCRIPTS.sub("", text), encoding="utf-8")
            idle += 1
    items = sum(len(v) for v in todo.values())
    print(f"static maths: {items} formulas typeset on {len(todo)} pages, {done} without MathJax; "
          f"MathJax dropped from {idle} pages without maths")
    return 0


if __name__ == "__main__":
    sys.exit(main())
