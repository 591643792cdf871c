"""Browser tests of how the built book reads, on every page at a desktop and a phone width.

``tests/site/test_site.py`` checks that every page loads offline and cleanly; this module
checks what a reader sees, in a window 1280 px wide and in one 390 px wide (a phone):

* MathJax typeset every formula (no ``mjx-merror`` error element);
* nothing in the content is clipped: no box is narrower than what it holds unless it
  has a scroll bar of its own (long display formulas scroll inside their own box);
* the page as a whole never scrolls sideways;
* at 1280 px no output block scrolls sideways (printed lines wrap to the column);
* every raster figure is shipped at least 1.5 times as wide, in pixels, as it is
  displayed, so that it stays crisp on high-density screens;
* every figure keeps its aspect ratio and has alt text that describes it (not a file
  name);
* no code that checks a result (``assert`` or ``report(``) is shown without a click;
* axe-core (bundled by the ``axe-playwright-python`` package from PyPI, run offline)
  finds no serious or critical accessibility violation on the page, the theme's header,
  sidebars and buttons included: on every page at the phone width, and at the desktop
  width on the pages of :data:`DESKTOP_AXE_PAGES`.  The markup is the same at both widths
  and so are the colours; what the desktop adds is the theme's sidebars, the same on every
  page.  (axe takes 10–40 s on a chapter, whose typeset maths has some 15 000 elements:
  running it twice on every page cost CI several minutes.)

The fixtures (local HTTP server, system Chromium, a fresh context per test) are those of
``tests/site/test_site.py``.  The two widths are two classes, so that ``--dist loadscope``
may run them on two workers.
"""

from __future__ import annotations

from importlib import resources

import pytest

from tests.site.test_site import (  # noqa: F401  (fixtures used by name)
    PAGE_PARAMS,
    PAGES,
    _mathjax_state,
    _require_built_book,
    browser,
    probe,
    site_url,
    NOT_BUILT,
)

#: The bundled axe-core script (a registry package; nothing is downloaded).
AXE_JS = resources.files("axe_playwright_python").joinpath("axe.min.js").read_text(
    encoding="utf-8"
)

#: The part of a page that is the book's content (not the theme's navigation).
CONTENT = "article.bd-article"

MATHJAX_ERRORS_JS = """(sel) => Array.from(document.querySelectorAll(sel + " mjx-merror"))
  .map(e => (e.getAttribute("data-mjx-error") || e.textContent || "").slice(0, 120))"""

# What sticks out of its box.  Every visible element of the content is compared with the
# nearest ancestor that cuts off what overflows it (overflow-x other than visible) or, if
# none does, with the content column itself.  Sticking out of a box that scrolls sideways
# (overflow-x auto or scroll: a scroll bar of its own) is fine; sticking out of one that
# hides the overflow is clipped; sticking out of the column overlaps the page's margin or
# widens the page.  MathJax's screen-reader copy (mjx-assistive-mml, clipped to 1 px on
# purpose) is skipped.
CLIPPED_JS = """(sel) => {
  const root = document.querySelector(sel);
  if (!root) return ["no content element " + sel];
  const column = root.getBoundingClientRect();
  const found = [];
  const seen = new Set();
  for (const el of root.querySelectorAll("*")) {
    if (el.closest("mjx-assistive-mml")) continue;
    const r = el.getBoundingClientRect();
    if (r.width === 0 || r.height === 0) continue;
    let box = null, how = null;
    for (let a = el.parentElement; a && a !== root; a = a.parentElement) {
      const o = getComputedStyle(a).overflowX;
      if (o !== "visible") { box = a; how = o; break; }
    }
    const limit = box ? box.getBoundingClientRect() : column;
    if (how === "auto" || how === "scroll") continue;
    const over = Math.max(r.right - limit.right, limit.left - r.left);
    if (over <= 1) continue;
    const math = el.closest("mjx-container");
    const shown = math || el;
    if (seen.has(shown)) continue;
    seen.add(shown);
    const text = math ? (math.querySelector("mjx-assistive-mml")?.textContent || "")
                      : (el.innerText || el.getAttribute("alt") || el.tagName);
    const where = box ? `clipped by <${box.tagName.toLowerCase()} class='${box.className}'>`
                      : "out of the column";
    found.push(`${where} by ${Math.round(over)} px: <${shown.tagName.toLowerCase()}> `
               + text.replace(/\\s+/g, " ").trim().slice(0, 100));
  }
  return found;
}"""

