"""The build-time rewrites that make pages light: book/_ext/fast_pages.py, tools/static_math.py,
tools/bundle_css.py; and the display width book/_ext/accessible_html.py writes on each figure
(book.css keeps a figure legible on a phone with it).

The browser tests (test_site.py, test_site_reading.py, test_explorers_site.py) check the
built pages as a reader sees them; these check each rewrite on small pieces of HTML.
"""

from __future__ import annotations

import base64
import importlib.util
import json
import shutil
from pathlib import Path

import matplotlib
import pytest

from tools import bundle_css, static_math

ROOT = Path(__file__).resolve().parents[2]
_spec = importlib.util.spec_from_file_location("fast_pages",
                                               ROOT / "book" / "_ext" / "fast_pages.py")
fast_pages = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(fast_pages)
_spec = importlib.util.spec_from_file_location("accessible_html",
                                               ROOT / "book" / "_ext" / "accessible_html.py")
accessible_html = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(accessible_html)

HEAD = """<html><head>
<script src="../_static/documentation_options.js?v=1"></script>
<script src="../_static/doctools.js?v=2"></script>
<script async="async" src="../_static/sphinx-thebe.js"></script>
<script type="text/x-thebe-config">{}</script>
<script src="../_static/searchtools.js"></script>
<script src="../_static/language_data.js"></script>
<script src="../searchindex.js"></script>
<script defer src="../_static/scripts/fontawesome.js?digest=1"></script>
</head><body><script src="../_static/inline-body.js"></script></body></html>"""


def test_pages_drop_the_search_index_and_defer_their_head_scripts():
    page = fast_pages.fast_head(HEAD)
    assert "searchindex.js" not in page and "searchtools.js" not in page
    assert "language_data.js" not in page
    assert '<script src="../_static/documentation_options.js?v=1"></script>' in page  # kept
    assert '<script defer src="../_static/doctools.js?v=2"></script>' in page
    assert '<script async="async" src="../_static/sphinx-thebe.js"></script>' in page
    assert '<script src="../_static/inline-body.js"></script>' in page           # body untouched


def test_the_search_page_keeps_its_search_scripts():
    page = fast_pages.fast_head(HEAD, search_page=True)
    assert "searchindex.js" in page and "searchtools.js" in page


def test_bootstrap_is_loaded_on_demand_in_place_of_at_load():
    head = ('<link rel="preload" as="script" href="../_static/scripts/bootstrap.js?digest=9" />\n'
            '<script defer src="../_static/scripts/bootstrap.js?digest=9"></script>\n'
            '<script defer src="../_static/scripts/pydata-sphinx-theme.js?digest=9"></script>')
    page = fast_pages.bootstrap_on_demand(head, "../")
    assert "preload" not in page
    assert ('<script defer src="../_static/bootstrap_on_demand.js" '
            'data-src="../_static/scripts/bootstrap.js?digest=9"></script>') in page
    assert page.count("scripts/bootstrap.js") == 1 and "pydata-sphinx-theme.js" in page
    assert fast_pages.bootstrap_on_demand(page, "../") == page          # a second run: no change
    assert (ROOT / "book" / fast_pages.ON_DEMAND_JS).is_file()


FONTAWESOME = ("var p={bars:[448,512,[],\"f0c9\",\"M0 96Z\"],\"magnifying-glass\":[512,512,[],"
               "\"f002\",\"M416 208Z\"]};(function(){d(\"far\",p),d(\"fa-regular\",p)})();"
               "var p={bars:[448,512,[],\"f0c9\",\"M1 1Z\"],\"magnifying-glass\":[512,512,[],"
               "\"f002\",\"M2 2Z\"]};(function(){d(\"fas\",p),d(\"fa-solid\",p)})();"
               "e=':host,:root{--fa-style-family:x}.svg-inline--fa{height:1em}';")


