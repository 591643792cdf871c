"""Embedding strengths: the weights as a sum over the examples, and the correlation matrix
(Biehl §3.5–3.6).

Notation and conventions (the book's, see its page "Notation"; Biehl's letters in brackets):
inputs are the rows ``x^mu`` of ``X`` (shape ``(P, N)``; Biehl's ``xi^mu``), labels
``y^mu`` are ``+-1`` (his ``S_T^mu``).  Biehl's **1/N convention** is kept where the notes
use it: the weights are written through *embedding strengths* ``a^mu`` (his ``x^mu``) as
``w = (1/N) sum_mu a^mu y^mu x^mu`` (eqs. 3.13, 3.45, 3.55, 3.67), the correlation
matrix is ``Q^{mu nu} = (1/N) y^mu y^nu x^mu . x^nu`` (his ``C``, 3.58), and then
``E = Q a`` (3.59) and ``|w|^2 = a.Q a / N`` (3.60).  The factor never changes a
classifier; it changes the numbers ``E``, ``Q`` and ``a``.

* :func:`correlation_matrix` -- ``Q``, eq. (3.58);
* :func:`weights_from_embeddings` -- ``w`` from the embedding strengths, eqs. (3.13), (3.45).

MinOver (:mod:`~lecture_pkg.linear.minover`), the AdaTron
(:mod:`~lecture_pkg.linear.adatron`) and the AdaTron with errors
(:mod:`~lecture_pkg.linear.soft_margin`) run on ``Q`` and return ``w`` through these two;
the iterations on embedding strengths themselves (the kernel AdaTron's too) are in
:mod:`lecture_pkg.core.solvers`.
"""

from __future__ import annotations

import numpy as np

from ..validation import as_plus_minus, check_inputs

__all__ = [
    "correlation_matrix",
    "weights_from_embeddings",
]


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


def weights_from_embeddings(a: np.ndarray, X: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Weights ``w = (1/N) sum_mu a^mu y^mu x^mu`` from the embedding strengths ``a``, eqs.
    (3.13), (3.45)."""
    X = check_inputs(X)
    y = as_plus_minus(y)
    a = np.asarray(a, dtype=float)
    if a.shape != y.shape or len(y) != len(X):
        raise ValueError(f"need one embedding strength and one label per example; got a {a.shape}, "
                         f"y {y.shape}, X {X.shape}")
    return (a * y) @ X / X.shape[1]
