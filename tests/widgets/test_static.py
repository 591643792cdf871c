"""Tests of lecture_pkg.widgets._static: the static explorers of the HTML book (every state
precomputed as a picture), and the notebooks that store them."""

import configparser
import io
import json
import re
from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np
import pytest
from PIL import Image

from lecture_pkg.widgets import StaticExplorer, control, static_explorer
from lecture_pkg.widgets._static import END_MARK, START_MARK, grid_with, png_bytes


SANITIZE = Path(__file__).resolve().parents[1] / "nbval_sanitize.cfg"


class Toy:
    """A toy explorer: the picture's background grey level is ``a / 10 + b``."""

    def __init__(self):
        self.calls = []

    def render(self, a, b=0.0):
        self.calls.append((a, b))
        fig = plt.figure(figsize=(1, 1))
        fig.patch.set_facecolor(str(min(1.0, a / 10 + b)))
        return fig


def grey(png: bytes) -> int:
    return int(np.asarray(Image.open(io.BytesIO(png)).convert("L"))[5, 5])


def toy_explorer(**kwargs):
    toy = Toy()
    controls = [control("a", [0, 2, 4], label="alpha", initial=2, fmt="{:d}", play=True),
                control("b", [0.0, 0.5], label="beta", initial=0.5, kind="choice")]
    return toy, static_explorer(toy.render, controls, title="toy", **kwargs)


def test_sweep_visits_every_state_in_c_order_and_keeps_each_picture():
    toy, ex = toy_explorer(describe=lambda a, b: f"a={a} b={b}")
    assert toy.calls == [(0, 0.0), (0, 0.5), (2, 0.0), (2, 0.5), (4, 0.0), (4, 0.5)]
    assert ex.shape == (3, 2) and ex.n_states == 6 and ex.initial == (1, 1)
    assert ex.texts == [f"a={a} b={b}" for a, b in toy.calls]
    for a, b in toy.calls:                    # each state shows its own picture
        expected = round(255 * min(1.0, a / 10 + b))
        assert abs(grey(ex.frame(a=a, b=b)) - expected) <= 1
    assert ex.state_index((2, 0)) == 4


def test_identical_pictures_are_stored_once():
    toy = Toy()
    ex = static_explorer(toy.render, [control("a", [10, 20, 30]), control("b", [0.0, 1.0])])
    # a / 10 + b >= 1 everywhere: every state is white
    assert len(ex.frames) == 1 and ex.frame_of == [0] * 6
    assert ex.texts[0] == "a = 10, b = 0"      # default description: the controls' values


def test_summary_names_the_controls_their_values_and_the_number_of_states():
    _, ex = toy_explorer()
    assert ex.summary() == (
        "static explorer: toy -- 6 precomputed states (3 x 2)\n"
        "  alpha: 3 values 0, 2, 4; starts at 2\n"
        "  beta: 2 values 0, 0.5; starts at 0.5")
    assert repr(ex) == ex.summary()
    long = control("n", range(20), fmt="{:d}")
    assert "20 values 0, 1, 2, ..., 17, 18, 19; starts at 0" in StaticExplorer(
        [long], [b""], [0] * 20, [""] * 20).summary()


def test_html_is_self_contained_labelled_and_starts_at_the_initial_state():
    _, ex = toy_explorer(describe=lambda a, b: f"state a={a}, b={b}")
    page = ex._repr_html_()
    assert page.startswith(START_MARK) and page.endswith(END_MARK)
    assert "http://" not in page and "https://" not in page       # no CDN, no network
    sliders = re.findall(r'<input type="range"[^>]*>', page)
    assert len(sliders) == 1
    assert 'max="2"' in sliders[0] and 'value="1"' in sliders[0]
    assert 'aria-valuetext="2"' in sliders[0]
    assert 'role="radiogroup" aria-label="beta"' in page
    assert len(re.findall(r'type="radio"', page)) == 2 and page.count(" checked") == 1
    assert 'aria-label="play alpha"' in page and 'aria-live="polite"' in page
    assert '<output class="lpx-value"' in page
    data = json.loads(re.search(r'<script type="application/json" class="lpx-data">(.*?)</script>',
                                page, re.S).group(1))
    assert data["shape"] == [3, 2] and data["initial"] == [1, 1]
    assert len(data["frameOf"]) == 6 and len(data["texts"]) == 6
    assert data["controls"][1]["texts"] == ["0", "0.5"]
    first = re.search(r'<img class="lpx-picture" width="\d+" alt="([^"]*)" '
                      r'src="data:image/png;base64,([^"]+)"', page)
    assert first.group(1) == "state a=2, b=0.5"
    assert first.group(2) == data["frames"][data["frameOf"][3]]