def test_icons_become_inline_svg_from_the_solid_pack():
    icons = fast_pages.solid_icons(FONTAWESOME)
    assert icons["bars"] == (448, 512, "M1 1Z")                 # solid, not regular
    assert fast_pages.fontawesome_css(FONTAWESOME).endswith(".svg-inline--fa{height:1em}")
    # the rule naming fonts the site does not serve is left out: the theme's font names
    # (its served webfont draws the icons of admonition titles) stay in force
    named = FONTAWESOME.replace("--fa-style-family:x",
                                '--fa-font-solid:normal 900 1em/1 "Font Awesome 6 Solid"')
    assert fast_pages.fontawesome_css(named) == ".svg-inline--fa{height:1em}"
    html = ('<button><i class="theme-switch fa-solid fa-magnifying-glass fa-lg" '
            'data-mode="light" title="Light"></i></button><span class="fa-solid fa-bars"></span>'
            '<i class="fa-brands fa-github"></i>')
    out = fast_pages.inline_icons(html, icons)
    assert ('<svg class="svg-inline--fa theme-switch fa-magnifying-glass fa-lg" '
            'data-mode="light" title="Light" aria-hidden="true"') in out
    assert 'viewBox="0 0 512 512"><path fill="currentColor" d="M2 2Z">' in out
    assert 'viewBox="0 0 448 512"' in out
    assert '<i class="fa-brands fa-github"></i>' in out            # not in the solid pack


def _explorer(frames: list[bytes]) -> str:
    data = {"shape": [2], "initial": [1], "frameOf": [0, 1],
            "frames": [base64.b64encode(f).decode() for f in frames], "texts": ["a", "b"]}
    first = data["frames"][1]
    return (f'<img class="lpx-picture" width="680" alt="b" src="data:image/png;base64,{first}">\n'
            f'<script type="application/json" class="lpx-data">{json.dumps(data)}</script>\n'
            '<script>function show(){img.src="data:image/png;base64,"'
            '+data.frames[data.frameOf[s]];}'
            '</script>')


def test_explorer_pictures_move_to_files_fetched_on_demand(tmp_path):
    frames = [b"\x89PNG first", b"\x89PNG second"]
    out = fast_pages.explorer_files(_explorer(frames), tmp_path, "../../")
    files = sorted((tmp_path / "_static" / "explorers").iterdir())
    assert sorted(f.read_bytes() for f in files) == sorted(frames)
    assert "base64" not in out
    assert 'img.src=data.frames[data.frameOf[s]]' in out
    data = json.loads(out.split('class="lpx-data">')[1].split("</script>")[0])
    second = next(f.name for f in files if f.read_bytes() == frames[1])
    assert data["frames"][1] == f"../../_static/explorers/{second}"
    assert f'src="../../_static/explorers/{second}"' in out       # the initial state's picture
    # the picture scrolls in a box of its own on a phone; the controls above it stay put
    frame = out.split('<div class="lpx-frame">')[1].split("</div>")[0]
    assert frame.startswith('<img class="lpx-picture"') and frame.endswith(">")
    assert out.count("lpx-frame") == 1


def test_figures_carry_their_display_width():
    figure = '<img alt="x" src="a.png" style="width: 669px; height: 371px;" />'
    out = accessible_html.with_display_width(figure)
    assert out == ('<img alt="x" src="a.png" style="width: 669px; height: 371px; '
                   '--figure-width: 669px;" />')
    assert accessible_html.with_display_width(out) == out                      # once
    explorer = accessible_html.with_display_width('<img class="lpx-picture" width="680" src="x">')
    assert explorer == ('<img class="lpx-picture" width="680" src="x" '
                        'style="--figure-width: 680px;">')
    for unsized in ('<img src="a.png" />', '<img style="max-width: 30px" src="x">'):
        assert accessible_html.with_display_width(unsized) == unsized
    body = accessible_html.accessible_body(figure)                 # every figure of a page
    assert "--figure-width: 669px" in body and 'loading="lazy"' in body


def test_an_explorer_whose_script_reads_pictures_otherwise_is_left_alone(tmp_path):
    html = _explorer([b"a", b"b"]).replace('"data:image/png;base64,"+data.frames', "pick(data)")
    assert fast_pages.explorer_files(html, tmp_path, "") == html


