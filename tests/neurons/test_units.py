"""Tests of lecture_pkg.neurons.units: model neurons, layers and Hebb's rule."""

import numpy as np
import pytest
from scipy.special import expit

from lecture_pkg.neurons import (feed_forward, hebb_update, layer_forward, mcculloch_pitts,
                                 one_hidden_layer, perceptron_output, sigmoid_activation,
                                 sigmoid_derivative, tanh_activation, tanh_derivative, sigmoid)


GRID = np.linspace(-5, 5, 401)


@pytest.mark.parametrize("gamma, theta", [(0.5, 0.0), (1.0, 1.5), (4.0, -2.0)])
def test_sigmoid_is_a_logistic_function_with_slope_2gamma(gamma, theta):
    h = sigmoid_activation(GRID, gamma, theta)
    np.testing.assert_allclose(h, expit(2 * gamma * (GRID - theta)), atol=1e-12)
    assert sigmoid_activation(theta, gamma, theta) == pytest.approx(0.5, abs=1e-15)
    assert np.all(np.diff(h) >= 0) and h.min() >= 0 and h.max() <= 1


@pytest.mark.parametrize("gamma, theta", [(0.5, 0.0), (1.0, 1.5), (4.0, -2.0)])
def test_tanh_activation_is_2h_minus_1_with_gain_gamma_at_threshold(gamma, theta):
    g = tanh_activation(GRID, gamma, theta)
    np.testing.assert_allclose(g, 2 * sigmoid_activation(GRID, gamma, theta) - 1, atol=1e-12)
    assert tanh_derivative(theta, gamma, theta) == pytest.approx(gamma, abs=1e-12)
    assert sigmoid_derivative(theta, gamma, theta) == pytest.approx(gamma / 2, abs=1e-12)
    assert tanh_activation(50.0, gamma, theta) == pytest.approx(1.0)
    assert tanh_activation(-50.0, gamma, theta) == pytest.approx(-1.0)


@pytest.mark.parametrize("gamma", [0.3, 1.0, 3.0])
def test_derivatives_match_finite_differences(gamma):
    eps = 1e-6
    fd_g = (tanh_activation(GRID + eps, gamma, 0.4) - tanh_activation(GRID - eps, gamma,
                                                                      0.4)) / (2 * eps)
    fd_h = (sigmoid_activation(GRID + eps, gamma, 0.4) - sigmoid_activation(GRID - eps, gamma,
                                                                            0.4)) / (2 * eps)
    np.testing.assert_allclose(tanh_derivative(GRID, gamma, 0.4), fd_g, atol=1e-8)
    np.testing.assert_allclose(sigmoid_derivative(GRID, gamma, 0.4), fd_h, atol=1e-8)
    h = sigmoid_activation(GRID, gamma, 0.4)
    np.testing.assert_allclose(sigmoid_derivative(GRID, gamma, 0.4), 2 * gamma * h * (1 - h),
                               atol=1e-12)


def test_infinite_gain_limit_is_the_mcculloch_pitts_step():
    theta = 0.7
    x = GRID[np.abs(GRID - theta) > 1e-3]
    np.testing.assert_array_equal(tanh_activation(x, 1e5, theta), mcculloch_pitts(x, theta))
    assert mcculloch_pitts(theta, theta) == 1            # sign(0) = +1
    assert mcculloch_pitts([-1e-300, 0.0, 2.0]).tolist() == [-1, 1, 1]
    assert mcculloch_pitts([1.0]).dtype.kind == "i"


def test_bad_gain_and_nan_are_rejected():
    for bad in (0.0, -1.0, np.inf):
        with pytest.raises(ValueError, match="'gamma' must be a finite number in"):
            tanh_activation(1.0, bad)
        with pytest.raises(ValueError, match="'gamma' must be a finite number in"):
            sigmoid_activation(1.0, bad)
    with pytest.raises(ValueError, match="NaN"):
        mcculloch_pitts([np.nan])


def test_hebb_update_is_the_outer_product_of_post_and_pre():
    post, pre = np.array([1.0, -1.0]), np.array([1.0, 1.0, -1.0])
    dW = hebb_update(post, pre, eta=0.5)
    assert dW.shape == (2, 3)
    np.testing.assert_array_equal(dW, 0.5 * np.array([[1, 1, -1], [-1, -1, 1]]))
    # two silent (-1) neurons also strengthen their synapse in the symmetrised picture
    assert hebb_update([-1.0], [-1.0])[0, 0] == 1.0
    with pytest.raises(ValueError, match="1-d"):
        hebb_update([[1.0]], [1.0])


def test_layers_and_batches():
    rng = np.random.default_rng(1)
    W1, W2 = rng.normal(size=(4, 3)), rng.normal(size=(2, 4))
    X = rng.normal(size=(5, 3))
    layers = feed_forward(X, [W1, W2])
    assert [a.shape for a in layers] == [(5, 3), (5, 4), (5, 2)]
    np.testing.assert_allclose(layers[-1], np.tanh(np.tanh(X @ W1.T) @ W2.T), atol=1e-12)
    # a single input gives the same as the corresponding batch row
    np.testing.assert_allclose(feed_forward(X[2], [W1, W2])[-1], layers[-1][2], atol=1e-12)
    with pytest.raises(ValueError, match="do not match"):
        layer_forward(X, W2)
    with pytest.raises(ValueError, match="2-d"):
        layer_forward(X, np.ones(3))
    with pytest.raises(ValueError, match="at least one"):
        feed_forward(X, [])


def test_one_hidden_layer_formula_and_linear_case():
    rng = np.random.default_rng(2)
    W, v, xi = rng.normal(size=(3, 5)), rng.normal(size=3), rng.normal(size=5)
    S, sigma = one_hidden_layer(xi, W, v)
    assert sigma.shape == (3,)
    assert S == pytest.approx(np.tanh(sum(v[k] * np.tanh(W[k] @ xi) for k in range(3))), abs=1e-12)
    assert -1 < S < 1
    S_lin, _ = one_hidden_layer(xi, W, v, g=lambda x: x)
    assert S_lin == pytest.approx(v @ W @ xi, abs=1e-12)
    with pytest.raises(ValueError, match="W must be"):
        one_hidden_layer(xi, W, np.ones(4))


def test_perceptron_output_is_a_threshold_unit():
    X = np.array([[1.0, 1.0], [0.5, 0.5], [0.0, 0.0], [2.0, -1.0]])
    out = perceptron_output(X, [1.0, 1.0], theta=1.0)
    assert out.tolist() == [1, 1, -1, 1]   # (0.5, 0.5) and (2, -1) lie on the plane: sign(0)=+1
    Z = np.random.default_rng(0).normal(size=(50, 2))
    assert set(np.unique(perceptron_output(Z, [1, 2]))) <= {-1, 1}
    with pytest.raises(ValueError, match="components"):
        perceptron_output(X, [1.0, 1.0, 1.0])


def test_sigmoid_values_and_no_overflow():
    assert sigmoid(0.0) == 0.5
    np.testing.assert_allclose(sigmoid(np.array([-2.0, 1.0])), 1 / (1 + np.exp([2.0, -1.0])),
                               rtol=1e-15)
    assert sigmoid(-1000.0) == 0.0 and sigmoid(1000.0) == 1.0
