"""One stylesheet per page instead of fifteen: the last step of ``make book``.

A page of the built book links about fifteen stylesheets (the theme's, one per Sphinx
extension, the book's, the icons' and the static maths'), and the theme's first one
``@import``\\ s another.  Each is a request that holds up the first paint; on a phone's
slow connection they queue (a browser opens six connections to a host).  This step
writes the local stylesheets a page links, in their order and with their ``@import``\\ s
and relative ``url(...)``\\ s resolved, into one file ``_static/bundle-<hash>.css`` (named
by its content, shared by every page with the same list) and links that instead.  A link
with a ``media`` other than ``all`` or to another host is left as it is.

The theme ships Font Awesome's stylesheet, whose ~1900 rules ``.fa-NAME:before {content:
"\\f..."}`` draw icons from the icon font; the book's icons are inline SVG
(``fontawesome-svg.css``), so a bundle keeps only the rules of icon names that some page or
script of the site mentions (a fifth of the stylesheet's compressed size on every page).
The icons still drawn from the icon font (admonition titles, breadcrumbs, download links:
the theme writes them as CSS ``content``) are a few dozen of its ~1400 glyphs, yet a page
that shows one loads the whole font (157 kB, more than the page itself on a phone's slow
connection).  A bundle's ``@font-face`` rules therefore name a subset of each font with
just the characters its rules' strings hold (``subset_fonts``, fontTools, which
matplotlib installs; a few kB, the same glyphs), written next to it in ``_static/fonts/``.

The theme and the extensions style far more than the book uses (forms, carousels,
grids, every Bootstrap component): a bundle keeps only the selectors whose classes and ids
some page or script of the site names (``prune_unused_rules``), about two fifths of the
stylesheet, so that a phone parses less before its first paint and matches fewer rules
against every element.

``python -m tools.bundle_css _build/html`` (idempotent: a page that links a bundle is
left alone).
"""

from __future__ import annotations

import argparse
import hashlib
import io
import posixpath
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BUNDLE_DIR = "_static"
_LINK = re.compile(r'[ \t]*<link\b([^>]*)>[ \t]*\n?')
_IMPORT = re.compile(r'@import\s+(?:url\()?\s*["\']?([^"\')\s;]+)["\']?\s*\)?\s*;')
_URL = re.compile(r'url\(\s*(["\']?)([^"\')]+)\1\s*\)')
#: A rule that only draws a Font Awesome icon from the icon font:
#: ``.fa-x:before,.fa-y:before{content:"\f..."}``.
_ICON_RULE = re.compile(r'(?:(?<=[{}])|(?<=\*/)|(?<=\n)|\A)'
                        r'((?:\.fa-[a-z0-9-]+:{1,2}(?:before|after)\s*,?\s*)+)\{content:\s*"[^"]*";?\}')


def _attribute(attributes: str, name: str) -> str | None:
    m = re.search(rf'\b{name}\s*=\s*"([^"]*)"', attributes)
    return m.group(1) if m else None


def _local(href: str) -> bool:
    return not re.match(r"^([a-z]+:|//|/)", href)


def _bundled(attributes: str) -> str | None:
    """The ``href`` of a link this step bundles, else ``None``."""
    if (_attribute(attributes, "rel") or "").lower() != "stylesheet":
        return None
    href = _attribute(attributes, "href")
    if href is None or not _local(href) or (_attribute(attributes, "media") or "all") != "all":
        return None
    return href.split("?")[0].split("#")[0]


def css_text(site: Path, path: str, seen: frozenset = frozenset()) -> str:
    """The stylesheet at ``path`` (relative to ``site``) with its ``@import``\\ s inlined and
    its relative ``url(...)``\\ s made relative to the site's top."""
    if path in seen:
        raise ValueError(f"@import cycle through {path}")
    folder = posixpath.dirname(path)
    text = (site / path).read_text(encoding="utf-8")
    text = re.sub(r'^\ufeff|@charset\s+"[^"]*"\s*;', "", text)

    def inline(m: re.Match) -> str:
        target = m.group(1)
        if not _local(target):
            raise ValueError(f"{path} imports {target} from another host")
        return css_text(site, posixpath.normpath(posixpath.join(folder, target)), seen | {path})

    site_relative = _map_urls(text, lambda t: posixpath.normpath(posixpath.join(folder, t)))
    return _IMPORT.sub(inline, site_relative)


def _map_urls(css: str, new_target) -> str:
    """``css`` with each relative ``url(...)`` target ``t`` replaced by ``new_target(t)``
    (addresses on other hosts, ``data:`` and ``#fragment`` ones unchanged)."""
    def url(m: re.Match) -> str:
        quote, target = m.groups()
        if not _local(target) or target.startswith("#"):
            return m.group(0)
        return f"url({quote}{new_target(target)}{quote})"
    return _URL.sub(url, css)


