"""Tests of lecture_pkg.kernel_machines.lp_machine (Frieß and Harrison §2.5, eqs. 13–16)."""


import numpy as np
import pytest
from scipy.optimize import linprog
from sklearn.datasets import make_moons

from lecture_pkg.datasets import two_spirals, xor
from lecture_pkg.kernel_machines import (LPError, LPMachine, lp_machine, lp_matrices,
                                         minnick_muroga_lp, rbf_kernel, solve_lp)


@pytest.fixture(scope="module")
def moons():
    X, y = make_moons(80, noise=0.3, random_state=2)
    return X, np.where(y == 1, 1.0, -1.0)


def dual_objective(K, y, C, costs, lam, bias):
    """The LP dual of (16), an independent formulation:
    max lam sum u  s.t.  0 <= u <= c,  G u <= C 1  (G = Y K Y),  and y.u = 0 with a bias."""
    l = len(y)
    G = (y[:, None] * K) * y[None, :]
    res = linprog(-lam * np.ones(l), A_ub=G.T, b_ub=C * np.ones(l),
                  A_eq=y[None, :] if bias else None, b_eq=[0.0] if bias else None,
                  bounds=list(zip(np.zeros(l), costs)), method="highs-ipm",
                  options={"primal_feasibility_tolerance": 1e-10,
                           "dual_feasibility_tolerance": 1e-10})
    assert res.status == 0
    return -res.fun


@pytest.mark.parametrize("C", [0.0, 0.05, 0.5])
@pytest.mark.parametrize("bias", [True, False])
def test_lp_machine_constraints_objective_and_lp_duality(moons, C, bias):
    """F.2: constraints hold, objective = c.s + C sum alpha = the dual optimum (1e-8)."""
    X, y = moons
    K = rbf_kernel(X, gamma=2.0)
    costs = np.where(y > 0, 1.0, 2.0)
    run = lp_machine(K, y, C, costs=costs, fit_intercept=bias)
    assert np.all(run.alpha >= 0) and np.all(run.slacks >= 0)
    f = K @ (run.alpha * y) + run.bias
    np.testing.assert_allclose(run.margins, y * f)
    scale = max(1.0, run.alpha.sum())       # C = 0 may need huge alpha (degenerate, unregularised)
    assert np.all(y * f >= 1.0 - run.slacks - 1e-8 * scale)
    assert run.objective == pytest.approx(costs @ run.slacks + C * run.alpha.sum(), abs=1e-8)
    assert (abs(run.objective - dual_objective(K, y, C, costs, 1.0, bias))
            <= 1e-8 * max(1, run.objective))
    if not bias:
        assert run.bias == 0.0


def test_larger_C_gives_smaller_l1_norm(moons):
    X, y = moons
    K = rbf_kernel(X, gamma=2.0)
    norms = [lp_machine(K, y, C).alpha.sum() for C in (0.01, 0.05, 0.2, 1.0)]
    assert all(a >= b - 1e-9 for a, b in zip(norms, norms[1:]))
    assert norms[-1] < norms[0]


def test_lam_only_rescales(moons):
    X, y = moons
    K = rbf_kernel(X, gamma=2.0)
    a = lp_machine(K, y, 0.0, fit_intercept=False)
    b = lp_machine(K, y, 0.0, lam=3.0, fit_intercept=False)
    assert b.objective == pytest.approx(3 * a.objective, rel=1e-7)


def test_spirals_zero_training_error_with_C_zero():
    X, y = two_spirals()
    run = lp_machine(rbf_kernel(X, sigma=0.8, convention="friess"), y, 0.0)
    assert run.objective == pytest.approx(0.0, abs=1e-9)
    assert np.all(run.margins >= 1 - 1e-8)


