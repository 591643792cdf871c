"""Tests of lecture_pkg.networks.mlp_estimators: the MLP as a scikit-learn classifier and regressor.

scikit-learn's own estimator checks run in test_common.py; here: that the estimators train
exactly the network MLP trains by hand, with the draws in the documented order, and that
they say when descent fails.
"""

import warnings

import numpy as np
import pytest
from sklearn.base import clone
from sklearn.datasets import load_iris, make_moons
from sklearn.exceptions import ConvergenceWarning
from sklearn.model_selection import cross_val_score
from sklearn.neural_network import MLPRegressor as SkMLPRegressor
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

from lecture_pkg.networks import MLP, MLPClassifier, MLPRegressor


def test_the_classifier_trains_the_network_mlp_trains_by_hand():
    """Same draws in the stated order: validation split, start, mini-batch orders."""
    X, y = make_moons(120, noise=0.2, random_state=1)
    y = np.where(y == 1, 1, -1)
    clf = MLPClassifier((5,), eta=0.05, max_epochs=40, batch_size=10, validation_fraction=0.25,
                        patience=10, random_state=3).fit(X, y)
    rng = np.random.default_rng(3)
    val = rng.permutation(120) < 30
    net = MLP((2, 5, 1), random_state=rng, init="glorot", activation="tanh",
              output_activation="sigmoid")
    losses = net.fit(X[~val], y[~val] == 1, eta=0.05, n_epochs=40, batch_size=10, random_state=rng,
                     validation=(X[val], y[val] == 1), patience=10)
    for a, b in zip(clf.network_.weights, net.weights):
        np.testing.assert_array_equal(a, b)
    assert clf.loss_curve_ == losses and clf.best_epoch_ == net.best_epoch_
    p = net.predict_proba(X)[:, 0]
    np.testing.assert_array_equal(clf.predict_proba(X), np.column_stack([1 - p, p]))
    np.testing.assert_array_equal(clf.predict(X), np.where(p >= 0.5, 1, -1))


def test_a_shared_generator_continues_its_stream_from_fit_to_fit():
    X, y = make_moons(60, noise=0.2, random_state=0)
    gen = np.random.default_rng(5)
    clf = MLPClassifier((3,), max_epochs=5, random_state=gen)
    first = clf.fit(X, y).network_.get_flat()
    second = clf.fit(X, y).network_.get_flat()
    assert not np.array_equal(first, second)
    again = MLPClassifier((3,), max_epochs=5, random_state=5).fit(X, y).network_.get_flat()
    np.testing.assert_array_equal(first, again)


def test_several_classes_are_one_hot_sigmoid_units():
    X, y = load_iris(return_X_y=True)
    clf = make_pipeline(StandardScaler(), MLPClassifier((8,), eta=0.01, max_epochs=300,
                                                        random_state=0))
    clf.fit(X, y)
    net = clf[-1].network_
    assert net.layer_sizes == (4, 8, 3) and net.output_activation == "sigmoid"
    assert clf.score(X, y) > 0.95
    proba = clf.predict_proba(X)
    np.testing.assert_allclose(proba.sum(axis=1), 1.0)
    outputs = net.predict_proba(clf[0].transform(X))
    np.testing.assert_array_equal(clf.predict(X), np.argmax(outputs, axis=1))


def test_the_classifier_works_in_cross_validation_with_string_labels():
    X, y = make_moons(200, noise=0.15, random_state=2)
    labels = np.array(["lower", "upper"])[y]
    scores = cross_val_score(MLPClassifier((16,), eta=0.05, max_epochs=150, random_state=0), X,
                             labels, cv=4)
    assert scores.min() > 0.9
    clf = clone(MLPClassifier(random_state=0)).fit(X, labels)
    assert set(clf.predict(X)) <= {"lower", "upper"}


def test_the_regressor_reaches_what_scikit_learns_lbfgs_reaches():
    """A smooth function of one input: ours by L-BFGS on the same squared error, the oracle
    scikit-learn's MLPRegressor (L-BFGS, no penalty): both fit it closely."""
    x = np.linspace(-1, 1, 80)[:, None]
    f = np.sin(2.5 * x[:, 0])
    ours = MLPRegressor((10,), solver="lbfgs", max_epochs=2000, random_state=0).fit(x, f)
    theirs = SkMLPRegressor(hidden_layer_sizes=(10,), activation="tanh", solver="lbfgs", alpha=0.0,
                            max_iter=2000,
                            random_state=0).fit(x, f)
    assert ours.score(x, f) > 0.999 and theirs.score(x, f) > 0.999
    assert ours.network_.output_activation == "identity"
    assert ours.predict(x).shape == (80,)
    two = MLPRegressor((10,), solver="lbfgs", random_state=0).fit(x, np.column_stack([f, -f]))
    assert two.predict(x).shape == (80, 2)


def test_a_rate_that_makes_descent_overflow_is_an_error_and_a_rising_loss_a_warning():
    X, y = make_moons(100, noise=0.2, random_state=0)
    with pytest.raises(FloatingPointError, match="diverged"):
        MLPRegressor((4,), eta=1e3, batch_size=None, random_state=0).fit(1e3 * X, 1e3 * y)
    with pytest.warns(ConvergenceWarning, match="rose"):
        MLPRegressor((4,), eta=0.3, max_epochs=20, batch_size=None, random_state=0).fit(X, y)
    with warnings.catch_warnings():
        warnings.simplefilter("error", ConvergenceWarning)
        MLPRegressor((4,), eta=0.002, max_epochs=20, batch_size=None, random_state=0).fit(X, y)


@pytest.mark.parametrize("params, match", [
    (dict(hidden_layer_sizes=(4, 0)), "hidden_layer_sizes"),
    (dict(hidden_layer_sizes=3), "hidden_layer_sizes"),
    (dict(eta=np.nan), "eta"),
    (dict(validation_fraction=1.0), "validation_fraction"),
    (dict(patience=5), "patience"),
    (dict(solver="lbfgs", validation_fraction=0.2), "validation_fraction"),
    (dict(validation_fraction=0.01), "validation_fraction"),
])
def test_bad_parameters_are_refused_by_name(params, match):
    X, y = make_moons(40, noise=0.2, random_state=0)
    with pytest.raises(ValueError, match=match):
        MLPClassifier(**params).fit(X, y)


def test_one_class_is_refused():
    with pytest.raises(ValueError, match="two classes"):
        MLPClassifier().fit(np.zeros((4, 2)), [1, 1, 1, 1])
