"""Committee and parity machines; the parity machine as a universal classifier (Biehl §4.2).

A machine has ``K`` hidden perceptrons ``sigma^k(xi) = sign(w^k . xi - theta^k)`` (rows
``w^k`` of ``W``, thresholds ``theta^k``; ``sign(0) = +1``) and a fixed output:

* committee machine (4.7): ``S = sign(sum_k sigma^k)``, a majority vote (``K`` odd);
* parity machine (4.8): ``S = prod_k sigma^k`` (Biehl's 4.8 omits the thresholds that
  4.15 includes, erratum E.5; here they are always present).

:func:`grow_parity_machine` builds a parity machine unit by unit (4.9): unit ``m + 1``
learns the labels ``S_m(xi^mu) y^mu`` (+1 where the machine with ``m`` units is right,
-1 where it is wrong), because ``S_{m+1} y = sigma^{m+1} (S_m y)``.  When the unit
trainer (the Pocket algorithm) does not lower the number of errors ``n_m`` (Biehl's
``Q_m``, which counts the *errors*: erratum E.6), a grandmother unit (4.13) is used:
it is ``-1`` on one misclassified example and ``+1`` on all others, so it corrects
exactly that error.
Hence ``n_m`` falls by at least one per unit and at most ``P`` units reach zero errors,
Biehl's theorem (4.15).

The grandmother construction needs inputs of equal norm (4.11).  Any set of distinct
inputs is brought onto a sphere without changing it otherwise by appending one
coordinate, ``xi -> (xi, sqrt(R^2 - |xi|^2))`` with ``R = max |xi|``
(:func:`lift_to_sphere`).
"""

from __future__ import annotations


import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.exceptions import ConvergenceWarning
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_is_fitted, validate_data

from ..linear import augment, pocket
import numbers

from ..validation import (ARRAY, COUNT, MATRIX, POSITIVE, Array, Interval, Options,
                          ParamValidationMixin, resolve_rng, validate_args, warn_user)

__all__ = [
    "hidden_states",
    "committee_output",
    "parity_output",
    "xor_parity_machine",
    "lift_to_sphere",
    "grandmother_unit",
    "grow_parity_machine",
    "ParityMachine",
]


# K units: weights W (K, N) (one unit: a vector), thresholds theta (K,), inputs X (P, N)
_UNITS = dict(W=ARRAY, theta=ARRAY, X=MATRIX)


def _units(W, theta, X):
    W = np.atleast_2d(np.asarray(W, dtype=float))
    theta = np.atleast_1d(np.asarray(theta, dtype=float))
    if W.shape[1] != X.shape[1] or theta.shape != (len(W),):
        raise ValueError(f"W {W.shape}, theta {theta.shape} and X {X.shape} do not fit: "
                         "need W (K, N), theta (K,), X (P, N)")
    return W, theta, X


@validate_args(**_UNITS)
def hidden_states(W: np.ndarray, theta: np.ndarray, X: np.ndarray) -> np.ndarray:
    """``sigma^k(xi^mu) = sign(w^k . xi^mu - theta^k)`` as a ``(P, K)`` array of +-1."""
    W, theta, X = _units(W, theta, X)
    return np.where(X @ W.T - theta >= 0, 1, -1)


@validate_args(**_UNITS)
def committee_output(W: np.ndarray, theta: np.ndarray, X: np.ndarray) -> np.ndarray:
    """Committee machine (4.7): the majority ``sign(sum_k sigma^k)``; ``K`` must be odd."""
    W, theta, X = _units(W, theta, X)
    if len(W) % 2 == 0:
        raise ValueError(f"a committee machine needs an odd number of units to avoid ties, "
                         f"got K={len(W)}")
    return np.where(hidden_states(W, theta, X).sum(axis=1) > 0, 1, -1)


@validate_args(**_UNITS)
def parity_output(W: np.ndarray, theta: np.ndarray, X: np.ndarray) -> np.ndarray:
    """Parity machine (4.8 with thresholds, 4.15): ``prod_k sigma^k``."""
    return np.prod(hidden_states(W, theta, X), axis=1)


def xor_parity_machine() -> tuple[np.ndarray, np.ndarray]:
    """A parity machine with ``K = 2`` that computes XOR on ``{0, 1}^2`` (labels as in
    :func:`lecture_pkg.datasets.xor`): ``sigma^1 = sign(1/2 - x_1)``,
    ``sigma^2 = sign(x_2 - 1/2)``."""
    return np.array([[-1.0, 0.0], [0.0, 1.0]]), np.array([-0.5, 0.5])


