"""Validation procedures and model selection (Biehl sec. 6.2).

Index generators that are also scikit-learn CV splitters (``split``/``get_n_splits``, so
``cross_val_score(..., cv=NFold(10))`` works): :class:`NFold` (optionally stratified),
:class:`LeaveOneOut`, :class:`RepeatedNFold`, :class:`MonteCarloSplits`,
:class:`ClasswiseLeaveOneOut` (one example of each class per validation set) and
:func:`leave_p_out_splits` / :func:`leave_p_out_count`.

:func:`cross_validation_scores`, :func:`select_by_cv` and :func:`nested_cross_validation`
(model selection inside the training folds only, with the index bookkeeping that proves
it).  Ties between candidates go to the first one.
"""

from __future__ import annotations

import itertools
import math
import numbers
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from .._ties import first_argmax
from ..validation import COUNT, Interval, check_scalar, resolve_rng, validate_args

if TYPE_CHECKING:
    from sklearn.base import BaseEstimator

__all__ = [
    "NFold",
    "LeaveOneOut",
    "RepeatedNFold",
    "MonteCarloSplits",
    "ClasswiseLeaveOneOut",
    "leave_p_out_count",
    "leave_p_out_splits",
    "check_partition",
    "cross_validation_scores",
    "select_by_cv",
    "NestedCVResult",
    "nested_cross_validation",
]


# ==================================================================== validation procedures

def _n_samples(X) -> int:
    if isinstance(X, numbers.Integral) and not isinstance(X, (bool, np.bool_)):
        return int(check_scalar(X, "X", COUNT))
    try:
        return len(X)
    except TypeError:
        raise TypeError(f"X must be an array of examples or their number, "
                        f"got {type(X).__name__}") from None


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

    def __init__(self, n_splits: int = 10, *, shuffle: bool = False,
                 random_state: np.random.Generator | int | None = None,
                 stratified: bool = False) -> None:
        self.n_splits = int(check_scalar(n_splits, "n_splits", Interval(numbers.Integral, 2, None)))
        self.shuffle = bool(shuffle)
        self.random_state = random_state
        self.stratified = bool(stratified)

    def get_n_splits(self, X: np.ndarray | None = None, y: np.ndarray | None = None,
                     groups: np.ndarray | None = None) -> int:
        """The number of splits that :meth:`split` yields, ``n_splits``.

        Parameters
        ----------
        X : array (P, ...) or int, optional
            The examples, or just their number ``P``; ignored.
        y : array (P,), optional
            The class labels; ignored.
        groups : None
            Ignored; accepted for scikit-learn's splitter interface.

        Returns
        -------
        int
        """
        return self.n_splits

    def folds(self, X: np.ndarray, y: np.ndarray | None = None) -> list[np.ndarray]:
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

    def split(self, X: np.ndarray, y: np.ndarray | None = None,
              groups: np.ndarray | None = None) -> Iterator[tuple[np.ndarray, np.ndarray]]:
        """Yield the ``(train, test)`` index arrays of every split.

        Parameters
        ----------
        X : array (P, ...) or int
            The examples, or just their number ``P``.
        y : array (P,), optional
            The class labels; needed when ``stratified=True``.
        groups : None
            Ignored; accepted for scikit-learn's splitter interface.

        Yields
        ------
        train, test : array of int
            The indices of the training examples and of the validation examples (``ID_i^val``).
        """
        P = _n_samples(X)
        for fold in self.folds(P, y):
            mask = np.ones(P, dtype=bool)
            mask[fold] = False
            yield np.flatnonzero(mask), np.sort(fold)


class LeaveOneOut(_Splitter):
    """Leave-one-out, ``n = P`` (sec. 6.2.1): ``P`` splits, each validating one example."""

    def get_n_splits(self, X: np.ndarray | None = None, y: np.ndarray | None = None,
                     groups: np.ndarray | None = None) -> int:
        """The number of splits that :meth:`split` yields, ``P``.

        Parameters
        ----------
        X : array (P, ...) or int, optional
            The examples, or just their number ``P``; needed.
        y : array (P,), optional
            The class labels; ignored.
        groups : None
            Ignored; accepted for scikit-learn's splitter interface.

        Returns
        -------
        int
        """
        if X is None:
            raise ValueError("leave-one-out needs X (or the number of examples) "
                             "to count its splits")
        P = _n_samples(X)
        if P < 2:
            raise ValueError(f"leave-one-out needs at least 2 examples, got {P}")
        return P

    def split(self, X: np.ndarray, y: np.ndarray | None = None,
              groups: np.ndarray | None = None) -> Iterator[tuple[np.ndarray, np.ndarray]]:
        """Yield the ``(train, test)`` index arrays of every split.

        Parameters
        ----------
        X : array (P, ...) or int
            The examples, or just their number ``P``.
        y : array (P,), optional
            The class labels; ignored.
        groups : None
            Ignored; accepted for scikit-learn's splitter interface.

        Yields
        ------
        train, test : array of int
            The indices of the training examples and of the validation examples (``ID_i^val``).
        """
        P = _n_samples(X)
        self.get_n_splits(P)
        idx = np.arange(P)
        for mu in range(P):
            yield np.delete(idx, mu), np.array([mu])

    def __repr__(self) -> str:
        return "LeaveOneOut()"


