"""Tests of lecture_pkg.kernel_machines.svm: the kernel AdaTron SVM, its bias, and the memory it
needs (the Gram matrix once, or rows on demand)."""

import warnings

import numpy as np
import pytest
from sklearn.datasets import make_circles
from sklearn.exceptions import ConvergenceWarning
from sklearn.svm import SVC

from lecture_pkg.kernel_machines import (KernelAdaTron, KernelPerceptron, NotPSDError,
                                         NotPSDWarning, adatron_embeddings, dual_objective,
                                         gram_of_labels, kernel_adatron, rbf_kernel, svm_decision,
                                         bias_from_support_vector, linear_kernel, primal_weights)
from lecture_pkg.linear import AdaTron
from lecture_pkg.core import kernels as kernels_module
from tests.helpers import kernel_problem, peak_bytes


THREE_POINTS = (np.array([[2.0, -1.0], [2.0, 1.0], [1.0, 3.0]]), np.array([1, 1, -1]))


@pytest.mark.parametrize("mode", ["greedy", "sequential"])
@pytest.mark.parametrize("C, gamma", [(0.5, 1.0), (5.0, 2.0), (20.0, 1.0)])
def test_agrees_with_scikit_learn_svc(moons, C, gamma, mode):
    X, y = moons
    ka = KernelAdaTron(C=C, gamma=gamma, mode=mode, tol=1e-6, max_epochs=100000).fit(X, y)
    sv = SVC(C=C, gamma=gamma, tol=1e-9).fit(X, y)
    assert ka.converged_
    fa, fs = ka.decision_function(X), sv.decision_function(X)
    assert np.abs(fa - fs).max() <= 1e-3 * np.abs(fs).max()
    assert sorted(ka.support_) == sorted(sv.support_)
    np.testing.assert_allclose(np.sort(ka.embeddings_[ka.support_]),
                               np.sort(np.abs(sv.dual_coef_[0])),
                               atol=1e-3 * C)
    assert ka.intercept_ == pytest.approx(sv.intercept_[0], abs=1e-3)
    # KKT: sum X y = 0, 0 <= X <= C, the three cases of E
    assert abs(ka.embeddings_ @ np.where(y == 1, 1, -1)) <= 1e-6
    E = ka.potentials_
    assert np.all(E[ka.embeddings_ == 0] >= 1 - 1e-6)
    assert np.all(np.abs(E[ka.margin_support_] - 1) <= 1e-6)
    assert np.all(E[ka.bound_support_] <= 1 + 1e-6)


@pytest.mark.parametrize("mode", ["greedy", "sequential"])
def test_hard_margin_on_the_three_point_set(mode):
    X, y = THREE_POINTS
    m = KernelAdaTron(C=np.inf, kernel="linear", mode=mode, tol=1e-10, max_epochs=100000).fit(X, y)
    w = m.dual_coef_ @ m.support_vectors_
    np.testing.assert_allclose(w[0], [0.4, -0.8], atol=1e-6)
    assert m.intercept_ == pytest.approx(1.0, abs=1e-6)
    np.testing.assert_allclose(m.embeddings_, [0.0, 0.4, 0.4], atol=1e-6)
    assert 2 / np.linalg.norm(w) == pytest.approx(np.sqrt(5), abs=1e-6)
    np.testing.assert_allclose(m.potentials_, [2.6, 1.0, 1.0], atol=1e-6)


@pytest.mark.parametrize("mode", ["greedy", "sequential"])
def test_linear_kernel_without_bias_is_the_augmented_adatron(mode):
    rng = np.random.default_rng(1)
    X = rng.normal(size=(40, 3))
    y = np.where(X @ [1.0, -0.5, 0.3] + 0.4 > 0, 1, -1)
    ka = KernelAdaTron(C=np.inf, kernel="poly", degree=1, coef0=1.0, fit_intercept=False, mode=mode,
                       tol=1e-10, max_epochs=100000).fit(X, y)
    at = AdaTron(max_epochs=100000, tol=1e-14).fit(X, y)
    N1 = X.shape[1] + 1                      # Biehl's 1/N with the augmented inputs
    np.testing.assert_allclose(ka.embeddings_ * N1, at.embeddings_, atol=1e-6)
    np.testing.assert_allclose(ka.decision_function(X), at.decision_function(X), atol=1e-6)


def test_rbf_reaches_zero_training_error_where_no_plane_can():
    X, y = make_circles(80, factor=0.4, noise=0.05, random_state=0)
    ka = KernelAdaTron(C=np.inf, gamma=2.0, max_epochs=20000).fit(X, y)
    assert ka.converged_ and ka.score(X, y) == 1.0
    assert np.all(ka.potentials_ >= 1 - 1e-3)


