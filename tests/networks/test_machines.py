"""Tests of lecture_pkg.networks.machines: committee and parity machines (4.7)-(4.15)."""


import numpy as np
import pytest
from sklearn.exceptions import ConvergenceWarning

from lecture_pkg import datasets
from lecture_pkg.linear import sign
from lecture_pkg.networks import (ParityMachine, committee_output, grandmother_unit,
                                  grow_parity_machine, hidden_states, lift_to_sphere, parity_output,
                                  xor_parity_machine)


@pytest.fixture(scope="module")
def units():
    rng = np.random.default_rng(0)
    return rng.normal(size=(3, 4)), rng.normal(size=3), rng.normal(size=(200, 4))


def test_one_unit_machines_are_the_perceptron(units):
    W, theta, X = units
    single = sign(X @ W[0] - theta[0])
    assert np.array_equal(committee_output(W[:1], theta[:1], X), single)
    assert np.array_equal(parity_output(W[:1], theta[:1], X), single)


def test_parity_is_the_parity_of_the_minus_ones_and_committee_the_majority(units):
    W, theta, X = units
    H = hidden_states(W, theta, X)
    assert np.array_equal(parity_output(W, theta, X), (-1) ** np.sum(H == -1, axis=1))
    assert np.array_equal(committee_output(W, theta, X), np.where(H.sum(axis=1) > 0, 1, -1))
    # flipping one unit flips the parity output everywhere, the committee only where that unit
    # is pivotal
    W2, t2 = W.copy(), theta.copy()
    W2[0], t2[0] = -W[0], -theta[0]
    assert np.array_equal(parity_output(W2, t2, X), -parity_output(W, theta, X))
    pivotal = (H[:, 1] != H[:, 2])
    changed = committee_output(W2, t2, X) != committee_output(W, theta, X)
    assert np.array_equal(changed, pivotal)
    with pytest.raises(ValueError, match="odd"):
        committee_output(W[:2], theta[:2], X)
    with pytest.raises(ValueError, match="do not fit"):
        hidden_states(W, theta[:2], X)


def test_parity_machine_with_two_units_realises_xor():
    X, y = datasets.xor()
    W, theta = xor_parity_machine()
    assert parity_output(W, theta, X).tolist() == y.tolist()


def test_lift_and_grandmother_unit():
    rng = np.random.default_rng(1)
    X = rng.normal(size=(30, 3))
    Z, R = lift_to_sphere(X)
    np.testing.assert_allclose(np.linalg.norm(Z, axis=1), R)
    np.testing.assert_array_equal(Z[:, :3], X)
    for p in (0, 7, 29):
        w, th = grandmother_unit(Z, p)
        out = sign(Z @ w - th)
        assert out[p] == -1 and np.sum(out == -1) == 1
    with pytest.raises(ValueError, match="equal norm"):
        grandmother_unit(X, 0)
    with pytest.raises(ValueError, match="delta"):
        grandmother_unit(Z, 0, delta=1e9)


@pytest.mark.parametrize("trainer", ["pocket", "grandmother"])
def test_grown_parity_machine_is_a_universal_classifier(trainer):
    rng = np.random.default_rng(2)
    X = rng.normal(size=(40, 10))
    y = rng.choice([-1.0, 1.0], size=40)                     # random labels
    grown = grow_parity_machine(X, y, trainer=trainer, random_state=rng)
    errors = grown["errors"]
    assert grown["converged"] and errors[-1] == 0
    assert np.all(np.diff(errors) <= -1)                      # at least one error fewer per unit
    assert len(grown["theta"]) <= len(y)
    Z, _ = lift_to_sphere(X)
    assert np.array_equal(parity_output(grown["W"], grown["theta"], Z), y)
    if trainer == "grandmother":
        assert len(grown["theta"]) == errors[0]               # one unit per initial error


def test_relabelling_identity():
    rng = np.random.default_rng(3)
    X = rng.normal(size=(30, 4))
    y = rng.choice([-1.0, 1.0], size=30)
    grown = grow_parity_machine(X, y, random_state=rng)
    Z, _ = lift_to_sphere(X)
    H = hidden_states(grown["W"], grown["theta"], Z)
    S = np.ones(30)
    for m in range(H.shape[1]):
        t = S * y                                    # labels of ID_{m+1}
        S = S * H[:, m]
        assert np.sum(S != y) == np.sum(H[:, m] != t) == grown["errors"][m + 1]


def test_estimator_handles_conflicting_duplicates_and_unit_limit():
    X = np.array([[0.0, 1.0], [0.0, 1.0], [1.0, 0.0], [2.0, 2.0]])
    y = np.array([1, -1, 1, -1])
    with pytest.warns(ConvergenceWarning, match="both labels"):
        m = ParityMachine(random_state=0).fit(X, y)
    assert m.errors_history_[-1] == 1
    rng = np.random.default_rng(4)
    Xr, yr = rng.normal(size=(50, 3)), rng.choice([0, 1], size=50)
    with pytest.warns(ConvergenceWarning, match="limit"):
        ParityMachine(max_units=1, random_state=0).fit(Xr, yr)
    full = ParityMachine(random_state=0).fit(Xr, yr)
    assert full.score(Xr, yr) == 1.0 and full.converged_
    with pytest.raises(ValueError, match="max_units"):
        ParityMachine(max_units=0).fit(Xr, yr)
    with pytest.raises(ValueError, match="trainer"):
        grow_parity_machine(Xr, np.where(yr == 1, 1, -1), trainer="tiling")


