"""Tests of the LPM-versus-SVM explorer (no browser needed)."""

import matplotlib.pyplot as plt
import numpy as np
import pytest

from lecture_pkg.datasets import moons, two_spirals
from lecture_pkg.widgets.lp_machine import LPMExplorer


def test_default_state_is_the_papers_spiral_setting():
    ex = LPMExplorer(resolution=20)
    X, _ = two_spirals()
    np.testing.assert_array_equal(ex.X, X)
    info = ex.summary()
    assert info["LPM"]["train_errors"] == 0 and info["SVM"]["train_errors"] == 0
    assert ex.lpm.gamma == pytest.approx(1 / 0.64) and ex.svm.gamma == pytest.approx(1 / 0.64)


def test_a_larger_lpm_zeta_shrinks_the_l1_norm_of_alpha():
    ex = LPMExplorer(*moons(150, noise=0.25), sigma=1.0, zeta=0.0, resolution=20)
    small = ex.summary()["LPM"]["sum_alpha"]
    ex.set(zeta=0.3)
    assert ex.lpm.C == 0.3 and ex.summary()["LPM"]["sum_alpha"] < small


def test_draw_has_two_panels_with_expansion_vectors():
    ex = LPMExplorer(*moons(150, noise=0.25), resolution=25)
    axes = ex.draw()
    assert len(axes) == 2
    for ax, name in zip(axes, ("LPM", "SVM")):
        assert ax.get_title().startswith(name) and "expansion" in ax.get_title()
        assert "expansion vectors" in [t.get_text() for t in ax.get_legend().get_texts()]


def test_widget_builds_and_its_controls_refit():
    ex = LPMExplorer(resolution=20)
    w = ex.widget()
    sigma, zeta = w.children[0].children
    C, data = w.children[1].children
    assert sigma.description == "sigma_F" and zeta.description == "zeta (LPM)"
    sigma.value = 1.5
    assert ex.sigma == pytest.approx(1.5) and ex.lpm.gamma == pytest.approx(1 / 1.5 ** 2)
    zeta.value = 0.1
    assert ex.lpm.C == pytest.approx(0.1)
    C.value = 10.0
    assert ex.svm.C == pytest.approx(10.0)
    data.value = "moons"
    np.testing.assert_array_equal(ex.X, moons(150, noise=0.25)[0])


def test_bad_settings_are_refused():
    with pytest.raises(ValueError, match="2-d"):
        LPMExplorer(np.zeros((3, 3)), [1, -1, 1])
    with pytest.raises(ValueError, match="label"):
        LPMExplorer(np.zeros((3, 2)), [0, 1, 1])
    ex = LPMExplorer(*moons(150, noise=0.25), resolution=20)
    with pytest.raises(ValueError, match="sigma"):
        ex.set(sigma=0)
    assert ex.sigma == 0.8                                # unchanged after a refused setting
    with pytest.raises(ValueError, match="the parameter 'zeta' must"):
        ex.set(zeta=-1)
    with pytest.raises(ValueError, match="the parameter 'C' must"):
        ex.set(C=0)
    with pytest.raises(ValueError, match="convention"):
        LPMExplorer(*moons(150, noise=0.25), convention="sklearn")


def test_the_books_width_is_the_same_kernel_as_the_papers_wider_one():
    """``convention="biehl"`` takes the book's sigma, as the SVM explorer does:
    ``sigma_F = sqrt(2) sigma``."""
    X, y = moons(150, noise=0.25)
    paper = LPMExplorer(X, y, sigma=1.0, resolution=20)
    book = LPMExplorer(X, y, sigma=1.0 / np.sqrt(2), convention="biehl", resolution=20)
    assert book.lpm.gamma == pytest.approx(paper.lpm.gamma)
    assert book.svm.gamma == pytest.approx(paper.svm.gamma)
    assert book.static(sigma=(0.5, 1 / np.sqrt(2)), zeta=(0.0, 0.1)).controls[0].label == "sigma"


def test_lpm_redraw_in_place_gives_the_picture_of_a_new_figure():
    from lecture_pkg.widgets._static import png_bytes

    ex = LPMExplorer(sigma=0.8, zeta=0.0, resolution=40)
    reused = ex.figure()
    for sigma, zeta in ((1.6, 0.0), (0.8, 0.2)):
        ex.set(sigma=sigma, zeta=zeta)
        ex.redraw(reused)
        fresh = ex.figure()
        assert png_bytes(reused, dpi=60) == png_bytes(fresh, dpi=60)
        plt.close(fresh)


def test_a_state_seen_before_keeps_its_machines_and_new_data_fit_new_ones():
    ex = LPMExplorer(*moons(150, noise=0.25), resolution=20)
    first = (ex.lpm, ex.svm)
    info = ex.summary()
    ex.set(zeta=0.2)
    assert ex.lpm is not first[0] and ex.lpm.C == 0.2
    ex.set(zeta=0.0)                               # back: the same machines, not fitted again
    assert (ex.lpm, ex.svm) == first and ex.summary() == info
    ex.summary()["LPM"]["train_errors"] = -1       # a copy: the kept summary is unchanged
    assert ex.summary() == info
    ex.set(X=two_spirals()[0], y=two_spirals()[1])
    assert ex.lpm is not first[0] and ex.summary()["LPM"]["n_expansion"] != info["LPM"][
        "n_expansion"]


def test_the_widget_shows_the_static_pictures_start_state_as_the_live_figure_draws_it():
    from lecture_pkg.plotting import PIXEL_DENSITY
    from lecture_pkg.widgets._static import png_bytes
    from lecture_pkg.widgets.lp_machine import COLORS

    ex = LPMExplorer(sigma=0.8, zeta=0.0, resolution=20)
    static = ex.static(sigma=(0.8, 1.6), zeta=(0.0, 0.2))
    image = ex.widget().children[-1]
    fig = ex.figure()
    drawn = png_bytes(fig, dpi=100 * PIXEL_DENSITY, colors=COLORS)
    plt.close(fig)
    assert image.value == drawn == static.frame(sigma=0.8, zeta=0.0)
    ex.set(zeta=0.2)                               # another state: the widget draws it
    image = ex.widget().children[-1]
    assert image.value == static.frame(sigma=0.8, zeta=0.2) != drawn
