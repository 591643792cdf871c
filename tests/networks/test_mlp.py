"""Tests of lecture_pkg.networks.mlp: the multilayer perceptron and backpropagation."""

import warnings

import numpy as np
import pytest
from sklearn.exceptions import ConvergenceWarning
from sklearn.neural_network import MLPClassifier, MLPRegressor

from lecture_pkg.networks import (MLP, numerical_gradient, slides_example, train_xor,
                                  xor_threshold_network)


def test_the_slides_worked_example():
    net, x, d = slides_example()
    ys, deltas, grads = net.backprop(x, d)
    np.testing.assert_allclose(ys[1][0], [0.5, 0.5])
    assert ys[2][0, 0] == pytest.approx(0.731058, abs=1e-6)
    assert deltas[1][0, 0] == pytest.approx(-0.268942, abs=1e-6)
    assert deltas[0][0, 1] == pytest.approx(-0.052877, abs=1e-6)       # delta_4
    assert deltas[0][0, 0] == pytest.approx(0.052877, abs=1e-6)        # delta_3
    hidden, out = grads
    assert out[0, 1] == pytest.approx(-0.026438, abs=1e-6)              # w53
    assert out[0, 2] == pytest.approx(-0.026438, abs=1e-6)              # w54
    assert hidden[0, 0] == pytest.approx(0.013219, abs=1e-6)            # w30
    # the full table of the reference notes
    np.testing.assert_allclose(hidden, [[0.0132193, 0.0132193, 0.0], [-0.0132193, -0.0132193,
                                                                      0.0]], atol=1e-7)
    assert out[0, 0] == pytest.approx(-0.0528771, abs=1e-7)


def fd_check(net, X, D):
    w0 = net.get_flat()

    def f(w):
        net.set_flat(w)
        return net.loss(X, D)

    numeric = numerical_gradient(f, w0)
    net.set_flat(w0)
    return numeric, net.gradient(X, D)


def test_backprop_equals_finite_differences_on_random_nets():
    rng = np.random.default_rng(0)
    for sizes in [(2, 2, 1), (3, 4, 2), (2, 3, 3, 2)]:
        net = MLP(sizes, random_state=rng, init_scale=1.5)
        X, D = rng.normal(size=(5, sizes[0])), rng.uniform(size=(5, sizes[-1]))
        numeric, exact = fd_check(net, X, D)
        np.testing.assert_allclose(exact, numeric, atol=1e-8)
    net, x, d = slides_example()
    numeric, exact = fd_check(net, x, d)
    np.testing.assert_allclose(exact, numeric, atol=1e-9)


def test_gradient_descent_lowers_the_loss_and_learns_xor():
    net, starts, losses = train_xor(random_state=np.random.default_rng(0))
    assert losses[-1] < losses[0]
    assert np.all(np.diff(losses) <= 1e-12)          # small eta: the batch loss falls
                                                     # monotonically here
    X = np.array([[0, 0], [0, 1], [1, 0], [1, 1]], dtype=float)
    assert ((net.predict_proba(X)[:, 0] >= 0.5).astype(int)).tolist() == [0, 1, 1, 0]


def test_xor_threshold_network_truth_table():
    X = np.array([[0, 0], [0, 1], [1, 0], [1, 1]], dtype=float)
    assert xor_threshold_network(X).tolist() == [0, 1, 1, 0]


def test_bad_input_is_refused():
    with pytest.raises(ValueError, match="layer"):
        MLP((3,))
    with pytest.raises(ValueError, match="shape"):
        MLP((2, 1), [np.zeros((1, 2))])
    with pytest.raises(ValueError, match="inputs"):
        MLP((2, 1), random_state=0).forward(np.zeros((1, 3)))
    with pytest.raises(ValueError, match="eta"):
        MLP((2, 1), random_state=0).fit(np.zeros((1, 2)), [[1.0]], eta=0)
    with pytest.raises(RuntimeError, match="no start"):
        train_xor(n_hidden=1, max_restarts=2, n_epochs=50, random_state=0)


