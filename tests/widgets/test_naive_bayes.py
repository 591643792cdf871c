"""Tests of the m-estimate explorer without a browser."""

import numpy as np
import pytest

from lecture_pkg import datasets
from lecture_pkg.probabilistic import CategoricalNaiveBayes
from lecture_pkg.widgets.naive_bayes import MEstimateExplorer
from lecture_pkg.plotting import PIXEL_DENSITY
from lecture_pkg.widgets._static import png_bytes


def test_explorer_reproduces_the_slide_posteriors():
    ex = MEstimateExplorer()
    assert ex.current == pytest.approx(0.719101, abs=1e-6)            # m = 2, p = 1/3
    ex.set(m=3.0)
    assert ex.current == pytest.approx(9 / 13)                         # add-one
    assert ex.prior_positive == 0.5
    assert "0.6923" in ex.status()


def test_curve_runs_from_four_fifths_to_the_prior():
    ex = MEstimateExplorer()
    assert ex.curve[0] == pytest.approx(0.8, abs=0.01)                 # m -> 0+
    assert ex.curve[-1] == pytest.approx(0.5, abs=0.01)                # m -> infinity
    assert np.all(np.diff(ex.curve) < 0)
    i = 40
    assert ex.curve[i] == pytest.approx(ex.posterior(ex.m_grid[i]))


def test_query_factors_are_the_m_estimates():
    ex = MEstimateExplorer(m=2.0, p=1 / 3)
    f = ex.query_factors()
    pos = list(ex.model.classes_).index("positive")
    # medium: 0 of 2, red: 2 of 2, circle: 2 of 2 in the positive class
    np.testing.assert_allclose(f[pos], [(0 + 2 / 3) / 4, (2 + 2 / 3) / 4, (2 + 2 / 3) / 4])


def test_changing_p_recomputes_the_curve_and_bad_values_are_refused():
    ex = MEstimateExplorer()
    before = ex.curve.copy()
    ex.set(p=0.9)
    assert not np.allclose(before, ex.curve)
    X, y = datasets.naive_bayes_training_set()
    model = CategoricalNaiveBayes(m=ex.m, p=0.9,
                                  categories=datasets.naive_bayes_tables().categories)
    assert ex.current == pytest.approx(model.fit(X, y).predict_proba([ex.query[0]])[0, 1])
    with pytest.raises(ValueError, match=r"'m' must be"):
        ex.set(m=0.0)
    with pytest.raises(ValueError, match="p must"):
        ex.set(p=1.5)
    with pytest.raises(ValueError, match="does not occur"):
        MEstimateExplorer(positive="maybe")


def test_draw_and_widget_sliders_call_the_logic():
    ex = MEstimateExplorer()
    fig = ex.draw()
    ax1, ax2 = fig.axes
    assert len(ax1.lines[0].get_xdata()) == len(ex.m_grid)
    assert len(ax2.patches) == 6                                       # 2 classes x 3 features
    w = ex.widget()
    m_slider, p_slider = w.children[0].children
    m_slider.value = 10.0
    assert ex.m == pytest.approx(10.0) and ex.current < 0.7191
    p_slider.value = 0.5
    assert ex.p == 0.5


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
