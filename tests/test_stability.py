"""Tests of lecture_pkg.linear.stability: MinOver, Adaline, AdaTron against the notes and
independent solvers."""

import warnings

import numpy as np
import pytest
from sklearn.exceptions import ConvergenceWarning
from sklearn.svm import SVC

from lecture_pkg import datasets
from lecture_pkg.kernel_machines import (LearningRateWarning, adaline_embeddings,
                                         adatron_embeddings, dual_objective, kkt_residuals,
                                         support_vectors)
from lecture_pkg.linear import (Adaline, AdaTron, MinOver, augment, correlation_matrix,
                                deckert_demo, double_well_grad, double_well_loss,
                                double_well_stationary_points, gd_stability_limit, geometric_margin,
                                gradient_descent_1d, lms_stability_limit, max_margin_hyperplane,
                                minover_embeddings, single_sample_grad, single_sample_loss,
                                stabilities, stability, weights_from_embeddings)


def angle(a, b):
    """Angle between two vectors in units of pi."""
    cos = a @ b / np.linalg.norm(a) / np.linalg.norm(b)
    return float(np.arccos(np.clip(cos, -1, 1)) / np.pi)


@pytest.fixture(scope="module")
def teacher_data():
    rng = np.random.default_rng(0)
    X, y, _ = datasets.teacher_student(40, 20, random_state=rng)
    return X, y


@pytest.fixture(scope="module")
def adatron_solution(teacher_data):
    X, y = teacher_data
    return AdaTron(fit_intercept=False).fit(X, y)


def unit_norm_data(P, N, seed):
    """Inputs with |xi|^2 = N exactly (Q^mumu = 1) and random labels."""
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((P, N))
    X *= np.sqrt(N) / np.linalg.norm(X, axis=1)[:, None]
    return X, np.where(rng.standard_normal(P) > 0, 1, -1)


# ---------------------------------------------------------------- stability (3.39)/(3.40)

def test_stabilities_are_signed_distances_and_scale_invariant():
    rng = np.random.default_rng(1)
    X, y = rng.normal(size=(12, 3)), np.where(rng.normal(size=12) > 0, 1, -1)
    w, b = rng.normal(size=3), 0.4
    kappa = stabilities(X, y, w, b)
    # projection formula: distance of x from the plane w.x + b = 0 is (w.x + b)/|w|
    foot = X - ((X @ w + b) / (w @ w))[:, None] * w
    np.testing.assert_allclose(foot @ w + b, 0, atol=1e-12)
    dist = np.linalg.norm(X - foot, axis=1) * np.sign(X @ w + b)
    np.testing.assert_allclose(kappa, y * dist, atol=1e-12)
    np.testing.assert_allclose(stabilities(X, y, 7.5 * w, 7.5 * b), kappa, atol=1e-12)
    assert (stability(X, y, w, b) == pytest.approx(kappa.min())
            == pytest.approx(geometric_margin(X, y, w, b)))
    with pytest.raises(ValueError, match="zero"):
        stabilities(X, y, np.zeros(3))


# ---------------------------------------------------------------- C, embeddings, dual

def test_correlation_matrix_identities(adatron_solution, teacher_data):
    X, y = teacher_data
    C = correlation_matrix(X, y)
    x = adatron_solution.embeddings_
    w = weights_from_embeddings(x, X, y)
    np.testing.assert_allclose(C, C.T)
    np.testing.assert_allclose(C @ x, y * (X @ w), atol=1e-10)            # (3.59)
    assert w @ w == pytest.approx(x @ C @ x / X.shape[1], rel=1e-12)      # (3.60)
    np.testing.assert_allclose(np.diag(C), np.sum(X**2, axis=1) / X.shape[1])
    with pytest.raises(ValueError, match="rows"):
        correlation_matrix(X, y[:-1])
    with pytest.raises(ValueError, match="embedding"):
        weights_from_embeddings(x[:-1], X, y)


