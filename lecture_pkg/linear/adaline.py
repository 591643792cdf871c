"""Adaline (Widrow and Hoff): gradient descent on the squared error, and the windows of its
learning rate (Biehl §3.6.2, eqs. 3.62–3.66; Deckert §3.3).

* :class:`Adaline` -- batch (Biehl's parallel rule), sequential (the LMS or delta rule)
  or mini-batch descent on the loss ``L = 1/2 sum_mu (y^mu - w.x^mu)^2``;
* :func:`gd_stability_limit` and :func:`lms_stability_limit` -- the upper ends of the
  convergent windows of the batch and of the sequential step.  A learning rate outside
  its window gets a :class:`LearningRateWarning` (defined with the solvers in
  :mod:`lecture_pkg.core.solvers`; the AdaTron's iteration issues it too).

:class:`Adaline` uses Deckert's form of the learning rate: the weights move by
``eta`` times the negative gradient of the loss ``L = 1/2 sum_mu (y^mu - w.x^mu)^2``
(Deckert's eq. 11 with the identity activation, Biehl's ``E^SSE`` of eq. 3.66).  Biehl's
weight-space updates (3.63) and (3.65) carry a factor ``1/N``: his ``eta`` equals
``N`` times the ``eta`` of :class:`Adaline`.  Its embedding strengths follow Biehl's 1/N
convention (:mod:`~lecture_pkg.linear.embeddings`); the bias is learned on augmented
inputs ``(s, x)``, as for the perceptron.  Deckert's Adaline with a general activation is
in :mod:`~lecture_pkg.linear.gradient_descent`.
"""

from __future__ import annotations

import numpy as np
from sklearn.exceptions import ConvergenceWarning

from ..core.solvers import DIVERGENCE_FACTOR, LearningRateWarning, check_learning_rate
from ..validation import (COUNT, NON_NEGATIVE, NON_ZERO, POSITIVE, Options, check_inputs,
                          resolve_rng, warn_user)
from ._base import _LinearBinaryClassifier, initial_weights

__all__ = [
    "LearningRateWarning",
    "gd_stability_limit",
    "lms_stability_limit",
    "Adaline",
]


# ---------------------------------------------------------------- learning-rate windows

def gd_stability_limit(X: np.ndarray) -> float:
    """``2 / lambda_max(X^T X)``: batch gradient descent on ``1/2 |y - X w|^2`` converges iff
    ``eta`` is below.

    ``X`` are the inputs as the algorithm sees them (augmented if there is a bias).
    The loss is quadratic with Hessian ``X^T X``; along its top eigenvector an error is
    multiplied by ``1 - eta lambda_max`` per step, which shrinks only for
    ``0 < eta < 2 / lambda_max``.  In Biehl's embedding form (3.62) the same window is
    ``0 < eta < 2 / lambda_max(C)``, since ``lambda_max(C) = lambda_max(X^T X) / N``.
    """
    X = check_inputs(X)
    lam = float(np.linalg.eigvalsh(X.T @ X)[-1]) if X.size else 0.0
    return 2.0 / lam if lam > 0 else np.inf


def lms_stability_limit(X: np.ndarray) -> float:
    """``2 / max_mu |x^mu|^2``: the window of the sequential (LMS, delta-rule) step on every
    example.

    One LMS step on example ``mu`` multiplies that example's residual by
    ``1 - eta |x^mu|^2``.  Biehl's window ``0 < eta~ < 2`` for (3.64)/(3.65) is this
    condition for ``|xi^mu|^2 = N`` (``C^{mu mu} = 1``), with ``eta~ = N eta``.
    """
    X = check_inputs(X)
    top = float(np.max(np.einsum("ij,ij->i", X, X))) if X.size else 0.0
    return 2.0 / top if top > 0 else np.inf


