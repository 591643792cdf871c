"""The kernel solver keeps one P x P array, and refuses a problem that cannot fit in memory."""

from __future__ import annotations

import tracemalloc
import warnings

import numpy as np
import pytest

from lecture_pkg.kernel_machines import KernelAdaTron, KernelPerceptron, kernel_adatron, rbf_kernel
from lecture_pkg.core import kernels as kernels_module

P = 1500


def _problem(P, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(P, 5))
    y = np.where(X[:, 0] + X[:, 1] ** 2 - 1 + 0.3 * rng.normal(size=P) > 0, 1, -1)
    return X, y


def _peak_bytes(fit) -> int:
    tracemalloc.start()
    try:
        tracemalloc.reset_peak()
        fit()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


@pytest.mark.parametrize("kernel", ["rbf", "poly", "linear"])
@pytest.mark.parametrize("mode, fit_intercept", [("greedy", True), ("greedy", False),
                                                 ("sequential", True), ("sequential", False)])
def test_kernel_adatron_fit_holds_a_single_gram_matrix(kernel, mode, fit_intercept):
    X, y = _problem(P)
    one = P * P * 8
    model = KernelAdaTron(C=1.0, kernel=kernel, mode=mode, fit_intercept=fit_intercept,
                          max_epochs=3)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")     # three epochs need not converge: the memory is the
                                            # point
        peak = _peak_bytes(lambda: model.fit(X, y))
    assert one < peak < 1.3 * one, f"peak {peak / one:.2f} x P^2 * 8 bytes"


def test_the_kernels_are_computed_in_a_single_array():
    X, _ = _problem(P)
    one = P * P * 8
    for kernel in (lambda: rbf_kernel(X, gamma=0.3),
                   lambda: kernels_module.polynomial_kernel(X, degree=3),
                   lambda: kernels_module.linear_kernel(X)):
        assert _peak_bytes(kernel) < 1.1 * one


def test_kernel_adatron_on_a_given_gram_matrix_leaves_it_alone_unless_told():
    X, y = _problem(300)
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
    assert _peak_bytes(lambda: kernel_adatron(K, y, 1.0, overwrite_K=True,
                                              check_psd=None)) < 0.3 * one
    K = original.copy()
    assert one < _peak_bytes(lambda: kernel_adatron(K, y, 1.0, check_psd=None)) < 1.3 * one


def test_a_problem_too_large_for_the_memory_is_refused_before_allocating(monkeypatch):
    X, y = _problem(2000)
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
    X, y = _problem(200)
    monkeypatch.setattr(kernels_module, "_available_memory", lambda: None)
    assert KernelAdaTron().fit(X, y).converged_


def test_available_memory_reads_proc_meminfo():
    value = kernels_module._available_memory()
    try:
        with open("/proc/meminfo", encoding="ascii") as f:
            readable = any(line.startswith("MemAvailable:") for line in f)
    except OSError:
        readable = False
    if readable:
        assert isinstance(value, int) and value > 0
    else:
        assert value is None


@pytest.mark.parametrize("kernel", ["rbf", "poly", "linear"])
@pytest.mark.parametrize("fit_intercept", [True, False])
def test_rows_on_demand_give_the_solution_of_the_whole_matrix(kernel, fit_intercept):
    # A cache smaller than the P x P matrix: the greedy solver reads rows computed on
    # demand and ends at the same solution (kernel values that differ in the last bit
    # may change the path of a long run, not where it ends).
    X, y = _problem(600)
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
    X, y = _problem(3000)
    one = 3000 * 3000 * 8
    model = KernelAdaTron(C=1.0, cache_size=2, max_epochs=2)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        peak = _peak_bytes(lambda: model.fit(X, y))
    assert peak < 0.3 * one, f"peak {peak / one:.2f} x P^2 * 8 bytes"


def test_the_sweep_needs_the_whole_matrix():
    from lecture_pkg.core._rows import KernelRows

    X, y = _problem(50)
    rows = KernelRows(X, y, "rbf", {"gamma": 0.5}, cache_size=1)
    with pytest.raises(ValueError, match="mode='greedy'"):
        kernel_adatron(rows, y, 1.0, mode="sequential")
    np.testing.assert_allclose(rows @ np.ones(50), (np.outer(y, y) * rbf_kernel(X,
                                                                                gamma=0.5)).sum(1),
                               rtol=1e-12)
    np.testing.assert_allclose(rows.diagonal(), 1.0)