def test_dual_objective_and_strong_duality(adatron_solution, teacher_data):
    X, y = teacher_data
    x = adatron_solution.embeddings_
    C = correlation_matrix(X, y)
    w = adatron_solution.coef_
    N = X.shape[1]
    # primal N/2 |w|^2 = dual f(x*) = sum x / 2 (3.74)
    assert dual_objective(x, C) == pytest.approx(N / 2 * w @ w, rel=1e-8)
    assert dual_objective(x, C) == pytest.approx(x.sum() / 2, rel=1e-8)
    assert dual_objective(np.zeros(len(x)), C) == 0.0


def test_kkt_residuals_and_support_vectors(adatron_solution, teacher_data):
    X, y = teacher_data
    at = adatron_solution
    C = correlation_matrix(X, y)
    res = kkt_residuals(at.embeddings_, C)
    assert res.max() < 1e-6 and at.kkt_.max() < 1e-6
    kappa_max = 1 / np.linalg.norm(at.coef_)
    # kappa_max = 1/|w| = sqrt(N / sum x) = min stability
    assert at.kappa_ == pytest.approx(kappa_max, rel=1e-8)
    assert np.sqrt(X.shape[1] / at.embeddings_.sum()) == pytest.approx(kappa_max, rel=1e-8)
    sv = support_vectors(at.embeddings_)
    np.testing.assert_array_equal(sv, at.support_)
    E = C @ at.embeddings_
    np.testing.assert_allclose(E[sv], 1.0, atol=1e-6)                      # (3.77) on the margin
    others = np.setdiff1d(np.arange(len(y)), sv)
    assert np.all(E[others] >= 1 - 1e-9) and np.all(at.embeddings_[others] == 0)
    assert 0 < len(sv) <= X.shape[1]
    # violated conditions show up in the residuals
    bad = kkt_residuals(-np.ones(len(y)), C)
    assert bad.sign == 1.0 and bad.constraint > 1
    with pytest.raises(ValueError, match="shape"):
        kkt_residuals(np.ones(3), C)
    with pytest.raises(ValueError, match="1-d"):
        support_vectors(np.ones((2, 2)))


def test_support_vectors_alone_reproduce_the_weights(adatron_solution, teacher_data):
    """O.3: the minimum-norm solution of E = 1 on the support vectors is w_max."""
    X, y = teacher_data
    sv = adatron_solution.support_
    w_sv = np.linalg.pinv(X[sv]) @ y[sv]
    np.testing.assert_allclose(w_sv, adatron_solution.coef_, atol=1e-8)
    # Adaline trained on the support vectors only gives the same weights
    ada = Adaline(solver="sequential", normalize=True, eta=1.0, fit_intercept=False,
                  max_epochs=5000, tol=1e-14).fit(X[sv], y[sv])
    np.testing.assert_allclose(ada.coef_, adatron_solution.coef_, atol=1e-8)
    # removing a non-support vector changes nothing
    keep = np.ones(len(y), bool)
    keep[np.setdiff1d(np.arange(len(y)), sv)[0]] = False
    again = AdaTron(fit_intercept=False).fit(X[keep], y[keep])
    np.testing.assert_allclose(again.coef_, adatron_solution.coef_, atol=1e-8)
    # removing a support vector generally does
    keep = np.ones(len(y), bool)
    keep[sv[0]] = False
    other = AdaTron(fit_intercept=False).fit(X[keep], y[keep])
    assert np.linalg.norm(other.coef_ - adatron_solution.coef_) > 1e-4


# ---------------------------------------------------------------- AdaTron

def test_adatron_agrees_with_reference_qp_and_svc(adatron_solution, teacher_data):
    """O.1: AdaTron, the SLSQP reference and scikit-learn's SVC find the same hyperplane."""
    X, y = teacher_data
    w_ref, _, gamma = max_margin_hyperplane(X, y, fit_intercept=False)
    at = adatron_solution
    assert angle(at.coef_, w_ref) < 1e-6
    assert at.kappa_ == pytest.approx(gamma, abs=1e-6)
    # SVC always fits an intercept; on the data together with their mirror images
    # (-x, -y) the optimal intercept is 0 and the homogeneous optimum is unchanged.
    svc = SVC(kernel="linear", C=1e6, tol=1e-6).fit(np.vstack([X, -X]), np.r_[y, -y])
    assert abs(svc.intercept_[0]) < 1e-3
    assert angle(at.coef_, svc.coef_[0]) < 1e-4
    assert 1 / np.linalg.norm(svc.coef_[0]) == pytest.approx(gamma, rel=1e-3)