@validate_args(X=MATRIX, radius=[POSITIVE, None])
def lift_to_sphere(X: np.ndarray, radius: float | None = None) -> tuple[np.ndarray, float]:
    """Append ``sqrt(R^2 - |xi|^2)`` to every input so that all have norm ``R``.

    ``R`` is ``max |xi|`` unless given; inputs longer than ``R`` get the coordinate 0.
    Distinct inputs stay distinct.  Returns the lifted inputs and ``R``.
    """
    sq = np.einsum("ij,ij->i", X, X)
    R = float(np.sqrt(sq.max())) if radius is None else float(radius)
    if R == 0.0 and radius is None:
        R = 1.0
    return np.hstack([X, np.sqrt(np.maximum(R * R - sq, 0.0))[:, None]]), R


@validate_args(X=MATRIX, p=Interval(numbers.Integral, 0, None), delta=[POSITIVE, None])
def grandmother_unit(X: np.ndarray, p: int, delta: float | None = None) -> tuple[np.ndarray, float]:
    """The grandmother unit (4.13) for example ``p``: ``w = -xi^p``, ``theta = delta - Gamma``.

    Needs inputs of equal squared norm ``Gamma`` (4.11).  With
    ``0 < delta < Gamma - xi^p . xi^nu`` for every input ``xi^nu`` different from
    ``xi^p`` (4.12) the unit gives ``-1`` on ``xi^p`` (and on copies of it) and ``+1``
    on every other input (4.14).  ``delta`` defaults to half the smallest such gap.
    """
    if p >= len(X):
        raise ValueError(f"grandmother_unit: p must be the index of an example, 0 <= p < "
                         f"{len(X)}; got {p!r}")
    sq = np.einsum("ij,ij->i", X, X)
    Gamma = float(sq[p])
    if not np.allclose(sq, Gamma, rtol=1e-9, atol=1e-12):
        raise ValueError("the grandmother construction needs inputs of equal norm (4.11); "
                         "use lift_to_sphere first")
    gaps = Gamma - X @ X[p]
    others = ~np.all(X == X[p], axis=1)
    if not others.any():
        raise ValueError("all inputs equal xi^p: there is nothing to separate")
    smallest = float(gaps[others].min())
    if smallest <= 0:
        raise ValueError("xi^p is not separable from the other inputs "
                         "(equal norms but not distinct?)")
    if delta is None:
        delta = 0.5 * smallest
    elif not delta < smallest:
        raise ValueError(f"delta must lie in (0, {smallest:.6g}) by (4.12), got {delta}")
    return -X[p].copy(), float(delta) - Gamma


@validate_args(X=MATRIX, y=Array(1, labels=True, rows_of="X"), max_units=[COUNT, None],
               trainer=Options("pocket", "grandmother"), n_steps=COUNT,
               random_state="random_state")
def grow_parity_machine(X: np.ndarray, y: np.ndarray, *, max_units: int | None = None,
                        trainer: str = "pocket", n_steps: int = 2000,
                        random_state: np.random.Generator | int | None = None,
                        lift: bool = True) -> dict:
    """Grow a parity machine on ``(X, y)`` until it makes no training error, (4.9)–(4.15).

    Unit ``m + 1`` is trained on the relabelled set ``(xi^mu, S_m(xi^mu) y^mu)`` by the
    Pocket algorithm with a bias (``trainer="pocket"``, ``n_steps`` draws); if that does
    not lower the error count, or with ``trainer="grandmother"``, the grandmother unit
    of a misclassified example is used instead.  Inputs are lifted onto a sphere first
    (``lift=True``).  Stops at zero errors, at ``max_units`` (default ``P``), or when
    the remaining errors sit on inputs that also occur with the other label.

    Returns a dict with ``W`` (K, N'), ``theta`` (K,), ``errors`` (the error count
    ``n_m`` after every unit, starting with ``n_0`` of the empty machine, which outputs
    +1), ``radius`` (the lifting radius or None) and ``converged``.
    """
    if len(y) == 0:
        raise ValueError(f"need one label per example, got X {X.shape}, y {y.shape}")
    rng = resolve_rng(random_state)
    P = len(y)
    max_units = P if max_units is None else int(max_units)
    Z, R = lift_to_sphere(X) if lift else (X, None)
    _, group = np.unique(Z, axis=0, return_inverse=True)
    group = group.ravel()
    W, theta = [], []
    S = np.ones(P)                      # output of the machine so far (empty product)
    errors = [int(np.sum(S != y))]
    while errors[-1] > 0 and len(W) < max_units:
        t = S * y                       # +1: machine right, -1: wrong (the labels of ID_{m+1})
        unit = None
        if trainer == "pocket":
            run = pocket(augment(Z, -1.0), t, n_steps, random_state=rng)
            w, th = run.w[1:], run.w[0]            # clamped input -1:
                                                   # w~ . (-1, xi) = w . xi - theta
            if np.sum(np.where(Z @ w - th >= 0, 1, -1) != t) < errors[-1]:
                unit = (w, th)
        if unit is None:
            wrong = np.flatnonzero(t < 0)
            # a grandmother unit flips every copy of an input: useful only where most copies
            # are wrong
            gain = np.bincount(group, weights=-t, minlength=group.max() + 1)
            useful = wrong[gain[group[wrong]] > 0]
            if len(useful) == 0:
                break
            unit = grandmother_unit(Z, int(useful[0]))
        W.append(unit[0])
        theta.append(unit[1])
        S = S * np.where(Z @ unit[0] - unit[1] >= 0, 1, -1)
        errors.append(int(np.sum(S != y)))
    N = Z.shape[1]
    return {"W": np.array(W).reshape(-1, N), "theta": np.array(theta), "errors": np.array(errors),
            "radius": R, "converged": errors[-1] == 0}


