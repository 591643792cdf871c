"""Browser tests of the static explorers in the built HTML book (``_build/html``).

Each of the ten explorer pages is opened twice, served over HTTP (the server and browser
fixtures of ``test_site``) and straight from ``file://``.  On every explorer of the page
each control is moved with the keyboard and with the mouse; the test checks that the
displayed value and the picture change, that the picture stays a loaded image, that a
play button advances its control, and that the page logs no console error, raises no
JavaScript error and asks no other host for anything.

Like ``test_site``, these tests need a built book (``make book``; they FAIL without one)
and the system's Chromium (they SKIP without one, saying how to install it).
"""

from __future__ import annotations

import pytest
from tests.site.test_site import (  # noqa: F401 - fixtures used by name
    LOAD_TIMEOUT_MS,
    SITE,
    VIEWPORT,
    _require_built_book,
    browser,
    probe,
    site_url,
)

# The pages with an explorer and how many explorers each has.
EXPLORER_PAGES = {
    "book/foundations/neurons.html": 1,          # Hopfield retrieval
    "book/foundations/learning.html": 1,         # regression prior
    "book/foundations/probabilistic.html": 1,    # m-estimate
    "book/perceptron/rosenblatt.html": 1,        # perceptron updates
    "book/perceptron/stability.html": 1,         # Adaline learning rate
    "book/perceptron/student_teacher.html": 1,   # version space
    "book/beyond/svm.html": 1,                   # soft-margin SVM
    "book/beyond/kernel_perceptrons.html": 1,    # LPM beside the SVM
    "book/prototypes/prototypes.html": 1,        # LVQ / GLVQ
    "book/evaluation/evaluation.html": 1,        # ROC threshold
}

PAGE_WEIGHT_LIMIT = 4_000_000
"""Bytes an explorer page may weigh in all (the HTML file with its inline pictures)."""


def _state(root) -> dict:
    """What the reader sees of one explorer: picture, status line and every value.

    The built site fetches an explorer's picture when a control moves to it (not inlined
    in the page): the state is read once the picture has arrived, or after 5 s.
    """
    return root.evaluate(
        """async r => {
          const img = r.querySelector('img.lpx-picture');
          if (!(img.complete && img.naturalWidth > 0)) {
            await new Promise(done => {
              const timer = setTimeout(done, 5000);
              const finish = () => { clearTimeout(timer); done(); };
              img.addEventListener('load', finish, {once: true});
              img.addEventListener('error', finish, {once: true});
            });
          }
          return {
            src: r.querySelector('img.lpx-picture').src,
            alt: r.querySelector('img.lpx-picture').alt,
            status: r.querySelector('.lpx-status').textContent,
            loaded: r.querySelector('img.lpx-picture').complete
                    && r.querySelector('img.lpx-picture').naturalWidth > 0,
            values: Array.from(r.querySelectorAll('.lpx-row')).map(row => {
                const out = row.querySelector('output');
                if (out) return out.textContent;
                const c = row.querySelector('input[type=radio]:checked');
                return c ? c.parentElement.textContent.trim() : null;
            }),
          };
        }"""
    )


def _moved(before: dict, after: dict, i: int, what: str) -> None:
    assert after["values"][i] != before["values"][i], f"{what}: the displayed value did not change"
    assert after["src"] != before["src"], f"{what}: the picture did not change"
    assert after["alt"] == after["status"] != before["status"], \
        f"{what}: the description did not change"
    assert after["loaded"], f"{what}: the new picture did not load"


def _exercise(page, expected: int, where: str) -> None:
    """Move every control of every explorer on ``page`` by keyboard and by mouse."""
    roots = page.locator("div.lpx")
    assert roots.count() == expected, f"{where}: {roots.count()} explorers, expected {expected}"
    for k in range(expected):
        root = roots.nth(k)
        root.scroll_into_view_if_needed()
        assert _state(root)["loaded"], f"{where}: the first picture did not load"
        rows = root.locator(".lpx-row")
        for i in range(rows.count()):
            row = rows.nth(i)
            label = row.locator(".lpx-label").inner_text()
            what = f"{where}, explorer {k + 1}, control {label!r}"
            slider = row.locator("input[type=range]")
            if slider.count():
                _exercise_slider(page, root, row, slider, i, what)
            else:
                _exercise_choice(page, root, row, i, what)