def test_adatron_parallel_equals_sequential_and_its_cost_increases(adatron_solution, teacher_data):
    X, y = teacher_data
    par = AdaTron(mode="parallel", fit_intercept=False, max_epochs=20000).fit(X, y)
    assert par.converged_
    np.testing.assert_allclose(par.coef_, adatron_solution.coef_, atol=1e-6)
    # the dual cost increases (the source says "decrease"), epoch by epoch
    assert np.all(np.diff(par.objective_history_) >= -1e-12)
    assert par.objective_history_[-1] > par.objective_history_[1]


def test_greedy_adatron_equals_sequential_and_satisfies_the_conditions(adatron_solution,
                                                                       teacher_data):
    X, y = teacher_data
    greedy = AdaTron(mode="greedy", fit_intercept=False, tol=1e-10, max_epochs=20000).fit(X, y)
    assert greedy.converged_
    np.testing.assert_allclose(greedy.coef_, adatron_solution.coef_, atol=1e-6)
    assert greedy.kkt_.max() <= 1e-8
    assert np.all(np.diff(greedy.objective_history_) >= -1e-12)


def test_sequential_adatron_cost_never_decreases_step_by_step(teacher_data):
    X, y = teacher_data
    C = correlation_matrix(X, y)
    run = adatron_embeddings(C, 1.5, max_epochs=30, record_steps=True)
    assert len(run.objective) == 1 + 30 * len(y) or run.converged
    assert np.all(np.diff(run.objective) >= -1e-12)


def test_adatron_fixed_point_and_uniqueness_of_w(adatron_solution, teacher_data):
    X, y = teacher_data
    C = correlation_matrix(X, y)
    x = adatron_solution.embeddings_
    run = adatron_embeddings(C, 1.0, x0=x, max_epochs=1)
    np.testing.assert_allclose(run.x, x, atol=1e-8)
    # a duplicated support vector makes C singular: x is not unique, w is
    sv = adatron_solution.support_[0]
    Xd, yd = np.vstack([X, X[sv]]), np.r_[y, y[sv]]
    Cd = correlation_matrix(Xd, yd)
    a = adatron_embeddings(Cd, 1.0, max_epochs=5000)
    b = adatron_embeddings(Cd, 1.0, max_epochs=5000,
                           x0=np.abs(np.random.default_rng(3).standard_normal(len(yd))))
    assert a.converged and b.converged
    assert np.linalg.norm(a.x - b.x) > 1e-3
    np.testing.assert_allclose(weights_from_embeddings(a.x, Xd, yd),
                               weights_from_embeddings(b.x, Xd, yd), atol=1e-7)


def test_adatron_with_intercept_solves_the_augmented_problem():
    X, y = datasets.koski_example()
    at = AdaTron().fit(X, y)
    w_aug, _, gamma = max_margin_hyperplane(augment(X), y, fit_intercept=False)
    assert at.converged_ and at.score(X, y) == 1.0
    assert angle(np.r_[at.intercept_, at.coef_], w_aug) < 1e-6
    assert at.kappa_ == pytest.approx(gamma, abs=1e-7)
    assert geometric_margin(X, y, at.coef_, at.intercept_) > 0


def test_non_separable_data_stop_at_the_limit_with_a_warning():
    X, y = datasets.xor()
    with pytest.warns(ConvergenceWarning, match="not linearly separable"):
        at = AdaTron(max_epochs=200).fit(X, y)
    assert not at.converged_ and at.n_epochs_ == 200 and at.kkt_.constraint > 0
    with pytest.warns(ConvergenceWarning, match="not linearly separable"):
        mo = MinOver(max_steps=3000).fit(X, y)
    assert not mo.converged_ and mo.n_steps_ == 3000 and mo.kappa_ <= 0


# ---------------------------------------------------------------- MinOver