def test_minnick_muroga_lp():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(40, 3))
    y = np.where(X @ [1.0, -2.0, 0.5] + 0.3 > 0, 1.0, -1.0)
    run = minnick_muroga_lp(X, y)
    assert run.objective == pytest.approx(0.0, abs=1e-9)
    assert np.all(y * (X @ run.weights + run.bias) >= 1 - 1e-8)
    Xx, yx = xor()
    bad = minnick_muroga_lp(Xx, yx)
    assert bad.objective > 0.5
    assert np.all(yx * (Xx @ bad.weights + bad.bias) >= 1 - bad.slacks - 1e-8)
    # the linear kernel LP (15) with alpha >= 0 cannot do better than free weights (13)
    lin = lp_machine(X @ X.T, y, 0.0)
    assert lin.objective >= run.objective - 1e-9


def test_hard_version_reports_infeasibility_with_the_solver_status():
    X = np.array([[0.0, 0.0], [0.0, 0.0], [1.0, 1.0]])
    y = np.array([1.0, -1.0, 1.0])                     # a repeated pattern with both labels
    with pytest.raises(LPError, match="infeasible") as info:
        lp_machine(rbf_kernel(X, gamma=1.0), y, 1.0, soft=False)
    assert info.value.status == 2 and "HiGHS status 2" in str(info.value)
    with pytest.raises(LPError, match="infeasible"):
        LPMachine(C=1.0, soft=False).fit(X, [1, 0, 1])
    ok = lp_machine(rbf_kernel(X[1:], gamma=1.0), y[1:], 1.0, soft=False)
    assert np.all(ok.margins >= 1 - 1e-8) and np.all(ok.slacks == 0)


def test_unbounded_lp_is_reported():
    with pytest.raises(LPError, match="unbounded") as info:
        solve_lp([-1.0], None, None, [(None, None)])
    assert info.value.status == 3


def test_matrix_form(moons):
    X, y = moons
    K = rbf_kernel(X, gamma=1.0)
    c, A, b, bounds = lp_matrices(K, y, 0.3)
    l = len(y)
    assert A.shape == (l, 2 * l + 1) and c.shape == (2 * l + 1,)
    np.testing.assert_allclose(A[:, :l], -(y[:, None] * K * y[None, :]))
    np.testing.assert_allclose(A[:, l:2 * l], -np.eye(l))
    np.testing.assert_allclose(A[:, -1], -y)
    assert np.all(b == -1.0) and np.all(c[:l] == 0.3) and np.all(c[l:2 * l] == 1.0) and c[-1] == 0
    assert bounds[-1] == (None, None)
    assert lp_matrices(K, y, fit_intercept=False, soft=False)[1].shape == (l, l + 1)


def test_bad_input_is_refused(moons):
    X, y = moons
    K = rbf_kernel(X, gamma=1.0)
    with pytest.raises(ValueError, match="'C' must"):
        lp_machine(K, y, -1.0)
    with pytest.raises(ValueError, match="lam"):
        lp_machine(K, y, lam=0.0)
    with pytest.raises(ValueError, match="costs"):
        lp_machine(K, y, costs=-np.ones(len(y)))
    with pytest.raises(ValueError, match="shape"):
        lp_machine(K[:-1], y)
    with pytest.raises(ValueError, match="class_weight"):
        LPMachine(class_weight={5: 2.0}).fit(X, y)


def test_estimator_matches_function_and_class_weight_shifts_the_boundary(moons):
    X, y = moons
    m = LPMachine(C=0.05, gamma=2.0).fit(X, y)
    run = lp_machine(rbf_kernel(X, gamma=2.0), y, 0.05)
    np.testing.assert_allclose(m.alpha_, run.alpha)
    np.testing.assert_allclose(m.decision_function(X), y * run.margins, atol=1e-8)
    assert m.objective_ == pytest.approx(run.objective)
    pre = LPMachine(C=0.05, kernel="precomputed").fit(rbf_kernel(X, gamma=2.0), y)
    np.testing.assert_allclose(pre.decision_function(rbf_kernel(X, gamma=2.0)),
                               m.decision_function(X),
                               atol=1e-8)
    heavy = LPMachine(C=0.3, gamma=2.0, class_weight={1.0: 10.0}).fit(X, y)
    plain = LPMachine(C=0.3, gamma=2.0).fit(X, y)
    assert np.sum(heavy.predict(X) == 1) > np.sum(plain.predict(X) == 1)


