"""Tests of lecture_pkg.linear.generic_perceptron: Biehl's generic update (3.12)-(3.14) and
its special cases, Hebb's rule, Rosenblatt's rule, the sequential Adaline and the AdaTron."""

import warnings

import numpy as np
import pytest

from lecture_pkg import datasets
from lecture_pkg.kernel_machines import adaline_embeddings, adatron_embeddings
from lecture_pkg.linear import (AdaTron, Perceptron, correlation_matrix, generic_perceptron,
                                hebb_student, modulation_function, weights_from_embeddings)


def _teacher_data(seed, P=40, N=10, gap=0.0):
    rng = np.random.default_rng(seed)
    X, y, _ = datasets.teacher_student(P, N, random_state=rng, gap=gap)
    return X, y


@pytest.mark.parametrize("representation", ["weights", "embeddings"])
def test_f_equal_one_for_one_epoch_is_hebbs_rule(representation):
    X, y = _teacher_data(0)
    run = generic_perceptron(X, y, modulation_function("hebb"), representation=representation)
    assert np.array_equal(run.embeddings, np.ones(len(y)))
    assert run.n_updates == len(y) and run.n_epochs == 1
    np.testing.assert_allclose(run.coef, hebb_student(X, y), rtol=0, atol=1e-12)


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("c", [0.0, 0.5])
@pytest.mark.parametrize("shuffle", [False, True])
def test_theta_modulation_is_the_perceptron_estimator_bit_for_bit(seed, c, shuffle):
    X, y = _teacher_data(seed)
    N = X.shape[1]
    run = generic_perceptron(X, y, modulation_function("rosenblatt", margin=c), n_epochs=10_000,
                             shuffle=shuffle, random_state=np.random.default_rng(seed))
    clf = Perceptron(eta=1 / N, margin=c, fit_intercept=False, shuffle=shuffle,
                     random_state=np.random.default_rng(seed)).fit(X, y)
    assert run.converged and clf.converged_
    assert np.array_equal(run.coef, clf.coef_)
    assert np.array_equal(run.embeddings, clf.update_counts_)
    assert run.n_updates == clf.n_updates_ and run.n_epochs == clf.n_epochs_
    assert (y * (X @ run.coef)).min() > c


def test_the_two_representations_give_the_same_run():
    X, y = _teacher_data(7)
    f = modulation_function("rosenblatt", margin=0.5)
    a = generic_perceptron(X, y, f, n_epochs=10_000)
    b = generic_perceptron(X, y, f, n_epochs=10_000, representation="embeddings")
    assert np.array_equal(a.embeddings, b.embeddings)
    np.testing.assert_allclose(a.coef, b.coef, rtol=0, atol=1e-12)
    np.testing.assert_allclose(a.coef, weights_from_embeddings(a.embeddings, X, y), atol=1e-12)


@pytest.mark.parametrize("nonnegative", [False, True])
def test_adaline_modulation_is_the_sequential_adaline_and_with_a_nonnegative_the_adatron(
        nonnegative):
    X, y = _teacher_data(3, P=30, N=15)
    C = correlation_matrix(X, y)
    eta = 0.8 / np.diag(C).max()
    run = generic_perceptron(X, y, modulation_function("adaline", eta=eta), n_epochs=25,
                             representation="embeddings", nonnegative=nonnegative,
                             stop_when_unchanged=False)
    solver = adatron_embeddings if nonnegative else adaline_embeddings
    ref = solver(C, eta, normalize=False, max_epochs=25, tol=0.0)
    assert ref.n_epochs == 25
    assert np.array_equal(run.embeddings, ref.a)
    assert (run.embeddings >= 0).all() if nonnegative else (run.embeddings < 0).any()
    np.testing.assert_allclose(run.coef, weights_from_embeddings(ref.a, X, y), atol=1e-12)
    if nonnegative:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            est = AdaTron(eta=eta, normalize=False, fit_intercept=False, max_epochs=25,
                          tol=0.0).fit(X, y)
        assert np.array_equal(est.embeddings_, run.embeddings)


def test_generic_update_checks_its_arguments():
    X, y = _teacher_data(0, P=5, N=2)
    with pytest.raises(TypeError, match="modulation"):
        generic_perceptron(X, y, 1.0)
    with pytest.raises(ValueError, match="representation"):
        generic_perceptron(X, y, modulation_function("hebb"), representation="dual")
    with pytest.raises(ValueError, match="n_epochs"):
        generic_perceptron(X, y, modulation_function("hebb"), n_epochs=0)
    with pytest.raises(ValueError, match="unknown modulation"):
        modulation_function("minover")
    with pytest.raises(ValueError, match="eta"):
        modulation_function("adaline", eta=-1.0)


def test_rosenblatt_modulation_updates_at_equality():
    f = modulation_function("rosenblatt", margin=0.0)
    assert f(0.0) == 1.0 and f(1e-300) == 0.0 and f(-3.0) == 1.0