def test_minover_keeps_the_fewest_error_iterate_when_it_does_not_converge():
    """Non-separable data: the estimator returns the last iterate with the fewest training
    errors along the run (a pocket), not wherever max_steps cut the run off."""
    rng = np.random.default_rng(5)
    X = rng.normal(size=(80, 2))
    y = np.where(X[:, 0] + 0.3 * rng.normal(size=80) > 0, 1, -1)      # overlapping classes
    Xa = np.hstack([X, np.ones((80, 1))])
    C = correlation_matrix(Xa, y)
    run = minover_embeddings(C, 3, max_steps=4000, pocket=True)
    assert not run.converged
    # replay the run: errors after every step, from the step counts' order
    x, errors = np.zeros(80), []
    E = np.zeros(80)
    for _ in range(run.n_steps):
        mu = int(np.argmin(E))
        x[mu] += 1
        E += C[:, mu]
        errors.append(int(np.count_nonzero(E <= 0)))
    assert run.pocket_errors == min(errors)
    with pytest.warns(ConvergenceWarning):
        mo = MinOver(max_steps=4000).fit(X, y)
    np.testing.assert_array_equal(mo.embeddings_, run.pocket)
    assert np.count_nonzero(mo.predict(X) != y) == run.pocket_errors


def test_minover_default_passes_check_classifiers_train_on_float32():
    """scikit-learn's check on its float32 blobs (overlapping classes) gave 0.19 accuracy when
    MinOver returned the iterate where max_steps cut it off; the pocket fixes it."""
    from sklearn.utils.estimator_checks import check_classifiers_train

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check_classifiers_train("MinOver", MinOver(), X_dtype="float32")