def prune_icon_rules(css: str, used) -> str:
    """``css`` without the icon-font rules of Font Awesome icons for which ``used(name)`` is
    false (``name`` such as ``fa-bars``)."""
    def rule(m: re.Match) -> str:
        names = re.findall(r"\.(fa-[a-z0-9-]+):", m.group(1))
        return m.group(0) if any(used(n) for n in names) else ""
    return _ICON_RULE.sub(rule, css)


def _site_mentions(site: Path):
    """A test whether a name (a class such as ``fa-bars``, an id) occurs as a word in some
    page or script of ``site``: every run of letters, digits, ``-`` and ``_`` counts, so a
    class that a script adds from a string literal is found too."""
    names = set()
    for pattern in ("*.html", "*.js"):
        for path in site.rglob(pattern):
            names.update(re.findall(r"[A-Za-z0-9_-]+",
                                    path.read_text(encoding="utf-8", errors="replace")))
    return names.__contains__


#: Classes that Bootstrap's script composes at run time (``bs-tooltip-top`` from the
#: placement) rather than writing them out: a rule that needs one is always kept.
_COMPOSED = re.compile(r"bs-")


def _selector_names(tokens) -> list[str]:
    """The class names and ids a selector (tinycss2 tokens) requires of its elements,
    outside functional pseudo-classes such as ``:not(...)`` and attribute tests ``[...]``."""
    import tinycss2.ast as ast
    names, previous = [], None
    for token in tokens:
        if isinstance(token, ast.HashToken):
            names.append(token.value)
        elif isinstance(token, ast.IdentToken) and isinstance(previous, ast.LiteralToken) \
                and previous.value == ".":
            names.append(token.value)
        previous = token
    return names


def prune_unused_rules(css: str, used) -> str:
    """``css`` without the selectors that need a class or an id for which ``used(name)`` is
    false, and without the rules left with no selector.

    A stylesheet of the theme and the extensions styles far more than the book writes (the
    bundle is ~500 kB, parsed before every first paint, and matched against every element
    of a page); the site's pages and scripts name the classes that can occur, as PurgeCSS
    reads them.  Rules inside ``@media``, ``@supports``, ``@layer`` and ``@container`` are
    pruned alike; other at-rules (``@font-face``, ``@keyframes``) are kept as they are.
    """
    import tinycss2

    def selectors(prelude):
        part, parts = [], []
        for token in prelude:
            if token.type == "literal" and token.value == ",":
                parts.append(part)
                part = []
            else:
                part.append(token)
        return parts + [part]

    def needed(selector) -> bool:
        return all(used(n) or _COMPOSED.match(n) for n in _selector_names(selector))

    def rules(nodes) -> str:
        out = []
        for node in nodes:
            if node.type == "qualified-rule":
                kept = [tinycss2.serialize(sel).strip() for sel in selectors(node.prelude)
                        if needed(sel)]
                if kept:
                    out.append(",".join(kept) + "{" + tinycss2.serialize(node.content) + "}")
            elif node.type == "at-rule" and node.content is not None and \
                    node.lower_at_keyword in ("media", "supports", "layer", "container"):
                inner = rules(tinycss2.parse_blocks_contents(node.content, skip_comments=True,
                                                             skip_whitespace=True))
                if inner:
                    out.append(f"@{node.at_keyword}{tinycss2.serialize(node.prelude)}{{{inner}}}")
            elif node.type != "comment":
                out.append(tinycss2.serialize([node]))
        return "".join(out)

    return rules(tinycss2.parse_stylesheet(css, skip_comments=True, skip_whitespace=True))


FONT_DIR = "fonts"
_FONT_FACE = re.compile(r"@font-face\s*\{[^}]*\}")
_STRING = re.compile(r"\"((?:[^\"\\\n]|\\.)*)\"|'((?:[^'\\\n]|\\.)*)'")
_ESCAPE = re.compile(r"\\([0-9a-fA-F]{1,6})\s?|\\(.)")


def _strings_text(css: str) -> str:
    """Every character of the CSS string literals in ``css`` (escapes such as ``\\f107``
    decoded): the text that rules such as ``content: "\\f107"`` draw."""
    def unescape(m: re.Match) -> str:
        return chr(int(m.group(1), 16)) if m.group(1) else m.group(2)
    return "".join(_ESCAPE.sub(unescape, a or b) for a, b in _STRING.findall(css))


