"""A multilayer perceptron trained by backpropagation (Mooney's slides), of any depth.

Notation of the slides: layers are numbered from 0 (the inputs); every unit ``j`` has
the inner potential ``xi_j = sum_i w_ji y_i`` over the units ``i`` of the layer below,
including the constant ``y_0 = 1`` (so ``w_j0`` is the bias weight), and the output
``y_j = f(xi_j)``.  The slides use the logistic sigmoid ``f = sigma``,
``sigma(xi) = 1 / (1 + exp(-xi))`` (the package's one :func:`~lecture_pkg.neurons.sigmoid`);
here the hidden units may also be ``tanh`` and the output units ``identity`` (regression).
The weights of layer ``l`` are stored as a matrix ``weights[l]`` of shape
``(n_{l+1}, n_l + 1)`` whose column 0 holds the ``w_j0``.

Error of one example ``E_k = 1/2 sum_{j in Y} (y_j - d_kj)^2``, total ``E = sum_k E_k``.

Backpropagation in the slides' convention, where ``delta_j = dE_k / dy_j`` is the
derivative with respect to the unit's *output* (not its potential), and ``f'_r`` is the
slope of unit ``r`` written through its output (``y (1 - y)`` for the sigmoid,
``1 - y^2`` for tanh, 1 for the identity):

* output units: ``delta_j = y_j - d_kj``;
* hidden units: ``delta_j = sum_r delta_r f'_r w_rj`` over the units ``r`` above;
* gradient: ``dE_k / dw_ji = delta_j f'_j y_i``.

Training (:meth:`MLP.fit`) is gradient descent ``w <- w - eta dE/dw`` on the whole set
(batch) or on shuffled mini-batches, optionally with early stopping on a validation set;
:meth:`MLP.fit_lbfgs` minimises the same ``E`` with SciPy's L-BFGS.
"""

from __future__ import annotations

import numbers
from collections.abc import Callable, Sequence

import numpy as np
from scipy.optimize import minimize

from ..neurons.units import sigmoid
from ..validation import (ARRAY, COUNT, POSITIVE, Interval, Options, check_inputs, check_scalar,
                          resolve_rng, validate_args)

__all__ = [
    "MLP",
    "numerical_gradient",
    "slides_example",
    "xor_threshold_network",
    "train_xor",
]

def _identity(xi):
    return xi


#: The unit types: name -> activation of the potential.
# (the sigmoid unchecked, as np.tanh: the training loop's own potentials, which may be NaN
# when a run diverges, a case fit reports itself)
_ACTIVATIONS: dict[str, Callable] = {"sigmoid": sigmoid.__wrapped__, "tanh": np.tanh,
                                     "identity": _identity}


def _times_slope(name: str, delta: np.ndarray, y: np.ndarray) -> np.ndarray:
    """``delta * f'(xi)`` with the slope written through the output ``y = f(xi)``."""
    if name == "sigmoid":
        return delta * y * (1.0 - y)
    if name == "tanh":
        return delta * (1.0 - y * y)
    return delta


_HIDDEN = Options("sigmoid", "tanh")
_OUTPUT = Options("sigmoid", "tanh", "identity")
_INIT = Options("uniform", "glorot")
_NON_NEGATIVE_INT = Interval(numbers.Integral, 0, None)


