"""Helpers that tests in several folders share."""

import tracemalloc

import numpy as np


def kernel_problem(P: int, seed: int = 0):
    """``P`` points in five dimensions with labels from a curved noisy border, for the
    tests of the kernel solvers' memory."""
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(P, 5))
    y = np.where(X[:, 0] + X[:, 1] ** 2 - 1 + 0.3 * rng.normal(size=P) > 0, 1, -1)
    return X, y


def peak_bytes(fit) -> int:
    """Peak memory that Python allocates while ``fit()`` runs (tracemalloc)."""
    tracemalloc.start()
    try:
        tracemalloc.reset_peak()
        fit()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
