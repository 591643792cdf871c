"""Rows of ``Gamma = y y^T K`` computed on demand and kept in a bounded cache.

The greedy solver (SMO) reads two rows of ``Gamma`` per step and one entry of the
diagonal; it never needs the whole ``P x P`` matrix at once.  For large ``P`` that
matrix does not fit in memory (``P = 20 000`` is 3.2 GB), so :class:`KernelRows`
computes a row when it is first asked for and keeps the most recently used rows up to
``cache_size`` megabytes, as libsvm's kernel cache does (scikit-learn's ``SVC`` has the
same parameter).  The solver sees an object with the few operations it uses on a matrix:
``len``, a row by index, ``item(i, j)``, ``diagonal()`` and ``@`` with a vector.
"""

from __future__ import annotations

from collections import OrderedDict

import numpy as np

from .kernels import kernel_matrix

__all__ = ["KernelRows"]

_COLUMN_BLOCK = 512          # columns per kernel evaluation in a product with a vector


class KernelRows:
    """``Gamma^{mu nu} = y^mu y^nu K(x^mu, x^nu)`` row by row, with an LRU cache.

    Parameters
    ----------
    X : array (P, N)
        The training inputs.
    y : array (P,)
        Labels ``+-1``.
    kernel : str or callable, and ``params``
        As for :func:`lecture_pkg.kernel_machines.kernel_matrix`.
    cache_size : float
        Megabytes of rows to keep (at least two rows are always kept: a step needs two).
    """

    def __init__(self, X: np.ndarray, y: np.ndarray, kernel, params: dict, cache_size: float):
        self.X = np.asarray(X, dtype=float)
        self.y = np.asarray(y, dtype=float)
        self.kernel, self.params = kernel, dict(params)
        P = len(self.X)
        self.shape = (P, P)
        self.max_rows = max(2, int(cache_size * 2**20 // (8 * P)))
        self._rows: OrderedDict[int, np.ndarray] = OrderedDict()
        self.n_computed = 0                    # rows computed (cache misses), for the curious
        self._diagonal = None
        self._sq_norms = None

    def __len__(self) -> int:
        return self.shape[0]

    def _kernel(self, A: np.ndarray) -> np.ndarray:
        """``K(z, x^nu)`` for the rows ``z`` of ``A`` and every example ``nu``."""
        if self.kernel == "rbf" and set(self.params) == {"gamma"}:
            # exp(-gamma |z - x|^2) with |z - x|^2 = |z|^2 + |x|^2 - 2 z.x, the squared
            # norms of the examples computed once, not once per row
            if self._sq_norms is None:
                self._sq_norms = np.einsum("ij,ij->i", self.X, self.X)
            K = (self.X @ A.T).T               # one row: a matrix-vector product
            K *= -2.0
            K += np.einsum("ij,ij->i", A, A)[:, None]
            K += self._sq_norms[None, :]
            np.maximum(K, 0.0, out=K)
            K *= -float(self.params["gamma"])
            return np.exp(K, out=K)
        return kernel_matrix(A, self.X, self.kernel, **self.params)

    def __getitem__(self, i) -> np.ndarray:
        i = int(i)
        row = self._rows.get(i)
        if row is not None:
            self._rows.move_to_end(i)
            return row
        row = self._kernel(self.X[i:i + 1])[0]
        row[i] = self._diag()[i]               # K(x, x) as the diagonal has it (exactly 1 for RBF)
        row *= self.y
        row *= self.y[i]
        self.n_computed += 1
        self._rows[i] = row
        if len(self._rows) > self.max_rows:
            self._rows.popitem(last=False)
        return row

    def item(self, i: int, j: int) -> float:
        """``Gamma[i, j]`` (the row ``i`` is computed and cached if it is not)."""
        row = self._rows.get(int(i))
        if row is None:
            row = self._rows.get(int(j))
            if row is not None:
                return row.item(int(i))        # Gamma is symmetric
            row = self[i]
        return row.item(int(j))

    def diagonal(self) -> np.ndarray:
        """``Gamma[mu, mu] = K(x^mu, x^mu)``, one kernel value per example (a copy)."""
        return self._diag().copy()

    def _diag(self) -> np.ndarray:
        if self._diagonal is None:
            step = _COLUMN_BLOCK
            self._diagonal = np.concatenate([
                np.diagonal(kernel_matrix(self.X[k:k + step], None, self.kernel, **self.params))
                for k in range(0, len(self.X), step)])
        return self._diagonal

    def __matmul__(self, v: np.ndarray) -> np.ndarray:
        """``Gamma @ v``, from the kernel columns of the examples with ``v != 0`` only."""
        v = np.asarray(v, dtype=float)
        out = np.zeros(len(self.X))
        nz = np.flatnonzero(v)
        w = v * self.y
        for start in range(0, len(nz), _COLUMN_BLOCK):
            cols = nz[start:start + _COLUMN_BLOCK]
            out += self._kernel(self.X[cols]).T @ w[cols]
        return out * self.y
