"""Tests of the ROC explorer (no browser needed)."""

import matplotlib.pyplot as plt
import numpy as np
import pytest
from sklearn import metrics

from lecture_pkg.widgets.roc import ROCExplorer
from lecture_pkg.widgets import roc as roc_module


@pytest.fixture
def data():
    rng = np.random.default_rng(12)
    y = np.r_[np.ones(40, int), -np.ones(60, int)]
    return y, rng.normal(size=100) + np.where(y == 1, 1.2, 0.0)


def test_working_point_travels_along_the_roc(data):
    y, s = data
    ex = ROCExplorer(y, s)
    fpr, tpr, _ = metrics.roc_curve(y, s, drop_intermediate=False)
    assert ex.auc == pytest.approx(metrics.roc_auc_score(y, s))
    points = set(zip(np.round(fpr, 12), np.round(tpr, 12)))
    previous = (1.0, 1.0)
    for theta in np.linspace(*ex.theta_range, 40):
        point = ex.set(theta=theta)
        assert tuple(np.round(point, 12)) in points                       # on the curve
        assert point[0] <= previous[0] and point[1] <= previous[1]        # raising theta moves
                                                                          # down-left
        previous = point
    assert ex.set(theta=ex.theta_range[1]) == (0.0, 0.0)
    assert ex.set(theta=ex.theta_range[0]) == (1.0, 1.0)


def test_counts_match_sklearn_confusion_matrix(data):
    y, s = data
    ex = ROCExplorer(y, s, threshold=0.4)
    pred = np.where(s >= 0.4, 1, -1)
    np.testing.assert_array_equal(ex.matrix(), metrics.confusion_matrix(y, pred, labels=[-1, 1]))
    assert ex.rates["bac"] == pytest.approx(metrics.balanced_accuracy_score(y, pred))
    assert "theta = 0.4" in ex.status()
    ex.set(theta=2.0)
    ex.reset()
    assert ex.theta == 0.4
    with pytest.raises(ValueError, match="NaN"):
        ex.set(theta=np.nan)


def test_other_labels_and_bad_input():
    ex = ROCExplorer(["ill", "well", "ill", "well"], [0.9, 0.1, 0.4, 0.6], pos_label="ill",
                     threshold=0.5)
    assert ex.counts == (1, 1, 1, 1)      # TP, FP, TN, FN
    with pytest.raises(ValueError, match="both classes"):
        ROCExplorer([1, 1, 1], [0.1, 0.2, 0.3])
    with pytest.raises(ValueError, match="NaN"):
        ROCExplorer([1, -1, 1], [0.1, np.nan, 0.3])


def test_draws_and_builds_a_widget(data):
    y, s = data
    ex = ROCExplorer(y, s)
    axes = ex.draw()
    assert len(axes) == 3
    assert axes[0].lines[0].get_xdata()[0] == 0.0                           # the threshold line
    np.testing.assert_allclose(axes[1].lines[-1].get_xydata()[0], ex.operating_point)
    assert [t.get_text().split("\n")[0] for t in axes[2].texts] == ["TN", "FP", "FN", "TP"]
    w = ex.widget()
    slider, zero = w.children[0].children
    label = w.children[1]
    slider.value = 1.0
    assert ex.theta == pytest.approx(1.0) and "theta = 1" in label.value
    zero.click()
    assert ex.theta == 0.0 and slider.value == 0.0


def test_redrawing_a_figure_in_place_gives_the_picture_of_a_new_one(data):
    # the static explorer draws its first state in a new figure and the others by redraw
    from lecture_pkg.widgets._static import png_bytes

    y, s = data
    ex = ROCExplorer(y, s, threshold=0.3)
    reused = ex.figure()
    for theta in (-1.5, 0.0, 0.7, 2.4):
        ex.set(theta=theta)
        ex.redraw(reused)
        fresh = ex.figure()
        assert png_bytes(reused, dpi=100) == png_bytes(fresh, dpi=100)
        plt.close(fresh)


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
