"""Tests of lecture_pkg.widgets.perceptron: the PerceptronExplorer, its logic, its drawing and
its static version."""

import matplotlib.pyplot as plt
import numpy as np
import pytest

from lecture_pkg import datasets
from lecture_pkg.widgets import PerceptronExplorer
from lecture_pkg.plotting import PIXEL_DENSITY
from lecture_pkg.widgets._static import png_bytes


def test_explorer_follows_the_cyclic_perceptron():
    X, y = datasets.koski_example()
    ex = PerceptronExplorer(X, y, eta=0.2, coef_init=(1.0, 0.5))
    assert "2 example(s) not yet correct (on the wrong side or on the line)" in ex.status()
    used = []
    while (k := ex.next_update()) is not None:
        used.append(k)
    assert used == [2, 4, 0]
    np.testing.assert_allclose(ex.coef, [0.5, 1.0], atol=1e-12)
    assert ex.intercept == pytest.approx(0.2)
    assert "converged" in ex.status()
    assert ex.next_update() is None  # nothing changes after convergence


def test_explorer_reset_and_learning_rate():
    X, y = datasets.koski_example()
    ex = PerceptronExplorer(X, y, eta=0.2, coef_init=(1.0, 0.5))
    ex.next_update()
    ex.reset(eta=1.0)
    assert ex.eta == 1.0 and ex.trainer.n_updates == 0
    np.testing.assert_allclose(ex.coef, [1.0, 0.5])
    ex.next_update()  # example 3 with eta = 1: b = 1, w = (1, 0.5) + (-2, 1)
    np.testing.assert_allclose(ex.coef, [-1.0, 1.5])
    assert ex.intercept == pytest.approx(1.0)


def test_explorer_draws_and_builds_a_widget():
    X, y = datasets.koski_example()
    ex = PerceptronExplorer(X, y)
    ex.next_update()
    ax = ex.draw()
    assert len(ax.lines) == 1 and "after 1 update" in ax.get_title()
    w = ex.widget()
    buttons = w.children[0].children
    assert [b.description for b in buttons[:2]] == ["Next update", "Reset"]
    buttons[0].click()
    assert ex.trainer.n_updates == 2
    buttons[1].click()
    assert ex.trainer.n_updates == 0
    with pytest.raises(ValueError, match="2-d"):
        PerceptronExplorer(np.zeros((3, 3)), [1, -1, 1])


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
    # eta = 1 stops at its last update: every example correct, before the pass that confirms it
    assert "all examples correct, no further update" in static.texts[
        static.state_index((1, n - 1))]
    assert "converged" in static.texts[static.state_index((0, n - 1))]   # eta = 0.2: 3 updates


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


def test_rosenblatt_reset_keeps_the_lectures_rate():
    X, y = datasets.koski_example()
    ex = PerceptronExplorer(X, y, eta=0.2, coef_init=(1.0, 0.5))
    w = ex.widget()
    step, reset, eta = w.children[0].children
    assert eta.value == 0.2 and eta.label == "0.2"
    step.click()
    step.click()
    reset.click()
    assert ex.eta == 0.2 and ex.trainer.n_updates == 0
    assert "eta = 0.2," in ex.status()
    assert "$\\eta$ = 0.2:" in ex.draw(plt.figure().gca()).get_title()
    eta.value = 1.0                           # a move replays the updates made so far
    assert ex.eta == 1.0
