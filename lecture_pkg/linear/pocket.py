"""The perceptron with errors: the number of errors and Gallant's Pocket algorithm (Biehl
§4.1.1, eqs. 4.1–4.2).

Local potentials ``E^mu = y^mu w . xi^mu`` are taken on augmented inputs when there is a
bias; the Rosenblatt steps carry Biehl's factor ``1/N``.

* :func:`n_errors` is the cost (4.1).  An example with ``E^mu = 0`` counts as an error
  (the notes leave ``sign(0)`` open, erratum E.3), so ``w = 0`` gets every example wrong.
  :func:`min_errors_2d` finds its exact minimum in the plane by enumeration.
* :func:`pocket` is Gallant's Pocket algorithm (4.2) with two corrections (errata E.1,
  E.2): the pocket starts with its count ``ℰ_err(w^) = ℰ_err(w(0))`` (the printed
  count ``H^ = 0`` would never be beaten) and a Rosenblatt step is taken when
  ``E^mu <= 0`` (with ``Theta[0] = 0`` as printed, the zero start never moves).
  ``literal=True`` runs the printed version.  It returns a :class:`PocketRun`;
  :class:`Pocket` is the estimator.
"""

from __future__ import annotations

import numbers
from dataclasses import dataclass

import numpy as np

from ..validation import (COUNT, NON_ZERO, Interval, as_plus_minus, check_inputs, resolve_rng,
                          validate_args)
from ._base import _LinearBinaryClassifier

__all__ = [
    "n_errors",
    "min_errors_2d",
    "PocketRun",
    "pocket",
    "Pocket",
]


def n_errors(w: np.ndarray, X: np.ndarray, y: np.ndarray) -> int:
    """``ℰ_err(w)``, the number of examples with ``E^mu = y^mu w . xi^mu <= 0``, Biehl eq. (4.1)."""
    X = check_inputs(X)
    y = as_plus_minus(y)
    w = np.asarray(w, dtype=float)
    if w.shape != (X.shape[1],) or len(y) != len(X):
        raise ValueError(f"w has shape {w.shape}, X {X.shape}, y {y.shape}: they do not fit")
    return int(np.sum(y * (X @ w) <= 0))


def min_errors_2d(X: np.ndarray, y: np.ndarray) -> tuple[int, np.ndarray]:
    """Exact minimum of (4.1) over all ``w`` in the plane (homogeneous, no bias), by enumeration.

    ``ℰ_err`` only changes where ``w`` crosses a direction perpendicular to some
    ``xi^mu``; these ``2P`` critical angles cut the circle into arcs on which the
    error count is constant.  Evaluating it at the middle of every arc gives the exact
    minimum.  Returns the minimum and a unit vector attaining it.
    """
    X = check_inputs(X)
    y = as_plus_minus(y)
    if X.shape[1] != 2 or len(y) != len(X):
        raise ValueError(f"need 2-d inputs and one label each, got X {X.shape}, y {y.shape}")
    phi = np.arctan2(X[:, 1], X[:, 0])
    crit = np.sort(np.mod(np.r_[phi + np.pi / 2, phi - np.pi / 2], 2 * np.pi))
    mids = (crit + np.diff(np.r_[crit, crit[0] + 2 * np.pi]) / 2)
    W = np.column_stack([np.cos(mids), np.sin(mids)])
    counts = np.sum(y[:, None] * (X @ W.T) <= 0, axis=0)
    best = int(np.argmin(counts))
    return int(counts[best]), W[best]


@dataclass
class PocketRun:
    """Result of :func:`pocket`.

    ``w`` is the pocketed weight vector, ``errors`` the pocket's count ``ℰ_err(w^(t))`` for
    ``t = 0 .. n_steps`` (never increasing), ``w_last`` the Rosenblatt weights at the
    end, ``n_updates`` the number of Rosenblatt steps taken, and ``running`` the error
    count ``ℰ_err(w(t))`` of the running Rosenblatt weights for ``t = 0 .. n_steps``
    (it goes up as well as down; the pocket keeps its running minimum).
    """

    w: np.ndarray
    errors: np.ndarray
    w_last: np.ndarray
    n_updates: int
    running: np.ndarray | None = None


