"""Tests of lecture_pkg.linear.minover: MinOver on embedding strengths, its stopping criteria
and its pocket, and the estimator (Biehl §3.5.2); with them the checks of hyper-parameters and
inputs that MinOver shares with the AdaTron and Adaline."""

import warnings

import numpy as np
import pytest
from sklearn.exceptions import ConvergenceWarning

from lecture_pkg import datasets
from lecture_pkg.linear import (Adaline, AdaTron, MinOver, correlation_matrix, minover_embeddings,
                                weights_from_embeddings)
from tests.linear.test_adatron import angle


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
    a = mo.embeddings_
    assert np.all(a >= 0) and np.all(a == np.round(a)) and a.sum() == mo.n_steps_
    np.testing.assert_allclose(mo.coef_, weights_from_embeddings(a, X, np.where(y == 1, 1, -1)))
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
    assert run.converged and (C @ run.a).min() > 0.5
    with pytest.raises(ValueError, match="criterion"):
        minover_embeddings(C, 5, criterion="norm")


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
