"""Inputs a new user may pass by mistake: each is refused with a message naming the problem,
or gives the documented value (issue: every input checked)."""

import warnings

import numpy as np
import pytest

from lecture_pkg.kernel_machines import KernelAdaTron, KernelPerceptron
from lecture_pkg.linear import Adaline, Perceptron, cover_fraction
from lecture_pkg.networks import MLP
from lecture_pkg.networks.alvinn import COLS, ROWS, shifted_copies
from lecture_pkg.prototypes import condensed_nearest_neighbor


@pytest.fixture
def data():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(30, 3))
    return X, np.where(X[:, 0] + 0.2 * rng.normal(size=30) > 0, 1, -1)


@pytest.mark.parametrize("estimator", [Perceptron, Adaline])
@pytest.mark.parametrize("start", [dict(coef_init=[np.nan, 0.0, 0.0]), dict(coef_init=[0.0, np.inf, 0.0]),
                                   dict(intercept_init=np.nan), dict(intercept_init=-np.inf)])
def test_a_start_that_is_not_finite_is_refused(data, estimator, start):
    with pytest.raises(ValueError, match="(coef|intercept)_init must be finite"):
        estimator().fit(*data, **start)


def test_overflowing_inputs_are_refused_by_name(data):
    X, y = data
    with pytest.raises(ValueError, match="too large"):
        Adaline().fit(X * 1e300, y)
    with pytest.raises(ValueError, match="gamma='scale'.*too large"):
        KernelAdaTron().fit(X * 1e300, y)


def test_gradient_descent_that_diverges_says_so(data):
    X, y = data
    net = MLP([3, 4, 1], rng=np.random.default_rng(1), activation="tanh", output_activation="identity")
    with pytest.raises(FloatingPointError, match="diverged.*smaller learning rate"):
        net.fit(X, (y[:, None] > 0).astype(float), eps=1e6, n_epochs=200)


@pytest.mark.parametrize("machine", [KernelAdaTron, KernelPerceptron])
def test_a_kernel_that_returns_nan_is_refused(data, machine):
    def broken(A, B):
        K = A @ B.T
        K[0, 0] = np.nan
        return K

    with pytest.raises(ValueError, match="returned NaN"):
        machine(kernel=broken).fit(*data)


def test_greedy_bias_is_the_midpoint_of_the_optimal_interval_when_no_example_is_free():
    # With no embedding strictly inside (0, C), every b in an interval satisfies the
    # Kuhn-Tucker conditions; the greedy solver returns its midpoint.  The interval is
    # computed here from the embeddings alone: x = 0 needs y (f + b) >= 1, x = C needs
    # y (f + b) <= 1.  A leftover embedding of order 1e-17 must not count as free.
    C, checked = 0.5, 0
    for seed in range(120):
        rng = np.random.default_rng(seed)
        X = rng.normal(size=(12, 2))
        y = np.where(X[:, 0] + 0.3 * rng.normal(size=12) > 0, 1, -1)
        if len(set(y)) < 2:
            continue
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            m = KernelAdaTron(C=C, kernel="linear", mode="greedy", tol=1e-10).fit(X, y)
        a = m.embeddings_
        low, high = a < 1e-9, a > C - 1e-9
        if not np.all(low | high):
            continue
        f = (X @ X.T) @ (a * y)
        lower = np.r_[(y - f)[low & (y > 0)], (y - f)[high & (y < 0)]].max()
        upper = np.r_[(y - f)[low & (y < 0)], (y - f)[high & (y > 0)]].min()
        assert m.intercept_ == pytest.approx(0.5 * (lower + upper), abs=1e-6)
        checked += 1
    assert checked >= 10


def test_condensed_nearest_neighbor_refuses_what_the_estimators_refuse():
    X = np.arange(6.0)[:, None]
    with pytest.raises(ValueError, match="no rows"):
        condensed_nearest_neighbor(np.empty((0, 2)), [])
    with pytest.raises(ValueError):
        condensed_nearest_neighbor(X, [0.0, 0.0, np.nan, 1.0, 1.0, 1.0])
    with pytest.raises(ValueError, match="p must be"):
        condensed_nearest_neighbor(X, [0, 0, 0, 1, 1, 1], metric="minkowski", p=0.5)
    with pytest.raises(ValueError, match="metric must be"):
        condensed_nearest_neighbor(X, [0, 0, 0, 1, 1, 1], metric="cosine")


@pytest.mark.parametrize("P, N", [(np.nan, 3), (6, np.nan), (6.5, 3), (np.inf, 3), (0, 3), ([4, 5.5], 2)])
def test_cover_fraction_refuses_what_cover_count_refuses(P, N):
    with pytest.raises(ValueError, match="positive whole number"):
        cover_fraction(P, N)


def test_cover_fraction_accepts_whole_numbers_in_any_dtype():
    assert cover_fraction(4.0, 2) == cover_fraction(4, 2) == 0.5


def test_shifted_copies_refuse_nan():
    image = np.zeros(ROWS * COLS)
    with pytest.raises(ValueError, match="whole numbers"):
        shifted_copies(image, 0.0, [np.nan])
    with pytest.raises(ValueError, match="direction must be finite"):
        shifted_copies(image, np.nan, [1])
    image[3] = np.nan
    with pytest.raises(ValueError, match="NaN"):
        shifted_copies(image, 0.0, [1])
