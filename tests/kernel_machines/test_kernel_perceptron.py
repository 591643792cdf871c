"""Tests of lecture_pkg.kernel_machines.kernel_perceptron: the dual and kernel perceptron."""

import warnings

import numpy as np
import pytest
from sklearn.datasets import make_circles
from sklearn.exceptions import ConvergenceWarning

from lecture_pkg.datasets import two_spirals
from lecture_pkg.kernel_machines import (KernelPerceptron, dual_perceptron, explicit_perceptron,
                                         gamma_from_sigma, kernel_perceptron, polynomial_kernel,
                                         quadratic_feature_map, rbf_kernel)
from lecture_pkg.linear import Perceptron, augment


@pytest.fixture(scope="module")
def circles():
    X, y = make_circles(60, factor=0.5, noise=0.05, random_state=1)
    return X, np.where(y == 1, 1.0, -1.0)


@pytest.mark.parametrize("bias", [True, False])
@pytest.mark.parametrize("order", [None, "random"])
def test_explicit_and_data_dependent_forms_agree_for_a_finite_feature_map(circles, bias, order):
    """F.1: same updates, w = sum alpha_i phi(x_i), identical decisions."""
    X, y = circles
    Phi = quadratic_feature_map(X)
    K = polynomial_kernel(X, degree=2)
    dd = kernel_perceptron(K, y, bias=bias, order=order, random_state=5)
    ex = explicit_perceptron(Phi, y, bias=bias, order=order, random_state=5)
    assert dd.converged and ex.converged
    np.testing.assert_array_equal(dd.counts, ex.counts)
    np.testing.assert_allclose(dd.alpha @ Phi, ex.weights, atol=1e-9)
    assert dd.bias == ex.bias
    T = np.random.default_rng(0).normal(size=(200, 2))
    f_dd = polynomial_kernel(T, X, degree=2) @ dd.alpha + dd.bias
    f_ex = quadratic_feature_map(T) @ ex.weights + ex.bias
    np.testing.assert_array_equal(f_dd >= 0, f_ex >= 0)


def test_bias_update_is_the_dual_perceptron_on_k_plus_one(circles):
    X, y = circles
    K = rbf_kernel(X, gamma=2.0)
    run = kernel_perceptron(K, y, bias=True, convention="mooney")
    ref = dual_perceptron(K + 1.0, y, convention="mooney")
    np.testing.assert_array_equal(run.counts, ref.counts)
    assert run.bias == pytest.approx(float(y @ run.counts))              # b = sum alpha (eq. 4)
    nobias = kernel_perceptron(K, y, bias=False, convention="mooney")
    np.testing.assert_array_equal(nobias.counts, dual_perceptron(K, y, convention="mooney").counts)
    assert nobias.bias == 0.0


def test_alpha_are_eta_times_signed_integer_counts_and_eta_only_rescales(circles):
    X, y = circles
    K = polynomial_kernel(X, degree=2)
    one = kernel_perceptron(K, y)
    half = kernel_perceptron(K, y, eta=0.5)
    np.testing.assert_array_equal(one.counts, half.counts)
    np.testing.assert_allclose(half.alpha, 0.5 * y * one.counts)
    assert half.bias == pytest.approx(0.5 * one.bias)
    assert np.all(one.counts >= 0) and one.n_updates == one.counts.sum()


def test_zero_training_error_on_the_spirals():
    X, y = two_spirals()
    K = rbf_kernel(X, sigma=0.8, convention="friess")
    run = kernel_perceptron(K, y)
    assert run.converged
    assert np.all(y * (K @ run.alpha + run.bias) > 0)


def test_non_separable_data_stop_unconverged():
    K = np.ones((2, 2))                      # two identical patterns with opposite labels
    run = kernel_perceptron(K, np.array([1.0, -1.0]), max_epochs=5)
    assert not run.converged
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        m = KernelPerceptron(kernel="linear", max_epochs=3).fit([[0.0], [0.0], [1.0]], [0, 1, 0])
    assert not m.converged_
    assert any(issubclass(w.category, ConvergenceWarning) for w in caught)


