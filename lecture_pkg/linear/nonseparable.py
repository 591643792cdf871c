"""The perceptron with errors: minimal number of errors, Pocket, soft margin (Biehl §4.1).

Notation as in :mod:`lecture_pkg.linear.stability`: local potentials
``E^mu = y^mu w . xi^mu`` (on augmented inputs when there is a bias), Biehl's 1/N
convention ``w = (1/N) sum_mu x^mu y^mu xi^mu`` and the correlation matrix
``Q^{mu nu} = y^mu y^nu xi^mu . xi^nu / N`` (Biehl's ``C``; here ``C`` is the price of slack).

* :func:`n_errors` is the cost (4.1).  An example with ``E^mu = 0`` counts as an error
  (the notes leave ``sign(0)`` open, erratum E.3), so ``w = 0`` gets every example wrong.
* :func:`pocket` is Gallant's Pocket algorithm (4.2) with two corrections (errata E.1,
  E.2): the pocket starts with its count ``ℰ_err(w^) = ℰ_err(w(0))`` (the printed
  count ``H^ = 0`` would never be beaten) and a Rosenblatt step is taken when
  ``E^mu <= 0`` (with ``Theta[0] = 0`` as printed, the zero start never moves).
  ``literal=True`` runs the printed version.
* :func:`cost_hk` and :func:`cost_hk_gradient` are the cost family
  ``ℰ_k(w) = sum_mu (c - E^mu)^k Theta[c - E^mu]`` of Griniasty and Gutfreund that
  Biehl quotes as ``H^[k]`` in §4.1.1: ``k -> 0`` with ``c = 0`` counts the errors, ``k = 1`` is the
  perceptron cost, ``k = 2`` the AdaTron cost.
* :class:`SoftMarginAdaTron` is the AdaTron with errors (4.6), the box-constrained
  dual (4.5) of the soft-margin problem (4.3); it runs the one AdaTron of
  :func:`lecture_pkg.kernel_machines.adatron_embeddings` with ``upper = C``, where ``C``
  is the price of a unit of slack (Biehl writes it ``gamma``).
"""

from __future__ import annotations

import numbers
from dataclasses import dataclass

import numpy as np
from sklearn.exceptions import ConvergenceWarning

from ..core.solvers import EmbeddingRun, adatron_embeddings, dual_objective, support_vectors
from ..validation import (COUNT, NON_ZERO, POSITIVE, POSITIVE_OR_INF, Interval, as_plus_minus,
                          check_inputs,
                          check_scalar, resolve_rng, warn_user)
from ._base import _LinearBinaryClassifier
from .stability import correlation_matrix, weights_from_embeddings

