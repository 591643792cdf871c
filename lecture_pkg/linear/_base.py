"""What the linear two-class classifiers share: the sign, the clamped bias input and the
estimator base.

* :func:`sign` is the sign with the course's tie convention ``sign(0) = +1``;
* :func:`augment` prepends the clamped input ``s`` to every example, ``x~ = (s, x)``;
* :class:`LinearBinaryClassifier` is the scikit-learn base of the perceptron family:
  any two labels mapped to ``-1``/``+1``, ``decision_function = w . x + b``, ``predict``
  with ``sign(0) = +1``; the kernel machines extend it;
* ``_LinearBinaryClassifier`` adds the optional clamped bias input of the estimators of
  optimal stability and of the soft margin.
"""

from __future__ import annotations

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_is_fitted, validate_data

from ..validation import (FINITE, Array, ParamValidationMixin, check_inputs, check_scalar,
                          check_vector, validate_args)

__all__ = [
    "sign",
    "augment",
    "LinearBinaryClassifier",
]


@validate_args(z=Array(allow_inf=True))
def sign(z: np.ndarray | float) -> np.ndarray:
    """Sign with the course's tie convention ``sign(0) = +1`` (Biehl eq. 1.5, Koski, Deckert).

    Returns an integer array of ``+1`` and ``-1``.  ``sign(+-inf) = +-1``; NaN has no sign
    and is refused.
    """
    return np.where(np.asarray(z) >= 0, 1, -1)


@validate_args(bias_input=FINITE)
def augment(X: np.ndarray, bias_input: float = 1.0) -> np.ndarray:
    """Prepend the clamped bias input ``s`` to every example: ``x~ = (s, x)``.

    Parameters
    ----------
    X : array of shape (P, N)
    bias_input : float
        The constant ``s``.  1 gives Deckert's augmented vector; Biehl's eq. (3.4)
        appends ``-1`` instead, which only flips the sign of the stored threshold.

    Returns
    -------
    array of shape (P, N + 1)
    """
    X = check_inputs(X)
    return np.hstack([np.full((X.shape[0], 1), float(bias_input)), X])


class LinearBinaryClassifier(ParamValidationMixin, ClassifierMixin, BaseEstimator):
    """Base of the course's linear two-class estimators (perceptron family).

    Provides what they share: any two labels mapped to ``-1`` / ``+1`` (``classes_[1]``
    is ``+1``), a clear error for other than two classes, ``decision_function``
    ``w . x + b`` from ``coef_`` and ``intercept_``, and ``predict`` with ``sign(0) = +1``.
    Kernel machines (``lecture_pkg.kernel_machines.svm``), linear in feature space, override
    ``decision_function`` with their kernel expansion.
    """

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.classifier_tags.multi_class = False
        return tags

    def _binary_targets(self, X, y):
        """Validate ``X, y``, set ``classes_`` and return ``X`` and the labels as +-1.

        Inputs too large to compute with (squares that overflow) are refused here, for
        every estimator of the family, before an algorithm meets them.
        """
        X, y = validate_data(self, X, y)
        X = check_inputs(X)
        check_classification_targets(y)
        self.classes_ = np.unique(y)
        if len(self.classes_) != 2:
            raise ValueError(
                f"Only binary classification is supported: a perceptron separates two classes, "
                f"and y has {len(self.classes_)} class(es): {self.classes_[:5].tolist()}"
            )
        return X, np.where(y == self.classes_[1], 1.0, -1.0)

    def decision_function(self, X: np.ndarray) -> np.ndarray:
        """``w . x + b`` for every row of ``X``; its sign is the predicted class."""
        check_is_fitted(self)
        X = validate_data(self, X, reset=False)
        return X @ self.coef_ + self.intercept_

    def predict(self, X: np.ndarray) -> np.ndarray:
        """Predicted labels, with ``sign(0) = +1`` (the positive class ``classes_[1]``)."""
        check_is_fitted(self)
        return self.classes_[(self.decision_function(X) >= 0).astype(int)]


# ---------------------------------------------------------------- estimators

class _LinearBinaryClassifier(LinearBinaryClassifier):
    """Shared scaffolding: an optional clamped bias input and storing the augmented weights."""

    def _prepare(self, X, y):
        X, y_pm = self._binary_targets(X, y)
        s = float(self.bias_input) if self.fit_intercept else None
        Xa = augment(X, s) if s is not None else np.asarray(X, dtype=float)
        return X, y_pm, Xa, s

    def _store_weights(self, w: np.ndarray, s: float | None) -> None:
        if s is None:
            self.coef_, self.intercept_ = w.copy(), 0.0
        else:
            self.coef_, self.intercept_ = w[1:].copy(), float(w[0] * s)


def initial_weights(n_features: int, coef_init, intercept_init, s: float | None, *,
                    owner: str = "") -> np.ndarray:
    """Augmented start weights ``(b / s, w)`` from an optional ``coef_init`` and ``intercept_init``.

    ``s`` is the clamped input: ``None`` means no bias slot (the weights are ``w`` alone),
    ``0`` a slot that stays zero (no intercept is fitted).  Zero where nothing is given;
    a start that is not finite, or has the wrong shape, is refused (by ``owner``, the
    ``fit`` that was given it).
    """
    w = np.zeros(n_features + (s is not None))
    if coef_init is not None:
        coef_init = check_vector(coef_init, "coef_init")
        if coef_init.shape != (n_features,):
            raise ValueError(f"coef_init has shape {coef_init.shape}, expected ({n_features},)")
        w[len(w) - n_features:] = coef_init
    if intercept_init is not None:
        if not s:
            raise ValueError("intercept_init given but fit_intercept=False")
        if isinstance(intercept_init, np.ndarray) and intercept_init.ndim == 0:
            intercept_init = intercept_init.item()
        w[0] = float(check_scalar(intercept_init, "intercept_init", FINITE, owner=owner)) / s
    return w


def _kappa_of(Xa, y, w) -> float:
    norm = float(np.linalg.norm(w))
    return float(np.min(y * (Xa @ w)) / norm) if norm > 0 else -np.inf
