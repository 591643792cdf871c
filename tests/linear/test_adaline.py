"""Tests of lecture_pkg.linear.adaline: Adaline's batch, sequential and mini-batch descent,
its embedding strengths and the windows of its learning rate (Biehl §3.6.2, Deckert)."""

import warnings

import numpy as np
import pytest
from sklearn.exceptions import ConvergenceWarning

from lecture_pkg import datasets
from lecture_pkg.kernel_machines import LearningRateWarning
from lecture_pkg.linear import (Adaline, AdaTron, augment, correlation_matrix, gd_stability_limit,
                                lms_stability_limit)


def test_adaline_pinv_for_p_below_n_and_least_squares_above():
    """O.4."""
    rng = np.random.default_rng(1)
    X = rng.standard_normal((15, 30))
    y = np.where(rng.standard_normal(15) > 0, 1, -1)
    seq = Adaline(solver="sequential", normalize=True, eta=1.0, fit_intercept=False,
                  max_epochs=2000, tol=1e-13).fit(X, y)
    np.testing.assert_allclose(seq.coef_, np.linalg.pinv(X) @ y, atol=1e-9)
    batch = Adaline(eta=0.5 * gd_stability_limit(X), fit_intercept=False, max_epochs=5000,
                    tol=1e-13).fit(X, y)
    np.testing.assert_allclose(batch.coef_, np.linalg.pinv(X) @ y, atol=1e-9)
    # embeddings: w = (1/N) sum x y xi and x = C^-1 1 for P < N
    C = correlation_matrix(X, y)
    np.testing.assert_allclose(seq.embeddings_, np.linalg.solve(C, np.ones(15)), atol=1e-7)
    Xl = rng.standard_normal((60, 10))
    yl = np.where(rng.standard_normal(60) > 0, 1, -1)
    big = Adaline(eta=0.5 * gd_stability_limit(Xl), fit_intercept=False, max_epochs=5000,
                  tol=1e-13).fit(Xl, yl)
    np.testing.assert_allclose(big.coef_, np.linalg.lstsq(Xl, yl, rcond=None)[0], atol=1e-9)


def test_adaline_can_give_negative_embeddings():
    # one example far on the correct side is pulled back to E = 1
    X = np.array([[1.0, 0.0], [-3.0, -1.0]])
    y = np.array([1, -1])
    ada = Adaline(solver="sequential", normalize=True, eta=1.0, fit_intercept=False,
                  max_epochs=500, tol=1e-14).fit(X, y)
    np.testing.assert_allclose(y * (X @ ada.coef_), [1, 1], atol=1e-10)
    assert ada.embeddings_.min() < 0
    at = AdaTron(fit_intercept=False).fit(X, y)
    assert at.embeddings_.min() >= 0 and (y * (X @ at.coef_)).min() == pytest.approx(1.0)


def test_adaline_on_standardised_iris_and_its_stability_limit():
    """O.7: batch GD equals least squares below 2/lambda_max and diverges above."""
    X, y = datasets.iris_setosa_vs_rest()
    Z, _, _ = datasets.standardize(X)
    Za = augment(Z)
    limit = gd_stability_limit(Za)
    assert limit == pytest.approx(2 / np.linalg.eigvalsh(Za.T @ Za).max())
    w_ls = np.linalg.lstsq(Za, y, rcond=None)[0]
    below = Adaline(eta=0.99 * limit, max_epochs=3000, tol=1e-13).fit(Z, y)
    assert below.converged_
    np.testing.assert_allclose(np.r_[below.intercept_, below.coef_], w_ls, atol=1e-8)
    assert np.all(np.diff(below.loss_) <= 1e-12)
    with pytest.warns(LearningRateWarning, match="batch gradient descent"):
        with pytest.warns(ConvergenceWarning, match="diverged"):
            above = Adaline(eta=1.01 * limit, max_epochs=3000).fit(Z, y)
    assert above.diverged_ and above.loss_[-1] > 1e10 * above.loss_[0]


