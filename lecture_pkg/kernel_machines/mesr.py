"""Minimal expansion set reduction (MESR), Frieß and Harrison (1998), §3.

A kernel machine's decision function is an expansion (eq. 17)

    ``f(x) = sum_i beta_i k(x_i, x) + b``,   ``w = sum_i beta_i phi(x_i)``,

over the expansion vectors ``x_i`` (support vectors, or the patterns with non-zero
multipliers).  The function determines ``w``, not the expansion: when some
``phi(x_i) = sum_j gamma_j phi(x_j)`` (eq. 19), pattern ``i`` can be dropped and its
multiplier handed on, ``beta_j <- beta_j + beta_i gamma_j`` (the paper's update, printed
as a second "(20)"), without changing ``f`` anywhere.  Theorem 1: such feature-space
dependencies are exactly the row dependencies of the Gram matrix ``M`` (eq. 20), with
the same coefficients, so everything is computed from kernel values.

The paper's loop removes one dependent vector at a time, ``l_sv - rank(M)`` times.
:func:`mesr` does the same work in one pass: it visits the vectors in an order (the
ones to keep first; by default the natural order, or by increasing ``priority`` so that,
e.g., the support vector with the largest slack is removed first as the paper advises)
and keeps a Cholesky factor of the Gram matrix of the vectors kept so far.  A vector
whose squared feature-space distance to their span is at most ``tol`` times its squared
norm,

    ``||phi(x_i) - sum_j gamma_j phi(x_j)||^2 = M_ii - 2 gamma.M_Ji + gamma.M_JJ gamma
    <= tol M_ii``,

is removed and expressed in the kept ones; the others are kept.  The kept vectors are
linearly independent (at ``tol``), which is what makes each dependency unique
(Theorem 1's "exactly one").  Removing a vector changes ``f(x)`` by at most
``|beta_i| r_i sqrt(k(x, x))`` (Cauchy–Schwarz, ``r_i`` the residual norm), and
:attr:`MESRResult.change_bound` adds these up.

Exact reductions exist only in finite-dimensional feature spaces (linear and polynomial
kernels) or for repeated patterns; an RBF Gram matrix of distinct points has full rank,
so there MESR removes nothing at a strict tolerance, warns with
:class:`NoReductionWarning`, and any "compression" at a looser tolerance is lossy (the
bound says how much).

Compression ratio: ``T_MESR = rank / l`` (kept vectors over training patterns), never
above the leave-one-out support-vector ratio ``n_SV / l`` (Vapnik's bound on the
leave-one-out error of a separating SVM).
"""

from __future__ import annotations

import numbers
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from scipy.linalg import solve_triangular

from ..results import format_small
from ..validation import COUNT, MATRIX, VECTOR, Array, Interval, validate_args, warn_user

__all__ = [
    "NoReductionWarning",
    "MESRResult",
    "mesr",
    "expansion_rank",
    "row_dependency",
    "feature_space_residual",
    "t_mesr",
    "loo_ratio",
]

_NOISE = 1e-6
"""Changes of the decision function below this are printed as a bound, not as digits:
removing an exactly dependent vector changes nothing in exact arithmetic, and what the
computation leaves (about the square root of the rounding error) differs between CPUs."""


def _at_most(bound: float) -> str:
    """``"<= 0.0012"`` for a real bound, ``"< 1e-6"`` for one that is only rounding error."""
    text = format_small(bound, _NOISE)
    return text if text.startswith("<") else f"<= {text}"


class NoReductionWarning(UserWarning):
    """MESR found no expansion vector dependent on the others at the tolerance used."""


def _gram(M) -> np.ndarray:
    """``M`` (a finite matrix, checked by ``validate_args``) as a Gram matrix: square."""
    if M.shape[0] != M.shape[1] or M.size == 0:
        raise ValueError(f"the Gram matrix of the expansion vectors must be square and non-empty, "
                         f"got shape {M.shape}")
    return M


_TOL = Interval(numbers.Real, 0, 1, closed="neither")
_INDEX = Interval(numbers.Integral, 0, None)             # a row of M: 0, 1, 2, ...
_SIZE = Interval(numbers.Integral, 0, None)