PAGE_SCROLL_JS = """() => {
  const doc = document.scrollingElement || document.documentElement;
  return {scroll: doc.scrollWidth, window: doc.clientWidth};
}"""

# Output blocks of code cells that scroll sideways (their printed lines should wrap).
SCROLLING_OUTPUT_JS = """(sel) => Array.from(
    document.querySelectorAll(sel + " div.cell_output, " + sel + " div.cell_output *"))
  .filter(e => e.offsetParent !== null && e.scrollWidth > e.clientWidth + 1)
  .filter(e => !e.closest("mjx-container"))
  .map(e => `<${e.tagName.toLowerCase()}> ${e.scrollWidth} px in ${e.clientWidth} px: `
            + (e.innerText || "").split("\\n")[0].slice(0, 80))"""

# Raster images shown with fewer than 1.5 image pixels per displayed (CSS) pixel.
BLURRY_IMAGES_JS = """async (sel) => {
  const imgs = Array.from(document.querySelectorAll(sel + " img"));
  for (const img of imgs) if (img.loading === "lazy") img.loading = "eager";
  await Promise.all(imgs.map(img => img.complete ? null : new Promise(resolve => {
    img.addEventListener("load", resolve);
    img.addEventListener("error", resolve);
  })));
  return imgs
    .filter(img => img.offsetParent !== null && img.clientWidth > 0)
    .filter(img => !/\\.svg(\\?|#|$)/i.test(img.currentSrc || img.src))
    .filter(img => img.naturalWidth < 1.5 * img.clientWidth)
    .map(img => `${(img.currentSrc || img.src).split("/").pop()}: `
                + `${img.naturalWidth} px shown ${img.clientWidth} px wide`);
}"""

# Images whose displayed aspect ratio differs from their own by more than 2 % (a figure
# squashed because its width shrinks with the column while its height does not).
DISTORTED_IMAGES_JS = """(sel) => Array.from(document.querySelectorAll(sel + " img"))
  .filter(img => img.offsetParent !== null && img.clientWidth > 0 && img.naturalWidth > 0)
  .filter(img => Math.abs((img.clientWidth / img.clientHeight)
                          / (img.naturalWidth / img.naturalHeight) - 1) > 0.02)
  .map(img => `${(img.currentSrc || img.src).split("/").pop().slice(0, 40)}: shown `
              + `${img.clientWidth}x${img.clientHeight}, drawn `
              + `${img.naturalWidth}x${img.naturalHeight}`)"""

# Images whose alt text is missing or is a file name (a screen reader would read a hash).
UNDESCRIBED_IMAGES_JS = """(sel) => Array.from(document.querySelectorAll(sel + " img"))
  .filter(img => !img.closest("[aria-hidden=true]"))
  .filter(img => {
    const alt = (img.getAttribute("alt") || "").trim();
    return alt.length < 8 || /\\.(png|jpe?g|gif|svg)$/i.test(alt) || /[0-9a-f]{32}/.test(alt);
  })
  .map(img => `${(img.currentSrc || img.src).split("/").pop().slice(0, 40)}: `
              + `alt="${img.getAttribute("alt")}"`)"""

# Code cells shown without a click whose code checks a result.
VISIBLE_CHECKS_JS = """(sel) => Array.from(document.querySelectorAll(sel + " div.cell_input"))
  .filter(e => e.offsetParent !== null)
  .map(e => e.innerText)
  .filter(t => /\\bassert\\b|\\breport\\(/.test(t))
  .map(t => t.split("\\n").find(l => /\\bassert\\b|\\breport\\(/.test(l)).trim().slice(0, 90))"""

AXE_RUN_JS = """async (sel) => {
  const result = await axe.run(document.querySelector(sel) || document,
                               {resultTypes: ["violations"]});
  return result.violations
    .filter(v => v.impact === "serious" || v.impact === "critical")
    .map(v => ({id: v.id, impact: v.impact, help: v.help,
                nodes: v.nodes.map(n => n.target.join(" ") + "  " + n.failureSummary
                                        .replace(/\\s+/g, " ").slice(0, 160))}));
}"""


def _open(request, rel: str, width: int, height: int):
    """Open page ``rel`` in a fresh context of the given window size; MathJax done."""
    if rel is None:
        pytest.fail(NOT_BUILT, pytrace=False)
    _require_built_book()
    probe = request.getfixturevalue("probe")
    page = probe.page
    page.set_viewport_size({"width": width, "height": height})
    response = page.goto(probe.base_url + rel, wait_until="load")
    assert response is not None and response.status == 200, f"{rel}: not served"
    if rel == "index.html":  # the landing page redirects to the first chapter
        page.wait_for_load_state("load")
        page.wait_for_function("() => !/\\/index\\.html$/.test(location.pathname)")
        page.wait_for_load_state("load")
    state = _mathjax_state(page)
    assert state in ("done", "absent"), f"{rel}: MathJax state {state!r}"
    return page


