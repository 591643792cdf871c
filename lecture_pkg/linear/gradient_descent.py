"""Gradient descent for linear models (Deckert, "First steps"; Mooney's slides).

* Deckert's one-dimensional demonstrations: plain gradient descent ``w <- w - eta L'(w)``
  (Deckert's eq. 13) on losses of one weight -- the square loss of a single example,
  where the iteration converges exactly for ``0 < eta < 2 / xi^2``, and a non-convex
  double well with a global and a local minimum.  :func:`deckert_demo` gives the
  settings of Deckert's three learning-rate figures (too large, too small, no
  convergence).
* Adaline with a general activation ``alpha`` (Deckert §3.3): the loss
  ``L(w) = 1/2 sum_i (y_i - alpha(w . x_i))^2`` (his eq. 11), its gradient with the
  factor ``alpha'`` (:func:`adaline_loss`, :func:`adaline_gradient`) and batch gradient
  descent on it (:func:`adaline_descent`); the activations are :data:`ACTIVATIONS`.
* Mooney's slides: the batch perceptron with 0/1 labels (:func:`batch_perceptron`) and
  gradient descent on the least-squares error of a linear function
  (:func:`least_squares_descent`), converging for ``0 < eta < 2 / lambda_max(A^T A)``.

* Deckert's homework on the regularised loss ``||w||_p + 1/2 sum_i (y_i - w . x_i)^2``:
  its proximal operator (:func:`norm_prox`) and the minimiser by proximal gradient
  descent (:func:`norm_penalised_least_squares`).

The inputs of the Adaline, perceptron and least-squares functions are *augmented*,
``x = (1, x_1, ..., x_n)``, as in both sources, so the first weight is the bias.
"""

from __future__ import annotations

import numbers
from dataclasses import dataclass
from typing import Callable

import numpy as np

from ..learning import sse
from ..neurons import sigmoid
from ..validation import (COUNT, FINITE, NON_NEGATIVE, POSITIVE, Array, Interval,
                          validate_args)

__all__ = [
    "gradient_descent_1d",
    "single_sample_loss",
    "single_sample_grad",
    "double_well_loss",
    "double_well_grad",
    "double_well_stationary_points",
    "GradientDescentDemo",
    "deckert_demo",
    "ACTIVATIONS",
    "adaline_loss",
    "adaline_gradient",
    "AdalineDescent",
    "adaline_descent",
    "BatchPerceptronRun",
    "batch_perceptron",
    "DescentRun",
    "least_squares_descent",
    "dual_exponent",
    "norm_prox",
    "NormPenalisedFit",
    "norm_penalised_least_squares",
]


_STEPS = Interval(numbers.Integral, 0, None)             # a number of steps or epochs, 0 allowed
_WEIGHT = Array(allow_inf=True)          # a weight (or weights) of the 1-d losses: +-inf, not NaN
_P_NORM = Interval(numbers.Real, 1, None, allow_inf=True)  # the p of a norm, in [1, inf]


# ---------------------------------------------------------------- Deckert's 1-d demonstrations

@validate_args(w0=FINITE, eta=POSITIVE, n_steps=_STEPS)
def gradient_descent_1d(grad: Callable[[float], float], w0: float, eta: float,
                        n_steps: int) -> np.ndarray:
    """Iterates ``w_{k+1} = w_k - eta L'(w_k)`` of plain gradient descent (Deckert eq. 13).

    Returns the ``n_steps + 1`` values ``w_0, ..., w_{n_steps}``.
    """
    ws = np.empty(n_steps + 1)
    ws[0] = w0
    for k in range(n_steps):
        ws[k + 1] = ws[k] - eta * grad(ws[k])
    return ws


@validate_args(w=_WEIGHT, xi=FINITE, target=FINITE)
def single_sample_loss(w: np.ndarray | float, xi: float = 2.0,
                       target: float = 1.0) -> np.ndarray | float:
    """Deckert's loss (11) for one example: ``L(w) = 1/2 (target - xi w)^2``."""
    return 0.5 * (target - xi * np.asarray(w, dtype=float)) ** 2


