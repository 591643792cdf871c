"""Tests of lecture_pkg.prototypes.distances: Biehl eqs. (5.10)-(5.15) against scipy and by hand."""

from functools import partial

import numpy as np
import pytest
from scipy.spatial.distance import cdist

from lecture_pkg.kernel_machines import linear_kernel, polynomial_kernel, rbf_kernel
from lecture_pkg.prototypes import (euclidean, inner_product_distance, kernel_distance,
                                    mahalanobis_matrix, minkowski, quadratic_form_distance,
                                    relevance_distance, relevance_distance_gradients,
                                    squared_euclidean)


@pytest.fixture
def data():
    rng = np.random.default_rng(0)
    return rng.normal(size=(30, 4)), rng.normal(size=(5, 4))


def test_squared_euclidean_and_euclidean_match_scipy(data):
    X, W = data
    D = squared_euclidean(X, W)
    assert D.shape == (30, 5)
    np.testing.assert_allclose(D, cdist(X, W, "sqeuclidean"), atol=1e-12)
    np.testing.assert_allclose(euclidean(X, W), cdist(X, W), atol=1e-12)
    assert np.all(np.diag(squared_euclidean(X, X)) == 0.0)   # exactly zero from differences


@pytest.mark.parametrize("p", [1, 1.5, 2, 3, 7.5])
def test_minkowski_matches_scipy(data, p):
    X, W = data
    np.testing.assert_allclose(minkowski(X, W, p), cdist(X, W, "minkowski", p=p), rtol=1e-12,
                               atol=1e-12)


def test_minkowski_p2_is_euclidean_and_limits(data):
    """V.5: p = 2 is the Euclidean distance; p -> infinity gives the maximum norm."""
    X, W = data
    np.testing.assert_allclose(minkowski(X, W, 2), euclidean(X, W), atol=1e-12)
    cheb = minkowski(X, W, np.inf)
    np.testing.assert_allclose(cheb, cdist(X, W, "chebyshev"), atol=1e-12)
    np.testing.assert_allclose(minkowski(X, W, 400.0), cheb, rtol=2e-2)
    # non-increasing in p
    values = np.stack([minkowski(X, W, p) for p in (1, 2, 3, 10, np.inf)])
    assert np.all(np.diff(values, axis=0) <= 1e-12)


def test_minkowski_large_p_does_not_overflow():
    X = np.array([[1e3, 0.0]])
    assert minkowski(X, np.zeros((1, 2)), 300.0)[0, 0] == pytest.approx(1e3)


def test_minkowski_rejects_bad_p(data):
    X, W = data
    for p in (0, -1, "2"):
        with pytest.raises(ValueError, match="'p' must be a number in"):
            minkowski(X, W, p)


def test_inner_product_form_equals_squared_euclidean(data):
    """Eq. (5.11)."""
    X, W = data
    np.testing.assert_allclose(inner_product_distance(X, W), squared_euclidean(X, W), atol=1e-12)
    assert np.all(inner_product_distance(X, X) >= 0)


def test_linear_kernel_distance_is_squared_euclidean(data):
    """V.5: eq. (5.12) with kappa(a, b) = a . b gives back (5.11)."""
    X, W = data
    np.testing.assert_allclose(kernel_distance(X, W, linear_kernel), squared_euclidean(X, W),
                               atol=1e-12)


def test_rbf_kernel_distance_formula_and_range(data):
    X, W = data
    sigma = 0.8
    d = kernel_distance(X, W, partial(rbf_kernel, sigma=sigma))
    np.testing.assert_allclose(d, 2 - 2 * np.exp(-squared_euclidean(X, W) / (2 * sigma**2)),
                               atol=1e-12)
    assert np.all((d >= 0) & (d < 2))
    with pytest.raises(ValueError, match="sigma"):
        rbf_kernel(X, W, sigma=0.0)


def test_polynomial_kernel_distance_equals_explicit_feature_map():
    """(1 + a.b)^2 has an explicit 6-d feature map in 2-d: the kernel distance is the distance
    there."""
    rng = np.random.default_rng(1)
    X, W = rng.normal(size=(10, 2)), rng.normal(size=(3, 2))

    def phi(A):
        a, b = A[:, 0], A[:, 1]
        r2 = np.sqrt(2)
        return np.c_[np.ones_like(a), r2 * a, r2 * b, a * a, b * b, r2 * a * b]

    np.testing.assert_allclose(kernel_distance(X, W, polynomial_kernel), squared_euclidean(phi(X),
                                                                                           phi(W)),
                               atol=1e-10)


