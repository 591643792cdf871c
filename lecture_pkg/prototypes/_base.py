"""What the prototype-based classifiers share (Biehl, ch. 5).

Conventions:

* labels may be any hashable values; internally class ``k`` is ``classes_[k]`` and every
  prototype carries the index of its class.  Prototypes are stored grouped by class, in
  the order of ``classes_``, so ties in a distance go to the first class;
* the default dissimilarity is the squared Euclidean distance ``d(w, xi) = (w - xi)^2``;
  a linear map ``Omega`` gives the relevance distance ``delta_Lambda = [Omega (w - xi)]^2``
  with ``Lambda = Omega^T Omega`` (eqs. 5.13-5.14).

:class:`_PrototypeClassifier` is the base of the nearest-prototype and LVQ estimators:
the metric table, the nearest-prototype rule and GLVQ's relative distance difference
(:func:`relative_distance_difference`) as the decision score; :func:`class_means` places
one prototype per class.
"""

from __future__ import annotations

import numbers
from functools import partial

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.utils.validation import check_is_fitted, validate_data

from .._ties import first_argmin
from ..validation import MATRIX, NON_NEGATIVE, Array, Interval, Options, ParamValidationMixin, \
    validate_args
from . import distances as _dist

__all__ = [
    "relative_distance_difference",
    "class_means",
]


# ---------------------------------------------------------------- small helpers

def _name(value):
    """A label as a plain Python value, for readable error messages."""
    return value.item() if isinstance(value, np.generic) else value


def _permutation(rng, n: int) -> np.ndarray:
    return rng.permutation(n)


def _metric_function(metric, p: float):
    """The (P, M) distance function named by ``metric`` (a callable passes through)."""
    if callable(metric):
        return metric
    if metric == "sqeuclidean":
        return _dist.squared_euclidean
    if metric == "euclidean":
        return _dist.euclidean
    if metric == "minkowski":
        return partial(_dist.minkowski, p=p)
    raise ValueError(f"metric must be 'sqeuclidean', 'euclidean', 'minkowski' or a callable, "
                     f"got {metric!r}")


def _fast_sqdist(X: np.ndarray, W: np.ndarray, omega: np.ndarray | None) -> np.ndarray:
    """Squared (relevance) distances without input checks, for the training loops."""
    if omega is not None:
        X = X @ omega.T
        W = W @ omega.T
    diff = X[:, None, :] - W[None, :, :]
    return np.einsum("pmn,pmn->pm", diff, diff)


@validate_args(X=MATRIX)
def class_means(X: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Class-conditional mean vectors ``sum_mu delta[y_mu, c] xi_mu / sum_mu delta[y_mu, c]``.

    Returns the means (C, N), one row per class, and the sorted class labels.
    (Biehl's initialisation formula has ``delta[y_mu, c]`` in the denominator where
    ``delta[y_mu, c^j]`` is meant.)
    """
    X = np.asarray(X, dtype=float)
    y = np.asarray(y)
    classes, y_idx = np.unique(y, return_inverse=True)
    counts = np.bincount(y_idx, minlength=len(classes))
    sums = np.zeros((len(classes), X.shape[1]))
    np.add.at(sums, y_idx, X)
    return sums / counts[:, None], classes


# ---------------------------------------------------------------- estimators

_METRIC = [Options("sqeuclidean", "euclidean", "minkowski"), "callable"]
# The Minkowski distance (5.10) is a metric for p >= 1; p = inf is the maximum norm.
_MINKOWSKI_P = [Interval(numbers.Real, 1, None, closed="left", allow_inf=True)]


@validate_args(d_correct=Array(within=NON_NEGATIVE), d_wrong=Array(within=NON_NEGATIVE))
def relative_distance_difference(d_correct: np.ndarray, d_wrong: np.ndarray) -> np.ndarray:
    """GLVQ's ``e = (d+ - d-) / (d+ + d-)``, Biehl eq. (5.5); ``-1 <= e <= 1``.

    ``d+`` is the distance to the correct winner ``w+``, the closest prototype of the
    correct class, ``d-`` to the incorrect winner ``w-``, the closest of any other class
    (Biehl's ``w_J``, ``w_K`` and ``d_J``, ``d_K``).  ``e < 0`` exactly when the nearest
    prototype classifier gets the example right.  Where both distances are 0, ``e = 0``.
    """
    dJ = np.asarray(d_correct, dtype=float)
    dK = np.asarray(d_wrong, dtype=float)
    total = dJ + dK
    return np.divide(dJ - dK, total, out=np.zeros(np.broadcast(dJ, dK).shape), where=total > 0)


class _PrototypeClassifier(ParamValidationMixin, ClassifierMixin, BaseEstimator):
    """Shared prediction of nearest prototype classifiers (eq. 5.2).

    Subclasses set ``classes_``, ``prototypes_``, ``prototype_labels_``,
    ``_prototype_class`` (indices) and ``_distance`` (a function of X giving (n, M)).
    """

    def _distances(self, X) -> np.ndarray:
        check_is_fitted(self)
        X = validate_data(self, X, reset=False)
        return self._distance(X)

    def predict(self, X):
        """Label of the nearest prototype (ties: the first prototype, i.e. the first class)."""
        nearest = first_argmin(self._distances(X), axis=1)
        return self.classes_[self._prototype_class[nearest]]

    def decision_function(self, X):
        """Class scores from the distance to the nearest prototype of each class.

        Two classes: ``mu(x) = (d_0 - d_1) / (d_0 + d_1)`` in ``[-1, 1]`` (minus GLVQ's ``e``
        for class 1), positive for ``classes_[1]``.  More classes: ``-d_k``, the negative
        distance to the closest prototype of class ``k``; the largest score wins.
        """
        D = self._distances(X)
        Dc = np.column_stack([D[:, self._prototype_class == k].min(axis=1)
                              for k in range(len(self.classes_))])
        if len(self.classes_) == 2:
            return relative_distance_difference(Dc[:, 0], Dc[:, 1])
        return -Dc
