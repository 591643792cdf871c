"""Model neurons of firing-rate type and the simplest networks built from them.

Biehl's lecture notes, chapter 1: a neuron ``i`` sums its inputs into the local
potential ``x_i = sum_j w_ij S_j`` (eq. 1.1) and responds with an activation function.

* :func:`sigmoid` -- the logistic sigmoid ``1 / (1 + exp(-z))``, used throughout the package;
* :func:`sigmoid_activation` -- ``h(x) = (1 + tanh[gamma (x - theta)]) / 2`` in ``(0, 1)``,
  eq. (1.2);
* :func:`tanh_activation` -- the symmetrised ``g(x) = tanh[gamma (x - theta)]`` in ``(-1, 1)``,
  eq. (1.3);
* :func:`mcculloch_pitts` -- the infinite-gain limit ``gamma -> infinity``,
  ``g(x) = sign(x - theta)`` with ``sign(0) = +1``, eq. (1.5);
* :func:`hebb_update` -- Hebb's rule ``Delta w_AB = eta S_A S_B``, eq. (1.6);
* :func:`layer_forward`, :func:`feed_forward` -- layered networks, eq. (1.13);
* :func:`one_hidden_layer` -- ``S = g(sum_k v_k g(w_k . xi))``, eq. (1.14);
* :func:`perceptron_output` -- ``S = sign(w . xi - theta)``, eq. (1.16).

All functions accept a single input vector or a batch of them (rows).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from ..validation import ARRAY, FINITE, POSITIVE, VECTOR, Array, validate_args

__all__ = [
    "sigmoid",
    "sigmoid_activation",
    "sigmoid_derivative",
    "tanh_activation",
    "tanh_derivative",
    "mcculloch_pitts",
    "hebb_update",
    "layer_forward",
    "feed_forward",
    "one_hidden_layer",
    "perceptron_output",
]


def _as_float_array(x, name: str = "x") -> np.ndarray:
    """``x`` (checked by ``validate_args``) as a float array."""
    return np.asarray(x, dtype=float)


# a potential: a number or an array; +-inf is allowed (the units' limits), NaN is not
_POTENTIAL = Array(allow_inf=True)
# the gain and the threshold of a unit
_UNIT = dict(x=_POTENTIAL, gamma=POSITIVE, theta=FINITE)


@validate_args(z=_POTENTIAL)
def sigmoid(z: np.ndarray | float) -> np.ndarray:
    """The logistic sigmoid ``sigma(z) = 1 / (1 + exp(-z))``: the package's one sigmoid.

    Computed as ``(1 + tanh(z / 2)) / 2``, the same function without overflow for large
    ``|z|``.  The multilayer perceptron, the Gaussian class posterior, GLVQ's ``Phi`` and
    Biehl's firing rate :func:`sigmoid_activation` (``sigma(2 gamma (x - theta))``) all
    use it.  ``sigmoid(inf) = 1`` and ``sigmoid(-inf) = 0``; NaN is refused.
    """
    return 0.5 * (1.0 + np.tanh(0.5 * np.asarray(z, dtype=float)))


@validate_args(**_UNIT)
def sigmoid_activation(x: np.ndarray | float, gamma: float = 1.0, theta: float = 0.0) -> np.ndarray:
    """Sigmoidal firing rate ``h(x) = 1/2 (1 + tanh[gamma (x - theta)])``, Biehl eq. (1.2).

    Parameters
    ----------
    x : array_like
        Local potentials.
    gamma : float
        Gain (> 0): the slope at the threshold is ``gamma / 2``.
    theta : float
        Threshold: ``h(theta) = 1/2`` and the curve is steepest there.

    Returns
    -------
    array of the same shape as ``x``
        Values in ``[0, 1]``.  Equivalently ``h(x) = 1 / (1 + exp(-2 gamma (x - theta)))``,
        a logistic function.  ``x = +-inf`` gives 1 and 0.
    """
    gamma = float(gamma)
    return sigmoid(2.0 * gamma * (_as_float_array(x) - theta))


@validate_args(**_UNIT)
def sigmoid_derivative(x: np.ndarray | float, gamma: float = 1.0, theta: float = 0.0) -> np.ndarray:
    """``h'(x) = gamma/2 (1 - tanh^2[gamma (x - theta)]) = 2 gamma h (1 - h)``."""
    gamma = float(gamma)
    t = np.tanh(gamma * (_as_float_array(x) - theta))
    return 0.5 * gamma * (1.0 - t * t)


@validate_args(**_UNIT)
def tanh_activation(x: np.ndarray | float, gamma: float = 1.0, theta: float = 0.0) -> np.ndarray:
    """Symmetrised activation ``g(x) = tanh[gamma (x - theta)]``, Biehl eq. (1.3).

    Values in ``[-1, 1]``; ``g = 2 h - 1`` with ``h`` of :func:`sigmoid_activation`,
    and ``g'(theta) = gamma``; ``x = +-inf`` gives ``+-1``.
    """
    gamma = float(gamma)
    return np.tanh(gamma * (_as_float_array(x) - theta))


@validate_args(**_UNIT)
def tanh_derivative(x: np.ndarray | float, gamma: float = 1.0, theta: float = 0.0) -> np.ndarray:
    """``g'(x) = gamma (1 - g(x)^2)`` -- the identity ``tanh' = 1 - tanh^2``."""
    g = tanh_activation(x, gamma, theta)
    return gamma * (1.0 - g * g)


