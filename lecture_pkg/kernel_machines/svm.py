"""Support vector machines by the kernel AdaTron (Biehl §4.3, eqs. 4.19--4.31; Mooney's slides).

The kernel AdaTron (Frieß, Cristianini and Campbell 1998; Biehl eq. 4.26) is the
AdaTron of :mod:`lecture_pkg.core.solvers` run on the matrix

    ``Gamma^{mu nu} = y^mu y^nu K(xi^mu, xi^nu)``        (Biehl 4.19, without the 1/M)

instead of the correlation matrix ``C``: there is one AdaTron,
:func:`lecture_pkg.kernel_machines.adatron_embeddings`, and this module only builds
``Gamma`` and reads the result.  Notation: ``a^mu >= 0`` are the embedding strengths
(Biehl's ``X^mu`` here and ``x^mu`` in his chapter 3, scikit-learn's ``alpha``), the
decision function is

    ``f(xi) = sum_mu a^mu y^mu K(xi^mu, xi) + b``          (Biehl 4.24 plus a bias)

and ``E^mu = y^mu f(xi^mu)`` are the local potentials (4.25).

Bias handling (``fit_intercept``)
---------------------------------
* ``fit_intercept=True`` (default): the standard SVM with an *unpenalised* bias ``b``,
  i.e. the dual with the equality constraint ``sum_mu a^mu y^mu = 0``; its multiplier
  is ``b``.  The greedy mode (default) keeps the constraint exactly by stepping pairs
  of examples (SMO); the sequential sweep enforces it by the method of multipliers
  (see ``adatron_embeddings(equality=y)``).  This is the problem scikit-learn's ``SVC``
  solves, so ``embeddings_`` equal ``SVC``'s ``|dual_coef_|`` and ``intercept_`` its
  intercept.  When no embedding lies strictly inside ``(0, C)`` the optimal ``b`` is an
  interval; both modes then return a point of it (greedy: its midpoint, as libsvm does).
* ``fit_intercept=False``: Biehl's kernel AdaTron (4.26) as printed, with no bias
  (``b = 0``).  A *penalised* bias is obtained by adding a constant to the kernel:
  the polynomial kernel ``(1 + xi . xi')^q`` already contains it (Biehl 4.29), and a
  linear kernel with ``coef0 = s^2`` is the AdaTron on inputs augmented by ``s``.

Soft margin: ``C`` is the upper bound of the embeddings (Biehl's ``gamma`` in 4.5/4.6
with ``C -> Gamma``); ``C = np.inf`` is the hard margin.  On data that are not
separable in feature space the hard-margin embeddings grow without bound: the run
stops at ``max_epochs`` with ``converged_ = False`` and a ``ConvergenceWarning``.

``gram_of_labels(K, y)`` builds ``Gamma``; ``kernel_adatron(K, y, C=..., ...)`` trains
on a Gram matrix and returns a :class:`KernelAdaTronRun`; ``svm_decision(K_test_train,
embeddings, y, bias)`` evaluates (4.24); ``primal_weights`` and
``bias_from_support_vector`` recover ``w = sum_mu a^mu y^mu xi^mu`` and ``w_0`` from the
dual as Mooney's slides do; :class:`KernelAdaTron` is the scikit-learn estimator.
"""

from __future__ import annotations

import numbers
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from sklearn.exceptions import ConvergenceWarning

from ..validation import (COUNT, FINITE, LABELS, MATRIX, POSITIVE, POSITIVE_OR_INF, VECTOR,
                          Interval, Options, validate_args, warn_user)
from ._base import _KERNEL_CONSTRAINTS, _BinaryKernelClassifier
from ..core._rows import KernelRows
from ..core.kernels import check_gram, check_gram_memory
from ..core.solvers import adatron_embeddings, support_vectors

__all__ = [
    "gram_of_labels",
    "KernelAdaTronRun",
    "kernel_adatron",
    "svm_decision",
    "primal_weights",
    "bias_from_support_vector",
    "KernelAdaTron",
]


