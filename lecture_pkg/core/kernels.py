"""Kernels, Gram matrices and explicit feature maps (Biehl §4.3; Mooney's kernel slides).

Kernel functions take two sets of inputs ``A`` (shape ``(P, N)``) and ``B`` (shape
``(Q, N)``, default ``A``) and return the ``(P, Q)`` matrix ``K[i, j] = K(a_i, b_j)``.

Conventions
-----------
* **Linear** ``K(a, b) = a . b`` (Mooney).  Biehl's "linear" kernel (4.29) is the
  polynomial kernel with ``q = 1``, ``1 + a . b``: the ``1`` is a constant feature, i.e. a
  bias that is *penalised* together with the weights.
* **Polynomial** (4.28) ``K(a, b) = (coef0 + a . b)^degree``, ``coef0 = 1`` as in both
  sources.
* **RBF / Gaussian** (4.31) ``K(a, b) = exp(-gamma |a - b|^2)``.  The package's width
  parameter is ``gamma``, as in scikit-learn.  The sources write a width ``sigma``:

  ==========================  =================================  ======================
  source                      formula                            ``gamma``
  ==========================  =================================  ======================
  Biehl (4.31), Mooney        ``exp(-|a-b|^2 / (2 sigma^2))``     ``1 / (2 sigma^2)``
  Frieß and Harrison (eq. 6)  ``exp(-|a-b|^2 / sigma^2)``         ``1 / sigma^2``
  ==========================  =================================  ======================

  :func:`gamma_from_sigma` converts (``convention="biehl"`` (= ``"mooney"``) or
  ``"friess"``), and :func:`rbf_kernel` accepts ``sigma=`` with a ``convention=``.
* Biehl's kernel (4.23) carries a factor ``1/M`` (the feature-space dimension) that
  (4.28)–(4.31) drop (erratum E.12).  Here no such factor is used: the kernels are
  plain inner products of feature vectors.  This rescales the embedding strengths,
  ``gamma`` of the soft margin and the learning rate, never the classifier.

Mercer's condition (4.27) in its finite form: every Gram matrix of a valid kernel is
positive semi-definite.  :func:`check_gram` tests a user-supplied matrix and raises
:class:`NotPSDError` (or warns with :class:`NotPSDWarning`) when it is not.

Public API (used by :mod:`lecture_pkg.kernel_machines.svm` and later chapters)
--------------------------------------------------------------
``linear_kernel``, ``polynomial_kernel``, ``rbf_kernel``, ``gamma_from_sigma``,
``kernel_matrix`` (by name or callable), ``KERNELS``, ``is_psd``, ``check_gram``,
``quadratic_feature_map`` (4.30), ``dietrich_map`` (Fig. 4.4),
``polynomial_feature_dimension``, ``monomial_exponents`` and ``polynomial_feature_map``
(the explicit map of ``(coef0 + a . b)^degree`` for any degree, Mooney's slides).
"""

from __future__ import annotations

import itertools
import math
import numbers
from collections.abc import Callable

import numpy as np

from ..validation import (ARRAY, COUNT, FINITE, MATRIX, NON_NEGATIVE, POSITIVE, Interval, Options,
                          check_inputs, validate_args, warn_user)

__all__ = [
    "NotPSDError",
    "NotPSDWarning",
    "linear_kernel",
    "polynomial_kernel",
    "gamma_from_sigma",
    "rbf_kernel",
    "KERNELS",
    "kernel_matrix",
    "min_eigenvalue",
    "is_psd",
    "check_gram",
    "check_gram_memory",
    "quadratic_feature_map",
    "DIETRICH_NORMAL",
    "dietrich_map",
    "polynomial_feature_dimension",
    "monomial_exponents",
    "polynomial_feature_map",
]


class NotPSDError(ValueError):
    """A Gram matrix is not positive semi-definite, so it is no Mercer kernel (4.27)."""


class NotPSDWarning(UserWarning):
    """A Gram matrix has (slightly) negative eigenvalues."""


_BLOCK = 1 << 16                 # elements per block of the in-place kernel computations


