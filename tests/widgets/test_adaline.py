"""Tests of the Adaline learning-rate explorer (no browser needed)."""

import matplotlib.pyplot as plt
import numpy as np
import pytest

from lecture_pkg import datasets
from lecture_pkg.linear import augment, gd_stability_limit, lms_stability_limit
from lecture_pkg.widgets.adaline import AdalineExplorer


@pytest.fixture(scope="module")
def iris():
    X, y = datasets.iris_setosa_vs_rest()
    Z, _, _ = datasets.standardize(X)
    return Z, y


def test_rate_is_a_multiple_of_the_stability_limit(iris):
    Z, y = iris
    ex = AdalineExplorer(Z, y, ratio=0.5)
    assert ex.limit == pytest.approx(gd_stability_limit(augment(Z)))
    assert ex.eta == pytest.approx(0.5 * ex.limit)
    assert ex.model.eta == pytest.approx(ex.eta)
    ex.set(solver="sequential")
    assert ex.limit == pytest.approx(lms_stability_limit(augment(Z)))


def test_below_the_limit_the_loss_falls_to_least_squares_above_it_grows(iris):
    Z, y = iris
    ex = AdalineExplorer(Z, y, ratio=0.9, epochs=200)
    assert np.all(np.diff(ex.loss) <= 1e-12)
    assert ex.loss[-1] == pytest.approx(ex.least_squares_loss, rel=1e-8)
    assert ex.warnings == [] and "least squares" in ex.status()
    ex.set(ratio=1.1)
    assert ex.loss[-1] > 1e3 * ex.loss[0]
    assert "LearningRateWarning" in ex.warnings
    assert "diverged" in ex.status() or "growing" in ex.status()


def test_draw_shows_loss_curve_and_line(iris):
    Z, y = iris
    ex = AdalineExplorer(Z, y, ratio=0.5, epochs=30)
    ax_loss, ax_data = ex.draw()
    (curve, ls_line) = ax_loss.lines
    assert len(curve.get_xdata()) == 31
    assert ls_line.get_ydata()[0] == pytest.approx(ex.least_squares_loss)
    assert ax_loss.get_yscale() == "log"
    assert len(ax_data.lines) == 1            # the decision line
    ex.set(ratio=1.5, epochs=200)             # diverged: no line is drawn
    if ex.model.diverged_:
        _, ax2 = ex.draw()
        assert len(ax2.lines) == 0


def test_widget_builds_and_its_controls_retrain(iris):
    Z, y = iris
    ex = AdalineExplorer(Z, y, ratio=0.5, epochs=20)
    w = ex.widget()
    ratio, epochs, solver = w.children[0].children
    assert ratio.description == "eta / limit" and ratio.value == 0.5
    ratio.value = 1.2
    assert ex.ratio == 1.2 and ex.model.eta == pytest.approx(1.2 * ex.limit)
    epochs.value = 7
    assert len(ex.loss) == 8
    solver.value = "sequential"
    assert ex.solver == "sequential" and ex.model.solver == "sequential"


def test_bad_settings_are_refused(iris):
    Z, y = iris
    with pytest.raises(ValueError, match="2-d"):
        AdalineExplorer(np.zeros((3, 3)), [1, -1, 1])
    ex = AdalineExplorer(Z, y)
    with pytest.raises(ValueError, match="ratio"):
        ex.set(ratio=0)
    with pytest.raises(ValueError, match="epochs"):
        ex.set(epochs=0)
    with pytest.raises(ValueError, match="solver"):
        ex.set(solver="newton")


def test_a_sequential_run_that_settles_above_its_start_is_called_flat_not_growing(iris):
    Z, y = iris
    ex = AdalineExplorer(Z, y, ratio=1.1, epochs=60, solver="sequential")
    assert not ex.model.diverged_ and ex.loss[-1] > ex.loss[0]
    assert abs(ex.loss[-1] - ex.loss[-2]) <= 1e-9 * ex.loss[-1]
    assert "flat, above the start" in ex.status() and "growing" not in ex.status()
    ax_loss, ax_data = ex.draw()
    assert ax_loss.get_title().endswith("flat, above the start")
    assert ax_data.get_title().endswith("outside the plot")   # every flower called +1


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


def test_the_widget_shows_the_static_pictures_start_state_as_the_live_figure_draws_it(iris):
    from lecture_pkg.plotting import PIXEL_DENSITY
    from lecture_pkg.widgets._static import png_bytes

    Z, y = iris
    ex = AdalineExplorer(Z, y, ratio=0.95, epochs=30)
    static = ex.static(ratio=(0.5, 1.1))
    image = ex.widget().children[-1]
    fig = ex.figure()
    drawn = png_bytes(fig, dpi=100 * PIXEL_DENSITY)
    plt.close(fig)
    assert image.value == drawn == static.frame(ratio=0.95, solver="batch")
    ex.set(ratio=0.5)                              # another state: the widget draws it
    image = ex.widget().children[-1]
    assert image.value == static.frame(ratio=0.5, solver="batch") != drawn
