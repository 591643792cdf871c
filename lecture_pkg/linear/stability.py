"""The perceptron of optimal stability: MinOver, Adaline and AdaTron (Biehl §3.5–3.6).

Notation and conventions (the book's, see its page "Notation"; Biehl's letters in brackets):

* inputs are the rows ``x^mu`` of ``X`` (shape ``(P, N)``; Biehl's ``xi^mu``), labels
  ``y^mu`` are ``+-1`` (his ``S_T^mu``); the estimators accept any two labels and map
  them to ``+-1`` themselves;
* Biehl's **1/N convention** is kept where the notes use it: the weights are written
  through *embedding strengths* ``a^mu`` (his ``x^mu``) as
  ``w = (1/N) sum_mu a^mu y^mu x^mu`` (eqs. 3.13, 3.45, 3.55, 3.67), the correlation
  matrix is ``Q^{mu nu} = (1/N) y^mu y^nu x^mu . x^nu`` (his ``C``, 3.58), and then
  ``E = Q a`` (3.59) and ``|w|^2 = a.Q a / N`` (3.60).  The factor never changes a
  classifier; it changes the numbers ``E``, ``Q`` and ``a``;
* the estimators work on augmented inputs ``(s, x)`` when ``fit_intercept=True``
  (clamped input ``s`` first, as in :func:`lecture_pkg.linear.augment`), so the
  bias is part of the weight vector whose norm is minimised.  ``fit_intercept=False``
  is Biehl's perceptron through the origin;
* :class:`Adaline` uses Deckert's form of the learning rate: the weights move by
  ``eta`` times the negative gradient of the loss ``L = 1/2 sum_mu (y^mu - w.x^mu)^2``
  (Deckert's eq. 11 with the identity activation, Biehl's ``E^SSE`` of eq. 3.66).  Biehl's
  weight-space updates (3.63) and (3.65) carry a factor ``1/N``: his ``eta`` equals
  ``N`` times the ``eta`` of :class:`Adaline`.

The iterations on embedding strengths that these estimators run (and the kernel AdaTron
too) are in :mod:`lecture_pkg.core.solvers`.
"""

from __future__ import annotations

import numbers
from dataclasses import dataclass

import numpy as np
from sklearn.exceptions import ConvergenceWarning

from .._ties import first_argmin
from ..core.solvers import (DIVERGENCE_FACTOR, LearningRateWarning, adatron_embeddings,
                                       check_learning_rate, kkt_residuals, support_vectors)
from ..validation import (COUNT, NON_NEGATIVE, NON_ZERO, POSITIVE, Interval, Options, as_plus_minus,
                          check_inputs, check_scalar, resolve_rng, warn_user)
from ._base import _kappa_of, _LinearBinaryClassifier, initial_weights
from .perceptron import geometric_margin, local_potentials

__all__ = [
    "LearningRateWarning",
    "stabilities",
    "stability",
    "correlation_matrix",
    "weights_from_embeddings",
    "gd_stability_limit",
    "lms_stability_limit",
    "MinOverRun",
    "minover_embeddings",
    "MinOver",
    "AdaTron",
    "Adaline",
]


# ---------------------------------------------------------------- stability (3.39), (3.40)

def stabilities(X: np.ndarray, y: np.ndarray, coef: np.ndarray,
                intercept: float = 0.0) -> np.ndarray:
    """Stabilities ``kappa^mu = E^mu / |w|`` of all examples, Biehl eq. (3.39).

    ``kappa^mu`` is the oriented distance of example ``mu`` from the hyperplane
    ``w . x + b = 0``: positive on the correct side, negative on the wrong one.  It does
    not change when ``(w, b)`` is multiplied by a positive number.
    """
    norm = float(np.linalg.norm(coef))
    if norm == 0.0:
        raise ValueError("the weight vector is zero, so it defines no hyperplane")
    return local_potentials(X, y, coef, intercept) / norm


def stability(X: np.ndarray, y: np.ndarray, coef: np.ndarray, intercept: float = 0.0) -> float:
    """Stability of the perceptron ``kappa(w) = min_mu kappa^mu``, Biehl eq. (3.40).

    The same number as :func:`lecture_pkg.linear.geometric_margin`: the margin when
    positive, the worst violation when negative.
    """
    return geometric_margin(X, y, coef, intercept)


# ---------------------------------------------------------------- embeddings, C and the dual