def test_layer_sizes_and_init_scale_are_checked():
    for sizes, name in [((2, 0, 1), r"layer_sizes\[1\]"), ((2, 1.5), r"layer_sizes\[1\]"),
                        ((-2, 1), r"layer_sizes\[0\]"), ((2, True), r"layer_sizes\[1\]")]:
        with pytest.raises(ValueError, match=name + "' must be an integer"):
            MLP(sizes, random_state=0)
    for scale in (0.0, -1.0, np.inf, np.nan):
        with pytest.raises(ValueError, match="init_scale"):
            MLP((2, 1), random_state=0, init_scale=scale)
    with pytest.raises(ValueError, match="NaN or infinite"):
        MLP((1, 1), [np.array([[0.0, np.nan]])])
    net = MLP((1, 1), random_state=0)
    with pytest.raises(ValueError, match="wrong number of weights"):
        net.set_flat([1.0])
    with pytest.raises(ValueError, match="NaN or infinite"):
        net.set_flat([1.0, np.inf])


def test_inputs_and_targets_are_checked_by_every_method():
    net = MLP((2, 2, 1), random_state=0)
    X, D = np.array([[0.0, 1.0], [1.0, 0.0], [1.0, 1.0]]), np.array([[1.0], [1.0], [0.0]])
    for method in (net.loss, net.backprop, net.gradient, net.fit):
        with pytest.raises(ValueError,
                           match=r"targets D must have shape \(3, 1\).*got shape \(2, 1\)"):
            method(X, D[:2])
        with pytest.raises(ValueError, match="targets D contain NaN"):
            method(X, np.array([[1.0], [np.nan], [0.0]]))
        with pytest.raises(ValueError, match="X contains NaN"):
            method(np.array([[0.0, np.inf]] * 3), D)
        with pytest.raises(ValueError, match="X has no rows"):
            method(np.zeros((0, 2)), np.zeros((0, 1)))
        with pytest.raises(ValueError, match="2 inputs, X has 3 columns"):
            method(np.zeros((3, 3)), D)
    with pytest.raises(ValueError, match="X has no rows"):
        net.predict_proba(np.zeros((0, 2)))
    # one target per example for a single output unit, or the targets of one example
    assert net.loss(X, D.ravel()) == net.loss(X, D)
    wide = MLP((2, 3), random_state=0)
    assert wide.loss(X[:1], [1.0, 0.0, 1.0]) == wide.loss(X[:1], [[1.0, 0.0, 1.0]])
    with pytest.raises(ValueError, match="targets D must have shape"):
        wide.loss(X, np.zeros((3, 1)))


def test_fit_checks_its_rate_and_epochs():
    net = MLP((2, 1), random_state=0)
    X, D = np.zeros((2, 2)), np.ones((2, 1))
    for eta in (0.0, -0.1, np.inf, np.nan):
        with pytest.raises(ValueError, match="eta' must be a finite number"):
            net.fit(X, D, eta=eta)
    for n in (-5, 2.5, np.nan):
        with pytest.raises(ValueError, match="'n_epochs' must be an integer"):
            net.fit(X, D, n_epochs=n)
    w0 = net.get_flat()
    assert net.fit(X, D, n_epochs=0) == [net.loss(X, D)]      # no epochs: only the loss
    np.testing.assert_array_equal(net.get_flat(), w0)
    for kwargs, name in [({"n_hidden": 0}, "n_hidden"), ({"n_epochs": 0}, "n_epochs"),
                         ({"max_restarts": 0}, "max_restarts"), ({"eta": np.inf}, "eta"),
                         ({"init_scale": 0.0}, "init_scale")]:
        with pytest.raises(ValueError, match=name):
            train_xor(random_state=0, **kwargs)
    with pytest.raises(ValueError, match="'h' must be a finite number in"):
        numerical_gradient(lambda w: 0.0, np.zeros(2), h=0.0)


@pytest.mark.parametrize("activation,output,init", [
    ("sigmoid", "sigmoid", "uniform"), ("tanh", "tanh", "uniform"), ("tanh", "identity", "glorot"),
    ("sigmoid", "identity", "glorot"), ("tanh", "sigmoid", "glorot")])
def test_backprop_equals_finite_differences_for_every_unit_type_and_depth(activation, output, init):
    rng = np.random.default_rng(1)
    for sizes in [(3, 2), (3, 4, 2), (2, 5, 4, 3, 1), (4, 3, 3, 3, 3, 3, 2)]:
        net = MLP(sizes, random_state=rng, init_scale=1.0, activation=activation,
                  output_activation=output, init=init)
        X, D = rng.normal(size=(6, sizes[0])), rng.uniform(size=(6, sizes[-1]))
        numeric, exact = fd_check(net, X, D)
        np.testing.assert_allclose(exact, numeric, atol=1e-7, rtol=1e-6)


