"""Linear separability: the geometry of one hyperplane, an exact test, and counting.

Conventions follow Biehl's chapter 3 {biehl2019supervised}: inputs ``X`` of shape
``(P, N)``, labels ``y`` in ``{-1, +1}``, and a perceptron
``S(xi) = sign(w . xi - theta)`` (eq. 3.1) with ``sign(0) = +1``.  Deckert writes the
same unit as ``sign(b + w . x)``, i.e. ``b = -theta``.

* :func:`separating_hyperplane` / :func:`is_linearly_separable` decide separability
  *exactly* by linear programming (SciPy's ``linprog`` with the HiGHS solver): the data are
  separable iff some ``(w, b)`` has ``y_mu (w . x_mu + b) >= 1`` for every ``mu``
  (Biehl's storage problem in the form PSP (II), eq. 3.9, with ``c = 1``).
* :func:`hull_intersection` decides whether the convex hulls of two finite sets meet,
  by another linear program; two finite sets are linearly separable exactly when their
  hulls are disjoint (Koski's lecture 1, the separating-hyperplane theorem for convex
  sets), so the two LPs must always agree.
* :func:`boolean_functions` lists the 16 Boolean functions of two inputs (Deckert's
  homework 3.2), :func:`boolean_gate` returns one of them as data.
* :func:`cover_count` and :func:`cover_fraction` are Cover's counting function
  ``C(P, N) = 2 sum_{k<N} binom(P-1, k)`` for homogeneous perceptrons and points in
  general position -- an *[ext]* supplement: the lecture notes pose the counting question
  (Biehl's Q3) but do not answer it.  :func:`count_separable_dichotomies` checks it
  exhaustively and :func:`separable_fraction_mc` by Monte Carlo.
"""

from __future__ import annotations

import itertools
from math import comb

import numpy as np
from scipy.optimize import linprog
from scipy.stats import binom

from ..validation import (COUNT, FINITE, Array, as_plus_minus, check_inputs, resolve_rng,
                          validate_args)

__all__ = [
    "hyperplane_distance",
    "project_onto_hyperplane",
    "separating_hyperplane",
    "is_linearly_separable",
    "hull_intersection",
    "BOOLEAN_INPUTS",
    "boolean_functions",
    "boolean_gate",
    "cover_count",
    "cover_fraction",
    "count_separable_dichotomies",
    "separable_fraction_mc",
]


# ------------------------------------------------------------------ geometry (eq. 3.1-3.2)

def _as_normal(coef) -> np.ndarray:
    w = np.asarray(coef, dtype=float)
    if w.ndim != 1 or not np.all(np.isfinite(w)):
        raise ValueError(f"coef must be a finite 1-d weight vector, got shape {w.shape}")
    if not np.any(w):
        raise ValueError("the weight vector is zero, so it defines no hyperplane")
    return w


@validate_args(threshold=FINITE)
def hyperplane_distance(coef: np.ndarray, threshold: float = 0.0) -> float:
    """Signed distance ``theta / |w|`` of the plane ``w . xi = theta`` from the origin.

    Biehl's eq. (3.2) defines the decision boundary ``{xi : w . xi - theta = 0}``.  Its
    point closest to the origin is ``theta w / |w|^2``, at distance ``theta / |w|``
    (positive when the origin lies on the ``-1`` side).  The notes print ``theta |w|``,
    which agrees only for ``|w| = 1``.
    """
    w = _as_normal(coef)
    return float(threshold) / float(np.linalg.norm(w))


@validate_args(threshold=FINITE)
def project_onto_hyperplane(x: np.ndarray, coef: np.ndarray, threshold: float = 0.0) -> np.ndarray:
    """Orthogonal projection of ``x`` (one point or rows of an array) onto ``w . xi = theta``.

    ``x_p = x - (w . x - theta) w / |w|^2``; then ``x - x_p`` is parallel to ``w`` and has
    length ``|w . x - theta| / |w|``, the distance of ``x`` from the plane.
    """
    w = _as_normal(coef)
    x = np.asarray(x, dtype=float)
    if x.shape[-1] != w.shape[0]:
        raise ValueError(f"points have {x.shape[-1]} components but w has {w.shape[0]}")
    return x - ((x @ w - threshold) / (w @ w))[..., None] * w


# ------------------------------------------------------------------ exact test by LP (3.6, 3.9)