@validate_args(w=_WEIGHT, xi=FINITE, target=FINITE)
def single_sample_grad(w: np.ndarray | float, xi: float = 2.0,
                       target: float = 1.0) -> np.ndarray | float:
    """``L'(w) = -(target - xi w) xi``; gradient descent converges iff ``0 < eta < 2 / xi^2``."""
    return -(target - xi * np.asarray(w, dtype=float)) * xi


@validate_args(w=_WEIGHT)
def double_well_loss(w: np.ndarray | float) -> np.ndarray | float:
    """Deckert's non-convex example ``L(w) = 0.001 w^4 - 5 (w - 5)^2``."""
    w = np.asarray(w, dtype=float)
    return 0.001 * w ** 4 - 5.0 * (w - 5.0) ** 2


@validate_args(w=_WEIGHT)
def double_well_grad(w: np.ndarray | float) -> np.ndarray | float:
    """``L'(w) = 0.004 w^3 - 10 (w - 5)``."""
    w = np.asarray(w, dtype=float)
    return 0.004 * w ** 3 - 10.0 * (w - 5.0)


def double_well_stationary_points() -> dict[str, float]:
    """The roots of ``L'`` for :func:`double_well_loss`: global minimum, local maximum,
    local minimum."""
    roots = np.sort(np.roots([0.004, 0.0, -10.0, 50.0]).real)
    return {"global minimum": float(roots[0]), "local maximum": float(roots[1]),
            "local minimum": float(roots[2])}


@dataclass(frozen=True)
class GradientDescentDemo:
    """One of Deckert's learning-rate figures: the loss, the start, the rate and the plot range."""

    name: str
    loss: Callable
    grad: Callable
    w0: float
    eta: float
    n_steps: int
    wrange: tuple[float, float]

    def iterates(self, n_steps: int | None = None) -> np.ndarray:
        """The iterates ``w_0, ..., w_n`` of gradient descent from ``w0`` with rate ``eta``.

        Parameters
        ----------
        n_steps : int, optional
            The number of steps ``n``; ``None`` (default) takes the demonstration's ``n_steps``.

        Returns
        -------
        array (n + 1,)
            The iterates of :func:`gradient_descent_1d`, the start first.
        """
        return gradient_descent_1d(self.grad, self.w0, self.eta,
                                   self.n_steps if n_steps is None else n_steps)


def deckert_demo(name: str) -> GradientDescentDemo:
    """Deckert's three learning-rate figures (MAML §3.3.4).

    ``"too_large"``: one example ``xi = 2`` with target 1, ``w0 = 5``, ``eta = 0.6``,
    4 steps (diverges, since ``eta > 2 / xi^2 = 0.5``); ``"too_small"``: the double well
    from ``w0 = 80`` with ``eta = 0.01``, 4 steps (heads for the local minimum);
    ``"no_convergence"``: the double well from ``w0 = 70`` with ``eta = 0.16``, 50 steps.
    """
    demos = {
        "too_large": GradientDescentDemo("too_large", single_sample_loss, single_sample_grad,
                                         5.0, 0.6, 4, (-20.0, 20.0)),
        "too_small": GradientDescentDemo("too_small", double_well_loss, double_well_grad,
                                         80.0, 0.01, 4, (-100.0, 100.0)),
        "no_convergence": GradientDescentDemo("no_convergence", double_well_loss, double_well_grad,
                                              70.0, 0.16, 50, (-80.0, 80.0)),
    }
    if name not in demos:
        raise ValueError(f"unknown demo {name!r}; choose from {sorted(demos)}")
    return demos[name]


# ---------------------------------------------------------------- Adaline with an activation

def _logistic_prime(z):
    s = sigmoid(z)
    return s * (1.0 - s)


def _tanh_prime(z):
    t = np.tanh(z)
    return 1.0 - t * t


