"""Tests of lecture_pkg.kernel_machines.svm: the kernel AdaTron (4.26) as an SVM, and the dual
perceptron."""

import warnings

import numpy as np
import pytest
from sklearn.datasets import make_circles, make_moons
from sklearn.exceptions import ConvergenceWarning
from sklearn.svm import SVC

from lecture_pkg.kernel_machines import (KernelAdaTron, KernelPerceptron, NotPSDError,
                                         NotPSDWarning, adatron_embeddings, box_kkt_violation,
                                         dual_objective, dual_perceptron, gram_of_labels,
                                         kernel_adatron, polynomial_kernel, quadratic_feature_map,
                                         rbf_kernel, svm_decision)
from lecture_pkg.linear import AdaTron, Perceptron, augment

THREE_POINTS = (np.array([[2.0, -1.0], [2.0, 1.0], [1.0, 3.0]]), np.array([1, 1, -1]))


@pytest.fixture(scope="module")
def moons():
    X, y = make_moons(150, noise=0.25, random_state=3)
    return X, np.where(y == 1, 1, -1)


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


def test_greedy_pair_steps_keep_the_equality_and_climb(moons):
    X, y = moons
    G = gram_of_labels(rbf_kernel(X, gamma=2.0), y)
    run = adatron_embeddings(G, mode="greedy", upper=5.0, equality=y, kkt_tol=1e-6, max_epochs=1000,
                             record_steps=True)
    assert run.converged and len(run.objective) == run.n_steps + 1
    assert np.all(np.diff(run.objective) > 0)                  # every pair step is an ascent step
    assert abs(run.x @ y) <= 1e-12 * run.x.sum()
    assert np.all((run.x >= 0) & (run.x <= 5.0))
    E = G @ run.x + run.multiplier * y                          # the multiplier is the bias b
    assert box_kkt_violation(run.x, 1 - E, 5.0).max() <= 1e-6


def test_greedy_refuses_what_it_cannot_do(moons):
    X, y = moons
    G = gram_of_labels(rbf_kernel(X, gamma=1.0), y)
    with pytest.raises(ValueError, match="normalize"):
        adatron_embeddings(G, mode="greedy", normalize=False)
    with pytest.raises(ValueError, match=r"\+-1"):
        adatron_embeddings(G, mode="greedy", equality=2.0 * y)
    with pytest.raises(ValueError, match="x0 must satisfy"):
        adatron_embeddings(G, mode="greedy", equality=y, x0=np.ones(len(y)) * (y > 0))
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




# ---------------------------------------------------------------- recovering w and w_0 (Mooney)

from lecture_pkg.kernel_machines import (bias_from_support_vector, linear_kernel,  # noqa: E402
                                         primal_weights)


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


@pytest.mark.parametrize("kw", [dict(mode="sequential"), dict(mode="parallel"),
                                dict(mode="sequential", upper=1.0, kkt_tol=1e-6),
                                dict(mode="sequential", upper=1.0, equality="y"),
                                dict(mode="greedy", upper=1.0, equality="y")],
                         ids=["plain", "parallel", "box", "box-bias", "greedy"])
def test_snapshots_of_a_long_run_are_the_shorter_runs(moons, kw):
    # one run of many epochs gives the runs of fewer epochs (the paper's 10 and 250 cycles)
    from lecture_pkg.core.solvers import adatron_embeddings
    from lecture_pkg.kernel_machines import gram_of_labels, rbf_kernel

    X, y = moons
    kw = {k: (y if v == "y" else v) for k, v in kw.items()}
    G = gram_of_labels(rbf_kernel(X, X, gamma=2.0), y)
    long = adatron_embeddings(G, 1.0, max_epochs=40, snapshot_epochs=(1, 4, 39), **kw)
    assert 1 in long.snapshots and all(e <= long.n_epochs for e in long.snapshots)
    for epochs in (1, 4, 39):                     # a run that ended earlier is its own snapshot
        short = adatron_embeddings(G, 1.0, max_epochs=epochs, **kw)
        np.testing.assert_array_equal(long.snapshots.get(epochs, long.x), short.x)
    with pytest.raises(ValueError, match="snapshot_epochs"):
        adatron_embeddings(G, 1.0, max_epochs=3, snapshot_epochs=(0,), **kw)
