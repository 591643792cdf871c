"""Tests of lecture_pkg.linear.gradient_descent: activations, gradient descent on Adaline's and the
perceptron's costs, norm penalties, and the learning-rate figures."""

import numpy as np
import pytest
from scipy.optimize import approx_fprime, minimize
from sklearn.linear_model import Lasso

from lecture_pkg import datasets
from lecture_pkg.learning import least_squares
from lecture_pkg.linear import (ACTIVATIONS, Adaline, adaline_descent, adaline_gradient,
                                adaline_loss, augment, batch_perceptron, gd_stability_limit,
                                least_squares_descent, dual_exponent, norm_penalised_least_squares,
                                norm_prox, deckert_demo, double_well_grad, double_well_loss,
                                double_well_stationary_points, gradient_descent_1d,
                                single_sample_grad, single_sample_loss)
from lecture_pkg.neurons import sigmoid


@pytest.fixture(scope="module")
def iris_std():
    X, y = datasets.iris_setosa_vs_rest()
    Z, _, _ = datasets.standardize(X)
    return augment(Z), y.astype(float)


@pytest.mark.parametrize("name", sorted(ACTIVATIONS))
def test_activation_derivatives_match_finite_differences(name):
    alpha, alpha_prime = ACTIVATIONS[name]
    z = np.linspace(-4, 4, 17)
    h = 1e-6
    assert np.allclose(alpha_prime(z), (alpha(z + h) - alpha(z - h)) / (2 * h), atol=1e-8)


def test_logistic_is_the_package_sigmoid():
    z = np.linspace(-30, 30, 7)
    assert np.array_equal(ACTIVATIONS["logistic"][0](z), sigmoid(z))


@pytest.mark.parametrize("name", sorted(ACTIVATIONS))
def test_adaline_gradient_matches_finite_differences(iris_std, name):
    X, y = iris_std
    w = np.array([0.3, -0.7, 1.1])
    numeric = approx_fprime(w, adaline_loss, 1e-7, X, y, name)
    assert np.allclose(adaline_gradient(w, X, y, name), numeric, rtol=1e-5, atol=1e-4)


def test_identity_adaline_matches_the_package_adaline_and_least_squares(iris_std):
    X, y = iris_std
    run = adaline_descent(X, y, eta=0.002, n_epochs=2000)
    assert np.all(np.diff(run.loss) <= 1e-12)                  # convex: loss never rises
    assert np.allclose(run.weights[-1], least_squares(X, y), atol=1e-8)
    est = Adaline(eta=0.002, solver="batch", tol=None, max_epochs=50).fit(X[:, 1:], y)
    short = adaline_descent(X, y, eta=0.002, n_epochs=50)
    assert np.allclose(short.weights[-1], np.r_[est.intercept_, est.coef_], atol=1e-10)


def test_tanh_adaline_descends_and_classifies(iris_std):
    X, y = iris_std
    run = adaline_descent(X, y, eta=0.01, n_epochs=300, activation="tanh")
    assert run.loss[-1] < 0.1 * run.loss[0]
    assert np.all(np.where(X @ run.weights[-1] >= 0, 1, -1) == y)


def test_custom_activation_pair_and_bad_activation(iris_std):
    X, y = iris_std
    cube = (lambda z: z ** 3, lambda z: 3 * z ** 2)
    w = np.array([0.1, 0.2, -0.3])
    numeric = approx_fprime(w, adaline_loss, 1e-7, X, y, cube)
    assert np.allclose(adaline_gradient(w, X, y, cube), numeric, rtol=1e-5, atol=1e-4)
    with pytest.raises(ValueError, match="unknown activation"):
        adaline_loss(w, X, y, "relu")
    with pytest.raises(TypeError):
        adaline_loss(w, X, y, 3)
    with pytest.raises(ValueError, match="one entry per column"):
        adaline_loss(w[:2], X, y)


def test_adaline_diverges_beyond_the_window(iris_std):
    X, y = iris_std
    limit = gd_stability_limit(X)
    assert adaline_descent(X, y, eta=0.9 * limit, n_epochs=3000).loss[-1] < 60
    assert adaline_descent(X, y, eta=1.1 * limit, n_epochs=3000).diverged