def test_very_narrow_rbf_makes_every_example_a_support_vector(moons):
    X, y = moons
    K = rbf_kernel(X, gamma=1e8)
    np.testing.assert_allclose(K, np.eye(len(X)), atol=1e-300)
    run = kernel_adatron(K, y, fit_intercept=False, tol=1e-12)
    assert run.converged and run.n_epochs == 1
    assert np.all(run.embeddings == 1.0)


@pytest.mark.parametrize("mode", ["greedy", "sequential"])
def test_dual_objective_never_decreases_and_box_holds(moons, mode):
    X, y = moons
    K = rbf_kernel(X, gamma=1.0)
    run = kernel_adatron(K, y, C=2.0, fit_intercept=False, mode=mode, tol=1e-8, max_epochs=50000)
    assert np.all(np.diff(run.objective) >= -1e-10)
    assert np.all((run.embeddings >= 0) & (run.embeddings <= 2.0))
    assert run.objective[-1] == pytest.approx(dual_objective(run.embeddings, gram_of_labels(K, y)))
    np.testing.assert_allclose(svm_decision(K, run.embeddings, y) * y, run.potentials)


def test_fraction_of_support_vectors_falls_as_the_kernel_widens(moons):
    X, y = moons
    fractions = [KernelAdaTron(C=1.0, gamma=g).fit(X, y).n_support_ / len(y) for g in (100.0, 10.0,
                                                                                       1.0)]
    assert fractions[0] > fractions[1] > fractions[2]


@pytest.mark.parametrize("mode", ["greedy", "sequential"])
def test_hard_margin_on_non_separable_data_warns_and_flags(mode):
    rng = np.random.default_rng(0)
    X = rng.normal(size=(30, 2))
    y = np.where(X[:, 0] * X[:, 1] > 0, 1, -1)
    with pytest.warns(ConvergenceWarning, match="not separable in the kernel's feature space"):
        m = KernelAdaTron(C=np.inf, kernel="linear", mode=mode, max_epochs=200).fit(X, y)
    assert not m.converged_ and m.kkt_violation_ > 1e-3


def test_hard_margin_on_contradictory_duplicates_is_flagged():
    # the same input with both labels: no kernel separates them, and the dual is unbounded
    X = np.array([[0.0, 1.0], [0.0, 1.0], [1.0, 0.0], [2.0, 2.0]])
    y = np.array([1, -1, 1, -1])
    # with the bias, the pair (0, 1) is a direction of zero curvature: the first pair step is
    # infinite
    with pytest.warns(ConvergenceWarning, match="diverged"):
        m = KernelAdaTron(C=np.inf, gamma=1.0).fit(X, y)
    assert m.diverged_ and not m.converged_ and m.n_steps_ == 1
    assert m.intercept_ == 0.0 and m.n_support_ == 0
    # without it, single steps make both embeddings grow by about one each, until max_epochs
    with pytest.warns(ConvergenceWarning, match="not separable"):
        m = KernelAdaTron(C=np.inf, gamma=1.0, fit_intercept=False, max_epochs=50).fit(X, y)
    assert not m.converged_ and m.n_steps_ == 50 * len(y) and m.embeddings_[:2].min() > 50


@pytest.mark.parametrize("C", [np.inf, 3.0, 0.2])
@pytest.mark.parametrize("fit_intercept", [True, False])
def test_greedy_and_sequential_reach_the_same_solution_greedy_in_fewer_steps(C, fit_intercept):
    X, y = make_circles(120, factor=0.5, noise=0.12, random_state=4)
    y = 2 * y - 1
    K = rbf_kernel(X, gamma=2.0)
    runs = {mode: kernel_adatron(K, y, C, fit_intercept=fit_intercept, mode=mode, tol=1e-9,
                                 max_epochs=200000) for mode in ("greedy", "sequential")}
    g, q = runs["greedy"], runs["sequential"]
    assert g.converged and q.converged and g.kkt_violation <= 1e-9
    np.testing.assert_allclose(g.embeddings, q.embeddings, atol=1e-6 * max(1.0, q.embeddings.max()))
    assert g.bias == pytest.approx(q.bias, abs=1e-7)
    assert g.objective[-1] == pytest.approx(q.objective[-1], rel=1e-10)
    # the sweep's multiplier for the bias needs many epochs; the pair steps keep sum X y = 0 exactly
    assert g.n_steps < (q.n_steps / 5 if fit_intercept else q.n_steps)