__all__ = [
    "n_errors",
    "min_errors_2d",
    "PocketRun",
    "pocket",
    "Pocket",
    "primal_objective",
    "soft_margin_adatron",
    "support_vector_categories",
    "SoftMarginAdaTron",
    "cost_hk",
    "cost_hk_gradient",
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
    check_scalar(n_steps, "n_steps", Interval(numbers.Integral, 0, None))
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


# ---------------------------------------------------------------- soft margin (4.3)-(4.6)

def primal_objective(w: np.ndarray, X: np.ndarray, y: np.ndarray, C: float) -> float:
    """Soft-margin cost (4.3) at the optimal slacks: ``N/2 |w|^2 + C sum_mu max(0, 1 - E^mu)``.

    For a given ``w`` the best slacks are ``beta^mu = max(0, 1 - E^mu)`` (the hinge
    loss), so this is the minimum of (4.3) over ``beta``.  ``N`` is the number of
    columns of ``X`` (augmented, if there is a bias); ``C`` is the price of a unit of
    slack (Biehl's ``gamma``).
    """
    X = check_inputs(X)
    y = as_plus_minus(y)
    w = np.asarray(w, dtype=float)
    if w.shape != (X.shape[1],) or len(y) != len(X):
        raise ValueError(f"w has shape {w.shape}, X {X.shape}, y {y.shape}: they do not fit")
    E = y * (X @ w)
    return float(0.5 * X.shape[1] * w @ w + C * np.maximum(0.0, 1.0 - E).sum())


def soft_margin_adatron(Q: np.ndarray, C: float, eta: float = 1.0, *, max_epochs: int = 10_000,
                        tol: float = 1e-8, x0: np.ndarray | None = None,
                        record_steps: bool = False) -> EmbeddingRun:
    """The AdaTron with errors (4.6) on a correlation matrix ``Q``: maximises (4.5).

    ``Q`` is Biehl's correlation matrix ``Q^{mu nu} = y^mu y^nu xi^mu . xi^nu / N`` (he
    writes it ``C``) and ``C`` the price of a unit of slack (he writes it ``gamma``), the
    upper bound of the embeddings.  Cyclically
    ``x^mu <- min(C, max(0, x^mu + eta / Q^{mu mu} (1 - [Q x]^mu)))``; this is
    :func:`lecture_pkg.kernel_machines.adatron_embeddings` with ``upper=C``, stopped when
    the Kuhn–Tucker conditions hold up to ``tol``.  Returns its ``EmbeddingRun``.
    """
    check_scalar(C, "C", POSITIVE_OR_INF)
    check_scalar(tol, "tol (the largest allowed violation of the Kuhn-Tucker conditions)", POSITIVE)
    return adatron_embeddings(Q, eta, max_epochs=max_epochs, upper=float(C), kkt_tol=tol,
                              x0=x0, record_steps=record_steps)


def support_vector_categories(x: np.ndarray, E: np.ndarray, C: float,
                              tol: float = 1e-8) -> dict[str, np.ndarray]:
    """Split the examples into the three cases of the soft margin (Biehl §4.1.2, Fig. 4.1).

    ``C`` is the price of slack, the upper bound of the embeddings ``x``.
    ``"inactive"``: ``x = 0`` (then ``E >= 1``); ``"margin"``: ``0 < x < C`` (then
    ``E = 1``, on one of the two planes); ``"bound"``: ``x = C`` (then ``E <= 1``,
    between the planes or misclassified).  ``tol`` is relative to ``max(1, C)``.
    """
    x = np.asarray(x, dtype=float)
    E = np.asarray(E, dtype=float)
    if x.shape != E.shape:
        raise ValueError(f"x and E must have the same shape, got {x.shape} and {E.shape}")
    scale = tol * (max(1.0, C) if np.isfinite(C) else max(1.0, float(np.abs(x).max())))
    zero = x <= scale
    bound = (x >= C - scale) if np.isfinite(C) else np.zeros_like(zero)
    return {"inactive": np.flatnonzero(zero), "margin": np.flatnonzero(~zero & ~bound),
            "bound": np.flatnonzero(bound & ~zero)}


class SoftMarginAdaTron(_LinearBinaryClassifier):
    """The soft-margin perceptron (4.3) trained by the AdaTron with errors (4.6).

    Solves ``min_w N/2 |w|^2 + C sum_mu max(0, 1 - E^mu)`` through its dual (4.5),
    ``max -1/2 x.Q x + sum x`` over ``0 <= x <= C``; ``w = (1/N) sum x^mu y^mu xi^mu``, with
    the correlation matrix ``Q^{mu nu} = y^mu y^nu xi^mu . xi^nu / N`` (Biehl's ``C``).
    ``C = inf`` is the AdaTron of optimal stability (3.76), which converges only on linearly
    separable data.

    Parameters
    ----------
    C : float, default 1.0
        The price of a unit of slack, the upper bound of the embeddings (Biehl's ``gamma``).
        Because of the factor ``N`` in front of ``|w|^2`` it equals ``N`` times the ``C`` of
        scikit-learn's linear SVM without intercept (``LinearSVC(C=C / N, loss="hinge",
        fit_intercept=False)`` solves the same problem).
    eta : float, default 1.0
        Step ``eta / Q^{mu mu}``; converges for ``0 < eta < 2``.
    max_epochs : int, default 10000
    tol : float, default 1e-8
        Kuhn–Tucker tolerance of the stopping rule.
    fit_intercept, bias_input : bool and float, default True and 1.0
        Augmented inputs ``(s, x)``: the bias is a weight
        (penalised), as for :class:`lecture_pkg.linear.AdaTron`.

    Attributes
    ----------
    coef_, intercept_, embeddings_ : array (n_features,), float and array (n_samples,)
        Weights and the ``x^mu``.
    potentials_ : array (n_samples,)
        ``E^mu`` on the (augmented) training inputs.
    support_ : array of int
        ``x^mu > 0``; ``margin_support_`` (``0 < x < C``) and ``bound_support_`` (``x = C``).
    primal_objective_, dual_objective_ : float
        (4.3) and (4.5) at the end; their difference is the duality gap.
    objective_history_ : array
        The dual objective (4.5) at the start and after every epoch.
    kkt_violation_ : float
        The largest violation of the Kuhn–Tucker conditions at the end.
    n_epochs_ : int
        Epochs run.
    converged_ : bool
        Whether the stopping rule was met.

    References
    ----------
    .. [1] Biehl, M. (2019). *Supervised Learning -- An Introduction*. Machine Learning Reports
       01/2019, §4.1.2, eqs. (4.3)--(4.6). (bib key: biehl2019supervised)
    .. [2] Anlauf, J. K. and Biehl, M. (1989). The AdaTron: an Adaptive Perceptron Algorithm.
       *Europhysics Letters* 10(7), 687--692. (bib key: anlauf1989adatron)

    Examples
    --------
    >>> from lecture_pkg.datasets import koski_example
    >>> from lecture_pkg.linear import SoftMarginAdaTron
    >>> X, y = koski_example()
    >>> clf = SoftMarginAdaTron(C=1.0).fit(X, y)
    >>> clf.score(X, y)
    1.0
    """

    _parameter_constraints = {
        # inf: hard margin
        "C": [Interval(numbers.Real, 0, None, closed="neither", allow_inf=True)],
        "eta": [Interval(numbers.Real, 0, 2, closed="neither")],
        "max_epochs": [COUNT],
        "tol": [POSITIVE],
        "fit_intercept": ["boolean"],
        "bias_input": NON_ZERO,
    }

    def __init__(self, C: float = 1.0, eta: float = 1.0, max_epochs: int = 10_000,
                 tol: float = 1e-8, fit_intercept: bool = True, bias_input: float = 1.0) -> None:
        self.C = C
        self.eta = eta
        self.max_epochs = max_epochs
        self.tol = tol
        self.fit_intercept = fit_intercept
        self.bias_input = bias_input

    def fit(self, X: np.ndarray, y: np.ndarray) -> SoftMarginAdaTron:
        """Train on ``X`` (n_samples, n_features) with two classes in ``y``."""
        X, y_pm, Xa, s = self._prepare(X, y)
        Q = correlation_matrix(Xa, y_pm)
        run = soft_margin_adatron(Q, self.C, self.eta, max_epochs=self.max_epochs, tol=self.tol)
        x = run.x if not run.diverged else np.zeros(len(y_pm))
        w = weights_from_embeddings(x, Xa, y_pm)
        self._store_weights(w, s)
        self.embeddings_ = x
        self.potentials_ = Q @ x
        self.support_ = support_vectors(x)
        cats = support_vector_categories(x, self.potentials_, self.C)
        self.margin_support_ = cats["margin"]
        self.bound_support_ = cats["bound"]
        self.primal_objective_ = primal_objective(w, Xa, y_pm, self.C) if np.isfinite(self.C) \
            else 0.5 * Xa.shape[1] * float(w @ w)
        self.dual_objective_ = dual_objective(x, Q)
        self.objective_history_ = run.objective
        self.kkt_violation_ = run.kkt_violation
        self.n_epochs_ = run.n_epochs
        self.converged_ = run.converged
        if not run.converged:
            warn_user(
                f"the AdaTron with errors did not converge within max_epochs={self.max_epochs} "
                f"epochs (Kuhn-Tucker violation {run.kkt_violation:.3g})"
                + ("; with C=inf the data must be linearly separable" if not np.isfinite(self.C)
                   else ""), ConvergenceWarning)
        return self


# ---------------------------------------------------------------- the cost family ℰ_k (§4.1.1)

def _hk_parts(w, X, y, k, c):
    X = check_inputs(X)
    y = as_plus_minus(y)
    w = np.asarray(w, dtype=float)
    if w.shape != (X.shape[1],) or len(y) != len(X):
        raise ValueError(f"w has shape {w.shape}, X {X.shape}, y {y.shape}: they do not fit")
    check_scalar(k, "the exponent k", POSITIVE)
    check_scalar(c, "the margin c", Interval(numbers.Real, None, None))
    Z = y[:, None] * X
    gap = c - Z @ w                      # c - E^mu
    return Z, gap, gap > 0               # Theta[c - E] = 1 only for E < c


def cost_hk(w: np.ndarray, X: np.ndarray, y: np.ndarray, k: float, c: float = 0.0) -> float:
    """``ℰ_k(w) = sum_mu (c - E^mu)^k Theta[c - E^mu]``, ``E^mu = y^mu w . xi^mu`` (Biehl §4.1.1).

    The family of costs studied by Griniasty and Gutfreund: only examples with
    ``E^mu < c`` cost anything, and they cost the ``k``-th power of their shortfall.

    * ``k -> 0`` with ``c = 0``: every example with ``E^mu < 0`` costs 1, so ``ℰ_k``
      tends to the number of errors (4.1) (which also counts ``E^mu = 0``);
    * ``k = 1``: the perceptron cost, piecewise linear (its minimum is ``w = 0`` when
      ``c = 0``, which is why a margin ``c > 0`` is needed);
    * ``k = 2``: the AdaTron cost, continuously differentiable.  On separable data every
      ``w`` of the version space scaled to ``min E^mu >= c`` has ``ℰ_2 = 0``, so the
      cost alone does not single out the perceptron of optimal stability.

    ``X`` are the inputs as the perceptron sees them (augmented for a bias); ``k > 0``.
    """
    _, gap, active = _hk_parts(w, X, y, k, c)
    return float(np.sum(gap[active] ** k))


def cost_hk_gradient(w: np.ndarray, X: np.ndarray, y: np.ndarray, k: float,
                     c: float = 0.0) -> np.ndarray:
    """Gradient ``-k sum_mu (c - E^mu)^(k-1) Theta[c - E^mu] y^mu xi^mu`` of :func:`cost_hk`.

    Exact wherever no ``E^mu`` equals ``c``; at ``E^mu = c`` the cost is not differentiable
    for ``k <= 1`` and this returns the one-sided value of the inactive side (the term is
    left out).  Batch gradient descent ``w <- w - eta grad ℰ_k`` is the training rule of
    the family; for ``k = 1`` it adds ``eta y^mu xi^mu`` for every example with
    ``E^mu < c``, a batch version of Rosenblatt's rule.
    """
    Z, gap, active = _hk_parts(w, X, y, k, c)
    return -k * (gap[active] ** (k - 1)) @ Z[active]
