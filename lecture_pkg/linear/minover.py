"""MinOver (Krauth and Mézard): the perceptron of optimal stability by Hebbian steps on the
least stable example (Biehl §3.5.2, eqs. 3.42–3.44).

* :func:`minover_embeddings` runs MinOver on the correlation matrix ``Q`` (Biehl's ``C``,
  eq. 3.58) and returns a :class:`MinOverRun`: the embedding strengths, the stability
  after every step, Biehl's two stopping criteria, optionally the pocketed iterate;
* :class:`MinOver` is the estimator.

Notation as in :mod:`~lecture_pkg.linear.embeddings` (Biehl's 1/N convention).  The
estimator works on augmented inputs ``(s, x)`` when ``fit_intercept=True`` (clamped input
``s`` first, as in :func:`lecture_pkg.linear.augment`), so the bias is part of the weight
vector whose norm is minimised.  ``fit_intercept=False`` is Biehl's perceptron through the
origin.
"""

from __future__ import annotations

import numbers
from dataclasses import dataclass

import numpy as np
from sklearn.exceptions import ConvergenceWarning

from .._ties import first_argmin
from ..validation import (COUNT, NON_NEGATIVE, NON_ZERO, POSITIVE, Interval, Options,
                          validate_args, warn_user)
from ._base import _kappa_of, _LinearBinaryClassifier
from .embeddings import correlation_matrix, weights_from_embeddings

__all__ = [
    "MinOverRun",
    "minover_embeddings",
    "MinOver",
]


@dataclass
class MinOverRun:
    """Result of :func:`minover_embeddings`."""

    a: np.ndarray                 # embedding strengths a^mu (non-negative integers from
                                  # tabula rasa)
    kappa: np.ndarray             # stability kappa(w(t)) after every step t = 1, 2, ...
    changes: np.ndarray           # the stopping quantity, measured every T steps
    converged: bool
    n_steps: int
    pocket: np.ndarray | None = None   # with pocket=True: the strengths of the fewest-error step
                                       # (the last such step)
    pocket_errors: int | None = None   # its number of examples with E^mu <= 0


# From tabula rasa every E is 0, so c < 0 would stop before the first step; inf is (3.43).
_THRESHOLD = Interval(numbers.Real, 0, None, closed="left", allow_inf=True)


@validate_args(n_features=COUNT, max_steps=COUNT, check_every=[COUNT, None], tol=NON_NEGATIVE,
               c=_THRESHOLD)
def minover_embeddings(Q: np.ndarray, n_features: int, *, max_steps: int = 100_000,
                       check_every: int | None = None, tol: float = 1e-6,
                       criterion: str = "angle", c: float = np.inf,
                       a0: np.ndarray | None = None, pocket: bool = False) -> MinOverRun:
    """MinOver (Krauth and Mézard), eqs. (3.42)–(3.44), on the correlation matrix ``Q``.

    ``Q^{mu nu} = y^mu y^nu xi^mu . xi^nu / N`` is Biehl's ``C`` of eq. (3.58) (the book
    keeps ``C`` for the price of slack).  Each step finds the example of minimal local
    potential ``E^mu = (Q a)^mu`` (the first one on ties) and increments its embedding
    strength ``a^mu`` (Biehl's ``x^mu``) by one, which adds ``xi^mu y^mu / N`` to ``w``;
    the run starts from ``a0`` (zero, tabula rasa, by default).  The local potentials are
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
    T = P if check_every is None else int(check_every)
    N = float(n_features)
    a = np.zeros(P) if a0 is None else np.array(a0, dtype=float)
    E = Q @ a
    q = float(a @ E)                       # N |w|^2
    kappa = np.empty(max_steps)
    changes = []
    ref_a, ref_E, ref_q = a.copy(), E.copy(), q
    diag = np.diag(Q).copy()
    a_start = a.copy()
    chosen = np.empty(max_steps, dtype=np.intp)      # the example of each step
    best_t, best_errors = (-1, int(np.count_nonzero(E <= 0))) if pocket else (None, None)
    converged, t = False, 0
    for t in range(max_steps):
        mu = first_argmin(E)                       # ties: the first example, on every CPU
        if E[mu] > c:
            converged, t = True, t - 1
            break
        q += 2.0 * E[mu] + diag[mu]
        a[mu] += 1.0
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
                    cos = float(ref_a @ E) / np.sqrt(ref_q * q)
                    change = float(np.arccos(np.clip(cos, -1.0, 1.0)) / np.pi)
                else:
                    change = float(np.sum((ref_E / np.sqrt(ref_q / N) - E / np.sqrt(q / N)) ** 2))
                changes.append(change)
                if change < tol and kappa[t] > 0:
                    converged = True
                    break
            ref_a, ref_E, ref_q = a.copy(), E.copy(), q
    n = t + 1
    best_a = None
    if pocket:                             # replay the steps up to the pocketed one, in order
        best_a = a_start
        np.add.at(best_a, chosen[:best_t + 1], 1.0)
    return MinOverRun(a, kappa[:n].copy(), np.array(changes), converged, n, best_a, best_errors)


class MinOver(_LinearBinaryClassifier):
    """MinOver (Krauth and Mézard 1987): Hebbian steps on the least stable example.

    From ``w = 0`` (tabula rasa) every step adds ``xi^mu y^mu / N`` for the example with
    the smallest local potential ``E^mu = y^mu w . xi^mu``, eqs. (3.42)–(3.44); the
    embedding strengths ``a^mu`` count these steps.  For linearly separable data ``w``
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
        The step counts ``a^mu`` (of the pocketed iterate if the run did not converge).
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
        "c": [_THRESHOLD],
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
        a = run.a if run.converged else run.pocket
        w = weights_from_embeddings(a, Xa, y_pm)
        self._store_weights(w, s)
        self.embeddings_ = a
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