def test_kernel_distance_on_long_inputs_and_bad_kernel():
    rng = np.random.default_rng(2)
    X = rng.normal(size=(600, 2))   # more rows than one diagonal block
    np.testing.assert_allclose(kernel_distance(X, X[:4]), squared_euclidean(X, X[:4]), atol=1e-10)
    with pytest.raises(ValueError, match="kernel returned"):
        kernel_distance(X[:3], X[:2], kernel=lambda A, B: np.zeros((1, 1)))


def test_quadratic_form_and_relevance_distance_agree(data):
    """Eqs. (5.13) and (5.14): (w - xi)^T Omega^T Omega (w - xi) = [Omega (w - xi)]^2."""
    X, W = data
    rng = np.random.default_rng(3)
    omega = rng.normal(size=(4, 4))
    D = relevance_distance(X, W, omega)
    np.testing.assert_allclose(D, quadratic_form_distance(X, W, omega.T @ omega), atol=1e-10)
    manual = np.array([[np.sum((omega @ (w - x)) ** 2) for w in W] for x in X])
    np.testing.assert_allclose(D, manual, atol=1e-10)
    assert np.all(D >= 0)
    # Omega = I / sqrt(N) gives the Euclidean distance divided by N
    np.testing.assert_allclose(relevance_distance(X, W, np.eye(4) / 2), squared_euclidean(X, W) / 4,
                               atol=1e-12)


def test_low_rank_omega_is_a_pseudo_metric():
    omega = np.array([[1.0, 0.0, 0.0]])           # only the first feature counts
    x, w = np.array([[0.0, 1.0, 2.0]]), np.array([[0.0, -5.0, 3.0]])
    assert relevance_distance(x, w, omega)[0, 0] == 0.0   # distance 0 although w != xi


def test_mahalanobis_matches_scipy():
    rng = np.random.default_rng(4)
    X = rng.normal(size=(200, 3)) @ np.array([[2.0, 0, 0], [0.5, 1.0, 0], [0, 0.3, 0.2]])
    VI = np.linalg.inv(np.cov(X, rowvar=False))
    omega = mahalanobis_matrix(X)
    np.testing.assert_allclose(omega.T @ omega, VI, rtol=1e-8)
    np.testing.assert_allclose(relevance_distance(X[:5], X[5:8], omega),
                               cdist(X[:5], X[5:8], "mahalanobis", VI=VI) ** 2, rtol=1e-8)
    with pytest.raises(ValueError, match="singular"):
        mahalanobis_matrix(np.c_[X[:, 0], X[:, 0]])


def test_relevance_gradients_match_finite_differences():
    """The corrected eq. (5.15): 2 Lambda (w - xi) and 2 Omega (w - xi)(w - xi)^T."""
    rng = np.random.default_rng(5)
    xi, w, omega = rng.normal(size=3), rng.normal(size=3), rng.normal(size=(2, 3))

    def delta(w_, om_):
        return float(np.sum((om_ @ (w_ - xi)) ** 2))

    gw, go = relevance_distance_gradients(xi, w, omega)
    h = 1e-6
    fd_w = np.array([(delta(w + h * e, omega) - delta(w - h * e,
                                                      omega)) / (2 * h) for e in np.eye(3)])
    fd_o = np.zeros_like(omega)
    for idx in np.ndindex(omega.shape):
        E = np.zeros_like(omega)
        E[idx] = h
        fd_o[idx] = (delta(w, omega + E) - delta(w, omega - E)) / (2 * h)
    np.testing.assert_allclose(gw, fd_w, atol=1e-7)
    np.testing.assert_allclose(go, fd_o, atol=1e-7)
    # the printed (5.15) has the opposite sign and half the size
    assert not np.allclose(gw, omega.T @ omega @ (xi - w))


def test_bad_shapes_are_refused(data):
    X, W = data
    with pytest.raises(ValueError, match="features"):
        squared_euclidean(X, W[:, :3])
    with pytest.raises(ValueError, match="2-d"):
        squared_euclidean(np.zeros((2, 2, 2)), W)
    with pytest.raises(ValueError, match="Lambda"):
        quadratic_form_distance(X, W, np.eye(3))
    with pytest.raises(ValueError, match="Omega"):
        relevance_distance(X, W, np.eye(3))
    with pytest.raises(ValueError, match="xi, w"):
        relevance_distance_gradients(np.zeros(3), np.zeros(4), np.eye(3))
    # single vectors are accepted as one row
    assert squared_euclidean(np.array([0.0, 0.0]), np.array([3.0, 4.0])).tolist() == [[25.0]]
