"""Linear programming machines (Frieß and Harrison 1998, §2.5, eqs. 13–16).

Three linear programs, all solved by :func:`scipy.optimize.linprog` with HiGHS:

* eq. (13), Minnick and Muroga's LP perceptron with explicit weights
  (:func:`minnick_muroga_lp`)::

      min_{w, b, s}  sum_i c_i s_i   s.t.  y_i (<w, x_i> + b) >= lam - s_i,  s_i >= 0,

  with ``w`` and ``b`` free;
* eq. (15), its data-dependent kernel version with ``f(x) = sum_i alpha_i y_i k(x_i, x)``
  (eq. 14) and ``alpha_i >= 0``: :func:`lp_machine` with ``C = 0``;
* eq. (16), the **linear programming machine** (LPM): the same with the regulariser
  ``C sum_i alpha_i = C ||alpha||_1`` added to the cost (eq. 11); a bias ``b`` is a free,
  unregularised variable (``fit_intercept``).

In matrix form, with ``G = diag(y) K diag(y)`` and variables ``z = (alpha, s, b)``::

    minimise   (C 1, c, 0) . z
    subject to [-G  -I  -y] z <= -lam 1,   alpha >= 0,  s >= 0,  b free (or b = 0).

``lam`` is the paper's constant "for numerical stability" (``lam = 1`` throughout; any
positive value only rescales the solution).  ``soft=False`` drops the slacks
(``s = 0``): the hard version, which is infeasible unless some ``alpha >= 0`` meets every
constraint.  An LP that HiGHS cannot solve raises :class:`LPError` with the solver's
status (2 infeasible, 3 unbounded, ...) and message.

The LPM regularises the multipliers, i.e. it looks for a large margin in the
"hidden-unit space" spanned by the rows of ``K``, not in the kernel's feature space as
the SVM does.  It needs no Mercer condition: any matrix ``K`` gives a linear program.
With ``C = 0`` and separable data the optimum 0 is degenerate (many ``alpha`` attain
it) and the number of non-zero ``alpha`` depends on the solver.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
from scipy.optimize import linprog

from ..validation import LABELS, MATRIX, NON_NEGATIVE, POSITIVE, VECTOR, Array, validate_args
from ._base import _KERNEL_CONSTRAINTS, _BinaryKernelClassifier

if TYPE_CHECKING:
    from scipy.optimize import OptimizeResult

__all__ = [
    "LP_STATUS",
    "LPError",
    "solve_lp",
    "lp_matrices",
    "LPMachineRun",
    "lp_machine",
    "MinnickMurogaRun",
    "minnick_muroga_lp",
    "LPMachine",
]

LP_STATUS = {0: "solved", 1: "stopped at the iteration limit", 2: "infeasible",
             3: "unbounded", 4: "stopped by numerical difficulties"}
"""``scipy.optimize.linprog``'s status codes."""

_HIGHS_OPTIONS = {"primal_feasibility_tolerance": 1e-10, "dual_feasibility_tolerance": 1e-10}


class LPError(ValueError):
    """HiGHS did not solve a linear program; ``status`` and ``solver_message`` say why."""

    def __init__(self, status: int, solver_message: str, what: str = "the linear program") -> None:
        self.status = int(status)
        self.solver_message = str(solver_message)
        super().__init__(f"{what} is {LP_STATUS.get(self.status, 'not solved')} "
                         f"(HiGHS status {self.status}: {self.solver_message})")


@validate_args(c=VECTOR, A_ub=[MATRIX, None], b_ub=[VECTOR, None])
def solve_lp(c: np.ndarray, A_ub: np.ndarray, b_ub: np.ndarray,
             bounds: Sequence[tuple[float | None, float | None]], *,
             what: str = "the linear program") -> OptimizeResult:
    """``linprog(method="highs")`` with tight tolerances; raise :class:`LPError` unless solved."""
    res = linprog(c, A_ub=A_ub, b_ub=b_ub, bounds=bounds, method="highs", options=_HIGHS_OPTIONS)
    if res.status != 0:
        raise LPError(res.status, res.message, what)
    return res


def _check_costs(costs, l):
    if costs is None:
        return np.ones(l)
    c = np.asarray(costs, dtype=float)
    if c.shape != (l,) or not np.all(np.isfinite(c)) or np.any(c < 0):
        raise ValueError(f"costs must be {l} non-negative finite numbers, one per pattern")
    return c


_LP = dict(C=NON_NEGATIVE, costs=[VECTOR, None], lam=POSITIVE)


