"""Tests of lecture_pkg.learning.regression against the lecture's equations, numpy, scipy and
scikit-learn."""

import numpy as np
import pytest
from scipy.optimize import minimize
from scipy.stats import norm
from sklearn.linear_model import LinearRegression, Ridge

from lecture_pkg.learning import regression as reg


@pytest.fixture
def data():
    rng = np.random.default_rng(7)
    X = rng.normal(size=(40, 4))
    w_true = np.array([1.0, -2.0, 0.5, 0.0])
    y = X @ w_true + 0.3 * rng.normal(size=40)
    return X, y


@pytest.fixture
def wide():
    rng = np.random.default_rng(8)
    return rng.normal(size=(15, 30)), rng.normal(size=15)


def test_clamped_input_turns_a_threshold_into_a_weight():
    rng = np.random.default_rng(0)
    X, w, theta = rng.normal(size=(6, 3)), rng.normal(size=3), 0.7
    Xa = reg.add_clamped_input(X)
    assert Xa.shape == (6, 4) and np.all(Xa[:, -1] == -1)
    np.testing.assert_allclose(Xa @ np.r_[w, theta], X @ w - theta, atol=1e-12)
    np.testing.assert_allclose(reg.add_clamped_input(X, 1.0) @ np.r_[w, theta], X @ w + theta)
    with pytest.raises(ValueError, match=r"'value' must be a finite number in \(-inf, 0\) or a "
                                         r"finite number in \(0, inf\); got 0.0"):
        reg.add_clamped_input(X, 0.0)
    with pytest.raises(ValueError, match="2-d"):
        reg.add_clamped_input(np.ones(3))


def test_sse_and_gradient_match_definition_and_finite_differences(data):
    X, y = data
    w = np.array([0.3, 0.1, -0.2, 0.4])
    assert reg.sse(w, X, y) == pytest.approx(0.5 * sum((X[m] @ w - y[m]) ** 2 for m in range(40)))
    eps = 1e-6
    fd = [(reg.sse(w + eps * e, X, y) - reg.sse(w - eps * e, X, y)) / (2 * eps) for e in np.eye(4)]
    np.testing.assert_allclose(reg.sse_gradient(w, X, y), fd, rtol=1e-6, atol=1e-6)


def test_least_squares_equals_lstsq_pinv_and_sklearn_and_zeroes_the_gradient(data):
    X, y = data
    w = reg.least_squares(X, y)
    np.testing.assert_allclose(w, np.linalg.pinv(X) @ y, atol=1e-10)
    np.testing.assert_allclose(w, np.linalg.solve(X.T @ X, X.T @ y), atol=1e-10)
    np.testing.assert_allclose(w, LinearRegression(fit_intercept=False).fit(X, y).coef_, atol=1e-10)
    assert np.abs(reg.sse_gradient(w, X, y)).max() < 1e-10


def test_singular_problem_gives_the_minimum_norm_solution_not_a_crash(wide):
    X, y = wide
    w = reg.least_squares(X, y)
    np.testing.assert_allclose(w, np.linalg.pinv(X) @ y, atol=1e-10)
    np.testing.assert_allclose(X @ w, y, atol=1e-10)                  # P < N: interpolates
    # any other interpolating solution is longer
    null = np.linalg.svd(X)[2][-1]
    assert np.linalg.norm(w + 0.1 * null) > np.linalg.norm(w)
    # duplicated feature: X^T X singular even though P > N
    rng = np.random.default_rng(1)
    Z = rng.normal(size=(20, 2))
    Z = np.c_[Z, Z[:, 0]]
    wz = reg.least_squares(Z, rng.normal(size=20))
    assert wz[0] == pytest.approx(wz[2])                              # the minimum-norm split


def test_ridge_matches_normal_equations_sklearn_and_minimises_the_penalised_sse(data):
    X, y = data
    for lam in (0.01, 1.0, 30.0):
        w = reg.ridge(X, y, lam)
        np.testing.assert_allclose(w, np.linalg.solve(X.T @ X + lam * np.eye(4), X.T @ y),
                                   atol=1e-10)
        np.testing.assert_allclose(w, Ridge(alpha=lam, fit_intercept=False).fit(X, y).coef_,
                                   atol=1e-8)
        np.testing.assert_allclose(reg.sse_gradient(w, X, y) + lam * w, 0, atol=1e-10)
        obj = lambda v: reg.sse(v, X, y) + 0.5 * lam * v @ v   # noqa: E731
        res = minimize(obj, np.zeros(4), method="BFGS", options={"gtol": 1e-10})
        np.testing.assert_allclose(w, res.x, atol=1e-6)
    np.testing.assert_allclose(reg.ridge(X, y, 0.0), reg.least_squares(X, y), atol=1e-12)
    with pytest.raises(ValueError, match="lam"):
        reg.ridge(X, y, -1.0)


