"""Tests of lecture_pkg.core.solvers: the AdaTron/Adaline family on embedding strengths (sequential,
parallel, the greedy pair steps of SMO), its Kuhn-Tucker checks and the dual objective, against
independent oracles (SciPy's optimisers, scikit-learn's SVC)."""

import warnings

import numpy as np
import pytest
import scipy.linalg
from scipy.optimize import minimize
from sklearn.datasets import make_moons
from sklearn.svm import SVC

from lecture_pkg.core.solvers import check_learning_rate
from lecture_pkg.kernel_machines import (LearningRateWarning, adaline_embeddings,
                                         adatron_embeddings, dual_objective, kkt_residuals,
                                         support_vectors, box_kkt_violation, gram_of_labels,
                                         rbf_kernel)
from lecture_pkg.linear import correlation_matrix, weights_from_embeddings


def unit_norm_data(P, N, seed):
    """Inputs with |xi|^2 = N exactly (Q^mumu = 1) and random labels."""
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((P, N))
    X *= np.sqrt(N) / np.linalg.norm(X, axis=1)[:, None]
    return X, np.where(rng.standard_normal(P) > 0, 1, -1)


def test_dual_objective_and_strong_duality(adatron_solution, teacher_data):
    X, y = teacher_data
    a = adatron_solution.embeddings_
    C = correlation_matrix(X, y)
    w = adatron_solution.coef_
    N = X.shape[1]
    # primal N/2 |w|^2 = dual f(a*) = sum a / 2 (3.74)
    assert dual_objective(a, C) == pytest.approx(N / 2 * w @ w, rel=1e-8)
    assert dual_objective(a, C) == pytest.approx(a.sum() / 2, rel=1e-8)
    assert dual_objective(np.zeros(len(a)), C) == 0.0


def test_kkt_residuals_and_support_vectors(adatron_solution, teacher_data):
    X, y = teacher_data
    at = adatron_solution
    C = correlation_matrix(X, y)
    res = kkt_residuals(at.embeddings_, C)
    assert res.max() < 1e-6 and at.kkt_.max() < 1e-6
    kappa_max = 1 / np.linalg.norm(at.coef_)
    # kappa_max = 1/|w| = sqrt(N / sum a) = min stability
    assert at.kappa_ == pytest.approx(kappa_max, rel=1e-8)
    assert np.sqrt(X.shape[1] / at.embeddings_.sum()) == pytest.approx(kappa_max, rel=1e-8)
    sv = support_vectors(at.embeddings_)
    np.testing.assert_array_equal(sv, at.support_)
    E = C @ at.embeddings_
    np.testing.assert_allclose(E[sv], 1.0, atol=1e-6)                      # (3.77) on the margin
    others = np.setdiff1d(np.arange(len(y)), sv)
    assert np.all(E[others] >= 1 - 1e-9) and np.all(at.embeddings_[others] == 0)
    assert 0 < len(sv) <= X.shape[1]
    # violated conditions show up in the residuals
    bad = kkt_residuals(-np.ones(len(y)), C)
    assert bad.sign == 1.0 and bad.constraint > 1
    with pytest.raises(ValueError, match="shape"):
        kkt_residuals(np.ones(3), C)
    with pytest.raises(ValueError, match="1-d"):
        support_vectors(np.ones((2, 2)))


def test_sequential_adatron_cost_never_decreases_step_by_step(teacher_data):
    X, y = teacher_data
    C = correlation_matrix(X, y)
    run = adatron_embeddings(C, 1.5, max_epochs=30, record_steps=True)
    assert len(run.objective) == 1 + 30 * len(y) or run.converged
    assert np.all(np.diff(run.objective) >= -1e-12)


def test_adatron_fixed_point_and_uniqueness_of_w(adatron_solution, teacher_data):
    X, y = teacher_data
    C = correlation_matrix(X, y)
    a = adatron_solution.embeddings_
    run = adatron_embeddings(C, 1.0, a0=a, max_epochs=1)
    np.testing.assert_allclose(run.a, a, atol=1e-8)
    # a duplicated support vector makes C singular: a is not unique, w is
    sv = adatron_solution.support_[0]
    Xd, yd = np.vstack([X, X[sv]]), np.r_[y, y[sv]]
    Cd = correlation_matrix(Xd, yd)
    one = adatron_embeddings(Cd, 1.0, max_epochs=5000)
    two = adatron_embeddings(Cd, 1.0, max_epochs=5000,
                             a0=np.abs(np.random.default_rng(3).standard_normal(len(yd))))
    assert one.converged and two.converged
    assert np.linalg.norm(one.a - two.a) > 1e-3
    np.testing.assert_allclose(weights_from_embeddings(one.a, Xd, yd),
                               weights_from_embeddings(two.a, Xd, yd), atol=1e-7)


