"""Tests of lecture_pkg.core.kernels: the kernels, Gram matrices, Mercer checks, feature maps
and the memory a Gram matrix needs."""

import math
import warnings

import numpy as np
import pytest
from sklearn.metrics.pairwise import polynomial_kernel as sk_poly, rbf_kernel as sk_rbf

from lecture_pkg.kernel_machines import (DIETRICH_NORMAL, NotPSDError, NotPSDWarning, check_gram,
                                         dietrich_map, gamma_from_sigma, is_psd, kernel_matrix,
                                         linear_kernel, min_eigenvalue,
                                         polynomial_feature_dimension, polynomial_kernel,
                                         quadratic_feature_map, rbf_kernel, monomial_exponents,
                                         polynomial_feature_map)
from lecture_pkg.linear import is_linearly_separable
from lecture_pkg.core import kernels as kernels_module
from tests.helpers import kernel_problem, peak_bytes


@pytest.fixture(scope="module")
def data():
    rng = np.random.default_rng(0)
    return rng.normal(size=(25, 4)), rng.normal(size=(7, 4))


def test_kernels_equal_scikit_learn(data):
    A, B = data
    np.testing.assert_allclose(linear_kernel(A, B), A @ B.T)
    np.testing.assert_allclose(polynomial_kernel(A, B, degree=3, coef0=1.0),
                               sk_poly(A, B, degree=3, gamma=1.0, coef0=1.0), rtol=1e-12)
    np.testing.assert_allclose(rbf_kernel(A, B, gamma=0.3), sk_rbf(A, B, gamma=0.3), rtol=1e-12)


def test_width_conventions_of_the_sources(data):
    A, B = data
    d2 = ((A[:, None, :] - B[None]) ** 2).sum(-1)
    sigma = 0.7
    np.testing.assert_allclose(rbf_kernel(A, B, sigma=sigma), np.exp(-d2 / (2 * sigma ** 2)))
    np.testing.assert_allclose(rbf_kernel(A, B, sigma=sigma, convention="friess"),
                               np.exp(-d2 / sigma ** 2))
    assert gamma_from_sigma(0.5) == pytest.approx(2.0)
    assert gamma_from_sigma(0.5, "mooney") == pytest.approx(2.0)
    assert gamma_from_sigma(0.5, "friess") == pytest.approx(4.0)
    with pytest.raises(ValueError, match="convention"):
        gamma_from_sigma(1.0, "other")
    with pytest.raises(ValueError, match="not both"):
        rbf_kernel(A, gamma=1.0, sigma=1.0)
    np.testing.assert_allclose(rbf_kernel(A), sk_rbf(A, gamma=1 / 4))     # default 1/N


def test_gram_matrices_are_psd_and_rbf_diagonal_is_one(data):
    A, _ = data
    for K in (linear_kernel(A), polynomial_kernel(A, degree=2), polynomial_kernel(A, degree=5),
              rbf_kernel(A, gamma=0.1), rbf_kernel(A, gamma=10.0)):
        assert min_eigenvalue(K) >= -1e-10 * max(1, np.abs(K).max())
        assert is_psd(K)
    assert np.all(np.diag(rbf_kernel(A, gamma=3.0)) == 1.0)


def test_non_psd_gram_matrix_is_refused(data):
    A, _ = data
    bad = -((A[:, None, :] - A[None]) ** 2).sum(-1)          # -|a-b|^2 is no kernel
    assert not is_psd(bad)
    with pytest.raises(NotPSDError, match="Mercer"):
        check_gram(bad)
    with pytest.warns(NotPSDWarning, match="positive semi-definite"):
        check_gram(bad, action="warn")
    with pytest.raises(NotPSDError, match="symmetric"):
        check_gram(np.array([[1.0, 2.0], [0.0, 1.0]]))
    with pytest.raises(ValueError, match="square"):
        check_gram(np.ones((2, 3)))
    with pytest.raises(ValueError, match="NaN"):
        check_gram(np.array([[np.nan]]))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check_gram(rbf_kernel(A), action="warn")              # a valid kernel passes silently


def test_quadratic_feature_map_reproduces_the_kernel_4_30(data):
    A, B = data
    for N in (1, 2, 4):
        Pa, Pb = quadratic_feature_map(A[:, :N]), quadratic_feature_map(B[:, :N])
        assert Pa.shape[1] - 1 == N * (N + 3) // 2 == polynomial_feature_dimension(N, 2) - 1
        np.testing.assert_allclose(Pa @ Pb.T, (1 + A[:, :N] @ B[:, :N].T) ** 2, rtol=1e-12,
                                   atol=1e-12)
    assert quadratic_feature_map(A).shape[1] - 1 == 14       # N = 4: 4 + 4 + 6


def test_polynomial_feature_dimension_counts_monomials():
    from itertools import combinations_with_replacement
    for n in (1, 2, 3, 5):
        for m in (1, 2, 3):
            count = sum(1 for d in range(m + 1) for _ in combinations_with_replacement(range(n), d))
            assert polynomial_feature_dimension(n, m) == count == math.comb(n + m, m)
    with pytest.raises(ValueError):
        polynomial_feature_dimension(0, 2)


def test_dietrich_map_separates_what_the_plane_cannot():
    rng = np.random.default_rng(2)
    X = rng.uniform(-1, 1, size=(300, 2))
    Psi = dietrich_map(X)
    y = np.where(Psi @ DIETRICH_NORMAL >= 0, 1, -1)
    assert np.all(y * (Psi @ DIETRICH_NORMAL) >= 0)
    assert not is_linearly_separable(X, y)
    assert not is_linearly_separable(X, y, fit_intercept=False)
    np.testing.assert_allclose(Psi @ Psi.T, (X @ X.T) ** 2, atol=1e-12)     # homogeneous kernel
    np.testing.assert_allclose(dietrich_map(X, squared=False)[:, 2], X[:, 1])
    with pytest.raises(ValueError, match="2-d"):
        dietrich_map(np.ones((3, 3)))


