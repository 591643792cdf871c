"""The Pocket run's trace of the running Rosenblatt weights (``PocketRun.running``)."""

import numpy as np

from lecture_pkg.linear import n_errors, pocket


def _noisy(P, N, flip, seed):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(P, N))
    y = np.where(X @ rng.normal(size=N) >= 0, 1, -1)
    y[rng.choice(P, int(flip * P), replace=False)] *= -1
    return X, y


def test_the_pocket_keeps_the_running_minimum_of_the_running_errors():
    X, y = _noisy(30, 2, 0.2, 0)
    run = pocket(X, y, 3000, np.random.default_rng(1), stop_at_zero=False)
    assert run.running.shape == run.errors.shape
    assert np.array_equal(run.errors, np.minimum.accumulate(run.running))
    assert np.any(np.diff(run.running) > 0)       # the running perceptron gets worse too
    assert run.running[-1] == n_errors(run.w_last, X, y)
    assert run.errors[-1] == n_errors(run.w, X, y)


def test_the_trace_does_not_change_the_run():
    X, y = _noisy(40, 3, 0.1, 2)
    a = pocket(X, y, 2000, np.random.default_rng(5), stop_at_zero=False)
    b = pocket(X, y, 2000, np.random.default_rng(5), stop_at_zero=False)
    assert np.array_equal(a.w, b.w) and a.n_updates == b.n_updates
    assert np.array_equal(a.running, b.running)


def test_a_separable_run_that_stops_at_zero_ends_its_trace_at_zero():
    X, y = _noisy(40, 3, 0.0, 3)
    run = pocket(X, y, 50000, np.random.default_rng(0))
    assert run.errors[-1] == 0 and run.running[-1] == 0