def test_adaline_embeddings_in_biehls_form():
    X, y = unit_norm_data(10, 20, 1)
    C = correlation_matrix(X, y)
    a_star = np.linalg.solve(C, np.ones(10))
    for mode in ("sequential", "parallel"):
        run = adaline_embeddings(C, 1.0, mode=mode, max_epochs=5000)
        assert run.converged
        np.testing.assert_allclose(run.a, a_star, atol=1e-8)
        assert np.all(np.diff(run.objective) >= -1e-12)   # gradient *ascent* on f


@pytest.mark.parametrize("eta", [0.5, 1.0, 1.5, 1.9])
def test_window_below_two_converges(eta):
    """O.5 inside the window (|xi|^2 = N)."""
    X, y = unit_norm_data(10, 20, 1)
    C = correlation_matrix(X, y)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        ada = adaline_embeddings(C, eta, normalize=False, max_epochs=3000)
        at = adatron_embeddings(C, eta, normalize=False, max_epochs=3000)
    assert ada.converged and at.converged


@pytest.mark.parametrize("eta", [2.1, 2.5])
def test_window_above_two_fails(eta):
    """O.5 outside the window: Adaline diverges, AdaTron oscillates without converging."""
    X, y = unit_norm_data(10, 20, 1)
    C = correlation_matrix(X, y)
    with pytest.warns(LearningRateWarning, match=r"0 < eta < 2"):
        ada = adaline_embeddings(C, eta, normalize=False, max_epochs=3000)
    with pytest.warns(LearningRateWarning, match=r"0 < eta < 2"):
        at = adatron_embeddings(C, eta, normalize=False, max_epochs=3000)
    assert ada.diverged and not ada.converged
    assert not at.converged and kkt_residuals(at.a, C).max() > 0.1


def test_general_inputs_need_the_normalised_window():
    # |xi|^2 = 4N: the raw window is 0 < eta < 2/4, normalised steps restore 0 < eta < 2
    X, y = unit_norm_data(10, 20, 2)
    C = correlation_matrix(2 * X, y)
    with pytest.warns(LearningRateWarning,
                      match=r"0 < eta < 0\.5 .*Q\^mumu = \|\|x\^mu\|\|\^2 / N = 1"):
        raw = adaline_embeddings(C, 1.0, normalize=False, max_epochs=3000)
    assert raw.diverged
    assert adaline_embeddings(C, 1.0, normalize=True, max_epochs=3000).converged
    with pytest.warns(LearningRateWarning, match="parallel"):
        adatron_embeddings(C, 3.0, mode="parallel", max_epochs=5)


# -------------------------------------------------- the engine's box, target and equality options

def test_box_adatron_without_options_is_the_old_path(teacher_data):
    X, y = teacher_data
    C = correlation_matrix(X, y)
    old = adatron_embeddings(C, 1.0, max_epochs=3000)
    new = adatron_embeddings(C, 1.0, max_epochs=3000, upper=np.inf, kkt_tol=1e-10)
    assert old.converged and new.converged
    np.testing.assert_allclose(new.a, old.a, atol=1e-7)
    assert new.kkt_violation <= 1e-10 and np.isnan(old.kkt_violation)


def test_box_adatron_solves_the_box_qp_and_respects_the_bounds():
    from scipy.optimize import minimize

    from lecture_pkg.kernel_machines import box_kkt_violation
    rng = np.random.default_rng(5)
    X = rng.normal(size=(40, 4))
    y = np.where(X[:, 0] + 0.8 * rng.normal(size=40) > 0, 1.0, -1.0)   # not separable
    C = correlation_matrix(X, y)
    p = rng.uniform(0.5, 1.5, size=40)
    run = adatron_embeddings(C, 1.0, upper=0.7, target=p, kkt_tol=1e-10, max_epochs=100000)
    assert run.converged and np.all((run.a >= 0) & (run.a <= 0.7))
    ref = minimize(lambda x: 0.5 * x @ C @ x - p @ x, np.zeros(40), jac=lambda x: C @ x - p,
                   bounds=[(0, 0.7)] * 40, method="L-BFGS-B", options={"ftol": 1e-15,
                                                                       "gtol": 1e-12})
    np.testing.assert_allclose(run.a, ref.x, atol=1e-5)
    assert box_kkt_violation(run.a, p - C @ run.a, 0.7).max() <= 1e-10
    assert np.all(np.diff(run.objective) >= -1e-12)