def test_formulas_are_found_unescaped_and_replaced():
    page = ('<p><span class="math notranslate nohighlight">\\(a &lt; b\\)</span></p>\n'
            '<div class="math notranslate nohighlight" id="equation-x">\n'
            '<span class="eqno">(1.1)<a class="headerlink" href="#equation-x">#</a></span>'
            '\\[\\begin{split}x &amp;= 1\\end{split}\\]</div>')
    found = static_math.formulas(page)
    assert found == [("a < b", False), ("\\begin{split}x &= 1\\end{split}", True)]
    svg = {found[0]: "<mjx-container>A</mjx-container>"}
    out, complete = static_math.substitute(page, svg)
    assert not complete and "<mjx-container>A</mjx-container></span>" in out
    svg[found[1]] = "<mjx-container>B</mjx-container>"
    out, complete = static_math.substitute(page, svg)
    assert complete and '(1.1)<a class="headerlink" href="#equation-x">#</a></span>' \
        '<mjx-container>B</mjx-container></div>' in out
    assert static_math._focusable('<mjx-container jax="SVG">').startswith(
        '<mjx-container tabindex="0" ')


def test_a_wide_inline_formula_scrolls_inside_itself():
    page = '<p>so <span class="math notranslate nohighlight">\\(x\\)</span> and ' \
           '<span class="math notranslate nohighlight">\\(y\\)</span></p>'
    svg = {("x", False): '<mjx-container><svg width="3.2ex" height="1ex"></svg></mjx-container>',
           ("y", False): '<mjx-container><svg width="40.5ex" height="2ex"></svg></mjx-container>'}
    out, complete = static_math.substitute(page, svg)
    assert complete
    assert out.count("math-wide") == 1
    assert '<span class="math notranslate nohighlight math-wide" tabindex="0"><mjx-container>' \
           '<svg width="40.5ex"' in out


def test_punctuation_touching_an_inline_formula_stays_on_its_line():
    page = ('<p>(<span class="math notranslate nohighlight">\\(x\\)</span>, then '
            '<span class="math notranslate nohighlight">\\(y\\)</span> and '
            '<span class="math notranslate nohighlight">\\(z\\)</span>).</p>')
    svg = {(v, False): f'<mjx-container><svg width="2ex">{v}</svg></mjx-container>'
           for v in "xyz"}
    out, complete = static_math.substitute(page, svg)
    assert complete
    assert ('<span class="math-nobr">(<span class="math notranslate nohighlight"><mjx-container>'
            '<svg width="2ex">x</svg></mjx-container></span>,</span> then ') in out
    assert 'then <span class="math notranslate nohighlight"><mjx-container>' in out   # y alone
    assert '<svg width="2ex">z</svg></mjx-container></span>).</span></p>' in out
    assert out.count("math-nobr") == 2 and "span.math-nobr" in static_math.EXTRA_CSS


def _small_site(root: Path) -> Path:
    (root / "_static" / "styles").mkdir(parents=True)
    (root / "_static" / "basic.css").write_text("p { margin: 0; }\n")
    (root / "_static" / "styles" / "theme.css").write_text(
        '@import "../basic.css";\n'
        '@font-face { src: url("../vendor/fonts/a.woff2"); }\n'
        ".x { background: url(data:image/png;base64,AAAA); }\n")
    (root / "_static" / "book.css").write_text(
        ".y { background: url('img/dot.svg'); } .z { mask: url(#m); }\n")
    (root / "book").mkdir()
    return root


PAGE = """<html><head>
<link href="{r}_static/styles/theme.css?digest=1" rel="stylesheet" />
<link rel="stylesheet" type="text/css" href="{r}_static/book.css?v=2" />
<link rel="stylesheet" href="https://example.org/remote.css">
<link rel="stylesheet" media="print" href="{r}_static/print.css">
<link rel="icon" href="{r}_static/favicon.png"/>
</head><body><link rel="stylesheet" href="{r}_static/body.css"></body></html>"""