def _exercise_slider(page, root, row, slider, i, what) -> None:
    n = int(slider.get_attribute("max")) + 1
    # keyboard: arrow keys walk the slider until the picture changes
    key = "ArrowLeft" if int(slider.input_value()) == n - 1 else "ArrowRight"
    slider.focus()
    before = _state(root)
    for _ in range(n):
        page.keyboard.press(key)
        after = _state(root)
        if after["src"] != before["src"]:
            break
    _moved(before, after, i, what + " (keyboard)")
    assert slider.get_attribute("aria-valuetext") == after["values"][i]
    # mouse: a click near the far end of the slider
    before = _state(root)
    box = slider.bounding_box()
    # the end farther from the current value (with two values: the other one)
    upper_half = 2 * int(slider.input_value()) >= n - 1
    x = box["x"] + (0.05 if upper_half else 0.95) * box["width"]
    page.mouse.click(x, box["y"] + box["height"] / 2)
    _moved(before, _state(root), i, what + " (mouse, slider)")
    # step buttons, by mouse and by keyboard
    if row.locator(".lpx-next").count():
        slider.focus()
        page.keyboard.press("Home")
        before = _state(root)
        row.locator(".lpx-next").click()
        _moved(before, _state(root), i, what + " (mouse, next)")
        before = _state(root)
        row.locator(".lpx-prev").focus()
        page.keyboard.press("Enter")
        _moved(before, _state(root), i, what + " (keyboard, previous)")
    # play: starts from the first value, advances, and pauses again
    play = row.locator(".lpx-play")
    if play.count():
        slider.focus()
        page.keyboard.press("Home")
        before = _state(root)
        play.click()
        assert play.get_attribute("aria-pressed") == "true"
        output = row.locator("output")
        page.wait_for_function("([out, v]) => out.textContent !== v",
                               arg=[output.element_handle(), before["values"][i]])
        if n > 2:   # one step taken, more to go: the button pauses it
            assert play.get_attribute("aria-pressed") == "true"
            play.click()
        else:       # the step reached the last value: play stops by itself
            page.wait_for_function("b => b.getAttribute('aria-pressed') === 'false'",
                                   arg=play.element_handle())
        assert play.get_attribute("aria-pressed") == "false"
        _moved(before, _state(root), i, what + " (play)")


def _exercise_choice(page, root, row, i, what) -> None:
    radios = row.locator("input[type=radio]")
    assert radios.count() >= 2, f"{what}: a choice needs at least two options"
    assert row.get_attribute("role") == "radiogroup" and row.get_attribute("aria-label")
    # keyboard: an arrow key moves the selection within the group
    checked = row.locator("input[type=radio]:checked")
    checked.focus()
    before = _state(root)
    last = int(checked.get_attribute("value")) == radios.count() - 1
    page.keyboard.press("ArrowLeft" if last else "ArrowRight")
    _moved(before, _state(root), i, what + " (keyboard)")
    # mouse: click another option's label
    current = int(row.locator("input[type=radio]:checked").get_attribute("value"))
    before = _state(root)
    row.locator("label.lpx-choice").nth(0 if current else 1).click()
    _moved(before, _state(root), i, what + " (mouse)")


def _file_page(browser):
    """A page in a fresh context that records console errors, JavaScript errors and any
    request that is not to a local file (which is blocked)."""
    context = browser.new_context(service_workers="block", viewport=VIEWPORT)
    context.set_default_timeout(LOAD_TIMEOUT_MS)
    problems: list[str] = []

    def route_handler(route):
        url = route.request.url
        if url.startswith(("file:", "data:", "blob:", "about:")):
            route.continue_()
        else:
            problems.append(f"request to another host (blocked): {url}")
            route.abort("blockedbyclient")

    context.route("**/*", route_handler)
    page = context.new_page()
    page.on("console", lambda m: problems.append(f"console {m.type}: {m.text}")
            if m.type == "error" else None)
    page.on("pageerror", lambda e: problems.append(f"JavaScript error: {e}"))
    return context, page, problems


@pytest.mark.parametrize("path", list(EXPLORER_PAGES))
def test_explorers_respond_over_http(probe, path):
    probe.page.goto(probe.base_url + path, wait_until="load")
    _exercise(probe.page, EXPLORER_PAGES[path], f"{path} over HTTP")
    problems = probe.problems()
    assert not problems, f"{path} over HTTP:\n" + "\n".join(problems)


@pytest.mark.parametrize("path", list(EXPLORER_PAGES))
def test_explorers_respond_from_file(browser, path):
    _require_built_book()
    context, page, problems = _file_page(browser)
    try:
        page.goto((SITE / path).resolve().as_uri(), wait_until="load")
        _exercise(page, EXPLORER_PAGES[path], f"{path} from file://")
    finally:
        context.close()
    assert not problems, f"{path} from file://:\n" + "\n".join(problems)


@pytest.mark.parametrize("path", list(EXPLORER_PAGES))
def test_explorer_pages_stay_light(path):
    _require_built_book()
    size = (SITE / path).stat().st_size
    assert size < PAGE_WEIGHT_LIMIT, f"{path} weighs {size / 1e6:.1f} MB"