def test_box_adatron_equality_constraint_gives_the_multiplier():
    from scipy.optimize import minimize
    rng = np.random.default_rng(6)
    X = rng.normal(size=(30, 3))
    y = np.where(X[:, 1] > 0.3, 1.0, -1.0)
    C = correlation_matrix(X, y)
    run = adatron_embeddings(C, 1.0, upper=2.0, equality=y, kkt_tol=1e-9, max_epochs=200000)
    assert run.converged and abs(y @ run.a) <= 1e-9
    ref = minimize(lambda x: 0.5 * x @ C @ x - x.sum(), np.zeros(30), jac=lambda x: C @ x - 1,
                   bounds=[(0, 2.0)] * 30, constraints=[{"type": "eq", "fun": lambda x: y @ x,
                                                          "jac": lambda x: y}],
                   method="SLSQP", options={"ftol": 1e-14, "maxiter": 1000})
    np.testing.assert_allclose(run.a, ref.x, atol=1e-5)
    free = (run.a > 1e-6) & (run.a < 2 - 1e-6)
    # on the free examples 1 - [C a] - lambda y = 0
    np.testing.assert_allclose((1 - C @ run.a)[free], run.multiplier * y[free], atol=1e-7)


def test_box_adatron_bad_options_are_refused():
    C = np.eye(3)
    with pytest.raises(ValueError, match="upper"):
        adatron_embeddings(C, upper=-1.0)
    with pytest.raises(ValueError, match="target"):
        adatron_embeddings(C, target=np.ones(2))
    with pytest.raises(ValueError, match="equality"):
        adatron_embeddings(C, equality=np.ones(4))
    with pytest.raises(ValueError, match="rho"):
        adatron_embeddings(C, rho=1.0)
    with pytest.raises(ValueError, match="kkt_tol"):
        adatron_embeddings(C, kkt_tol=0.0)


def test_greedy_pair_steps_keep_the_equality_and_climb(moons):
    X, y = moons
    G = gram_of_labels(rbf_kernel(X, gamma=2.0), y)
    run = adatron_embeddings(G, mode="greedy", upper=5.0, equality=y, kkt_tol=1e-6, max_epochs=1000,
                             record_steps=True)
    assert run.converged and len(run.objective) == run.n_steps + 1
    assert np.all(np.diff(run.objective) > 0)                  # every pair step is an ascent step
    assert abs(run.a @ y) <= 1e-12 * run.a.sum()
    assert np.all((run.a >= 0) & (run.a <= 5.0))
    E = G @ run.a + run.multiplier * y                          # the multiplier is the bias b
    assert box_kkt_violation(run.a, 1 - E, 5.0).max() <= 1e-6


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
        np.testing.assert_array_equal(long.snapshots.get(epochs, long.a), short.a)
    with pytest.raises(ValueError, match="snapshot_epochs"):
        adatron_embeddings(G, 1.0, max_epochs=3, snapshot_epochs=(0,), **kw)


# -------------------------------------------------- independent oracles: SciPy and scikit-learn
#
# Each public solver of lecture_pkg.core.solvers against a solution it did not compute: the
# primal of maximal stability solved by SciPy's SLSQP, the box-constrained dual by SciPy's
# L-BFGS-B, the linear system of Adaline by SciPy's solver, and the soft-margin SVM with a
# bias by scikit-learn's SVC (libsvm).  The tolerances are stated in each test.

def _separable_through_origin(P=40, N=5, seed=1):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(P, N))
    return X, np.where(X @ rng.normal(size=N) > 0, 1.0, -1.0)


