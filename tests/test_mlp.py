"""Tests of lecture_pkg.networks.mlp: sigmoid MLP and backpropagation in the slides' convention."""

import numpy as np
import pytest

from lecture_pkg.networks import (MLP, numerical_gradient, slides_example, train_xor,
                                  xor_threshold_network)
from lecture_pkg.neurons import sigmoid


def test_sigmoid_values_and_no_overflow():
    assert sigmoid(0.0) == 0.5
    np.testing.assert_allclose(sigmoid(np.array([-2.0, 1.0])), 1 / (1 + np.exp([2.0, -1.0])), rtol=1e-15)
    assert sigmoid(-1000.0) == 0.0 and sigmoid(1000.0) == 1.0


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
    np.testing.assert_allclose(hidden, [[0.0132193, 0.0132193, 0.0], [-0.0132193, -0.0132193, 0.0]], atol=1e-7)
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
        net = MLP(sizes, rng=rng, init_scale=1.5)
        X, D = rng.normal(size=(5, sizes[0])), rng.uniform(size=(5, sizes[-1]))
        numeric, exact = fd_check(net, X, D)
        np.testing.assert_allclose(exact, numeric, atol=1e-8)
    net, x, d = slides_example()
    numeric, exact = fd_check(net, x, d)
    np.testing.assert_allclose(exact, numeric, atol=1e-9)


def test_gradient_descent_lowers_the_loss_and_learns_xor():
    net, starts, losses = train_xor(rng=np.random.default_rng(0))
    assert losses[-1] < losses[0]
    assert np.all(np.diff(losses) <= 1e-12)          # small eps: the batch loss falls monotonically here
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
        MLP((2, 1), rng=0).forward(np.zeros((1, 3)))
    with pytest.raises(ValueError, match="eps"):
        MLP((2, 1), rng=0).fit(np.zeros((1, 2)), [[1.0]], eps=0)
    with pytest.raises(RuntimeError, match="no start"):
        train_xor(n_hidden=1, max_restarts=2, n_epochs=50, rng=0)


def test_layer_sizes_and_init_scale_are_checked():
    for sizes, name in [((2, 0, 1), r"layer_sizes\[1\]"), ((2, 1.5), r"layer_sizes\[1\]"),
                        ((-2, 1), r"layer_sizes\[0\]"), ((2, True), r"layer_sizes\[1\]")]:
        with pytest.raises(ValueError, match=name + " must be an integer"):
            MLP(sizes, rng=0)
    for scale in (0.0, -1.0, np.inf, np.nan):
        with pytest.raises(ValueError, match="init_scale"):
            MLP((2, 1), rng=0, init_scale=scale)
    with pytest.raises(ValueError, match="NaN or infinite"):
        MLP((1, 1), [np.array([[0.0, np.nan]])])
    net = MLP((1, 1), rng=0)
    with pytest.raises(ValueError, match="wrong number of weights"):
        net.set_flat([1.0])
    with pytest.raises(ValueError, match="NaN or infinite"):
        net.set_flat([1.0, np.inf])


def test_inputs_and_targets_are_checked_by_every_method():
    net = MLP((2, 2, 1), rng=0)
    X, D = np.array([[0.0, 1.0], [1.0, 0.0], [1.0, 1.0]]), np.array([[1.0], [1.0], [0.0]])
    for method in (net.loss, net.backprop, net.gradient, net.fit):
        with pytest.raises(ValueError, match=r"targets D must have shape \(3, 1\).*got shape \(2, 1\)"):
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
    wide = MLP((2, 3), rng=0)
    assert wide.loss(X[:1], [1.0, 0.0, 1.0]) == wide.loss(X[:1], [[1.0, 0.0, 1.0]])
    with pytest.raises(ValueError, match="targets D must have shape"):
        wide.loss(X, np.zeros((3, 1)))


def test_fit_checks_its_rate_and_epochs():
    net = MLP((2, 1), rng=0)
    X, D = np.zeros((2, 2)), np.ones((2, 1))
    for eps in (0.0, -0.1, np.inf, np.nan):
        with pytest.raises(ValueError, match="eps must be a finite number"):
            net.fit(X, D, eps=eps)
    for n in (-5, 2.5, np.nan):
        with pytest.raises(ValueError, match="n_epochs must be an integer"):
            net.fit(X, D, n_epochs=n)
    w0 = net.get_flat()
    assert net.fit(X, D, n_epochs=0) == [net.loss(X, D)]      # no epochs: only the loss
    np.testing.assert_array_equal(net.get_flat(), w0)
    for kwargs, name in [({"n_hidden": 0}, "n_hidden"), ({"n_epochs": 0}, "n_epochs"),
                         ({"max_restarts": 0}, "max_restarts"), ({"eps": np.inf}, "eps"),
                         ({"init_scale": 0.0}, "init_scale")]:
        with pytest.raises(ValueError, match=name):
            train_xor(rng=0, **kwargs)
    with pytest.raises(ValueError, match="step h"):
        numerical_gradient(lambda w: 0.0, np.zeros(2), h=0.0)