def test_unit_types_compute_the_stated_functions():
    w = [np.array([[0.5, 2.0]]), np.array([[-1.0, 3.0]])]
    x = np.array([[0.25]])
    h = np.tanh(0.5 + 2.0 * 0.25)
    net = MLP((1, 1, 1), w, activation="tanh", output_activation="identity")
    assert net.predict_proba(x)[0, 0] == pytest.approx(-1.0 + 3.0 * h, rel=1e-15)
    assert net.decision_function(x)[0, 0] == pytest.approx(-1.0 + 3.0 * h, rel=1e-15)
    net = MLP((1, 1, 1), w)                                # the slides' logistic units
    s = 1 / (1 + np.exp(-(0.5 + 2.0 * 0.25)))
    assert net.predict_proba(x)[0, 0] == pytest.approx(1 / (1 + np.exp(1.0 - 3.0 * s)), rel=1e-14)
    assert net.predict(x).tolist() == [int(1 / (1 + np.exp(1.0 - 3.0 * s)) >= 0.5)]
    wide = MLP((2, 3), [np.array([[0.0, 1.0, 0.0], [0.0, 0.0, 1.0], [0.1, 0.0, 0.0]])])
    assert wide.predict([[2.0, -1.0], [-1.0, 3.0], [-1.0, -1.0]]).tolist() == [0, 1, 2]