def _primal_max_stability(X, y):
    """SciPy's SLSQP on the primal: minimise |w|^2 / 2 subject to y^mu w.xi^mu >= 1."""
    N = X.shape[1]
    res = minimize(lambda w: 0.5 * w @ w, np.zeros(N), jac=lambda w: w, method="SLSQP",
                   constraints=[{"type": "ineq", "fun": lambda w: y * (X @ w) - 1.0,
                                 "jac": lambda w: y[:, None] * X}],
                   options={"ftol": 1e-12, "maxiter": 1000})
    assert res.success and np.min(y * (X @ res.x)) >= 1 - 1e-9
    return res.x


@pytest.mark.parametrize("mode, options", [("sequential", {}), ("greedy", {"kkt_tol": 1e-9})])
def test_adatron_without_bias_is_the_primal_of_maximal_stability(mode, options):
    X, y = _separable_through_origin()
    N = X.shape[1]
    Q = correlation_matrix(X, y)
    run = adatron_embeddings(Q, 1.0, mode=mode, max_epochs=100000, **options)
    assert run.converged and not run.diverged
    w_ref = _primal_max_stability(X, y)
    w = weights_from_embeddings(run.a, X, y)
    # the weights and the margin 1/|w| agree with SLSQP's to a relative 1e-7 (seen: 2e-9)
    np.testing.assert_allclose(w, w_ref, atol=1e-7 * np.linalg.norm(w_ref))
    assert 1 / np.linalg.norm(w) == pytest.approx(1 / np.linalg.norm(w_ref), rel=1e-7)
    # the Kuhn-Tucker conditions (3.71)-(3.73) hold at the solution, up to the runs' 1e-6
    assert kkt_residuals(run.a, Q).max() < 1e-5
    assert kkt_residuals(run.a, Q).sign == 0.0
    # strong duality: the dual's maximum is the primal's minimum N |w|^2 / 2
    assert dual_objective(run.a, Q) == pytest.approx(N / 2 * w_ref @ w_ref, rel=1e-9)
    # the support vectors are the examples on the reference's margin
    on_margin = np.flatnonzero(y * (X @ w_ref) < 1 + 1e-6)
    np.testing.assert_array_equal(support_vectors(run.a), on_margin)


@pytest.mark.parametrize("mode", ["sequential", "parallel", "greedy"])
def test_box_adatron_in_every_mode_equals_l_bfgs_b(mode):
    """A bounded C without a bias: every mode reaches SciPy's box-constrained minimum."""
    rng = np.random.default_rng(5)
    X = rng.normal(size=(40, 4))
    y = np.where(X[:, 0] + 0.8 * rng.normal(size=40) > 0, 1.0, -1.0)   # not separable
    Q = correlation_matrix(X, y)
    C = 0.7
    ref = minimize(lambda x: 0.5 * x @ Q @ x - x.sum(), np.zeros(40), jac=lambda x: Q @ x - 1,
                   bounds=[(0, C)] * 40, method="L-BFGS-B",
                   options={"ftol": 1e-15, "gtol": 1e-12})
    run = adatron_embeddings(Q, 1.0, mode=mode, upper=C, kkt_tol=1e-10, max_epochs=100000)
    assert run.converged and np.all((run.a >= 0) & (run.a <= C))
    assert np.any(run.a == C)                                   # the bound is active
    np.testing.assert_allclose(run.a, ref.x, atol=1e-7)         # seen: 3e-9
    assert box_kkt_violation(run.a, 1 - Q @ run.a, C).max() <= 1e-10
    assert dual_objective(run.a, Q) == pytest.approx(-ref.fun, rel=1e-12)


@pytest.fixture(scope="module")
def svc_problem():
    """An RBF soft-margin SVM with a bias, solved by scikit-learn's SVC (libsvm's SMO)."""
    X, y = make_moons(80, noise=0.25, random_state=3)
    y = np.where(y == 1, 1.0, -1.0)
    C, gamma = 1.5, 2.0
    K = rbf_kernel(X, X, gamma=gamma)
    svc = SVC(C=C, kernel="rbf", gamma=gamma, tol=1e-12).fit(X, y)
    alpha = np.zeros(len(y))
    alpha[svc.support_] = np.abs(svc.dual_coef_[0])             # dual_coef_ = y^mu alpha^mu
    return X, y, K, C, svc, alpha