class RepeatedNFold(_Splitter):
    """Repeated n-fold cross-validation with a fresh random partition in each repetition."""

    def __init__(self, n_splits: int = 10, n_repeats: int = 10, *,
                 random_state: np.random.Generator | int | None = None,
                 stratified: bool = False) -> None:
        self.n_splits = int(check_scalar(n_splits, "n_splits", Interval(numbers.Integral, 2, None)))
        self.n_repeats = int(check_scalar(n_repeats, "n_repeats", COUNT))
        self.random_state = random_state
        self.stratified = bool(stratified)

    def get_n_splits(self, X: np.ndarray | None = None, y: np.ndarray | None = None,
                     groups: np.ndarray | None = None) -> int:
        """The number of splits that :meth:`split` yields, ``n_splits * n_repeats``.

        Parameters
        ----------
        X : array (P, ...) or int, optional
            The examples, or just their number ``P``; ignored.
        y : array (P,), optional
            The class labels; ignored.
        groups : None
            Ignored; accepted for scikit-learn's splitter interface.

        Returns
        -------
        int
        """
        return self.n_splits * self.n_repeats

    def split(self, X: np.ndarray, y: np.ndarray | None = None,
              groups: np.ndarray | None = None) -> Iterator[tuple[np.ndarray, np.ndarray]]:
        """Yield the ``(train, test)`` index arrays of every split.

        Parameters
        ----------
        X : array (P, ...) or int
            The examples, or just their number ``P``.
        y : array (P,), optional
            The class labels; needed when ``stratified=True``.
        groups : None
            Ignored; accepted for scikit-learn's splitter interface.

        Yields
        ------
        train, test : array of int
            The indices of the training examples and of the validation examples (``ID_i^val``).
        """
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

    def __init__(self, n_splits: int = 10, test_size: float = 0.2, *,
                 random_state: np.random.Generator | int | None = None) -> None:
        self.n_splits = int(check_scalar(n_splits, "n_splits", COUNT))
        if isinstance(test_size, numbers.Integral) and not isinstance(test_size, bool):
            check_scalar(test_size, "test_size", COUNT)
        elif not (isinstance(test_size, numbers.Real) and 0 < test_size < 1):
            raise ValueError(f"test_size must be an integer >= 1 or a fraction in (0, 1), "
                             f"got {test_size!r}")
        self.test_size = test_size
        self.random_state = random_state

    def get_n_splits(self, X: np.ndarray | None = None, y: np.ndarray | None = None,
                     groups: np.ndarray | None = None) -> int:
        """The number of splits that :meth:`split` yields, ``n_splits``.

        Parameters
        ----------
        X : array (P, ...) or int, optional
            The examples, or just their number ``P``; ignored.
        y : array (P,), optional
            The class labels; ignored.
        groups : None
            Ignored; accepted for scikit-learn's splitter interface.

        Returns
        -------
        int
        """
        return self.n_splits

    def _p(self, P: int) -> int:
        p = self.test_size if isinstance(self.test_size, numbers.Integral) else \
            int(math.ceil(self.test_size * P))
        if not 1 <= p < P:
            raise ValueError(f"test_size={self.test_size!r} leaves no training examples out of {P}")
        return p

    def split(self, X: np.ndarray, y: np.ndarray | None = None,
              groups: np.ndarray | None = None) -> Iterator[tuple[np.ndarray, np.ndarray]]:
        """Yield the ``(train, test)`` index arrays of every split.

        Parameters
        ----------
        X : array (P, ...) or int
            The examples, or just their number ``P``.
        y : array (P,), optional
            The class labels; ignored.
        groups : None
            Ignored; accepted for scikit-learn's splitter interface.

        Yields
        ------
        train, test : array of int
            The indices of the training examples and of the validation examples (``ID_i^val``).
        """
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

    def __init__(self, *, shuffle: bool = False,
                 random_state: np.random.Generator | int | None = None) -> None:
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

    def get_n_splits(self, X: np.ndarray | None = None, y: np.ndarray | None = None,
                     groups: np.ndarray | None = None) -> int:
        """The number of splits that :meth:`split` yields: the size of the largest class.

        Parameters
        ----------
        X : array (P, ...) or int, optional
            The examples, or just their number ``P``; ignored.
        y : array (P,), optional
            The class labels; needed.
        groups : None
            Ignored; accepted for scikit-learn's splitter interface.

        Returns
        -------
        int
        """
        if y is None:
            raise ValueError("class-wise leave-one-out needs y to count its splits")
        return max(len(m) for m in self._members(np.asarray(y)))

    def split(self, X: np.ndarray, y: np.ndarray | None = None,
              groups: np.ndarray | None = None) -> Iterator[tuple[np.ndarray, np.ndarray]]:
        """Yield the ``(train, test)`` index arrays of every split.

        Parameters
        ----------
        X : array (P, ...) or int
            The examples, or just their number ``P``.
        y : array (P,), optional
            The class labels; needed.
        groups : None
            Ignored; accepted for scikit-learn's splitter interface.

        Yields
        ------
        train, test : array of int
            The indices of the training examples and of the validation examples (``ID_i^val``).
        """
        P = _n_samples(X)
        y = _labels(y, P)
        members = self._members(y)
        for i in range(max(len(m) for m in members)):
            test = np.sort([m[i % len(m)] for m in members])
            mask = np.ones(P, dtype=bool)
            mask[test] = False
            yield np.flatnonzero(mask), test