class MLP:
    """A fully connected feed-forward network of sigmoid (or tanh) units, of any depth.

    Parameters
    ----------
    layer_sizes : sequence of int
        Units per layer, inputs first, e.g. ``(2, 2, 1)`` or ``(64, 2, 3)``.
    weights : list of arrays, optional
        ``weights[l]`` of shape ``(n_{l+1}, n_l + 1)``, column 0 the bias weights.
    random_state : seed, Generator or None
        For the random start.
    init_scale : float, default 0.5
        With ``init="uniform"`` every weight is drawn from ``[-init_scale, init_scale]``
        ("random, near 0", as the slides ask).
    activation : {"sigmoid", "tanh"}, default "sigmoid"
        The hidden units.
    output_activation : {"sigmoid", "tanh", "identity"}, optional
        The output units; by default the same as the hidden units.
    init : {"uniform", "glorot"}, default "uniform"
        ``"glorot"`` is the variance-preserving start of Glorot and Bengio: weights
        uniform on ``[-a, a]`` with ``a = sqrt(6 / (n_l + n_{l+1}))``, biases 0, so that
        a layer of tanh units near the origin keeps the variance of the signal forward
        and of the gradient backward (``init_scale`` is then not used).

    Attributes
    ----------
    training_losses_, validation_losses_ : list of float
        Losses after 0, 1, ... epochs of :meth:`fit`.
    best_epoch_ : int
        The epoch whose weights were kept (early stopping) or the last one.
    last_weights_ : list of arrays
        Only after :meth:`fit` with ``validation``: the weights after the last epoch run,
        before the kept ones were restored (the network that was not stopped early).
    n_epochs_ : int
        Epochs run.

    References
    ----------
    .. [1] Mooney, R. J. *Probabilistic Classification*, lecture slides, slides on the
       multilayer perceptron and backpropagation. (bib key: mooney_probabilistic)
    .. [2] Rumelhart, D. E., Hinton, G. E. and Williams, R. J. (1986). Learning representations
       by back-propagating errors. *Nature* 323, 533--536. (bib key: rumelhart1986learning)
    .. [3] Glorot, X. and Bengio, Y. (2010). Understanding the difficulty of training deep
       feedforward neural networks. *AISTATS* 9, 249--256. (bib key: glorot2010understanding)

    Examples
    --------
    >>> from lecture_pkg.networks import MLP
    >>> net = MLP((2, 2, 1), random_state=0)
    >>> losses = net.fit([[0.0, 0.0], [1.0, 1.0]], [[0.0], [1.0]], eta=0.5, n_epochs=200)
    >>> bool(losses[-1] < losses[0]), net.predict_proba([[1.0, 1.0]]).shape
    (True, (1, 1))
    """

    def __init__(self, layer_sizes: Sequence[int], weights: list[np.ndarray] | None = None, *,
                 random_state: np.random.Generator | int | None = None, init_scale: float = 0.5,
                 activation: str = "sigmoid", output_activation: str | None = None,
                 init: str = "uniform") -> None:
        sizes = list(layer_sizes)
        if len(sizes) < 2:
            raise ValueError(f"need at least an input and an output layer, "
                             f"got layer_sizes={layer_sizes!r}")
        sizes = [int(check_scalar(n, f"layer_sizes[{l}]", COUNT)) for l, n in enumerate(sizes)]
        check_scalar(init_scale, "init_scale", POSITIVE)
        check_scalar(activation, "activation", _HIDDEN)
        output_activation = activation if output_activation is None else output_activation
        check_scalar(output_activation, "output_activation", _OUTPUT)
        check_scalar(init, "init", _INIT)
        self.layer_sizes = tuple(sizes)
        self.activation, self.output_activation = activation, output_activation
        shapes = [(sizes[l + 1], sizes[l] + 1) for l in range(len(sizes) - 1)]
        if weights is None:
            rng = resolve_rng(random_state)
            if init == "uniform":
                self.weights = [rng.uniform(-init_scale, init_scale, size=s) for s in shapes]
            else:
                self.weights = []
                for n_out, n_in in shapes:
                    a = np.sqrt(6.0 / (n_in - 1 + n_out))
                    w = rng.uniform(-a, a, size=(n_out, n_in))
                    w[:, 0] = 0.0
                    self.weights.append(w)
        else:
            if len(weights) != len(shapes):
                raise ValueError(f"need {len(shapes)} weight matrices, got {len(weights)}")
            self.weights = [np.array(w, dtype=float) for w in weights]
            for w, s in zip(self.weights, shapes):
                if w.shape != s:
                    raise ValueError(f"weight matrix of shape {w.shape}, expected {s}")
                if not np.all(np.isfinite(w)):
                    raise ValueError("weights contain NaN or infinite values")

    def _unit(self, l: int) -> str:
        """The unit type of weight layer ``l`` (0 = first hidden layer)."""
        return self.output_activation if l == len(self.weights) - 1 else self.activation

    # flat view of all weights (for finite differences and optimisers)
    def get_flat(self) -> np.ndarray:
        """All weights as one vector, layer by layer, each matrix row by row."""
        return np.concatenate([w.ravel() for w in self.weights])

    def set_flat(self, flat: np.ndarray) -> None:
        """Set all weights from a vector in the order of :meth:`get_flat`."""
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
            raise ValueError(f"the network has {self.layer_sizes[0]} inputs, "
                             f"X has {X.shape[1]} columns")
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
                             f"(one row per example of X, one column per output unit), "
                             f"got shape {D.shape}")
        if not np.all(np.isfinite(D)):
            raise ValueError("the targets D contain NaN or infinite values")
        return D

    def _forward(self, X: np.ndarray) -> tuple[list[np.ndarray], np.ndarray]:
        ys, xi = [X], X
        last = len(self.weights) - 1
        for l, w in enumerate(self.weights):
            xi = ys[-1] @ w[:, 1:].T
            xi += w[:, 0]                       # the bias weights, added in place
            ys.append(_ACTIVATIONS[self.output_activation if l == last else self.activation](xi))
        return ys, xi

    def forward(self, X: np.ndarray) -> list[np.ndarray]:
        """Outputs of every layer, bottom-up: ``[y^(0) = X, y^(1), ..., y^(L)]``, each (P, n_l)."""
        return self._forward(self._inputs(X))[0]

    def predict_proba(self, X: np.ndarray) -> np.ndarray:
        """The network's outputs ``y^(L)``."""
        return self.forward(X)[-1]

    def decision_function(self, X: np.ndarray) -> np.ndarray:
        """The inner potentials ``xi`` of the output units, (P, n_outputs)."""
        return self._forward(self._inputs(X))[1]

    def predict(self, X: np.ndarray) -> np.ndarray:
        """Class indices: the output unit with the largest output, or, for a single
        output unit, 1 where its output is at least half-way up its range (1/2 for the
        sigmoid, 0 for tanh and the identity), else 0."""
        Y = self.predict_proba(X)
        if Y.shape[1] > 1:
            return np.argmax(Y, axis=1)
        half = 0.5 if self.output_activation == "sigmoid" else 0.0
        return (Y[:, 0] >= half).astype(int)

    def loss(self, X: np.ndarray, D: np.ndarray) -> float:
        """``E = sum_k 1/2 sum_j (y_j(x_k) - d_kj)^2``."""
        Y = self.predict_proba(X)
        D = self._targets(D, len(Y))
        return float(0.5 * np.sum((Y - D) ** 2))

    def _backprop(self, X: np.ndarray, D: np.ndarray):
        ys, _ = self._forward(X)
        L = len(self.weights)
        deltas, grads = [None] * L, [None] * L
        deltas[-1] = ys[-1] - D
        for l in range(L - 1, -1, -1):
            w = self.weights[l]
            g = _times_slope(self._unit(l), deltas[l], ys[l + 1])       # delta_r f'_r
            if l > 0:
                deltas[l - 1] = g @ w[:, 1:]                            # sum_r delta_r f'_r w_rj
            grad = grads[l] = np.empty(w.shape)                         # dE/dw: bias column, then
            grad[:, 0] = g.sum(axis=0)                                  # the weights from below
            grad[:, 1:] = g.T @ ys[l]
        return ys, deltas, grads

    def backprop(self, X: np.ndarray,
                 D: np.ndarray) -> tuple[list[np.ndarray], list[np.ndarray], list[np.ndarray]]:
        """Backpropagation in the slides' convention, summed over the examples.

        Returns ``(ys, deltas, grads)``: the layer outputs, the ``delta_j = dE_k/dy_j`` of
        every non-input layer (each ``(P, n_l)``, one row per example) and the gradients
        ``dE/dw`` with the shapes of ``weights``.
        """
        X = self._inputs(X)
        return self._backprop(X, self._targets(D, len(X)))

    def gradient(self, X: np.ndarray, D: np.ndarray) -> np.ndarray:
        """``dE/dw`` as one flat vector (the order of :meth:`get_flat`)."""
        return np.concatenate([g.ravel() for g in self.backprop(X, D)[2]])

    def gradient_norms(self, X: np.ndarray, D: np.ndarray) -> np.ndarray:
        """The Euclidean norm of ``dE/dw`` of every weight layer, lowest layer first.

        The norm of layer ``l`` covers the whole matrix ``weights[l]`` (biases included);
        in a deep sigmoid network it falls from the top layer down (vanishing gradients).
        """
        return np.array([np.linalg.norm(g) for g in self.backprop(X, D)[2]])

    def fit(self, X: np.ndarray, D: np.ndarray, *, eta: float = 0.5, n_epochs: int = 1000,
            batch_size: int | None = None, random_state: np.random.Generator | int | None = None,
            validation: tuple | None = None, patience: int | None = None) -> list[float]:
        """Gradient descent ``w <- w - eta dE_B/dw`` on batches ``B``; returns the training losses.

        Parameters
        ----------
        eta : float, default 0.5
            Learning rate (> 0); the gradient is *summed* over the examples of a batch.
        n_epochs : int, default 1000
            Number of passes through the data (0 allowed: nothing changes).
        batch_size : int, optional
            Examples per step; ``None`` (default) is batch gradient descent on the
            whole set; otherwise every epoch draws a new random order (``random_state``) and steps
            once per consecutive block of ``batch_size`` examples (the last may be smaller).
        random_state : seed, Generator or None
            The source of the random orders.
        validation : ``(X_val, D_val)``, optional
            Early stopping: the loss on this set is recorded after every epoch, and at the
            end the weights of the epoch with the smallest validation loss are restored
            (those of the last epoch are kept as ``last_weights_``).
        patience : int, optional
            With ``validation``, stop when the validation loss has not improved for this
            many epochs (default: run all epochs, then restore the best).

        Returns
        -------
        losses : list of float
            The training loss ``E`` after 0, 1, ..., ``n_epochs_`` epochs of the run
            (before any restoring), also kept as ``training_losses_``.
        """
        check_scalar(eta, "eta", POSITIVE)
        check_scalar(n_epochs, "n_epochs", _NON_NEGATIVE_INT)
        if batch_size is not None:
            check_scalar(batch_size, "batch_size", COUNT)
        if patience is not None:
            check_scalar(patience, "patience", COUNT)
            if validation is None:
                raise ValueError("patience needs a validation set (validation=(X_val, D_val))")
        X = self._inputs(X)
        D = self._targets(D, len(X))
        if validation is not None:
            if len(validation) != 2:
                raise ValueError("validation must be a pair (X_val, D_val)")
            Xv = self._inputs(validation[0])
            Dv = self._targets(validation[1], len(Xv))
        rng = resolve_rng(random_state) if batch_size is not None else None
        P = len(X)
        losses, val_losses = [], []
        best = (np.inf, 0, None)
        epoch = 0
        # overflow shows as a non-finite loss, which ends the run with a clear error
        with np.errstate(over="ignore", invalid="ignore"):
            while True:
                if batch_size is None and epoch < n_epochs:
                    ys, _, grads = self._backprop(X, D)
                    losses.append(float(0.5 * np.sum((ys[-1] - D) ** 2)))
                else:
                    losses.append(float(0.5 * np.sum((self._forward(X)[0][-1] - D) ** 2)))
                if not np.isfinite(losses[-1]):
                    raise FloatingPointError(
                        f"gradient descent diverged: the training loss is {losses[-1]} "
                        f"after {epoch} epoch(s) with eta={eta}; "
                        "choose a smaller learning rate eta")
                if validation is not None:
                    val_losses.append(float(0.5 * np.sum((self._forward(Xv)[0][-1] - Dv) ** 2)))
                    if val_losses[-1] < best[0]:
                        best = (val_losses[-1], epoch, [w.copy() for w in self.weights])
                    elif patience is not None and epoch - best[1] >= patience:
                        break
                if epoch == n_epochs:
                    break
                if batch_size is None:
                    for w, g in zip(self.weights, grads):
                        w -= eta * g
                else:
                    order = rng.permutation(P)
                    for start in range(0, P, int(batch_size)):
                        idx = order[start:start + int(batch_size)]
                        for w, g in zip(self.weights, self._backprop(X[idx], D[idx])[2]):
                            w -= eta * g
                epoch += 1
        self.n_epochs_ = epoch
        self.training_losses_ = losses
        self.validation_losses_ = val_losses
        self.best_epoch_ = epoch
        if validation is not None:
            self.best_epoch_ = best[1]
            self.last_weights_ = [w.copy() for w in self.weights]
            for w, w_best in zip(self.weights, best[2]):
                w[...] = w_best
        return losses

    def fit_lbfgs(self, X: np.ndarray, D: np.ndarray, *, max_iter: int = 1000,
                  tol: float = 1e-12) -> float:
        """Minimise the same ``E`` with SciPy's L-BFGS-B from the current weights.

        Backpropagation supplies the gradient; returns the final loss (and keeps the
        number of iterations in ``n_iter_``).
        """
        check_scalar(max_iter, "max_iter", COUNT)
        check_scalar(tol, "tol", POSITIVE)
        X = self._inputs(X)
        D = self._targets(D, len(X))

        def cost(flat):
            self.set_flat(flat)
            ys, _, grads = self._backprop(X, D)
            return 0.5 * np.sum((ys[-1] - D) ** 2), np.concatenate([g.ravel() for g in grads])

        res = minimize(cost, self.get_flat(), jac=True, method="L-BFGS-B",
                       options={"maxiter": int(max_iter), "ftol": float(tol), "gtol": float(tol)})
        self.set_flat(res.x)
        self.n_iter_ = int(res.nit)
        return self.loss(X, D)


