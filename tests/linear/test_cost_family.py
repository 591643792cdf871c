"""Tests of lecture_pkg.linear.cost_family: the cost family h_k (Biehl's H^[k], §4.1.1), its
limits and its gradient."""

import numpy as np
import pytest
from scipy.optimize import approx_fprime

from lecture_pkg import datasets
from lecture_pkg.linear import Perceptron, cost_hk, cost_hk_gradient, n_errors


def _noisy(seed, P=40, N=5, flip=0.2):
    rng = np.random.default_rng(seed)
    X, y, _ = datasets.teacher_student(P, N, random_state=rng)
    y = np.where(rng.random(P) < flip, -y, y)
    return X, y, rng


def test_hk_by_hand():
    X = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
    y = np.array([1, -1, 1])
    w = np.array([0.5, 1.0])                              # E = 0.5, -1, 1.5
    assert cost_hk(w, X, y, k=1, c=1.0) == pytest.approx(0.5 + 2.0)
    assert cost_hk(w, X, y, k=2, c=1.0) == pytest.approx(0.25 + 4.0)
    assert cost_hk(w, X, y, k=2, c=0.0) == pytest.approx(1.0)
    np.testing.assert_allclose(cost_hk_gradient(w, X, y, k=2, c=1.0),
                               -2 * (0.5 * X[0] - 2.0 * X[1]))


@pytest.mark.parametrize("seed", range(5))
def test_k_to_zero_with_c_zero_counts_the_errors(seed):
    X, y, rng = _noisy(seed)
    w = rng.standard_normal(X.shape[1])
    assert abs(cost_hk(w, X, y, k=1e-9) - n_errors(w, X, y)) < 1e-6


@pytest.mark.parametrize("k", [1.0, 1.5, 2.0, 3.0])
@pytest.mark.parametrize("c", [0.0, 1.0])
def test_gradient_equals_finite_differences(k, c):
    X, y, rng = _noisy(11)
    for _ in range(5):
        w = rng.standard_normal(X.shape[1])
        fd = approx_fprime(w, lambda v: cost_hk(v, X, y, k=k, c=c), 1e-7)
        np.testing.assert_allclose(cost_hk_gradient(w, X, y, k=k, c=c), fd, rtol=1e-5, atol=1e-5)


def test_every_scaled_solution_has_zero_adatron_cost_on_separable_data():
    rng = np.random.default_rng(2)
    X, y, teacher = datasets.teacher_student(30, 4, random_state=rng)
    for w in (teacher, Perceptron(fit_intercept=False).fit(X, y).coef_):
        E = y * (X @ w)
        assert E.min() > 0
        scaled = 1.0 * w / E.min()                        # min E = c = 1 (up to rounding)
        assert cost_hk(2 * scaled, X, y, k=2, c=1.0) == 0.0
        assert cost_hk(0.5 * scaled, X, y, k=2, c=1.0) > 0.0
    assert cost_hk(np.zeros(4), X, y, k=1, c=0.0) == 0.0  # the trivial minimum of the k = 1 cost


def test_cost_checks_its_arguments():
    X = np.eye(2)
    with pytest.raises(ValueError, match="cost_hk: the parameter 'k' must be"):
        cost_hk(np.ones(2), X, [1, -1], k=0)
    with pytest.raises(ValueError, match="do not fit"):
        cost_hk_gradient(np.ones(3), X, [1, -1], k=1)
