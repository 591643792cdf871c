"""Nearest-neighbour and nearest-prototype classifiers (Biehl §5.1--5.2).

* :class:`NearestNeighborClassifier` -- k-NN with any of the package's distances,
  ties in the vote and in the distances broken towards the first class;
* :class:`NearestPrototypeClassifier` -- one prototype per class at the class mean (or
  given prototypes), the classifier that LVQ trains;
* :func:`condensed_nearest_neighbor` -- Hart's condensed nearest-neighbour rule, a subset
  of the reference set that still classifies every reference vector correctly;
* :func:`cover_hart_bound` -- the asymptotic bounds of Cover and Hart on the error of the
  1-NN rule in terms of the Bayes error.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_is_fitted, validate_data

from .._ties import first_argmin, stable_argsort
from ..core.order import presentation_order
import numbers

from ..validation import (COUNT, MATRIX, Array, Interval, Options, ParamValidationMixin,
                          check_inputs, validate_args)
from ._base import _METRIC, _MINKOWSKI_P, _metric_function, _PrototypeClassifier, class_means

__all__ = [
    "NearestNeighborClassifier",
    "NearestPrototypeClassifier",
    "condensed_nearest_neighbor",
    "cover_hart_bound",
]


class NearestNeighborClassifier(ParamValidationMixin, ClassifierMixin, BaseEstimator):
    """The k-nearest-neighbour classifier (Biehl sec. 5.1.1).

    No training: ``fit`` stores the reference set.  A query gets the majority label of
    its ``n_neighbors`` closest reference vectors; a tie in the vote goes to the class
    that comes first in ``classes_`` (as in scikit-learn), and among equally distant
    neighbours the earlier reference vector is taken.

    Parameters
    ----------
    n_neighbors : int, default 1
        ``k``; 1 gives the nearest-neighbour (NN) classifier.
    metric : {"sqeuclidean", "euclidean", "minkowski"} or callable, default "sqeuclidean"
        A callable maps ``(X, W)`` to the (n, m) matrix of distances (e.g. a function of
        :mod:`lecture_pkg.prototypes.distances`).
    p : float, default 2
        Exponent of the Minkowski distance (5.10): ``p >= 1`` (where it is a metric) or
        ``np.inf`` (the maximum norm).  Checked whatever the metric, used only by "minkowski".

    References
    ----------
    .. [1] Biehl, M. (2019). *Supervised Learning -- An Introduction*. Machine Learning Reports
       01/2019, §5.1.1; the Minkowski distance §5.2.1, eq. (5.10).
       (bib key: biehl2019supervised)
    .. [2] Cover, T. M. and Hart, P. E. (1967). Nearest Neighbor Pattern Classification. *IEEE
       Transactions on Information Theory* 13(1), 21--27. (bib key: cover1967nearest)

    Examples
    --------
    >>> from lecture_pkg.datasets import koski_example
    >>> from lecture_pkg.prototypes import NearestNeighborClassifier
    >>> X, y = koski_example()
    >>> clf = NearestNeighborClassifier(n_neighbors=3).fit(X, y)
    >>> clf.predict([[0.0, 0.0], [2.0, 2.0]]).tolist()
    [1, 1]
    """

    _parameter_constraints = {
        "n_neighbors": [COUNT],
        "metric": _METRIC,
        "p": _MINKOWSKI_P,
    }

    def __init__(self, n_neighbors: int = 1, metric: str | Callable = "sqeuclidean",
                 p: float = 2.0) -> None:
        self.n_neighbors = n_neighbors
        self.metric = metric
        self.p = p

    def fit(self, X: np.ndarray, y: np.ndarray) -> NearestNeighborClassifier:
        """Store the reference set ``(X, y)``."""
        self._metric = _metric_function(self.metric, self.p)
        X, y = validate_data(self, X, y)
        X = check_inputs(X)                                # squares that overflow are refused
        check_classification_targets(y)
        if self.n_neighbors > len(X):
            raise ValueError(f"n_neighbors={self.n_neighbors} is larger than the "
                             f"{len(X)} sample(s) of the reference set")
        self.classes_, self._y_idx = np.unique(y, return_inverse=True)
        self.reference_ = X
        return self

    def _votes(self, X) -> np.ndarray:
        check_is_fitted(self)
        X = validate_data(self, X, reset=False)
        k, C = self.n_neighbors, len(self.classes_)
        votes = np.zeros((len(X), C))
        for start in range(0, len(X), 1024):               # bounded memory on large grids
            D = np.asarray(self._metric(X[start:start + 1024], self.reference_))
            rows = np.arange(len(D))[:, None]
            if k == 1:
                nearest = first_argmin(D, axis=1)[:, None]
            else:
                nearest = stable_argsort(D, axis=1)[:, :k]
            np.add.at(votes, (start + rows, self._y_idx[nearest]), 1.0)
        return votes

    def predict_proba(self, X: np.ndarray) -> np.ndarray:
        """Fraction of the ``k`` neighbours in each class."""
        return self._votes(X) / self.n_neighbors

    def predict(self, X: np.ndarray) -> np.ndarray:
        """Majority label of the ``k`` nearest reference vectors."""
        votes = self._votes(X)
        return self.classes_[votes.argmax(axis=1)]


class NearestPrototypeClassifier(_PrototypeClassifier):
    """Nearest prototype classifier, eq. (5.2), with the class means as prototypes.

    ``fit`` places one prototype at the mean of each class (the class-mean rule, which
    scikit-learn calls ``NearestCentroid``).  :meth:`from_prototypes` builds the
    classifier from any given labelled prototypes instead, e.g. hand-placed ones or
    every training example (which gives the 1-NN classifier).

    Parameters
    ----------
    metric : {"sqeuclidean", "euclidean", "minkowski"} or callable, default "sqeuclidean"
    p : float, default 2
        As in :class:`NearestNeighborClassifier`: ``p >= 1`` or ``np.inf``.

    References
    ----------
    .. [1] Biehl, M. (2019). *Supervised Learning -- An Introduction*. Machine Learning Reports
       01/2019, §5.1.1--5.1.2, eq. (5.2). (bib key: biehl2019supervised)

    Examples
    --------
    >>> from lecture_pkg.datasets import koski_example
    >>> from lecture_pkg.prototypes import NearestPrototypeClassifier
    >>> X, y = koski_example()
    >>> clf = NearestPrototypeClassifier().fit(X, y)
    >>> clf.prototypes_.round(2)
    array([[-0.33, -1.83],
           [ 0.17,  0.5 ]])
    """

    _parameter_constraints = {
        "metric": _METRIC,
        "p": _MINKOWSKI_P,
    }

    def __init__(self, metric: str | Callable = "sqeuclidean", p: float = 2.0) -> None:
        self.metric = metric
        self.p = p

    def _distance(self, X):
        return np.asarray(_metric_function(self.metric, self.p)(X, self.prototypes_))

    def fit(self, X: np.ndarray, y: np.ndarray) -> NearestPrototypeClassifier:
        """One prototype per class at the class mean."""
        X, y = validate_data(self, X, y)
        X = check_inputs(X)                                # squares that overflow are refused
        check_classification_targets(y)
        means, self.classes_ = class_means(X, y)
        self.prototypes_ = means
        self.prototype_labels_ = self.classes_.copy()
        self._prototype_class = np.arange(len(self.classes_))
        return self

    @classmethod
    def from_prototypes(cls, prototypes: np.ndarray, prototype_labels: np.ndarray, *,
                        metric: str | Callable = "sqeuclidean",
                        p: float = 2.0) -> NearestPrototypeClassifier:
        """A fitted classifier with the given prototypes ``w^j`` and labels ``c^j`` (eq. 5.1)."""
        W = np.asarray(prototypes, dtype=float)
        labels = np.asarray(prototype_labels)
        if W.ndim != 2 or len(labels) != len(W) or len(W) == 0:
            raise ValueError(f"need prototypes (M, N) and M labels; "
                             f"got shapes {W.shape}, {labels.shape}")
        W = check_inputs(W, "prototypes")
        model = cls(metric=metric, p=p)
        model._validate_params()
        order = np.argsort(labels, kind="stable")
        model.classes_, idx = np.unique(labels[order], return_inverse=True)
        model.prototypes_ = W[order]
        model.prototype_labels_ = labels[order]
        model._prototype_class = idx
        model.n_features_in_ = W.shape[1]
        return model


@validate_args(X=MATRIX, order=[None, Options("random"), "array-like"],
               random_state="random_state", metric=_METRIC, p=_MINKOWSKI_P)
def condensed_nearest_neighbor(X: np.ndarray, y: np.ndarray, *,
                               order: str | np.ndarray | None = None,
                               random_state: np.random.Generator | int | None = None,
                               metric: str | Callable = "sqeuclidean",
                               p: float = 2.0) -> np.ndarray:
    """Hart's condensed nearest-neighbour rule (CNN): a consistent subset of the reference set.

    The store starts with the first pattern of the presentation order.  Each pass goes
    through the patterns not yet stored, in that order, and classifies each by the 1-NN
    rule on the *current* store; a misclassified pattern is added at once.  Passes repeat
    until one adds nothing.  Then the 1-NN rule on the store classifies every reference
    vector correctly (the store is *consistent*), unless two identical vectors carry
    different labels.  The store is usually much smaller than the reference set and
    keeps mostly patterns near the class borders.  It is neither unique nor minimal: a
    different ``order`` gives a different store, of a different size.

    Only the distance of each pattern to its nearest stored pattern is kept, and updated
    (vectorised) when a pattern is stored, so a pass costs one comparison per pattern.
    Ties go to the pattern stored first, as in :class:`NearestNeighborClassifier` with the
    store, in the returned order, as reference set.

    Parameters
    ----------
    X : array of shape (P, N)
    y : array of shape (P,)
        Any class labels.
    order : None, "random" or array (P,) of int
        The presentation order (None: the given order), a permutation of ``range(P)``.
    random_state : seed or Generator
        Used when ``order="random"``.
    metric : {"sqeuclidean", "euclidean", "minkowski"} or callable, default "sqeuclidean"
        As in :class:`NearestNeighborClassifier`.
    p : float, default 2
        As in :class:`NearestNeighborClassifier`.

    Returns
    -------
    ndarray of int
        Indices into ``X`` of the stored patterns, in the order they were stored.

    References
    ----------
    .. [1] Hart, P. E. (1968). The condensed nearest neighbor rule. *IEEE Transactions on
       Information Theory* 14(3), 515--516. (bib key: hart1968condensed)

    Examples
    --------
    >>> import numpy as np
    >>> from lecture_pkg.prototypes import condensed_nearest_neighbor
    >>> X = np.array([[0.0], [1.0], [2.0], [10.0], [11.0], [12.0]])
    >>> condensed_nearest_neighbor(X, [0, 0, 0, 1, 1, 1]).tolist()
    [0, 3]
    """
    if len(X) == 0:
        raise ValueError("X has no rows: the store starts with one pattern")
    y = np.asarray(y)
    if y.shape != (len(X),):
        raise ValueError(f"y must have one label per row of X: shapes {X.shape}, {y.shape}")
    check_classification_targets(y)                    # NaN or continuous labels are refused
    _, y_idx = np.unique(y, return_inverse=True)
    distance = _metric_function(metric, p)
    perm = presentation_order(len(X), order, random_state=random_state)
    nearest_d = np.full(len(X), np.inf)
    nearest_label = np.full(len(X), -1)
    stored = np.zeros(len(X), dtype=bool)
    store: list[int] = []

    def add(i: int) -> None:
        d = np.asarray(distance(X, X[i:i + 1]))[:, 0]
        closer = d < nearest_d                         # strict: ties stay with the earlier
        nearest_d[closer] = d[closer]
        nearest_label[closer] = y_idx[i]
        stored[i] = True
        store.append(int(i))

    add(perm[0])
    changed = True
    while changed:
        changed = False
        for i in perm:
            if not stored[i] and nearest_label[i] != y_idx[i]:
                add(i)
                changed = True
    return np.array(store, dtype=int)


@validate_args(bayes_error=Array(within=Interval(numbers.Real, 0, 1)),
               n_classes=Interval(numbers.Integral, 2, None))
def cover_hart_bound(bayes_error: np.ndarray | float,
                     n_classes: int = 2) -> tuple[np.ndarray, np.ndarray]:
    """Cover and Hart's bounds on the asymptotic error ``R`` of the 1-NN rule.

    For ``c`` classes and Bayes error ``R*``, as the number of reference vectors grows
    (with densities continuous almost everywhere), the 1-NN error tends to ``R`` with

        ``R* <= R <= R* (2 - c R* / (c - 1))  (<= 2 R*)``.

    Returns the lower and upper bound for each ``bayes_error`` in ``[0, (c-1)/c]``.

    References
    ----------
    .. [1] Cover, T. M. and Hart, P. E. (1967). Nearest Neighbor Pattern Classification.
       *IEEE Transactions on Information Theory* 13(1), 21--27, Theorem 1.
       (bib key: cover1967nearest)

    Examples
    --------
    >>> from lecture_pkg.prototypes import cover_hart_bound
    >>> lower, upper = cover_hart_bound(0.1)
    >>> float(lower), round(float(upper), 12)
    (0.1, 0.18)
    """
    r = np.asarray(bayes_error, dtype=float)
    c = float(n_classes)
    if np.any(r > (c - 1) / c):
        raise ValueError(f"bayes_error must lie in [0, (c-1)/c] = [0, {(c - 1) / c:g}]")
    return r, r * (2.0 - c * r / (c - 1.0))