class Adaline(_LinearBinaryClassifier):
    """Adaline (Widrow and Hoff 1960): gradient descent on the squared error.

    Minimises Deckert's loss (11) with the identity activation, which is Biehl's
    ``E^SSE`` of eq. (3.66),

        ``L(w) = 1/2 sum_mu (y^mu - w . x^mu)^2 = 1/2 sum_mu (1 - E^mu)^2``,

    with the gradient ``-sum_mu (y^mu - w . x^mu) x^mu`` (note the minus sign, which the
    notes drop in 3.66).  One step on a block ``B`` of examples is

        ``w <- w + eta sum_{mu in B} (y^mu - w . x^mu) x^mu``

    with ``B`` all examples (``solver="batch"``, Biehl's parallel rule 3.63 with
    ``eta = eta_Biehl / N``), one example at a time (``"sequential"``, the LMS or delta
    rule 3.65) or consecutive blocks of ``batch_size`` (``"minibatch"``).  Training stops
    when no weight changes by more than ``tol * max(1, max|w|)`` in an epoch (``tol=None``:
    run all ``max_epochs``), or as diverged when the loss exceeds ``1e10`` times its start value.

    Convergent windows (a :class:`LearningRateWarning` names the window when ``eta`` lies
    outside): batch ``0 < eta < 2 / lambda_max(X^T X)`` (:func:`gd_stability_limit`);
    sequential ``0 < eta < 2 / max |x^mu|^2`` (:func:`lms_stability_limit`), or
    ``0 < eta < 2`` with ``normalize=True`` (step ``eta / |x^mu|^2``, normalised LMS,
    Biehl's ``eta~ / C^{mu mu}``); mini-batch ``2 / max_k lambda_max`` over the blocks
    (in data order; with shuffling the bound uses the ``batch_size`` largest ``|x|^2``).

    Parameters
    ----------
    eta : float or "auto", default "auto"
        The learning rate.  ``"auto"`` takes half the upper end of the convergent window
        of the chosen solver (``learning_rate_limit_ / 2``), so the default converges on
        any data; a number outside the window gets a :class:`LearningRateWarning`.
    solver : {"batch", "sequential", "minibatch"}
    batch_size : int, optional
        Needed for ``"minibatch"``.
    normalize : bool, default False
        Only for ``"sequential"``.
    max_epochs : int, default 1000
    tol : float or None, default 1e-8
    shuffle : bool, default False
        Fresh random order every epoch (sequential and mini-batch).
    random_state : seed, Generator or RandomState
    fit_intercept, bias_input : bool and float, default True and 1.0
        Augmented inputs ``(s, x)`` as for the perceptron.
    record_history : bool
        Keep the (augmented) weights after every epoch in ``history_``.

    Attributes
    ----------
    coef_, intercept_ : array (n_features,) and float
        Weights.
    loss_ : list of float
        The loss at the start and after every epoch (Deckert logs the loss *before*
        each epoch's update, i.e. ``loss_[:-1]``).
    errors_per_epoch_ : list of int
        Misclassified training examples after every epoch.
    embeddings_ : array (n_samples,)
        The embedding strengths ``a^mu`` (Biehl's ``x^mu``, 1/N convention) accumulated
        from the start weights.
    learning_rate_limit_ : float
        The upper end of the convergent window.
    eta_ : float
        The learning rate used (``eta``, or the one ``"auto"`` chose).
    n_epochs_ : int
        Epochs run.
    converged_, diverged_ : bool
        Whether the stopping rule was met; whether the loss diverged.
    history_ : array (n_epochs + 1, D)
        The (augmented) weights at the start and after every epoch (with ``record_history``).

    References
    ----------
    .. [1] Biehl, M. (2019). *Supervised Learning -- An Introduction*. Machine Learning Reports
       01/2019, §3.6.2, eqs. (3.63)--(3.66). (bib key: biehl2019supervised)
    .. [2] Deckert, D.-A. (2017). *Mathematics and Applications of Machine Learning*, §3.3
       (Adaline), eq. (11). (bib key: deckert2017maml)
    .. [3] Widrow, B. and Hoff, M. E. (1960). Adaptive Switching Circuits. *IRE WESCON
       Convention Record*, Part 4, 96--104. (bib key: widrow1960adaptive)

    Examples
    --------
    >>> from lecture_pkg.datasets import koski_example
    >>> from lecture_pkg.linear import Adaline
    >>> X, y = koski_example()
    >>> clf = Adaline().fit(X, y)
    >>> clf.converged_, clf.score(X, y)
    (True, 1.0)
    """

    _parameter_constraints = {
        "eta": [POSITIVE, Options("auto")],
        "solver": [Options("batch", "sequential", "minibatch")],
        "batch_size": [COUNT, None],
        "normalize": ["boolean"],
        "max_epochs": [COUNT],
        "tol": [NON_NEGATIVE, None],
        "shuffle": ["boolean"],
        "random_state": ["random_state"],
        "fit_intercept": ["boolean"],
        "bias_input": NON_ZERO,
        "record_history": ["boolean"],
    }

    def __init__(self, eta: float | str = "auto", solver: str = "batch",
                 batch_size: int | None = None, normalize: bool = False, max_epochs: int = 1000,
                 tol: float = 1e-8, shuffle: bool = False,
                 random_state: np.random.Generator | int | None = None, fit_intercept: bool = True,
                 bias_input: float = 1.0, record_history: bool = False) -> None:
        self.eta = eta
        self.solver = solver
        self.batch_size = batch_size
        self.normalize = normalize
        self.max_epochs = max_epochs
        self.tol = tol
        self.shuffle = shuffle
        self.random_state = random_state
        self.fit_intercept = fit_intercept
        self.bias_input = bias_input
        self.record_history = record_history

    def _window(self, Xa: np.ndarray, B: int) -> tuple[float, str]:
        P = len(Xa)
        if B >= P:
            return gd_stability_limit(Xa), "batch gradient descent: 2 / lambda_max(X^T X)"
        if B == 1:
            if self.normalize:
                return 2.0, "normalised LMS, steps eta / |x|^2"
            return lms_stability_limit(Xa), ("sequential LMS: 2 / max |x|^2; Biehl's 0 < eta~ < 2 "
                                             "assumes ||x^mu||^2 = N")
        if self.shuffle:
            sq = np.sort(np.einsum("ij,ij->i", Xa, Xa))[::-1]
            top = min(float(sq[:B].sum()), 2.0 / gd_stability_limit(Xa))
            return 2.0 / top, f"mini-batches of {B}: bound from the {B} largest |x|^2"
        lam = max(float(np.linalg.eigvalsh(Xa[k:k + B].T @ Xa[k:k + B])[-1]) for k in range(0, P,
                                                                                            B))
        return 2.0 / lam, f"mini-batches of {B}: 2 / largest lambda_max of a block"

    def _check_parameter_combination(self) -> None:
        """Mini-batches need a ``batch_size``; normalised LMS is a sequential rule."""
        if self.solver == "minibatch" and self.batch_size is None:
            raise ValueError(f"solver='minibatch' needs a positive integer batch_size, "
                             f"got {self.batch_size!r}")
        if self.normalize and self.solver != "sequential":
            raise ValueError("normalize=True (normalised LMS) is defined for "
                             "solver='sequential' only")

    def fit(self, X: np.ndarray, y: np.ndarray, coef_init: np.ndarray | None = None,
            intercept_init: float | None = None) -> Adaline:
        """Train on ``X`` (n_samples, n_features) with two classes in ``y``.

        ``coef_init``/``intercept_init`` give the start weights (zero by default).
        """
        X, y_pm, Xa, s = self._prepare(X, y)
        P, D = Xa.shape
        # inputs whose squares overflow (and with them the learning-rate limit) were
        # refused by _prepare, before the eigenvalues of the window are computed
        w = initial_weights(X.shape[1], coef_init, intercept_init, s, owner="Adaline.fit")
        B = {"batch": P, "sequential": 1}.get(self.solver, self.batch_size)
        B = min(B, P)
        limit, window = self._window(Xa, B)
        self.learning_rate_limit_ = float(limit)
        eta = 0.5 * float(limit) if self.eta == "auto" else float(self.eta)
        check_learning_rate(eta, limit, window)
        self.eta_ = eta
        sqnorm = np.einsum("ij,ij->i", Xa, Xa)
        scale = np.where(sqnorm > 0, 1.0 / np.where(sqnorm > 0, sqnorm, 1.0),
                         0.0) if self.normalize else None
        rng = resolve_rng(self.random_state)
        a = np.zeros(P)                      # w = w0 + sum_mu a^mu y^mu x^mu

        def loss_of(v):
            r = y_pm - Xa @ v
            return float(0.5 * r @ r)

        losses, errors, history = [loss_of(w)], [], [w.copy()]
        converged = diverged = False
        epoch = 0
        with np.errstate(over="ignore", invalid="ignore"):
            for epoch in range(1, self.max_epochs + 1):
                old = w.copy()
                order = rng.permutation(P) if (self.shuffle and B < P) else np.arange(P)
                if B == 1:
                    for mu in order:
                        r = y_pm[mu] - Xa[mu] @ w
                        step = eta * r * (scale[mu] if scale is not None else 1.0)
                        w += step * Xa[mu]
                        a[mu] += step * y_pm[mu]
                else:
                    for k in range(0, P, B):
                        idx = order[k:k + B]
                        r = y_pm[idx] - Xa[idx] @ w
                        w += eta * (r @ Xa[idx])
                        a[idx] += eta * r * y_pm[idx]
                loss = loss_of(w)
                losses.append(loss)
                errors.append(int(np.sum(y_pm * (Xa @ w) < 0)))
                if self.record_history:
                    history.append(w.copy())
                if not np.isfinite(loss) or loss > DIVERGENCE_FACTOR * max(1.0, losses[0]):
                    diverged = True
                    break
                if (self.tol is not None
                        and np.abs(w - old).max() <= self.tol * max(1.0, np.abs(w).max())):
                    converged = True
                    break
        if diverged:
            w = np.nan_to_num(w)
        self._store_weights(w, s)
        self.loss_ = losses
        self.errors_per_epoch_ = errors
        self.embeddings_ = D * a
        self.n_epochs_ = epoch
        self.converged_ = converged
        self.diverged_ = diverged
        if self.record_history:
            W = np.array(history)
            self.history_ = W if s is None else np.c_[W[:, 0] * s, W[:, 1:]]
        if diverged:
            warn_user(
                f"Adaline diverged after {epoch} epoch(s): eta={eta:.6g} is outside the convergent "
                f"window 0 < eta < {limit:.6g} ({window})", ConvergenceWarning,
            )
        elif self.tol is not None and not converged:
            warn_user(
                f"Adaline did not converge within max_epochs={self.max_epochs} epochs "
                f"(loss {losses[-1]:.6g}); increase max_epochs or eta "
                f"(window 0 < eta < {limit:.6g})",
                ConvergenceWarning,
            )
        return self