@validate_args(K=MATRIX, y=LABELS)
def gram_of_labels(K: np.ndarray, y: np.ndarray, *, overwrite: bool = False) -> np.ndarray:
    """``Gamma^{mu nu} = y^mu y^nu K^{mu nu}``, Biehl eq. (4.19) without the ``1/M``.

    ``overwrite=True`` builds ``Gamma`` in ``K`` itself when ``K`` is a writeable float64
    array (so that no second ``P x P`` array is needed) and returns it; the signs are
    exact, so the numbers are the same either way.
    """
    P = len(y)
    if K.shape != (P, P):
        raise ValueError(f"K has shape {K.shape}, expected ({P}, {P})")
    if not (overwrite and K.flags.writeable):
        check_gram_memory(P, what="Gamma = y y^T K")
        K = y[:, None] * K
    else:
        K *= y[:, None]
    K *= y[None, :]
    return K


@dataclass
class KernelAdaTronRun:
    """Result of :func:`kernel_adatron`.

    ``embeddings`` are the ``a^mu`` (SVC's ``alpha``), ``bias`` is ``b``,
    ``potentials`` the ``E^mu = y^mu f(xi^mu)``, ``kkt_violation`` the largest violation
    of the optimality conditions, ``objective`` the dual ``-1/2 a.Gamma a + sum a`` at
    the start and after every epoch, ``n_steps`` the number of steps (examples or, in
    greedy mode with a bias, pairs of examples updated).
    """

    embeddings: np.ndarray
    bias: float
    potentials: np.ndarray
    objective: np.ndarray
    kkt_violation: float
    converged: bool
    diverged: bool
    n_epochs: int
    n_steps: int


@validate_args(K=[KernelRows, MATRIX], y=LABELS, C=POSITIVE_OR_INF,
               mode=Options("greedy", "sequential"), eta=POSITIVE, tol=POSITIVE, max_epochs=COUNT,
               rho=[POSITIVE, None], a0=[VECTOR, None], check_psd=Options("raise", "warn", None))
def kernel_adatron(K: np.ndarray, y: np.ndarray, C: float = np.inf, *, fit_intercept: bool = True,
                   mode: str = "greedy", eta: float = 1.0, tol: float = 1e-3,
                   max_epochs: int = 1000, rho: float | None = None, a0: np.ndarray | None = None,
                   check_psd: str | None = "raise", overwrite_K: bool = False) -> KernelAdaTronRun:
    """The kernel AdaTron (4.26), with hard (``C = inf``) or soft margin, on a Gram matrix.

    The AdaTron step on example ``mu`` is

        ``a^mu <- min(C, max(0, a^mu + eta / Gamma^{mu mu} (1 - E^mu)))``

    with ``E^mu = [Gamma a]^mu + b y^mu``, from the start ``a0`` (zero by default); the
    step ``eta / Gamma^{mu mu}`` converges for ``0 < eta < 2`` (for the RBF kernel
    ``Gamma^{mu mu} = 1``).  ``mode`` says which examples are stepped:

    * ``"sequential"``: Biehl's (4.26), cyclically through all examples (in later
      epochs only those that violate the conditions); ``fit_intercept`` enforces the
      unpenalised bias by the method of multipliers: the cost carries the penalty
      ``rho/2 (sum_mu a^mu y^mu)^2``, and after each sweep the multiplier of the constraint
      ``sum_mu a^mu y^mu = 0`` moves by ``rho`` times its violation.  One epoch is one
      sweep.
    * ``"greedy"`` (default): each step takes the example that violates the conditions
      most.  With ``fit_intercept`` the step is made on the most violating *pair*, along
      the direction that keeps ``sum a y = 0``: this is SMO (Platt 1998) with the
      maximal violating pair (Keerthi et al. 2001), and ``b`` is read off the final
      state.  ``P`` steps count as one epoch.  Several times to hundreds of times faster
      than the sweep on large problems; the solution is the same.

    The run stops when every example satisfies the Kuhn–Tucker conditions up to ``tol``
    (``E >= 1 - tol`` at ``a = 0``, ``|E - 1| <= tol`` for ``0 < a < C``,
    ``E <= 1 + tol`` at ``a = C``) and ``|sum a y| <= tol``.

    ``check_psd``: ``"raise"`` or ``"warn"`` checks Mercer's condition on ``K``
    (:func:`lecture_pkg.kernel_machines.check_gram`); ``None`` skips the check.

    Memory: the solver holds one ``P x P`` array, ``Gamma``, and reads its rows.
    ``overwrite_K=True`` builds it in ``K`` (which is then lost) instead of in a copy, so
    that ``K`` is the only such array; :class:`KernelAdaTron` does this with the Gram
    matrix it computes.  A copy that does not fit in the available memory is refused
    with a :class:`MemoryError` before it is allocated.
    """
    if isinstance(K, KernelRows):                  # Gamma itself, a row at a time
        if mode != "greedy" or len(K) != len(y) or not np.array_equal(K.y, y):
            raise ValueError("rows on demand (KernelRows) serve mode='greedy' with the labels "
                             "they were built with")
        G = K
    else:
        if check_psd is not None:
            K = check_gram(K, action=check_psd)
        G = gram_of_labels(K, y, overwrite=overwrite_K)
    run = adatron_embeddings(G, eta, mode=mode, max_epochs=max_epochs, upper=float(C),
                             equality=y if fit_intercept else None,
                             rho=rho if fit_intercept else None, kkt_tol=tol, a0=a0)
    E = G @ run.a + run.multiplier * y
    return KernelAdaTronRun(run.a, run.multiplier, E, run.objective, run.kkt_violation,
                            run.converged, run.diverged, run.n_epochs, run.n_steps)