#: Deckert's activation functions ``alpha`` with their derivatives ``alpha'``:
#: ``name -> (alpha, alpha')``.  ``"identity"`` is Adaline proper (the delta rule).
ACTIVATIONS: dict[str, tuple[Callable, Callable]] = {
    "identity": (lambda z: np.asarray(z, dtype=float),
                 lambda z: np.ones_like(np.asarray(z, dtype=float))),
    "logistic": (sigmoid, _logistic_prime),
    "tanh": (np.tanh, _tanh_prime),
}


def _activation(activation) -> tuple[Callable, Callable]:
    if isinstance(activation, str):
        if activation not in ACTIVATIONS:
            raise ValueError(f"unknown activation {activation!r}; "
                             f"choose from {sorted(ACTIVATIONS)} "
                             "or give a pair (alpha, alpha_prime)")
        return ACTIVATIONS[activation]
    if (isinstance(activation, tuple) and len(activation) == 2
            and all(callable(f) for f in activation)):
        return activation
    raise TypeError("activation must be a name or a pair (alpha, alpha_prime) of callables")


def _augmented_data(X, y, w=None):
    X = np.asarray(X, dtype=float)
    y = np.asarray(y, dtype=float)
    if X.ndim != 2 or y.shape != (len(X),):
        raise ValueError(f"X must be (n_samples, n_features) and y of length n_samples, "
                         f"got {X.shape} and {y.shape}")
    if not (np.all(np.isfinite(X)) and np.all(np.isfinite(y))):
        raise ValueError("X and y must be finite")
    if w is None:
        return X, y
    w = np.asarray(w, dtype=float)
    if w.shape != (X.shape[1],):
        raise ValueError(f"w must have one entry per column of X ({X.shape[1]}), got {w.shape}")
    return X, y, w


def _descent_setup(X, y, w0):
    """Check the data and the start (zeros by default)."""
    X, y = _augmented_data(X, y)
    w = np.zeros(X.shape[1]) if w0 is None else _augmented_data(X, y, w0)[2].copy()
    return X, y, w


def adaline_loss(w: np.ndarray, X: np.ndarray, y: np.ndarray,
                 activation: str | tuple[Callable, Callable] = "identity") -> float:
    """Deckert's loss (11), ``L(w) = 1/2 sum_i (y_i - alpha(w . x_i))^2``.

    ``X`` holds the augmented inputs ``x = (1, x_1, ..., x_n)``; ``activation`` is a name
    of :data:`ACTIVATIONS` or a pair ``(alpha, alpha_prime)``.
    """
    X, y, w = _augmented_data(X, y, w)
    alpha, _ = _activation(activation)
    r = y - alpha(X @ w)
    return 0.5 * float(r @ r)


def adaline_gradient(w: np.ndarray, X: np.ndarray, y: np.ndarray,
                     activation: str | tuple[Callable, Callable] = "identity") -> np.ndarray:
    """``dL/dw = -sum_i (y_i - alpha(w . x_i)) alpha'(w . x_i) x_i`` (Deckert §3.3.2).

    The chain rule puts the factor ``alpha'`` of the activation into every term; for
    ``alpha = id`` it is 1 and the update is the delta rule.
    """
    X, y, w = _augmented_data(X, y, w)
    alpha, alpha_prime = _activation(activation)
    z = X @ w
    return -X.T @ ((y - alpha(z)) * alpha_prime(z))


@dataclass
class AdalineDescent:
    """Result of :func:`adaline_descent`: weights and loss at the start and after each epoch."""

    weights: np.ndarray          # (n_epochs + 1, n_features)
    loss: np.ndarray             # (n_epochs + 1,)
    diverged: bool


