"""The cost family ``ℰ_k`` of Griniasty and Gutfreund, Biehl's ``H^[k]`` (Biehl §4.1.1).

:func:`cost_hk` and :func:`cost_hk_gradient` are the cost family
``ℰ_k(w) = sum_mu (c - E^mu)^k Theta[c - E^mu]`` of Griniasty and Gutfreund that
Biehl quotes as ``H^[k]`` in §4.1.1, with the local potentials ``E^mu = y^mu w . xi^mu``
(on augmented inputs when there is a bias): ``k -> 0`` with ``c = 0`` counts the errors
(:func:`lecture_pkg.linear.n_errors`, eq. 4.1), ``k = 1`` is the perceptron cost,
``k = 2`` the AdaTron cost.
"""

from __future__ import annotations

import numpy as np

from ..validation import FINITE, POSITIVE, as_plus_minus, check_inputs, validate_args

__all__ = [
    "cost_hk",
    "cost_hk_gradient",
]


def _hk_parts(w, X, y, k, c):
    X = check_inputs(X)
    y = as_plus_minus(y)
    w = np.asarray(w, dtype=float)
    if w.shape != (X.shape[1],) or len(y) != len(X):
        raise ValueError(f"w has shape {w.shape}, X {X.shape}, y {y.shape}: they do not fit")
    Z = y[:, None] * X
    gap = c - Z @ w                      # c - E^mu
    return Z, gap, gap > 0               # Theta[c - E] = 1 only for E < c


@validate_args(k=POSITIVE, c=FINITE)
def cost_hk(w: np.ndarray, X: np.ndarray, y: np.ndarray, k: float, c: float = 0.0) -> float:
    """``ℰ_k(w) = sum_mu (c - E^mu)^k Theta[c - E^mu]``, ``E^mu = y^mu w . xi^mu`` (Biehl §4.1.1).

    The family of costs studied by Griniasty and Gutfreund: only examples with
    ``E^mu < c`` cost anything, and they cost the ``k``-th power of their shortfall.

    * ``k -> 0`` with ``c = 0``: every example with ``E^mu < 0`` costs 1, so ``ℰ_k``
      tends to the number of errors (4.1) (which also counts ``E^mu = 0``);
    * ``k = 1``: the perceptron cost, piecewise linear (its minimum is ``w = 0`` when
      ``c = 0``, which is why a margin ``c > 0`` is needed);
    * ``k = 2``: the AdaTron cost, continuously differentiable.  On separable data every
      ``w`` of the version space scaled to ``min E^mu >= c`` has ``ℰ_2 = 0``, so the
      cost alone does not single out the perceptron of optimal stability.

    ``X`` are the inputs as the perceptron sees them (augmented for a bias); ``k > 0``.
    """
    _, gap, active = _hk_parts(w, X, y, k, c)
    return float(np.sum(gap[active] ** k))


@validate_args(k=POSITIVE, c=FINITE)
def cost_hk_gradient(w: np.ndarray, X: np.ndarray, y: np.ndarray, k: float,
                     c: float = 0.0) -> np.ndarray:
    """Gradient ``-k sum_mu (c - E^mu)^(k-1) Theta[c - E^mu] y^mu xi^mu`` of :func:`cost_hk`.

    Exact wherever no ``E^mu`` equals ``c``; at ``E^mu = c`` the cost is not differentiable
    for ``k <= 1`` and this returns the one-sided value of the inactive side (the term is
    left out).  Batch gradient descent ``w <- w - eta grad ℰ_k`` is the training rule of
    the family; for ``k = 1`` it adds ``eta y^mu xi^mu`` for every example with
    ``E^mu < c``, a batch version of Rosenblatt's rule.
    """
    Z, gap, active = _hk_parts(w, X, y, k, c)
    return -k * (gap[active] ** (k - 1)) @ Z[active]
