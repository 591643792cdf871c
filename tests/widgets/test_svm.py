"""Tests of the SVM explorer (no browser needed)."""

import matplotlib.pyplot as plt
import numpy as np
import pytest

from lecture_pkg.datasets import circles
from lecture_pkg.widgets.svm import SVMExplorer


@pytest.fixture(autouse=True)
def close_figures():
    yield
    plt.close("all")


def test_fit_and_the_support_fraction_react_to_the_sliders():
    ex = SVMExplorer(gamma=1.0, C=1.0)
    assert ex.model.converged_ and ex.warnings == []
    narrow = ex.support_fraction
    ex.set(gamma=50.0)
    assert ex.model.gamma == 50.0 and ex.support_fraction > narrow
    assert ex.training_error <= 0.05                     # a narrow kernel memorises
    ex.set(gamma=1.0, C=0.01)
    assert len(ex.model.bound_support_) > 0.5 * len(ex.y)
    assert "support vectors" in ex.status()


def test_draw_shows_boundary_margins_and_support_vectors():
    ex = SVMExplorer(gamma=2.0, C=1.0, resolution=40)
    ax = ex.draw()
    assert len(ax.collections) >= 4                        # regions, contours, points, SV rings
    labels = [t.get_text() for t in ax.get_legend().get_texts()]
    assert "on the margin" in labels
    assert "support vectors" in ax.get_title()


def test_widget_builds_and_its_controls_refit():
    ex = SVMExplorer(gamma=1.0, C=1.0, resolution=30)
    w = ex.widget()
    gamma, C, data = w.children[0].children
    assert gamma.description == "gamma" and C.description == "C"
    gamma.value = 10.0
    assert ex.gamma == pytest.approx(10.0) and ex.model.gamma == pytest.approx(10.0)
    C.value = 100.0
    assert ex.model.C == pytest.approx(100.0)
    data.value = "circles"
    Xc, _ = circles(120, noise=0.1)
    np.testing.assert_array_equal(ex.X, Xc)


def test_bad_settings_are_refused():
    with pytest.raises(ValueError, match="2-d"):
        SVMExplorer(np.zeros((3, 3)), [1, -1, 1])
    with pytest.raises(ValueError, match="labels"):
        SVMExplorer(np.zeros((3, 2)), [0, 1, 1])
    ex = SVMExplorer(resolution=20)
    with pytest.raises(ValueError, match="gamma"):
        ex.set(gamma=0)
    with pytest.raises(ValueError, match="C must"):
        ex.set(C=-1)
