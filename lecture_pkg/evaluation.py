"""Evaluation and validation: bias and variance, cross-validation, ROC and confusion matrices.

Biehl's lecture notes, chapter 6.

* Bias and variance (sec. 6.1, eqs. 6.1--6.7):
  :func:`polynomial_design`, :func:`fit_polynomial`, :func:`polynomial_predict` (the
  least-squares polynomial fits of Fig. 6.1, via :mod:`lecture_pkg.regression`);
  :func:`polynomial_smoother` (the matrix ``L`` with ``f_H(x_eval) = L y`` of a linear
  estimator); :func:`bias_variance_linear` (closed form for any linear estimator) and
  :func:`bias_variance_monte_carlo` (average over simulated data sets; vectorised over the
  sets when the estimator is linear, a loop for any other estimator).
* Validation procedures (sec. 6.2): index generators that are also scikit-learn CV
  splitters (``split``/``get_n_splits``, so ``cross_val_score(..., cv=NFold(10))`` works):
  :class:`NFold` (optionally stratified), :class:`LeaveOneOut`, :class:`RepeatedNFold`,
  :class:`MonteCarloSplits`, :class:`ClasswiseLeaveOneOut` (one example of each class per
  validation set) and :func:`leave_p_out_splits` / :func:`leave_p_out_count`;
  :func:`cross_validation_scores`, :func:`select_by_cv` and :func:`nested_cross_validation`
  (model selection inside the training folds only, with the index bookkeeping that proves it).
* Performance measures (sec. 6.3): :func:`threshold_predict` (eq. 6.9),
  :func:`confusion_counts` and :func:`rates` (eq. 6.11), :func:`roc_curve`,
  :func:`auc_trapezoid`, :func:`auc_pairs` (the probability of a correctly ordered pair),
  :func:`confusion_matrix`, :func:`per_class_rates`, :func:`balanced_accuracy`,
  :func:`multiclass_summary` and :func:`most_confused` (sec. 6.3.3, Fig. 6.4);
  :data:`FIG_6_4_CONFUSION` holds the published 5-class matrix.
* Interpretable systems (sec. 6.4): :func:`add_spurious_feature`, a "tank legend" feature
  that predicts the label in one data set and not in another.

Conventions: class ``+1`` is the class "to be detected"; a threshold ``Theta`` applied to a
discriminant ``g`` predicts ``+1`` where ``g >= Theta`` (scikit-learn's convention, so the
ROC points coincide with ``sklearn.metrics.roc_curve``).
"""

from __future__ import annotations

import itertools
import math
import numbers
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import NamedTuple

import numpy as np

from . import regression
from ._ties import first_argmax
from .validation import resolve_rng

__all__ = [
    # bias and variance
    "polynomial_design",
    "fit_polynomial",
    "polynomial_predict",
    "polynomial_smoother",
    "BiasVariance",
    "bias_variance_linear",
    "bias_variance_monte_carlo",
    # validation
    "NFold",
    "LeaveOneOut",
    "RepeatedNFold",
    "MonteCarloSplits",
    "ClasswiseLeaveOneOut",
    "leave_p_out_splits",
    "leave_p_out_count",
    "check_partition",
    "cross_validation_scores",
    "select_by_cv",
    "NestedCVResult",
    "nested_cross_validation",
    # performance measures
    "threshold_predict",
    "ConfusionCounts",
    "confusion_counts",
    "rates",
    "roc_curve",
    "auc_trapezoid",
    "auc_pairs",
    "confusion_matrix",
    "per_class_rates",
    "balanced_accuracy",
    "multiclass_summary",
    "most_confused",
    "FIG_6_4_CONFUSION",
    # interpretability
    "add_spurious_feature",
]


# ==================================================================== small checks

def _check_int(name: str, value, minimum: int) -> int:
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Integral):
        raise ValueError(f"{name} must be an integer, got {value!r}")
    if value < minimum:
        raise ValueError(f"{name} must be at least {minimum}, got {value}")
    return int(value)


def _check_finite_1d(values, name: str) -> np.ndarray:
    values = np.asarray(values, dtype=float)
    if values.ndim != 1:
        raise ValueError(f"{name} must be a 1-d array, got shape {values.shape}")
    if np.isnan(values).any():
        raise ValueError(f"{name} contain NaN ({int(np.isnan(values).sum())} of {values.size} values)")
    return values


def _check_x(x, name: str = "x") -> np.ndarray:
    x = np.asarray(x, dtype=float)
    if x.ndim != 1:
        raise ValueError(f"{name} must be a 1-d array of inputs, got shape {x.shape}")
    if not np.all(np.isfinite(x)):
        raise ValueError(f"{name} contains NaN or infinite values")
    return x


# ==================================================================== bias and variance

def polynomial_design(x, degree: int) -> np.ndarray:
    """The design matrix ``V[mu, j] = (x^mu)^j``, ``j = 0..K``, of the model (6.2).

    ``f_K(x) = sum_{j=0}^K a_j x^j`` is linear in the coefficients ``a``, so fitting it by
    least squares (6.3) is linear regression with the features ``1, x, ..., x^K``.
    """
    x = _check_x(x)
    degree = _check_int("degree", degree, 0)
    return x[:, None] ** np.arange(degree + 1)[None, :]


