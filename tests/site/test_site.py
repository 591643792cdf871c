"""Browser tests of the built HTML book (``_build/html``).

The book is built by ``make book`` (``make test`` builds it first).  These tests serve the
built site from a throw-away local HTTP server and drive the system's Chromium through
Playwright, without any network access:

* every HTML page of the book (parametrized by its path relative to ``_build/html``)
  loads with HTTP 200, logs no console error and raises no uncaught JavaScript error;
  MathJax (served from ``_static/mathjax/``) has finished typesetting and no raw TeX
  delimiters are left in the text; every image has loaded; every internal link points
  at an existing file and, if it has a ``#fragment``, at an existing id in that file;
* *offline guarantee*: any request a page makes to a host other than the local server
  (a CDN, web fonts, analytics, ...) is blocked, recorded and fails the test;
* the left sidebar of the landing page has links and its "next" button leads to a page
  that loads;
* the full-text search (``search.html?q=perceptron``) finds results.

Requirements: a built book (otherwise the tests FAIL and tell you to run ``make book``)
and a Chromium executable (otherwise the browser tests are SKIPPED with the reason
printed by ``-ra``; on Debian ``apt-get install chromium``).  Playwright's own browser
downloads are never used: Chromium is driven through ``executable_path``.

Fixtures: the HTTP server is session-scoped and the browser module-scoped (one of each
per pytest-xdist worker under ``pytest -n 2 --dist loadscope``).  The browser is not
session-scoped on purpose: while Playwright's sync API is started, its asyncio loop
counts as "running" in the main thread, so any later test on the same worker that
calls ``asyncio.run()`` would fail ("cannot be called from a running event loop");
stopping Playwright when this module is done keeps the other tests unaffected.  Each
test gets a fresh browser context, so every page is checked as a first visit (empty
cache and localStorage), whatever the order and distribution of the tests.
"""

from __future__ import annotations

import functools
import html
import html.parser
import http.server
import os
import re
import shutil
import threading
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import unquote, urljoin, urlsplit

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError
from playwright.sync_api import sync_playwright

REPO = Path(__file__).resolve().parents[2]
SITE = REPO / "_build" / "html"

NOT_BUILT = (
    f"The HTML book has not been built: {SITE / 'index.html'} does not exist. "
    "Run `make book` (it builds the book into _build/html) before these tests; "
    "`make test` does both."
)
NO_CHROMIUM = (
    "chromium not installed: run `apt-get install chromium` (Debian) to run the browser tests"
)

CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]

# Pages that are not book content (search.html is tested by test_search_finds_perceptron).
EXCLUDED_DIRS = {"_static", "_sources"}
EXCLUDED_PAGES = {"genindex.html", "search.html"}

# Time limits (milliseconds).
LOAD_TIMEOUT_MS = 30_000
MATHJAX_TIMEOUT_MS = 20_000
SEARCH_TIMEOUT_MS = 15_000
IDLE_TIMEOUT_MS = 5_000
IMAGE_TIMEOUT_MS = 10_000

# The search test looks for the book's subject.
SEARCH_WORD = "perceptron"

# Raw TeX that must not survive typesetting (MathJax removes these delimiters).
TEX_DELIMITERS = ("$$", "\\(", "\\)", "\\[", "\\]", "\\begin{")

# <meta http-equiv="refresh" content="0; url=book/intro.html" /> (Jupyter Book's index.html)
META_REFRESH_RE = re.compile(
    r"""<meta[^>]*http-equiv=["']?refresh["']?[^>]*"""
    r"""content=["']\s*\d+\s*;\s*url=(?P<url>[^"']+)["']""",
    re.IGNORECASE,
)


def _collect_pages() -> list[str]:
    """Every book page under ``_build/html`` as a POSIX path relative to it (sorted)."""
    if not SITE.is_dir():
        return []
    pages = []
    for path in sorted(SITE.rglob("*.html")):
        rel = path.relative_to(SITE)
        if rel.parts[0] in EXCLUDED_DIRS or rel.as_posix() in EXCLUDED_PAGES:
            continue
        pages.append(rel.as_posix())
    return pages