def test_a_page_links_one_bundle_of_its_local_stylesheets(tmp_path):
    site = _small_site(tmp_path)
    bundles = {}
    page = bundle_css.bundle_page(PAGE.format(r="../"), "book/a.html", site, bundles)
    head = page[:page.find("</head>")]
    [name] = bundles.values()
    assert head.count('rel="stylesheet"') == 3           # the bundle, remote, print
    assert head.index(f'href="../{name}"') < head.index("https://example.org/remote.css")
    assert "theme.css" not in head and "book.css" not in head
    assert 'media="print"' in head and 'rel="icon"' in head
    assert '<link rel="stylesheet" href="../_static/body.css">' in page   # body untouched
    css = (site / name).read_text()
    # in the pages' order, the @import inlined where it stood
    assert css.index("p { margin: 0; }") < css.index("@font-face") < css.index(".y")
    assert "@import" not in css
    # relative addresses now relative to the bundle (in _static/); others untouched
    assert 'url("vendor/fonts/a.woff2")' in css and "url('img/dot.svg')" in css
    assert "url(data:image/png;base64,AAAA)" in css and "url(#m)" in css


def test_pages_with_the_same_stylesheets_share_a_bundle_and_a_second_run_changes_nothing(tmp_path):
    site = _small_site(tmp_path)
    bundles = {}
    top = bundle_css.bundle_page(PAGE.format(r=""), "index.html", site, bundles)
    deep = bundle_css.bundle_page(PAGE.format(r="../"), "book/a.html", site, bundles)
    [name] = bundles.values()
    assert f'href="{name}"' in top and f'href="../{name}"' in deep
    assert bundle_css.bundle_page(deep, "book/a.html", site, bundles) == deep


def test_an_import_from_another_host_is_refused(tmp_path):
    site = _small_site(tmp_path)
    (site / "_static" / "book.css").write_text('@import url("https://fonts.example/x.css");\n')
    with pytest.raises(ValueError, match="another host"):
        bundle_css.bundle_page(PAGE.format(r="../"), "book/a.html", site, {})


def test_the_themes_pass_over_scrollable_boxes_is_taken_out_of_its_script():
    import pydata_sphinx_theme

    theme = (Path(pydata_sphinx_theme.__file__).parent / "theme" / "pydata_sphinx_theme"
             / "static" / "scripts" / "pydata-sphinx-theme.js").read_text(encoding="utf-8")
    assert fast_pages.THEME_SCROLL_PASS in theme      # the pinned theme starts it so
    patched = fast_pages.without_theme_scroll_pass(theme)
    assert fast_pages.THEME_SCROLL_PASS not in patched
    assert "sourceMappingURL" in theme and "sourceMappingURL" not in patched
    assert fast_pages.without_theme_scroll_pass(patched) == patched   # a second build
    with pytest.raises(RuntimeError, match="THEME_SCROLL_PASS"):
        fast_pages.without_theme_scroll_pass("x.tabIndex=e.scrollWidth>e.clientWidth;start()")
    # the book's replacement measures the same boxes
    ours = (ROOT / "book" / "_static" / "scroll_focus.js").read_text(encoding="utf-8")
    for box in ('"pre"', '".cell_output > .output"', '".pst-scrollable-table-container"'):
        assert box in ours and box in theme


def test_the_documentation_options_are_written_into_the_page():
    options = "const DOCUMENTATION_OPTIONS = {\n    VERSION: '',\n};\n"
    page = fast_pages.fast_head(HEAD, inline=options)
    assert "documentation_options.js" not in page
    assert "<script>const DOCUMENTATION_OPTIONS = {\n    VERSION: '',\n};</script>" in page
    assert page.index("DOCUMENTATION_OPTIONS") < page.index("doctools.js")   # still first
    assert "documentation_options.js" in fast_pages.fast_head(HEAD, inline="a</script>b")


def test_icon_font_rules_of_icons_no_page_mentions_are_left_out(tmp_path):
    css = ('/*! Font Awesome */.fa{font-family:"Font Awesome 6 Free"}'
           '.fa-bars:before,.fa-navicon:before{content:"\\f0c9"}.fa-atom:before{content:"\\f5d2"}'
           '@media print{.fa-ring:before{content:"\\f70b"}.x{color:red}}'
           '.y .fa-atom:before{content:"\\f5d2"}'
           '.fa-bars:before{content:var(--icon)}')
    pruned = bundle_css.prune_icon_rules(css, {"fa-bars"}.__contains__)
    assert pruned == ('/*! Font Awesome */.fa{font-family:"Font Awesome 6 Free"}'
                      '.fa-bars:before,.fa-navicon:before{content:"\\f0c9"}'
                      '@media print{.x{color:red}}'
                      '.y .fa-atom:before{content:"\\f5d2"}'     # not a bare icon rule: kept
                      '.fa-bars:before{content:var(--icon)}')
    site = tmp_path / "site"
    (site / "_static").mkdir(parents=True)
    (site / "a.html").write_text('<i class="fa-solid fa-bars"></i>')
    (site / "_static" / "x.js").write_text('el.classList.add("fa-ring")')
    used = bundle_css._site_mentions(site)
    assert used("fa-bars") and used("fa-ring") and not used("fa-atom") and not used("fa-bar")