def test_batch_perceptron_on_the_slides_example():
    X, c = datasets.mooney_example()
    run = batch_perceptron(augment(X), c, w0=[0.0, -1.0, 1.0])
    # all three wrong at the start; one batch step sums the three corrections
    assert run.errors.tolist() == [3, 0] and run.converged
    assert run.weights[-1].tolist() == [1.0, 2.0, -2.0]


def test_batch_perceptron_stops_on_xor_and_checks_labels():
    X, y = datasets.xor()
    run = batch_perceptron(augment(X), (y + 1) // 2, max_epochs=20)
    assert not run.converged and len(run.weights) == 21 and run.errors.min() > 0
    with pytest.raises(ValueError, match="0 or 1"):
        batch_perceptron(augment(X), y)


def test_least_squares_descent_window_on_the_oaks():
    age, dbh = datasets.oaks()
    A = augment(age)
    lam = np.linalg.eigvalsh(A.T @ A)[-1]
    assert gd_stability_limit(A) == pytest.approx(2 / lam)
    lam_min = np.linalg.eigvalsh(A.T @ A)[0]
    good = least_squares_descent(A, dbh, eta=1 / lam, n_steps=20000)
    assert np.all(np.diff(good.error) <= 1e-9)
    # linear convergence with the rate 1 - lambda_min / lambda_max of the slow direction
    w_star = least_squares(A, dbh)
    assert np.allclose(w_star, [1.285354, 0.1277917], atol=1e-6)
    dist = np.linalg.norm(good.weights - w_star, axis=1)
    rate = 1 - lam_min / lam
    assert dist[-1] <= rate ** 20000 * dist[0] * (1 + 1e-9)
    assert dist[-1] >= 0.5 * rate ** 20000 * dist[0]          # and no faster: it is slow
    bad = least_squares_descent(A, dbh, eta=2.1 / lam, n_steps=10000)
    assert bad.diverged
    # standardising the ages makes A^T A = 12 I: one step with eps = 1/12 lands on the minimum
    Az = augment((age - age.mean()) / age.std())
    assert np.allclose(Az.T @ Az, 12 * np.eye(2))
    fast = least_squares_descent(Az, dbh, eta=1 / 12, n_steps=1)
    assert np.allclose(fast.weights[-1], least_squares(Az, dbh), atol=1e-12)


@pytest.mark.parametrize("p", [1, 2, np.inf])
def test_norm_prox_minimises_its_objective(p):
    rng = np.random.default_rng(7)
    for _ in range(5):
        v, t = rng.normal(size=3) * 2, rng.uniform(0.1, 2.0)
        u = norm_prox(v, t, p)
        obj = lambda z: t * np.linalg.norm(z, ord=p) + 0.5 * np.sum((z - v) ** 2)  # noqa: E731
        best = minimize(obj, u + 0.3, method="Nelder-Mead",
                        options={"xatol": 1e-10, "fatol": 1e-14, "maxiter": 20000})
        assert obj(u) <= best.fun + 1e-9
        # zero exactly when the dual norm of v is at most t
        assert (np.all(u == 0)) == (np.linalg.norm(v, ord=dual_exponent(p)) <= t)


def test_norm_prox_moreau_identity_for_the_max_norm():
    # prox of t||.||_inf plus t * projection of v/t on the unit l1 ball gives back v
    v = np.array([3.0, -1.0, 0.5, 2.0])
    u = norm_prox(v, 1.5, np.inf)
    assert np.isclose(np.abs(v - u).sum(), 1.5)          # the removed part has l1 norm t
    assert np.isclose(np.abs(u).max(), np.abs(u[[0, 3]]).max())
    with pytest.raises(ValueError, match="p = 1, 2 and inf"):
        norm_prox(v, 1.0, 3)
    assert dual_exponent(3) == pytest.approx(1.5)
    with pytest.raises(ValueError):
        dual_exponent(0.5)


def test_l1_penalty_equals_scikit_learn_lasso(iris_std):
    X, y = iris_std
    Z = X[:, 1:]
    for lam in (5.0, 30.0, 80.0):
        fit = norm_penalised_least_squares(Z, y, lam, 1)
        lasso = Lasso(alpha=lam / len(y), tol=1e-12, max_iter=100000).fit(Z, y)
        assert np.allclose(fit.coef, lasso.coef_, atol=1e-8)
        assert fit.intercept == pytest.approx(lasso.intercept_, abs=1e-8)


@pytest.mark.parametrize("p", [1, 2, np.inf])
def test_norm_penalty_optimality_and_threshold(iris_std, p):
    X, y = iris_std
    Z = X[:, 1:]
    Zc, yc = Z - Z.mean(axis=0), y - y.mean()
    q = dual_exponent(p)
    for lam in (0.0, 20.0, 60.0):
        fit = norm_penalised_least_squares(Z, y, lam, p)
        # the subgradient condition: X^T r lies in lam * (subdifferential of ||.||_p at w)
        g = Zc.T @ (yc - Zc @ fit.coef)
        w = fit.coef
        if np.any(w != 0):
            assert np.linalg.norm(g, ord=q) <= lam * (1 + 1e-6) + 1e-8
            assert g @ w == pytest.approx(lam * np.linalg.norm(w, ord=p), abs=1e-6)
        else:
            assert np.linalg.norm(g, ord=q) <= lam + 1e-8
    t = norm_penalised_least_squares(Z, y, 1.0, p).threshold
    assert t == pytest.approx(np.linalg.norm(Zc.T @ yc, ord=q))
    assert np.all(norm_penalised_least_squares(Z, y, t * 1.001, p).coef == 0)
    assert np.any(norm_penalised_least_squares(Z, y, t * 0.95, p).coef != 0)
    assert np.allclose(norm_penalised_least_squares(Z, y, 0.0, p).coef,
                       least_squares(X, y)[1:], atol=1e-9)


# ---------------------------------------------------------------- Deckert's 1-d figures

def test_deckert_learning_rate_figures():
    """O.6."""
    np.testing.assert_allclose(deckert_demo("too_large").iterates(), [5, -5.8, 9.32, -11.848,
                                                                      17.7872],
                               atol=1e-12)
    np.testing.assert_allclose(deckert_demo("too_small").iterates(),
                               [80, 67.02, 61.180703, 57.638607, 55.242967], rtol=1e-6)
    points = double_well_stationary_points()
    assert points["global minimum"] == pytest.approx(-52.334, abs=1e-3)
    assert points["local maximum"] == pytest.approx(5.0516, abs=1e-4)
    assert points["local minimum"] == pytest.approx(47.282, abs=1e-3)
    assert deckert_demo("too_small").iterates(500)[-1] == pytest.approx(points["local minimum"],
                                                                        abs=1e-6)
    assert double_well_loss(points["global minimum"]) < double_well_loss(points["local minimum"])
    ws = deckert_demo("no_convergence").iterates()
    assert len(ws) == 51
    np.testing.assert_allclose(ws[:6], [70, -45.52, -65.986787, 4.321311, 3.183765, 0.257134],
                               atol=1e-6)
    np.testing.assert_allclose(ws[-6:], [50.651471, 40.525844, 54.770473, 29.250768, 52.034605,
                                         37.121074], atol=1e-6)
    assert np.abs(np.diff(ws[-10:])).min() > 1.0
    # eta = 1 on the single example: w -> -3 w + 2
    np.testing.assert_allclose(gradient_descent_1d(single_sample_grad, 5.0, 1.0, 4), [5, -13, 41,
                                                                                      -121, 365])
    assert single_sample_loss(0.5) == 0.0 and single_sample_grad(0.5) == 0.0
    assert double_well_grad(points["local minimum"]) == pytest.approx(0.0, abs=1e-9)
    with pytest.raises(ValueError, match="unknown demo"):
        deckert_demo("just_right")
    with pytest.raises(ValueError, match="n_steps"):
        gradient_descent_1d(single_sample_grad, 0.0, 0.1, -1)