PAGES = _collect_pages()
PAGE_PARAMS = PAGES or [pytest.param(None, id="book-not-built")]


def _require_built_book() -> None:
    """Fail (never skip) when the book has not been built."""
    if not (SITE / "index.html").is_file():
        pytest.fail(NOT_BUILT, pytrace=False)


def _find_chromium() -> str | None:
    """The system Chromium executable, or None."""
    found = shutil.which("chromium")
    if found:
        return found
    if os.access("/usr/bin/chromium", os.X_OK):
        return "/usr/bin/chromium"
    return None


# --------------------------------------------------------------------------- server


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    """Static file handler that does not log every request to stderr."""

    def log_message(self, format, *args):  # noqa: A002 - signature of the base class
        pass


@pytest.fixture(scope="session")
def site_url():
    """Serve ``_build/html`` on 127.0.0.1 (free port) for the session; yield its base URL.

    One server per pytest(-xdist) worker process, in a daemon thread, shut down at the end.
    """
    _require_built_book()
    handler = functools.partial(_QuietHandler, directory=str(SITE))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, name="book-http-server", daemon=True)
    thread.start()
    host, port = server.server_address[:2]
    try:
        yield f"http://{host}:{port}/"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)


# --------------------------------------------------------------------------- browser


@pytest.fixture(scope="module")
def browser():
    """Headless system Chromium (one per worker; stopped when this module is done)."""
    executable = _find_chromium()
    if executable is None:
        pytest.skip(NO_CHROMIUM)
    playwright = sync_playwright().start()
    try:
        browser = playwright.chromium.launch(
            executable_path=executable, headless=True, args=CHROMIUM_ARGS
        )
        try:
            yield browser
        finally:
            browser.close()
    finally:
        playwright.stop()


@dataclass
class Probe:
    """A page plus everything it reported: console errors, uncaught errors, blocked
    external requests and failed local requests."""

    page: object
    base_url: str
    console_errors: list[str] = field(default_factory=list)
    page_errors: list[str] = field(default_factory=list)
    external_requests: list[str] = field(default_factory=list)
    failed_local: list[str] = field(default_factory=list)

    def is_local(self, url: str) -> bool:
        """Is ``url`` on the local test server (http or ws, same host and port)?"""
        parts = urlsplit(url)
        local = urlsplit(self.base_url).netloc
        return parts.scheme in ("http", "ws") and parts.netloc == local

    def problems(self) -> list[str]:
        """Everything the page reported that is not allowed (empty if clean)."""
        problems = []
        if self.external_requests:
            problems.append(
                "requests to hosts other than the local server (blocked; the book must "
                "work offline, e.g. MathJax must come from _static/mathjax/):\n"
                + "\n".join(f"    {u}" for u in self.external_requests)
            )
        if self.failed_local:
            problems.append(
                "local resources that failed to load:\n"
                + "\n".join(f"    {u}" for u in self.failed_local)
            )
        if self.console_errors:
            problems.append(
                "console errors:\n" + "\n".join(f"    {m}" for m in self.console_errors)
            )
        if self.page_errors:
            problems.append(
                "uncaught JavaScript errors (pageerror):\n"
                + "\n".join(f"    {m}" for m in self.page_errors)
            )
        return problems


def _fail_if(problems: list[str], what: str) -> None:
    """Fail with one readable message listing every problem found on ``what``."""
    if problems:
        pytest.fail(f"{what}:\n  " + "\n  ".join(problems), pytrace=False)


