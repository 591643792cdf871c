"""A small multilayer perceptron with sigmoid units and backpropagation (Mooney's slides).

Notation of the slides: layers are numbered from 0 (the inputs); every unit ``j`` has
the inner potential ``xi_j = sum_i w_ji y_i`` over the units ``i`` of the layer below,
including the constant ``y_0 = 1`` (so ``w_j0`` is the bias weight), and the output
``y_j = sigma(xi_j)`` with the logistic sigmoid ``sigma(xi) = 1 / (1 + exp(-xi))``.
The weights of layer ``l`` are stored as a matrix ``weights[l]`` of shape
``(n_{l+1}, n_l + 1)`` whose column 0 holds the ``w_j0``.

Error of one example ``E_k = 1/2 sum_{j in Y} (y_j - d_kj)^2``, total ``E = sum_k E_k``.

Backpropagation in the slides' convention, where ``delta_j = dE_k / dy_j`` is the
derivative with respect to the unit's *output* (not its potential):

* output units: ``delta_j = y_j - d_kj``;
* hidden units: ``delta_j = sum_r delta_r y_r (1 - y_r) w_rj`` over the units ``r`` above;
* gradient: ``dE_k / dw_ji = delta_j y_j (1 - y_j) y_i``.

Training is batch gradient descent ``w <- w - eps dE/dw``.
"""

from __future__ import annotations

import numbers
from collections.abc import Callable, Sequence

import numpy as np

from ..neurons.units import sigmoid
from ..validation import COUNT, POSITIVE, Interval, check_inputs, check_scalar, resolve_rng

__all__ = [
    "MLP",
    "numerical_gradient",
    "slides_example",
    "xor_threshold_network",
    "train_xor",
]