@validate_args(eta=POSITIVE, n_epochs=_STEPS)
def adaline_descent(X: np.ndarray, y: np.ndarray, eta: float, n_epochs: int,
                    activation: str | tuple[Callable, Callable] = "identity",
                    w0: np.ndarray | None = None) -> AdalineDescent:
    """Deckert's Adaline algorithm: batch gradient descent on :func:`adaline_loss`.

    Every epoch makes one step ``w <- w + eta sum_i (y_i - alpha(w . x_i)) alpha'(w . x_i) x_i``
    on all examples (a *batch* update; the gradient is a sum, so a usable ``eta`` scales
    like ``1 / n_samples``).  Starts from ``w0`` (zeros by default).  The run stops early,
    with ``diverged=True``, when the loss exceeds ``1e100`` or stops being finite.

    Examples
    --------
    >>> from lecture_pkg.linear import adaline_descent
    >>> import numpy as np
    >>> X = np.array([[1.0, -1.0], [1.0, 1.0]])          # augmented: (1, x)
    >>> run = adaline_descent(X, np.array([-1.0, 1.0]), eta=0.25, n_epochs=40)
    >>> np.round(run.weights[-1], 6).tolist()
    [0.0, 1.0]
    """
    X, y, w = _descent_setup(X, y, w0)
    alpha, alpha_prime = _activation(activation)
    weights, losses = [w.copy()], [adaline_loss(w, X, y, (alpha, alpha_prime))]
    diverged = False
    with np.errstate(over="ignore", invalid="ignore"):
        for _ in range(int(n_epochs)):
            z = X @ w
            w = w + eta * (X.T @ ((y - alpha(z)) * alpha_prime(z)))
            loss = adaline_loss(w, X, y, (alpha, alpha_prime)) if np.all(np.isfinite(w)) else np.inf
            if not loss <= 1e100:
                diverged = True
                break
            weights.append(w.copy())
            losses.append(loss)
    return AdalineDescent(np.array(weights), np.array(losses), diverged)


# ---------------------------------------------------------------- Mooney's slides

@dataclass
class BatchPerceptronRun:
    """Result of :func:`batch_perceptron`.

    ``weights`` at the start and after every epoch, ``errors`` the misclassified
    examples of each of those weights, ``converged`` whether the last weights classify
    every example correctly.
    """

    weights: np.ndarray
    errors: np.ndarray
    converged: bool


@validate_args(eta=POSITIVE, max_epochs=_STEPS)
def batch_perceptron(X: np.ndarray, c: np.ndarray, w0: np.ndarray | None = None, eta: float = 1.0,
                     max_epochs: int = 100) -> BatchPerceptronRun:
    """The batch perceptron of Mooney's slides, with 0/1 labels ``c``.

    One epoch is one step on all examples at once,

        ``w <- w - eta sum_k (sgn(w . x_k) - c_k) x_k``,

    with ``sgn(z) = 1`` for ``z >= 0`` and ``0`` otherwise; ``X`` holds the augmented
    inputs ``(1, x)``.  Each term is ``-eta x_k`` or ``+eta x_k`` for a misclassified
    example and zero otherwise: the summed corrections of the online rule, made with
    the weights frozen during the epoch.  It is gradient descent on the perceptron
    criterion ``sum_k (sgn(w . x_k) - c_k) w . x_k`` (zero exactly when every example
    is correct).  Stops at the first weights that classify every example correctly.

    Examples
    --------
    >>> from lecture_pkg.linear import batch_perceptron
    >>> import numpy as np
    >>> X = np.array([[1.0, 2, -1], [1, 2, 1], [1, 1, 3]])
    >>> batch_perceptron(X, [1, 1, 0], w0=[0.0, -1.0, 1.0]).weights[-1].tolist()
    [1.0, 2.0, -2.0]
    """
    X, c, w = _descent_setup(X, c, w0)
    if not np.all((c == 0) | (c == 1)):
        raise ValueError("the labels c must be 0 or 1 (Mooney's convention)")
    weights, errors = [w.copy()], []
    for _ in range(int(max_epochs) + 1):
        out = (X @ w >= 0).astype(float)
        wrong = out != c
        errors.append(int(wrong.sum()))
        if not wrong.any() or len(weights) > max_epochs:
            break
        w = w - eta * (X.T @ (out - c))
        weights.append(w.copy())
    return BatchPerceptronRun(np.array(weights), np.array(errors), errors[-1] == 0)