def _available_memory() -> int | None:
    """Bytes of memory available to a new allocation (``MemAvailable`` of ``/proc/meminfo``).

    ``None`` where it cannot be read (not Linux, or an old kernel): then no check is made.
    """
    try:
        with open("/proc/meminfo", encoding="ascii") as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    fields = line.split()
                    return int(fields[1]) * (1024 if fields[2:3] == ["kB"] else 1)
    except (OSError, ValueError, IndexError):
        return None
    return None


_SIZE = Interval(numbers.Integral, 0, None)              # a number of rows: 0, 1, 2, ...
_CONVENTION = Options("biehl", "mooney", "friess")


@validate_args(P=_SIZE, Q=[_SIZE, None])
def check_gram_memory(P: int, Q: int | None = None, *, what: str = "the Gram matrix") -> None:
    """Refuse a ``(P, Q)`` float64 array (default ``Q = P``) that does not fit in memory.

    Raises :class:`MemoryError` naming ``P``, the bytes needed and the bytes available
    *before* anything is allocated; does nothing where the available memory is unknown.
    """
    Q = P if Q is None else Q
    needed = 8 * int(P) * int(Q)
    available = _available_memory()
    if available is not None and needed > available:
        raise MemoryError(
            f"{what} of P = {P} examples needs a {P} x {Q} array of float64, "
            f"{needed:,} bytes ({needed / 1e9:.2f} GB), but only {available:,} bytes "
            f"({available / 1e9:.2f} GB) are available (MemAvailable in /proc/meminfo); "
            "use fewer training examples")


def _pair(A, B):
    """``A`` and ``B`` (``A`` for ``None``), checked by the callers' ``validate_args``, with
    the same number of features."""
    B = A if B is None else B
    if A.shape[1] != B.shape[1]:
        raise ValueError(f"A has {A.shape[1]} features but B has {B.shape[1]}")
    return A, B


@validate_args(A=MATRIX, B=[MATRIX, None])
def linear_kernel(A: np.ndarray, B: np.ndarray | None = None) -> np.ndarray:
    """``K(a, b) = a . b`` (Mooney's linear kernel; the feature map is the identity)."""
    A, B = _pair(A, B)
    return A @ B.T


@validate_args(A=MATRIX, B=[MATRIX, None], degree=COUNT, coef0=FINITE)
def polynomial_kernel(A: np.ndarray, B: np.ndarray | None = None, degree: int = 2,
                      coef0: float = 1.0) -> np.ndarray:
    """``K(a, b) = (coef0 + a . b)^degree``, Biehl eq. (4.28) with ``q = degree``.

    ``degree = 1, coef0 = 1`` is Biehl's linear kernel (4.29); ``degree = 2`` is (4.30).
    """
    A, B = _pair(A, B)
    K = A @ B.T                  # the only (P, Q) array: the rest is done in place
    K += float(coef0)
    K **= int(degree)
    return K


@validate_args(sigma=POSITIVE, convention=_CONVENTION)
def gamma_from_sigma(sigma: float, convention: str = "biehl") -> float:
    """The ``gamma`` of ``exp(-gamma |a-b|^2)`` for a source's width ``sigma``.

    ``convention="biehl"`` or ``"mooney"``: ``exp(-|a-b|^2 / (2 sigma^2))``, so
    ``gamma = 1 / (2 sigma^2)``.  ``"friess"``: ``exp(-|a-b|^2 / sigma^2)`` (Frieß and
    Harrison's eq. 6), so ``gamma = 1 / sigma^2``.  A ``sigma`` so small or so large that
    ``gamma`` over- or underflows (``sigma < 1e-154`` or ``> 1e154``, roughly) is refused.
    """
    factor = {"biehl": 2.0, "mooney": 2.0, "friess": 1.0}[convention]
    sigma = float(sigma)
    gamma = 1.0 / (factor * sigma * sigma) if factor * sigma * sigma > 0.0 else math.inf
    if not 0.0 < gamma < math.inf:
        raise ValueError(f"gamma_from_sigma: sigma = {sigma!r} gives no finite positive gamma "
                         f"= 1 / ({factor:g} sigma^2); use a width between 1e-150 and 1e150")
    return gamma