@validate_args(K=MATRIX, y=LABELS, **_LP)
def lp_matrices(K: np.ndarray, y: np.ndarray, C: float = 0.0, *, costs: np.ndarray | None = None,
                lam: float = 1.0, fit_intercept: bool = True,
                soft: bool = True
                ) -> tuple[np.ndarray, np.ndarray, np.ndarray, list]:
    """The LP (15)/(16) in ``linprog`` form: ``(c, A_ub, b_ub, bounds)``.

    Variables ``(alpha_1..alpha_l, s_1..s_l, b)``; the slack block is absent with
    ``soft=False`` and ``b`` is fixed at 0 without ``fit_intercept``.
    """
    l = len(y)
    if K.shape != (l, l):
        raise ValueError(f"K has shape {K.shape}, expected ({l}, {l})")
    c_s = _check_costs(costs, l)
    G = (y[:, None] * K) * y[None, :]
    blocks = [-G] + ([-np.eye(l)] if soft else []) + [-y[:, None]]
    A_ub = np.hstack(blocks)
    cost = np.r_[np.full(l, float(C)), c_s if soft else np.empty(0), 0.0]
    bounds = [(0, None)] * (2 * l if soft else l) + [(None, None) if fit_intercept else (0, 0)]
    return cost, A_ub, -float(lam) * np.ones(l), bounds


@dataclass
class LPMachineRun:
    """Result of :func:`lp_machine`: ``alpha >= 0``, ``bias``, ``slacks``, the optimal
    ``objective`` ``sum c_i s_i + C sum alpha_i`` and the margins ``y_i f(x_i)``."""

    alpha: np.ndarray
    bias: float
    slacks: np.ndarray
    objective: float
    margins: np.ndarray
    message: str


@validate_args(K=MATRIX, y=LABELS, **_LP)
def lp_machine(K: np.ndarray, y: np.ndarray, C: float = 0.0, *, costs: np.ndarray | None = None,
               lam: float = 1.0, fit_intercept: bool = True, soft: bool = True) -> LPMachineRun:
    """Solve the kernel LP perceptron (15) (``C = 0``) or the LP machine (16) on a Gram matrix.

    Parameters
    ----------
    K : array (l, l)
        ``K_ij = k(x_i, x_j)`` (any real matrix; no Mercer condition needed).
    y : array (l,) of +-1
        The labels.
    C : float >= 0
        Weight of the regulariser ``||alpha||_1``.
    costs : array (l,) of float >= 0, optional
        The ``c_i``, default all 1 (per-pattern error costs, eq. 9).
    lam : float > 0
        The right-hand side ``lambda`` of the margin constraints.
    fit_intercept : bool
        Add the free bias ``b``.
    soft : bool
        Use slacks; ``False`` demands ``y_i f(x_i) >= lam`` for every pattern.

    Returns
    -------
    LPMachineRun

    Raises
    ------
    LPError
        When HiGHS reports the LP infeasible (e.g. ``soft=False`` on data no ``alpha``
        separates), unbounded, or unsolved.
    """
    cost, A_ub, b_ub, bounds = lp_matrices(K, y, C, costs=costs, lam=lam,
                                           fit_intercept=fit_intercept, soft=soft)
    what = "the linear programming machine's LP" + ("" if soft else " without slacks")
    res = solve_lp(cost, A_ub, b_ub, bounds, what=what)
    l = len(y)
    alpha = np.maximum(res.x[:l], 0.0)
    slacks = np.maximum(res.x[l:2 * l], 0.0) if soft else np.zeros(l)
    b = float(res.x[-1]) if fit_intercept else 0.0
    margins = y * (K @ (alpha * y) + b)
    return LPMachineRun(alpha, b, slacks, float(res.fun), margins, res.message)


@dataclass
class MinnickMurogaRun:
    """Result of :func:`minnick_muroga_lp`: explicit ``weights``, ``bias``, ``slacks``,
    ``objective``."""

    weights: np.ndarray
    bias: float
    slacks: np.ndarray
    objective: float


@validate_args(X=MATRIX, y=Array(1, labels=True, rows_of="X"), lam=POSITIVE,
               costs=[VECTOR, None])
def minnick_muroga_lp(X: np.ndarray, y: np.ndarray, *, lam: float = 1.0,
                      costs: np.ndarray | None = None,
                      fit_intercept: bool = True) -> MinnickMurogaRun:
    """Minnick and Muroga's LP perceptron (13): ``min sum c_i s_i`` over free ``w``, ``b``.

    Constraints ``y_i (<w, x_i> + b) >= lam - s_i``, ``s_i >= 0``.  The optimum is 0
    exactly when the data are linearly separable (then any scaled separator with
    margin ``lam`` is optimal, so ``w`` is not unique).
    """
    l, d = X.shape
    c_s = _check_costs(costs, l)
    A_ub = np.hstack([-(y[:, None] * X), -np.eye(l), -y[:, None]])
    cost = np.r_[np.zeros(d), c_s, 0.0]
    bounds = [(None, None)] * d + [(0, None)] * l + [(None, None) if fit_intercept else (0, 0)]
    res = solve_lp(cost, A_ub, -float(lam) * np.ones(l), bounds,
                   what="Minnick and Muroga's LP (13)")
    return MinnickMurogaRun(res.x[:d].copy(), float(res.x[-1]) if fit_intercept else 0.0,
                            np.maximum(res.x[d:d + l], 0.0), float(res.fun))