def test_rules_for_classes_no_page_or_script_names_are_left_out():
    css = ('.kept,.gone{color:red}.gone .kept{color:blue}#menu>a{x:1}#nowhere{x:2}'
           'p:not(.gone){x:3}a[href$=".gone"]{x:4}.bs-tooltip-top .kept{x:5}'
           '@media (max-width:600px){.gone{x:6}.kept{x:7}}@media print{.gone{x:8}}'
           '@font-face{font-family:F;src:url(f.woff)}@keyframes spin{to{x:9}}')
    used = {"kept", "menu"}.__contains__
    pruned = bundle_css.prune_unused_rules(css, used)
    assert pruned == ('.kept{color:red}#menu>a{x:1}p:not(.gone){x:3}a[href$=".gone"]{x:4}'
                      '.bs-tooltip-top .kept{x:5}@media (max-width:600px){.kept{x:7}}'
                      '@font-face{font-family:F;src:url(f.woff)}@keyframes spin{to{x:9}}')


def test_a_quoted_data_uri_with_parentheses_does_not_hide_the_icon_strings(tmp_path):
    fonts = Path(matplotlib.get_data_path()) / "fonts" / "ttf"
    (tmp_path / "_static").mkdir()
    shutil.copy(fonts / "DejaVuSans.ttf", tmp_path / "_static" / "f.ttf")
    css = ('.a{background:url("data:image/svg+xml,%3Cpath stroke=\'rgba(1, 2, 3, 0.5)\'/%3E")}'
           '.b:after{content:"Q"}@font-face{font-family:F;src:url(f.ttf)}')
    out = bundle_css.subset_fonts(css, tmp_path)
    [woff] = (tmp_path / "_static" / "fonts").iterdir()
    from fontTools.ttLib import TTFont
    assert ord("Q") in TTFont(str(woff)).getBestCmap() and woff.name in out


def test_typeset_formulas_lose_what_neither_drawing_nor_stylesheet_needs():
    formula = (
        '<mjx-container class="MathJax" jax="SVG"><svg viewBox="0 -846 3262.5 886">'
        '<g stroke="currentColor" stroke-width="0" transform="scale(1,-1)">'
        '<g data-mml-node="math"><g data-mml-node="TeXAtom" data-mjx-texclass="ORD">'
        '<g data-mml-node="mi"><use data-c="1D431" xlink:href="#B-1D431"></use></g></g>'
        '<g data-mml-node="mo" transform="translate(884.8,0)">'
        '<use data-c="2208" xlink:href="#N-2208">'
        '</use></g><g data-mml-node="mtable" transform="translate(9,0)"><g data-mml-node="mtr">'
        '<use data-c="31" xlink:href="#N-31"></use><use data-c="32" xlink:href="#N-32"></use>'
        '</g></g></g></g></svg>'
        '<mjx-assistive-mml display="inline"><math><mrow data-mjx-texclass="ORD">'
        '<mi mathvariant="bold">'
        'x</mi></mrow><mo>∈</mo><msup><mrow><mi>R</mi></mrow><mrow><mi>N</mi><mo>+</mo></mrow></msup>'
        '</math></mjx-assistive-mml></mjx-container>')
    assert static_math.lighter(formula) == (
        '<mjx-container class="MathJax" jax="SVG"><svg viewBox="0 -846 3262.5 886">'
        '<g stroke="currentColor" stroke-width="0" transform="scale(1,-1)">'
        '<use xlink:href="#B-1D431"></use>'
        '<use transform="translate(884.8,0)" xlink:href="#N-2208"></use>'
        '<g data-mml-node="mtable" transform="translate(9,0)">'      # the stylesheet selects it
        '<use xlink:href="#N-31"></use><use xlink:href="#N-32"></use></g></g></svg>'
        '<mjx-assistive-mml display="inline"><math><mi mathvariant="bold">x</mi><mo>∈</mo>'
        '<msup><mi>R</mi><mrow><mi>N</mi><mo>+</mo></mrow></msup></math></mjx-assistive-mml>'
        '</mjx-container>')
    # the glyphs keep the stroke MathJax's stylesheet gave them through use[data-c]
    assert 'use { stroke-width: 3; }' in static_math.EXTRA_CSS