@validate_args(x=_POTENTIAL, theta=FINITE)
def mcculloch_pitts(x: np.ndarray | float, theta: float = 0.0) -> np.ndarray:
    """Binary McCulloch--Pitts unit ``g(x) = sign(x - theta)``, Biehl eq. (1.5).

    ``+1`` if ``x >= theta`` and ``-1`` if ``x < theta``: the limit of
    :func:`tanh_activation` for infinite gain ``gamma -> infinity``, with the tie
    ``sign(0) = +1``.  Returns an integer array.
    """
    x = _as_float_array(x)
    return np.where(x >= theta, 1, -1)


@validate_args(post=VECTOR, pre=VECTOR, eta=POSITIVE)
def hebb_update(post: np.ndarray, pre: np.ndarray, eta: float = 1.0) -> np.ndarray:
    """Hebbian change of the synapses from ``pre`` to ``post`` neurons, Biehl eq. (1.6).

    ``Delta w_AB = eta S_A S_B`` for post-synaptic activity ``S_A`` and pre-synaptic
    activity ``S_B``: the matrix ``eta * outer(post, pre)`` (rows = post-synaptic
    neurons).  It uses only the two activities at either end of a synapse -- the rule
    is *local*.
    """
    return float(eta) * np.outer(post, pre)


@validate_args(S_prev=ARRAY, W=ARRAY, g="callable")
def layer_forward(S_prev: np.ndarray, W: np.ndarray, g: Callable = np.tanh) -> np.ndarray:
    """One layer of a feed-forward net: ``S_i^(k) = g(sum_j w_ij^(k) S_j^(k-1))``, eq. (1.13).

    Parameters
    ----------
    S_prev : array (n_prev,) or (batch, n_prev)
        Activities of the previous layer.
    W : array (n_this, n_prev)
        Weights; row ``i`` holds the synapses into unit ``i``.
    g : callable
        Activation function applied elementwise.
    """
    S_prev = _as_float_array(S_prev, "S_prev")
    W = _as_float_array(W, "W")
    if W.ndim != 2:
        raise ValueError(f"a weight matrix must be 2-d (units x inputs), got shape {W.shape}")
    if S_prev.shape[-1] != W.shape[1]:
        raise ValueError(
            f"shapes do not match: the layer has {W.shape[1]} inputs but the previous "
            f"activities have {S_prev.shape[-1]} components"
        )
    return g(S_prev @ W.T)


@validate_args(xi=ARRAY, g="callable")
def feed_forward(xi: np.ndarray, weights: Sequence, g: Callable = np.tanh) -> list[np.ndarray]:
    """Propagate input through layers ``weights[0], weights[1], ...`` with eq. (1.13).

    Returns the list of activities of every layer, the input first and the output last.
    """
    if len(weights) == 0:
        raise ValueError("a network needs at least one weight matrix")
    layers = [_as_float_array(xi, "xi")]
    for W in weights:
        layers.append(layer_forward(layers[-1], W, g))
    return layers


@validate_args(xi=ARRAY, W=ARRAY, v=ARRAY, g="callable")
def one_hidden_layer(xi: np.ndarray, W: np.ndarray, v: np.ndarray,
                     g: Callable = np.tanh) -> tuple[np.ndarray, np.ndarray]:
    """Network with one hidden layer of K units and one output, Biehl eq. (1.14).

    ``S(xi) = g(sum_k v_k sigma_k)`` with hidden activities ``sigma_k = g(w^k . xi)``.

    Parameters
    ----------
    xi : array (N,) or (batch, N)
    W : array (K, N)
        Row ``k`` is the weight vector ``w^k`` of hidden unit ``k``.
    v : array (K,)
        Hidden-to-output weights.
    g : callable
        The activation used by every unit (the notes use the same ``g`` everywhere).

    Returns
    -------
    S : float array (scalar per input)
    sigma : array (K,) or (batch, K)
        The hidden activities.
    """
    v = _as_float_array(v, "v")
    W = _as_float_array(W, "W")
    if v.ndim != 1 or W.ndim != 2 or W.shape[0] != v.shape[0]:
        raise ValueError(f"W must be (K, N) and v (K,); got W {W.shape} and v {v.shape}")
    sigma = layer_forward(xi, W, g)
    return g(sigma @ v), sigma


@validate_args(xi=ARRAY, w=ARRAY, theta=FINITE)
def perceptron_output(xi: np.ndarray, w: np.ndarray, theta: float = 0.0) -> np.ndarray:
    """The perceptron ``S(xi) = sign(w . xi - theta)``, Biehl eq. (1.16), ``sign(0) = +1``.

    A single McCulloch--Pitts unit fed by N real inputs.  Its decision boundary
    ``w . xi = theta`` is a hyperplane at distance ``theta / |w|`` from the origin.
    """
    xi = _as_float_array(xi, "xi")
    w = _as_float_array(w, "w")
    if w.ndim != 1 or xi.shape[-1] != w.shape[0]:
        raise ValueError(f"xi has {xi.shape[-1]} components but w has shape {w.shape}")
    return mcculloch_pitts(xi @ w, theta)