@pytest.fixture
def probe(browser, site_url):
    """A fresh page in a fresh browser context (so every test is a first visit, with
    empty localStorage and cache, independent of test order and xdist distribution).

    Every request to a host other than the local server is aborted and recorded (the
    offline guarantee); console errors, uncaught page errors and failed local loads are
    recorded too.  Service workers are blocked so that no request escapes the route.
    """
    context = browser.new_context(service_workers="block", viewport=VIEWPORT)
    context.set_default_timeout(LOAD_TIMEOUT_MS)
    context.set_default_navigation_timeout(LOAD_TIMEOUT_MS)
    pr = Probe(page=None, base_url=site_url)

    def route_handler(route):
        url = route.request.url
        if pr.is_local(url) or url.startswith(("data:", "blob:", "about:")):
            route.continue_()
        else:
            pr.external_requests.append(f"{route.request.resource_type}: {url}")
            route.abort("blockedbyclient")

    def ws_handler(ws):
        # WebSockets bypass route(); they are never connected to a real server.
        if not pr.is_local(ws.url):
            pr.external_requests.append(f"websocket: {ws.url}")
        ws.close()

    context.route("**/*", route_handler)
    context.route_web_socket(lambda url: True, ws_handler)
    page = context.new_page()
    pr.page = page

    def on_console(msg):
        if msg.type == "error":
            loc = msg.location or {}
            where = f" [{loc['url']}:{loc.get('lineNumber', '?')}]" if loc.get("url") else ""
            pr.console_errors.append(f"{msg.text}{where}")

    def on_response(response):
        if pr.is_local(response.url) and response.status >= 400:
            pr.failed_local.append(f"HTTP {response.status}: {response.url}")

    def on_request_failed(request):
        # net::ERR_ABORTED is a request the browser cancelled itself (e.g. a font still
        # loading when a click navigates away); a missing file shows up as an HTTP 404
        # in on_response instead.
        if pr.is_local(request.url) and request.failure != "net::ERR_ABORTED":
            pr.failed_local.append(f"{request.failure}: {request.url}")

    page.on("console", on_console)
    page.on("pageerror", lambda err: pr.page_errors.append(f"{err.name}: {err.message}"))
    page.on("response", on_response)
    page.on("requestfailed", on_request_failed)
    try:
        yield pr
    finally:
        context.unroute_all(behavior="ignoreErrors")
        context.close()


# --------------------------------------------------------------------------- helpers


class _IdCollector(html.parser.HTMLParser):
    """Collects the anchors a ``#fragment`` can point at."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.ids: set[str] = set()

    def handle_starttag(self, tag, attrs):
        for name, value in attrs:
            if value is not None and (name == "id" or (tag == "a" and name == "name")):
                self.ids.add(value)


def _read(path: Path) -> str:
    return path.read_text(encoding="utf-8", errors="replace")


@functools.lru_cache(maxsize=None)
def _ids_in(path: Path) -> frozenset[str]:
    """All ``id`` values (and ``<a name>`` anchors) of an HTML file, parsed once."""
    parser = _IdCollector()
    parser.feed(_read(path))
    parser.close()
    return frozenset(parser.ids)


def _target_file(url_path: str) -> Path:
    """Map a URL path on the local server to a file under ``_build/html``."""
    rel = unquote(url_path).lstrip("/")
    target = SITE / rel
    if rel == "" or rel.endswith("/") or target.is_dir():
        target = target / "index.html"
    return target


def _broken_links(links: list[dict], base_url: str) -> list[str]:
    """Internal links whose target file or ``#fragment`` id does not exist."""
    broken = []
    for link in links:
        raw, url = link["raw"], link["url"]
        label = f"href={raw!r} (text {link['text']!r})"
        if raw.startswith(("mailto:", "javascript:")) or raw.strip() == "#":
            continue
        if not url.startswith(base_url):
            continue  # external link: not followed (the site must work offline)
        parts = urlsplit(url)
        target = _target_file(parts.path)
        if not target.is_file():
            broken.append(f"{label}: no file {target.relative_to(SITE).as_posix()}")
            continue
        fragment = unquote(parts.fragment)
        if fragment and target.suffix == ".html" and fragment not in _ids_in(target):
            broken.append(
                f"{label}: no id={fragment!r} in {target.relative_to(SITE).as_posix()}"
            )
    return broken


WAIT_FOR_MATHJAX_JS = """async (timeoutMs) => {
  const MJ = window.MathJax;
  const hasScript = Array.from(document.scripts).some(s => /mathjax/i.test(s.src || ""));
  if (!MJ) return hasScript ? "no-mathjax-object" : "absent";
  if (!MJ.startup || !MJ.startup.promise) return hasScript ? "not-loaded" : "absent";
  const timeout = new Promise(resolve => setTimeout(() => resolve("timeout"), timeoutMs));
  return Promise.race([MJ.startup.promise.then(() => "done"), timeout]);
}"""