def correlation_matrix(X: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Biehl's correlation matrix ``C^{mu nu} = (1/N) y^mu y^nu xi^mu . xi^nu``, eq. (3.58).

    ``N`` is the number of columns of ``X`` (of the augmented inputs, if augmented).
    """
    X = check_inputs(X)
    y = as_plus_minus(y)
    if len(y) != len(X):
        raise ValueError(f"X has {len(X)} rows but y has {len(y)} labels")
    Z = y[:, None] * X
    return Z @ Z.T / X.shape[1]


def weights_from_embeddings(x: np.ndarray, X: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Weights ``w = (1/N) sum_mu x^mu y^mu xi^mu`` from embedding strengths, eqs. (3.13),
    (3.45)."""
    X = check_inputs(X)
    y = as_plus_minus(y)
    x = np.asarray(x, dtype=float)
    if x.shape != y.shape or len(y) != len(X):
        raise ValueError(f"need one embedding strength and one label per example; got x {x.shape}, "
                         f"y {y.shape}, X {X.shape}")
    return (x * y) @ X / X.shape[1]


# ---------------------------------------------------------------- learning-rate windows

def gd_stability_limit(X: np.ndarray) -> float:
    """``2 / lambda_max(X^T X)``: batch gradient descent on ``1/2 |y - X w|^2`` converges iff
    ``eta`` is below.

    ``X`` are the inputs as the algorithm sees them (augmented if there is a bias).
    The loss is quadratic with Hessian ``X^T X``; along its top eigenvector an error is
    multiplied by ``1 - eta lambda_max`` per step, which shrinks only for
    ``0 < eta < 2 / lambda_max``.  In Biehl's ``x``-space form (3.62) the same window is
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


# ---------------------------------------------------------------- the algorithms on embeddings

@dataclass
class MinOverRun:
    """Result of :func:`minover_embeddings`."""

    x: np.ndarray                 # embedding strengths (non-negative integers from tabula rasa)
    kappa: np.ndarray             # stability kappa(w(t)) after every step t = 1, 2, ...
    changes: np.ndarray           # the stopping quantity, measured every T steps
    converged: bool
    n_steps: int
    pocket: np.ndarray | None = None   # with pocket=True: the strengths of the fewest-error step
                                       # (the last such step)
    pocket_errors: int | None = None   # its number of examples with E^mu <= 0


def minover_embeddings(Q: np.ndarray, n_features: int, *, max_steps: int = 100_000,
                       check_every: int | None = None, tol: float = 1e-6,
                       criterion: str = "angle", c: float = np.inf,
                       x0: np.ndarray | None = None, pocket: bool = False) -> MinOverRun:
    """MinOver (Krauth and Mézard), eqs. (3.42)–(3.44), on the correlation matrix ``Q``.

    ``Q^{mu nu} = y^mu y^nu xi^mu . xi^nu / N`` is Biehl's ``C`` of eq. (3.58) (the book
    keeps ``C`` for the price of slack).  Each step finds the example of minimal local
    potential ``E^mu = (Q x)^mu`` (the first one on ties) and increments its embedding
    strength by one, which adds ``xi^mu y^mu / N`` to ``w``.  The local potentials are
    updated with one column of ``Q``.

    Stopping (Biehl's two criteria, measured every ``T = check_every`` steps, ``T = P`` by
    default): ``criterion="angle"`` uses the angle between ``w(t)`` and ``w(t + T)`` in
    units of pi; ``criterion="stabilities"`` uses ``sum_mu (kappa^mu(t) - kappa^mu(t+T))^2``.
    The run has converged when that quantity is below ``tol`` *and* ``kappa > 0``: for
    data that are not linearly separable the angle also shrinks (``|w|`` keeps growing),
    but ``kappa`` never becomes positive, so such runs stop at ``max_steps``.
    With a finite ``c`` (the original variant) the run stops as soon as every
    ``E^mu > c``.

    With ``pocket=True`` the run also keeps, in the manner of Gallant's pocket algorithm,
    the embedding strengths after the step with the fewest examples of ``E^mu <= 0``
    (the last such step, which is nearest to what MinOver aims at): for data that are not
    separable the last iterate is wherever ``max_steps`` cut the run off, the pocketed one
    is the best of the run.
    """
    Q = np.asarray(Q, dtype=float)
    P = len(Q)
    if Q.shape != (P, P) or P == 0:
        raise ValueError(f"Q must be a non-empty square matrix, got shape {Q.shape}")
    if criterion not in ("angle", "stabilities"):
        raise ValueError(f"criterion must be 'angle' or 'stabilities', got {criterion!r}")
    T = P if check_every is None else int(check_scalar(check_every, "check_every", COUNT))
    check_scalar(max_steps, "max_steps", COUNT)
    N = float(n_features)
    x = np.zeros(P) if x0 is None else np.array(x0, dtype=float)
    E = Q @ x
    q = float(x @ E)                       # N |w|^2
    kappa = np.empty(max_steps)
    changes = []
    ref_x, ref_E, ref_q = x.copy(), E.copy(), q
    diag = np.diag(Q).copy()
    x_start = x.copy()
    chosen = np.empty(max_steps, dtype=np.intp)      # the example of each step
    best_t, best_errors = (-1, int(np.count_nonzero(E <= 0))) if pocket else (None, None)
    converged, t = False, 0
    for t in range(max_steps):
        mu = first_argmin(E)                       # ties: the first example, on every CPU
        if E[mu] > c:
            converged, t = True, t - 1
            break
        q += 2.0 * E[mu] + diag[mu]
        x[mu] += 1.0
        chosen[t] = mu
        E += Q[:, mu]
        kappa[t] = E.min() / np.sqrt(q / N) if q > 0 else -np.inf
        if pocket:
            errors = int(np.count_nonzero(E <= 0))
            if errors <= best_errors:          # ties: the later step, nearer MinOver's goal
                best_t, best_errors = t, errors
        if (t + 1) % T == 0:
            if ref_q > 0 and q > 0:
                if criterion == "angle":
                    cos = float(ref_x @ E) / np.sqrt(ref_q * q)
                    change = float(np.arccos(np.clip(cos, -1.0, 1.0)) / np.pi)
                else:
                    change = float(np.sum((ref_E / np.sqrt(ref_q / N) - E / np.sqrt(q / N)) ** 2))
                changes.append(change)
                if change < tol and kappa[t] > 0:
                    converged = True
                    break
            ref_x, ref_E, ref_q = x.copy(), E.copy(), q
    n = t + 1
    best_x = None
    if pocket:                             # replay the steps up to the pocketed one, in order
        best_x = x_start
        np.add.at(best_x, chosen[:best_t + 1], 1.0)
    return MinOverRun(x, kappa[:n].copy(), np.array(changes), converged, n, best_x, best_errors)


class MinOver(_LinearBinaryClassifier):
    """MinOver (Krauth and Mézard 1987): Hebbian steps on the least stable example.

    From ``w = 0`` (tabula rasa) every step adds ``xi^mu y^mu / N`` for the example with
    the smallest local potential ``E^mu = y^mu w . xi^mu``, eqs. (3.42)–(3.44); the
    embedding strengths ``x^mu`` count these steps.  For linearly separable data ``w``
    turns towards the perceptron of optimal stability.  See :func:`minover_embeddings`
    for the two stopping criteria.

    Parameters
    ----------
    max_steps : int, default 200000
        Step limit; reaching it gives ``converged_ = False`` and a ``ConvergenceWarning``
        (always so for data that are not linearly separable).
    tol : float, default 1e-5
        Threshold of the stopping criterion.
    criterion : {"angle", "stabilities"}
    check_every : int, optional
        ``T``, the number of steps between two checks; ``P`` by default.
    c : float, default inf
        Update only while the smallest ``E <= c`` (the original variant); ``inf`` is (3.43).
    fit_intercept : bool, default True
        Append the clamped input ``bias_input`` to every example (the bias then enters
        the norm).  ``False``: Biehl's perceptron through the origin.
    bias_input : float, default 1.0

    Attributes
    ----------
    coef_, intercept_ : array (n_features,) and float
        The weights (in the scale of the 1/N convention).
    embeddings_ : array (n_samples,)
        The step counts ``x^mu`` (of the pocketed iterate if the run did not converge).
    kappa_history_ : array
        ``kappa(w(t))`` after every step (on augmented inputs).
    changes_ : array
        The stopping quantity at every check.
    kappa_ : float
        Final stability on the (augmented) training inputs.
    n_steps_ : int
    converged_ : bool

    Notes
    -----
    If the run stops at ``max_steps`` without converging (always so for data that are not
    linearly separable), the estimator keeps, as Gallant's pocket algorithm does, the
    last iterate with the fewest training errors along the run rather than wherever the
    limit cut it off (for separable data that is the last iterate); ``kappa_history_``
    still describes the whole run.

    References
    ----------
    .. [1] Biehl, M. (2019). *Supervised Learning -- An Introduction*. Machine Learning Reports
       01/2019, §3.5.2, eqs. (3.42)--(3.44). (bib key: biehl2019supervised)
    .. [2] Krauth, W. and Mézard, M. (1987). Learning algorithms with optimal stability in
       neural networks. *J. Phys. A* 20(11), L745--L752. (bib key: krauth1987learning)

    Examples
    --------
    >>> from lecture_pkg.datasets import koski_example
    >>> from lecture_pkg.linear import MinOver
    >>> X, y = koski_example()
    >>> clf = MinOver(tol=1e-3).fit(X, y)
    >>> clf.converged_, clf.score(X, y)
    (True, 1.0)
    """

    _parameter_constraints = {
        "max_steps": [COUNT],
        "tol": [POSITIVE],
        "criterion": [Options("angle", "stabilities")],
        "check_every": [COUNT, None],
        # From tabula rasa every E is 0, so c < 0 would stop before the first step.
        "c": [Interval(numbers.Real, 0, None, closed="left", allow_inf=True)],
        "fit_intercept": ["boolean"],
        "bias_input": NON_ZERO,
    }

    def __init__(self, max_steps: int = 200_000, tol: float = 1e-5, criterion: str = "angle",
                 check_every: int | None = None, c: float = np.inf, fit_intercept: bool = True,
                 bias_input: float = 1.0) -> None:
        self.max_steps = max_steps
        self.tol = tol
        self.criterion = criterion
        self.check_every = check_every
        self.c = c
        self.fit_intercept = fit_intercept
        self.bias_input = bias_input

    def fit(self, X: np.ndarray, y: np.ndarray) -> MinOver:
        """Run MinOver on ``X`` (n_samples, n_features) with two classes in ``y``."""
        X, y_pm, Xa, s = self._prepare(X, y)
        C = correlation_matrix(Xa, y_pm)
        run = minover_embeddings(C, Xa.shape[1], max_steps=self.max_steps,
                                 check_every=self.check_every,
                                 tol=self.tol, criterion=self.criterion, c=self.c, pocket=True)
        # A run that did not converge was cut off by max_steps at an arbitrary iterate;
        # the pocketed one (fewest training errors along the run) is the best it saw.
        x = run.x if run.converged else run.pocket
        w = weights_from_embeddings(x, Xa, y_pm)
        self._store_weights(w, s)
        self.embeddings_ = x
        self.kappa_history_ = run.kappa
        self.changes_ = run.changes
        self.kappa_ = _kappa_of(Xa, y_pm, w)
        self.n_steps_ = run.n_steps
        self.converged_ = run.converged
        if not self.converged_:
            warn_user(
                f"MinOver stopped at max_steps={self.max_steps} without meeting its stopping "
                f"criterion (stability kappa = {self.kappa_:.4g}); "
                + ("the data are not linearly separable" if self.kappa_ <= 0
                   else "raise max_steps"),
                ConvergenceWarning,
            )
        return self


class AdaTron(_LinearBinaryClassifier):
    """The AdaTron (Anlauf and Biehl 1989): the perceptron of optimal stability by quadratic
    optimisation.

    Maximises the Wolfe dual ``f(x) = -1/2 x.C x + sum x`` over ``x >= 0`` (3.75) by the
    clipped Adaline steps (3.76), sequentially or in parallel, and returns
    ``w = (1/N) sum_mu x^mu y^mu xi^mu``.  At the solution the Kuhn–Tucker conditions
    (3.71)–(3.73) hold, the stability is ``kappa_max = 1 / |w|``, and the examples with
    ``x^mu > 0`` are the support vectors (3.77).

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
        Weights and embedding strengths ``x``.
    support_ : array of int
        Indices of the support vectors.
    objective_history_ : array
        ``f(x)`` at the start and after every epoch.
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
        w = weights_from_embeddings(run.x, Xa, y_pm) if not run.diverged else np.zeros(Xa.shape[1])
        self._store_weights(w, s)
        self.embeddings_ = run.x
        self.objective_history_ = run.objective
        self.support_ = support_vectors(run.x) if not run.diverged else np.array([], dtype=int)
        self.kkt_ = kkt_residuals(run.x, C)
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
        Biehl's ``x^mu`` (1/N convention) accumulated from the start weights.
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
        w = initial_weights(X.shape[1], coef_init, intercept_init, s)
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