class ParityMachine(ParamValidationMixin, ClassifierMixin, BaseEstimator):
    """A parity machine grown by :func:`grow_parity_machine`: a universal classifier (4.15).

    Parameters
    ----------
    max_units : int, optional
        Upper limit on the number of hidden units (default ``P``); a small limit is
        early stopping against overfitting.
    trainer : {"pocket", "grandmother"}, default "pocket"
        How each hidden unit is trained.
    n_steps : int, default 2000
        Pocket draws per unit.
    random_state : seed, Generator or RandomState
        The source of the pocket's random draws.

    Attributes
    ----------
    coef_ : array (K, N + 1)
        Weights of the hidden units on the lifted inputs.
    thresholds_ : array (K,)
        The thresholds of the hidden units.
    radius_ : float or None
        The lifting radius ``R``.
    errors_history_ : array of int
        Training errors after 0, 1, ..., K units.
    n_units_ : int
        The number ``K`` of hidden units.
    converged_ : bool
        Whether the machine classifies every training example correctly.

    References
    ----------
    .. [1] Biehl, M. (2019). *Supervised Learning -- An Introduction*. Machine Learning Reports
       01/2019, §4.2.1--4.2.2, eqs. (4.8)--(4.15). (bib key: biehl2019supervised)
    .. [2] Gallant, S. I. (1990). Perceptron-based learning algorithms. *IEEE Transactions on
       Neural Networks* 1(2), 179--191 (the Pocket algorithm that trains the units).
       (bib key: gallant1990perceptron)

    Examples
    --------
    >>> from lecture_pkg.datasets import xor
    >>> from lecture_pkg.networks import ParityMachine
    >>> X, y = xor()
    >>> clf = ParityMachine(random_state=0).fit(X, y)
    >>> clf.score(X, y)
    1.0
    """

    _parameter_constraints = {
        "max_units": [COUNT, None],
        "trainer": [Options("pocket", "grandmother")],
        "n_steps": [COUNT],
        "random_state": ["random_state"],
    }

    def __init__(self, max_units: int | None = None, trainer: str = "pocket", n_steps: int = 2000,
                 random_state: np.random.Generator | int | None = None) -> None:
        self.max_units = max_units
        self.trainer = trainer
        self.n_steps = n_steps
        self.random_state = random_state

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.classifier_tags.multi_class = False
        return tags

    def fit(self, X: np.ndarray, y: np.ndarray) -> ParityMachine:
        """Grow the machine on ``X`` (n_samples, n_features) with two classes in ``y``."""
        X, y = validate_data(self, X, y)
        check_classification_targets(y)
        self.classes_ = np.unique(y)
        if len(self.classes_) != 2:
            raise ValueError(f"Only binary classification is supported: a parity machine has one "
                             f"+-1 output, and y has {len(self.classes_)} class(es)")
        y_pm = np.where(y == self.classes_[1], 1.0, -1.0)
        grown = grow_parity_machine(X, y_pm, max_units=self.max_units, trainer=self.trainer,
                                    n_steps=self.n_steps, random_state=self.random_state)
        self.coef_, self.thresholds_ = grown["W"], grown["theta"]
        self.radius_ = grown["radius"]
        self.errors_history_ = grown["errors"]
        self.n_units_ = len(self.thresholds_)
        self.converged_ = grown["converged"]
        if not self.converged_:
            warn_user(
                f"the parity machine stopped with {self.errors_history_[-1]} training errors after "
                f"{self.n_units_} units (unit limit reached, or identical inputs with both labels)",
                ConvergenceWarning)
        return self

    def decision_function(self, X: np.ndarray) -> np.ndarray:
        """The machine's output ``prod_k sigma^k`` (+-1) on the lifted inputs."""
        check_is_fitted(self)
        X = validate_data(self, X, reset=False)
        Z, _ = lift_to_sphere(X, self.radius_)
        if self.n_units_ == 0:
            return np.ones(len(X))
        return parity_output(self.coef_, self.thresholds_, Z).astype(float)

    def predict(self, X: np.ndarray) -> np.ndarray:
        """Predicted labels (``classes_[1]`` for output +1)."""
        check_is_fitted(self)
        return self.classes_[(self.decision_function(X) > 0).astype(int)]
