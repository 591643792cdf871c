"""Distance measures for prototype-based classifiers (Biehl, ch. 5).

Every function takes a batch of examples ``X`` (P, N) and a set of prototypes or
reference vectors ``W`` (M, N) and returns the (P, M) matrix of all pairwise
dissimilarities, computed with whole-array operations (no Python loop over pairs).

* :func:`squared_euclidean` -- ``d(w, xi) = (w - xi)^2``, the default of the chapter;
* :func:`minkowski` -- eq. (5.10), ``p = np.inf`` gives the maximum norm;
* :func:`inner_product_distance` -- eq. (5.11), the squared Euclidean distance written
  with inner products only;
* :func:`kernel_distance` -- eq. (5.12), the same with a kernel in place of the inner product;
* :func:`relevance_distance` / :func:`quadratic_form_distance` -- eqs. (5.13)-(5.14),
  ``delta_Lambda(w, xi) = (w - xi)^T Lambda (w - xi) = [Omega (w - xi)]^2``; with a fixed
  ``Lambda = Sigma^{-1}`` this is the (squared) Mahalanobis distance.

:func:`relevance_distance_gradients` gives the derivatives of ``delta_Lambda`` that
matrix relevance learning uses, in the corrected form of eq. (5.15).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from ..core.kernels import linear_kernel
from ..validation import ARRAY, MATRIX, POSITIVE_OR_INF, VECTOR, validate_args

# inputs X (P, N) and prototypes W (M, N), finite; a single vector is one row
_PAIR = dict(X=ARRAY, W=ARRAY)

__all__ = [
    "squared_euclidean",
    "euclidean",
    "minkowski",
    "inner_product_distance",
    "kernel_distance",
    "quadratic_form_distance",
    "relevance_distance",
    "relevance_distance_gradients",
    "mahalanobis_matrix",
]


def _pair(X, W) -> tuple[np.ndarray, np.ndarray]:
    X = np.asarray(X, dtype=float)
    W = np.asarray(W, dtype=float)
    if X.ndim == 1:
        X = X[None, :]
    if W.ndim == 1:
        W = W[None, :]
    if X.ndim != 2 or W.ndim != 2:
        raise ValueError(f"X and W must be 2-d arrays (rows are vectors); "
                         f"got shapes {X.shape}, {W.shape}")
    if X.shape[1] != W.shape[1]:
        raise ValueError(f"X has {X.shape[1]} features but W has {W.shape[1]}")
    return X, W


@validate_args(**_PAIR)
def squared_euclidean(X: np.ndarray, W: np.ndarray) -> np.ndarray:
    """Squared Euclidean distances ``(xi - w)^2`` of every row of ``X`` to every row of ``W``.

    Computed from the differences (not from inner products), so a vector has distance
    exactly 0 from itself.  Returns an array of shape (P, M).
    """
    X, W = _pair(X, W)
    diff = X[:, None, :] - W[None, :, :]
    return np.einsum("pmn,pmn->pm", diff, diff)


@validate_args(**_PAIR)
def euclidean(X: np.ndarray, W: np.ndarray) -> np.ndarray:
    """Euclidean distances ``|xi - w|``, shape (P, M)."""
    return np.sqrt(squared_euclidean(X, W))


@validate_args(**_PAIR, p=POSITIVE_OR_INF)
def minkowski(X: np.ndarray, W: np.ndarray, p: float = 2.0) -> np.ndarray:
    """Minkowski distances, Biehl eq. (5.10): ``d_p = [sum_j |xi_j - w_j|^p]^(1/p)``.

    Parameters
    ----------
    X : array (P, N)
    W : array (M, N)
    p : float
        ``p >= 1`` gives a metric; ``p = 2`` is the Euclidean distance, ``p = 1`` the
        city-block distance and ``p = np.inf`` the maximum ``max_j |xi_j - w_j|``.
        ``0 < p < 1`` is accepted (the formula is still defined) but is no metric.

    Returns
    -------
    array (P, M)
    """
    X, W = _pair(X, W)
    diff = np.abs(X[:, None, :] - W[None, :, :])
    if np.isinf(p):
        return diff.max(axis=2)
    if p == 2:
        return np.sqrt(np.einsum("pmn,pmn->pm", diff, diff))
    if p == 1:
        return diff.sum(axis=2)
    # scale by the largest component to avoid overflow for large p
    scale = diff.max(axis=2, keepdims=True)
    safe = np.where(scale > 0, scale, 1.0)
    return safe[..., 0] * ((diff / safe) ** p).sum(axis=2) ** (1.0 / p)


@validate_args(**_PAIR)
def inner_product_distance(X: np.ndarray, W: np.ndarray) -> np.ndarray:
    """Squared Euclidean distance from inner products only, Biehl eq. (5.11).

    ``d(w, xi)^2 = w.w - 2 w.xi + xi.xi``.  Mathematically equal to
    :func:`squared_euclidean`; numerically it can lose a few digits (and is clipped at 0)
    because it subtracts large numbers.  It is the form that :func:`kernel_distance`
    generalises.
    """
    X, W = _pair(X, W)
    d = (X * X).sum(axis=1)[:, None] - 2.0 * X @ W.T + (W * W).sum(axis=1)[None, :]
    return np.maximum(d, 0.0)


@validate_args(**_PAIR, kernel="callable")
def kernel_distance(X: np.ndarray, W: np.ndarray,
                    kernel: Callable[[np.ndarray, np.ndarray], np.ndarray] = linear_kernel
                    ) -> np.ndarray:
    """Kernelised squared distance, Biehl eq. (5.12).

    ``d_kappa(w, xi)^2 = kappa(w, w) - 2 kappa(w, xi) + kappa(xi, xi)``: the squared
    Euclidean distance of the two vectors after the (implicit) feature map of the
    kernel.  ``kernel(A, B)`` must return the Gram matrix of the rows of ``A`` and
    ``B``, e.g. the kernels of :mod:`lecture_pkg.kernel_machines` (the default,
    :func:`~lecture_pkg.kernel_machines.linear_kernel`, gives back the squared Euclidean
    distance; ``functools.partial(rbf_kernel, sigma=0.5)``), or a kernel from
    :mod:`sklearn.metrics.pairwise`.

    Only the diagonals ``kappa(x, x)`` and the cross terms are evaluated, so the cost
    is that of one (P, M) Gram matrix.  Tiny negative values from rounding are clipped to 0.
    """
    X, W = _pair(X, W)
    kxx = _kernel_diagonal(kernel, X)
    kww = _kernel_diagonal(kernel, W)
    kxw = np.asarray(kernel(X, W), dtype=float)
    if kxw.shape != (len(X), len(W)):
        raise ValueError(f"the kernel returned shape {kxw.shape}, expected {(len(X), len(W))}")
    return np.maximum(kxx[:, None] - 2.0 * kxw + kww[None, :], 0.0)


def _kernel_diagonal(kernel, A: np.ndarray) -> np.ndarray:
    """``kappa(a, a)`` for every row ``a`` of ``A``, from the kernel's own Gram routine.

    The Gram matrix is evaluated in diagonal blocks of at most ``block`` rows and only
    their diagonals are kept, so memory stays bounded for long ``A`` (e.g. a plotting grid).
    """
    block = 256
    return np.concatenate([np.diag(np.asarray(kernel(A[i:i + block], A[i:i + block]), dtype=float))
                           for i in range(0, len(A), block)])


@validate_args(**_PAIR, Lambda=MATRIX)
def quadratic_form_distance(X: np.ndarray, W: np.ndarray, Lambda: np.ndarray) -> np.ndarray:
    """Generalised quadratic distance ``(w - xi)^T Lambda (w - xi)``, Biehl eq. (5.13).

    ``Lambda`` (N, N) should be symmetric positive semi-definite; then the result is
    ``>= 0`` and is a pseudo-metric.  With ``Lambda = Sigma^{-1}``, the inverse
    covariance matrix of the data, it is the squared Mahalanobis distance (see
    :func:`mahalanobis_matrix`).
    """
    X, W = _pair(X, W)
    Lambda = np.asarray(Lambda, dtype=float)
    n = X.shape[1]
    if Lambda.shape != (n, n):
        raise ValueError(f"Lambda has shape {Lambda.shape}, expected ({n}, {n})")
    diff = X[:, None, :] - W[None, :, :]
    return np.einsum("pmi,ij,pmj->pm", diff, Lambda, diff)


@validate_args(**_PAIR, omega=MATRIX)
def relevance_distance(X: np.ndarray, W: np.ndarray, omega: np.ndarray) -> np.ndarray:
    """Matrix relevance distance ``delta_Lambda = [Omega (w - xi)]^2``, Biehl eqs. (5.13)-(5.14).

    ``Lambda = Omega^T Omega`` is positive semi-definite by construction, so the
    distance is never negative.  ``Omega`` may be rectangular, (K, N) with K < N,
    which gives a relevance matrix of rank at most K; the distance is then the squared
    Euclidean distance in the K-dimensional space ``Omega x``.

    The projections ``Omega xi`` and ``Omega w`` are computed once, so the cost is
    O((P + M) K N + P M K).
    """
    X, W = _pair(X, W)
    omega = np.asarray(omega, dtype=float)
    if omega.ndim != 2 or omega.shape[1] != X.shape[1]:
        raise ValueError(f"Omega must have shape (K, {X.shape[1]}), got {omega.shape}")
    return squared_euclidean(X @ omega.T, W @ omega.T)


@validate_args(xi=VECTOR, w=VECTOR, omega=MATRIX)
def relevance_distance_gradients(xi: np.ndarray, w: np.ndarray,
                                 omega: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Derivatives of ``delta_Lambda(w, xi)`` with respect to ``w`` and ``Omega`` (corrected
    eq. 5.15).

    With ``v = w - xi``:

    * ``d delta / d w = 2 Omega^T Omega (w - xi) = 2 Lambda v``;
    * ``d delta / d Omega = 2 Omega (w - xi)(w - xi)^T = 2 Omega v v^T``.

    Biehl's printed eq. (5.15) drops both factors 2 and has ``(xi - w)`` in the first
    line; the forms here are the exact derivatives.

    Returns
    -------
    grad_w : array (N,)
    grad_omega : array
        Of the shape of ``Omega``.
    """
    xi = np.asarray(xi, dtype=float)
    w = np.asarray(w, dtype=float)
    omega = np.asarray(omega, dtype=float)
    if xi.shape != w.shape or xi.ndim != 1 or omega.ndim != 2 or omega.shape[1] != len(w):
        raise ValueError(f"need xi, w of shape (N,) and Omega of shape (K, N); "
                         f"got {xi.shape}, {w.shape}, {omega.shape}")
    v = w - xi
    ov = omega @ v
    return 2.0 * omega.T @ ov, 2.0 * np.outer(ov, v)


@validate_args(X=MATRIX)
def mahalanobis_matrix(X: np.ndarray) -> np.ndarray:
    """``Omega = Sigma^{-1/2}`` for the covariance ``Sigma`` of the rows of ``X``.

    With this ``Omega``, :func:`relevance_distance` is the squared Mahalanobis distance
    ``(w - xi)^T Sigma^{-1} (w - xi)``: a fixed special case of eq. (5.13) with
    ``Lambda = Sigma^{-1}``.  Raises if the covariance matrix is singular.
    """
    X = np.asarray(X, dtype=float)
    if X.ndim != 2 or len(X) < 2:
        raise ValueError("need a 2-d array with at least two rows to estimate a covariance")
    sigma = np.atleast_2d(np.cov(X, rowvar=False))
    vals, vecs = np.linalg.eigh(sigma)
    if vals.min() <= 1e-12 * max(vals.max(), 1e-300):
        raise ValueError("the covariance matrix is singular; the Mahalanobis distance is undefined")
    return (vecs / np.sqrt(vals)) @ vecs.T
