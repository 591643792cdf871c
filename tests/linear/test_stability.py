"""Tests of lecture_pkg.linear.stability: stabilities, MinOver, the AdaTron and Adaline estimators
(Biehl §3.5--3.6)."""

import warnings

import numpy as np
import pytest
from sklearn.exceptions import ConvergenceWarning
from sklearn.svm import SVC

from lecture_pkg import datasets
from lecture_pkg.kernel_machines import LearningRateWarning
from lecture_pkg.linear import (Adaline, AdaTron, MinOver, augment, correlation_matrix,
                                gd_stability_limit, geometric_margin, lms_stability_limit,
                                max_margin_hyperplane, minover_embeddings, stabilities, stability,
                                weights_from_embeddings)


def angle(a, b):
    """Angle between two vectors in units of pi."""
    cos = a @ b / np.linalg.norm(a) / np.linalg.norm(b)
    return float(np.arccos(np.clip(cos, -1, 1)) / np.pi)


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


def test_greedy_adatron_needs_a_positive_tol_and_says_so():
    X, y = datasets.koski_example()
    with pytest.raises(ValueError,
                       match=r"AdaTron: mode='greedy' needs tol > 0, got tol=0") as info:
        AdaTron(mode="greedy", tol=0).fit(X, y)
    assert "kkt_tol" not in str(info.value)
    assert AdaTron(mode="greedy", tol=1e-8).fit(X, y).converged_
