"""The static explorers of the HTML book (``lecture_pkg.widgets._static``) and the live
widgets' defects that the static work exposed."""

import configparser
import io
import json
import re
from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np
import pytest
from PIL import Image

from lecture_pkg import datasets
from lecture_pkg.plotting import PIXEL_DENSITY
from lecture_pkg.widgets import (
    AdalineExplorer, HopfieldExplorer, MEstimateExplorer, PerceptronExplorer, PrototypeExplorer,
    ROCExplorer, StaticExplorer, VersionSpaceExplorer, control, static_explorer)
from lecture_pkg.widgets import roc as roc_module
from lecture_pkg.widgets._static import END_MARK, START_MARK, grid_with, png_bytes

SANITIZE = Path(__file__).with_name("nbval_sanitize.cfg")


@pytest.fixture(autouse=True)
def close_figures():
    yield
    plt.close("all")


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


# ----------------------------------------------------------- the explorers' static forms


def test_perceptron_static_draws_the_states_with_the_live_figure():
    X, y = datasets.koski_example()
    ex = PerceptronExplorer(X, y, eta=0.2, coef_init=(1.0, 0.5))
    ex.next_update()
    static = ex.static(eta=(0.2, 1.0))
    assert [c.key for c in static.controls] == ["eta", "updates"]
    assert static.controls[0].initial == 0 and static.controls[1].initial == 0
    assert ex.eta == 0.2 and ex.trainer.n_updates == 1           # state restored
    fresh = PerceptronExplorer(X, y, eta=1.0, coef_init=(1.0, 0.5))
    fresh.run_updates(2)
    assert static.frame(eta=1.0, updates=2) == png_bytes(fresh.figure(), dpi=100 * PIXEL_DENSITY)
    assert static.texts[static.state_index((1, 2))] == fresh.status()
    n = len(static.controls[1])               # up to the slowest rate's last update
    assert "0 example(s) on the wrong side" in static.texts[static.state_index((1, n - 1))]
    assert "converged" in static.texts[static.state_index((0, n - 1))]   # eta = 0.2: 3 updates


def test_version_space_static_steps_through_the_examples():
    ex = VersionSpaceExplorer(max_examples=4, random_state=1, n_candidates=2000)
    static = ex.static()
    assert static.shape == (5,) and static.controls[0].kind == "steps"
    assert ex.n_examples == 0
    assert [t.split(":")[0] for t in static.texts] == [f"P = {p} example{'' if p == 1 else 's'}"
                                                       for p in range(5)]


def test_roc_static_grid_holds_zero_and_the_start():
    rng = np.random.default_rng(0)
    y = np.r_[np.zeros(30), np.ones(30)]
    ex = ROCExplorer(y, rng.standard_normal(60) + y, threshold=0.5)
    static = ex.static(n_values=5)
    values = static.controls[0].values
    assert 0.0 in values and 0.5 in values and static.controls[0].texts[static.initial[0]] == "0.50"
    assert ex.theta == 0.5
    assert static.texts[values.index(0.0)].startswith("theta = 0:")
    assert all(not text.startswith("-0.00") for text in static.controls[0].texts)


def test_m_estimate_static_with_a_choice_of_p_restores_the_explorer():
    ex = MEstimateExplorer(m=2.0, p=1 / 3)
    static = ex.static(m=(0.1, 10.0), p=(None, 1 / 3))
    assert [c.key for c in static.controls] == ["p", "m"]
    assert static.controls[0].texts == ("1/|V|", "0.333") and static.initial == (1, 1)
    assert static.controls[1].values == (0.1, 2.0, 10.0)
    assert ex.m == 2.0 and ex.p == 1 / 3
    other = MEstimateExplorer(m=10.0, p=None)
    assert static.texts[static.state_index((0, 2))] == other.status()
    assert static.frame(p=None, m=10.0) == png_bytes(other.figure(), dpi=100 * PIXEL_DENSITY)


