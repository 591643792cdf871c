"""Tests of lecture_pkg.linear.pocket: the number of errors (4.1), its exact minimum in the
plane, and the Pocket algorithm (4.2), corrected and as printed."""

import numpy as np
import pytest

from lecture_pkg.linear import Pocket, min_errors_2d, n_errors, pocket


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