#: Pages axe-core also reads at the desktop width: the landing chapter, a page of tables,
#: and a chapter with explorers, figures, maths, exercises and solutions.
DESKTOP_AXE_PAGES = ("book/intro.html", "book/notation.html", "book/beyond/svm.html")


def test_the_desktop_axe_pages_exist():
    assert set(DESKTOP_AXE_PAGES) <= set(PAGES), sorted(set(DESKTOP_AXE_PAGES) - set(PAGES))


def _check(page, width: int, axe: bool) -> list[str]:
    problems = []
    errors = page.evaluate(MATHJAX_ERRORS_JS, CONTENT)
    if errors:
        problems.append("MathJax errors:\n" + "\n".join(f"    {e}" for e in errors))
    clipped = page.evaluate(CLIPPED_JS, CONTENT)
    if clipped:
        problems.append(
            f"{len(clipped)} element(s) sticking out of their box (no scroll bar of their "
            "own):\n" + "\n".join(f"    {c}" for c in clipped)
        )
    size = page.evaluate(PAGE_SCROLL_JS)
    if size["scroll"] > size["window"] + 1:
        problems.append(
            f"the whole page scrolls sideways: {size['scroll']} px wide in a "
            f"{size['window']} px window"
        )
    if width >= 1280:
        outputs = page.evaluate(SCROLLING_OUTPUT_JS, CONTENT)
        if outputs:
            problems.append(
                f"{len(outputs)} output block(s) scroll sideways:\n"
                + "\n".join(f"    {o}" for o in outputs)
            )
    blurry = page.evaluate(BLURRY_IMAGES_JS, CONTENT)
    if blurry:
        problems.append(
            f"{len(blurry)} raster figure(s) under 1.5 pixels per displayed pixel:\n"
            + "\n".join(f"    {b}" for b in blurry)
        )
    distorted = page.evaluate(DISTORTED_IMAGES_JS, CONTENT)
    if distorted:
        problems.append(
            f"{len(distorted)} figure(s) shown at another aspect ratio than drawn:\n"
            + "\n".join(f"    {d}" for d in distorted)
        )
    undescribed = page.evaluate(UNDESCRIBED_IMAGES_JS, CONTENT)
    if undescribed:
        problems.append(
            f"{len(undescribed)} image(s) without a description as alt text:\n"
            + "\n".join(f"    {u}" for u in undescribed)
        )
    checks = page.evaluate(VISIBLE_CHECKS_JS, CONTENT)
    if checks:
        problems.append(
            f"{len(checks)} code cell(s) with checking code shown without a click:\n"
            + "\n".join(f"    {c}" for c in checks)
        )
    if not axe:
        return problems
    page.add_script_tag(content=AXE_JS)
    violations = page.evaluate(AXE_RUN_JS, "html")          # the whole page, theme included
    for v in violations:
        problems.append(
            f"axe {v['impact']} violation {v['id']} ({v['help']}), {len(v['nodes'])} "
            "node(s):\n" + "\n".join(f"    {n}" for n in v["nodes"][:8])
        )
    return problems


def _clean(text: str) -> str:
    """``text`` without lone UTF-16 surrogates (a JavaScript slice may cut a pair)."""
    return text.encode("utf-8", "replace").decode("utf-8")


def _run(request, rel: str, width: int, height: int) -> None:
    page = _open(request, rel, width, height)
    axe = width < 1280 or rel in DESKTOP_AXE_PAGES
    problems = [_clean(p) for p in _check(page, width, axe)]
    if problems:
        pytest.fail(f"{rel} at {width} px:\n  " + "\n  ".join(problems), pytrace=False)


class TestDesktopReading:
    """Every page read in a window 1280 px wide."""

    @pytest.mark.parametrize("rel", PAGE_PARAMS)
    def test_page_reads_cleanly(self, rel, request):
        _run(request, rel, 1280, 800)


class TestPhoneReading:
    """Every page read in a window 390 px wide (a phone held upright)."""

    @pytest.mark.parametrize("rel", PAGE_PARAMS)
    def test_page_reads_cleanly(self, rel, request):
        _run(request, rel, 390, 844)