class MLP:
    """A fully connected feed-forward network of sigmoid units.

    Parameters
    ----------
    layer_sizes : sequence of int
        Units per layer, inputs first, e.g. ``(2, 2, 1)``.
    weights : list of arrays, optional
        ``weights[l]`` of shape ``(n_{l+1}, n_l + 1)``, column 0 the bias weights.
        Without it the weights are drawn uniformly from ``[-init_scale, init_scale]``
        ("random, near 0", as the slides ask).
    rng, init_scale : for the random start.

    References
    ----------
    .. [1] Mooney, R. J. *Probabilistic Classification*, lecture slides, slides on the
       multilayer perceptron and backpropagation. (bib key: mooney_probabilistic)
    .. [2] Rumelhart, D. E., Hinton, G. E. and Williams, R. J. (1986). Learning representations
       by back-propagating errors. *Nature* 323, 533--536. (bib key: rumelhart1986learning)

    Examples
    --------
    >>> from lecture_pkg.networks import MLP
    >>> net = MLP((2, 2, 1), rng=0)
    >>> losses = net.fit([[0.0, 0.0], [1.0, 1.0]], [[0.0], [1.0]], eps=0.5, n_epochs=200)
    >>> bool(losses[-1] < losses[0]), net.predict_proba([[1.0, 1.0]]).shape
    (True, (1, 1))
    """

    def __init__(self, layer_sizes: Sequence[int], weights: list[np.ndarray] | None = None, *,
                 rng=None, init_scale: float = 0.5):
        sizes = list(layer_sizes)
        if len(sizes) < 2:
            raise ValueError(f"need at least an input and an output layer, got layer_sizes={layer_sizes!r}")
        sizes = [int(check_scalar(n, f"layer_sizes[{l}]", COUNT)) for l, n in enumerate(sizes)]
        check_scalar(init_scale, "init_scale", POSITIVE)
        self.layer_sizes = tuple(sizes)
        shapes = [(sizes[l + 1], sizes[l] + 1) for l in range(len(sizes) - 1)]
        if weights is None:
            rng = resolve_rng(rng)
            self.weights = [rng.uniform(-init_scale, init_scale, size=s) for s in shapes]
        else:
            if len(weights) != len(shapes):
                raise ValueError(f"need {len(shapes)} weight matrices, got {len(weights)}")
            self.weights = [np.array(w, dtype=float) for w in weights]
            for w, s in zip(self.weights, shapes):
                if w.shape != s:
                    raise ValueError(f"weight matrix of shape {w.shape}, expected {s}")
                if not np.all(np.isfinite(w)):
                    raise ValueError("weights contain NaN or infinite values")

    # flat view of all weights (for finite differences and optimisers)
    def get_flat(self) -> np.ndarray:
        return np.concatenate([w.ravel() for w in self.weights])

    def set_flat(self, flat: np.ndarray) -> None:
        flat = np.asarray(flat, dtype=float)
        if flat.size != sum(w.size for w in self.weights):
            raise ValueError(f"wrong number of weights: got {flat.size}, the network has "
                             f"{sum(w.size for w in self.weights)}")
        if not np.all(np.isfinite(flat)):
            raise ValueError("weights contain NaN or infinite values")
        k = 0
        for w in self.weights:
            w[...] = flat[k:k + w.size].reshape(w.shape)
            k += w.size

    def _inputs(self, X) -> np.ndarray:
        X = check_inputs(np.atleast_2d(np.asarray(X, dtype=float)))
        if X.shape[1] != self.layer_sizes[0]:
            raise ValueError(f"the network has {self.layer_sizes[0]} inputs, X has {X.shape[1]} columns")
        if X.shape[0] == 0:
            raise ValueError("X has no rows: need at least one example")
        return X

    def _targets(self, D, n_examples: int) -> np.ndarray:
        """``D`` as a finite ``(P, n_outputs)`` array; a 1-d ``D`` is one target per example
        (one output unit) or the targets of a single example."""
        n_out = self.layer_sizes[-1]
        D = np.asarray(D, dtype=float)
        if D.ndim == 1 and n_out == 1 and D.size == n_examples:
            D = D[:, None]
        elif D.ndim == 1 and n_examples == 1 and D.size == n_out:
            D = D[None, :]
        if D.shape != (n_examples, n_out):
            raise ValueError(f"the targets D must have shape ({n_examples}, {n_out}) "
                             f"(one row per example of X, one column per output unit), got shape {D.shape}")
        if not np.all(np.isfinite(D)):
            raise ValueError("the targets D contain NaN or infinite values")
        return D

    def forward(self, X) -> list[np.ndarray]:
        """Outputs of every layer, bottom-up: ``[y^(0) = X, y^(1), ..., y^(L)]``, each (P, n_l)."""
        ys = [self._inputs(X)]
        for w in self.weights:
            ys.append(sigmoid(ys[-1] @ w[:, 1:].T + w[:, 0]))
        return ys

    def predict_proba(self, X) -> np.ndarray:
        """The network's outputs ``y^(L)``."""
        return self.forward(X)[-1]

    def loss(self, X, D) -> float:
        """``E = sum_k 1/2 sum_j (y_j(x_k) - d_kj)^2``."""
        Y = self.predict_proba(X)
        D = self._targets(D, len(Y))
        return float(0.5 * np.sum((Y - D) ** 2))

    def backprop(self, X, D) -> tuple[list[np.ndarray], list[np.ndarray], list[np.ndarray]]:
        """Backpropagation in the slides' convention, summed over the examples.

        Returns ``(ys, deltas, grads)``: the layer outputs, the ``delta_j = dE_k/dy_j`` of
        every non-input layer (each ``(P, n_l)``, one row per example) and the gradients
        ``dE/dw`` with the shapes of ``weights``.
        """
        ys = self.forward(X)
        D = self._targets(D, len(ys[0]))
        deltas = [ys[-1] - D]
        for l in range(len(self.weights) - 1, 0, -1):
            g = deltas[0] * ys[l + 1] * (1.0 - ys[l + 1])       # delta_r y_r (1 - y_r)
            deltas.insert(0, g @ self.weights[l][:, 1:])
        grads = []
        for l, w in enumerate(self.weights):
            g = deltas[l] * ys[l + 1] * (1.0 - ys[l + 1])
            grads.append(np.hstack([g.sum(axis=0)[:, None], g.T @ ys[l]]))
        return ys, deltas, grads

    def gradient(self, X, D) -> np.ndarray:
        """``dE/dw`` as one flat vector (the order of :meth:`get_flat`)."""
        return np.concatenate([g.ravel() for g in self.backprop(X, D)[2]])

    def fit(self, X, D, *, eps: float = 0.5, n_epochs: int = 1000) -> list[float]:
        """Batch gradient descent ``w <- w - eps dE/dw``; returns the loss before every epoch and at the end."""
        check_scalar(eps, "the learning rate eps", POSITIVE)
        check_scalar(n_epochs, "n_epochs", Interval(numbers.Integral, 0, None))
        X = self._inputs(X)
        D = self._targets(D, len(X))
        losses = []
        for _ in range(int(n_epochs)):
            ys, _, grads = self.backprop(X, D)
            losses.append(float(0.5 * np.sum((ys[-1] - D) ** 2)))
            for w, g in zip(self.weights, grads):
                w -= eps * g
        losses.append(self.loss(X, D))
        return losses