@dataclass
class DescentRun:
    """Result of :func:`least_squares_descent`: weights and error ``E`` at each step."""

    weights: np.ndarray
    error: np.ndarray
    diverged: bool


@validate_args(eta=POSITIVE, n_steps=_STEPS)
def least_squares_descent(A: np.ndarray, f: np.ndarray, eta: float, n_steps: int,
                          w0: np.ndarray | None = None) -> DescentRun:
    """Gradient descent on ``E(w) = 1/2 sum_k (w . x_k - f_k)^2`` (Mooney's slides).

    ``w <- w - eta grad E(w)`` with ``grad E(w) = sum_k (w . x_k - f_k) x_k = A^T (A w - f)``
    (:func:`lecture_pkg.learning.sse_gradient`), ``A`` the matrix of augmented inputs.
    ``E`` is a convex quadratic with Hessian ``A^T A``; the iteration converges to a
    minimiser from any start exactly when ``0 < eta < 2 / lambda_max(A^T A)``
    (:func:`lecture_pkg.linear.gd_stability_limit`).  A run whose error exceeds ``1e100``
    stops with ``diverged=True``.

    Examples
    --------
    >>> from lecture_pkg.linear import least_squares_descent
    >>> import numpy as np
    >>> A = np.array([[1.0, 0.0], [1.0, 1.0], [1.0, 2.0]])
    >>> run = least_squares_descent(A, np.array([1.0, 3.0, 5.0]), eta=0.1, n_steps=500)
    >>> np.round(run.weights[-1], 6).tolist()
    [1.0, 2.0]
    """
    A, f, w = _descent_setup(A, f, w0)
    n = int(n_steps)
    weights, errors = np.empty((n + 1, A.shape[1])), np.empty(n + 1)
    weights[0], errors[0] = w, sse(w, A, f)
    diverged = False
    At = np.ascontiguousarray(A.T)
    step = 0
    r = A @ w - f                               # the residuals; E = r.r / 2, grad E = A^T r
    with np.errstate(over="ignore", invalid="ignore"):
        for step in range(1, n + 1):
            w = w - eta * (At @ r)              # = w - eta * sse_gradient(w, A, f)
            r = A @ w - f
            e = 0.5 * float(r @ r)
            weights[step], errors[step] = w, e
            if not e <= 1e100:
                diverged = True
                break
    return DescentRun(weights[:step + 1], errors[:step + 1], diverged)


# ---------------------------------------------------------------- Deckert's ||w||_p homework

@validate_args(p=_P_NORM)
def dual_exponent(p: float) -> float:
    """``q`` with ``1/p + 1/q = 1`` for ``p`` in ``[1, inf]`` (``p = 1 -> q = inf``,
    ``p = inf -> q = 1``)."""
    p = float(p)
    if p == 1.0:
        return np.inf
    return 1.0 if np.isinf(p) else p / (p - 1.0)


def _project_l1_ball(v: np.ndarray, radius: float) -> np.ndarray:
    """Euclidean projection onto ``{u : ||u||_1 <= radius}`` (sort-based, exact)."""
    a = np.abs(v)
    if a.sum() <= radius:
        return v.copy()
    s = np.sort(a)[::-1]
    c = np.cumsum(s) - radius
    k = np.arange(1, len(s) + 1)
    rho = int(np.flatnonzero(s - c / k > 0)[-1])
    theta = c[rho] / (rho + 1)
    return np.sign(v) * np.maximum(a - theta, 0.0)