# Text nodes of the main content outside code/MathJax output that contain TeX delimiters.
# Hidden text (e.g. collapsed solutions) is checked too: MathJax typesets it as well, and
# it is shown on a click.
UNTYPESET_TEX_JS = """(delims) => {
  const root = document.querySelector("article") || document.querySelector("main")
               || document.body;
  const skip = "pre, code, kbd, samp, script, style, textarea, mjx-container, .highlight";
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  const found = [];
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const parent = node.parentElement;
    if (!parent || parent.closest(skip)) continue;
    const text = node.nodeValue;
    const hits = delims.filter(d => text.includes(d));
    if (hits.length) {
      const i = Math.min(...hits.map(d => text.indexOf(d)));
      const snippet = text.slice(Math.max(0, i - 40), i + 80).replace(/\\s+/g, " ");
      found.push(`${hits.join(" ")}  in: ...${snippet}...`);
    }
  }
  return found;
}"""

IMAGES_JS = """async (timeoutMs) => {
  const imgs = Array.from(document.images);
  for (const img of imgs) if (img.loading === "lazy") img.loading = "eager";
  const settled = Promise.all(imgs.map(img => img.complete ? null : new Promise(resolve => {
    img.addEventListener("load", resolve);
    img.addEventListener("error", resolve);
  })));
  await Promise.race([settled, new Promise(resolve => setTimeout(resolve, timeoutMs))]);
  return imgs.filter(img => !(img.complete && img.naturalWidth > 0))
             .map(img => img.currentSrc || img.getAttribute("src") || "(no src)");
}"""

SEARCH_DONE_JS = """() => {
  const box = document.querySelector("#search-results");
  return !!box && (box.querySelector("ul.search li") !== null
                   || /did not match any documents/i.test(box.innerText));
}"""

LINKS_JS = """() => Array.from(document.querySelectorAll("a[href]")).map(a => ({
  raw: a.getAttribute("href"), url: a.href, text: (a.textContent || "").trim().slice(0, 60)
}))"""

# Code cells are written to at most 80 characters, and book.css sizes them to fit the main
# column; a shown code cell that still scrolls sideways gives its widest line.
WIDE_CODE_JS = """() => Array.from(document.querySelectorAll("div.cell_input pre"))
  .filter(e => e.offsetParent !== null && e.scrollWidth > e.clientWidth + 1)
  .map(e => e.innerText.split("\\n").reduce((a, b) => (b.length > a.length ? b : a), ""))"""
#: The window the page checks use (Playwright's default), a common laptop size.
VIEWPORT = {"width": 1280, "height": 720}


def _open_probe(request) -> Probe:
    """The ``probe`` fixture, requested only once the book is known to be built, so that
    a missing book FAILS the test (rather than erroring in a fixture, or being skipped
    because chromium is missing too)."""
    _require_built_book()
    return request.getfixturevalue("probe")  # skips here if chromium is missing


def _mathjax_state(page) -> str:
    """Wait for MathJax's initial typesetting; return "done", "absent" (no MathJax on
    the page) or what went wrong ("timeout", "not-loaded", ...)."""
    return page.evaluate(WAIT_FOR_MATHJAX_JS, MATHJAX_TIMEOUT_MS)


def _settle(page) -> None:
    """Let late requests (fonts, lazily loaded scripts) happen before checking."""
    try:
        page.wait_for_load_state("networkidle", timeout=IDLE_TIMEOUT_MS)
    except PlaywrightTimeoutError:  # a page that never goes idle is judged by the rest
        pass


# --------------------------------------------------------------------------- tests


def test_built_book_exists():
    """The book has been built (``make book``) into ``_build/html``, with pages in it."""
    _require_built_book()
    assert PAGES, f"no book pages were found under {SITE}; run `make book`"


_HEADING = re.compile(r"<h([1-6])\b(?![^>]*\bhidden\b)")   # hidden ones: JupyterLab's folds
_DESCRIPTION = re.compile(r'<meta name="description" content="([^"]*)"')