def test_minibatch_reduces_to_batch_and_sequential():
    X, y = datasets.iris_setosa_vs_rest()
    Z, _, _ = datasets.standardize(X)
    batch = Adaline(eta=0.005, max_epochs=30, tol=None).fit(Z, y)
    mb_all = Adaline(eta=0.005, solver="minibatch", batch_size=150, max_epochs=30, tol=None).fit(Z,
                                                                                                 y)
    np.testing.assert_allclose(mb_all.coef_, batch.coef_, atol=1e-12)
    np.testing.assert_allclose(mb_all.loss_, batch.loss_, atol=1e-10)
    seq = Adaline(eta=0.005, solver="sequential", max_epochs=30, tol=None).fit(Z, y)
    mb_one = Adaline(eta=0.005, solver="minibatch", batch_size=1, max_epochs=30, tol=None).fit(Z, y)
    np.testing.assert_allclose(mb_one.coef_, seq.coef_, atol=1e-12)
    # shuffled mini-batches still get close to least squares
    mb = Adaline(eta=0.01, solver="minibatch", batch_size=10, shuffle=True, random_state=0,
                 max_epochs=200, tol=None).fit(Z, y)
    w_ls = np.linalg.lstsq(augment(Z), y, rcond=None)[0]
    assert np.linalg.norm(np.r_[mb.intercept_, mb.coef_] - w_ls) < 0.05


def test_adaline_history_errors_and_start_weights():
    X, y = datasets.koski_example()
    ada = Adaline(eta=0.02, max_epochs=50, tol=None, record_history=True).fit(
        X, y, coef_init=[1.0, 0.5], intercept_init=0.3)
    assert ada.history_.shape == (51, 3)
    np.testing.assert_allclose(ada.history_[0], [0.3, 1.0, 0.5])
    np.testing.assert_allclose(ada.history_[-1], np.r_[ada.intercept_, ada.coef_])
    assert len(ada.loss_) == 51 and len(ada.errors_per_epoch_) == 50
    assert ada.errors_per_epoch_[-1] == np.sum(ada.predict(X) != y)
    with pytest.raises(ValueError, match="coef_init"):
        Adaline().fit(X, y, coef_init=[1.0])
    with pytest.raises(ValueError, match="intercept_init"):
        Adaline(fit_intercept=False).fit(X, y, intercept_init=1.0)


def test_adaline_reproduces_deckert_and_gate_trajectory():
    # Deckert's AND-gate Adaline notebook: w0 = (1, 1, 1), eta = 0.1, batch updates
    X = np.array([[0.0, 0.0], [0.0, 1.0], [1.0, 0.0], [1.0, 1.0]])
    y = np.array([-1, -1, -1, 1])
    ada = Adaline(eta=0.1, max_epochs=5, tol=None, record_history=True).fit(
        X, y, coef_init=[1.0, 1.0], intercept_init=1.0)
    np.testing.assert_allclose(ada.history_[1:4], [[0, 0.5, 0.5], [-0.4, 0.35, 0.35],
                                                   [-0.58, 0.325, 0.325]], atol=1e-12)


def test_learning_rate_windows():
    X = np.array([[1.0, 0.0], [0.0, 2.0]])
    assert gd_stability_limit(X) == pytest.approx(0.5)
    assert lms_stability_limit(X) == pytest.approx(0.5)
    with pytest.warns(LearningRateWarning, match="sequential LMS"):
        Adaline(eta=0.6, solver="sequential", max_epochs=5, tol=None).fit(X, [1, -1])
    with pytest.warns(LearningRateWarning, match="normalised LMS"):
        Adaline(eta=2.5, solver="sequential", normalize=True, max_epochs=5, tol=None).fit(X, [1,
                                                                                              -1])
    with pytest.warns(LearningRateWarning, match="mini-batches of 2"):
        with pytest.warns(ConvergenceWarning, match="diverged"):
            Adaline(eta=5.0, solver="minibatch", batch_size=2, max_epochs=50, tol=None).fit(
                np.vstack([X, X]), [1, -1, 1, -1])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        Adaline(eta=0.3, solver="minibatch", batch_size=2, max_epochs=50, tol=None).fit(
            np.vstack([X, X]), [1, -1, 1, -1])


@pytest.mark.parametrize("params, message", [
    ({"eta": 0}, "eta"), ({"solver": "newton"}, "solver"), ({"solver": "minibatch"}, "batch_size"),
    ({"normalize": True}, "normalize"), ({"max_epochs": 0}, "max_epochs"), ({"tol": -1.0}, "tol"),
    ({"bias_input": 0.0}, "bias_input"),
])
def test_adaline_bad_parameters(params, message):
    X, y = datasets.koski_example()
    with pytest.raises(ValueError, match=message):
        Adaline(**params).fit(X, y)