@pytest.mark.parametrize("mode, kkt_tol, atol", [("sequential", 1e-9, 1e-5),
                                                 ("parallel", 1e-6, 1e-4),
                                                 ("greedy", 1e-9, 1e-5)])
def test_box_adatron_with_bias_equals_svc(svc_problem, mode, kkt_tol, atol):
    """With ``upper=C`` and ``equality=y`` the solver is SVC's dual; libsvm's own solution
    violates the conditions by about 1e-7, so the two agree to ``atol`` (the parallel sweep,
    which is slow to converge, is stopped at a looser ``kkt_tol``)."""
    X, y, K, C, svc, alpha = svc_problem
    G = gram_of_labels(K, y)
    assert np.sum(alpha >= C - 1e-9) >= 5 and np.sum((alpha > 1e-6) & (alpha < C - 1e-6)) >= 5
    run = adatron_embeddings(G, 1.0, mode=mode, upper=C, equality=y, kkt_tol=kkt_tol,
                             max_epochs=100000)
    assert run.converged and np.all((run.a >= 0) & (run.a <= C))
    np.testing.assert_allclose(run.a, alpha, atol=atol)                 # the dual coefficients
    assert run.multiplier == pytest.approx(svc.intercept_[0], abs=atol)  # the bias b
    np.testing.assert_allclose(K @ (run.a * y) + run.multiplier, svc.decision_function(X),
                               atol=atol)
    assert abs(y @ run.a) <= kkt_tol
    # Biehl's Sec. 4.1.2: E >= 1 at a = 0, E = 1 for 0 < a < C, E <= 1 at a = C
    E = G @ run.a + run.multiplier * y
    assert box_kkt_violation(run.a, 1 - E, C).max() <= 10 * kkt_tol
    np.testing.assert_array_equal(support_vectors(run.a, 1e-4), np.flatnonzero(alpha > 1e-4 * C))
    assert dual_objective(run.a, G) == pytest.approx(dual_objective(alpha, G), rel=1e-9)


@pytest.mark.parametrize("mode", ["sequential", "parallel"])
def test_adaline_embeddings_solve_the_linear_system_for_any_q(mode):
    """Adaline's fixed point is Q a = 1 (3.63), here for a Q without a unit diagonal."""
    rng = np.random.default_rng(4)
    A = rng.normal(size=(8, 20))
    Q = A @ A.T / 20
    run = adaline_embeddings(Q, 1.0, mode=mode, max_epochs=200000)
    assert run.converged and not run.diverged
    np.testing.assert_allclose(run.a, scipy.linalg.solve(Q, np.ones(8), assume_a="pos"),
                               atol=1e-8)


def test_box_kkt_violation_by_hand():
    a = np.array([0.0, 0.0, 0.5, 0.5, 1.0, 1.0])
    g = np.array([-0.3, 0.2, 0.0, -0.4, 0.1, -0.6])
    np.testing.assert_array_equal(box_kkt_violation(a, g, upper=1.0),
                                  [0.0, 0.2, 0.0, 0.4, 0.0, 0.6])
    np.testing.assert_array_equal(box_kkt_violation(a, g), [0.0, 0.2, 0.0, 0.4, 0.1, 0.6])


def test_check_learning_rate_warns_only_outside_the_window():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check_learning_rate(1.9, 2.0, "0 < eta < 2")
    with pytest.warns(LearningRateWarning, match=r"eta=2 .*0 < eta < 2 \(the window\)"):
        check_learning_rate(2.0, 2.0, "the window")


def test_the_embedding_strengths_are_called_a():
    # a clean break (the package is pre-1.0): Biehl's letter x, which the book keeps for
    # the inputs, no longer names the embedding strengths, their start or the result's field
    C = np.eye(3)
    run = adatron_embeddings(C, a0=np.ones(3), max_epochs=1)
    assert run.a.shape == (3,) and not hasattr(run, "x")
    with pytest.raises(TypeError, match="x0"):
        adatron_embeddings(C, x0=np.ones(3))
    with pytest.raises(TypeError, match="'x'"):
        dual_objective(x=np.ones(3), Q=C)
    with pytest.raises(ValueError, match="^a0 has shape"):
        adaline_embeddings(C, a0=np.ones(2))
    with pytest.raises(ValueError, match="^box_kkt_violation: gradient must have the same "
                                         "number of rows as a"):
        box_kkt_violation(np.ones(3), np.ones(2))