def fit_polynomial(x, y, degree: int, *, gamma: float = 0.0) -> np.ndarray:
    """Coefficients ``a_0..a_K`` minimising the SSE (6.3) (plus ``gamma/2 |a|^2`` if ``gamma > 0``).

    Uses :func:`lecture_pkg.regression.least_squares` (``gamma = 0``; the minimum-norm
    solution when ``K + 1 > P``) or :func:`lecture_pkg.regression.ridge`.
    """
    V = polynomial_design(x, degree)
    y = _check_finite_1d(y, "targets y")
    if len(y) != len(V):
        raise ValueError(f"x has {len(V)} points but y has {len(y)} targets")
    if gamma == 0:
        return regression.least_squares(V, y)
    return regression.ridge(V, y, gamma)


def polynomial_predict(coef, x) -> np.ndarray:
    """``f_K(x) = sum_j a_j x^j`` (6.2) for coefficients in increasing order."""
    coef = np.asarray(coef, dtype=float)
    if coef.ndim != 1 or coef.size == 0:
        raise ValueError(f"coef must be a non-empty 1-d array, got shape {coef.shape}")
    return polynomial_design(x, coef.size - 1) @ coef


def polynomial_smoother(x_train, x_eval, degree: int, *, gamma: float = 0.0) -> np.ndarray:
    """The matrix ``L`` (len(x_eval), P) with ``f_H(x_eval) = L y`` for the polynomial fit.

    A least-squares (or ridge) fit is linear in the targets: fitting the unit vectors
    ``e_mu`` gives the columns of ``L``.  Built from :func:`fit_polynomial`, so it is the
    very estimator of Fig. 6.1; with ``L`` the fits of many data sets are one matrix
    product (:func:`bias_variance_monte_carlo`).
    """
    x_train, x_eval = _check_x(x_train, "x_train"), _check_x(x_eval, "x_eval")
    P = len(x_train)
    coefs = np.column_stack([fit_polynomial(x_train, np.eye(P)[mu], degree, gamma=gamma)
                             for mu in range(P)])                      # (K+1, P)
    return polynomial_design(x_eval, degree) @ coefs


@dataclass
class BiasVariance:
    """Pointwise terms of the decomposition (6.7) at the evaluation points.

    ``mse = <(f_H - f)^2>`` over data sets, ``bias2 = (f - <f_H>)^2``,
    ``variance = <(f_H - <f_H>)^2>``; ``mean_prediction = <f_H>``.  Averages over ``x``
    (the integrated error of sec. 6.1.1) are the ``.mean()`` of each array.
    """

    bias2: np.ndarray
    variance: np.ndarray
    mse: np.ndarray
    mean_prediction: np.ndarray
    predictions: np.ndarray | None = field(default=None, repr=False)


def _target_values(target, x) -> np.ndarray:
    values = np.asarray(target(x) if callable(target) else target, dtype=float)
    if values.shape != (len(x),):
        raise ValueError(f"the target gives shape {values.shape} on {len(x)} points")
    return values


def _check_noise(noise) -> float:
    if not (isinstance(noise, numbers.Real) and np.isfinite(noise) and noise >= 0):
        raise ValueError(f"noise must be a number >= 0, got {noise!r}")
    return float(noise)


def bias_variance_linear(smoother, target, x_train, x_eval, noise: float) -> BiasVariance:
    """Closed-form bias and variance (6.7) of a linear estimator ``f_H(x_eval) = L y``.

    With ``y = f(x_train) + r``, ``<r r^T> = rho^2 I`` (6.1):
    ``<f_H> = L f(x_train)`` and ``variance = rho^2 sum_mu L[:, mu]^2``; the expected
    squared error is their sum plus nothing else (the noise of test labels is excluded,
    as in the notes).

    Parameters
    ----------
    smoother : array (len(x_eval), P)
        E.g. :func:`polynomial_smoother`.
    target : callable or array
        ``f``; a callable is evaluated at ``x_train`` and ``x_eval``.  An array is
        accepted only if ``x_train`` and ``x_eval`` are the same points.
    noise : float
        The standard deviation ``rho`` of the label noise.
    """
    x_train, x_eval = _check_x(x_train, "x_train"), _check_x(x_eval, "x_eval")
    noise = _check_noise(noise)
    L = np.asarray(smoother, dtype=float)
    if L.shape != (len(x_eval), len(x_train)):
        raise ValueError(f"smoother has shape {L.shape}, expected {(len(x_eval), len(x_train))}")
    mean = L @ _target_values(target, x_train)
    bias2 = (_target_values(target, x_eval) - mean) ** 2
    variance = noise**2 * np.sum(L**2, axis=1)
    return BiasVariance(bias2, variance, bias2 + variance, mean)