def numerical_gradient(f: Callable[[np.ndarray], float], w: np.ndarray, h: float = 1e-6) -> np.ndarray:
    """Central finite differences ``(f(w + h e_i) - f(w - h e_i)) / (2 h)`` for every component."""
    check_scalar(h, "the step h", POSITIVE)
    w = np.array(w, dtype=float)
    grad = np.empty_like(w)
    for i in range(w.size):
        old = w.flat[i]
        w.flat[i] = old + h
        up = f(w)
        w.flat[i] = old - h
        down = f(w)
        w.flat[i] = old
        grad.flat[i] = (up - down) / (2.0 * h)
    return grad


def slides_example() -> tuple[MLP, np.ndarray, np.ndarray]:
    """The slides' worked example: inputs 1, 2, hidden units 3, 4, output 5.

    ``w30 = w50 = w41 = w42 = w54 = 1``, ``w40 = w31 = w32 = w53 = -1``; the training
    set is the single example ``((1, 0), 1)``.  Returns ``(net, x, d)``.
    """
    hidden = np.array([[1.0, -1.0, -1.0],      # unit 3: w30, w31, w32
                       [-1.0, 1.0, 1.0]])      # unit 4: w40, w41, w42
    output = np.array([[1.0, -1.0, 1.0]])      # unit 5: w50, w53, w54
    return MLP((2, 2, 1), [hidden, output]), np.array([[1.0, 0.0]]), np.array([[1.0]])


def xor_threshold_network(X) -> np.ndarray:
    """The slides' two-layer threshold network for XOR on ``{0, 1}^2`` (outputs 0/1).

    Hidden half-planes ``-1 + 2 x1 + 2 x2 >= 0`` and ``3 - 2 x1 - 2 x2 >= 0``; the
    output unit ``-2 + h1 + h2 >= 0`` is their AND (its weights are in a figure that did
    not survive; these are one valid choice).
    """
    X = check_inputs(np.atleast_2d(X))
    h1 = (-1.0 + 2 * X[:, 0] + 2 * X[:, 1] >= 0).astype(float)
    h2 = (3.0 - 2 * X[:, 0] - 2 * X[:, 1] >= 0).astype(float)
    return (-2.0 + h1 + h2 >= 0).astype(int)


def train_xor(n_hidden: int = 2, *, eps: float = 1.0, n_epochs: int = 3000, max_restarts: int = 20,
              rng=None, init_scale: float = 1.0) -> tuple[MLP, int, list[float]]:
    """Train an ``2 - n_hidden - 1`` sigmoid network on XOR (targets 0/1) with random restarts.

    A restart is counted as a success when every output is on the right side of 1/2.
    Returns the network, the number of starts used and the losses of the successful run.
    Raises ``RuntimeError`` if no start succeeds.
    """
    check_scalar(n_hidden, "n_hidden", COUNT)
    check_scalar(n_epochs, "n_epochs", COUNT)
    check_scalar(max_restarts, "max_restarts", COUNT)
    check_scalar(eps, "the learning rate eps", POSITIVE)
    check_scalar(init_scale, "init_scale", POSITIVE)
    rng = resolve_rng(rng)
    X = np.array([[0.0, 0.0], [0.0, 1.0], [1.0, 0.0], [1.0, 1.0]])
    D = np.array([[0.0], [1.0], [1.0], [0.0]])
    for start in range(1, max_restarts + 1):
        net = MLP((2, n_hidden, 1), rng=rng, init_scale=init_scale)
        losses = net.fit(X, D, eps=eps, n_epochs=n_epochs)
        if np.all((net.predict_proba(X) >= 0.5) == (D >= 0.5)):
            return net, start, losses
    raise RuntimeError(f"no start out of {max_restarts} learned XOR")
