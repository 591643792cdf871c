"""The cost family H^[k] (Biehl §4.1.1) and the convex-hull criterion of separability (Koski)."""

import numpy as np
import pytest
from scipy.optimize import approx_fprime
from scipy.spatial import Delaunay

from lecture_pkg import datasets
from lecture_pkg.linear import (Perceptron, boolean_functions, boolean_gate, cost_hk,
                                cost_hk_gradient, hull_intersection, is_linearly_separable,
                                n_errors)


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
    with pytest.raises(ValueError, match="exponent k"):
        cost_hk(np.ones(2), X, [1, -1], k=0)
    with pytest.raises(ValueError, match="do not fit"):
        cost_hk_gradient(np.ones(3), X, [1, -1], k=1)


# ------------------------------------------------------------------ convex hulls

def test_hull_intersection_on_the_boolean_gates():
    for name, table in boolean_functions():
        X, y = boolean_gate(table)
        if len(set(table)) < 2:
            continue
        meet = hull_intersection(X[y == 1], X[y == -1])
        assert (meet is None) == is_linearly_separable(X, y), name
    X, y = boolean_gate("xor")
    np.testing.assert_allclose(hull_intersection(X[y == 1], X[y == -1]), [0.5, 0.5], atol=1e-9)


@pytest.mark.parametrize("seed", range(3))
def test_hulls_disjoint_iff_separable_on_random_sets(seed):
    rng = np.random.default_rng(seed)
    both = 0
    for _ in range(100):
        d = int(rng.integers(2, 4))
        na, nb = rng.integers(1, 10, size=2)
        A = rng.standard_normal((na, d))
        B = rng.standard_normal((nb, d)) + rng.uniform(0, 4) * rng.standard_normal(d) / np.sqrt(d)
        point = hull_intersection(A, B)
        separable = is_linearly_separable(np.vstack([A, B]), np.r_[np.ones(na), -np.ones(nb)])
        assert (point is None) == separable
        if point is not None:                          # the point lies in both hulls
            for S in (A, B):
                if len(S) > d:
                    assert Delaunay(S).find_simplex(point, tol=1e-9) >= 0
        both += separable
    assert 10 < both < 90                              # both answers occur


def test_hull_intersection_checks_dimensions():
    with pytest.raises(ValueError, match="different dimensions"):
        hull_intersection(np.zeros((2, 2)), np.zeros((2, 3)))
