"""Tests of the Part I explorers (Hopfield retrieval, Bayesian regression) without a browser."""

import matplotlib.pyplot as plt
import numpy as np
import pytest

from lecture_pkg import datasets
from lecture_pkg.learning import regression as reg
from lecture_pkg.neurons import hopfield as hp
from lecture_pkg.widgets.hopfield import HopfieldExplorer
from lecture_pkg.widgets.regression import RegressionExplorer


@pytest.fixture(autouse=True)
def close_figures():
    yield
    plt.close("all")


def test_hopfield_explorer_retrieves_at_low_load_and_fails_at_high_load():
    ex = HopfieldExplorer(side=20, alpha=0.05, corruption=0.2, random_state=1)
    assert ex.n_neurons == 400 and ex.n_patterns == 20
    assert ex.overlaps[0] == pytest.approx(0.6)
    assert ex.final_overlap == 1.0 and ex.result.converged
    np.testing.assert_array_equal(ex.result.state, ex.patterns[0])
    ex.set(alpha=0.35)
    assert ex.n_patterns == 140 and ex.final_overlap < 0.8
    assert "P = 140" in ex.status()
    # the overlap curve follows the recorded states
    np.testing.assert_allclose(ex.overlaps, hp.overlap(ex.result.states, ex.patterns[0]))
    with pytest.raises(ValueError, match="alpha"):
        ex.set(alpha=0.0)
    with pytest.raises(ValueError, match="corruption"):
        ex.set(corruption=0.8)
    with pytest.raises(ValueError, match="side"):
        HopfieldExplorer(side=2)


def test_hopfield_explorer_draws_and_its_sliders_rerun_the_logic():
    ex = HopfieldExplorer(side=12, alpha=0.05, corruption=0.1, random_state=0)
    fig = ex.draw()
    assert len(fig.axes) == 4
    assert "overlap" in fig.axes[3].get_ylabel()
    assert len(fig.axes[3].lines[0].get_xdata()) == len(ex.overlaps)
    w = ex.widget()
    alpha, corruption, seed = w.children[0].children
    alpha.value = 0.2
    assert ex.alpha == 0.2 and ex.n_patterns == round(0.2 * 144)
    corruption.value = 0.3
    assert ex.corruption == 0.3 and ex.overlaps[0] == pytest.approx(1 - 2 * round(0.3 * 144) / 144)
    seed.value = 5
    assert ex.random_state == 5


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


def test_synthetic_hubble_data():
    d, v = datasets.synthetic_hubble(500, random_state=np.random.default_rng(0), slope=500.0,
                                     sigma=100.0)
    assert d.shape == (500, 1) and v.shape == (500,)
    assert 0.05 <= d.min() and d.max() <= 2.0
    assert reg.least_squares(d, v)[0] == pytest.approx(500.0, abs=15)
    with pytest.raises(ValueError, match="n_galaxies"):
        datasets.synthetic_hubble(0, random_state=np.random.default_rng(0))


def test_hopfield_redraw_in_place_gives_the_picture_of_a_new_figure():
    # runs of different lengths rescale the sweep axis; the layout must not change
    from lecture_pkg.widgets._static import png_bytes

    ex = HopfieldExplorer(side=12, alpha=0.05, corruption=0.1, random_state=0)
    reused = ex.figure()
    lengths = set()
    for alpha, corruption in ((0.2, 0.3), (0.05, 0.3), (0.3, 0.1), (0.1, 0.0)):
        ex.set(alpha=alpha, corruption=corruption)
        lengths.add(len(ex.overlaps))
        ex.redraw(reused)
        fresh = ex.figure()
        assert png_bytes(reused, dpi=100) == png_bytes(fresh, dpi=100)
        plt.close(fresh)
    assert len(lengths) > 1
