"""Browser tests of figures and of the boxes that scroll sideways, on a phone and a desktop.

A figure's text (10 pt titles and ticks, 9 pt legends at its display size) is legible
only down to a certain size.  On a phone (390 px) book.css keeps every figure at 0.72 of
its display size or more, and a figure then wider than the column scrolls sideways inside
its own box, with the fade at the edge that wide formulas and tables have, and a tab stop.
A box that is only a few pixels too narrow for what it holds (a formula, a table, a
figure) is not faded: ``book/_static/scroll_focus.js`` marks it when its section shows and
book.css makes what it holds fit.  These tests check, on every page of the built book:

* at 390 px: every figure is shown at 0.7 of its display size or more (at its display
  size where that fits the column) and keeps its aspect ratio; a figure wider than its
  box scrolls inside it, reachable by keyboard, with the fade; the page does not scroll
  sideways; every faded kind of box (display formula, table, figure) that overflows shows
  the fade and every one that fits shows none; every one that overflows says below it that
  it scrolls sideways, and none that fits does;
* at 1280 px: every figure is shown at its display size, in a box that does not scroll;

and, on boxes made for the purpose in a chapter at 390 px, that a formula, a table and a
figure a few pixels too wide for their box are made to fit with no fade, and the same
boxes 40 pixels too wide scroll with the fade.

The sections of a chapter are laid out only as they come near the screen (book.css), so
each section is scrolled to before what is in it is measured, as a reader would.
The fixtures (local HTTP server, system Chromium, a fresh context per test) are those of
``tests/site/test_site.py``.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError
from tests.site.test_site import (  # noqa: F401  (fixtures used by name)
    PAGE_PARAMS,
    PAGES,
    SITE,
    browser,
    probe,
    site_url,
)
from tests.site.test_site_reading import _open

#: The smallest share of its display size a figure may be shown at on a phone.
SMALLEST = 0.7
#: At most this many pixels too narrow, a box is made to fit (scroll_focus.js).
FEW_PIXELS = 12

#: The boxes book.css fades at the edge they can scroll towards.
FADED = ('div.math > mjx-container[display="true"], '
         "div.cell_output div.output.text_html:has(table.dataframe), "
         "div.pst-scrollable-table-container, "
         "div.cell_output a.image-reference, div.lpx-frame")

# Scroll to each second-level section in turn (it is laid out, and scroll_focus.js
# measures its boxes, when it comes near the screen), then measure what is in it.
VISIT_JS = """async ([sel, measure]) => {
  const frame = () => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)));
  const measureOne = new Function("box", measure);
  const found = [];
  let current = undefined;
  for (const el of document.querySelectorAll(sel)) {
    const section = el.closest("article.bd-article > section > section");
    if (section !== current) {
      (section || el).scrollIntoView();
      await frame(); await frame();
      current = section;
    }
    if (!el.checkVisibility()) continue;             // folded away (a hidden solution)
    found.push(measureOne(el));
  }
  window.scrollTo(0, 0);
  return found;
}"""

FIGURE_JS = """
  const rect = box.getBoundingClientRect();
  const display = parseFloat(getComputedStyle(box).getPropertyValue("--figure-width"));
  const frame = box.closest("a.image-reference, div.lpx-frame");
  const style = frame ? getComputedStyle(frame) : null;
  const name = (box.getAttribute("alt") || box.src.split("/").pop()).slice(0, 70);
  return {name, display, shown: rect.width, height: rect.height,
          aspect: box.naturalWidth ? box.naturalWidth / box.naturalHeight : 0,
          frame: frame ? frame.className : null,
          room: frame ? frame.clientWidth : 0, scroll: frame ? frame.scrollWidth : 0,
          overflowX: style ? style.overflowX : null,
          focusable: frame ? frame.tabIndex >= 0 : false,
          faded: style ? style.maskImage !== "none" : false};
"""

BOX_JS = """
  const d = box.scrollWidth - box.clientWidth;
  return {kind: box.tagName.toLowerCase() + "." + box.className.split(" ").join("."),
          overflow: d, faded: getComputedStyle(box).maskImage !== "none",
          says: getComputedStyle(box, "::after").content.includes("scroll sideways"),
          text: (box.innerText || box.querySelector("img")?.alt || "").replace(/\\s+/g, " ")
                .trim().slice(0, 60)};
