"""Tests of lecture_pkg.widgets.hopfield: the HopfieldExplorer, its logic, its drawing and
its static version."""

import matplotlib.pyplot as plt
import numpy as np
import pytest

from lecture_pkg.neurons import hopfield as hp
from lecture_pkg.widgets.hopfield import HopfieldExplorer


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


# ----------------------------------------------------------- defects of the live widgets

def test_hopfield_seed_slider_shows_the_explorers_seed():
    ex = HopfieldExplorer(side=8, alpha=0.05, corruption=0.1, random_state=1982, max_sweeps=5)
    w = ex.widget()
    alpha, corruption, seed = w.children[0].children
    assert seed.value == 1982 and seed.min <= 1982 <= seed.max
    alpha.value = 0.1                         # the first move keeps the seed
    assert ex.random_state == 1982 and ex.alpha == 0.1