def test_a_formula_is_announced_by_its_speech_and_its_drawing_hidden():
    svg = ('<mjx-container class="MathJax" jax="SVG"><svg width="3ex" role="img">'
           '<use href="#x"></use></svg></mjx-container>')
    out = static_math.spoken(svg, "x  squared < 1")
    assert out.startswith('<mjx-container role="math" aria-label="x squared &lt; 1" ')
    assert '<svg width="3ex" role="img" aria-hidden="true">' in out
    assert static_math.spoken(out.replace(' aria-label="x squared &lt; 1"', ""), "y").count(
        "aria-hidden") == 1


def test_folded_code_is_plain_text_until_unfolded():
    marked = '<span class="kn">import</span><span class="w"> </span><span class="nn">a</span> &lt;'
    code = f'<div class="highlight"><pre>{marked}</pre></div>'
    page = (f"<html><body>{code}<details class=\"hide\"><summary>s</summary>{code}</details>"
            "</body></html>")
    out = fast_pages.folded_code_plain(page)
    shown, folded = out.split("<details", 1)
    assert shown == f"<html><body>{code}"                      # unfolded code: unchanged
    assert '<pre>import a &lt;</pre><script type="text/html" class="book-highlight">' \
        + marked + "</script>" in folded
    assert out.count(fast_pages.FOLDED_CODE_JS) == 1 and out.endswith("</body></html>")
    assert fast_pages.folded_code_plain(out) == out            # a second run changes nothing
    assert fast_pages.folded_code_plain(page.replace("<details", "<div").replace(
        "</details>", "</div>")) == page.replace("<details", "<div").replace("</details>", "</div>")


def test_an_icon_font_is_cut_to_the_characters_the_rules_draw(tmp_path):
    fonttools = pytest.importorskip("fontTools.ttLib",
                                    reason="fontTools (matplotlib installs it) subsets fonts")
    from fontTools.fontBuilder import FontBuilder
    from fontTools.pens.ttGlyphPen import TTGlyphPen

    names = [".notdef", "bell", "x"]
    builder = FontBuilder(1000, isTTF=True)
    builder.setupGlyphOrder(names)
    builder.setupCharacterMap({0xF0F3: "bell", 0x78: "x"})
    glyph = TTGlyphPen(None)
    glyph.moveTo((0, 0)), glyph.lineTo((500, 0)), glyph.lineTo((0, 500)), glyph.closePath()
    builder.setupGlyf({n: glyph.glyph() for n in names})
    builder.setupHorizontalMetrics({n: (500, 0) for n in names})
    builder.setupHorizontalHeader(ascent=800, descent=-200)
    builder.setupNameTable({"familyName": "Icons", "styleName": "Regular"})
    builder.setupOS2(), builder.setupPost()
    (tmp_path / "_static" / "f").mkdir(parents=True)
    builder.save(str(tmp_path / "_static" / "f" / "icons.ttf"))
    css = ('@font-face{font-family:Icons;src:url(f/icons.woff2) format("woff2"),'
           'url(f/icons.ttf) format("truetype")}\n.bell:after{content:"\\f0f3";font-family:Icons}')
    out = bundle_css.subset_fonts(css, tmp_path)
    face = out.split("}")[0]
    assert "icons.woff2" not in face and 'format("woff")' in face
    subset = fonttools.TTFont(str(tmp_path / "_static" / face.split("url(")[1].split(")")[0]))
    assert set(subset.getBestCmap()) == {0xF0F3}               # the bell, not the x
    assert out.endswith('.bell:after{content:"\\f0f3";font-family:Icons}')