def _sklearn_with_weights(model, net, X, y):
    """Fit a scikit-learn network for one step (to set up its attributes), then give it our
    weights."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        model.fit(X, y)
    model.coefs_ = [w[:, 1:].T.copy() for w in net.weights]
    model.intercepts_ = [w[:, 0].copy() for w in net.weights]
    return model


@pytest.mark.parametrize("activation", ["sigmoid", "tanh"])
def test_forward_pass_equals_scikit_learn_given_the_same_weights(activation):
    """Where the definitions agree the outputs are the same function of the same weights.

    scikit-learn's hidden units 'logistic'/'tanh' are ours; MLPRegressor's output is the
    identity (ours with output_activation='identity'); MLPClassifier's output is a logistic
    unit for two classes (ours) but a softmax over the output potentials for three or more
    classes, which we compare through :meth:`MLP.decision_function`.
    """
    rng = np.random.default_rng(2)
    X = rng.normal(size=(40, 5))
    sk_act = {"sigmoid": "logistic", "tanh": "tanh"}[activation]
    hidden = (7, 4)
    # regression, two outputs
    net = MLP((5, *hidden, 2), random_state=rng, init_scale=1.0, activation=activation,
              output_activation="identity")
    reg = _sklearn_with_weights(MLPRegressor(hidden_layer_sizes=hidden, activation=sk_act,
                                             max_iter=1),
                                net, X, rng.normal(size=(40, 2)))
    np.testing.assert_allclose(reg.predict(X), net.predict_proba(X), rtol=1e-12, atol=1e-12)
    # two classes: one logistic output unit
    net = MLP((5, *hidden, 1), random_state=rng, init_scale=1.0, activation=activation,
              output_activation="sigmoid")
    clf = _sklearn_with_weights(MLPClassifier(hidden_layer_sizes=hidden, activation=sk_act,
                                              max_iter=1),
                                net, X, rng.integers(0, 2, 40))
    np.testing.assert_allclose(clf.predict_proba(X)[:, 1], net.predict_proba(X)[:, 0], rtol=1e-12,
                               atol=1e-14)
    assert np.array_equal(clf.predict(X), net.predict(X))
    # three classes: softmax of our output potentials
    net = MLP((5, *hidden, 3), random_state=rng, init_scale=1.0, activation=activation,
              output_activation="sigmoid")
    clf = _sklearn_with_weights(MLPClassifier(hidden_layer_sizes=hidden, activation=sk_act,
                                              max_iter=1),
                                net, X, np.arange(40) % 3)
    xi = net.decision_function(X)
    soft = np.exp(xi - xi.max(axis=1, keepdims=True))
    np.testing.assert_allclose(clf.predict_proba(X), soft / soft.sum(axis=1, keepdims=True),
                               rtol=1e-12)
    assert np.array_equal(clf.predict(X), np.argmax(xi, axis=1))    # same class: sigma is monotone
    assert np.array_equal(clf.predict(X), net.predict(X))


def test_gradient_norms_are_the_norms_of_the_layer_gradients_and_vanish_with_sigmoids():
    rng = np.random.default_rng(3)
    X, D = rng.normal(size=(50, 20)), rng.uniform(size=(50, 1))
    net = MLP((20,) + (20,) * 8 + (1,), random_state=0, init="glorot")
    grads = net.backprop(X, D)[2]
    np.testing.assert_allclose(net.gradient_norms(X, D), [np.linalg.norm(g) for g in grads])
    norms = net.gradient_norms(X, D)
    assert norms[0] < 1e-3 * norms[-1]                      # sigma' <= 1/4 per layer
    deep_tanh = MLP((20,) + (20,) * 8 + (1,), random_state=0, init="glorot", activation="tanh")
    norms = deep_tanh.gradient_norms(X, D)
    assert norms.max() < 30 * norms.min()                   # same order of magnitude


def test_glorot_initialisation_has_the_stated_range_and_zero_biases():
    net = MLP((30, 10, 5), random_state=0, init="glorot")
    for w, (n_in, n_out) in zip(net.weights, [(30, 10), (10, 5)]):
        a = np.sqrt(6.0 / (n_in + n_out))
        assert np.all(w[:, 0] == 0) and np.abs(w[:, 1:]).max() <= a
        assert np.abs(w[:, 1:]).max() > 0.9 * a
    assert np.std(MLP((200, 200), random_state=0, init="glorot").weights[0][:,
                                                                            1:]) == pytest.approx(
        np.sqrt(2.0 / 400), rel=0.02)                        # Var = a^2/3 = 2/(n_in + n_out)


def test_mini_batch_descent_lowers_the_loss_and_is_reproducible():
    rng = np.random.default_rng(4)
    X = rng.normal(size=(60, 3))
    D = (X[:, :1] + X[:, 1:2] > 0).astype(float)
    runs = []
    for _ in range(2):
        net = MLP((3, 6, 1), random_state=5, init_scale=0.5)
        losses = net.fit(X, D, eta=0.1, n_epochs=50, batch_size=7, random_state=6)
        runs.append(net.get_flat())
    assert len(losses) == 51 and losses[-1] < 0.8 * losses[0]
    np.testing.assert_array_equal(runs[0], runs[1])
    # one batch holding every example is batch gradient descent
    a, b = MLP((3, 6, 1), random_state=5), MLP((3, 6, 1), random_state=5)
    a.fit(X, D, eta=0.05, n_epochs=5)
    b.fit(X, D, eta=0.05, n_epochs=5, batch_size=60, random_state=0)
    np.testing.assert_allclose(a.get_flat(), b.get_flat(), rtol=1e-12, atol=1e-14)
    # batch_size 1 is the online rule: one step per example in the drawn order
    c = MLP((3, 6, 1), random_state=5)
    c.fit(X[:4], D[:4], eta=0.05, n_epochs=1, batch_size=1, random_state=7)
    d = MLP((3, 6, 1), random_state=5)
    for k in np.random.default_rng(7).permutation(4):
        d.set_flat(d.get_flat() - 0.05 * d.gradient(X[k:k + 1], D[k:k + 1]))
    np.testing.assert_allclose(c.get_flat(), d.get_flat(), rtol=1e-12, atol=1e-15)


def test_early_stopping_restores_the_weights_of_the_best_validation_epoch():
    rng = np.random.default_rng(8)
    X, Xv = rng.normal(size=(15, 2)), rng.normal(size=(40, 2))
    f = lambda Z: (np.sin(2 * Z[:, :1]) > 0).astype(float)         # noqa: E731
    D = np.abs(f(X) - (rng.uniform(size=(15, 1)) < 0.3))           # 30 % label noise
    net = MLP((2, 30, 1), random_state=9, init_scale=1.0)
    net.fit(X, D, eta=0.5, n_epochs=400, validation=(Xv, f(Xv)))
    val = np.array(net.validation_losses_)
    assert len(val) == 401 and net.n_epochs_ == 400
    assert net.best_epoch_ == int(np.argmin(val)) < 400
    assert net.loss(Xv, f(Xv)) == pytest.approx(val.min(), rel=1e-12)
    # the same run, stopped by patience, ends with the same weights
    again = MLP((2, 30, 1), random_state=9, init_scale=1.0)
    again.fit(X, D, eta=0.5, n_epochs=400, validation=(Xv, f(Xv)), patience=400 - net.best_epoch_)
    np.testing.assert_array_equal(again.get_flat(), net.get_flat())
    again = MLP((2, 30, 1), random_state=9, init_scale=1.0)
    again.fit(X, D, eta=0.5, n_epochs=400, validation=(Xv, f(Xv)), patience=5)
    assert again.n_epochs_ - again.best_epoch_ == 5
    assert len(again.validation_losses_) == again.n_epochs_ + 1


def test_early_stopping_keeps_the_weights_of_the_last_epoch():
    # last_weights_ is the network that was not stopped: the same descent run on from
    # the kept weights to the last epoch ends there, number for number
    rng = np.random.default_rng(12)
    X, Xv = rng.normal(size=(20, 2)), rng.normal(size=(50, 2))
    D, Dv = (X[:, :1] * X[:, 1:] > 0) * 1.0, (Xv[:, :1] * Xv[:, 1:] > 0) * 1.0
    net = MLP((2, 20, 1), random_state=13, init="glorot", activation="tanh",
              output_activation="sigmoid")
    net.fit(X, D, eta=0.2, n_epochs=300, validation=(Xv, Dv))
    assert net.best_epoch_ < 300
    on = MLP((2, 20, 1), [w.copy() for w in net.weights], activation="tanh",
             output_activation="sigmoid")
    on.fit(X, D, eta=0.2, n_epochs=300 - net.best_epoch_)
    for w_on, w_last in zip(on.weights, net.last_weights_):
        np.testing.assert_array_equal(w_on, w_last)
    assert not any(np.array_equal(a, b) for a, b in zip(net.weights, net.last_weights_))


def test_lbfgs_reaches_a_stationary_point_of_the_same_loss():
    rng = np.random.default_rng(10)
    X = np.linspace(-1, 1, 30)[:, None]
    D = np.sin(3 * X)
    net = MLP((1, 6, 1), random_state=11, init_scale=1.0, output_activation="identity")
    before = net.loss(X, D)
    after = net.fit_lbfgs(X, D, max_iter=2000)
    assert after < 1e-3 * before and after == net.loss(X, D)
    assert np.linalg.norm(net.gradient(X, D)) < 1e-2 and net.n_iter_ >= 1
    assert rng is not None


def test_the_new_parameters_are_checked():
    for kwargs, name in [({"activation": "relu"}, "activation"), ({"activation": "identity"},
                                                                  "activation"),
                         ({"output_activation": "softmax"}, "output_activation"),
                         ({"init": "he"}, "init"), ({"init_scale": np.nan}, "init_scale")]:
        with pytest.raises(ValueError, match=name):
            MLP((2, 2, 1), random_state=0, **kwargs)
    net = MLP((2, 2, 1), random_state=0)
    X, D = np.zeros((3, 2)), np.zeros((3, 1))
    for kwargs, name in [({"batch_size": 0}, "batch_size"), ({"batch_size": 2.5}, "batch_size"),
                         ({"batch_size": np.nan}, "batch_size"),
                         ({"patience": 0, "validation": (X, D)}, "patience"),
                         ({"patience": np.inf, "validation": (X, D)}, "patience"),
                         ({"patience": 3}, "needs a validation set"),
                         ({"validation": (X,)}, "pair"),
                         ({"validation": (X, np.zeros((2, 1)))}, "targets D must have shape"),
                         ({"validation": (np.full((3, 2), np.nan), D)}, "NaN")]:
        with pytest.raises(ValueError, match=name):
            net.fit(X, D, **kwargs)
    for kwargs, name in [({"max_iter": 0}, "max_iter"), ({"tol": -1.0}, "tol"), ({"tol": np.inf},
                                                                                 "tol")]:
        with pytest.raises(ValueError, match=name):
            net.fit_lbfgs(X, D, **kwargs)