@pytest.mark.parametrize("rel", PAGE_PARAMS)
def test_page_is_described_and_its_headings_do_not_skip_a_level(rel):
    """What search engines and screen readers rely on (Lighthouse's SEO and accessibility
    audits): a description of the page, and headings in the article that go down one
    level at a time (a section's first heading under an h1 is an h2, not an h3)."""
    if rel is None:
        pytest.fail(NOT_BUILT, pytrace=False)
    text = _read(SITE / rel)
    if META_REFRESH_RE.search(text):
        return   # a redirect: the page it leads to is checked
    described = _DESCRIPTION.search(text)
    assert described and len(described.group(1)) >= 20, f"{rel}: no meta description"
    start = text.find("<article")
    levels = [int(m.group(1)) for m in _HEADING.finditer(text, start, text.find("</article>",
                                                                                start))]
    skips = [f"h{a} then h{b}" for a, b in zip(levels, levels[1:]) if b > a + 1]
    assert not skips, f"{rel}: headings skip a level: {', '.join(skips)}"


@pytest.mark.parametrize("rel", PAGE_PARAMS)
def test_page_leaves_no_maths_for_the_browser_to_typeset(rel):
    """Every formula is typeset when the book is built (tools/static_math.py), so no page
    loads MathJax (1.2 MB of script a phone would run), not even one without maths."""
    if rel is None:
        pytest.fail(NOT_BUILT, pytrace=False)
    if not shutil.which("chromium"):
        pytest.skip("the build typesets maths with chromium; this machine has none")
    assert "_static/mathjax/" not in _read(SITE / rel), f"{rel} loads MathJax"


class TestPages:
    """Per-page checks, one test per HTML page of the built book."""

    @pytest.mark.parametrize("rel", PAGE_PARAMS)
    def test_page(self, rel, request):
        """The page loads offline and cleanly (HTTP 200, no console error, no uncaught
        error, no external request), its maths is typeset by MathJax, its images load
        and its internal links (and their #fragments) resolve.

        A redirect page (``<meta http-equiv="refresh">``, e.g. ``index.html``) must point
        at an existing page; the checks then apply to the page it redirects to.
        """
        if rel is None:
            pytest.fail(NOT_BUILT, pytrace=False)
        probe = _open_probe(request)
        page = probe.page
        url = probe.base_url + rel
        problems: list[str] = []

        response = page.goto(url, wait_until="load")
        assert response is not None, f"{rel}: no response for {url}"
        assert response.status == 200, f"{rel}: HTTP {response.status} for {url}"

        shown = rel  # the page whose content is checked
        refresh = META_REFRESH_RE.search(_read(SITE / rel))
        if refresh:
            target_url = urljoin(url, html.unescape(refresh.group("url").strip())).split("#")[0]
            target = _target_file(urlsplit(target_url).path)
            if not probe.is_local(target_url) or not target.is_file():
                _fail_if([f"redirects to {target_url}, which is not a page of the site"], rel)
            page.wait_for_url(lambda u: u.split("#")[0] == target_url, wait_until="load")
            shown = target.relative_to(SITE).as_posix()

        state = _mathjax_state(page)
        if state not in ("done", "absent"):
            problems.append(
                f"MathJax did not finish typesetting (state {state!r}); is "
                "_static/mathjax/tex-chtml.js served and free of errors?"
            )

        leftover = page.evaluate(UNTYPESET_TEX_JS, list(TEX_DELIMITERS))
        if leftover:
            problems.append(
                "untypeset TeX in the main content:\n" + "\n".join(f"    {s}" for s in leftover)
            )
        if 'class="math' in _read(SITE / shown) and page.locator("mjx-container").count() == 0:
            problems.append(
                'the page has maths (class="math...") but MathJax rendered no <mjx-container>'
            )

        broken_images = page.evaluate(IMAGES_JS, IMAGE_TIMEOUT_MS)
        if broken_images:
            problems.append(
                "images that did not load:\n" + "\n".join(f"    {s}" for s in broken_images)
            )

        wide = page.evaluate(WIDE_CODE_JS)
        if wide:
            problems.append(
                f"{len(wide)} code cell(s) scroll sideways in a {VIEWPORT['width']} px window; "
                "widest lines:\n" + "\n".join(f"    {s}" for s in wide)
            )

        broken = _broken_links(page.evaluate(LINKS_JS), probe.base_url)
        if broken:
            problems.append(
                f"{len(broken)} broken internal link(s):\n"
                + "\n".join(f"    {s}" for s in broken)
            )

        _settle(page)
        _fail_if(probe.problems() + problems, rel if shown == rel else f"{rel} -> {shown}")


