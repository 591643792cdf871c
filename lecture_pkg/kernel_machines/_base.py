"""What the kernel machines share: the kernel hyper-parameters and the kernel expansion.

:class:`_BinaryKernelClassifier` extends :class:`lecture_pkg.linear.LinearBinaryClassifier`
(two classes mapped to +-1, ``predict`` with ``sign(0) = +1``) by the kernel of the
estimator's ``kernel``/``gamma``/``degree``/``coef0`` (or a precomputed Gram matrix), the
support vectors it keeps, and the decision function of a kernel expansion
``f(x) = sum_i dual_coef_i K(x_i, x) + intercept``.  ``_KERNEL_CONSTRAINTS`` is the part of
the hyper-parameter table that every kernel machine has.
"""

from __future__ import annotations

import numbers

import numpy as np
from sklearn.utils.validation import check_is_fitted, validate_data

from ..linear._base import LinearBinaryClassifier
from ..validation import COUNT, POSITIVE, Interval, Options
from ..core.kernels import check_gram, check_gram_memory, kernel_matrix

__all__ = [
]


_KERNEL_CONSTRAINTS = {
    "kernel": [Options("linear", "poly", "rbf", "precomputed"), "callable"],
    "gamma": [Options("scale"), POSITIVE],
    "degree": [COUNT],
    "coef0": [Interval(numbers.Real, None, None)],
}
"""The hyper-parameters of the kernel shared by the kernel machines (``gamma`` for
``"rbf"``, ``degree`` and ``coef0`` for ``"poly"``), for their ``_parameter_constraints``."""


def _scale_gamma(X: np.ndarray) -> float:
    """``gamma = 1 / (N var(X))`` of ``gamma="scale"`` (1 for constant inputs), as in scikit-learn.

    Inputs so large or so small that the variance over- or underflows make no ``gamma``:
    they are refused, naming what is wrong with ``X`` (never a ``gamma`` the user did not
    give).
    """
    with np.errstate(over="ignore", under="ignore", invalid="ignore"):
        var = float(X.var())
        gamma = 1.0 / (X.shape[1] * var) if var > 0 else 1.0
    if not np.isfinite(var):
        raise ValueError("X is too large for gamma='scale': its variance overflows; rescale the "
                         "inputs (e.g. standardise)")
    if not np.isfinite(gamma) or (var == 0 and np.ptp(X) > 0):
        raise ValueError(f"X is too small for gamma='scale': its variance underflows (var(X) = "
                         f"{var:.3g}), so 1 / (N var(X)) cannot be computed; rescale the inputs "
                         "(e.g. standardise)")
    return gamma


class _BinaryKernelClassifier(LinearBinaryClassifier):
    """Two labels mapped to -1/+1 (``classes_[1]`` is +1), kernels by name or precomputed.

    A kernel machine is linear in feature space: it shares the label handling and
    ``predict`` of :class:`lecture_pkg.linear.LinearBinaryClassifier` and computes
    its ``decision_function`` from the kernel expansion instead of ``coef_``.
    """

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.pairwise = self.kernel == "precomputed"
        return tags

    def _kernel_params(self, X) -> dict:
        if self.kernel == "rbf":
            gamma = self.gamma
            if gamma == "scale":
                gamma = _scale_gamma(X)
            return {"gamma": float(gamma)}
        if self.kernel == "poly":
            return {"degree": self.degree, "coef0": self.coef0}
        return {}

    def _train_gram(self, X, check_psd: str | None = None):
        """The training Gram matrix; ``X`` itself for a precomputed kernel.

        ``check_psd`` (``"raise"`` or ``"warn"``) checks a precomputed matrix for
        Mercer's condition (:func:`lecture_pkg.kernel_machines.check_gram`), with a looser
        eigenvalue tolerance in single precision; ``None`` skips the check.
        """
        if self.kernel == "precomputed":
            if X.shape[0] != X.shape[1]:
                raise ValueError(f"a precomputed kernel must be a square Gram matrix, "
                                 f"got shape {X.shape}")
            self._fit_X = None
            self._params = {}
            if check_psd is None:
                return X
            return check_gram(X, action=check_psd, tol=1e-8 if X.dtype == np.float64 else 1e-5)
        self._params = self._kernel_params(X)
        check_gram_memory(X.shape[0], what=f"{type(self).__name__}: the Gram matrix")
        return kernel_matrix(X, None, self.kernel, **self._params)

    def _store_support(self, X, support, inputs=None) -> None:
        """``shape_fit_``, ``support_`` and ``support_vectors_``: the rows ``support`` of
        ``inputs`` (default ``X``), none for a precomputed kernel."""
        self.shape_fit_ = X.shape
        self.support_ = support
        self.support_vectors_ = ((X if inputs is None else inputs)[support]
                                 if self.kernel != "precomputed" else np.empty((0, X.shape[1])))

    def _test_gram(self, X, columns):
        """Kernel between the rows of ``X`` and the training examples ``columns``."""
        if self.kernel == "precomputed":
            if X.shape[1] != self.shape_fit_[0]:
                raise ValueError(f"a precomputed test kernel needs {self.shape_fit_[0]} columns "
                                 f"(one per training example), got {X.shape[1]}")
            return X[:, columns]
        return kernel_matrix(X, self.support_vectors_, self.kernel, **self._params)

    def decision_function(self, X):
        """``f(x) = sum_{i in SV} dual_coef_i K(x_i, x) + intercept_`` for every row of ``X``.

        The kernel expansion of every kernel machine, with its own coefficients:

        * :class:`~lecture_pkg.kernel_machines.KernelAdaTron`: ``dual_coef_i = X^i y^i``,
          ``f(xi) = sum_{mu in SV} X^mu y^mu K(xi^mu, xi) + b``, Biehl (4.24) plus the bias;
        * :class:`~lecture_pkg.kernel_machines.KernelPerceptron`: ``dual_coef_i = alpha_i``,
          ``f(x) = sum_i alpha_i k(x_i, x) + b``, Frieß and Harrison's eq. (8) with a bias;
        * :class:`~lecture_pkg.kernel_machines.LPMachine`: ``dual_coef_i = alpha_i y_i``,
          ``f(x) = sum_i alpha_i y_i k(x_i, x) + b``, their eq. (14).

        ``X`` holds inputs, or for ``kernel="precomputed"`` the ``(n_test, n_train)``
        kernel between the test and the training examples.
        """
        check_is_fitted(self)
        X = validate_data(self, X, reset=False)
        K = self._test_gram(X, self.support_)
        return K @ self.dual_coef_[0] + self.intercept_
