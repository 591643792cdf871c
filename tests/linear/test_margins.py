"""Tests of lecture_pkg.linear.margins: local potentials, margins and stabilities, the
maximum-margin hyperplane, Novikoff's bound and Biehl's convergence proof (3.17)-(3.29)."""

import numpy as np
import pytest
from sklearn.svm import SVC

from lecture_pkg import datasets
from lecture_pkg.linear import (AdaTron, biehl_bound, data_radius, generic_perceptron,
                                geometric_margin, local_potentials, max_margin_hyperplane,
                                modulation_function, novikoff_bound, overlap_and_norm, stabilities,
                                stability)
from tests.linear.test_generic_perceptron import _teacher_data


# ------------------------------------------- local potentials and stabilities (3.8), (3.39), (3.40)

def test_local_potentials_and_geometric_margin_on_koski_solution():
    X, y = datasets.koski_example()
    E = local_potentials(X, y, [0.5, 1.0], 0.2)
    np.testing.assert_allclose(E / np.hypot(0.5, 1.0),
                               [0.4025, 1.5205, 0.1789, 1.61, 0.7155, 2.5044], atol=1e-4)
    assert geometric_margin(X, y, [0.5, 1.0], 0.2) == pytest.approx(0.178885, abs=1e-6)
    # scale invariance (Biehl 3.10)
    assert geometric_margin(X, y, [5.0, 10.0], 2.0) == pytest.approx(0.178885, abs=1e-6)
    with pytest.raises(ValueError, match="zero"):
        geometric_margin(X, y, [0.0, 0.0])
    with pytest.raises(ValueError, match="shape"):
        local_potentials(X, y, [1.0, 2.0, 3.0])


def test_stabilities_are_signed_distances_and_scale_invariant():
    rng = np.random.default_rng(1)
    X, y = rng.normal(size=(12, 3)), np.where(rng.normal(size=12) > 0, 1, -1)
    w, b = rng.normal(size=3), 0.4
    kappa = stabilities(X, y, w, b)
    # projection formula: distance of x from the plane w.x + b = 0 is (w.x + b)/|w|
    foot = X - ((X @ w + b) / (w @ w))[:, None] * w
    np.testing.assert_allclose(foot @ w + b, 0, atol=1e-12)
    dist = np.linalg.norm(X - foot, axis=1) * np.sign(X @ w + b)
    np.testing.assert_allclose(kappa, y * dist, atol=1e-12)
    np.testing.assert_allclose(stabilities(X, y, 7.5 * w, 7.5 * b), kappa, atol=1e-12)
    assert (stability(X, y, w, b) == pytest.approx(kappa.min())
            == pytest.approx(geometric_margin(X, y, w, b)))
    with pytest.raises(ValueError, match="zero"):
        stabilities(X, y, np.zeros(3))


def test_orthogonal_component_lowers_the_stability():
    """(3.47)-(3.50): adding delta orthogonal to all inputs reduces kappa for P < N."""
    rng = np.random.default_rng(7)
    X, y, _ = datasets.teacher_student(10, 30, random_state=rng)
    w = AdaTron(fit_intercept=False).fit(X, y).coef_
    d = rng.standard_normal(30)
    d -= np.linalg.pinv(X) @ (X @ d)
    d *= 0.3 * np.linalg.norm(w) / np.linalg.norm(d)
    np.testing.assert_allclose(X @ d, 0, atol=1e-10)
    assert stability(X, y, w + d) < stability(X, y, w)


# ---------------------------------------------------------------- the maximum-margin hyperplane

def test_max_margin_on_koski_data_matches_reference_and_svc():
    X, y = datasets.koski_example()
    w, b, kappa = max_margin_hyperplane(X, y)
    assert kappa == pytest.approx(0.69870, abs=1e-5)
    np.testing.assert_allclose(w, [0.16440, 0.98639], atol=1e-4)
    assert b == pytest.approx(0.94529, abs=1e-4)
    assert geometric_margin(X, y, w, b) == pytest.approx(kappa, abs=1e-8)
    svc = SVC(kernel="linear", C=1e10).fit(X, y)
    np.testing.assert_allclose(w, svc.coef_[0] / np.linalg.norm(svc.coef_[0]), atol=1e-4)
    assert kappa == pytest.approx(1 / np.linalg.norm(svc.coef_[0]), rel=1e-4)


def test_max_margin_without_intercept_and_on_random_teacher_data():
    rng = np.random.default_rng(3)
    X, y, teacher = datasets.teacher_student(60, 4, random_state=rng, gap=0.2)
    w, b, kappa = max_margin_hyperplane(X, y, fit_intercept=False)
    assert b == 0.0
    # the teacher separates with margin >= 0.2, so the optimum is at least as good
    assert kappa >= geometric_margin(X, y, teacher) - 1e-9 >= 0.2 - 1e-9
    assert geometric_margin(X, y, w) == pytest.approx(kappa, abs=1e-6)


def test_max_margin_refuses_non_separable_data_and_a_single_class():
    X, y = datasets.xor()
    with pytest.raises(ValueError, match="not linearly separable"):
        max_margin_hyperplane(X, y)
    with pytest.raises(ValueError, match="both labels"):
        max_margin_hyperplane(X, np.ones(4))


# ---------------------------------------------------------------- Novikoff's bound

def test_data_radius():
    X, _ = datasets.koski_example()
    assert data_radius(X) == pytest.approx(2 * np.sqrt(2))


def test_novikoff_bound_forms():
    assert novikoff_bound(1.0, 0.5) == 16.0
    assert novikoff_bound(1.0, 0.5, bias=False) == 4.0
    with pytest.raises(ValueError):
        novikoff_bound(1.0, 0.0)


# ---------------------------------------------------------- Biehl's convergence proof (3.17)-(3.29)

@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("c", [0.1, 1.0])
def test_biehls_two_bounds_hold_at_every_update_and_m_stays_below_m_star(seed, c):
    X, y = _teacher_data(seed, P=30, N=5, gap=0.1)
    N = X.shape[1]
    unit, _, _ = max_margin_hyperplane(X, y, fit_intercept=False)
    w_star = c * unit / (y * (X @ unit)).min()          # every E*^mu >= c, equality for the closest
    Q_star = float(w_star @ w_star)
    run = generic_perceptron(X, y, modulation_function("rosenblatt", margin=c), n_epochs=100_000,
                             shuffle=True, random_state=np.random.default_rng(seed),
                             record_history=True)
    R, Q = overlap_and_norm(run.history, w_star)
    M = np.arange(len(R))
    gamma = (X**2).sum(axis=1).max() / N
    assert (R >= c * M / N * (1 - 1e-9)).all()
    assert (Q <= (2 * c + gamma) * M / N * (1 + 1e-9)).all()
    assert run.converged and run.n_updates <= biehl_bound(X, c, Q_star)


def test_biehl_bound_formula_and_checks():
    X = np.array([[3.0, 4.0], [1.0, 0.0]])          # Gamma = 25 / 2
    assert biehl_bound(X, 0.5, 2.0) == pytest.approx((1.0 + 12.5) * 2 * 2.0 / 0.25)
    with pytest.raises(ValueError, match="margin"):
        biehl_bound(X, 0.0, 1.0)
    R, Q = overlap_and_norm([[1.0, 2.0], [0.0, 0.0]], [3.0, 1.0])
    assert R.tolist() == [5.0, 0.0] and Q.tolist() == [5.0, 0.0]
    with pytest.raises(ValueError, match="do not fit"):
        overlap_and_norm([[1.0, 2.0]], [1.0, 2.0, 3.0])