def test_bad_input_is_refused():
    y = np.array([1.0, -1.0])
    with pytest.raises(ValueError, match="shape"):
        kernel_perceptron(np.eye(3), y)
    with pytest.raises(ValueError, match="NaN"):
        kernel_perceptron(np.array([[1.0, np.nan], [np.nan, 1.0]]), y)
    with pytest.raises(ValueError, match="eta"):
        kernel_perceptron(np.eye(2), y, eta=0)
    with pytest.raises(ValueError, match="max_epochs"):
        kernel_perceptron(np.eye(2), y, max_epochs=0)
    with pytest.raises(ValueError, match="labels"):
        kernel_perceptron(np.eye(2), np.array([0, 1]))
    with pytest.raises(ValueError, match="rows"):
        explicit_perceptron(np.eye(3), y)
    with pytest.raises(ValueError, match="convention"):
        KernelPerceptron(convention="x").fit([[0.0], [1.0]], [0, 1])


def test_estimator_matches_the_function_and_precomputed(circles):
    X, y = circles
    g = gamma_from_sigma(0.5, "friess")
    m = KernelPerceptron(gamma=g, shuffle=True, random_state=3).fit(X, y)
    run = kernel_perceptron(rbf_kernel(X, gamma=g), y, order="random", random_state=3)
    np.testing.assert_array_equal(m.counts_, run.counts)
    T = np.random.default_rng(1).normal(size=(30, 2))
    np.testing.assert_allclose(m.decision_function(T), rbf_kernel(T, X,
                                                                  gamma=g) @ run.alpha + run.bias)
    pre = KernelPerceptron(kernel="precomputed", shuffle=True, random_state=3).fit(
        rbf_kernel(X, gamma=g), y)
    np.testing.assert_allclose(pre.decision_function(rbf_kernel(T, X, gamma=g)),
                               m.decision_function(T))
    assert m.score(X, y) == 1.0 and m.converged_


THREE_POINTS = (np.array([[2.0, -1.0], [2.0, 1.0], [1.0, 3.0]]), np.array([1, 1, -1]))


# ---------------------------------------------------------------- dual perceptron (Mooney)

def test_dual_perceptron_trace_of_the_slides():
    X, y = THREE_POINTS
    Xa = augment(X)
    run = dual_perceptron(Xa @ Xa.T, y, record_trace=True)
    assert run.converged and run.n_steps == 8
    assert run.counts.tolist() == [0, 1, 1]
    assert [row[2] for row in run.trace] == [0, 0, 0, 0, -6, -5, 4, 0]
    assert [row[3] for row in run.trace] == [False, False, True, False, True, False, False, False]
    # the estimator: the bias of the kernel K + 1 is the augmented input of the slides
    m = KernelPerceptron(kernel="linear", convention="mooney").fit(X, y)
    assert m.counts_.tolist() == [0, 1, 1] and m.n_steps_ == 8 and m.intercept_ == 0.0
    assert (m.dual_coef_ @ m.support_vectors_).tolist() == [[1.0, -2.0]]
    np.testing.assert_allclose(m.decision_function(X), [4.0, 0.0, -5.0])


@pytest.mark.parametrize("convention", ["mooney", "biehl"])
def test_kernel_perceptron_equals_primal_perceptron_on_the_feature_map(convention):
    X, y = make_circles(60, factor=0.5, noise=0.05, random_state=1)
    y = np.where(y == 1, 1, -1)
    Phi = quadratic_feature_map(X)
    run = dual_perceptron(polynomial_kernel(X, degree=2), y, convention=convention)
    assert run.converged
    # an independent primal loop with the same convention
    w, n, clean, k = np.zeros(Phi.shape[1]), np.zeros(len(y), int), 0, 0
    while clean < len(y):
        s = Phi[k] @ w
        wrong = (y[k] * s <= 0) if convention == "biehl" else ((1 if s >= 0 else -1) != y[k])
        if wrong:
            w += y[k] * Phi[k]
            n[k] += 1
            clean = 0
        else:
            clean += 1
        k = (k + 1) % len(y)
    assert run.counts.tolist() == n.tolist()
    np.testing.assert_allclose((run.counts * y) @ Phi, w, atol=1e-9)
    if convention == "biehl":
        p = Perceptron(fit_intercept=False, max_epochs=1000).fit(Phi, y)
        assert p.update_counts_.tolist() == n.tolist()


def test_dual_perceptron_warns_on_non_separable_data():
    X = np.array([[0.0, 0.0], [0.0, 1.0], [1.0, 0.0], [1.0, 1.0]])
    y = np.array([-1, 1, 1, -1])
    with pytest.warns(ConvergenceWarning, match="not separable"):
        m = KernelPerceptron(kernel="linear", convention="mooney", max_epochs=20).fit(X, y)
    assert not m.converged_
    quad = KernelPerceptron(kernel="poly", degree=2, convention="mooney").fit(X, y)
    assert quad.score(X, y) == 1.0