"""

LOAD_IMAGES_JS = """async () => {
  const imgs = Array.from(document.querySelectorAll("article img"));
  for (const img of imgs) if (img.loading === "lazy") img.loading = "eager";
  await Promise.all(imgs.map(img => img.complete ? null : new Promise(resolve => {
    img.addEventListener("load", resolve);
    img.addEventListener("error", resolve);
  })));
}"""

PAGE_SCROLL_JS = """() => {
  const doc = document.scrollingElement || document.documentElement;
  return [doc.scrollWidth, doc.clientWidth];
}"""

CUE_SUPPORTED_JS = "() => CSS.supports('animation-timeline: scroll()')"

FIGURE_PAGES = [rel for rel in PAGES if "<img" in (SITE / rel).read_text(encoding="utf-8")]
FIGURE_PARAMS = FIGURE_PAGES or [pytest.param(None, id="book-not-built")]


def _figures(page) -> list[dict]:
    page.evaluate(LOAD_IMAGES_JS)
    return page.evaluate(VISIT_JS, ["article.bd-article div.cell_output img", FIGURE_JS])


def _fail(rel: str, width: int, problems: list[str]) -> None:
    if problems:
        text = f"{rel} at {width} px:\n  " + "\n  ".join(problems)
        pytest.fail(text.encode("utf-8", "replace").decode("utf-8"), pytrace=False)


class TestPhoneFigures:
    """Every page read in a window 390 px wide."""

    @pytest.mark.parametrize("rel", PAGE_PARAMS)
    def test_figures_are_legible_and_wide_boxes_show_that_they_scroll(self, rel, request):
        page = _open(request, rel, 390, 844)
        cue = page.evaluate(CUE_SUPPORTED_JS)
        problems = []
        for f in _figures(page):
            what = f"figure {f['name']!r} ({f['display']:.0f} px wide at display size)"
            if not f["display"] > 0:
                problems.append(f"{what}: no --figure-width (book/_ext/accessible_html.py)")
                continue
            if f["frame"] is None:
                problems.append(f"{what}: not in a box of its own that can scroll")
                continue
            fits = f["display"] <= f["room"] + 0.5
            if fits and abs(f["shown"] - f["display"]) > 0.5:
                problems.append(f"{what}: shown {f['shown']:.0f} px wide although it fits")
            if f["shown"] < SMALLEST * f["display"] - 0.5:
                problems.append(f"{what}: shown {f['shown']:.0f} px wide, under "
                                f"{SMALLEST} of its display size")
            if f["aspect"] and abs(f["shown"] / f["height"] / f["aspect"] - 1) > 0.02:
                problems.append(f"{what}: shown at another aspect ratio than drawn")
            if f["scroll"] > f["room"] + 1:
                if f["overflowX"] not in ("auto", "scroll"):
                    problems.append(f"{what}: cut off by its box (overflow-x {f['overflowX']})")
                if not f["focusable"]:
                    problems.append(f"{what}: its box scrolls but has no tab stop")
        for b in page.evaluate(VISIT_JS, [f"article.bd-article :is({FADED})", BOX_JS]):
            if not cue:
                break
            if b["overflow"] > 0 and not b["faded"]:
                problems.append(f"<{b['kind']}> {b['overflow']} px too narrow and not "
                                f"faded: {b['text']}")
            if b["overflow"] <= 0 and b["faded"]:
                problems.append(f"<{b['kind']}> fits and is faded: {b['text']}")
            if b["says"] != (b["overflow"] > 0):
                problems.append(f"<{b['kind']}> {b['overflow']} px too narrow, and "
                                f"{'says' if b['says'] else 'does not say'} that it scrolls: "
                                f"{b['text']}")
        wide, window = page.evaluate(PAGE_SCROLL_JS)
        if wide > window + 1:
            problems.append(f"the page scrolls sideways: {wide} px wide in a {window} px window")
        _fail(rel, 390, problems)


class TestDesktopFigures:
    """Every page with a figure read in a window 1280 px wide."""

    @pytest.mark.parametrize("rel", FIGURE_PARAMS)
    def test_figures_show_at_their_display_size(self, rel, request):
        page = _open(request, rel, 1280, 800)
        problems = []
        for f in _figures(page):
            if abs(f["shown"] - f["display"]) > 0.5:
                problems.append(f"figure {f['name']!r}: shown {f['shown']:.0f} px wide, "
                                f"drawn for {f['display']:.0f} px")
            elif f["scroll"] > f["room"] + 1:
                problems.append(f"figure {f['name']!r}: scrolls sideways in its box")
        _fail(rel, 1280, problems)


# Boxes made for the test at the top of a chapter (outside the sections laid out lazily):
# a display formula, a table and a figure, each `by` pixels wider than the column.
MAKE_BOXES_JS = """async (by) => {
  const top = document.querySelector("article.bd-article > section");
  const heading = top.querySelector("h1");
  const place = document.createElement("div");
  place.id = "made-for-the-test";
  heading.after(place);
  const room = place.clientWidth;

  const formula = document.querySelector('div.math > mjx-container[display="true"]')
                          .parentElement.cloneNode(true);
  formula.removeAttribute("id");
  formula.querySelectorAll("[id]").forEach(e => e.removeAttribute("id"));
  formula.querySelector("span.eqno")?.remove();
  place.append(formula);
  const math = formula.querySelector("mjx-container");
  const svg = math.querySelector(":scope > svg");
  svg.setAttribute("width", `${math.clientWidth + by}px`);

  const cells = (tag, n) => Array.from({length: n}, (_, i) => `<${tag}>c${i}</${tag}>`).join("");
  const table = document.createElement("div");
  table.className = "cell_output docutils container";
  table.innerHTML = `<div class="output text_html"><table class="dataframe">
      <thead><tr><th></th>${cells("th", 3)}</tr></thead>
      <tbody><tr><th>0</th>${cells("td", 2)}<td><span class="wide"
        style="display: inline-block; width: 100px">x</span></td></tr></tbody></table></div>`;
  place.append(table);
  const box = table.firstElementChild, wide = table.querySelector("span.wide");
  const grow = box.clientWidth + by - table.querySelector("table").getBoundingClientRect().width;
  wide.style.width = `${100 + grow}px`;

  const png = document.querySelector("article div.cell_output a.image-reference img");
  const display = (room + by) / 0.72;
  const figure = document.createElement("div");
  figure.className = "cell_output docutils container";
  figure.innerHTML = `<a class="reference internal image-reference" href="${png.src}"><img
      alt="made for the test" src="${png.src}"
      style="width: ${display}px; height: ${display / 2}px; --figure-width: ${display}px;"></a>`;
  place.append(figure);
  await new Promise(r => figure.querySelector("img").decode().then(r, r));

  return [math, box, figure.firstElementChild].map(e => e.scrollWidth - e.clientWidth);
}"""

# Once scroll_focus.js has measured (it does so 300 ms after the page changes).
MADE_BOXES_JS = """() => {
  const place = document.getElementById("made-for-the-test");
  return Array.from(place.querySelectorAll(
      'mjx-container, div.output.text_html, a.image-reference')).map(box => ({
    kind: box.tagName.toLowerCase(), marked: box.classList.contains("book-nearly-fits"),
    overflow: box.scrollWidth - box.clientWidth,
    faded: getComputedStyle(box).maskImage !== "none"}));
}"""

MARKED_JS = """(n) => document.querySelectorAll("#made-for-the-test .book-nearly-fits")
                     .length === n"""

TEST_PAGE = "book/perceptron/stability.html"


@pytest.mark.parametrize("by", [4, 40])
def test_a_box_a_few_pixels_too_narrow_is_made_to_fit_and_not_faded(by, request):
    """A formula, a table and a figure 4 px wider than the column are made to fit, with no
    fade over their last column; 40 px wider, they scroll with the fade."""
    if TEST_PAGE not in PAGES:
        pytest.fail(f"{TEST_PAGE} is not in the built book", pytrace=False)
    page = _open(request, TEST_PAGE, 390, 844)
    if not page.evaluate(CUE_SUPPORTED_JS):
        pytest.skip("this chromium has no scroll-driven animations (the fade)")
    made = page.evaluate(MAKE_BOXES_JS, by)
    assert [abs(d - by) <= 1 for d in made] == [True] * 3, f"made {made}, not {by} px too wide"
    try:      # scroll_focus.js measures 300 ms after the page changed
        page.wait_for_function(MARKED_JS, arg=3 if by <= FEW_PIXELS else -1, timeout=1500)
    except PlaywrightTimeoutError:   # none to be marked; or the assertions below say why
        pass
    boxes = page.evaluate(MADE_BOXES_JS)
    assert len(boxes) == 3, boxes
    for box in boxes:
        if by <= FEW_PIXELS:
            assert box["marked"] and box["overflow"] <= 0 and not box["faded"], box
        else:
            assert not box["marked"] and box["overflow"] > FEW_PIXELS and box["faded"], box