@validate_args(K_test_train=MATRIX, embeddings=VECTOR, y=LABELS, bias=FINITE)
def svm_decision(K_test_train: np.ndarray, embeddings: np.ndarray, y: np.ndarray,
                 bias: float = 0.0) -> np.ndarray:
    """``f(xi) = sum_mu a^mu y^mu K(xi^mu, xi) + b`` for every row of ``K_test_train``, (4.24)."""
    K, a = K_test_train, embeddings
    if K.shape[1] != len(y) or a.shape != y.shape:
        raise ValueError(f"K_test_train must have one column per training example ({len(y)}), "
                         f"got shape {K.shape}")
    return K @ (a * y) + float(bias)


@validate_args(X=MATRIX, embeddings=VECTOR, y=LABELS)
def primal_weights(X: np.ndarray, embeddings: np.ndarray, y: np.ndarray) -> np.ndarray:
    """``w = sum_l alpha_l y_l x_l``: the weights of a linear SVM from its dual solution.

    The stationarity condition of the Lagrangian of the primal ``min 1/2 |w|^2`` subject
    to ``y_k (w . x_k + w_0) >= 1`` (Mooney's slides; Biehl 3.50 without bias).
    """
    a = embeddings
    if len(X) != len(y) or a.shape != y.shape:
        raise ValueError(f"X must have one row per label ({len(y)}) and embeddings the shape of y, "
                         f"got X {X.shape} and embeddings {a.shape}")
    return (a * y) @ X


@validate_args(K=MATRIX, embeddings=VECTOR, y=LABELS, k=Interval(numbers.Integral, 0, None),
               C=POSITIVE_OR_INF)
def bias_from_support_vector(K: np.ndarray, embeddings: np.ndarray, y: np.ndarray, k: int,
                             C: float = np.inf) -> float:
    """``w_0 = y_k - sum_l alpha_l y_l K(x_l, x_k)`` from a support vector ``k`` on the margin.

    Complementary slackness makes ``y_k f(x_k) = 1`` for every ``k`` with
    ``0 < alpha_k < C`` (Mooney's slides: "any ``k`` with ``alpha_k > 0``", hard margin), and
    ``y_k = +-1`` turns that into the formula.  ``K`` is the ``P x P`` Gram matrix; an
    example with ``alpha_k = 0`` or ``alpha_k = C`` is refused with a ``ValueError``
    (it need not lie on the margin).
    """
    a = embeddings
    P = len(y)
    if K.shape != (P, P) or a.shape != (P,):
        raise ValueError(f"K must be {P} x {P} and embeddings of length {P}, "
                         f"got {K.shape} and {a.shape}")
    if k >= P:
        raise ValueError(f"k must be an index 0 <= k < {P}, got {k!r}")
    if not 0.0 < a[k] < C:
        raise ValueError(f"example {k} has alpha = {a[k]:.3g}, not 0 < alpha < C = {C}: "
                         "it need not lie on the margin")
    return float(y[k] - (a * y) @ K[:, k])


