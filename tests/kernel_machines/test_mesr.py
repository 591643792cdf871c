"""Tests of lecture_pkg.kernel_machines.mesr: minimal expansion set reduction
(Frieß and Harrison §3)."""

import warnings

import numpy as np
import pytest
from sklearn.svm import SVC

from lecture_pkg.datasets import two_spirals
from lecture_pkg.kernel_machines import (NoReductionWarning, expansion_rank, feature_space_residual,
                                         linear_kernel, loo_ratio, mesr, polynomial_kernel,
                                         quadratic_feature_map, rbf_kernel, row_dependency, t_mesr)


def test_poly2_in_the_plane_keeps_six_vectors_and_f_unchanged():
    """F.3: (1 + x.y)^2 in R^2 has a 6-dimensional feature space: 20 -> 6, |Delta f| < 1e-8."""
    rng = np.random.default_rng(0)
    X, beta, T = rng.normal(size=(20, 2)), rng.normal(size=20), rng.normal(size=(50, 2))
    res = mesr(polynomial_kernel(X, degree=2), beta)
    assert res.rank == 6 == expansion_rank(polynomial_kernel(X, degree=2))
    assert len(res.removed) == 14 and sorted(np.r_[res.kept, res.removed]) == list(range(20))
    assert res.decision_change(polynomial_kernel(T, X, degree=2), beta) < 1e-8
    assert res.change_on_vectors < 1e-8
    # the new expansion equals the old weight vector in the explicit feature space
    Phi = quadratic_feature_map(X)
    np.testing.assert_allclose(res.beta @ Phi[res.kept], beta @ Phi, atol=1e-9)
    np.testing.assert_allclose(res.full_beta()[res.kept], res.beta)
    assert np.all(res.full_beta()[res.removed] == 0)


def test_linear_kernel_keeps_two_in_the_plane():
    rng = np.random.default_rng(1)
    X, beta = rng.normal(size=(15, 2)), rng.normal(size=15)
    res = mesr(linear_kernel(X), beta)
    assert res.rank == 2
    np.testing.assert_allclose(res.beta @ X[res.kept], beta @ X, atol=1e-12)


def test_rbf_removes_exactly_the_duplicates():
    rng = np.random.default_rng(2)
    X = rng.normal(size=(5, 2))
    Xd = np.vstack([X, X[[0, 2, 4]]])                  # 8 vectors, 3 repeated
    beta = rng.normal(size=8)
    res = mesr(rbf_kernel(Xd, gamma=0.7), beta)
    assert res.rank == 5 and sorted(res.removed) == [5, 6, 7]
    T = rng.normal(size=(40, 2))
    assert res.decision_change(rbf_kernel(T, Xd, gamma=0.7), beta) < 1e-12


def test_no_dependency_is_reported_never_a_silent_change():
    X, y = two_spirals()
    K = rbf_kernel(X, sigma=0.8, convention="friess")
    with pytest.warns(NoReductionWarning, match=r"nothing could be removed.*tol=1e-10"):
        res = mesr(K, y)
    assert res.rank == 194 and len(res.removed) == 0
    np.testing.assert_array_equal(res.beta, y)
    assert res.change_bound == 0.0 and res.change_on_vectors <= 1e-12
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        quiet = mesr(K, y, warn=False)
    assert "nothing could be removed" in quiet.message


def test_loose_tolerance_is_lossy_but_bounded():
    X, y = two_spirals()
    K = rbf_kernel(X, sigma=0.8, convention="friess")
    res = mesr(K, y, tol=1e-3, warn=False)
    assert res.rank < 194
    rng = np.random.default_rng(0)
    T = rng.uniform(-6.5, 6.5, size=(300, 2))
    change = res.decision_change(rbf_kernel(T, X, sigma=0.8, convention="friess"), y)
    assert 0 < change <= res.change_bound + 1e-12          # k(x, x) = 1 for the RBF kernel
    assert np.all(res.residuals <= np.sqrt(1e-3) + 1e-12)


def test_priority_decides_which_dependent_vector_goes():
    X = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
    beta = np.array([1.0, 2.0, 3.0])
    K = linear_kernel(X)
    assert mesr(K, beta).removed.tolist() == [2]
    res = mesr(K, beta, priority=[5.0, 0.0, 0.0])          # vector 0 has the largest "slack"
    assert res.removed.tolist() == [0]
    np.testing.assert_allclose(res.beta @ X[res.kept], beta @ X)


def test_theorem1_feature_space_and_row_dependencies_coincide():
    rng = np.random.default_rng(3)
    X = rng.normal(size=(7, 2))                        # 6 independent features + a 7th
    Phi = quadratic_feature_map(X)
    M = polynomial_kernel(X, degree=2)
    gamma, *_ = np.linalg.lstsq(Phi[:6].T, Phi[6], rcond=None)
    assert np.linalg.norm(Phi[:6].T @ gamma - Phi[6]) < 1e-9      # (19) holds
    delta, res = row_dependency(M, 6, range(6))
    assert res < 1e-10
    np.testing.assert_allclose(delta, gamma, atol=1e-8)              # (21): gamma = delta
    assert abs(feature_space_residual(M, 6, range(6), delta)) < 1e-8
    # an independent pair has a positive residual
    assert feature_space_residual(M, 0, [1], [0.0]) == pytest.approx(M[0, 0])


def test_compression_ratio_never_exceeds_the_loo_ratio():
    rng = np.random.default_rng(4)
    X = rng.normal(size=(60, 2))
    y = np.where(X[:, 0] ** 2 + X[:, 1] ** 2 > 1.2, 1, -1)
    svm = SVC(kernel="poly", degree=2, gamma=1.0, coef0=1.0, C=1e4).fit(X, y)
    sv = X[svm.support_]
    res = mesr(polynomial_kernel(sv, degree=2), svm.dual_coef_[0], warn=False)
    assert res.rank <= 6
    assert t_mesr(res.rank, len(y)) <= loo_ratio(len(svm.support_), len(y))
    T = rng.normal(size=(50, 2))
    f_new = polynomial_kernel(T, sv[res.kept], degree=2) @ res.beta + svm.intercept_[0]
    np.testing.assert_allclose(f_new, svm.decision_function(T), atol=1e-7)


def test_bad_input_is_refused():
    with pytest.raises(ValueError, match="square"):
        mesr(np.ones((2, 3)), [1.0, 1.0])
    with pytest.raises(ValueError, match="NaN"):
        mesr(np.array([[1.0, np.nan], [np.nan, 1.0]]), [1.0, 1.0])
    with pytest.raises(ValueError, match="beta"):
        mesr(np.eye(2), [1.0])
    with pytest.raises(ValueError, match="tol"):
        mesr(np.eye(2), [1.0, 1.0], tol=0)
    with pytest.raises(ValueError, match="priority"):
        mesr(np.eye(2), [1.0, 1.0], priority=[1.0])
    with pytest.raises(ValueError, match="negative diagonal"):
        mesr(-np.eye(2), [1.0, 1.0])
    with pytest.raises(ValueError, match="cannot be one"):
        row_dependency(np.eye(3), 1, [0, 1])
    with pytest.raises(ValueError, match="rank"):
        t_mesr(5, 3)
    with pytest.raises(ValueError, match="n_support"):
        loo_ratio(4, 3)
    with pytest.raises(ValueError, match="column"):
        mesr(np.eye(2), [1.0, 1.0], warn=False).decision_change(np.ones((3, 3)), [1.0, 1.0])
