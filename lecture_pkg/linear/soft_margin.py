"""The soft margin: the perceptron that pays for slack, trained by the AdaTron with errors
(Biehl §4.1.2, eqs. 4.3–4.6).

Notation as in :mod:`~lecture_pkg.linear.embeddings`: local potentials
``E^mu = y^mu w . xi^mu`` (on augmented inputs when there is a bias), Biehl's 1/N
convention ``w = (1/N) sum_mu a^mu y^mu xi^mu`` with the embedding strengths ``a^mu``
(Biehl's ``x^mu``) and the correlation matrix
``Q^{mu nu} = y^mu y^nu xi^mu . xi^nu / N`` (Biehl's ``C``; here ``C`` is the price of slack).

* :func:`primal_objective` is the soft-margin cost (4.3) at the optimal slacks;
* :func:`soft_margin_adatron` and the estimator :class:`SoftMarginAdaTron` are the AdaTron
  with errors (4.6), the box-constrained dual (4.5) of the soft-margin problem (4.3); it
  runs the one AdaTron of :func:`lecture_pkg.kernel_machines.adatron_embeddings` with
  ``upper = C``, where ``C`` is the price of a unit of slack (Biehl writes it ``gamma``);
* :func:`support_vector_categories` splits the examples into the three cases of the soft
  margin (Biehl's Fig. 4.1).
"""

from __future__ import annotations

import numbers

import numpy as np
from sklearn.exceptions import ConvergenceWarning

from ..core.solvers import EmbeddingRun, adatron_embeddings, dual_objective, support_vectors
from ..validation import (COUNT, NON_NEGATIVE, NON_ZERO, POSITIVE, POSITIVE_OR_INF, Interval,
                          as_plus_minus, check_inputs, validate_args, warn_user)
from ._base import _LinearBinaryClassifier
from .embeddings import correlation_matrix, weights_from_embeddings

__all__ = [
    "primal_objective",
    "soft_margin_adatron",
    "support_vector_categories",
    "SoftMarginAdaTron",
]


@validate_args(C=POSITIVE)
def primal_objective(w: np.ndarray, X: np.ndarray, y: np.ndarray, C: float) -> float:
    """Soft-margin cost (4.3) at the optimal slacks: ``N/2 |w|^2 + C sum_mu max(0, 1 - E^mu)``.

    For a given ``w`` the best slacks are ``beta^mu = max(0, 1 - E^mu)`` (the hinge
    loss), so this is the minimum of (4.3) over ``beta``.  ``N`` is the number of
    columns of ``X`` (augmented, if there is a bias); ``C`` is the price of a unit of
    slack (Biehl's ``gamma``), finite and ``> 0``.
    """
    X = check_inputs(X)
    y = as_plus_minus(y)
    w = np.asarray(w, dtype=float)
    if w.shape != (X.shape[1],) or len(y) != len(X):
        raise ValueError(f"w has shape {w.shape}, X {X.shape}, y {y.shape}: they do not fit")
    E = y * (X @ w)
    return float(0.5 * X.shape[1] * w @ w + C * np.maximum(0.0, 1.0 - E).sum())


@validate_args(C=POSITIVE_OR_INF, eta=POSITIVE, max_epochs=COUNT, tol=POSITIVE)
def soft_margin_adatron(Q: np.ndarray, C: float, eta: float = 1.0, *, max_epochs: int = 10_000,
                        tol: float = 1e-8, a0: np.ndarray | None = None,
                        record_steps: bool = False) -> EmbeddingRun:
    """The AdaTron with errors (4.6) on a correlation matrix ``Q``: maximises (4.5).

    ``Q`` is Biehl's correlation matrix ``Q^{mu nu} = y^mu y^nu xi^mu . xi^nu / N`` (he
    writes it ``C``) and ``C`` the price of a unit of slack (he writes it ``gamma``), the
    upper bound of the embeddings ``a^mu``.  Cyclically, from the start ``a0`` (zero by
    default), ``a^mu <- min(C, max(0, a^mu + eta / Q^{mu mu} (1 - [Q a]^mu)))``; this is
    :func:`lecture_pkg.kernel_machines.adatron_embeddings` with ``upper=C``, stopped when
    the Kuhn–Tucker conditions hold up to ``tol``.  Returns its ``EmbeddingRun``.
    """
    return adatron_embeddings(Q, eta, max_epochs=max_epochs, upper=float(C), kkt_tol=tol,
                              a0=a0, record_steps=record_steps)


@validate_args(C=POSITIVE_OR_INF, tol=NON_NEGATIVE)
def support_vector_categories(a: np.ndarray, E: np.ndarray, C: float,
                              tol: float = 1e-8) -> dict[str, np.ndarray]:
    """Split the examples into the three cases of the soft margin (Biehl §4.1.2, Fig. 4.1).

    ``C`` is the price of slack, the upper bound of the embeddings ``a``.
    ``"inactive"``: ``a = 0`` (then ``E >= 1``); ``"margin"``: ``0 < a < C`` (then
    ``E = 1``, on one of the two planes); ``"bound"``: ``a = C`` (then ``E <= 1``,
    between the planes or misclassified).  ``tol`` is relative to ``max(1, C)``.
    """
    a = np.asarray(a, dtype=float)
    E = np.asarray(E, dtype=float)
    if a.shape != E.shape:
        raise ValueError(f"a and E must have the same shape, got {a.shape} and {E.shape}")
    scale = tol * (max(1.0, C) if np.isfinite(C) else max(1.0, float(np.abs(a).max())))
    zero = a <= scale
    bound = (a >= C - scale) if np.isfinite(C) else np.zeros_like(zero)
    return {"inactive": np.flatnonzero(zero), "margin": np.flatnonzero(~zero & ~bound),
            "bound": np.flatnonzero(bound & ~zero)}


class SoftMarginAdaTron(_LinearBinaryClassifier):
    """The soft-margin perceptron (4.3) trained by the AdaTron with errors (4.6).

    Solves ``min_w N/2 |w|^2 + C sum_mu max(0, 1 - E^mu)`` through its dual (4.5),
    ``max -1/2 a.Q a + sum a`` over ``0 <= a <= C``; ``w = (1/N) sum a^mu y^mu xi^mu``, with
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
        Weights and the embedding strengths ``a^mu``.
    potentials_ : array (n_samples,)
        ``E^mu`` on the (augmented) training inputs.
    support_ : array of int
        ``a^mu > 0``; ``margin_support_`` (``0 < a < C``) and ``bound_support_`` (``a = C``).
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
        a = run.a if not run.diverged else np.zeros(len(y_pm))
        w = weights_from_embeddings(a, Xa, y_pm)
        self._store_weights(w, s)
        self.embeddings_ = a
        self.potentials_ = Q @ a
        self.support_ = support_vectors(a)
        cats = support_vector_categories(a, self.potentials_, self.C)
        self.margin_support_ = cats["margin"]
        self.bound_support_ = cats["bound"]
        self.primal_objective_ = primal_objective(w, Xa, y_pm, self.C) if np.isfinite(self.C) \
            else 0.5 * Xa.shape[1] * float(w @ w)
        self.dual_objective_ = dual_objective(a, Q)
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
