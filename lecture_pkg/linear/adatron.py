"""The AdaTron (Anlauf and Biehl): the perceptron of optimal stability by quadratic
optimisation (Biehl §3.6.3–3.6.4, eqs. 3.71–3.77).

:class:`AdaTron` maximises the Wolfe dual (3.75) over non-negative embedding strengths by
the clipped Adaline steps (3.76), sequentially, in parallel or greedily.  The iteration
itself, shared with the kernel AdaTron, is
:func:`~lecture_pkg.kernel_machines.adatron_embeddings` (in :mod:`lecture_pkg.core.solvers`).

Notation as in :mod:`~lecture_pkg.linear.embeddings` (Biehl's 1/N convention).  The
estimator works on augmented inputs ``(s, x)`` when ``fit_intercept=True`` (clamped input
``s`` first, as in :func:`lecture_pkg.linear.augment`), so the bias is part of the weight
vector whose norm is minimised.  ``fit_intercept=False`` is Biehl's perceptron through the
origin.  The AdaTron with errors, for data that are not separable, is in
:mod:`~lecture_pkg.linear.soft_margin`.
"""

from __future__ import annotations

import numpy as np
from sklearn.exceptions import ConvergenceWarning

from ..core.solvers import adatron_embeddings, kkt_residuals, support_vectors
from ..validation import COUNT, NON_NEGATIVE, NON_ZERO, POSITIVE, Options, warn_user
from ._base import _kappa_of, _LinearBinaryClassifier
from .embeddings import correlation_matrix, weights_from_embeddings

__all__ = [
    "AdaTron",
]


class AdaTron(_LinearBinaryClassifier):
    """The AdaTron (Anlauf and Biehl 1989): the perceptron of optimal stability by quadratic
    optimisation.

    Maximises the Wolfe dual ``f(a) = -1/2 a.C a + sum a`` over the embedding strengths
    ``a >= 0`` (3.75; Biehl's ``x``) by the clipped Adaline steps (3.76), sequentially or
    in parallel, and returns ``w = (1/N) sum_mu a^mu y^mu xi^mu``.  At the solution the
    Kuhn–Tucker conditions (3.71)–(3.73) hold, the stability is ``kappa_max = 1 / |w|``,
    and the examples with ``a^mu > 0`` are the support vectors (3.77).

    Parameters
    ----------
    eta : float, default 1.0
        Learning rate.  With ``normalize=True`` the step for example ``mu`` is
        ``eta / C^{mu mu}`` (parallel: ``eta / lambda_max(C)``) and the window is
        ``0 < eta < 2`` for any data; Biehl's ``0 < eta < 2`` for the raw step assumes
        ``|xi^mu|^2 = N``.  Outside the window a :class:`LearningRateWarning` is issued.
    mode : {"sequential", "parallel", "greedy"}
        ``"greedy"`` steps the example that violates the Kuhn–Tucker conditions most
        instead of sweeping (see :func:`~lecture_pkg.kernel_machines.adatron_embeddings`);
        it needs ``normalize=True``.
    normalize : bool, default True
    max_epochs : int, default 1000
        With ``mode="greedy"``, ``P`` steps count as one epoch.
    tol : float, default 1e-10
        Relative change of the embeddings in an epoch below which the run stops; with
        ``mode="greedy"`` the largest allowed violation of the Kuhn–Tucker conditions.
    fit_intercept, bias_input : bool and float, default True and 1.0
        As for :class:`MinOver`.

    Attributes
    ----------
    coef_, intercept_, embeddings_ : array (n_features,), float and array (n_samples,)
        Weights and embedding strengths ``a``.
    support_ : array of int
        Indices of the support vectors.
    objective_history_ : array
        ``f(a)`` at the start and after every epoch.
    kkt_ : KKTResiduals
        :class:`~lecture_pkg.kernel_machines.KKTResiduals` at the end.
    kappa_ : float
        Stability on the (augmented) training inputs.
    n_epochs_ : int
        Epochs run.
    converged_, diverged_ : bool
        Whether the stopping rule was met; whether the iteration diverged.

    References
    ----------
    .. [1] Biehl, M. (2019). *Supervised Learning -- An Introduction*. Machine Learning Reports
       01/2019, §3.6.3--3.6.4, eqs. (3.71)--(3.77). (bib key: biehl2019supervised)
    .. [2] Anlauf, J. K. and Biehl, M. (1989). The AdaTron: an Adaptive Perceptron Algorithm.
       *Europhysics Letters* 10(7), 687--692. (bib key: anlauf1989adatron)

    Examples
    --------
    >>> from lecture_pkg.datasets import koski_example
    >>> from lecture_pkg.linear import AdaTron
    >>> X, y = koski_example()
    >>> clf = AdaTron().fit(X, y)
    >>> clf.support_.tolist(), clf.score(X, y)
    ([0, 4], 1.0)
    """

    _parameter_constraints = {
        "eta": [POSITIVE],
        "mode": [Options("sequential", "parallel", "greedy")],
        "normalize": ["boolean"],
        "max_epochs": [COUNT],
        "tol": [NON_NEGATIVE],
        "fit_intercept": ["boolean"],
        "bias_input": NON_ZERO,
    }

    def __init__(self, eta: float = 1.0, mode: str = "sequential", normalize: bool = True,
                 max_epochs: int = 1000, tol: float = 1e-10, fit_intercept: bool = True,
                 bias_input: float = 1.0) -> None:
        self.eta = eta
        self.mode = mode
        self.normalize = normalize
        self.max_epochs = max_epochs
        self.tol = tol
        self.fit_intercept = fit_intercept
        self.bias_input = bias_input

    def _check_parameter_combination(self) -> None:
        """The greedy solver needs a positive ``tol``."""
        if self.mode == "greedy" and self.tol == 0:
            raise ValueError("AdaTron: mode='greedy' needs tol > 0, got tol=0: the greedy solver "
                             "stops when no Kuhn-Tucker condition is violated by more than tol, "
                             "which in floating point may never happen for tol=0")

    def fit(self, X: np.ndarray, y: np.ndarray) -> AdaTron:
        """Train on ``X`` (n_samples, n_features) with two classes in ``y``."""
        X, y_pm, Xa, s = self._prepare(X, y)
        C = correlation_matrix(Xa, y_pm)
        run = adatron_embeddings(C, self.eta, mode=self.mode, normalize=self.normalize,
                                 max_epochs=self.max_epochs, tol=self.tol,
                                 kkt_tol=self.tol if self.mode == "greedy" else None)
        w = weights_from_embeddings(run.a, Xa, y_pm) if not run.diverged else np.zeros(Xa.shape[1])
        self._store_weights(w, s)
        self.embeddings_ = run.a
        self.objective_history_ = run.objective
        self.support_ = support_vectors(run.a) if not run.diverged else np.array([], dtype=int)
        self.kkt_ = kkt_residuals(run.a, C)
        self.kappa_ = _kappa_of(Xa, y_pm, w)
        self.n_epochs_ = run.n_epochs
        self.converged_ = run.converged
        self.diverged_ = run.diverged
        if not self.converged_:
            reason = ("the embeddings diverged" if run.diverged else
                      f"the Kuhn-Tucker conditions are violated by {self.kkt_.max():.3g}")
            warn_user(
                f"AdaTron did not converge within max_epochs={self.max_epochs} epochs ({reason}); "
                "the hard-margin problem has no solution when the data are not linearly separable",
                ConvergenceWarning,
            )
        return self
