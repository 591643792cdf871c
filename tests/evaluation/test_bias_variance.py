"""Tests of lecture_pkg.evaluation.bias_variance: polynomial fits, smoothers and the
bias-variance decomposition."""

import numpy as np
import pytest
from sklearn.linear_model import LinearRegression
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import PolynomialFeatures

from lecture_pkg import evaluation as ev


def cube(x):
    return x**3


X11 = np.linspace(-1, 1, 11)


# ------------------------------------------------------------------ bias and variance

def test_polynomial_fit_matches_numpy_polyfit():
    rng = np.random.default_rng(0)
    y = cube(X11) + 0.1 * rng.normal(size=11)
    for K in (0, 1, 3, 7):
        coef = ev.fit_polynomial(X11, y, K)
        np.testing.assert_allclose(coef, np.polyfit(X11, y, K)[::-1], atol=1e-8)
        np.testing.assert_allclose(ev.polynomial_predict(coef, X11), np.polyval(np.polyfit(X11, y,
                                                                                           K), X11),
                                   atol=1e-8)
    # degree P - 1 interpolates the data exactly (E.20: K = P - 1 suffices)
    np.testing.assert_allclose(ev.polynomial_predict(ev.fit_polynomial(X11, y, 10), X11), y,
                               atol=1e-8)
    ridge = ev.fit_polynomial(X11, y, 3, lam=0.5)
    assert np.linalg.norm(ridge) < np.linalg.norm(ev.fit_polynomial(X11, y, 3))


def test_smoother_reproduces_the_fit_for_any_targets():
    rng = np.random.default_rng(1)
    x_eval = np.array([-1.1, 0.05, 1.1])
    for K, lam in ((1, 0.0), (5, 0.0), (5, 0.3)):
        L = ev.polynomial_smoother(X11, x_eval, K, lam=lam)
        y = rng.normal(size=11)
        np.testing.assert_allclose(L @ y, ev.polynomial_predict(ev.fit_polynomial(X11, y, K,
                                                                                  lam=lam),
                                                                x_eval), atol=1e-10)


def test_closed_form_x2_numbers():
    """X.2: slope 0.712, zero bias for K >= 3, mean variance (K+1)/P rho^2 at the sample points."""
    L1 = ev.polynomial_smoother(X11, X11, 1)
    # sum x^4 / sum x^2 = 0.712
    np.testing.assert_allclose(L1 @ cube(X11), 0.712 * X11, atol=1e-12)
    bv = ev.bias_variance_linear(ev.polynomial_smoother(X11, [-1.0, 1.1], 1), cube, X11, [-1.0,
                                                                                          1.1], 1.0)
    np.testing.assert_allclose(bv.bias2, [0.288**2, (1.1**3 - 0.712 * 1.1) ** 2], atol=1e-12)
    for K in (1, 3, 7, 10):
        bv = ev.bias_variance_linear(ev.polynomial_smoother(X11, X11, K), cube, X11, X11, 0.2)
        assert bv.variance.mean() == pytest.approx(0.2**2 * (K + 1) / 11, rel=1e-10)
        if K >= 3:
            assert np.max(bv.bias2) < 1e-20
    var_11 = [ev.bias_variance_linear(ev.polynomial_smoother(X11, [1.1], K), cube, X11, [1.1],
                                      1.0).variance[0]
              for K in range(11)]
    assert np.all(np.diff(var_11) > 0)                        # more complexity, more variance
    assert var_11[7] == pytest.approx(38.7, rel=2e-3)         # the reference's value


def test_monte_carlo_identity_and_agreement_with_closed_form():
    rng = np.random.default_rng(2)
    x_eval = np.linspace(-1.1, 1.1, 9)
    L = ev.polynomial_smoother(X11, x_eval, 7)
    mc = ev.bias_variance_monte_carlo(L, cube, X11, x_eval, 0.1, 20000, random_state=rng)
    exact = ev.bias_variance_linear(L, cube, X11, x_eval, 0.1)
    np.testing.assert_allclose(mc.bias2 + mc.variance, mc.mse, rtol=1e-12)   # (6.7) exactly
    np.testing.assert_allclose(mc.variance, exact.variance, rtol=0.05)
    np.testing.assert_allclose(mc.mse, exact.mse, rtol=0.05)


def test_monte_carlo_for_any_estimator_agrees_with_the_vectorised_path():
    x_eval = np.array([-1.1, 0.0, 1.1])
    L = ev.polynomial_smoother(X11, x_eval, 3)
    fast = ev.bias_variance_monte_carlo(L, cube, X11, x_eval, 0.2, 200,
                                        random_state=np.random.default_rng(3),
                                        keep_predictions=True)
    by_fn = ev.bias_variance_monte_carlo(
        lambda x, y, xe: ev.polynomial_predict(ev.fit_polynomial(x, y, 3), xe),
        cube, X11, x_eval, 0.2, 200, random_state=np.random.default_rng(3))
    sk = ev.bias_variance_monte_carlo(make_pipeline(PolynomialFeatures(3), LinearRegression()),
                                      cube, X11, x_eval, 0.2, 200,
                                      random_state=np.random.default_rng(3))
    assert fast.predictions.shape == (200, 3)
    for other in (by_fn, sk):
        np.testing.assert_allclose(other.mean_prediction, fast.mean_prediction, atol=1e-9)
        np.testing.assert_allclose(other.variance, fast.variance, atol=1e-9)
    with pytest.raises(TypeError, match="estimator"):
        ev.bias_variance_monte_carlo(3, cube, X11, x_eval, 0.2, 5,
                                     random_state=np.random.default_rng(0))
    with pytest.raises(ValueError, match="shape"):
        ev.bias_variance_monte_carlo(np.ones((2, 11)), cube, X11, x_eval, 0.2, 5,
                                     random_state=np.random.default_rng(0))
    with pytest.raises(ValueError, match="noise"):
        ev.bias_variance_linear(L, cube, X11, x_eval, -1.0)
    with pytest.raises(ValueError, match="NaN"):
        ev.polynomial_design([0.0, np.nan], 2)