def test_kernel_matrix_by_name_and_callable(data):
    A, B = data
    np.testing.assert_allclose(kernel_matrix(A, B, "poly", degree=2), polynomial_kernel(A, B))
    np.testing.assert_allclose(kernel_matrix(A, B, lambda a, b: a @ b.T), A @ B.T)
    with pytest.raises(ValueError, match="'kernel' must be one of 'linear', 'poly', 'rbf' or a "
                                         "callable; got 'sigmoid'"):
        kernel_matrix(A, B, "sigmoid")
    with pytest.raises(ValueError, match="shape"):
        kernel_matrix(A, B, lambda a, b: np.ones((2, 2)))
    with pytest.raises(TypeError):
        kernel_matrix(A, B, 3)
    with pytest.raises(ValueError, match="features"):
        linear_kernel(A, B[:, :2])
    with pytest.raises(ValueError, match="degree"):
        polynomial_kernel(A, degree=0)
    with pytest.raises(ValueError, match="gamma"):
        rbf_kernel(A, gamma=-1.0)


@pytest.mark.parametrize("n, m", [(1, 1), (1, 4), (2, 2), (2, 3), (3, 4), (5, 3), (4, 0)])
def test_monomial_map_has_binomial_dimension_and_reproduces_the_kernel(n, m):
    rng = np.random.default_rng(n * 10 + m)
    A, B = rng.normal(size=(9, n)), rng.normal(size=(6, n))
    PA, PB = polynomial_feature_map(A, m), polynomial_feature_map(B, m)
    assert PA.shape == (9, math.comb(n + m, m)) == (9, polynomial_feature_dimension(n, m))
    K = (1.0 + A @ B.T) ** m
    assert np.abs(PA @ PB.T - K).max() <= 1e-10 * max(1.0, np.abs(K).max())
    assert np.allclose(polynomial_kernel(A, B, degree=m) if m > 0 else 1.0, PA @ PB.T)


def test_monomial_exponents_are_distinct_and_complete():
    E = monomial_exponents(3, 3)
    assert len({tuple(r) for r in E}) == len(E) == math.comb(6, 3)
    assert E.min() >= 0 and E.sum(axis=1).max() == 3
    assert np.all(np.diff(E.sum(axis=1)) >= 0)          # ordered by total degree
    assert E[0].tolist() == [0, 0, 0] and E[1].tolist() == [1, 0, 0]


def test_monomial_map_coefficients_are_the_multinomial_ones():
    # (1 + a.b)^2 in N = 2: features 1, sqrt2 x1, sqrt2 x2, x1^2, sqrt2 x1 x2, x2^2
    x = np.array([[3.0, 5.0]])
    expected = [1, np.sqrt(2) * 3, np.sqrt(2) * 5, 9, np.sqrt(2) * 15, 25]
    assert np.allclose(polynomial_feature_map(x, 2)[0], expected, rtol=1e-15)
    # the same features as Biehl's (4.30) map, in another order
    X = np.random.default_rng(3).normal(size=(5, 3))
    assert np.allclose(np.sort(polynomial_feature_map(X, 2), axis=1),
                       np.sort(quadratic_feature_map(X), axis=1))


def test_monomial_map_with_coef0_and_the_homogeneous_kernel():
    rng = np.random.default_rng(4)
    A = rng.normal(size=(6, 3))
    for c in (0.0, 0.5, 2.5):
        P = polynomial_feature_map(A, 3, coef0=c)
        K = sk_poly(A, A, degree=3, gamma=1.0, coef0=c)
        assert np.abs(P @ P.T - K).max() <= 1e-10 * np.abs(K).max()


def test_squared_features_alone_do_not_give_the_quadratic_kernel():
    # (1, x1^2, x2^2) has no cross term and no linear terms: its inner products differ
    rng = np.random.default_rng(5)
    A = rng.normal(size=(8, 2))
    S = np.c_[np.ones(8), A ** 2]
    assert np.abs(S @ S.T - (1 + A @ A.T) ** 2).max() > 0.1
    # and it cannot separate classes that need a linear term, e.g. x1 > 0
    y = np.where(A[:, 0] > 0, 1, -1)
    assert not is_linearly_separable(S, y, fit_intercept=False)
    assert is_linearly_separable(polynomial_feature_map(A, 2), y, fit_intercept=False)


@pytest.mark.parametrize("bad", [dict(degree=-1), dict(degree=1.5), dict(coef0=-1.0)])
def test_monomial_map_rejects_bad_parameters(bad):
    params = dict(degree=2, coef0=1.0) | bad
    with pytest.raises((ValueError, TypeError)):
        polynomial_feature_map(np.ones((2, 2)), **params)


P = 1500


def test_the_kernels_are_computed_in_a_single_array():
    X, _ = kernel_problem(P)
    one = P * P * 8
    for kernel in (lambda: rbf_kernel(X, gamma=0.3),
                   lambda: kernels_module.polynomial_kernel(X, degree=3),
                   lambda: kernels_module.linear_kernel(X)):
        assert peak_bytes(kernel) < 1.1 * one


def test_available_memory_reads_proc_meminfo():
    value = kernels_module._available_memory()
    try:
        with open("/proc/meminfo", encoding="ascii") as f:
            readable = any(line.startswith("MemAvailable:") for line in f)
    except OSError:
        readable = False
    if readable:
        assert isinstance(value, int) and value > 0
    else:
        assert value is None