def bias_variance_monte_carlo(estimator, target, x_train, x_eval, noise: float, n_sets: int,
                              rng: np.random.Generator, *, keep_predictions: bool = False
                              ) -> BiasVariance:
    """Bias and variance (6.4)--(6.7) by averaging over ``n_sets`` simulated data sets.

    Each data set has the inputs ``x_train`` and labels ``y = f(x) + r`` with independent
    ``r ~ N(0, rho)`` (6.1).  The averages use ``1/n_sets`` (no Bessel correction), so
    ``bias2 + variance == mse`` holds exactly, as the algebra of (6.5)--(6.7) does.

    Parameters
    ----------
    estimator :
        * an array ``L`` (len(x_eval), P): a linear estimator; all data sets are fitted by
          one product ``Y @ L.T`` (vectorised);
        * a callable ``fit_predict(x_train, y, x_eval) -> predictions``;
        * a scikit-learn regressor (``fit``/``predict``), cloned and trained on
          ``x_train[:, None]`` for every data set.
    keep_predictions : bool
        Store all predictions, shape (n_sets, len(x_eval)), e.g. to plot the fits.
    """
    x_train, x_eval = _check_x(x_train, "x_train"), _check_x(x_eval, "x_eval")
    noise = _check_noise(noise)
    n_sets = _check_int("n_sets", n_sets, 1)
    f_train, f_eval = _target_values(target, x_train), _target_values(target, x_eval)
    Y = f_train[None, :] + noise * rng.standard_normal((n_sets, len(x_train)))
    if isinstance(estimator, np.ndarray) or (
            isinstance(estimator, (list, tuple)) and np.ndim(estimator) == 2):
        L = np.asarray(estimator, dtype=float)
        if L.shape != (len(x_eval), len(x_train)):
            raise ValueError(f"smoother has shape {L.shape}, expected {(len(x_eval), len(x_train))}")
        F = Y @ L.T
    elif hasattr(estimator, "fit") and hasattr(estimator, "predict"):
        from sklearn.base import clone
        F = np.array([clone(estimator).fit(x_train[:, None], y).predict(x_eval[:, None]) for y in Y])
    elif callable(estimator):
        F = np.array([np.asarray(estimator(x_train, y, x_eval), dtype=float) for y in Y])
    else:
        raise TypeError("estimator must be a smoother matrix, a fit_predict callable or a "
                        f"scikit-learn regressor, got {type(estimator).__name__}")
    if F.shape != (n_sets, len(x_eval)):
        raise ValueError(f"the estimator returned predictions of shape {F.shape[1:]}, "
                         f"expected ({len(x_eval)},)")
    mean = F.mean(axis=0)
    bias2 = (f_eval - mean) ** 2
    variance = np.mean((F - mean) ** 2, axis=0)
    mse = np.mean((F - f_eval) ** 2, axis=0)
    return BiasVariance(bias2, variance, mse, mean, F if keep_predictions else None)


# ==================================================================== validation procedures

def _n_samples(X) -> int:
    if isinstance(X, numbers.Integral) and not isinstance(X, (bool, np.bool_)):
        return _check_int("the number of examples", X, 1)
    try:
        return len(X)
    except TypeError:
        raise TypeError(f"X must be an array of examples or their number, got {type(X).__name__}") from None


def _labels(y, n: int) -> np.ndarray:
    if y is None:
        raise ValueError("this splitter needs the class labels y")
    y = np.asarray(y)
    if y.shape != (n,):
        raise ValueError(f"y has shape {y.shape}, expected ({n},)")
    return y


class _Splitter:
    """Shared behaviour: a scikit-learn style CV splitter (``split``, ``get_n_splits``).

    ``X`` may be the data or just their number ``P``; ``split`` yields integer arrays
    ``(train, test)`` (here "test" is the validation part ``ID_i^val`` of the notes).
    """

    def split(self, X, y=None, groups=None) -> Iterator[tuple[np.ndarray, np.ndarray]]:
        raise NotImplementedError

    def get_n_splits(self, X=None, y=None, groups=None) -> int:
        raise NotImplementedError

    def __repr__(self) -> str:
        params = ", ".join(f"{k}={v!r}" for k, v in vars(self).items())
        return f"{type(self).__name__}({params})"