class TestSiteFeatures:
    """Navigation and search, which need JavaScript and more than one page."""

    def test_sidebar_and_next_link(self, request):
        """On the landing page (``index.html``, after its redirect) the left sidebar lists
        pages, and the "next" button leads to another page that loads cleanly."""
        probe = _open_probe(request)
        page = probe.page
        response = page.goto(probe.base_url + "index.html", wait_until="load")
        assert response is not None and response.status == 200, "index.html did not load"
        # index.html may be a redirect (meta refresh) to the root document.
        page.wait_for_selector("article", state="attached")
        page.wait_for_load_state("load")
        start = page.url

        sidebar_links = page.locator("nav.bd-docs-nav a[href], .bd-sidebar-primary nav a[href]")
        assert sidebar_links.count() > 0, f"no links in the left sidebar of {start}"

        nxt = page.locator("a.right-next").first
        assert nxt.count() == 1, f'{start} has no "next" page link (a.right-next)'
        href = nxt.get_attribute("href")
        with page.expect_navigation(wait_until="load") as nav:
            nxt.click()
        resp = nav.value
        assert resp is not None and resp.status == 200, (
            f'"next" link {href!r} on {start} did not load: '
            f"{'no response' if resp is None else f'HTTP {resp.status}'}"
        )
        assert page.url != start, f'"next" link {href!r} on {start} stayed on the same page'
        assert page.locator("article").count() > 0, f"{page.url} has no <article> content"
        state = _mathjax_state(page)
        problems = [] if state in ("done", "absent") else [f"MathJax did not finish ({state!r})"]
        _settle(page)
        _fail_if(probe.problems() + problems, f"navigation {start} -> {page.url}")

    def test_bootstrap_waits_for_the_reader_and_the_download_menu_opens_at_once(self, request):
        """Bootstrap's script is not run while a chapter loads (book/_static/
        bootstrap_on_demand.js); the first click on the download menu opens it, a second
        closes it, and the header's tooltips are Bootstrap's after the first movement."""
        probe = _open_probe(request)
        page = probe.page
        chapter = next(p for p in PAGES if p.startswith("book/perceptron/"))
        response = page.goto(probe.base_url + chapter, wait_until="load")
        assert response is not None and response.status == 200
        _settle(page)
        assert page.evaluate("typeof window.bootstrap") == "undefined", (
            f"{chapter} ran Bootstrap's script before the reader did anything")
        menu = "document.querySelector('.dropdown-menu.show') !== null"
        toggle = page.locator('[data-bs-toggle="dropdown"]').first
        toggle.dispatch_event("click")                  # a click with no movement before it
        page.wait_for_function(menu)
        assert page.evaluate("typeof window.bootstrap") == "object"
        toggle.click()
        page.wait_for_function(f"!({menu})")
        assert page.locator('[data-bs-toggle="tooltip"][data-bs-original-title]').count() > 0, (
            "the header's tooltips are not Bootstrap's once it has loaded")
        _fail_if(probe.problems(), chapter)

    def test_search_finds_perceptron(self, request):
        """The full-text search (Sphinx's searchindex.js) finds "perceptron", the subject
        of the book."""
        probe = _open_probe(request)
        page = probe.page
        url = probe.base_url + f"search.html?q={SEARCH_WORD}"
        response = page.goto(url, wait_until="load")
        assert response is not None and response.status == 200, "search.html did not load"
        # Sphinx's searchtools.js fills #search-results asynchronously: result items
        # appear one by one; with no match it says "did not match any documents".
        try:
            page.wait_for_function(SEARCH_DONE_JS, timeout=SEARCH_TIMEOUT_MS)
        except PlaywrightTimeoutError:
            pass
        count = page.locator("#search-results ul.search li").count()
        if count == 0:
            status = page.locator("#search-results").inner_text(timeout=1_000).strip()
            problems = probe.problems()
            pytest.fail(
                f"search.html?q={SEARCH_WORD} found no result (waited up to "
                f"{SEARCH_TIMEOUT_MS / 1000:.0f} s); #search-results says: {status!r}"
                + "".join(f"\n  {p}" for p in problems),
                pytrace=False,
            )
        _fail_if(probe.problems(), f"search.html?q={SEARCH_WORD}")


