/* A box that scrolls sideways (a wide formula's code, a table, printed output) gets a tab
   stop, so that a keyboard can scroll it; a box that fits gets none.  The theme does the
   same for every box of the page when it loads, but finding out whether a box scrolls
   means laying it out, and the book's chapters lay out their sections only as they come
   near the screen (book.css): measuring every box would lay out the whole chapter before
   the reader can scroll (half a second on a phone).  Here a box is measured once its
   section is shown; until then it keeps a tab stop (focusing it shows the section, and
   it is measured then).  fast_pages.py takes the theme's own pass out of its script. */
(function () {
  "use strict";
  var BOXES = ["pre", ".nboutput > .output_area", ".cell_output > .output",
               ".jp-RenderedHTMLCommon", ".pst-scrollable-table-container"].join(", ");
  var lazy = "ContentVisibilityAutoStateChangeEvent" in window
             && typeof Element.prototype.checkVisibility === "function";

  function mark(root) {
    root.querySelectorAll(BOXES).forEach(function (box) {
      if (lazy && !box.checkVisibility({contentVisibilityAuto: true})) {
        box.tabIndex = 0;            /* not laid out yet: measured when its section shows */
      } else {
        box.tabIndex = box.scrollWidth > box.clientWidth
                       || box.scrollHeight > box.clientHeight ? 0 : -1;
      }
    });
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
  }

  if (document.readyState === "complete") { start(); } else { window.addEventListener("load", start); }
})();