def _fold_sizes(P: int, n: int) -> np.ndarray:
    sizes = np.full(n, P // n)
    sizes[: P % n] += 1           # as scikit-learn's KFold: the first P mod n folds are larger
    return sizes


class NFold(_Splitter):
    """n-fold cross-validation (Biehl sec. 6.2.1): ``n`` disjoint folds of about ``P/n`` examples.

    Split ``i`` trains on ``ID \\ ID_i`` and validates on ``ID_i``.  Fold sizes differ by at
    most one (the first ``P mod n`` folds are larger).  Without shuffling the folds are
    consecutive blocks, exactly those of ``sklearn.model_selection.KFold``.

    Parameters
    ----------
    n_splits : int, default 10
        The canonical choice of the notes.
    shuffle : bool, default False
        Permute the examples before cutting the folds.
    random_state : int, Generator or None
        Seed of the permutation (each call of ``split`` restarts from it when it is an int).
    stratified : bool, default False
        Deal the examples of each class round-robin over the folds so that every fold has
        the class proportions of the whole set up to one example (needs ``y``).
    """

    def __init__(self, n_splits: int = 10, *, shuffle: bool = False, random_state=None,
                 stratified: bool = False):
        self.n_splits = _check_int("n_splits", n_splits, 2)
        self.shuffle = bool(shuffle)
        self.random_state = random_state
        self.stratified = bool(stratified)

    def get_n_splits(self, X=None, y=None, groups=None) -> int:
        return self.n_splits

    def folds(self, X, y=None) -> list[np.ndarray]:
        """The validation folds ``ID_1..ID_n`` as index arrays."""
        P = _n_samples(X)
        if self.n_splits > P:
            raise ValueError(f"cannot split {P} examples into n_splits={self.n_splits} folds: "
                             "each fold needs at least one example")
        order = np.arange(P)
        if self.shuffle:
            order = resolve_rng(self.random_state).permutation(P)
        if not self.stratified:
            return np.split(order, np.cumsum(_fold_sizes(P, self.n_splits))[:-1])
        y = _labels(y, P)[order]
        assignment = np.empty(P, dtype=int)
        start = 0
        for label in np.unique(y):          # deal each class in turn, continuing the cycle
            members = np.flatnonzero(y == label)
            assignment[members] = (start + np.arange(len(members))) % self.n_splits
            start += len(members)
        return [np.sort(order[assignment == i]) for i in range(self.n_splits)]

    def split(self, X, y=None, groups=None):
        P = _n_samples(X)
        for fold in self.folds(P, y):
            mask = np.ones(P, dtype=bool)
            mask[fold] = False
            yield np.flatnonzero(mask), np.sort(fold)


class LeaveOneOut(_Splitter):
    """Leave-one-out, ``n = P`` (sec. 6.2.1): ``P`` splits, each validating one example."""

    def get_n_splits(self, X=None, y=None, groups=None) -> int:
        if X is None:
            raise ValueError("leave-one-out needs X (or the number of examples) to count its splits")
        P = _n_samples(X)
        if P < 2:
            raise ValueError(f"leave-one-out needs at least 2 examples, got {P}")
        return P

    def split(self, X, y=None, groups=None):
        P = _n_samples(X)
        self.get_n_splits(P)
        idx = np.arange(P)
        for mu in range(P):
            yield np.delete(idx, mu), np.array([mu])

    def __repr__(self) -> str:
        return "LeaveOneOut()"


class RepeatedNFold(_Splitter):
    """Repeated n-fold cross-validation with a fresh random partition in each repetition."""

    def __init__(self, n_splits: int = 10, n_repeats: int = 10, *, random_state=None,
                 stratified: bool = False):
        self.n_splits = _check_int("n_splits", n_splits, 2)
        self.n_repeats = _check_int("n_repeats", n_repeats, 1)
        self.random_state = random_state
        self.stratified = bool(stratified)

    def get_n_splits(self, X=None, y=None, groups=None) -> int:
        return self.n_splits * self.n_repeats

    def split(self, X, y=None, groups=None):
        rng = resolve_rng(self.random_state)
        for _ in range(self.n_repeats):
            inner = NFold(self.n_splits, shuffle=True, random_state=rng, stratified=self.stratified)
            yield from inner.split(X, y)


class MonteCarloSplits(_Splitter):
    """Monte Carlo validation: independent random splits into ``P - p`` and ``p`` examples.

    Parameters
    ----------
    n_splits : int
    test_size : int or float
        ``p`` (an int) or the fraction ``p/P`` (a float in (0, 1)).
    """

    def __init__(self, n_splits: int = 10, test_size=0.2, *, random_state=None):
        self.n_splits = _check_int("n_splits", n_splits, 1)
        if isinstance(test_size, numbers.Integral) and not isinstance(test_size, bool):
            _check_int("test_size", test_size, 1)
        elif not (isinstance(test_size, numbers.Real) and 0 < test_size < 1):
            raise ValueError(f"test_size must be an integer >= 1 or a fraction in (0, 1), got {test_size!r}")
        self.test_size = test_size
        self.random_state = random_state

    def get_n_splits(self, X=None, y=None, groups=None) -> int:
        return self.n_splits

    def _p(self, P: int) -> int:
        p = self.test_size if isinstance(self.test_size, numbers.Integral) else \
            int(math.ceil(self.test_size * P))
        if not 1 <= p < P:
            raise ValueError(f"test_size={self.test_size!r} leaves no training examples out of {P}")
        return p

    def split(self, X, y=None, groups=None):
        P = _n_samples(X)
        p = self._p(P)
        rng = resolve_rng(self.random_state)
        for _ in range(self.n_splits):
            order = rng.permutation(P)
            yield np.sort(order[p:]), np.sort(order[:p])


class ClasswiseLeaveOneOut(_Splitter):
    """Leave one example *of each class* out (sec. 6.2.1, the fix for the LOO bias).

    Every validation set holds exactly one example of every class, so the training set
    keeps the class proportions (up to one example per class).  The number of splits is
    the size of the largest class: in split ``i`` class ``c`` contributes its
    ``(i mod P_c)``-th example (after an optional shuffle within the class), so every
    example is validated at least once.
    """

    def __init__(self, *, shuffle: bool = False, random_state=None):
        self.shuffle = bool(shuffle)
        self.random_state = random_state

    def _members(self, y) -> list[np.ndarray]:
        rng = resolve_rng(self.random_state) if self.shuffle else None
        out = []
        for label in np.unique(y):
            m = np.flatnonzero(y == label)
            if len(m) < 2:
                raise ValueError(f"class {label!r} has a single example: leaving it out leaves "
                                 "no training example of that class")
            out.append(rng.permutation(m) if rng is not None else m)
        if len(out) < 2:
            raise ValueError("class-wise leave-one-out needs at least two classes in y")
        return out

    def get_n_splits(self, X=None, y=None, groups=None) -> int:
        if y is None:
            raise ValueError("class-wise leave-one-out needs y to count its splits")
        return max(len(m) for m in self._members(np.asarray(y)))

    def split(self, X, y=None, groups=None):
        P = _n_samples(X)
        y = _labels(y, P)
        members = self._members(y)
        for i in range(max(len(m) for m in members)):
            test = np.sort([m[i % len(m)] for m in members])
            mask = np.ones(P, dtype=bool)
            mask[test] = False
            yield np.flatnonzero(mask), test


def leave_p_out_count(P: int, p: int) -> int:
    """Number of leave-p-out splits, ``binom(P, p)``: it grows quickly."""
    P, p = _check_int("P", P, 1), _check_int("p", p, 1)
    if p >= P:
        raise ValueError(f"p={p} must be smaller than the number of examples P={P}")
    return math.comb(P, p)


def leave_p_out_splits(P: int, p: int) -> Iterator[tuple[np.ndarray, np.ndarray]]:
    """All ``binom(P, p)`` splits into ``P - p`` training and ``p`` validation examples."""
    leave_p_out_count(P, p)
    idx = np.arange(P)
    for test in itertools.combinations(range(P), p):
        test = np.array(test)
        yield np.setdiff1d(idx, test), test


def check_partition(splits, P: int, *, partition: bool = True) -> None:
    """Check a list of ``(train, test)`` splits of ``range(P)``; raise ``ValueError`` if wrong.

    Always: train and test are disjoint and together are all ``P`` indices.  With
    ``partition=True`` also: the test sets are pairwise disjoint and cover ``range(P)``
    (the n-fold property).
    """
    seen = []
    for k, (train, test) in enumerate(splits):
        train, test = np.asarray(train), np.asarray(test)
        if np.intersect1d(train, test).size:
            raise ValueError(f"split {k}: training and validation sets overlap")
        if not np.array_equal(np.sort(np.r_[train, test]), np.arange(P)):
            raise ValueError(f"split {k}: training and validation sets are not a partition of range({P})")
        seen.append(test)
    if partition:
        all_test = np.concatenate(seen) if seen else np.array([], dtype=int)
        if len(all_test) != P or not np.array_equal(np.sort(all_test), np.arange(P)):
            raise ValueError("the validation sets do not partition the data")


def _score(estimator, X, y, scoring) -> float:
    if scoring is None:
        return float(estimator.score(X, y))
    if callable(scoring):
        return float(scoring(estimator, X, y))
    from sklearn.metrics import get_scorer
    return float(get_scorer(scoring)(estimator, X, y))


def _cv_splits(cv, X, y):
    if isinstance(cv, numbers.Integral) and not isinstance(cv, bool):
        cv = NFold(int(cv))
    if hasattr(cv, "split"):
        return list(cv.split(X, y))
    return [(np.asarray(a), np.asarray(b)) for a, b in cv]


def cross_validation_scores(estimator, X, y, cv=10, *, scoring=None,
                            indices=None) -> np.ndarray:
    """Train a clone of ``estimator`` on each training part and score it on the validation part.

    ``cv`` is a splitter (any object with ``split``), an int (:class:`NFold`) or a list of
    ``(train, test)`` pairs.  ``scoring`` is ``None`` (the estimator's ``score``), a
    scikit-learn scorer name, or a callable ``scorer(estimator, X, y)``.  ``indices``
    restricts everything to a subset of the rows (the splitter then works on positions
    within that subset; used by nested cross-validation).
    """
    from sklearn.base import clone

    X, y = np.asarray(X), np.asarray(y)
    rows = np.arange(len(y)) if indices is None else np.asarray(indices)
    scores = []
    for train, test in _cv_splits(cv, X[rows], y[rows]):
        model = clone(estimator).fit(X[rows[train]], y[rows[train]])
        scores.append(_score(model, X[rows[test]], y[rows[test]], scoring))
    return np.array(scores)


def _param_list(param_grid) -> list[dict]:
    from sklearn.model_selection import ParameterGrid

    if isinstance(param_grid, Mapping) or (isinstance(param_grid, Sequence)
                                           and all(isinstance(g, Mapping) for g in param_grid)):
        params = list(ParameterGrid(param_grid))
    else:
        raise TypeError("param_grid must be a dict of lists (or a list of such dicts)")
    if not params:
        raise ValueError("param_grid has no candidates")
    return params


def select_by_cv(estimator, param_grid, X, y, cv=10, *, scoring=None,
                 indices=None) -> tuple[dict, np.ndarray, list[dict]]:
    """Model or parameter selection by cross-validation (sec. 6.2.2).

    Returns the best parameters (highest mean validation score; ties go to the first
    candidate), the mean score of every candidate and the list of candidates.  The best
    mean score is an *optimistic* estimate of the chosen model's performance: the
    selection has looked at the validation folds.
    """
    candidates = _param_list(param_grid)
    means = _candidate_means(estimator, candidates, X, y, cv, scoring, indices)
    return candidates[first_argmax(means)], means, candidates


def _candidate_means(estimator, candidates, X, y, cv, scoring, indices) -> np.ndarray:
    return np.array([cross_validation_scores(_with_params(estimator, p), X, y, cv,
                                             scoring=scoring, indices=indices).mean()
                     for p in candidates])


def _with_params(estimator, params: dict):
    from sklearn.base import clone
    return clone(estimator).set_params(**params)


@dataclass
class NestedCVResult:
    """Outcome of :func:`nested_cross_validation`, with its index bookkeeping.

    Attributes
    ----------
    outer_scores : array (n_outer,)
        Score of the re-trained chosen model on each outer test fold: the estimate of
        the performance of the whole procedure (selection included).
    chosen : list of dict
        Parameters selected in each outer split.
    inner_means : array (n_outer, n_candidates)
        Mean inner validation score of every candidate in every outer split.
    candidates : list of dict
    outer_splits : list of (train, test)
        Global indices.
    inner_indices : list of arrays
        Every global index the inner selection used (for training or validation) in each
        outer split.
    """

    outer_scores: np.ndarray
    chosen: list
    inner_means: np.ndarray
    candidates: list
    outer_splits: list
    inner_indices: list

    @property
    def best_inner_scores(self) -> np.ndarray:
        """The (optimistic) best inner mean score in each outer split."""
        return self.inner_means.max(axis=1)

    def leaks(self) -> int:
        """Number of outer test indices the inner selection touched (0 when nothing leaks)."""
        return int(sum(np.intersect1d(used, test).size
                       for used, (_, test) in zip(self.inner_indices, self.outer_splits)))


def nested_cross_validation(estimator, param_grid, X, y, outer_cv=5, inner_cv=5, *,
                            scoring=None) -> NestedCVResult:
    """Nested cross-validation: select parameters inside each outer training part (sec. 6.2.2).

    For each outer split, :func:`select_by_cv` runs ``inner_cv`` on the outer training
    indices only; the chosen candidate is re-trained on the whole outer training part and
    scored on the outer test fold, which therefore plays no part in the selection.
    """
    X, y = np.asarray(X), np.asarray(y)
    candidates = _param_list(param_grid)
    outer = _cv_splits(outer_cv, X, y)
    scores, chosen, means, used = [], [], [], []
    for train, test in outer:
        inner = _cv_splits(inner_cv, X[train], y[train])
        used.append(np.unique(np.concatenate([train[np.r_[a, b]] for a, b in inner])))
        m = _candidate_means(estimator, candidates, X, y, inner, scoring, train)
        best = candidates[first_argmax(m)]
        model = _with_params(estimator, best).fit(X[train], y[train])
        scores.append(_score(model, X[test], y[test], scoring))
        chosen.append(best)
        means.append(m)
    return NestedCVResult(np.array(scores), chosen, np.array(means), candidates, outer, used)


# ==================================================================== ROC and AUC

def threshold_predict(scores, theta: float = 0.0) -> np.ndarray:
    """The biased classifier (6.9): ``+1`` where ``g(xi) >= Theta``, else ``-1``.

    ``Theta -> +infinity`` gives all ``-1`` (the lower-left corner of the ROC),
    ``Theta -> -infinity`` all ``+1`` (upper right); ``Theta = 0`` is the unmodified (6.8).
    """
    scores = _check_finite_1d(scores, "scores")
    if np.isnan(theta):
        raise ValueError("the threshold Theta is NaN")
    return np.where(scores >= theta, 1, -1)


class ConfusionCounts(NamedTuple):
    """The four counts of a two-class working point (sec. 6.3.1)."""

    TP: int
    FP: int
    TN: int
    FN: int


def _binary_truth(y_true, pos_label) -> np.ndarray:
    y_true = np.asarray(y_true)
    if y_true.ndim != 1:
        raise ValueError(f"y_true must be a 1-d array, got shape {y_true.shape}")
    return y_true == pos_label


def confusion_counts(y_true, y_pred, *, pos_label=1) -> ConfusionCounts:
    """``TP, FP, TN, FN`` with ``pos_label`` the class to be detected.

    A false positive (false alarm) is a negative example predicted positive; a false
    negative is a missed positive.
    """
    t = _binary_truth(y_true, pos_label)
    y_pred = np.asarray(y_pred)
    if y_pred.shape != t.shape:
        raise ValueError(f"y_true has {t.size} labels but y_pred has shape {y_pred.shape}")
    p = y_pred == pos_label
    return ConfusionCounts(int(np.sum(t & p)), int(np.sum(~t & p)), int(np.sum(~t & ~p)),
                           int(np.sum(t & ~p)))


def rates(counts: ConfusionCounts | Sequence[int]) -> dict[str, float]:
    """The rates (6.11): ``fpr = FP/(FP+TN)``, ``tpr = TP/(FN+TP)``, ``fnr``, ``tnr``.

    ``tpr`` is the sensitivity and ``tnr`` the specificity; ``tpr + fnr = tnr + fpr = 1``.
    The result also holds ``bac = (tpr + tnr)/2`` (balanced accuracy) and ``accuracy``.
    """
    TP, FP, TN, FN = (int(c) for c in counts)
    if min(TP, FP, TN, FN) < 0:
        raise ValueError("counts must be non-negative")
    if TP + FN == 0:
        raise ValueError("no positive examples: tpr and fnr are undefined")
    if FP + TN == 0:
        raise ValueError("no negative examples: fpr and tnr are undefined")
    tpr, tnr = TP / (TP + FN), TN / (FP + TN)
    return {"tpr": tpr, "fpr": FP / (FP + TN), "tnr": tnr, "fnr": FN / (FN + TP),
            "bac": 0.5 * (tpr + tnr), "accuracy": (TP + TN) / (TP + FP + TN + FN)}


def _check_roc_input(y_true, scores, pos_label) -> tuple[np.ndarray, np.ndarray]:
    t = _binary_truth(y_true, pos_label)
    scores = _check_finite_1d(scores, "scores")
    if np.isinf(scores).any():
        raise ValueError("scores contain infinite values; the ROC needs finite discriminant values")
    if scores.shape != t.shape:
        raise ValueError(f"y_true has {t.size} labels but there are {scores.size} scores")
    if t.all() or not t.any():
        present = np.unique(np.asarray(y_true))
        raise ValueError(f"ROC needs examples of both classes, but y_true contains only "
                         f"{present.tolist()} (pos_label={pos_label!r})")
    return t, scores


def roc_curve(y_true, scores, *, pos_label=1) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The receiver operating characteristic: ``(fpr, tpr)`` for every threshold (sec. 6.3.1).

    Sweeps ``Theta`` of (6.9) from ``+infinity`` (everything negative: the point (0, 0))
    down through every distinct score (in decreasing order), the last giving (1, 1).
    The same points as ``sklearn.metrics.roc_curve(..., drop_intermediate=False)``.

    Returns
    -------
    fpr, tpr : arrays (n_thresholds,)
        Non-decreasing, from (0, 0) to (1, 1).
    thresholds : array (n_thresholds,)
        ``inf`` followed by the distinct scores; ``threshold_predict(scores, thresholds[k])``
        gives the working point ``(fpr[k], tpr[k])``.
    """
    t, scores = _check_roc_input(y_true, scores, pos_label)
    order = np.argsort(-scores, kind="mergesort")
    s, tt = scores[order], t[order]
    last = np.r_[np.flatnonzero(np.diff(s) != 0), len(s) - 1]   # end of each block of ties
    tp = np.cumsum(tt)[last]
    fp = (last + 1) - tp
    n_pos, n_neg = int(t.sum()), int((~t).sum())
    return (np.r_[0.0, fp / n_neg], np.r_[0.0, tp / n_pos], np.r_[np.inf, s[last]])


def auc_trapezoid(fpr, tpr) -> float:
    """Area under the ROC, ``int_0^1 tpr d(fpr)``, by the trapezoid rule (sec. 6.3.2)."""
    fpr, tpr = _check_finite_1d(fpr, "fpr"), _check_finite_1d(tpr, "tpr")
    if fpr.shape != tpr.shape or fpr.size < 2:
        raise ValueError("fpr and tpr must have the same length, at least 2")
    if np.any(np.diff(fpr) < 0):
        raise ValueError("fpr must be non-decreasing (pass the points in ROC order)")
    return float(np.sum(np.diff(fpr) * (tpr[1:] + tpr[:-1]) / 2))


def auc_pairs(y_true, scores, *, pos_label=1) -> float:
    """AUC as the fraction of correctly ordered (positive, negative) pairs (sec. 6.3.2).

    ``P(g(xi_+) > g(xi_-)) + 1/2 P(g(xi_+) = g(xi_-))`` over all ``n_+ n_-`` pairs: the
    Mann--Whitney statistic divided by ``n_+ n_-``.  Counted exactly with a sort of the
    negative scores (``n log n``) rather than a double loop.
    """
    t, scores = _check_roc_input(y_true, scores, pos_label)
    neg = np.sort(scores[~t])
    pos = scores[t]
    below = np.searchsorted(neg, pos, side="left")
    ties = np.searchsorted(neg, pos, side="right") - below
    pairs = int(below.sum()) + 0.5 * int(ties.sum())
    return float(pairs / (pos.size * neg.size))


# ==================================================================== confusion matrices

def confusion_matrix(y_true, y_pred, *, labels=None, normalize: str | None = None) -> np.ndarray:
    """Confusion matrix ``c(i, j)``: examples of true class ``i`` assigned to class ``j``.

    Rows are true classes, columns predicted ones (as in Fig. 6.4 and scikit-learn).

    Parameters
    ----------
    labels : sequence, optional
        Class order (default: the sorted union of ``y_true`` and ``y_pred``).
    normalize : {None, "true", "pred", "all"}
        ``"true"`` divides each row by its class size: the diagonal holds the class-wise
        accuracies (multiply by 100 for percentages as in Fig. 6.4).
    """
    y_true, y_pred = np.asarray(y_true), np.asarray(y_pred)
    if y_true.ndim != 1 or y_true.shape != y_pred.shape:
        raise ValueError(f"y_true and y_pred must be 1-d of equal length, got {y_true.shape} and {y_pred.shape}")
    labels = np.unique(np.r_[y_true, y_pred]) if labels is None else np.asarray(labels)
    if len(np.unique(labels)) != len(labels):
        raise ValueError("labels must be distinct")
    index = {lab.item() if isinstance(lab, np.generic) else lab: k for k, lab in enumerate(labels)}
    unknown = set(np.unique(np.r_[y_true, y_pred]).tolist()) - set(index)
    if unknown:
        raise ValueError(f"labels {sorted(unknown)} are not in `labels`")
    i = np.array([index[v] for v in y_true.tolist()], dtype=int)
    j = np.array([index[v] for v in y_pred.tolist()], dtype=int)
    cm = np.zeros((len(labels), len(labels)), dtype=int)
    np.add.at(cm, (i, j), 1)
    if normalize is None:
        return cm
    with np.errstate(invalid="ignore", divide="ignore"):
        if normalize == "true":
            out = cm / cm.sum(axis=1, keepdims=True)
        elif normalize == "pred":
            out = cm / cm.sum(axis=0, keepdims=True)
        elif normalize == "all":
            out = cm / cm.sum()
        else:
            raise ValueError(f"normalize must be None, 'true', 'pred' or 'all', got {normalize!r}")
    return np.nan_to_num(out)


def _check_matrix(cm) -> np.ndarray:
    cm = np.asarray(cm, dtype=float)
    if cm.ndim != 2 or cm.shape[0] != cm.shape[1] or cm.shape[0] < 2:
        raise ValueError(f"a confusion matrix must be square with at least 2 classes, got shape {cm.shape}")
    if not np.all(np.isfinite(cm)) or np.any(cm < 0):
        raise ValueError("a confusion matrix must have finite, non-negative entries")
    if np.any(cm.sum(axis=1) == 0):
        raise ValueError(f"classes {np.flatnonzero(cm.sum(axis=1) == 0).tolist()} have no examples (empty rows)")
    return cm


def per_class_rates(cm) -> dict[str, np.ndarray]:
    """Per-class measures from a confusion matrix (counts, or row percentages).

    ``recall`` (class-wise accuracy, the true positive rate of "class k versus the rest")
    is the diagonal of the row-normalised matrix and works for row percentages too.
    ``precision`` and ``f1`` need counts (they mix classes, so they depend on the class
    sizes); for a row-normalised matrix they are those of a balanced test set.
    """
    cm = _check_matrix(cm)
    recall = np.diag(cm) / cm.sum(axis=1)
    col = cm.sum(axis=0)
    with np.errstate(invalid="ignore", divide="ignore"):
        precision = np.where(col > 0, np.diag(cm) / col, 0.0)
        f1 = np.where(precision + recall > 0, 2 * precision * recall / (precision + recall), 0.0)
    return {"recall": recall, "precision": precision, "f1": f1}


def balanced_accuracy(y_true=None, y_pred=None, *, cm=None) -> float:
    """Balanced accuracy: the mean of the class-wise accuracies (sec. 6.3.3).

    Two classes: ``BAC = (tpr + tnr)/2``.  Pass labels, or a confusion matrix ``cm``
    (counts or row percentages; the result is then in the same units divided by the row
    sums, i.e. a fraction).
    """
    if cm is None:
        if y_true is None or y_pred is None:
            raise ValueError("pass y_true and y_pred, or a confusion matrix cm")
        counts = confusion_matrix(y_true, y_pred)
        present = counts.sum(axis=1) > 0         # classes that occur only among the predictions
        return float((np.diag(counts)[present] / counts.sum(axis=1)[present]).mean())
    return float(per_class_rates(cm)["recall"].mean())


def multiclass_summary(cm, *, counts: bool = True) -> dict[str, float | np.ndarray]:
    """Point measures of a multi-class working point (sec. 6.3.3).

    ``balanced_accuracy`` (mean class-wise accuracy), ``worst_class_accuracy``,
    per-class ``recall``, and, if ``cm`` holds counts (``counts=True``), the overall
    ``accuracy``, per-class ``precision``, ``f1`` and ``macro_f1``.  For a row-percentage
    matrix such as Fig. 6.4 pass ``counts=False``: the overall accuracy cannot be
    recovered without the class sizes.
    """
    cm = _check_matrix(cm)
    r = per_class_rates(cm)
    out: dict[str, float | np.ndarray] = {
        "balanced_accuracy": float(r["recall"].mean()),
        "worst_class_accuracy": float(r["recall"].min()),
        "recall": r["recall"],
    }
    if counts:
        out.update(accuracy=float(np.trace(cm) / cm.sum()), precision=r["precision"],
                   f1=r["f1"], macro_f1=float(r["f1"].mean()))
    return out


def most_confused(cm, k: int = 5) -> list[tuple[int, int, float]]:
    """The ``k`` largest off-diagonal entries ``(true, predicted, value)`` (0-based classes)."""
    cm = _check_matrix(cm)
    k = _check_int("k", k, 1)
    off = cm.copy()
    np.fill_diagonal(off, -np.inf)
    flat = np.argsort(-off, axis=None, kind="stable")[:k]
    return [(int(i), int(j), float(cm[i, j])) for i, j in zip(*np.unravel_index(flat, cm.shape))]


#: Biehl's Fig. 6.4: a 5-class confusion matrix in percent (rows: true class, columns:
#: predicted class) from the GAMA galaxy study.  Row 1 sums to 100.1 by rounding.
FIG_6_4_CONFUSION = np.array([
    [63.8, 10.8, 19.3, 5.5, 0.7],
    [3.1, 90.7, 0.1, 1.3, 4.8],
    [18.4, 1.7, 66.1, 13.5, 0.3],
    [2.0, 6.8, 9.3, 73.7, 8.2],
    [1.1, 13.1, 0.1, 14.6, 71.1],
])
FIG_6_4_CONFUSION.setflags(write=False)


# ==================================================================== interpretability

def add_spurious_feature(X, y, strength: float, rng: np.random.Generator, *,
                         pos_label=1, noise: float = 0.1) -> np.ndarray:
    """Append a "tank legend" feature that encodes the label with probability ``strength``.

    The new column is ``+1`` for positive and ``-1`` for negative examples (plus Gaussian
    ``noise``), except for a random fraction ``1 - strength`` whose sign is flipped.  In
    data where it was recorded like this (say, the weather on the day the photographs of
    each class were taken) it predicts the label; ``strength = 0.5`` makes it useless.
    """
    X = np.asarray(X, dtype=float)
    if X.ndim != 2:
        raise ValueError(f"X must be a 2-d array, got shape {X.shape}")
    t = _binary_truth(y, pos_label)
    if t.size != len(X):
        raise ValueError(f"X has {len(X)} rows but y has {t.size} labels")
    if not (isinstance(strength, numbers.Real) and 0 <= strength <= 1):
        raise ValueError(f"strength must be a probability in [0, 1], got {strength!r}")
    _check_noise(noise)
    sign = np.where(t, 1.0, -1.0)
    flip = rng.random(len(X)) >= strength
    feature = np.where(flip, -sign, sign) + noise * rng.standard_normal(len(X))
    return np.column_stack([X, feature])