class _Splits:
    """Constraint for ``cv``: a splitter (an object with ``split``) or ``(train, test)`` pairs."""

    def is_satisfied_by(self, value) -> bool:
        return hasattr(value, "split") or (hasattr(value, "__iter__")
                                           and not isinstance(value, (str, bytes)))

    def __str__(self) -> str:
        return "a splitter (an object with split) or a list of (train, test) pairs"


# an int is the number of folds of NFold
_CV = [Interval(numbers.Integral, 2, None), _Splits()]


@validate_args(P=COUNT, p=COUNT)
def leave_p_out_count(P: int, p: int) -> int:
    """Number of leave-p-out splits, ``binom(P, p)``: it grows quickly."""
    P, p = int(P), int(p)
    if p >= P:
        raise ValueError(f"p={p} must be smaller than the number of examples P={P}")
    return math.comb(P, p)


@validate_args(P=COUNT, p=COUNT)
def leave_p_out_splits(P: int, p: int) -> Iterator[tuple[np.ndarray, np.ndarray]]:
    """All ``binom(P, p)`` splits into ``P - p`` training and ``p`` validation examples.

    The arguments are checked when it is called, before the first split is asked for.
    """
    leave_p_out_count(P, p)
    return _leave_p_out(P, p)


def _leave_p_out(P: int, p: int) -> Iterator[tuple[np.ndarray, np.ndarray]]:
    idx = np.arange(P)
    for test in itertools.combinations(range(P), p):
        test = np.array(test)
        yield np.setdiff1d(idx, test), test


@validate_args(P=COUNT)
def check_partition(splits: Sequence[tuple[np.ndarray, np.ndarray]], P: int, *,
                    partition: bool = True) -> None:
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
            raise ValueError(f"split {k}: training and validation sets are not a partition "
                             f"of range({P})")
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


@validate_args(cv=_CV)
def cross_validation_scores(estimator: BaseEstimator, X: np.ndarray, y: np.ndarray,
                            cv: int | object = 10, *, scoring: str | Callable | None = None,
                            indices: np.ndarray | None = None) -> np.ndarray:
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


@validate_args(cv=_CV)
def select_by_cv(estimator: BaseEstimator, param_grid: dict | list[dict], X: np.ndarray,
                 y: np.ndarray, cv: int | object = 10, *, scoring: str | Callable | None = None,
                 indices: np.ndarray | None = None) -> tuple[dict, np.ndarray, list[dict]]:
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


@validate_args(outer_cv=_CV, inner_cv=_CV)
def nested_cross_validation(estimator: BaseEstimator, param_grid: dict | list[dict], X: np.ndarray,
                            y: np.ndarray, outer_cv: int | object = 5, inner_cv: int | object = 5,
                            *, scoring: str | Callable | None = None) -> NestedCVResult:
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