def subset_fonts(css: str, site: Path) -> str:
    """``css`` (its relative ``url(...)``\\ s relative to ``site/_static``) with each
    ``@font-face`` that has a TrueType source pointing at a subset of that font holding
    only the characters of the stylesheet's strings (outside the ``@font-face`` rules),
    written to ``_static/fonts/`` as WOFF and named by its content.  Without fontTools, or
    for a rule without a local ``.ttf``, ``css`` is unchanged."""
    try:
        from fontTools import subset
    except ImportError:                      # pragma: no cover - matplotlib installs it
        return css
    # a quoted url() may hold parentheses (an SVG data URI's rgba(...)): skip it whole, or
    # the quotes after it would pair up wrongly
    rules = re.sub(r"/\*.*?\*/|url\(\s*(?:\"[^\"]*\"|'[^']*'|[^)]*)\s*\)", "",
                   _FONT_FACE.sub("", css), flags=re.S)
    text = set(_strings_text(rules))

    def face(m: re.Match) -> str:
        rule = m.group(0)
        ttf = next((t for _, t in _URL.findall(rule) if _local(t) and t.endswith(".ttf")), None)
        if ttf is None or not (site / BUNDLE_DIR / ttf).is_file():
            return rule
        font = subset.load_font(str(site / BUNDLE_DIR / ttf), subset.Options())
        options = subset.Options(flavor="woff", layout_features=["*"], name_IDs=["*"],
                                 notdef_outline=True)
        subsetter = subset.Subsetter(options)
        cmap = font.getBestCmap() or {}
        subsetter.populate(unicodes=sorted(ord(c) for c in text if ord(c) in cmap))
        subsetter.subset(font)
        buffer = io.BytesIO()
        subset.save_font(font, buffer, options)
        data = buffer.getvalue()
        stem = posixpath.splitext(posixpath.basename(ttf))[0]
        name = f"{FONT_DIR}/{stem}-{hashlib.sha256(data).hexdigest()[:12]}.woff"
        (site / BUNDLE_DIR / FONT_DIR).mkdir(parents=True, exist_ok=True)
        (site / BUNDLE_DIR / name).write_bytes(data)
        return re.sub(r"src\s*:[^;}]*", f'src:url({name}) format("woff")', rule, count=1)

    return _FONT_FACE.sub(face, css)


def bundle_page(html: str, page: str, site: Path, bundles: dict[tuple, str],
                used=lambda name: True, prune: bool = False) -> str:
    """``html`` of ``page`` (relative to ``site``) linking one bundle of its local stylesheets.

    ``bundles`` maps a tuple of stylesheet paths to the bundle written for them (filled
    here, shared across pages); icon-font rules of icons for which ``used(name)`` is false
    are left out (``prune_icon_rules``), and with ``prune`` every selector that needs a
    class or id for which it is false (``prune_unused_rules``).
    """
    end = html.find("</head>")
    if end < 0:
        return html
    head, rest = html[:end], html[end:]
    page_dir = posixpath.dirname(page)
    sheets, first = [], None
    for m in _LINK.finditer(head):
        href = _bundled(m.group(1))
        if href is not None:
            sheets.append(posixpath.normpath(posixpath.join(page_dir, href)))
            first = m.start() if first is None else first
    if len(sheets) < 2 or any(posixpath.basename(s).startswith("bundle-") for s in sheets):
        return html
    key = tuple(sheets)
    if key not in bundles:
        css = "\n".join(f"/* {s} */\n{css_text(site, s)}" for s in sheets)
        css = prune_icon_rules(_map_urls(css, lambda target: posixpath.relpath(target,
                                                                               BUNDLE_DIR)), used)
        if prune:
            css = prune_unused_rules(css, used)
        css = subset_fonts(css, site)
        name = f"{BUNDLE_DIR}/bundle-{hashlib.sha256(css.encode()).hexdigest()[:16]}.css"
        (site / name).write_text(css, encoding="utf-8")
        bundles[key] = name
    link = f'<link rel="stylesheet" href="{posixpath.relpath(bundles[key], page_dir or ".")}">\n'
    kept = _LINK.sub(lambda m: "" if _bundled(m.group(1)) else m.group(0), head[first:])
    return head[:first] + link + kept + rest


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.bundle_css",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("site", nargs="?", default=ROOT / "_build" / "html", type=Path)
    args = parser.parse_args(argv)
    bundles: dict[tuple, str] = {}
    used = _site_mentions(args.site)
    pages = 0
    for path in sorted(args.site.rglob("*.html")):
        page = path.relative_to(args.site).as_posix()
        if page.startswith(("_static/", "dist/")):
            continue
        html = path.read_text(encoding="utf-8")
        new = bundle_page(html, page, args.site, bundles, used, prune=True)
        if new != html:
            path.write_text(new, encoding="utf-8")
            pages += 1
    print(f"stylesheets: {pages} pages link one of {len(bundles)} bundles")
    return 0


if __name__ == "__main__":
    sys.exit(main())