def separating_hyperplane(X: np.ndarray, y: np.ndarray, *,
                          fit_intercept: bool = True) -> tuple[np.ndarray, float] | None:
    """A separating hyperplane found by linear programming, or ``None`` if none exists.

    Solves the feasibility problem ``y_mu (w . x_mu + b) >= 1`` for all ``mu`` (zero
    objective, free variables) with ``scipy.optimize.linprog(method="highs")``.  By the
    scale invariance (3.10) this is feasible exactly when some hyperplane puts every
    example strictly on its own side, so the answer is exact, not heuristic.

    Parameters
    ----------
    X : array (P, N)
    y : array (P,) of +-1
    fit_intercept : bool
        ``True``: a general hyperplane ``w . x + b = 0`` (Deckert's perceptron with bias;
        Biehl's inhomogeneous case, ``b = -theta``).  ``False``: a hyperplane through the
        origin (Biehl's homogeneous perceptron, eq. 3.3), ``b = 0``.

    Returns
    -------
    (coef, intercept) or None
        Some solution with all local potentials ``>= 1`` -- not a special one.
    """
    X = check_inputs(X)
    y = as_plus_minus(y)
    if len(y) != len(X):
        raise ValueError(f"X has {len(X)} rows but y has {len(y)} labels")
    A = np.hstack([X, np.ones((len(X), 1))]) if fit_intercept else X
    A = -(y[:, None] * A)
    n_var = A.shape[1]
    res = linprog(np.zeros(n_var), A_ub=A, b_ub=-np.ones(len(y)),
                  bounds=[(None, None)] * n_var, method="highs")
    if res.status == 2:          # infeasible
        return None
    if res.status != 0:
        raise RuntimeError(f"the LP solver failed: {res.message}")
    v = res.x
    return (v[:-1].copy(), float(v[-1])) if fit_intercept else (v.copy(), 0.0)


def is_linearly_separable(X: np.ndarray, y: np.ndarray, *, fit_intercept: bool = True) -> bool:
    """Exact linear-separability test (Biehl's definition 3.6) by linear programming.

    See :func:`separating_hyperplane` for the method and the meaning of ``fit_intercept``.
    """
    return separating_hyperplane(X, y, fit_intercept=fit_intercept) is not None


def hull_intersection(A: np.ndarray, B: np.ndarray) -> np.ndarray | None:
    """A point common to the convex hulls of the rows of ``A`` and of ``B``, or ``None``.

    The hulls meet exactly when there are weights ``lambda >= 0``, ``mu >= 0`` with
    ``sum lambda = sum mu = 1`` and ``A^T lambda = B^T mu``: a feasibility problem in
    ``len(A) + len(B)`` variables, solved by ``scipy.optimize.linprog(method="highs")``.
    Two finite sets are linearly separable (by a hyperplane with a bias, strictly) if and
    only if this returns ``None``; :func:`separating_hyperplane` decides the same
    question from the other side, by looking for the hyperplane.

    Parameters
    ----------
    A, B : arrays (P_A, N), (P_B, N)

    Returns
    -------
    array (N,) or None
        ``A^T lambda`` for the solution found (a convex combination of each set), or
        ``None`` when the hulls are disjoint.
    """
    A, B = check_inputs(A), check_inputs(B)
    if A.shape[1] != B.shape[1]:
        raise ValueError(f"the two sets live in different dimensions: "
                         f"{A.shape[1]} and {B.shape[1]}")
    nA, nB = len(A), len(B)
    A_eq = np.zeros((A.shape[1] + 2, nA + nB))
    A_eq[:-2, :nA], A_eq[:-2, nA:] = A.T, -B.T
    A_eq[-2, :nA] = A_eq[-1, nA:] = 1.0
    b_eq = np.r_[np.zeros(A.shape[1]), 1.0, 1.0]
    res = linprog(np.zeros(nA + nB), A_eq=A_eq, b_eq=b_eq, bounds=[(0, None)] * (nA + nB),
                  method="highs")
    if res.status == 2:          # infeasible
        return None
    if res.status != 0:
        raise RuntimeError(f"the LP solver failed: {res.message}")
    return res.x[:nA] @ A


# ------------------------------------------------------------------ the 16 Boolean functions

#: The four inputs of a two-input gate, in the order used for truth tables.
BOOLEAN_INPUTS = np.array([[0.0, 0.0], [0.0, 1.0], [1.0, 0.0], [1.0, 1.0]])

_GATE_NAMES = {
    (0, 0, 0, 0): "FALSE", (0, 0, 0, 1): "AND", (0, 0, 1, 0): "x1 AND NOT x2",
    (0, 0, 1, 1): "x1", (0, 1, 0, 0): "NOT x1 AND x2", (0, 1, 0, 1): "x2",
    (0, 1, 1, 0): "XOR", (0, 1, 1, 1): "OR", (1, 0, 0, 0): "NOR", (1, 0, 0, 1): "XNOR",
    (1, 0, 1, 0): "NOT x2", (1, 0, 1, 1): "x1 OR NOT x2", (1, 1, 0, 0): "NOT x1",
    (1, 1, 0, 1): "NOT x1 OR x2", (1, 1, 1, 0): "NAND", (1, 1, 1, 1): "TRUE",
}


def boolean_functions() -> list[tuple[str, tuple[int, int, int, int]]]:
    """All 16 Boolean functions of two inputs as ``(name, truth table)`` pairs.

    The truth table lists the outputs (0 or 1) at the inputs (0,0), (0,1), (1,0), (1,1)
    (:data:`BOOLEAN_INPUTS`), in binary counting order from FALSE = (0,0,0,0) to
    TRUE = (1,1,1,1).
    """
    return [(_GATE_NAMES[t], t) for t in itertools.product((0, 1), repeat=4)]