@dataclass
class MESRResult:
    """Result of :func:`mesr`.

    ``kept`` and ``removed`` index the original expansion vectors (``removed`` in the
    order of removal); ``beta`` holds the new multipliers of the ``kept`` vectors;
    ``coefficients[r]`` the ``gamma`` expressing removed vector ``r`` in ``kept``;
    ``residuals`` the relative feature-space residuals ``r_i / sqrt(M_ii)`` of the
    removed vectors; ``change_bound`` ``= sum |beta_i| r_i``, a bound on
    ``|Delta f(x)| / sqrt(k(x, x))`` for every ``x``; ``change_on_vectors`` the largest
    actual ``|Delta f|`` on the original expansion vectors; ``message`` a summary.
    """

    kept: np.ndarray
    removed: np.ndarray
    beta: np.ndarray
    coefficients: np.ndarray
    residuals: np.ndarray
    tol: float
    change_bound: float
    change_on_vectors: float
    message: str

    @property
    def rank(self) -> int:
        """Number of kept vectors: the numerical rank of ``M`` at the tolerance."""
        return len(self.kept)

    @property
    def n_vectors(self) -> int:
        """Number of original expansion vectors, kept and removed."""
        return len(self.kept) + len(self.removed)

    def full_beta(self) -> np.ndarray:
        """The new multipliers on all original vectors (zero for the removed ones)."""
        out = np.zeros(self.n_vectors)
        out[self.kept] = self.beta
        return out

    def decision_change(self, K_test: np.ndarray, beta: np.ndarray) -> float:
        """``max |f_old - f_new|`` on test points, from ``K_test[t, i] = k(x_t, x_i)``
        (all original vectors) and the original multipliers ``beta``."""
        K_test = np.asarray(K_test, dtype=float)
        if K_test.ndim != 2 or K_test.shape[1] != self.n_vectors:
            raise ValueError(f"K_test needs one column per original expansion vector "
                             f"({self.n_vectors}), got shape {K_test.shape}")
        return float(np.abs(K_test @ np.asarray(beta, dtype=float)
                            - K_test[:, self.kept] @ self.beta).max(initial=0.0))


@validate_args(M=MATRIX, beta=Array(1, rows_of="M"), tol=_TOL,
               priority=[Array(1, rows_of="M"), None])
def mesr(M: np.ndarray, beta: np.ndarray, *, tol: float = 1e-10, priority: np.ndarray | None = None,
         warn: bool = True) -> MESRResult:
    """Minimal expansion set reduction of ``f = sum_i beta_i k(x_i, .)``, §3.

    Parameters
    ----------
    M : array (n, n)
        Gram matrix of the expansion vectors, ``M_ij = k(x_i, x_j)`` (positive
        semi-definite).
    beta : array (n,)
        Their multipliers (for an SVM ``alpha_i y_i``; a bias is not affected).
    tol : float in (0, 1)
        A vector is dependent when its squared feature-space distance to the span of
        the kept vectors is at most ``tol`` times its squared norm.
    priority : array (n,), optional
        Vectors with larger priority are removed first when dependent (e.g. the slacks
        ``max(0, 1 - y_i f(x_i))``); default: the later vectors are removed first.
    warn : bool
        Issue a :class:`NoReductionWarning` when nothing can be removed.
    """
    M = _gram(M)
    n = len(M)
    if priority is None:
        order = np.arange(n)
    else:
        order = np.argsort(priority, kind="stable")    # keep low priority first
    diag = np.diag(M)
    if np.any(diag < -1e-12 * max(1.0, np.abs(M).max())):
        raise ValueError("the Gram matrix has a negative diagonal entry, so it is no kernel matrix")
    L = np.zeros((n, n))                     # Cholesky factor of M[kept, kept], grown row by row
    kept: list[int] = []
    removed: list[tuple[int, int, np.ndarray, float]] = []    # (vector, m, l-vector, r2)
    for i in order:
        m = len(kept)
        lvec = solve_triangular(L[:m, :m], M[kept, i], lower=True) if m else np.empty(0)
        r2 = float(M[i, i] - lvec @ lvec)
        if r2 <= tol * max(float(M[i, i]), 0.0):
            removed.append((int(i), m, lvec, max(r2, 0.0)))
        else:
            L[m, :m] = lvec
            L[m, m] = np.sqrt(r2)
            kept.append(int(i))
    kept_arr = np.array(kept, dtype=int)
    new_beta = beta[kept_arr].copy()
    coefficients = np.zeros((len(removed), len(kept)))
    residuals = np.zeros(len(removed))
    bound = 0.0
    for r, (i, m, lvec, r2) in enumerate(removed):
        gamma = solve_triangular(L[:m, :m].T, lvec, lower=False) if m else np.empty(0)
        coefficients[r, :m] = gamma
        new_beta[:m] += beta[i] * gamma
        residuals[r] = np.sqrt(r2 / M[i, i]) if M[i, i] > 0 else 0.0
        bound += abs(beta[i]) * np.sqrt(r2)
    change = float(np.abs(M @ beta - M[:, kept_arr] @ new_beta).max())
    removed_arr = np.array([t[0] for t in removed], dtype=int)
    if len(removed):
        message = (f"removed {len(removed)} of {n} expansion vectors at tol={tol:g} "
                   f"({len(kept)} kept); |Delta f| {_at_most(bound)} sqrt(k(x, x)), "
                   f"largest change on the expansion vectors {format_small(change, _NOISE)}")
    else:
        smallest = float(min((L[k, k] ** 2 / M[kept[k], kept[k]]) for k in range(len(kept))))
        message = (f"nothing could be removed: no expansion vector is linearly dependent on "
                   f"the others in feature space at tol={tol:g} (all {n} kept; the smallest "
                   f"relative squared residual was {smallest:.2g})")
        if warn:
            warn_user(message, NoReductionWarning)
    return MESRResult(kept_arr, removed_arr, new_beta, coefficients, residuals, float(tol),
                      float(bound), change, message)