def test_ridge_tends_to_the_pseudo_inverse_for_small_lambda(wide):
    X, y = wide
    lams = [1e-2, 1e-4, 1e-6, 1e-8]
    path = reg.ridge_path(X, y, lams)
    dist = np.linalg.norm(path - np.linalg.pinv(X) @ y, axis=1)
    assert np.all(np.diff(dist) < 0) and dist[-1] < 1e-5
    # the norm of the ridge weights grows as lam decreases
    assert np.all(np.diff(np.linalg.norm(reg.ridge_path(X, y, [10, 1, 0.1]), axis=1)) > 0)


def test_log_likelihood_is_the_sum_of_normal_log_densities(data):
    X, y = data
    w = np.array([1.0, -1.0, 0.0, 0.2])
    for sigma in (0.3, 2.0):
        expected = norm.logpdf(y, loc=X @ w, scale=sigma).sum()
        assert reg.log_likelihood(w, X, y, sigma) == pytest.approx(expected, rel=1e-12)
    assert reg.log_prior(w, 1.5) == pytest.approx(norm.logpdf(w, scale=1.5).sum(), rel=1e-12)
    assert reg.log_posterior(w, X, y, 0.3, 1.5) == pytest.approx(
        reg.log_likelihood(w, X, y, 0.3) + reg.log_prior(w, 1.5))
    with pytest.raises(ValueError, match="sigma"):
        reg.log_likelihood(w, X, y, 0.0)
    with pytest.raises(ValueError, match="tau"):
        reg.log_prior(w, -1.0)


def test_gradients_of_the_log_densities(data):
    X, y = data
    w, eps = np.array([0.5, 0.1, -0.3, 0.2]), 1e-6
    for f, g in [(lambda v: reg.log_likelihood(v, X, y, 0.7),
                  lambda v: reg.log_likelihood_gradient(v, X, y, 0.7)),
                 (lambda v: reg.log_posterior(v, X, y, 0.7, 2.0),
                  lambda v: reg.log_posterior_gradient(v, X, y, 0.7, 2.0))]:
        fd = [(f(w + eps * e) - f(w - eps * e)) / (2 * eps) for e in np.eye(4)]
        np.testing.assert_allclose(g(w), fd, rtol=1e-6, atol=1e-5)


def test_ml_is_independent_of_sigma_and_map_is_ridge(data):
    X, y = data
    w_ls = reg.least_squares(X, y)
    for sigma in (0.1, 1.0, 10.0):
        assert np.abs(reg.log_likelihood_gradient(w_ls, X, y, sigma)).max() < 1e-8
        res = minimize(lambda v: -reg.log_likelihood(v, X, y, sigma), np.zeros(4),
                       jac=lambda v: -reg.log_likelihood_gradient(v, X, y, sigma), method="BFGS",
                       options={"gtol": 1e-12})
        np.testing.assert_allclose(res.x, w_ls, atol=1e-6)
    for sigma, tau in [(0.3, 1.0), (2.0, 0.5)]:
        w_map = reg.map_estimate(X, y, sigma, tau)
        np.testing.assert_allclose(w_map, reg.ridge(X, y, sigma**2 / tau**2), atol=1e-12)
        np.testing.assert_allclose(reg.log_posterior_gradient(w_map, X, y, sigma, tau), 0,
                                   atol=1e-8)
        np.testing.assert_allclose(reg.bayes_posterior(X, y, sigma, tau)[0], w_map, atol=1e-10)