@validate_args(A=MATRIX, B=[MATRIX, None], gamma=[POSITIVE, None], sigma=[POSITIVE, None],
               convention=_CONVENTION)
def rbf_kernel(A: np.ndarray, B: np.ndarray | None = None, gamma: float | None = None, *,
               sigma: float | None = None, convention: str = "biehl") -> np.ndarray:
    """Gaussian kernel ``K(a, b) = exp(-gamma |a - b|^2)``, Biehl eq. (4.31).

    Give either ``gamma`` or a width ``sigma`` with its ``convention`` (see
    :func:`gamma_from_sigma`); with neither, ``gamma = 1 / N``.  The diagonal of a Gram
    matrix is exactly 1.
    """
    if gamma is not None and sigma is not None:
        raise ValueError("give gamma or sigma, not both")
    A, B = _pair(A, B)
    if sigma is not None:
        gamma = gamma_from_sigma(sigma, convention)
    elif gamma is None:
        gamma = 1.0 / A.shape[1]
    # |a - b|^2 = |a|^2 + |b|^2 - 2 a.b, then exp(-gamma max(0, .)), all in the one (P, Q)
    # array of the inner products, a block of rows at a time (the same operations on
    # every element as the expression written out, so the same numbers).
    K = A @ B.T
    norms_a, norms_b = np.einsum("ij,ij->i", A, A), np.einsum("ij,ij->i", B, B)
    scale = -float(gamma)
    step = max(1, _BLOCK // max(1, K.shape[1]))
    for start in range(0, len(K), step):
        block = K[start:start + step]
        np.multiply(block, -2.0, out=block)
        block += norms_a[start:start + step, None] + norms_b[None, :]
        np.maximum(block, 0.0, out=block)
        block *= scale
        np.exp(block, out=block)
    if B is A:
        np.fill_diagonal(K, 1.0)
    return K


KERNELS: dict[str, Callable] = {"linear": linear_kernel, "poly": polynomial_kernel,
                                "rbf": rbf_kernel}


@validate_args(A=MATRIX, B=[MATRIX, None], kernel=[Options("linear", "poly", "rbf"), "callable"])
def kernel_matrix(A: np.ndarray, B: np.ndarray | None = None, kernel: str | Callable = "rbf",
                  **params: float) -> np.ndarray:
    """Gram matrix ``K[i, j] = K(a_i, b_j)`` for a kernel given by name or as a callable.

    Names: ``"linear"``, ``"poly"`` (``degree``, ``coef0``), ``"rbf"`` (``gamma`` or
    ``sigma``/``convention``).  A callable is called as ``kernel(A, B, **params)`` and
    must return a ``(len(A), len(B))`` array.
    """
    if isinstance(kernel, str):
        with np.errstate(over="ignore", invalid="ignore"):     # an overflow is refused below
            K = KERNELS[kernel](A, B, **params)
    else:
        A, B = _pair(A, B)
        K = np.asarray(kernel(A, B, **params), dtype=float)
        if K.shape != (len(A), len(B)):
            raise ValueError(f"the kernel returned shape {K.shape}, expected {(len(A), len(B))}")
    # every kernel machine meets its Gram matrix here: NaN from a callable, or an
    # overflow of a named kernel on large inputs, is refused in the same words
    name = kernel if isinstance(kernel, str) else getattr(kernel, "__name__", kernel)
    return check_inputs(K, f"the Gram matrix of the kernel {name!r}")


@validate_args(K=ARRAY)
def min_eigenvalue(K: np.ndarray) -> float:
    """Smallest eigenvalue of the symmetric part of a square matrix."""
    K = np.asarray(K, dtype=float)
    if K.ndim != 2 or K.shape[0] != K.shape[1] or K.size == 0:
        raise ValueError(f"a Gram matrix is square and non-empty, got shape {K.shape}")
    return float(np.linalg.eigvalsh(0.5 * (K + K.T))[0])


@validate_args(K=ARRAY, tol=NON_NEGATIVE)
def is_psd(K: np.ndarray, tol: float = 1e-10) -> bool:
    """True if ``K`` is symmetric and its eigenvalues are ``>= -tol * max(1, |K|_max)``.

    ``False`` for an array that is not a square matrix; NaN or infinity in ``K`` are refused.
    """
    K = np.asarray(K, dtype=float)
    scale = max(1.0, float(np.abs(K).max())) if K.size else 1.0
    if K.ndim != 2 or K.shape[0] != K.shape[1]:
        return False
    if not np.allclose(K, K.T, rtol=0.0, atol=tol * scale):
        return False
    return min_eigenvalue(K) >= -tol * scale


@validate_args(K=MATRIX, tol=NON_NEGATIVE, action=Options("raise", "warn"))
def check_gram(K: np.ndarray, *, tol: float = 1e-8, action: str = "raise") -> np.ndarray:
    """Check a (user-supplied) Gram matrix against Mercer's condition; return it as floats.

    Raises ``ValueError`` for a non-square, non-finite or non-symmetric matrix.  When
    the smallest eigenvalue is below ``-tol * max(1, |K|_max)``, ``action="raise"``
    raises :class:`NotPSDError` and ``action="warn"`` issues a :class:`NotPSDWarning`
    (the AdaTron then still runs, but its dual need not have a maximum).
    """
    if K.shape[0] != K.shape[1] or K.size == 0:
        raise ValueError(f"a Gram matrix is square and non-empty, got shape {K.shape}")
    scale = max(1.0, float(np.abs(K).max()))
    if not np.allclose(K, K.T, rtol=0.0, atol=tol * scale):
        raise NotPSDError("the Gram matrix is not symmetric, so it is no kernel matrix")
    lam = min_eigenvalue(K)
    if lam < -tol * scale:
        message = (f"the Gram matrix is not positive semi-definite (smallest eigenvalue "
                   f"{lam:.3g}), so the kernel violates Mercer's condition (4.27)")
        if action == "raise":
            raise NotPSDError(message)
        warn_user(message, NotPSDWarning)
    return K


@validate_args(X=MATRIX)
def quadratic_feature_map(X: np.ndarray) -> np.ndarray:
    """Explicit feature map of the quadratic kernel ``(1 + a . b)^2``, Biehl eq. (4.30).

    For ``x`` in ``R^N`` the features are ``1``, ``sqrt(2) x_j`` (``N``), ``x_j^2``
    (``N``) and ``sqrt(2) x_j x_k`` for ``j < k`` (``N (N - 1) / 2``): a constant plus
    ``M = N (N + 3) / 2`` non-constant features, and
    ``Psi(a) . Psi(b) = (1 + a . b)^2`` exactly.
    """
    P, N = X.shape
    j, k = np.triu_indices(N, k=1)
    return np.hstack([np.ones((P, 1)), np.sqrt(2.0) * X, X ** 2,
                      np.sqrt(2.0) * X[:, j] * X[:, k]])


DIETRICH_NORMAL = np.array([1.0, 1.0, -1.0])
"""The normal ``W = (1, 1, -1)`` of the separating plane in Dietrich's example (Fig. 4.4)."""


@validate_args(X=MATRIX)
def dietrich_map(X: np.ndarray, squared: bool = True) -> np.ndarray:
    """Dietrich's map of Fig. 4.4: ``Psi(x) = (x_1^2, sqrt(2) x_1 x_2, x_2^2)``.

    The notes print the last component as ``x_2`` (erratum E.9); ``squared=False``
    gives that literal version.  With ``squared=True``
    ``Psi(a) . Psi(b) = (a . b)^2``, the homogeneous quadratic kernel.
    """
    if X.shape[1] != 2:
        raise ValueError(f"Dietrich's map acts on 2-d inputs, got {X.shape[1]} features")
    x1, x2 = X[:, 0], X[:, 1]
    return np.column_stack([x1 ** 2, np.sqrt(2.0) * x1 * x2, x2 ** 2 if squared else x2])


@validate_args(n_features=COUNT, degree=_SIZE)
def polynomial_feature_dimension(n_features: int, degree: int) -> int:
    """``binom(N + q, q)``: the number of monomials of degree ``<= q`` in ``N`` variables.

    This is the dimension of the feature space of ``(1 + a . b)^q`` (Mooney's slides);
    for ``q = 2`` it is ``1 + N (N + 3) / 2``.
    """
    return math.comb(int(n_features) + int(degree), int(degree))


@validate_args(n_features=COUNT, degree=_SIZE)
def monomial_exponents(n_features: int, degree: int) -> np.ndarray:
    """Exponents ``k = (k_1, ..., k_N)`` of all monomials ``x^k`` of total degree ``<= degree``.

    Returns an integer array of shape ``(binom(N + q, q), N)``, ordered by total degree
    and, within a degree, lexicographically from the largest power of ``x_1`` down.
    There are :func:`polynomial_feature_dimension` rows: a monomial of degree ``<= q`` in
    ``N`` variables is a monomial of degree exactly ``q`` in the ``N + 1`` variables
    ``(1, x_1, ..., x_N)``, and those are counted by placing ``q`` balls in ``N + 1``
    boxes.
    """
    N, q = int(n_features), int(degree)
    rows = []
    for total in range(q + 1):
        # compositions of `total` into N non-negative parts, lexicographically descending
        for combo in itertools.combinations_with_replacement(range(N), total):
            k = np.zeros(N, dtype=int)
            np.add.at(k, list(combo), 1)
            rows.append(k)
    K = np.array(rows, dtype=int).reshape(-1, N)
    order = np.lexsort(tuple(-K[:, j] for j in range(N - 1, -1, -1)) + (K.sum(axis=1),))
    return K[order]


@validate_args(X=MATRIX, degree=_SIZE, coef0=NON_NEGATIVE)
def polynomial_feature_map(X: np.ndarray, degree: int, coef0: float = 1.0) -> np.ndarray:
    """Explicit feature map ``Psi`` of the polynomial kernel ``(coef0 + a . b)^degree``.

    By the multinomial theorem, with ``k_0 = q - |k|``,

        ``(c + a . b)^q = sum_{k_0 + k_1 + ... + k_N = q} q! / (k_0! k_1! ... k_N!)
        c^{k_0} prod_j (a_j b_j)^{k_j}``,

    so the feature of the monomial ``x^k`` (exponents from :func:`monomial_exponents`) is
    ``sqrt(q! / (k_0! k_1! ... k_N!) c^{k_0}) x^k`` and ``Psi(a) . Psi(b) = (c + a . b)^q``.
    There are ``binom(N + q, q)`` features (:func:`polynomial_feature_dimension`); for
    ``q = 2`` they are those of :func:`quadratic_feature_map` in another order.
    ``coef0 = 0`` gives the homogeneous kernel ``(a . b)^q``; its lower-degree features are
    then identically zero and are kept so that the layout does not depend on ``coef0``.

    Examples
    --------
    >>> from lecture_pkg.kernel_machines import polynomial_feature_map
    >>> import numpy as np
    >>> a, b = np.array([[1.0, 2.0]]), np.array([[0.5, -1.0]])
    >>> round(float((polynomial_feature_map(a, 3) @ polynomial_feature_map(b, 3).T)[0, 0]), 12)
    -0.125
    """
    exps = monomial_exponents(X.shape[1], degree)
    q = int(degree)
    k0 = q - exps.sum(axis=1)
    log_fact = np.array([math.lgamma(i + 1) for i in range(q + 1)])
    coef = np.exp(log_fact[q] - log_fact[k0] - log_fact[exps].sum(axis=1))
    coef = np.rint(coef)                       # multinomial coefficients are integers
    coef = coef * float(coef0) ** k0 if coef0 != 1.0 else coef
    # x^k for every row: product over features of x_j^{k_j}
    powers = np.prod(X[:, None, :] ** exps[None, :, :], axis=2)
    return powers * np.sqrt(coef)[None, :]