class KernelAdaTron(_BinaryKernelClassifier):
    """A support vector machine trained by the kernel AdaTron (Biehl 4.26, soft margin 4.5/4.6).

    Parameters
    ----------
    C : float, default 1.0
        Upper bound of the embedding strengths (soft margin); ``np.inf`` is the hard
        margin.  Same meaning as ``C`` of scikit-learn's ``SVC``.
    kernel : {"rbf", "poly", "linear", "precomputed"} or callable, default "rbf"
        ``"precomputed"``: ``X`` is the Gram matrix in ``fit`` and the
        ``(n_test, n_train)`` kernel in ``decision_function``; it is checked for
        positive semi-definiteness (``check_psd``).
    gamma : "scale" or float, default "scale"
        RBF width, ``K = exp(-gamma |a - b|^2)``; Biehl's ``sigma`` is
        ``gamma = 1 / (2 sigma^2)`` (:func:`lecture_pkg.kernel_machines.gamma_from_sigma`).
        ``"scale"`` is ``1 / (N var(X))`` as in ``SVC``.
    degree, coef0 : int and float, default 2 and 1.0
        Polynomial kernel ``(coef0 + a . b)^degree``, default ``(1 + a . b)^2``.
    fit_intercept : bool, default True
        Unpenalised bias (``SVC``'s problem); ``False``: Biehl's (4.26) without bias.
    mode : {"greedy", "sequential"}, default "greedy"
        Which examples the AdaTron steps (see :func:`kernel_adatron`): ``"sequential"``
        sweeps through all of them as in (4.26); ``"greedy"`` steps the most violating
        example, or with ``fit_intercept`` the most violating pair (SMO), and is much
        faster on large problems.  Both reach the same solution.
    eta : float, default 1.0
        Step ``eta / Gamma^{mu mu}``; converges for ``0 < eta < 2``.
    tol : float, default 1e-3
        Kuhn–Tucker tolerance of the stopping rule (``SVC``'s default ``tol`` is 1e-3 too).
    max_epochs : int, default 1000
        The most epochs before the run stops unconverged.
    check_psd : {"raise", "warn"}, default "raise"
        What a precomputed Gram matrix that is not positive semi-definite gives.
    cache_size : float, default 200
        Megabytes for kernel values (as ``SVC``'s ``cache_size``).  When the whole
        ``P x P`` matrix fits, it is computed once (fastest); otherwise ``mode="greedy"``
        computes the rows it needs on demand and keeps the most recently used ones in
        this much memory, so memory stays bounded for any ``P``.  ``mode="sequential"``
        always needs the whole matrix and refuses, before allocating, one that does not
        fit in the available memory.

    Attributes
    ----------
    embeddings_ : array (n_samples,)
        ``a^mu`` (``alpha`` in scikit-learn), ``0 <= a^mu <= C``.
    support_ : array (n_SV,) of int
        Indices of the support vectors (``a^mu > 0``).
    support_vectors_ : array (n_SV, n_features)
        Their inputs (empty for a precomputed kernel).
    dual_coef_ : array (1, n_SV)
        The ``a^mu y^mu`` (scikit-learn's layout).
    intercept_ : float
        The bias ``b``.
    n_support_ : int
        Number of support vectors.
    margin_support_ : array of int
        Support vectors with ``0 < a < C`` (on the margin, ``E = 1``).
    bound_support_ : array of int
        Support vectors with ``a = C`` (inside the margin or wrong, ``E <= 1``).
    potentials_ : array (n_samples,)
        ``E^mu = y^mu f(xi^mu)`` on the training set.
    objective_history_ : array
        The dual objective at the start and after every epoch.
    n_steps_ : int
        Steps taken (examples, or pairs of examples in greedy mode with a bias).
    kkt_violation_ : float
        The largest violation of the Kuhn–Tucker conditions at the end.
    n_epochs_ : int
        Epochs run.
    converged_, diverged_ : bool
        Whether the stopping rule was met; whether the iteration diverged.

    References
    ----------
    .. [1] Biehl, M. (2019). *Supervised Learning -- An Introduction*. Machine Learning Reports
       01/2019, §4.3.3, eqs. (4.19)--(4.26); soft margin §4.3.4 with §4.1.2, eqs. (4.5)--(4.6).
       (bib key: biehl2019supervised)
    .. [2] Frieß, T.-T., Cristianini, N. and Campbell, C. (1998). The kernel-adatron algorithm:
       a fast and simple learning procedure for support vector machines. *Proc. 15th ICML*,
       188--196. (bib key: friess1998kernel)
    .. [3] Platt, J. C. (1998). Sequential Minimal Optimization: A Fast Algorithm for Training
       Support Vector Machines. Microsoft Research, MSR-TR-98-14 (the pair steps of
       ``mode="greedy"`` with a bias). (bib key: platt1998sequential)

    Examples
    --------
    >>> from lecture_pkg.datasets import xor
    >>> from lecture_pkg.kernel_machines import KernelAdaTron
    >>> X, y = xor()
    >>> clf = KernelAdaTron(kernel="rbf").fit(X, y)
    >>> clf.n_support_, clf.score(X, y)
    (4, 1.0)
    """

    _parameter_constraints = {
        # inf: hard margin
        "C": [Interval(numbers.Real, 0, None, closed="neither", allow_inf=True)],
        **_KERNEL_CONSTRAINTS,
        "fit_intercept": ["boolean"],
        "mode": [Options("greedy", "sequential")],
        "eta": [Interval(numbers.Real, 0, 2, closed="neither")],
        "tol": [POSITIVE],
        "max_epochs": [COUNT],
        "check_psd": [Options("raise", "warn")],
        "cache_size": [POSITIVE],
    }

    def __init__(self, C: float = 1.0, kernel: str | Callable = "rbf", gamma: float | str = "scale",
                 degree: int = 2, coef0: float = 1.0, fit_intercept: bool = True,
                 mode: str = "greedy", eta: float = 1.0, tol: float = 1e-3, max_epochs: int = 1000,
                 check_psd: str = "raise", cache_size: float = 200) -> None:
        self.C = C
        self.kernel = kernel
        self.gamma = gamma
        self.degree = degree
        self.coef0 = coef0
        self.fit_intercept = fit_intercept
        self.mode = mode
        self.eta = eta
        self.tol = tol
        self.max_epochs = max_epochs
        self.check_psd = check_psd
        self.cache_size = cache_size

    def fit(self, X: np.ndarray, y: np.ndarray) -> KernelAdaTron:
        """Train on ``X`` (n_samples, n_features), or a Gram matrix, with two classes in ``y``."""
        X, y_pm = self._binary_targets(X, y)
        P = len(X)
        if (self.kernel != "precomputed" and self.mode == "greedy"
                and 8 * P * P > self.cache_size * 2**20):
            self._params = self._kernel_params(X)
            K = KernelRows(X, y_pm, self.kernel, self._params, self.cache_size)   # Gamma, by rows
        else:
            K = self._train_gram(X, check_psd=self.check_psd)
        run = kernel_adatron(K, y_pm, self.C, fit_intercept=self.fit_intercept, mode=self.mode,
                             eta=self.eta, tol=self.tol, max_epochs=self.max_epochs, check_psd=None,
                             overwrite_K=self.kernel != "precomputed")   # our own K becomes Gamma
        a = run.embeddings if not run.diverged else np.zeros(len(y_pm))
        self._store_support(X, support_vectors(a))
        self.embeddings_ = a
        self.dual_coef_ = (a * y_pm)[self.support_][None, :]
        self.intercept_ = float(run.bias) if not run.diverged else 0.0
        self.n_support_ = len(self.support_)
        on_bound = a[self.support_] >= self.C * (1 - 1e-9) if np.isfinite(self.C) else \
            np.zeros(len(self.support_), dtype=bool)
        self.margin_support_ = self.support_[~on_bound]
        self.bound_support_ = self.support_[on_bound]
        self.potentials_ = run.potentials
        self.objective_history_ = run.objective
        self.kkt_violation_ = run.kkt_violation
        self.n_epochs_ = run.n_epochs
        self.n_steps_ = run.n_steps
        self.converged_ = run.converged
        self.diverged_ = run.diverged
        if not run.converged:
            hint = ("with a hard margin (C=inf) this means the data are probably not separable "
                    "in the kernel's feature space; use a finite C" if not np.isfinite(self.C)
                    else "raise max_epochs or tol")
            warn_user(
                f"the kernel AdaTron did not converge within max_epochs={self.max_epochs} epochs "
                f"(Kuhn-Tucker violation {run.kkt_violation:.3g}"
                + (", embeddings diverged" if run.diverged else "") + f"); {hint}",
                ConvergenceWarning,
            )
        return self
