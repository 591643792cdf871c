"""Tests of lecture_pkg.linear.nonseparable: errors, the Pocket algorithm, the soft-margin AdaTron
and the cost family h_k."""

import warnings

import numpy as np
import pytest
from scipy.optimize import minimize, approx_fprime
from sklearn.exceptions import ConvergenceWarning
from sklearn.svm import LinearSVC

from lecture_pkg.kernel_machines import dual_objective
from lecture_pkg.linear import (AdaTron, Pocket, SoftMarginAdaTron, correlation_matrix,
                                min_errors_2d, n_errors, pocket, primal_objective,
                                soft_margin_adatron, support_vector_categories, Perceptron, cost_hk,
                                cost_hk_gradient)
from lecture_pkg import datasets


def noisy_teacher(P, N, flip, seed):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(P, N))
    y = np.where(X @ rng.normal(size=N) >= 0, 1.0, -1.0)
    y[rng.choice(P, int(flip * P), replace=False)] *= -1
    return X, y


def test_n_errors_counts_zero_potential_as_error():
    X = np.array([[1.0, 0.0], [0.0, 1.0], [-1.0, 0.0]])
    y = np.array([1.0, 1.0, 1.0])
    assert n_errors([1.0, 0.0], X, y) == 2          # E = 1, 0, -1
    assert n_errors(np.zeros(2), X, y) == 3
    with pytest.raises(ValueError, match="do not fit"):
        n_errors([1.0], X, y)


# The Pocket run's trace of the running Rosenblatt weights (PocketRun.running).

def test_the_pocket_keeps_the_running_minimum_of_the_running_errors():
    X, y = noisy_teacher(30, 2, 0.2, 0)
    run = pocket(X, y, 3000, random_state=np.random.default_rng(1), stop_at_zero=False)
    assert run.running.shape == run.errors.shape
    assert np.array_equal(run.errors, np.minimum.accumulate(run.running))
    assert np.any(np.diff(run.running) > 0)       # the running perceptron gets worse too
    assert run.running[-1] == n_errors(run.w_last, X, y)
    assert run.errors[-1] == n_errors(run.w, X, y)


def test_the_trace_does_not_change_the_run():
    X, y = noisy_teacher(40, 3, 0.1, 2)
    a = pocket(X, y, 2000, random_state=np.random.default_rng(5), stop_at_zero=False)
    b = pocket(X, y, 2000, random_state=np.random.default_rng(5), stop_at_zero=False)
    assert np.array_equal(a.w, b.w) and a.n_updates == b.n_updates
    assert np.array_equal(a.running, b.running)


def test_a_separable_run_that_stops_at_zero_ends_its_trace_at_zero():
    X, y = noisy_teacher(40, 3, 0.0, 3)
    run = pocket(X, y, 50000, random_state=np.random.default_rng(0))
    assert run.errors[-1] == 0 and run.running[-1] == 0


def test_min_errors_2d_equals_brute_force_over_a_fine_circle():
    X, y = noisy_teacher(25, 2, 0.2, 1)
    best, w = min_errors_2d(X, y)
    assert n_errors(w, X, y) == best
    phis = np.linspace(0, 2 * np.pi, 200001)
    counts = np.sum(y[:, None] * (X @ np.vstack([np.cos(phis), np.sin(phis)])) <= 0, axis=0)
    assert counts.min() == best


def test_pocket_never_increases_and_finds_the_exact_minimum():
    X, y = noisy_teacher(30, 2, 0.2, 0)
    best, _ = min_errors_2d(X, y)
    run = pocket(X, y, 20000, random_state=np.random.default_rng(0), stop_at_zero=False)
    assert np.all(np.diff(run.errors) <= 0)
    assert run.errors[0] == 30                       # corrected start: H^ = H(0) = P
    assert run.errors[-1] == best == n_errors(run.w, X, y)


def test_pocket_reaches_zero_on_separable_data():
    X, y = noisy_teacher(60, 5, 0.0, 2)
    run = pocket(X, y, 50000, random_state=np.random.default_rng(1))
    assert run.errors[-1] == 0 and n_errors(run.w, X, y) == 0


def test_the_printed_pocket_never_moves():
    X, y = noisy_teacher(20, 3, 0.1, 3)
    run = pocket(X, y, 500, random_state=np.random.default_rng(0), literal=True)
    assert run.n_updates == 0 and np.all(run.w_last == 0) and np.all(run.errors == 0)
    assert n_errors(run.w, X, y) == 20               # the "pocket" holds w = 0, all wrong


def test_pocket_estimator_and_bad_input():
    X, y = noisy_teacher(40, 2, 0.0, 4)
    m = Pocket(n_steps=20000, random_state=0).fit(X + 3.0, y)
    assert m.n_errors_ == 0 and m.score(X + 3.0, y) == 1.0
    assert np.all(np.diff(m.errors_history_) <= 0)
    with pytest.raises(ValueError, match="n_steps"):
        Pocket(n_steps=0).fit(X, y)
    with pytest.raises(ValueError, match="n_steps"):
        pocket(X, y, -1)
    with pytest.raises(ValueError, match="w0"):
        pocket(X, y, 5, w0=np.zeros(5))


