/* Bootstrap's script, loaded when a reader first interacts with the page.

   The theme loads Bootstrap (81 kB) on every page for a few header controls: the
   download menu (a dropdown), the buttons' tooltips and the back-to-top button.  Running
   it at load is one of the longest tasks of a phone's first seconds (about 0.2 s), before
   anyone can have used any of these.  fast_pages.py puts this script in its place; it
   loads the theme's Bootstrap (data-src) at the reader's first scroll, touch, key, click
   or mouse movement, after which everything works exactly as the theme wrote it.  A first
   click that lands on the download menu before Bootstrap has arrived opens the menu once
   it has. */
(function () {
  "use strict";
  var src = document.currentScript && document.currentScript.dataset.src;
  if (!src) return;
  var loading = null;
  var FIRST = ["scroll", "wheel", "touchstart", "pointerdown", "pointermove", "keydown",
               "focusin"];

  function load() {
    if (!loading) {
      FIRST.forEach(function (type) { window.removeEventListener(type, first, true); });
      loading = new Promise(function (resolve, reject) {
        var script = document.createElement("script");
        script.src = src;
        script.onload = resolve;
        script.onerror = reject;
        document.head.appendChild(script);
      });
    }
    return loading;
  }

  /* the page's own scroll: the theme scrolls the sidebar to the current chapter itself */
  function first(event) {
    if (event.type !== "scroll" || event.target === document) load();
  }

  FIRST.forEach(function (type) {
    window.addEventListener(type, first, {capture: true, passive: true});
  });
  document.addEventListener("click", function (event) {
    var toggle = event.target.closest && event.target.closest('[data-bs-toggle="dropdown"]');
    if (!toggle || window.bootstrap) return;
    event.preventDefault();
    event.stopPropagation();
    load().then(function () { window.bootstrap.Dropdown.getOrCreateInstance(toggle).toggle(); });
  }, true);
})();
