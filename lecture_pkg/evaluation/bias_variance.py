"""Bias and variance of regression estimators (Biehl sec. 6.1, eqs. 6.1--6.7).

* :func:`polynomial_design`, :func:`fit_polynomial`, :func:`polynomial_predict`: the
  least-squares polynomial fits of Fig. 6.1 (via :mod:`lecture_pkg.learning.regression`);
* :func:`polynomial_smoother`: the matrix ``L`` with ``f_H(x_eval) = L y`` of a linear
  estimator;
* :func:`bias_variance_linear`: bias and variance in closed form for any linear estimator;
* :func:`bias_variance_monte_carlo`: the same averaged over simulated data sets
  (vectorised over the sets when the estimator is linear, a loop for any other estimator).
"""

from __future__ import annotations

import numbers
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from ..learning import regression
from ..validation import (COUNT, MATRIX, NON_NEGATIVE, VECTOR, Array, Interval, resolve_rng,
                          validate_args)

if TYPE_CHECKING:
    from sklearn.base import BaseEstimator

__all__ = [
    "polynomial_design",
    "fit_polynomial",
    "polynomial_predict",
    "polynomial_smoother",
    "BiasVariance",
    "bias_variance_linear",
    "bias_variance_monte_carlo",
]


# ==================================================================== small checks

_DEGREE = Interval(numbers.Integral, 0, None)       # a polynomial's degree q: 0, 1, 2, ...


class _Regressor:
    """Constraint for an estimator: a scikit-learn regressor (``fit`` and ``predict``)."""

    def is_satisfied_by(self, value) -> bool:
        return hasattr(value, "fit") and hasattr(value, "predict")

    def __str__(self) -> str:
        return "a scikit-learn regressor"


# ==================================================================== bias and variance

@validate_args(x=VECTOR, degree=_DEGREE)
def polynomial_design(x: np.ndarray, degree: int) -> np.ndarray:
    """The design matrix ``V[mu, j] = (x^mu)^j``, ``j = 0..q``, of the model (6.2).

    ``f_q(x) = sum_{j=0}^q w_j x^j`` (degree ``q``, Biehl's ``K``; weights ``w_j``, his
    ``a_j``) is linear in the weights ``w``, so fitting it by least squares (6.3) is linear
    regression with the features ``1, x, ..., x^q``.
    """
    degree = int(degree)
    return x[:, None] ** np.arange(degree + 1)[None, :]


@validate_args(x=VECTOR, y=Array(1, rows_of="x"), degree=_DEGREE, lam=NON_NEGATIVE)
def fit_polynomial(x: np.ndarray, y: np.ndarray, degree: int, *, lam: float = 0.0) -> np.ndarray:
    """Weights ``w_0..w_q`` minimising the SSE (6.3) (plus ``lambda/2 |w|^2`` if ``lam > 0``).

    ``q`` is the degree and ``lam`` the ridge penalty ``lambda``.  Uses
    :func:`lecture_pkg.learning.least_squares` (``lam = 0``; the minimum-norm solution when
    ``q + 1 > P``) or :func:`lecture_pkg.learning.ridge`.
    """
    V = polynomial_design(x, degree)
    if lam == 0:
        return regression.least_squares(V, y)
    return regression.ridge(V, y, lam)


@validate_args(coef=VECTOR, x=VECTOR)
def polynomial_predict(coef: np.ndarray, x: np.ndarray) -> np.ndarray:
    """``f_q(x) = sum_j w_j x^j`` (6.2) for weights ``w_0..w_q`` in increasing order."""
    if coef.size == 0:
        raise ValueError(f"coef must be a non-empty 1-d array, got shape {coef.shape}")
    return polynomial_design(x, coef.size - 1) @ coef


@validate_args(x_train=VECTOR, x_eval=VECTOR, degree=_DEGREE, lam=NON_NEGATIVE)
def polynomial_smoother(x_train: np.ndarray, x_eval: np.ndarray, degree: int, *,
                        lam: float = 0.0) -> np.ndarray:
    """The matrix ``L`` (len(x_eval), P) with ``f_H(x_eval) = L y`` for the polynomial fit.

    ``degree`` is ``q`` and ``lam`` the ridge penalty ``lambda`` (``0``: least squares).
    A least-squares (or ridge) fit is linear in the targets: fitting the unit vectors
    ``e_mu`` gives the columns of ``L``.  Built from :func:`fit_polynomial`, so it is the
    very estimator of Fig. 6.1; with ``L`` the fits of many data sets are one matrix
    product (:func:`bias_variance_monte_carlo`).
    """
    P = len(x_train)
    coefs = np.column_stack([fit_polynomial(x_train, np.eye(P)[mu], degree, lam=lam)
                             for mu in range(P)])                      # (q+1, P)
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


@validate_args(smoother=MATRIX, target=["callable", VECTOR], x_train=VECTOR, x_eval=VECTOR,
               noise=NON_NEGATIVE)
def bias_variance_linear(smoother: np.ndarray, target: Callable | np.ndarray, x_train: np.ndarray,
                         x_eval: np.ndarray, noise: float) -> BiasVariance:
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
    noise, L = float(noise), smoother
    if L.shape != (len(x_eval), len(x_train)):
        raise ValueError(f"smoother has shape {L.shape}, expected {(len(x_eval), len(x_train))}")
    mean = L @ _target_values(target, x_train)
    bias2 = (_target_values(target, x_eval) - mean) ** 2
    variance = noise**2 * np.sum(L**2, axis=1)
    return BiasVariance(bias2, variance, bias2 + variance, mean)


@validate_args(estimator=["callable", _Regressor(), MATRIX], target=["callable", VECTOR],
               x_train=VECTOR, x_eval=VECTOR, noise=NON_NEGATIVE, n_sets=COUNT,
               random_state="random_state")
def bias_variance_monte_carlo(estimator: np.ndarray | Callable | BaseEstimator,
                              target: Callable | np.ndarray, x_train: np.ndarray,
                              x_eval: np.ndarray, noise: float, n_sets: int, *,
                              random_state: np.random.Generator | int | None = None,
                              keep_predictions: bool = False) -> BiasVariance:
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
    rng = resolve_rng(random_state)
    noise, n_sets = float(noise), int(n_sets)
    f_train, f_eval = _target_values(target, x_train), _target_values(target, x_eval)
    Y = f_train[None, :] + noise * rng.standard_normal((n_sets, len(x_train)))
    if isinstance(estimator, np.ndarray):               # a smoother matrix (checked as MATRIX)
        L = estimator
        if L.shape != (len(x_eval), len(x_train)):
            raise ValueError(f"smoother has shape {L.shape}, "
                             f"expected {(len(x_eval), len(x_train))}")
        F = Y @ L.T
    elif hasattr(estimator, "fit") and hasattr(estimator, "predict"):
        from sklearn.base import clone
        F = np.array([clone(estimator).fit(x_train[:, None], y).predict(x_eval[:,
                                                                               None]) for y in Y])
    else:
        F = np.array([np.asarray(estimator(x_train, y, x_eval), dtype=float) for y in Y])
    if F.shape != (n_sets, len(x_eval)):
        raise ValueError(f"the estimator returned predictions of shape {F.shape[1:]}, "
                         f"expected ({len(x_eval)},)")
    mean = F.mean(axis=0)
    bias2 = (f_eval - mean) ** 2
    variance = np.mean((F - mean) ** 2, axis=0)
    mse = np.mean((F - f_eval) ** 2, axis=0)
    return BiasVariance(bias2, variance, mse, mean, F if keep_predictions else None)