@validate_args(t=NON_NEGATIVE, p=_P_NORM)
def norm_prox(v: np.ndarray, t: float, p: float) -> np.ndarray:
    """Proximal operator ``argmin_u t ||u||_p + 1/2 |u - v|^2`` for ``p`` in ``{1, 2, inf}``.

    ``p = 1``: soft thresholding of each entry by ``t``; ``p = 2``: ``v`` shrunk towards 0
    by ``t`` (and 0 if ``|v| <= t``); ``p = inf``: ``v - t P(v / t)`` with ``P`` the
    projection onto the unit ``l1`` ball (Moreau's decomposition, the ``l1`` norm being
    the dual of ``l_inf``).  In every case the result is 0 exactly when
    ``||v||_q <= t`` with the dual exponent ``q`` (:func:`dual_exponent`).
    """
    v = np.asarray(v, dtype=float)
    if p == 1:
        u = np.sign(v) * np.maximum(np.abs(v) - t, 0.0)
    elif p == 2:
        n = float(np.linalg.norm(v))
        u = v * max(0.0, 1.0 - t / n) if n > 0 else np.zeros_like(v)
    elif np.isinf(p) and p > 0:
        u = v - t * _project_l1_ball(v / t, 1.0) if t > 0 else v.copy()
    else:
        u = None
    if u is not None:
        return u + 0.0                          # no negative zeros
    raise ValueError(f"norm_prox is implemented for p = 1, 2 and inf, got {p!r}")


@dataclass
class NormPenalisedFit:
    """Result of :func:`norm_penalised_least_squares`: bias, weights and the optimality gap.

    ``threshold`` is ``||X_c^T y_c||_q``: the weights are exactly zero iff ``lam >= threshold``.
    """

    intercept: float
    coef: np.ndarray
    n_steps: int
    threshold: float


@validate_args(lam=NON_NEGATIVE, p=_P_NORM, tol=NON_NEGATIVE, max_steps=COUNT)
def norm_penalised_least_squares(X: np.ndarray, y: np.ndarray, lam: float, p: float, *,
                                 tol: float = 1e-12, max_steps: int = 100000) -> NormPenalisedFit:
    """Minimise Deckert's regularised loss ``lam ||w||_p + 1/2 sum_i (y_i - b - w . x_i)^2``.

    Deckert's homework (§3.3.4.2) with the identity activation and ``lam = 1``; ``lam``
    sets the strength of the penalty.  The bias ``b`` is not penalised (our choice: a
    penalised bias would pull the boundary towards the origin of the raw features): it
    is eliminated by centring, ``b = mean(y) - w . mean(X)``.  The weights are found by
    proximal gradient descent, ``w <- prox_{s lam ||.||_p}(w - s grad)`` with the step
    ``s = 1 / lambda_max(X_c^T X_c)`` (:func:`norm_prox`), which converges for this
    convex loss; it stops when ``w`` moves by less than ``tol`` (relative).  ``X`` holds
    the raw inputs, without the constant 1.

    Examples
    --------
    >>> from lecture_pkg.linear import norm_penalised_least_squares
    >>> import numpy as np
    >>> X = np.array([[0.0, 1.0], [1.0, 0.0], [2.0, 2.0], [3.0, 1.0]])
    >>> fit = norm_penalised_least_squares(X, np.array([0.0, 1.0, 2.0, 4.0]), 100.0, 2)
    >>> fit.coef.tolist(), fit.intercept       # lam beyond the threshold: no weights
    ([0.0, 0.0], 1.75)
    """
    X, y = _augmented_data(X, y)
    q = dual_exponent(p)
    xm, ym = X.mean(axis=0), float(y.mean())
    Xc, yc = X - xm, y - ym
    H, g = Xc.T @ Xc, Xc.T @ yc
    threshold = float(np.linalg.norm(g, ord=q))
    top = float(np.linalg.eigvalsh(H)[-1])
    w = np.zeros(X.shape[1])
    step = 0
    if top > 0:
        s = 1.0 / top
        prox = norm_prox.__wrapped__                # s * lam and p are valid: no check per step
        for step in range(1, int(max_steps) + 1):
            new = prox(w - s * (H @ w - g), s * lam, p)
            done = np.abs(new - w).max() <= tol * max(1.0, np.abs(new).max())
            w = new
            if done:
                break
    return NormPenalisedFit(ym - float(w @ xm), w, step, threshold)