def test_step_controls_get_previous_and_next_buttons():
    toy = Toy()
    ex = static_explorer(toy.render, [control("a", range(4), label="P", kind="steps")])
    page = ex.html()
    assert 'aria-label="previous P"' in page and 'aria-label="next P"' in page
    assert 'aria-label="play P"' in page


def test_the_nbval_sanitizer_hides_the_payload_but_not_the_summary():
    config = configparser.ConfigParser()
    config.read(SANITIZE)
    section = config["static explorer"]
    _, ex = toy_explorer()
    output = "before\n" + ex.html() + "\nafter"
    assert re.sub(section["regex"], section["replace"], output) == \
        "before\n" + section["replace"] + "\nafter"
    assert re.sub(section["regex"], section["replace"], ex.summary()) == ex.summary()


def test_bad_controls_are_refused():
    with pytest.raises(ValueError, match="kind"):
        control("a", [1, 2], kind="knob")
    with pytest.raises(ValueError, match="not among"):
        control("a", [1, 2], initial=3)
    with pytest.raises(ValueError, match="at least two"):
        control("a", [1])
    with pytest.raises(ValueError, match="distinct"):
        static_explorer(Toy().render, [control("a", [1, 2]), control("a", [3, 4])])
    with pytest.raises(ValueError, match="at least one"):
        static_explorer(Toy().render, [])


def test_grid_with_inserts_the_starting_value_once():
    assert grid_with([1.0, 3.0], 2.0) == [1.0, 2.0, 3.0]
    assert grid_with([1.0, 2.0, 3.0], 2.0 + 1e-14) == [1.0, 2.0, 3.0]
    assert grid_with(np.array([1, 3]), 1) == [1, 3]


def test_png_is_a_palette_image_of_the_figure():
    fig = plt.figure(figsize=(2, 1))
    image = Image.open(io.BytesIO(png_bytes(fig, dpi=50)))
    assert image.mode == "P" and image.size == (100, 50)


# ----------------------------------------------------------- the ten notebooks

BOOK = Path(__file__).resolve().parents[2] / "book"
EXPLORER_NOTEBOOKS = [
    "foundations/neurons.ipynb", "foundations/learning.ipynb", "foundations/probabilistic.ipynb",
    "perceptron/rosenblatt.ipynb", "perceptron/stability.ipynb",
    "perceptron/student_teacher.ipynb", "beyond/svm.ipynb", "beyond/kernel_perceptrons.ipynb",
    "prototypes/prototypes.ipynb", "evaluation/evaluation.ipynb"]


@pytest.mark.parametrize("name", EXPLORER_NOTEBOOKS)
def test_notebook_stores_a_static_explorer_and_hides_the_live_cell(name):
    cells = json.loads((BOOK / name).read_text())["cells"]
    code = [c for c in cells if c["cell_type"] == "code"]
    static = [c for c in code if ".static(" in "".join(c["source"])]
    assert len(static) == 1, f"{name}: expected one cell building the static explorer"
    outputs = [o for o in static[0]["outputs"] if "text/html" in o.get("data", {})]
    assert len(outputs) == 1
    page = "".join(outputs[0]["data"]["text/html"])
    assert page.startswith(START_MARK) and page.rstrip().endswith(END_MARK)
    assert "".join(outputs[0]["data"]["text/plain"]).startswith("static explorer: ")
    assert len(page) < 2_500_000, f"{name}: the explorer weighs {len(page) / 1e6:.1f} MB"
    live = [c for c in code if "widget()" in "".join(c["source"])]
    assert live and all("remove-cell" in c["metadata"].get("tags", []) for c in live)


class Redrawable:
    """An explorer whose picture is one grey level, drawn anew or in place."""

    def __init__(self):
        self.level, self.made, self.redrawn = 0.2, 0, 0

    def set(self, level):
        self.level = level

    def status(self):
        return f"level {self.level:g}"

    def figure(self):
        self.made += 1
        fig = plt.figure(figsize=(1, 1))
        fig.patch.set_facecolor(str(self.level))
        return fig

    def redraw(self, fig):
        self.redrawn += 1
        fig.patch.set_facecolor(str(self.level))


def test_sweep_draws_the_first_state_anew_and_redraws_the_others_in_place():
    from lecture_pkg.widgets._static import sweep_explorer

    ex = Redrawable()
    controls = [control("level", [0.0, 0.4, 0.8], initial=0.4)]
    shown = sweep_explorer(ex, ex.set, controls, restore=lambda: ex.set(0.2), title="grey",
                           redraw=ex.redraw)
    assert (ex.made, ex.redrawn) == (1, 2) and ex.level == 0.2
    assert [grey(shown.frame(level=v)) for v in (0.0, 0.4, 0.8)] == [0, 102, 204]
    plain = sweep_explorer(ex, ex.set, controls, restore=lambda: ex.set(0.2), title="grey")
    assert ex.made == 4 and plain.frames == shown.frames
