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