class TestDownloads:
    """What a reader downloads: the package (wheel and sdist) and a chapter's notebook."""

    def test_running_page_links_the_wheel_and_the_link_resolves(self, request):
        """The intro links "Running the notebooks yourself", which links lecture_pkg's
        wheel and sdist for this version; both are served (``make book`` copies them into
        ``_build/html/dist``) and are what they claim to be."""
        import io
        import tarfile
        import zipfile

        from lecture_pkg import __version__

        probe = _open_probe(request)
        page = probe.page
        response = page.goto(probe.base_url + "book/intro.html", wait_until="load")
        assert response is not None and response.status == 200
        to_running = page.locator("article a[href$='running.html']")
        assert to_running.count() >= 1, "the intro does not link the page running.html"
        with page.expect_navigation(wait_until="load"):
            to_running.first.click()
        assert page.url.endswith("book/running.html"), page.url

        links = page.evaluate(
            """() => Array.from(document.querySelectorAll("article a[href]"))
                 .map(a => a.href).filter(h => /\\.(whl|tar\\.gz)$/.test(h))""")
        wheel = f"lecture_pkg-{__version__}-py3-none-any.whl"
        sdist = f"lecture_pkg-{__version__}.tar.gz"
        names = sorted(url.rsplit("/", 1)[-1] for url in links)
        assert names == sorted([wheel, sdist]), f"running.html links {names}"
        for url in links:
            assert probe.is_local(url), f"{url} is not served by the site itself"
            reply = page.request.get(url)
            assert reply.status == 200, (
                f"{url}: HTTP {reply.status}; `make book` copies the wheel and sdist "
                "into _build/html/dist")
            body = reply.body()
            if url.endswith(".whl"):
                with zipfile.ZipFile(io.BytesIO(body)) as archive:
                    files = archive.namelist()
                assert "lecture_pkg/__init__.py" in files
                assert f"lecture_pkg-{__version__}.dist-info/METADATA" in files
            else:
                with tarfile.open(fileobj=io.BytesIO(body), mode="r:gz") as archive:
                    files = archive.getnames()
                assert f"lecture_pkg-{__version__}/pyproject.toml" in files
        _settle(page)
        _fail_if(probe.problems(), "book/running.html")

    def test_a_chapters_download_is_its_notebook_with_the_install_guard(self, request):
        """The download button of a chapter serves its .ipynb, whose first code cell is
        the install guard (tools/install_guard.py)."""
        import json

        from tools.install_guard import GUARD_SOURCE

        probe = _open_probe(request)
        page = probe.page
        chapters = [p for p in PAGES if p.startswith("book/perceptron/")]
        assert chapters, "no chapter pages under book/perceptron/"
        response = page.goto(probe.base_url + chapters[0], wait_until="load")
        assert response is not None and response.status == 200
        links = page.evaluate(
            """() => Array.from(document.querySelectorAll("a[href]"))
                 .map(a => a.href).filter(h => h.endsWith(".ipynb"))""")
        assert links, f"{chapters[0]} has no download link to its notebook"
        reply = page.request.get(links[0])
        assert reply.status == 200, f"{links[0]}: HTTP {reply.status}"
        nb = json.loads(reply.body())
        first = next(c for c in nb["cells"] if c["cell_type"] == "code")
        assert "".join(first["source"]) == GUARD_SOURCE, (
            f"the first code cell of {links[0]} is not the install guard")