def test_greedy_refuses_what_it_cannot_do(moons):
    X, y = moons
    G = gram_of_labels(rbf_kernel(X, gamma=1.0), y)
    with pytest.raises(ValueError, match="normalize"):
        adatron_embeddings(G, mode="greedy", normalize=False)
    with pytest.raises(ValueError, match=r"\+-1"):
        adatron_embeddings(G, mode="greedy", equality=2.0 * y)
    with pytest.raises(ValueError, match="a0 must satisfy"):
        adatron_embeddings(G, mode="greedy", equality=y, a0=np.ones(len(y)) * (y > 0))
    with pytest.raises(ValueError, match="rho"):
        adatron_embeddings(G, mode="greedy", rho=1.0)
    with pytest.raises(ValueError, match="mode"):
        kernel_adatron(rbf_kernel(X, gamma=1.0), y, mode="parallel")
    with pytest.raises(ValueError, match="mode"):
        KernelAdaTron(mode="random").fit(X, y)


def test_precomputed_kernel_and_non_psd_gram(moons):
    X, y = moons
    K = rbf_kernel(X, gamma=1.0)
    a = KernelAdaTron(kernel="precomputed", C=1.0).fit(K, y)
    b = KernelAdaTron(gamma=1.0, C=1.0).fit(X, y)
    np.testing.assert_allclose(a.decision_function(K[:10]), b.decision_function(X[:10]), atol=1e-12)
    bad = -((X[:, None] - X[None]) ** 2).sum(-1)
    with pytest.raises(NotPSDError, match="positive semi-definite"):
        KernelAdaTron(kernel="precomputed").fit(bad, y)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        with pytest.warns(NotPSDWarning):
            KernelAdaTron(kernel="precomputed", check_psd="warn", max_epochs=5).fit(bad, y)
    with pytest.raises(ValueError, match="features"):
        a.decision_function(K[:3, :10])


def test_bad_parameters_are_refused(moons):
    X, y = moons
    for kw, msg in (({"C": 0.0}, "'C' must"), ({"eta": 2.5}, "eta"), ({"tol": 0}, "tol"),
                    ({"max_epochs": 0}, "max_epochs"), ({"kernel": "sigmoid"}, "kernel"),
                    ({"gamma": -1.0}, "gamma"), ({"check_psd": "ignore"}, "check_psd")):
        with pytest.raises(ValueError, match=msg):
            KernelAdaTron(**kw).fit(X, y)
    with pytest.raises(ValueError, match="square"):
        KernelAdaTron(kernel="precomputed").fit(X, y)
    with pytest.raises(ValueError, match="binary"):
        KernelAdaTron().fit(X[:9], np.arange(9) % 3)


def test_three_point_dual_with_bias_recovers_the_primal():
    X, y = THREE_POINTS
    K = linear_kernel(X)
    run = kernel_adatron(K, y, tol=1e-12, max_epochs=10000)
    assert np.allclose(run.embeddings, [0.0, 0.4, 0.4], atol=1e-10)
    assert abs(run.embeddings @ y) <= 1e-12
    w = primal_weights(X, run.embeddings, y)
    assert np.allclose(w, [0.4, -0.8], atol=1e-10)
    for k in (1, 2):
        assert abs(bias_from_support_vector(K, run.embeddings, y, k) - 1.0) <= 1e-10
    with pytest.raises(ValueError, match="margin"):
        bias_from_support_vector(K, run.embeddings, y, 0)


def test_recovery_agrees_with_scikit_learn_on_random_separable_data():
    rng = np.random.default_rng(11)
    X = rng.normal(size=(40, 3))
    y = np.where(X @ [1.0, -2.0, 0.5] + 0.3 > 0, 1, -1)
    K = linear_kernel(X)
    run = kernel_adatron(K, y, tol=1e-10, max_epochs=100000)
    sv = SVC(kernel="linear", C=1e10, tol=1e-10).fit(X, y)
    w = primal_weights(X, run.embeddings, y)
    assert np.allclose(w, sv.coef_[0], rtol=1e-4, atol=1e-6)
    k = int(np.argmax(run.embeddings))
    assert abs(bias_from_support_vector(K, run.embeddings, y, k) - sv.intercept_[0]) <= 1e-4
    with pytest.raises(ValueError, match="one row per label"):
        primal_weights(X[:-1], run.embeddings, y)
    with pytest.raises(ValueError, match="index"):
        bias_from_support_vector(K, run.embeddings, y, 40)


P = 1500


@pytest.mark.parametrize("kernel", ["rbf", "poly", "linear"])
@pytest.mark.parametrize("mode, fit_intercept", [("greedy", True), ("greedy", False),
                                                 ("sequential", True), ("sequential", False)])