def test_adaline_static_sweeps_the_rate_for_each_solver():
    rng = np.random.default_rng(0)
    X = rng.standard_normal((40, 2))
    y = np.where(X[:, 0] + 0.3 * rng.standard_normal(40) > 0, 1, -1)
    ex = AdalineExplorer(X, y, ratio=0.5, epochs=20)
    static = ex.static(ratio=(0.9, 1.1))
    assert static.shape == (2, 3) and static.controls[0].texts == ("batch", "sequential")
    assert ex.ratio == 0.5 and ex.solver == "batch"
    assert "diverged" not in static.texts[static.state_index((0, 1))]      # 0.9 x limit
    assert "loss growing" in static.texts[static.state_index((0, 2))] \
        or "diverged" in static.texts[static.state_index((0, 2))]           # 1.1 x limit


# ----------------------------------------------------------- defects of the live widgets


def test_hopfield_seed_slider_shows_the_explorers_seed():
    ex = HopfieldExplorer(side=8, alpha=0.05, corruption=0.1, random_state=1982, max_sweeps=5)
    w = ex.widget()
    alpha, corruption, seed = w.children[0].children
    assert seed.value == 1982 and seed.min <= 1982 <= seed.max
    alpha.value = 0.1                         # the first move keeps the seed
    assert ex.random_state == 1982 and ex.alpha == 0.1


def test_perceptron_learning_rate_change_keeps_the_step_and_shows_eta():
    X, y = datasets.koski_example()
    ex = PerceptronExplorer(X, y, eta=0.2, coef_init=(1.0, 0.5))
    ex.next_update()
    before = (ex.coef, ex.intercept)
    assert "eta = 0.2" in ex.status()
    ex.set(eta=1.0)
    assert ex.trainer.n_updates == 1 and "eta = 1," in ex.status()
    # example 3 with eta = 1: b = 1, w = (1, 0.5) + (-2, 1)
    np.testing.assert_allclose(ex.coef, [-1.0, 1.5])
    assert not np.allclose(ex.coef, before[0])
    w = ex.widget()
    eta = w.children[0].children[2]
    eta.value = 0.1
    assert ex.eta == pytest.approx(0.1) and ex.trainer.n_updates == 1


def test_prototype_learning_rate_change_retrains_the_same_epochs():
    X, y = datasets.three_clusters(random_state=np.random.default_rng(1), n_per_class=20)
    ex = PrototypeExplorer(X, y, rule="lvq1", eta=0.1, random_state=3)
    ex.next_epoch(3)
    W = ex.prototypes
    assert "eta = 0.1," in ex.status()
    ex.set(eta=0.5)
    assert ex.epoch == 3 and ex.eta == 0.5 and "eta = 0.5," in ex.status()
    assert not np.allclose(ex.prototypes, W)
    same = PrototypeExplorer(X, y, rule="lvq1", eta=0.5, random_state=3)
    same.next_epoch(3)
    np.testing.assert_array_equal(ex.prototypes, same.prototypes)


def test_roc_zero_button_redraws_once(monkeypatch):
    real = roc_module.live_figure
    count = []

    def counting(make):
        out, redraw = real(make)
        return out, lambda: (count.append(1), redraw())

    monkeypatch.setattr(roc_module, "live_figure", counting)
    rng = np.random.default_rng(0)
    y = np.r_[np.zeros(30), np.ones(30)]
    ex = ROCExplorer(y, rng.standard_normal(60) + y, threshold=0.5)
    w = ex.widget()
    slider, zero = w.children[0].children
    count.clear()
    zero.click()
    assert len(count) == 1 and ex.theta == 0.0 and slider.value == 0.0
    zero.click()                              # already at 0: nothing to redraw
    assert len(count) == 1


# ----------------------------------------------------------- the ten notebooks

BOOK = Path(__file__).resolve().parents[1] / "book"
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