class _ClassWeights:
    """Constraint for ``class_weight``: a dict of finite non-negative error costs (its keys,
    the labels, can only be checked against ``y`` in ``fit``)."""

    _cost = NON_NEGATIVE

    def is_satisfied_by(self, value) -> bool:
        return isinstance(value,
                          dict) and all(self._cost.is_satisfied_by(w) for w in value.values())

    def __str__(self) -> str:
        return "a dict of finite non-negative class weights"


class LPMachine(_BinaryKernelClassifier):
    """The linear programming machine (16) as a scikit-learn classifier.

    Parameters
    ----------
    C : float, default 0.01
        Weight of ``||alpha||_1``; ``0`` is the unregularised kernel LP perceptron (15),
        whose multipliers can become huge (and then meet the constraints only to the
        solver's relative accuracy) when the classes are barely separable.
    kernel : {"rbf", "poly", "linear", "precomputed"} or callable, default "rbf"
        A precomputed ``K`` need not be positive semi-definite.
    gamma : "scale" or float, default "scale"
        RBF ``exp(-gamma |a - b|^2)``; the paper's ``sigma`` is ``gamma = 1 / sigma^2``.
    degree, coef0 : int and float, default 2 and 1.0
        Polynomial kernel ``(coef0 + a . b)^degree``.
    fit_intercept : bool, default True
        The free bias ``b`` of §2.5.
    lam : float, default 1.0
        The right-hand side ``lambda`` of the margin constraints.
    soft : bool, default True
        Slacks (eqs. 15, 16); ``False`` raises :class:`LPError` on data it cannot separate.
    class_weight : dict or None
        Error cost ``c_i`` of the patterns of each class (default 1).

    Attributes
    ----------
    alpha_ : array (n_samples,)
        Multipliers ``alpha_i >= 0`` of all training patterns.
    support_ : array (n_SV,) of int
        The expansion vectors (``alpha_i > 0``); ``support_vectors_`` their inputs.
    dual_coef_ : array (1, n_SV)
        The ``alpha_i y_i``.
    intercept_ : float
        ``b``.
    slacks_ : array (n_samples,)
        The slacks ``s_i`` (zero with ``soft=False``).
    objective_ : float
        The optimal objective ``sum c_i s_i + C sum alpha_i``.
    n_support_ : int
        The number of expansion vectors.
    margins_ : array (n_samples,)
        The margins ``y_i f(x_i)`` of the training patterns.

    References
    ----------
    .. [1] Frieß, T.-T. and Harrison, R. F. (1998). *Perceptrons in Kernel Feature Spaces*.
       Research Report 720, University of Sheffield, §2.5, eqs. (13)--(16).
       (bib key: friess1998perceptrons)

    Examples
    --------
    >>> from lecture_pkg.datasets import xor
    >>> from lecture_pkg.kernel_machines import LPMachine
    >>> X, y = xor()
    >>> clf = LPMachine(kernel="rbf").fit(X, y)
    >>> clf.score(X, y)
    1.0
    """

    _parameter_constraints = {
        "C": [NON_NEGATIVE],
        **_KERNEL_CONSTRAINTS,
        "fit_intercept": ["boolean"],
        "lam": [POSITIVE],
        "soft": ["boolean"],
        "class_weight": [_ClassWeights(), None],
    }

    def __init__(self, C: float = 0.01, kernel: str | Callable = "rbf",
                 gamma: float | str = "scale", degree: int = 2, coef0: float = 1.0,
                 fit_intercept: bool = True, lam: float = 1.0, soft: bool = True,
                 class_weight: dict | str | None = None) -> None:
        self.C = C
        self.kernel = kernel
        self.gamma = gamma
        self.degree = degree
        self.coef0 = coef0
        self.fit_intercept = fit_intercept
        self.lam = lam
        self.soft = soft
        self.class_weight = class_weight

    def fit(self, X: np.ndarray, y: np.ndarray) -> LPMachine:
        """Solve the LP (16) for ``X`` (or a Gram matrix) with two classes in ``y``."""
        X, y_pm = self._binary_targets(X, y)
        costs = np.ones(len(y_pm))
        if self.class_weight is not None:
            for label, weight in self.class_weight.items():
                if label not in self.classes_:
                    raise ValueError(f"class_weight names the label {label!r}, which is not in y")
                costs[y_pm == (1.0 if label == self.classes_[1] else -1.0)] = weight
        K = self._train_gram(X)
        run = lp_machine(K, y_pm, self.C, costs=costs, lam=self.lam,
                         fit_intercept=self.fit_intercept, soft=self.soft)
        scale = max(1.0, float(run.alpha.max(initial=0.0)))
        self._store_support(X, np.flatnonzero(run.alpha > 1e-10 * scale))
        self.alpha_ = run.alpha
        self.dual_coef_ = (run.alpha * y_pm)[self.support_][None, :]
        self.intercept_ = run.bias
        self.n_support_ = len(self.support_)
        self.slacks_ = run.slacks
        self.objective_ = run.objective
        self.margins_ = run.margins
        return self
