"""Tests of lecture_pkg.widgets.regression: the RegressionExplorer, its logic, its drawing and
its static version."""

import numpy as np
import pytest

from lecture_pkg.learning import regression as reg
from lecture_pkg.widgets.regression import RegressionExplorer


def test_regression_explorer_matches_the_module_functions():
    ex = RegressionExplorer(n_points=5, tau=50.0, sigma=150.0, random_state=3)
    d, v = ex.data
    assert d.shape == (5, 1)
    assert ex.lam == pytest.approx(9.0)
    assert ex.slope_ls == pytest.approx(float(reg.least_squares(d, v)[0]))
    assert ex.slope_map == pytest.approx(float(reg.ridge(d, v, 9.0)[0]))
    assert abs(ex.slope_map) < abs(ex.slope_ls)          # the prior shrinks H toward 0
    mean, std = ex.band(np.array([0.0, 1.0, 2.0]))
    assert std[0] == pytest.approx(150.0) and np.all(np.diff(std) > 0)
    assert mean[1] == pytest.approx(ex.slope_map)
    ex.set(tau=1e6)
    assert ex.slope_map == pytest.approx(ex.slope_ls, rel=1e-6)   # flat prior: MAP = ML
    wide = ex.band(np.array([2.0]))[1][0]
    ex.set(n_points=40)
    assert ex.band(np.array([2.0]))[1][0] < wide                  # more data, narrower band
    with pytest.raises(ValueError, match="n_points"):
        ex.set(n_points=0)
    with pytest.raises(ValueError, match="tau"):
        ex.set(tau=-1.0)


def test_regression_explorer_draws_and_its_sliders_refit():
    ex = RegressionExplorer()
    ax = ex.draw()
    assert "MAP" in ax.get_title() and len(ax.collections) == 1    # the band
    w = ex.widget()
    n, tau = w.children[0].children
    n.value = 20
    assert ex.n_points == 20 and len(ex.data[1]) == 20
    tau.value = 10.0
    assert ex.tau == pytest.approx(10.0) and ex.lam == pytest.approx(150.0**2 / 100)