def test_kernel_adatron_fit_holds_a_single_gram_matrix(kernel, mode, fit_intercept):
    X, y = kernel_problem(P)
    one = P * P * 8
    model = KernelAdaTron(C=1.0, kernel=kernel, mode=mode, fit_intercept=fit_intercept,
                          max_epochs=3)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")     # three epochs need not converge: the memory is the
                                            # point
        peak = peak_bytes(lambda: model.fit(X, y))
    assert one < peak < 1.3 * one, f"peak {peak / one:.2f} x P^2 * 8 bytes"


def test_kernel_adatron_on_a_given_gram_matrix_leaves_it_alone_unless_told():
    X, y = kernel_problem(300)
    K = rbf_kernel(X, gamma=0.5)
    original = K.copy()
    run = kernel_adatron(K, y, 1.0)
    np.testing.assert_array_equal(K, original)
    again = kernel_adatron(K, y, 1.0, overwrite_K=True)         # K becomes Gamma = y y^T K
    np.testing.assert_array_equal(K, original * np.outer(y, y))
    np.testing.assert_array_equal(run.embeddings, again.embeddings)
    assert run.bias == again.bias
    one = 300 * 300 * 8                  # (check_psd=None: Mercer's check needs its own copy)
    K = original.copy()
    assert peak_bytes(lambda: kernel_adatron(K, y, 1.0, overwrite_K=True,
                                              check_psd=None)) < 0.3 * one
    K = original.copy()
    assert one < peak_bytes(lambda: kernel_adatron(K, y, 1.0, check_psd=None)) < 1.3 * one


def test_a_problem_too_large_for_the_memory_is_refused_before_allocating(monkeypatch):
    X, y = kernel_problem(2000)
    monkeypatch.setattr(kernels_module, "_available_memory", lambda: 10_000_000)
    for model in (KernelAdaTron(), KernelPerceptron()):
        with pytest.raises(MemoryError) as info:
            model.fit(X, y)
        message = str(info.value)
        assert ("P = 2000" in message and "32,000,000 bytes" in message
                and "10,000,000 bytes" in message)
    with pytest.raises(MemoryError, match="P = 2000"):         # the copy Gamma of a given K
        kernel_adatron(np.eye(2000), y, 1.0)


def test_no_check_where_the_available_memory_is_unknown(monkeypatch):
    X, y = kernel_problem(200)
    monkeypatch.setattr(kernels_module, "_available_memory", lambda: None)
    assert KernelAdaTron().fit(X, y).converged_


@pytest.mark.parametrize("kernel", ["rbf", "poly", "linear"])
@pytest.mark.parametrize("fit_intercept", [True, False])
def test_rows_on_demand_give_the_solution_of_the_whole_matrix(kernel, fit_intercept):
    # A cache smaller than the P x P matrix: the greedy solver reads rows computed on
    # demand and ends at the same solution (kernel values that differ in the last bit
    # may change the path of a long run, not where it ends).
    X, y = kernel_problem(600)
    whole = KernelAdaTron(C=1.0, kernel=kernel, fit_intercept=fit_intercept, tol=1e-6).fit(X, y)
    rows = KernelAdaTron(C=1.0, kernel=kernel, fit_intercept=fit_intercept, tol=1e-6,
                         cache_size=0.5).fit(X, y)
    assert 8 * 600 * 600 > 0.5 * 2**20
    assert rows.converged_ and whole.converged_
    np.testing.assert_allclose(rows.embeddings_, whole.embeddings_, rtol=0, atol=1e-4)
    assert rows.intercept_ == pytest.approx(whole.intercept_, abs=1e-5)
    np.testing.assert_allclose(rows.potentials_, whole.potentials_, rtol=0, atol=1e-5)
    np.testing.assert_array_equal(rows.predict(X), whole.predict(X))


def test_rows_on_demand_keep_memory_bounded():
    X, y = kernel_problem(3000)
    one = 3000 * 3000 * 8
    model = KernelAdaTron(C=1.0, cache_size=2, max_epochs=2)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        peak = peak_bytes(lambda: model.fit(X, y))
    assert peak < 0.3 * one, f"peak {peak / one:.2f} x P^2 * 8 bytes"


def test_the_sweep_needs_the_whole_matrix():
    from lecture_pkg.core._rows import KernelRows

    X, y = kernel_problem(50)
    rows = KernelRows(X, y, "rbf", {"gamma": 0.5}, cache_size=1)
    with pytest.raises(ValueError, match="mode='greedy'"):
        kernel_adatron(rows, y, 1.0, mode="sequential")
    np.testing.assert_allclose(rows @ np.ones(50), (np.outer(y, y) * rbf_kernel(X,
                                                                                gamma=0.5)).sum(1),
                               rtol=1e-12)
    np.testing.assert_allclose(rows.diagonal(), 1.0)