@validate_args(M=MATRIX, tol=_TOL)
def expansion_rank(M: np.ndarray, tol: float = 1e-10) -> int:
    """Numerical rank of a Gram matrix: singular values above ``tol`` times the largest,
    eq. (18)."""
    M = _gram(M)
    s = np.linalg.svd(M, compute_uv=False)
    return int(np.sum(s > tol * s[0])) if s[0] > 0 else 0


@validate_args(M=MATRIX, i=_INDEX, others="array-like")
def row_dependency(M: np.ndarray, i: int,
                   others: Sequence[int] | np.ndarray) -> tuple[np.ndarray, float]:
    """The ``delta`` of eq. (20): row ``i`` of ``M`` as a combination of the rows ``others``.

    Least squares over **all** columns of ``M`` (the paper prints a shorter column
    range); returns ``delta`` and the relative residual of the row equation.
    """
    M = _gram(M)
    others = np.asarray(others, dtype=int)
    if i >= len(M) or np.any((others < 0) | (others >= len(M))):
        raise ValueError("row indices out of range")
    if i in others:
        raise ValueError(f"row {i} cannot be one of the rows that express it")
    delta, *_ = np.linalg.lstsq(M[others].T, M[i], rcond=None)
    res = np.linalg.norm(M[others].T @ delta - M[i]) / max(np.linalg.norm(M[i]), 1e-300)
    return delta, float(res)


@validate_args(M=MATRIX, i=_INDEX, others="array-like", coefficients=VECTOR)
def feature_space_residual(M: np.ndarray, i: int, others: Sequence[int] | np.ndarray,
                           coefficients: np.ndarray) -> float:
    """``||phi(x_i) - sum_j c_j phi(x_j)||^2`` from kernel values only (proof of Theorem 1).

    ``= M_ii - 2 c.M_{J,i} + c.M_{J,J} c`` with ``J = others``; zero exactly when
    ``phi(x_i)`` is the combination.
    """
    M = _gram(M)
    J = np.asarray(others, dtype=int)
    c = coefficients
    if i >= len(M) or np.any((J < 0) | (J >= len(M))):
        raise ValueError("row indices out of range")
    if c.shape != J.shape:
        raise ValueError("one coefficient per row in others is needed")
    return float(M[i, i] - 2.0 * c @ M[J, i] + c @ M[np.ix_(J, J)] @ c)


@validate_args(rank=_SIZE, n_train=COUNT)
def t_mesr(rank: int, n_train: int) -> float:
    """The compression ratio ``T_MESR = rank(P) / l``."""
    if rank > n_train:
        raise ValueError(f"need 0 <= rank <= n_train and n_train >= 1, got {rank}, {n_train}")
    return rank / n_train


@validate_args(n_support=_SIZE, n_train=COUNT)
def loo_ratio(n_support: int, n_train: int) -> float:
    """Vapnik's leave-one-out bound for a separating SVM, ``n_SV / l``."""
    if n_support > n_train:
        raise ValueError(f"need 0 <= n_support <= n_train and n_train >= 1, "
                         f"got {n_support}, {n_train}")
    return n_support / n_train