@validate_args(n_steps=Interval(numbers.Integral, 0, None), random_state="random_state")
def pocket(X: np.ndarray, y: np.ndarray, n_steps: int, *,
           random_state: np.random.Generator | int | None = None, w0: np.ndarray | None = None,
           literal: bool = False, stop_at_zero: bool = True) -> PocketRun:
    """The Pocket algorithm (Gallant 1990), Biehl eq. (4.2), corrected.

    At every step an example ``mu`` is drawn uniformly at random; if
    ``E^mu = y^mu w . xi^mu <= 0`` the weights take the Rosenblatt step
    ``w <- w + xi^mu y^mu / N``.  Whenever ``w`` changed, ``ℰ_err(w)`` is counted
    (4.1) and ``w`` replaces the pocketed ``w^`` if ``ℰ_err(w) < ℰ_err(w^)``.  The pocket
    starts at ``w^ = w(0)``, with ``ℰ_err(w^) = P`` from ``w(0) = 0``.

    ``literal=True`` runs the printed version instead: step only if ``E^mu < 0``
    (``Theta[-E]`` with ``Theta[0] = 0``) and a pocket count of ``0``, which never moves from the
    zero start and never fills the pocket (errata E.1, E.2).  ``stop_at_zero`` ends the
    run (keeping the last value in ``errors``) once ``ℰ_err(w^) = 0``.

    ``X`` are the inputs as the algorithm sees them (augment them for a bias).
    """
    X = check_inputs(X)
    y = as_plus_minus(y)
    if len(y) != len(X) or len(y) == 0:
        raise ValueError(f"need one label per example, got X {X.shape}, y {y.shape}")
    rng = resolve_rng(random_state)
    P, N = X.shape
    Z = y[:, None] * X                       # rows xi^mu y^mu
    w = np.zeros(N) if w0 is None else np.array(w0, dtype=float)
    if w.shape != (N,):
        raise ValueError(f"w0 has shape {w.shape}, expected ({N},)")
    best_w = w.copy()
    best = 0 if literal else int(np.sum(Z @ w <= 0))
    errors = np.empty(n_steps + 1, dtype=int)
    errors[0] = best
    current = int(np.sum(Z @ w <= 0))              # ℰ_err(w(t)) of the running weights
    running = np.empty(n_steps + 1, dtype=int)
    running[0] = current
    draws = (rng.integers(0, P, size=n_steps) if isinstance(rng, np.random.Generator)
             else rng.randint(0, P, size=n_steps))          # a legacy RandomState
    n_updates = 0
    t = 0
    for t in range(1, n_steps + 1):
        mu = draws[t - 1]
        E = float(Z[mu] @ w)
        if (E < 0) if literal else (E <= 0):
            w += Z[mu] / N
            n_updates += 1
            current = int(np.sum(Z @ w <= 0))
            if current < best:
                best, best_w = current, w.copy()
        errors[t] = best
        running[t] = current
        if stop_at_zero and best == 0 and not literal:
            errors[t:] = 0
            running[t:] = current
            break
    return PocketRun(best_w, errors, w, n_updates, running)


class Pocket(_LinearBinaryClassifier):
    """The Pocket algorithm (4.2) as a scikit-learn classifier: fewest training errors seen.

    Parameters
    ----------
    n_steps : int, default 10000
        Number of random draws (the algorithm has no natural end; it stops early when
        the pocket holds a weight vector without errors).
    random_state : seed, Generator or RandomState
    fit_intercept : bool, default True
        Augment the inputs with the clamped ``bias_input`` (the bias is learned like a weight).
    bias_input : float, default 1.0

    Attributes
    ----------
    coef_, intercept_ : array (n_features,) and float
        The pocketed weights.
    n_errors_ : int
        Their number of training errors ``ℰ_err`` (4.1).
    errors_history_ : array of int
        The pocket's ``ℰ_err`` after every step (non-increasing).
    n_updates_ : int
        Rosenblatt steps taken.

    References
    ----------
    .. [1] Biehl, M. (2019). *Supervised Learning -- An Introduction*. Machine Learning Reports
       01/2019, §4.1.1, eqs. (4.1)--(4.2). (bib key: biehl2019supervised)
    .. [2] Gallant, S. I. (1990). Perceptron-based learning algorithms. *IEEE Transactions on
       Neural Networks* 1(2), 179--191. (bib key: gallant1990perceptron)

    Examples
    --------
    >>> from lecture_pkg.datasets import xor
    >>> from lecture_pkg.linear import Pocket
    >>> X, y = xor()
    >>> clf = Pocket(random_state=0).fit(X, y)
    >>> clf.n_errors_
    1
    """

    _parameter_constraints = {
        "n_steps": [COUNT],
        "random_state": ["random_state"],
        "fit_intercept": ["boolean"],
        "bias_input": NON_ZERO,
    }

    def __init__(self, n_steps: int = 10_000, random_state: np.random.Generator | int | None = None,
                 fit_intercept: bool = True, bias_input: float = 1.0) -> None:
        self.n_steps = n_steps
        self.random_state = random_state
        self.fit_intercept = fit_intercept
        self.bias_input = bias_input

    def fit(self, X: np.ndarray, y: np.ndarray) -> Pocket:
        """Run the Pocket algorithm on ``X`` (n_samples, n_features) with two classes in ``y``."""
        X, y_pm, Xa, s = self._prepare(X, y)
        run = pocket(Xa, y_pm, self.n_steps, random_state=self.random_state)
        self._store_weights(run.w, s)
        self.n_errors_ = int(run.errors[-1])
        self.errors_history_ = run.errors
        self.n_updates_ = run.n_updates
        return self