def test_minover_approaches_optimal_stability():
    rng = np.random.default_rng(2)
    X, y, _ = datasets.teacher_student(20, 10, random_state=rng)
    at = AdaTron(fit_intercept=False).fit(X, y)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        mo = MinOver(fit_intercept=False, max_steps=300_000, tol=1e-9).fit(X, y)
    assert at.kappa_ - 1e-4 < mo.kappa_ <= at.kappa_ + 1e-12
    assert angle(mo.coef_, at.coef_) < 1e-3
    # tabula rasa: non-negative integer embeddings that count the steps (3.44)
    x = mo.embeddings_
    assert np.all(x >= 0) and np.all(x == np.round(x)) and x.sum() == mo.n_steps_
    np.testing.assert_allclose(mo.coef_, weights_from_embeddings(x, X, np.where(y == 1, 1, -1)))
    # the stability keeps improving on average: late values beat early ones
    k = mo.kappa_history_
    assert len(k) == mo.n_steps_ and k[-1] > k[len(k) // 10] > k[len(k) // 1000]


def test_minover_stopping_criteria_and_variant_with_finite_c():
    rng = np.random.default_rng(5)
    X, y, _ = datasets.teacher_student(15, 5, random_state=rng)
    for criterion in ("angle", "stabilities"):
        mo = MinOver(fit_intercept=False, criterion=criterion, tol=1e-4, check_every=30).fit(X, y)
        assert mo.converged_ and mo.changes_[-1] < 1e-4 and mo.n_steps_ % 30 == 0
        assert np.all(mo.changes_[:-1] >= 1e-4)
    # Krauth-Mezard with finite c stops once every E > c
    C = correlation_matrix(X, y)
    run = minover_embeddings(C, X.shape[1], c=0.5)
    assert run.converged and (C @ run.x).min() > 0.5
    with pytest.raises(ValueError, match="criterion"):
        minover_embeddings(C, 5, criterion="norm")


def test_orthogonal_component_lowers_the_stability():
    """(3.47)-(3.50): adding delta orthogonal to all inputs reduces kappa for P < N."""
    rng = np.random.default_rng(7)
    X, y, _ = datasets.teacher_student(10, 30, random_state=rng)
    w = AdaTron(fit_intercept=False).fit(X, y).coef_
    d = rng.standard_normal(30)
    d -= np.linalg.pinv(X) @ (X @ d)
    d *= 0.3 * np.linalg.norm(w) / np.linalg.norm(d)
    np.testing.assert_allclose(X @ d, 0, atol=1e-10)
    assert stability(X, y, w + d) < stability(X, y, w)


# ---------------------------------------------------------------- Adaline

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


def test_adaline_embeddings_in_biehls_form():
    X, y = unit_norm_data(10, 20, 1)
    C = correlation_matrix(X, y)
    x_star = np.linalg.solve(C, np.ones(10))
    for mode in ("sequential", "parallel"):
        run = adaline_embeddings(C, 1.0, mode=mode, max_epochs=5000)
        assert run.converged
        np.testing.assert_allclose(run.x, x_star, atol=1e-8)
        assert np.all(np.diff(run.objective) >= -1e-12)   # gradient *ascent* on f


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


@pytest.mark.parametrize("eta", [0.5, 1.0, 1.5, 1.9])
def test_window_below_two_converges(eta):
    """O.5 inside the window (|xi|^2 = N)."""
    X, y = unit_norm_data(10, 20, 1)
    C = correlation_matrix(X, y)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        ada = adaline_embeddings(C, eta, normalize=False, max_epochs=3000)
        at = adatron_embeddings(C, eta, normalize=False, max_epochs=3000)
    assert ada.converged and at.converged


@pytest.mark.parametrize("eta", [2.1, 2.5])
def test_window_above_two_fails(eta):
    """O.5 outside the window: Adaline diverges, AdaTron oscillates without converging."""
    X, y = unit_norm_data(10, 20, 1)
    C = correlation_matrix(X, y)
    with pytest.warns(LearningRateWarning, match=r"0 < eta < 2"):
        ada = adaline_embeddings(C, eta, normalize=False, max_epochs=3000)
    with pytest.warns(LearningRateWarning, match=r"0 < eta < 2"):
        at = adatron_embeddings(C, eta, normalize=False, max_epochs=3000)
    assert ada.diverged and not ada.converged
    assert not at.converged and kkt_residuals(at.x, C).max() > 0.1


def test_general_inputs_need_the_normalised_window():
    # |xi|^2 = 4N: the raw window is 0 < eta < 2/4, normalised steps restore 0 < eta < 2
    X, y = unit_norm_data(10, 20, 2)
    C = correlation_matrix(2 * X, y)
    with pytest.warns(LearningRateWarning,
                      match=r"0 < eta < 0\.5 .*Q\^mumu = \|\|x\^mu\|\|\^2 / N = 1"):
        raw = adaline_embeddings(C, 1.0, normalize=False, max_epochs=3000)
    assert raw.diverged
    assert adaline_embeddings(C, 1.0, normalize=True, max_epochs=3000).converged
    with pytest.warns(LearningRateWarning, match="parallel"):
        adatron_embeddings(C, 3.0, mode="parallel", max_epochs=5)


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


@pytest.mark.parametrize("estimator, message", [
    (MinOver(max_steps=0), "max_steps"), (MinOver(tol=0.0), "tol"), (MinOver(check_every=0),
                                                                     "check_every"),
    (MinOver(c="big"), "'c'"), (MinOver(criterion="norm"), "criterion"),
    (AdaTron(max_epochs=0), "max_epochs"), (AdaTron(mode="random"), "mode"), (AdaTron(eta=-1.0),
                                                                              "eta"),
    (AdaTron(tol=-1.0), "tol"),
])
def test_minover_adatron_bad_parameters(estimator, message):
    X, y = datasets.koski_example()
    with pytest.raises(ValueError, match=message):
        estimator.fit(X, y)


@pytest.mark.parametrize("Estimator", [MinOver, AdaTron, Adaline])
def test_bad_input_and_labels(Estimator):
    X, y = datasets.koski_example()
    with pytest.raises(ValueError, match="1 class"):
        Estimator().fit(X, np.ones(6))
    with pytest.raises(ValueError, match="NaN"):
        Estimator().fit(np.array([[np.nan, 1.0], [0.0, 1.0]]), [0, 1])
    labels = np.where(y == 1, "yes", "no")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        model = Estimator().fit(X, labels)
    assert (model.predict(X) == labels).all()


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



# -------------------------------------------------- the engine's box, target and equality options

def test_box_adatron_without_options_is_the_old_path(teacher_data):
    X, y = teacher_data
    C = correlation_matrix(X, y)
    old = adatron_embeddings(C, 1.0, max_epochs=3000)
    new = adatron_embeddings(C, 1.0, max_epochs=3000, upper=np.inf, kkt_tol=1e-10)
    assert old.converged and new.converged
    np.testing.assert_allclose(new.x, old.x, atol=1e-7)
    assert new.kkt_violation <= 1e-10 and np.isnan(old.kkt_violation)


def test_box_adatron_solves_the_box_qp_and_respects_the_bounds():
    from scipy.optimize import minimize

    from lecture_pkg.kernel_machines import box_kkt_violation
    rng = np.random.default_rng(5)
    X = rng.normal(size=(40, 4))
    y = np.where(X[:, 0] + 0.8 * rng.normal(size=40) > 0, 1.0, -1.0)   # not separable
    C = correlation_matrix(X, y)
    p = rng.uniform(0.5, 1.5, size=40)
    run = adatron_embeddings(C, 1.0, upper=0.7, target=p, kkt_tol=1e-10, max_epochs=100000)
    assert run.converged and np.all((run.x >= 0) & (run.x <= 0.7))
    ref = minimize(lambda x: 0.5 * x @ C @ x - p @ x, np.zeros(40), jac=lambda x: C @ x - p,
                   bounds=[(0, 0.7)] * 40, method="L-BFGS-B", options={"ftol": 1e-15,
                                                                       "gtol": 1e-12})
    np.testing.assert_allclose(run.x, ref.x, atol=1e-5)
    assert box_kkt_violation(run.x, p - C @ run.x, 0.7).max() <= 1e-10
    assert np.all(np.diff(run.objective) >= -1e-12)


def test_box_adatron_equality_constraint_gives_the_multiplier():
    from scipy.optimize import minimize
    rng = np.random.default_rng(6)
    X = rng.normal(size=(30, 3))
    y = np.where(X[:, 1] > 0.3, 1.0, -1.0)
    C = correlation_matrix(X, y)
    run = adatron_embeddings(C, 1.0, upper=2.0, equality=y, kkt_tol=1e-9, max_epochs=200000)
    assert run.converged and abs(y @ run.x) <= 1e-9
    ref = minimize(lambda x: 0.5 * x @ C @ x - x.sum(), np.zeros(30), jac=lambda x: C @ x - 1,
                   bounds=[(0, 2.0)] * 30, constraints=[{"type": "eq", "fun": lambda x: y @ x,
                                                          "jac": lambda x: y}],
                   method="SLSQP", options={"ftol": 1e-14, "maxiter": 1000})
    np.testing.assert_allclose(run.x, ref.x, atol=1e-5)
    free = (run.x > 1e-6) & (run.x < 2 - 1e-6)
    # on the free examples 1 - [C x] - lambda y = 0
    np.testing.assert_allclose((1 - C @ run.x)[free], run.multiplier * y[free], atol=1e-7)


def test_box_adatron_bad_options_are_refused():
    C = np.eye(3)
    with pytest.raises(ValueError, match="upper"):
        adatron_embeddings(C, upper=-1.0)
    with pytest.raises(ValueError, match="target"):
        adatron_embeddings(C, target=np.ones(2))
    with pytest.raises(ValueError, match="equality"):
        adatron_embeddings(C, equality=np.ones(4))
    with pytest.raises(ValueError, match="rho"):
        adatron_embeddings(C, rho=1.0)
    with pytest.raises(ValueError, match="kkt_tol"):
        adatron_embeddings(C, kkt_tol=0.0)


def test_greedy_adatron_needs_a_positive_tol_and_says_so():
    X, y = datasets.koski_example()
    with pytest.raises(ValueError,
                       match=r"AdaTron: mode='greedy' needs tol > 0, got tol=0") as info:
        AdaTron(mode="greedy", tol=0).fit(X, y)
    assert "kkt_tol" not in str(info.value)
    assert AdaTron(mode="greedy", tol=1e-8).fit(X, y).converged_