@validate_args(f="callable", w=ARRAY, h=POSITIVE)
def numerical_gradient(f: Callable[[np.ndarray], float], w: np.ndarray,
                       h: float = 1e-6) -> np.ndarray:
    """Central finite differences ``(f(w + h e_i) - f(w - h e_i)) / (2 h)`` for every component."""
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


@validate_args(X=ARRAY)
def xor_threshold_network(X: np.ndarray) -> np.ndarray:
    """The slides' two-layer threshold network for XOR on ``{0, 1}^2`` (outputs 0/1).

    Hidden half-planes ``-1 + 2 x1 + 2 x2 >= 0`` and ``3 - 2 x1 - 2 x2 >= 0``; the
    output unit ``-2 + h1 + h2 >= 0`` is their AND (its weights are in a figure that did
    not survive; these are one valid choice).
    """
    X = check_inputs(np.atleast_2d(X))
    h1 = (-1.0 + 2 * X[:, 0] + 2 * X[:, 1] >= 0).astype(float)
    h2 = (3.0 - 2 * X[:, 0] - 2 * X[:, 1] >= 0).astype(float)
    return (-2.0 + h1 + h2 >= 0).astype(int)


@validate_args(n_hidden=COUNT, eta=POSITIVE, n_epochs=COUNT, max_restarts=COUNT,
               random_state="random_state", init_scale=POSITIVE)
def train_xor(n_hidden: int = 2, *, eta: float = 1.0, n_epochs: int = 3000, max_restarts: int = 20,
              random_state: np.random.Generator | int | None = None,
              init_scale: float = 1.0) -> tuple[MLP, int, list[float]]:
    """Train an ``2 - n_hidden - 1`` sigmoid network on XOR (targets 0/1) with random restarts.

    A restart is counted as a success when every output is on the right side of 1/2.
    Returns the network, the number of starts used and the losses of the successful run.
    Raises ``RuntimeError`` if no start succeeds.
    """
    rng = resolve_rng(random_state)
    X = np.array([[0.0, 0.0], [0.0, 1.0], [1.0, 0.0], [1.0, 1.0]])
    D = np.array([[0.0], [1.0], [1.0], [0.0]])
    for start in range(1, max_restarts + 1):
        net = MLP((2, n_hidden, 1), random_state=rng, init_scale=init_scale)
        losses = net.fit(X, D, eta=eta, n_epochs=n_epochs)
        if np.all((net.predict_proba(X) >= 0.5) == (D >= 0.5)):
            return net, start, losses
    raise RuntimeError(f"no start out of {max_restarts} learned XOR")