def boolean_gate(gate: str) -> tuple[np.ndarray, np.ndarray]:
    """One two-input gate as data: the four inputs and labels ``+1`` (output 1) / ``-1`` (0).

    ``gate`` is a name from :func:`boolean_functions` (case-insensitive, e.g. ``"and"``,
    ``"xor"``) or a truth table of four 0/1 outputs.
    """
    if isinstance(gate, str):
        lookup = {name.upper(): t for t, name in _GATE_NAMES.items()}
        key = " ".join(gate.upper().split())
        if key not in lookup:
            raise ValueError(f"unknown gate {gate!r}; choose from {sorted(lookup)}")
        table = lookup[key]
    else:
        table = tuple(int(v) for v in np.asarray(gate).ravel())
        if len(table) != 4 or not set(table) <= {0, 1}:
            raise ValueError(f"a truth table has four outputs 0 or 1, got {gate!r}")
    return BOOLEAN_INPUTS.copy(), np.where(np.array(table) == 1, 1, -1)


# ------------------------------------------------------------------ Cover's counting [ext]

@validate_args(P=COUNT, N=COUNT)
def cover_count(P: int, N: int) -> int:
    """Cover's count ``C(P, N) = 2 sum_{k=0}^{N-1} binom(P-1, k)`` (exact integer).

    The number of the ``2^P`` labellings of ``P`` points in general position in ``R^N``
    that a homogeneous perceptron (a hyperplane through the origin) realises
    (Cover, 1965).  ``C = 2^P`` for ``P <= N`` and ``C(2N, N) = 2^(2N-1)``.
    Not stated in Biehl's notes, which only ask the question (Q3).
    """
    return 2 * sum(comb(P - 1, k) for k in range(N))


@validate_args(P=Array(within=COUNT), N=Array(within=COUNT))
def cover_fraction(P: int | np.ndarray, N: int | np.ndarray) -> np.ndarray | float:
    """Fraction ``C(P, N) / 2^P`` of separable labellings (arrays broadcast; Cover, 1965).

    Dividing Cover's sum by ``2^P`` gives the binomial distribution function
    ``Pr[K <= N-1]`` for ``K ~ Binomial(P-1, 1/2)``, which is evaluated stably for large
    ``P`` and ``N``.  As ``N`` grows at fixed ``alpha = P/N`` it tends to 1 for
    ``alpha < 2`` and to 0 for ``alpha > 2``: the capacity ``alpha_c = 2``.  ``P`` and
    ``N`` are whole numbers ``>= 1`` in any real dtype (``4.0`` counts as 4).
    """
    P, N = np.asarray(P), np.asarray(N)
    out = binom.cdf(N - 1, P - 1, 0.5)
    return float(out) if out.ndim == 0 else out


def count_separable_dichotomies(X: np.ndarray, *, fit_intercept: bool = False) -> int:
    """Exhaustive count of the labellings of the rows of ``X`` that a perceptron realises.

    Runs the exact LP test on all ``2^P`` labellings (``P <= 16``).  A labelling and its
    negative are realised together (negate ``w`` and ``b``), so only labellings with
    ``y_1 = +1`` are tested and the count is doubled.  For points in general position and
    ``fit_intercept=False`` the result is Cover's :func:`cover_count` ``C(P, N)``.
    """
    X = check_inputs(X)
    P = len(X)
    if not 1 <= P <= 16:
        raise ValueError(f"the exhaustive count tests 2^P labellings; P must be 1..16, got {P}")
    count = 0
    for rest in itertools.product((1.0, -1.0), repeat=P - 1):
        y = np.array((1.0, *rest))
        count += is_linearly_separable(X, y, fit_intercept=fit_intercept)
    return 2 * count


@validate_args(P=COUNT, N=COUNT, n_trials=COUNT, random_state="random_state")
def separable_fraction_mc(P: int, N: int, n_trials: int, *,
                          random_state: np.random.Generator | int | None = None,
                          fit_intercept: bool = False) -> tuple[float, float]:
    """Monte Carlo estimate of the fraction of separable random labellings.

    Each trial draws ``P`` standard-normal inputs in ``R^N`` (in general position with
    probability one) and independent uniform labels ``+-1``, and runs the exact LP test.

    Returns
    -------
    fraction, standard_error : float
        The fraction of separable trials and its binomial standard error.
    """
    rng = resolve_rng(random_state)
    X = rng.standard_normal((n_trials, P, N))
    Y = rng.choice([-1.0, 1.0], size=(n_trials, P))
    hits = sum(is_linearly_separable(X[t], Y[t], fit_intercept=fit_intercept)
               for t in range(n_trials))
    p = hits / n_trials
    return p, float(np.sqrt(p * (1 - p) / n_trials))
