/* Boxes that scroll sideways, measured as their sections show.

   A box that scrolls sideways (a wide formula's code, a table, printed output, an
   explorer's picture) gets a tab stop, so that a keyboard can scroll it; a box that fits
   gets none.  The theme does the same for every box of the page when it loads, but
   finding out whether a box scrolls means laying it out, and the book's chapters lay out
   their sections only as they come near the screen (book.css): measuring every box would
   lay out the whole chapter before the reader can scroll (half a second on a phone).
   Here a box is measured once its section is shown; until then it keeps a tab stop
   (focusing it shows the section, and it is measured then).  fast_pages.py takes the
   theme's own pass out of its script.

   The same measurement finds the boxes that book.css fades at the edge (display
   formulas, tables, figures) but that are only a few pixels too narrow for what they
   hold: those are marked "book-nearly-fits", which makes what they hold fit instead of
   greying its last column; where that is not enough, the mark comes off again.  A box
   that still scrolls is marked "book-scrolls", and book.css writes under it that it
   does: the fade alone is easy to miss, and what it hides is often a legend, a column
   or the term of a formula that the text refers to. */
(function () {
  "use strict";
  var BOXES = ["pre", ".nboutput > .output_area", ".cell_output > .output",
               ".jp-RenderedHTMLCommon", ".pst-scrollable-table-container",
               "div.lpx-frame"].join(", ");
  /* the boxes book.css fades: formulas, computed and written tables, figures */
  var FADED = ['div.math > mjx-container[display="true"]',
               "div.cell_output div.output.text_html:has(table.dataframe)",
               "div.pst-scrollable-table-container", "div.cell_output a.image-reference",
               "div.lpx-frame"].join(", ");
  var NEARLY = "book-nearly-fits", FEW_PIXELS = 12, SCROLLS = "book-scrolls";
  var lazy = "ContentVisibilityAutoStateChangeEvent" in window
             && typeof Element.prototype.checkVisibility === "function";

  function shown(box) {
    return !lazy || box.checkVisibility({contentVisibilityAuto: true});
  }

  function overflow(box) { return box.scrollWidth - box.clientWidth; }

  function fit(boxes) {                  /* reads, then writes: one layout, two if marked */
    boxes.forEach(function (box) { box.classList.remove(NEARLY); });
    var near = boxes.filter(function (box) {
      var d = overflow(box);
      return d > 0 && d <= FEW_PIXELS;
    });
    near.forEach(function (box) { box.classList.add(NEARLY); });
    near.filter(function (box) { return overflow(box) > 0; })
        .forEach(function (box) { box.classList.remove(NEARLY); });
    var scrolls = boxes.map(function (box) { return overflow(box) > 0; });
    boxes.forEach(function (box, i) { box.classList.toggle(SCROLLS, scrolls[i]); });
  }

  function mark(root) {                  /* one pass over the page's elements for both */
    var found = Array.prototype.map.call(root.querySelectorAll(BOXES + ", " + FADED),
      function (box) { return {box: box, shown: shown(box), stop: box.matches(BOXES)}; });
    fit(found.filter(function (f) { return f.shown && f.box.matches(FADED); })
             .map(function (f) { return f.box; }));
    var stops = found.filter(function (f) { return f.stop; });
    var values = stops.map(function (f) {
      if (!f.shown) { return 0; }     /* not laid out yet: measured when its section shows */
      var box = f.box;
      return box.scrollWidth > box.clientWidth || box.scrollHeight > box.clientHeight ? 0 : -1;
    });
    stops.forEach(function (f, i) { f.box.tabIndex = values[i]; });
  }

  var timer = null;
  function later() {
    clearTimeout(timer);
    timer = setTimeout(function () { mark(document); }, 300);
  }

  function start() {
    mark(document);
    window.addEventListener("resize", later);
    var main = document.getElementById("main-content");
    if (main) { new MutationObserver(later).observe(main, {subtree: true, childList: true}); }
    if (lazy) {
      document.addEventListener("contentvisibilityautostatechange", function (event) {
        if (!event.skipped) { mark(event.target); }
      }, true);
    }
    /* a box in a folded part (a solution, a hidden output) is measured when it unfolds */
    document.addEventListener("toggle", function (event) {
      if (event.target.open) { mark(event.target); }
    }, true);
  }

  if (document.readyState === "complete") { start(); } else { window.addEventListener("load", start); }
})();
