"""Tests of the SVM explorer (no browser needed)."""

import numpy as np
import pytest

from lecture_pkg.datasets import circles
from lecture_pkg.widgets.svm import SVMExplorer


def test_fit_and_the_support_fraction_react_to_the_sliders():
    ex = SVMExplorer(sigma=0.7, C=1.0)
    assert ex.model.converged_ and ex.warnings == []
    wide = ex.support_fraction
    ex.set(sigma=0.1)
    assert ex.model.gamma == pytest.approx(50.0) and ex.support_fraction > wide
    assert ex.training_error <= 0.05                     # a narrow kernel memorises
    ex.set(sigma=0.7, C=0.01)
    assert len(ex.model.bound_support_) > 0.5 * len(ex.y)
    assert "support vectors" in ex.status()


def test_draw_shows_boundary_margins_and_support_vectors():
    ex = SVMExplorer(sigma=0.5, C=1.0, resolution=40)
    ax = ex.draw()
    assert len(ax.collections) >= 4                        # regions, contours, points, SV rings
    labels = [t.get_text() for t in ax.get_legend().get_texts()]
    assert "on the margin" in labels
    assert "support vectors" in ax.get_title()


def test_widget_builds_and_its_controls_refit():
    ex = SVMExplorer(sigma=0.7, C=1.0, resolution=30)
    w = ex.widget()
    sigma, C, data = w.children[0].children
    assert sigma.description == "sigma" and C.description == "C"
    sigma.value = 0.2
    assert ex.sigma == pytest.approx(0.2) and ex.model.gamma == pytest.approx(12.5)
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
    with pytest.raises(ValueError, match="sigma"):
        ex.set(sigma=0)
    with pytest.raises(ValueError, match="'C' must"):
        ex.set(C=-1)


def test_sigma_is_the_books_width_as_in_the_lpm_explorer():
    """``gamma = 1 / (2 sigma^2)`` by default; ``convention="friess"`` takes the paper's
    ``sigma_F``, as :class:`~lecture_pkg.widgets.LPMExplorer` does by default."""
    book = SVMExplorer(sigma=0.5, resolution=20)
    paper = SVMExplorer(sigma=0.5 * np.sqrt(2), convention="friess", resolution=20)
    assert book.gamma == pytest.approx(2.0) and paper.model.gamma == pytest.approx(2.0)
    assert book.status().startswith("sigma = 0.5, C = 1:")
    with pytest.raises(ValueError, match="convention"):
        SVMExplorer(convention="sklearn")