@pytest.mark.parametrize("C", [0.5, 2.0, 10.0])
def test_soft_margin_adatron_solves_the_box_qp_with_zero_duality_gap(C):
    X, y = noisy_teacher(60, 5, 0.15, 5)
    Q = correlation_matrix(X, y)
    run = soft_margin_adatron(Q, C, tol=1e-10, max_epochs=200000)
    assert run.converged
    ref = minimize(lambda x: 0.5 * x @ Q @ x - x.sum(), np.zeros(60), jac=lambda x: Q @ x - 1,
                   method="L-BFGS-B", bounds=[(0, C)] * 60,
                   options={"ftol": 1e-16, "gtol": 1e-12, "maxiter": 100000})
    np.testing.assert_allclose(run.x, ref.x, atol=1e-5)
    assert dual_objective(run.x, Q) >= -ref.fun - 1e-9
    w = (run.x * y) @ X / X.shape[1]
    assert primal_objective(w, X, y, C) - dual_objective(run.x, Q) == pytest.approx(0, abs=1e-5)
    # the three cases
    E = Q @ run.x
    cats = support_vector_categories(run.x, E, C)
    assert np.all(E[cats["inactive"]] >= 1 - 1e-8)
    assert np.all(np.abs(E[cats["margin"]] - 1) <= 1e-8)
    assert np.all(E[cats["bound"]] <= 1 + 1e-8)
    assert len(cats["inactive"]) + len(cats["margin"]) + len(cats["bound"]) == 60


def test_soft_margin_estimator_matches_liblinear_without_intercept():
    X, y = noisy_teacher(80, 4, 0.1, 6)
    C = 2.0
    m = SoftMarginAdaTron(C=C, fit_intercept=False, tol=1e-10, max_epochs=100000).fit(X, y)
    # liblinear visits the examples in an order drawn from its random_state and stops at
    # max_iter here; for about 1 order in 80 it stops at a worse point (objective higher
    # than ours), so the oracle's order is fixed instead of taken from numpy's global state
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        sk = LinearSVC(loss="hinge", fit_intercept=False, C=C / X.shape[1], dual=True, tol=1e-12,
                       max_iter=1000000, random_state=0).fit(X, y)
    np.testing.assert_allclose(m.coef_, sk.coef_[0], atol=1e-4)
    assert m.primal_objective_ - m.dual_objective_ == pytest.approx(0, abs=1e-7)
    assert np.all((m.embeddings_ >= 0) & (m.embeddings_ <= C))
    assert set(m.margin_support_) | set(m.bound_support_) == set(m.support_)


def test_infinite_C_is_the_plain_adatron():
    X, y = noisy_teacher(40, 5, 0.0, 7)
    a = SoftMarginAdaTron(C=np.inf, tol=1e-9, max_epochs=200000).fit(X, y)
    b = AdaTron(max_epochs=100000, tol=1e-13).fit(X, y)
    assert a.converged_ and b.converged_
    np.testing.assert_allclose(a.coef_, b.coef_, atol=1e-5)
    assert a.intercept_ == pytest.approx(b.intercept_, abs=1e-5)


def test_objective_never_decreases_step_by_step():
    X, y = noisy_teacher(40, 3, 0.2, 8)
    run = soft_margin_adatron(correlation_matrix(X, y), 1.0, max_epochs=30, record_steps=True)
    assert np.all(np.diff(run.objective) >= -1e-12)


def test_small_C_prefers_errors_even_on_separable_data():
    X, y = noisy_teacher(60, 2, 0.0, 9)
    small = SoftMarginAdaTron(C=0.01).fit(X, y)
    large = SoftMarginAdaTron(C=100.0).fit(X, y)
    assert large.score(X, y) == 1.0
    assert len(small.bound_support_) > len(large.bound_support_)


def test_soft_margin_bad_parameters_and_warning():
    X, y = noisy_teacher(30, 2, 0.2, 10)
    for kw, msg in (({"C": 0}, "parameter 'C'"), ({"eta": 2.0}, "eta"), ({"max_epochs": 0},
                                                                         "max_epochs"),
                    ({"tol": -1}, "tol")):
        with pytest.raises(ValueError, match=msg):
            SoftMarginAdaTron(**kw).fit(X, y)
    with pytest.warns(ConvergenceWarning, match="linearly separable"):
        m = SoftMarginAdaTron(C=np.inf, max_epochs=50).fit(X, y)
    assert not m.converged_
    with pytest.raises(ValueError, match="shape"):
        support_vector_categories(np.ones(3), np.ones(2), 1.0)


def test_the_price_of_slack_is_called_C():
    # a clean break (the package is pre-1.0): Biehl's name gamma is no longer accepted
    with pytest.raises(TypeError, match="gamma"):
        SoftMarginAdaTron(gamma=1.0)
    X, y = noisy_teacher(30, 2, 0.2, 11)
    Q = correlation_matrix(X, y)
    run = soft_margin_adatron(Q=Q, C=0.5)
    assert run.converged and run.x.max() <= 0.5
    cats = support_vector_categories(run.x, Q @ run.x, C=0.5)
    w = (run.x * y) @ X / X.shape[1]
    assert primal_objective(w, X, y, C=0.5) == pytest.approx(dual_objective(run.x, Q=Q), abs=1e-6)
    assert len(cats["bound"]) > 0


def test_soft_margin_adatron_names_its_own_tol():
    X, y = noisy_teacher(10, 2, 0.2, 1)
    with pytest.raises(ValueError, match=r"^tol \(the largest allowed violation") as info:
        soft_margin_adatron(correlation_matrix(X, y), 1.0, tol=0.0)
    assert "kkt_tol" not in str(info.value)


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