def test_posterior_and_predictive_against_an_explicit_gaussian_computation(data):
    X, y = data
    sigma, tau = 0.5, 2.0
    m, S = reg.bayes_posterior(X, y, sigma, tau)
    S_ref = np.linalg.inv(np.eye(4) / tau**2 + X.T @ X / sigma**2)
    np.testing.assert_allclose(S, S_ref, atol=1e-12)
    np.testing.assert_allclose(m, S_ref @ X.T @ y / sigma**2, atol=1e-10)
    # Monte Carlo of the predictive: sample w from the posterior, then y from the model
    rng = np.random.default_rng(3)
    xi = np.array([[1.0, 0.5, -1.0, 2.0]])
    mean, var = reg.posterior_predictive(xi, m, S, sigma)
    ws = rng.multivariate_normal(m, S, size=200_000)
    ys = ws @ xi[0] + sigma * rng.normal(size=200_000)
    assert ys.mean() == pytest.approx(mean[0], abs=0.01)
    assert ys.var() == pytest.approx(var[0], rel=0.02)
    with pytest.raises(ValueError, match="cov"):
        reg.posterior_predictive(xi, m, np.eye(3), sigma)


def test_predictive_variance_is_at_least_sigma2_and_shrinks_with_more_data():
    rng = np.random.default_rng(4)
    X = reg.add_clamped_input(rng.uniform(0, 2, size=(200, 1)))
    y = X @ np.array([3.0, 1.0]) + 0.5 * rng.normal(size=200)
    grid = reg.add_clamped_input(np.linspace(-1, 3, 9)[:, None])
    variances = []
    for P in (2, 5, 10, 50, 200):
        m, S = reg.bayes_posterior(X[:P], y[:P], 0.5, 10.0)
        variances.append(reg.posterior_predictive(grid, m, S, 0.5)[1])
    variances = np.array(variances)
    assert np.all(variances >= 0.25)
    assert np.all(np.diff(variances, axis=0) <= 1e-12)
    assert variances[-1].max() < 0.25 * 1.1


def test_residual_variance(data):
    X, y = data
    w = reg.least_squares(X, y)
    r = y - X @ w
    assert reg.residual_variance(w, X, y) == pytest.approx(r @ r / 40)
    assert reg.residual_variance(w, X, y, ddof=4) == pytest.approx(r @ r / 36)
    with pytest.raises(ValueError, match="ddof"):
        reg.residual_variance(w, X, y, ddof=40)


def test_bad_inputs_give_clear_errors(data):
    X, y = data
    with pytest.raises(ValueError, match="40 rows but y has 39"):
        reg.least_squares(X, y[:-1])
    with pytest.raises(ValueError, match="NaN"):
        reg.least_squares(np.where(X > 2, np.nan, X), y)
    with pytest.raises(ValueError, match="shape"):
        reg.sse(np.ones(3), X, y)
    with pytest.raises(ValueError, match="1-d"):
        reg.ridge(X, y[:, None], 1.0)


def test_estimators_with_clamped_intercept(data):
    X, y = data
    y = y + 5.0
    model = reg.RidgeRegression().fit(X, y)
    sk = LinearRegression().fit(X, y)
    np.testing.assert_allclose(model.coef_, sk.coef_, atol=1e-10)
    assert model.intercept_ == pytest.approx(sk.intercept_, abs=1e-10)
    np.testing.assert_allclose(model.predict(X), sk.predict(X), atol=1e-10)
    # ridge penalises the clamped weight too: equal to sklearn Ridge on the augmented inputs
    r = reg.RidgeRegression(lam=3.0).fit(X, y)
    skr = Ridge(alpha=3.0, fit_intercept=False).fit(reg.add_clamped_input(X), y)
    np.testing.assert_allclose(np.r_[r.coef_, -r.intercept_], skr.coef_, atol=1e-8)
    b = reg.BayesianLinearRegression(sigma=0.5, tau=2.0).fit(X, y)
    np.testing.assert_allclose(b.predict(X), reg.RidgeRegression(lam=0.25 / 4).fit(X, y).predict(X),
                               atol=1e-9)
    mean, std = b.predict(X[:3], return_std=True)
    assert np.all(std >= 0.5)
    with pytest.raises(ValueError, match="lam"):
        reg.RidgeRegression(lam=-1).fit(X, y)
    with pytest.raises(ValueError, match="tau"):
        reg.BayesianLinearRegression(tau=0).fit(X, y)
    with pytest.raises(ValueError, match="fit_intercept"):
        reg.RidgeRegression(fit_intercept="yes").fit(X, y)


