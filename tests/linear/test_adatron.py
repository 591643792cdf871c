"""Tests of lecture_pkg.linear.adatron: the AdaTron against a reference QP and scikit-learn's
SVC, its sequential, parallel and greedy modes, and its support vectors (Biehl §3.6.3--3.6.4)."""

import numpy as np
import pytest
from sklearn.exceptions import ConvergenceWarning
from sklearn.svm import SVC

from lecture_pkg import datasets
from lecture_pkg.linear import (Adaline, AdaTron, MinOver, augment, geometric_margin,
                                max_margin_hyperplane)


def angle(a, b):
    """Angle between two vectors in units of pi."""
    cos = a @ b / np.linalg.norm(a) / np.linalg.norm(b)
    return float(np.arccos(np.clip(cos, -1, 1)) / np.pi)


def test_support_vectors_alone_reproduce_the_weights(adatron_solution, teacher_data):
    """O.3: the minimum-norm solution of E = 1 on the support vectors is w_max."""
    X, y = teacher_data
    sv = adatron_solution.support_
    w_sv = np.linalg.pinv(X[sv]) @ y[sv]
    np.testing.assert_allclose(w_sv, adatron_solution.coef_, atol=1e-8)
    # Adaline trained on the support vectors only gives the same weights
    ada = Adaline(solver="sequential", normalize=True, eta=1.0, fit_intercept=False,
                  max_epochs=5000, tol=1e-14).fit(X[sv], y[sv])
    np.testing.assert_allclose(ada.coef_, adatron_solution.coef_, atol=1e-8)
    # removing a non-support vector changes nothing
    keep = np.ones(len(y), bool)
    keep[np.setdiff1d(np.arange(len(y)), sv)[0]] = False
    again = AdaTron(fit_intercept=False).fit(X[keep], y[keep])
    np.testing.assert_allclose(again.coef_, adatron_solution.coef_, atol=1e-8)
    # removing a support vector generally does
    keep = np.ones(len(y), bool)
    keep[sv[0]] = False
    other = AdaTron(fit_intercept=False).fit(X[keep], y[keep])
    assert np.linalg.norm(other.coef_ - adatron_solution.coef_) > 1e-4


def test_adatron_agrees_with_reference_qp_and_svc(adatron_solution, teacher_data):
    """O.1: AdaTron, the SLSQP reference and scikit-learn's SVC find the same hyperplane."""
    X, y = teacher_data
    w_ref, _, gamma = max_margin_hyperplane(X, y, fit_intercept=False)
    at = adatron_solution
    assert angle(at.coef_, w_ref) < 1e-6
    assert at.kappa_ == pytest.approx(gamma, abs=1e-6)
    # SVC always fits an intercept; on the data together with their mirror images
    # (-x, -y) the optimal intercept is 0 and the homogeneous optimum is unchanged.
    svc = SVC(kernel="linear", C=1e6, tol=1e-6).fit(np.vstack([X, -X]), np.r_[y, -y])
    assert abs(svc.intercept_[0]) < 1e-3
    assert angle(at.coef_, svc.coef_[0]) < 1e-4
    assert 1 / np.linalg.norm(svc.coef_[0]) == pytest.approx(gamma, rel=1e-3)


def test_adatron_parallel_equals_sequential_and_its_cost_increases(adatron_solution, teacher_data):
    X, y = teacher_data
    par = AdaTron(mode="parallel", fit_intercept=False, max_epochs=20000).fit(X, y)
    assert par.converged_
    np.testing.assert_allclose(par.coef_, adatron_solution.coef_, atol=1e-6)
    # the dual cost increases (the source says "decrease"), epoch by epoch
    assert np.all(np.diff(par.objective_history_) >= -1e-12)
    assert par.objective_history_[-1] > par.objective_history_[1]


def test_greedy_adatron_equals_sequential_and_satisfies_the_conditions(adatron_solution,
                                                                       teacher_data):
    X, y = teacher_data
    greedy = AdaTron(mode="greedy", fit_intercept=False, tol=1e-10, max_epochs=20000).fit(X, y)
    assert greedy.converged_
    np.testing.assert_allclose(greedy.coef_, adatron_solution.coef_, atol=1e-6)
    assert greedy.kkt_.max() <= 1e-8
    assert np.all(np.diff(greedy.objective_history_) >= -1e-12)


def test_adatron_with_intercept_solves_the_augmented_problem():
    X, y = datasets.koski_example()
    at = AdaTron().fit(X, y)
    w_aug, _, gamma = max_margin_hyperplane(augment(X), y, fit_intercept=False)
    assert at.converged_ and at.score(X, y) == 1.0
    assert angle(np.r_[at.intercept_, at.coef_], w_aug) < 1e-6
    assert at.kappa_ == pytest.approx(gamma, abs=1e-7)
    assert geometric_margin(X, y, at.coef_, at.intercept_) > 0


def test_non_separable_data_stop_at_the_limit_with_a_warning():
    X, y = datasets.xor()
    with pytest.warns(ConvergenceWarning, match="not linearly separable"):
        at = AdaTron(max_epochs=200).fit(X, y)
    assert not at.converged_ and at.n_epochs_ == 200 and at.kkt_.constraint > 0
    with pytest.warns(ConvergenceWarning, match="not linearly separable"):
        mo = MinOver(max_steps=3000).fit(X, y)
    assert not mo.converged_ and mo.n_steps_ == 3000 and mo.kappa_ <= 0


def test_greedy_adatron_needs_a_positive_tol_and_says_so():
    X, y = datasets.koski_example()
    with pytest.raises(ValueError,
                       match=r"AdaTron: mode='greedy' needs tol > 0, got tol=0") as info:
        AdaTron(mode="greedy", tol=0).fit(X, y)
    assert "kkt_tol" not in str(info.value)
    assert AdaTron(mode="greedy", tol=1e-8).fit(X, y).converged_
