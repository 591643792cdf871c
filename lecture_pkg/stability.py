"""The perceptron of optimal stability: MinOver, Adaline and AdaTron (Biehl §3.5–3.6).

Notation and conventions (see the book's introduction, "Notation"):

* inputs are the rows ``xi^mu`` of ``X`` (shape ``(P, N)``), labels ``y^mu = S_T^mu`` are
  ``+-1``; the estimators accept any two labels and map them to ``+-1`` themselves;
* Biehl's **1/N convention** is kept where the notes use it: the weights are written
  through *embedding strengths* ``x^mu`` as ``w = (1/N) sum_mu x^mu y^mu xi^mu``
  (eqs. 3.13, 3.45, 3.55, 3.67), the correlation matrix is
  ``C^{mu nu} = (1/N) y^mu y^nu xi^mu . xi^nu`` (3.58), and then ``E = C x`` (3.59) and
  ``|w|^2 = x.C x / N`` (3.60).  The factor never changes a classifier; it changes the
  numbers ``E``, ``C`` and ``x``;
* the estimators work on augmented inputs ``(s, x)`` when ``fit_intercept=True``
  (clamped input ``s`` first, as in :func:`lecture_pkg.perceptron.augment`), so the
  bias is part of the weight vector whose norm is minimised.  ``fit_intercept=False``
  is Biehl's perceptron through the origin;
* :class:`Adaline` uses Deckert's form of the learning rate: the weights move by
  ``eta`` times the negative gradient of the loss ``L = 1/2 sum_mu (y^mu - w.x^mu)^2``
  (Deckert's eq. 11 with the identity activation, Biehl's ``E^SSE`` of eq. 3.66).  Biehl's
  weight-space updates (3.63) and (3.65) carry a factor ``1/N``: his ``eta`` equals
  ``N`` times the ``eta`` of :class:`Adaline`.
"""

from __future__ import annotations

import numbers
import warnings
from dataclasses import dataclass
from typing import Callable, NamedTuple

import numpy as np
from sklearn.exceptions import ConvergenceWarning

from ._ties import first_argmin
from .perceptron import LinearBinaryClassifier, augment, geometric_margin, local_potentials
from .validation import (COUNT, NON_NEGATIVE, NON_ZERO, POSITIVE, Interval, Options, as_plus_minus,
                         check_inputs, check_params, check_positive, resolve_rng)

__all__ = [
    "LearningRateWarning",
    "stabilities",
    "stability",
    "correlation_matrix",
    "weights_from_embeddings",
    "dual_objective",
    "KKTResiduals",
    "kkt_residuals",
    "support_vectors",
    "gd_stability_limit",
    "lms_stability_limit",
    "minover_embeddings",
    "adaline_embeddings",
    "adatron_embeddings",
    "box_kkt_violation",
    "MinOver",
    "Adaline",
    "AdaTron",
    "gradient_descent_1d",
    "single_sample_loss",
    "single_sample_grad",
    "double_well_loss",
    "double_well_grad",
    "double_well_stationary_points",
    "GradientDescentDemo",
    "deckert_demo",
]


class LearningRateWarning(UserWarning):
    """The learning rate lies outside the window in which the iteration converges."""


# ---------------------------------------------------------------- stability (3.39), (3.40)

def stabilities(X: np.ndarray, y: np.ndarray, coef: np.ndarray, intercept: float = 0.0) -> np.ndarray:
    """Stabilities ``kappa^mu = E^mu / |w|`` of all examples, Biehl eq. (3.39).

    ``kappa^mu`` is the oriented distance of example ``mu`` from the hyperplane
    ``w . x + b = 0``: positive on the correct side, negative on the wrong one.  It does
    not change when ``(w, b)`` is multiplied by a positive number.
    """
    norm = float(np.linalg.norm(coef))
    if norm == 0.0:
        raise ValueError("the weight vector is zero, so it defines no hyperplane")
    return local_potentials(X, y, coef, intercept) / norm


def stability(X: np.ndarray, y: np.ndarray, coef: np.ndarray, intercept: float = 0.0) -> float:
    """Stability of the perceptron ``kappa(w) = min_mu kappa^mu``, Biehl eq. (3.40).

    The same number as :func:`lecture_pkg.perceptron.geometric_margin`: the margin when
    positive, the worst violation when negative.
    """
    return geometric_margin(X, y, coef, intercept)


# ---------------------------------------------------------------- embeddings, C and the dual

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


def weights_from_embeddings(x: np.ndarray, X: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Weights ``w = (1/N) sum_mu x^mu y^mu xi^mu`` from embedding strengths, eqs. (3.13), (3.45)."""
    X = check_inputs(X)
    y = as_plus_minus(y)
    x = np.asarray(x, dtype=float)
    if x.shape != y.shape or len(y) != len(X):
        raise ValueError(f"need one embedding strength and one label per example; got x {x.shape}, "
                         f"y {y.shape}, X {X.shape}")
    return (x * y) @ X / X.shape[1]


def dual_objective(x: np.ndarray, C: np.ndarray) -> float:
    """``f(x) = -1/2 x.C x + sum_mu x^mu``, the cost of Adaline (3.61) and AdaTron (3.75).

    At the maximum over ``x >= 0`` it equals ``N |w_max|^2 / 2`` (strong duality).
    """
    x = np.asarray(x, dtype=float)
    return float(-0.5 * x @ C @ x + x.sum())


class KKTResiduals(NamedTuple):
    """How far embeddings are from the Kuhn–Tucker point (3.71)–(3.73); all zero there.

    ``constraint = max(0, 1 - min_mu E^mu)``, ``sign = max(0, -min_mu x^mu)``,
    ``complementarity = max_mu |x^mu (E^mu - 1)|``.
    """

    constraint: float
    sign: float
    complementarity: float

    def max(self) -> float:
        return max(self)


def kkt_residuals(x: np.ndarray, C: np.ndarray) -> KKTResiduals:
    """Residuals of the optimality conditions of maximal stability, eqs. (3.71)–(3.73).

    ``E = C x >= 1`` (the examples are stored with stability ``1/|w|`` at least),
    ``x >= 0`` and ``x^mu (E^mu - 1) = 0`` (an example either sits on the margin or has
    no embedding).
    """
    x = np.asarray(x, dtype=float)
    C = np.asarray(C, dtype=float)
    if C.shape != (len(x), len(x)):
        raise ValueError(f"C has shape {C.shape}, expected ({len(x)}, {len(x)})")
    E = C @ x
    return KKTResiduals(float(max(0.0, 1.0 - E.min())), float(max(0.0, -x.min())),
                        float(np.max(np.abs(x * (E - 1.0)))))


def support_vectors(x: np.ndarray, tol: float = 1e-8) -> np.ndarray:
    """Indices of the support vectors, the examples with embedding ``x^mu > tol`` (3.77).

    ``tol`` is relative to the largest embedding strength.
    """
    x = np.asarray(x, dtype=float)
    if x.ndim != 1:
        raise ValueError(f"x must be a 1-d array of embedding strengths, got shape {x.shape}")
    scale = max(1.0, float(np.abs(x).max())) if x.size else 1.0
    return np.flatnonzero(x > tol * scale)


# ---------------------------------------------------------------- learning-rate windows

def gd_stability_limit(X: np.ndarray) -> float:
    """``2 / lambda_max(X^T X)``: batch gradient descent on ``1/2 |y - X w|^2`` converges iff ``eta`` is below.

    ``X`` are the inputs as the algorithm sees them (augmented if there is a bias).
    The loss is quadratic with Hessian ``X^T X``; along its top eigenvector an error is
    multiplied by ``1 - eta lambda_max`` per step, which shrinks only for
    ``0 < eta < 2 / lambda_max``.  In Biehl's ``x``-space form (3.62) the same window is
    ``0 < eta < 2 / lambda_max(C)``, since ``lambda_max(C) = lambda_max(X^T X) / N``.
    """
    X = check_inputs(X)
    lam = float(np.linalg.eigvalsh(X.T @ X)[-1]) if X.size else 0.0
    return 2.0 / lam if lam > 0 else np.inf


def lms_stability_limit(X: np.ndarray) -> float:
    """``2 / max_mu |x^mu|^2``: the window of the sequential (LMS, delta-rule) step on every example.

    One LMS step on example ``mu`` multiplies that example's residual by
    ``1 - eta |x^mu|^2``.  Biehl's window ``0 < eta~ < 2`` for (3.64)/(3.65) is this
    condition for ``|xi^mu|^2 = N`` (``C^{mu mu} = 1``), with ``eta~ = N eta``.
    """
    X = check_inputs(X)
    top = float(np.max(np.einsum("ij,ij->i", X, X))) if X.size else 0.0
    return 2.0 / top if top > 0 else np.inf


def _check_learning_rate(eta: float, limit: float, window: str) -> None:
    if not eta < limit:
        warnings.warn(
            f"the learning rate eta={eta:.6g} lies outside the convergent window "
            f"0 < eta < {limit:.6g} ({window}); the iteration will not converge",
            LearningRateWarning, stacklevel=3,
        )


# ---------------------------------------------------------------- the algorithms on embeddings

@dataclass
class MinOverRun:
    """Result of :func:`minover_embeddings`."""

    x: np.ndarray                 # embedding strengths (non-negative integers from tabula rasa)
    kappa: np.ndarray             # stability kappa(w(t)) after every step t = 1, 2, ...
    changes: np.ndarray           # the stopping quantity, measured every T steps
    converged: bool
    n_steps: int


def minover_embeddings(C: np.ndarray, n_features: int, *, max_steps: int = 100_000,
                       check_every: int | None = None, tol: float = 1e-6,
                       criterion: str = "angle", c: float = np.inf,
                       x0: np.ndarray | None = None) -> MinOverRun:
    """MinOver (Krauth and Mézard), eqs. (3.42)–(3.44), on the correlation matrix ``C``.

    Each step finds the example of minimal local potential ``E^mu = (C x)^mu`` (the first
    one on ties) and increments its embedding strength by one, which adds
    ``xi^mu y^mu / N`` to ``w``.  The local potentials are updated with one column of ``C``.

    Stopping (Biehl's two criteria, measured every ``T = check_every`` steps, ``T = P`` by
    default): ``criterion="angle"`` uses the angle between ``w(t)`` and ``w(t + T)`` in
    units of pi; ``criterion="stabilities"`` uses ``sum_mu (kappa^mu(t) - kappa^mu(t+T))^2``.
    The run has converged when that quantity is below ``tol`` *and* ``kappa > 0``: for
    data that are not linearly separable the angle also shrinks (``|w|`` keeps growing),
    but ``kappa`` never becomes positive, so such runs stop at ``max_steps``.
    With a finite ``c`` (the original variant) the run stops as soon as every
    ``E^mu > c``.
    """
    C = np.asarray(C, dtype=float)
    P = len(C)
    if C.shape != (P, P) or P == 0:
        raise ValueError(f"C must be a non-empty square matrix, got shape {C.shape}")
    if criterion not in ("angle", "stabilities"):
        raise ValueError(f"criterion must be 'angle' or 'stabilities', got {criterion!r}")
    T = P if check_every is None else int(check_every)
    if T < 1 or max_steps < 1:
        raise ValueError("check_every and max_steps must be positive")
    N = float(n_features)
    x = np.zeros(P) if x0 is None else np.array(x0, dtype=float)
    E = C @ x
    q = float(x @ E)                       # N |w|^2
    kappa = np.empty(max_steps)
    changes = []
    ref_x, ref_E, ref_q = x.copy(), E.copy(), q
    diag = np.diag(C).copy()
    converged, t = False, 0
    for t in range(max_steps):
        mu = first_argmin(E)                       # ties: the first example, on every CPU
        if E[mu] > c:
            converged, t = True, t - 1
            break
        q += 2.0 * E[mu] + diag[mu]
        x[mu] += 1.0
        E += C[:, mu]
        kappa[t] = E.min() / np.sqrt(q / N) if q > 0 else -np.inf
        if (t + 1) % T == 0:
            if ref_q > 0 and q > 0:
                if criterion == "angle":
                    cos = float(ref_x @ E) / np.sqrt(ref_q * q)
                    change = float(np.arccos(np.clip(cos, -1.0, 1.0)) / np.pi)
                else:
                    change = float(np.sum((ref_E / np.sqrt(ref_q / N) - E / np.sqrt(q / N)) ** 2))
                changes.append(change)
                if change < tol and kappa[t] > 0:
                    converged = True
                    break
            ref_x, ref_E, ref_q = x.copy(), E.copy(), q
    n = t + 1
    return MinOverRun(x, kappa[:n].copy(), np.array(changes), converged, n)


def _as_square(C) -> np.ndarray:
    C = np.asarray(C, dtype=float)
    if C.ndim != 2 or C.shape[0] != C.shape[1] or len(C) == 0:
        raise ValueError(f"C must be a non-empty square matrix, got shape {C.shape}")
    return C


def _embedding_steps(C: np.ndarray, eta: float, mode: str, normalize: bool, name: str) -> np.ndarray:
    """Per-example step sizes and the learning-rate check for the x-space iterations."""
    if mode not in ("sequential", "parallel"):
        raise ValueError(f"mode must be 'sequential', 'parallel' or (for the AdaTron) 'greedy', "
                         f"got {mode!r}")
    check_positive(eta, "eta")
    P = len(C)
    if mode == "sequential":
        diag = np.diag(C)
        if normalize:
            _check_learning_rate(eta, 2.0, f"sequential {name} with steps eta / C^mumu")
            with np.errstate(divide="ignore"):
                return np.where(diag > 0, eta / np.where(diag > 0, diag, 1.0), 0.0)
        top = float(diag.max())
        _check_learning_rate(eta, 2.0 / top if top > 0 else np.inf,
                             f"sequential {name}: 2 / max C^mumu; this is Biehl's 0 < eta < 2 "
                             "only when every C^mumu = |xi|^2 / N = 1")
        return np.full(P, float(eta))
    lam = float(np.linalg.eigvalsh(C)[-1])
    if normalize:
        _check_learning_rate(eta, 2.0, f"parallel {name} with step eta / lambda_max(C)")
        return np.full(P, eta / lam if lam > 0 else 0.0)
    _check_learning_rate(eta, 2.0 / lam if lam > 0 else np.inf, f"parallel {name}: 2 / lambda_max(C)")
    return np.full(P, float(eta))


@dataclass
class EmbeddingRun:
    """Result of :func:`adaline_embeddings` and :func:`adatron_embeddings`.

    ``multiplier`` is the Lagrange multiplier of the equality constraint ``a . x = 0``
    (the unpenalised bias of an SVM, see :func:`adatron_embeddings`); ``kkt_violation``
    the largest violation of the optimality conditions at the end (``nan`` for Adaline
    and for the change-based stopping rule, which does not compute it).
    """

    x: np.ndarray
    objective: np.ndarray        # f(x) of (3.61)/(3.75): at the start and after every epoch (or step)
    converged: bool
    diverged: bool
    n_epochs: int
    multiplier: float = 0.0
    kkt_violation: float = float("nan")
    n_steps: int = 0             # examples stepped (greedy mode with ``equality``: pairs of examples)


_HUGE = 1e12         # embeddings beyond this count as diverged
_DIVERGED = 1e10     # Adaline: a loss this many times the start loss counts as diverged


def _run_embeddings(C, eta, mode, normalize, max_epochs, tol, x0, record_steps, clip, name):
    C = _as_square(C)
    steps = _embedding_steps(C, eta, mode, normalize, name)
    P = len(C)
    x = np.zeros(P) if x0 is None else np.array(x0, dtype=float)
    if x.shape != (P,):
        raise ValueError(f"x0 has shape {x.shape}, expected ({P},)")
    E = C @ x
    objective = [float(-0.5 * x @ E + x.sum())]
    converged = diverged = False
    epoch = 0
    with np.errstate(over="ignore", invalid="ignore"):
        for epoch in range(1, max_epochs + 1):
            old = x.copy()
            if mode == "parallel":
                x = x + steps * (1.0 - E)
                if clip:
                    x = np.maximum(x, 0.0)
                E = C @ x
            else:
                for mu in range(P):
                    new = x[mu] + steps[mu] * (1.0 - E[mu])
                    if clip and new < 0.0:
                        new = 0.0
                    delta = new - x[mu]
                    if delta != 0.0:
                        x[mu] = new
                        E += delta * C[:, mu]
                    if record_steps:
                        objective.append(float(-0.5 * x @ E + x.sum()))
            if not record_steps:
                objective.append(float(-0.5 * x @ E + x.sum()))
            if not np.all(np.isfinite(x)) or np.abs(x).max() > _HUGE:
                diverged = True
                break
            change = float(np.abs(x - old).max())
            if change <= tol * max(1.0, float(np.abs(x).max())):
                feasible = (E.min() >= 1.0 - 1e-6) if clip else True
                converged = bool(feasible)
                if converged or change == 0.0:
                    break
    return EmbeddingRun(x, np.array(objective), converged, diverged, epoch, n_steps=epoch * P)


def adaline_embeddings(C: np.ndarray, eta: float = 1.0, *, mode: str = "sequential",
                       normalize: bool = True, max_epochs: int = 1000, tol: float = 1e-12,
                       x0: np.ndarray | None = None, record_steps: bool = False) -> EmbeddingRun:
    """Adaline in Biehl's embedding form: gradient ascent on ``f(x)`` of (3.61).

    ``mode="parallel"``: ``x <- x + eta (1 - C x)`` (3.62), converges for
    ``0 < eta < 2 / lambda_max(C)``.  ``mode="sequential"``: cyclically
    ``x^mu <- x^mu + eta (1 - E^mu)`` (3.64, with ``x^mu(t+1)`` on the left).  Biehl's
    window ``0 < eta < 2`` holds when ``C^{mu mu} = 1``, i.e. ``|xi^mu|^2 = N``; with
    ``normalize=True`` the step is ``eta / C^{mu mu}`` (parallel: ``eta / lambda_max(C)``),
    which puts the window at ``0 < eta < 2`` for any data.  A learning rate outside the
    window gives a :class:`LearningRateWarning`; a diverging run stops early with
    ``diverged=True``.
    """
    return _run_embeddings(C, eta, mode, normalize, max_epochs, tol, x0, record_steps, False, "Adaline")


def adatron_embeddings(C: np.ndarray, eta: float = 1.0, *, mode: str = "sequential",
                       normalize: bool = True, max_epochs: int = 1000, tol: float = 1e-10,
                       x0: np.ndarray | None = None, record_steps: bool = False,
                       upper: float = np.inf, target: np.ndarray | None = None,
                       equality: np.ndarray | None = None, rho: float | None = None,
                       kkt_tol: float | None = None) -> EmbeddingRun:
    """AdaTron (Anlauf and Biehl): projected gradient ascent on the Wolfe dual (3.75).

    Sequential (3.76): ``x^mu <- max(0, x^mu + eta (1 - [C x]^mu))``, cyclically;
    parallel: the same step for all ``mu`` at once.  Learning-rate windows and
    ``normalize`` as in :func:`adaline_embeddings`.  ``objective`` records ``f(x)``, which
    *increases* monotonically inside the window (after every step with
    ``record_steps=True``).  Converged means: the largest change of an embedding in an
    epoch is below ``tol`` (relative) and ``min E >= 1`` up to ``1e-6``.  For data that
    are not linearly separable the embeddings grow without bound and the run stops at
    ``max_epochs`` (or with ``diverged=True``).

    The same iteration solves the more general box-constrained dual

        maximise ``f(x) = -1/2 x.C x + p.x``  subject to  ``0 <= x^mu <= upper``
        (and, optionally, ``a.x = 0``),

    with the step ``x^mu <- min(upper, max(0, x^mu + eta^mu (p^mu - [C x]^mu)))``:

    * ``upper = gamma`` is Biehl's AdaTron with errors (4.6), the dual (4.5) of the
      soft-margin perceptron (4.3); ``upper = inf`` is (3.76);
    * ``C`` may be any positive semi-definite matrix, e.g. ``y^mu y^nu K(xi^mu, xi^nu)``
      from a kernel: that is the kernel AdaTron (4.26) and its soft-margin version;
    * ``target`` is ``p`` (all ones by default);
    * ``equality = a`` adds the constraint ``a.x = 0`` (``a = y`` for the unpenalised
      bias of a support vector machine).  It is enforced by the method of multipliers:
      the iteration runs on ``C + rho a a^T`` with target ``p - lambda a``, and after
      every epoch the multiplier moves, ``lambda <- lambda + rho a.x``.  At the solution
      ``lambda`` is the bias ``b`` of the decision function ``sum_nu x^nu y^nu K + b``
      and is returned as ``multiplier``.  ``rho`` defaults to ``0.1`` times the mean
      diagonal of ``C``.

    When any of these options or ``kkt_tol`` is given, the run stops on the
    Kuhn–Tucker conditions instead of on the change of ``x``: with the gradient
    ``g = p - lambda a - (C + rho a a^T) x`` the violation of example ``mu`` is
    ``|g^mu|`` for ``0 < x^mu < upper``, ``max(0, g^mu)`` at ``x^mu = 0`` and
    ``max(0, -g^mu)`` at ``x^mu = upper``; the run has converged when the largest
    violation and ``|a.x|`` are at most ``kkt_tol`` (``1e-6`` by default).  In
    sequential mode an epoch visits only the examples that violate the conditions by
    more than ``kkt_tol`` (the others would not move, or move by less than the
    tolerance), which makes late epochs cheap.  ``tol`` is then not used.

    ``mode="greedy"`` changes only *which* example is updated: instead of sweeping
    through all of them, every step takes the example that violates the Kuhn–Tucker
    conditions most (the Gauss–Southwell rule of coordinate ascent) and makes the
    AdaTron step ``eta / C^{mu mu}`` on it.  With ``equality = a`` (entries ``+-1``) a
    step on one example would break ``a.x = 0``, so the step is made on the *pair*
    ``(i, j)`` that violates the conditions most, along the direction
    ``x^i += a^i t, x^j -= a^j t``, which keeps ``a.x`` fixed: ``t`` is ``eta`` times
    the exact maximiser of ``f`` on that line, clipped to the box.  This is Platt's
    sequential minimal optimisation (SMO) with the maximal violating pair of Keerthi et
    al. (2001), the solver of libsvm and scikit-learn's ``SVC``.  The multiplier is not
    iterated: it is read off at the end as the midpoint of the interval the conditions
    allow.  The run stops when that interval certifies a violation of at most
    ``kkt_tol`` for every example.  ``max_epochs`` bounds the number of steps by
    ``max_epochs * P``; ``objective`` is recorded every ``P`` steps.  Greedy steps are
    always normalised (``normalize=False`` is an error), and ``rho`` is not used.
    """
    if mode == "greedy":
        return _run_greedy_adatron(C, eta, normalize, max_epochs, x0, record_steps, upper, target,
                                   equality, rho, 1e-6 if kkt_tol is None else kkt_tol)
    new_options = (np.isfinite(upper) or target is not None or equality is not None
                   or rho is not None or kkt_tol is not None)
    if not new_options:
        return _run_embeddings(C, eta, mode, normalize, max_epochs, tol, x0, record_steps, True,
                               "AdaTron")
    return _run_box_adatron(C, eta, mode, normalize, max_epochs, x0, record_steps, upper, target,
                            equality, rho, 1e-6 if kkt_tol is None else kkt_tol)


def box_kkt_violation(x: np.ndarray, gradient: np.ndarray, upper: float = np.inf) -> np.ndarray:
    """Violation of the Kuhn–Tucker conditions of ``max f(x)`` over ``0 <= x <= upper``, per example.

    ``gradient`` is ``grad f(x)``, for the AdaTron ``1 - E``.  The conditions are
    ``g = 0`` for ``0 < x < upper``, ``g <= 0`` at ``x = 0`` and ``g >= 0`` at
    ``x = upper``; for the soft margin these are the three cases of Biehl's
    Sec. 4.1.2 (``x = 0``: ``E >= 1``; ``0 < x < gamma``: ``E = 1``; ``x = gamma``:
    ``E <= 1``).
    """
    x = np.asarray(x, dtype=float)
    g = np.asarray(gradient, dtype=float)
    return np.where(x <= 0.0, np.maximum(g, 0.0),
                    np.where(x >= upper, np.maximum(-g, 0.0), np.abs(g)))


def _box_problem(C, x0, upper, target, kkt_tol, equality, rho):
    """The checked data of the box-constrained dual: ``C``, the target ``p`` and the start ``x``."""
    C = _as_square(C)
    P = len(C)
    if not (isinstance(upper, numbers.Real) and upper > 0):
        raise ValueError(f"upper must be a positive number or inf, got {upper!r}")
    check_positive(kkt_tol, "kkt_tol")
    if rho is not None and equality is None:
        raise ValueError("rho is the penalty of the equality constraint; give equality too")
    p = np.ones(P) if target is None else np.array(target, dtype=float)
    if p.shape != (P,) or not np.all(np.isfinite(p)):
        raise ValueError(f"target must be a finite vector of length {P}, got shape {p.shape}")
    x = np.zeros(P) if x0 is None else np.array(x0, dtype=float)
    if x.shape != (P,):
        raise ValueError(f"x0 has shape {x.shape}, expected ({P},)")
    return C, p, np.clip(x, 0.0, upper)


def _run_box_adatron(C, eta, mode, normalize, max_epochs, x0, record_steps, upper, target,
                     equality, rho, kkt_tol):
    C, p, x = _box_problem(C, x0, upper, target, kkt_tol, equality, rho)
    P = len(C)
    lam = 0.0
    if equality is not None:
        a = np.array(equality, dtype=float)
        if a.shape != (P,) or not np.all(np.isfinite(a)):
            raise ValueError(f"equality must be a finite vector of length {P}, got shape {a.shape}")
        if rho is None:
            rho = 0.1 * float(np.mean(np.abs(np.diag(C)))) or 0.1
        check_positive(rho, "rho")
        rows = np.ascontiguousarray(C.T) + rho * np.outer(a, a)   # row mu = column mu of C_rho
    else:
        a, rho = np.zeros(P), 0.0
        rows = np.ascontiguousarray(C.T)
    steps = _embedding_steps(rows.T, eta, mode, normalize, "AdaTron")
    E = rows.T @ x if x.any() else np.zeros(P)      # (C + rho a a^T) x

    def objective_now() -> float:               # f(x) with the original C and p
        ax = float(a @ x)
        return float(-0.5 * x @ E + 0.5 * rho * ax * ax + p @ x)

    objective = [objective_now()]
    converged = diverged = False
    epoch = 0
    violation = float("inf")
    n_steps = 0
    step_of = steps.tolist()
    row_delta = np.empty(P)
    with np.errstate(over="ignore", invalid="ignore"):
        for epoch in range(1, max_epochs + 1):
            q = p - lam * a
            v = box_kkt_violation(x, q - E, upper)
            if mode == "parallel":
                x = np.clip(x + steps * (q - E), 0.0, upper)
                E = rows.T @ x
                n_steps += P
            else:
                # The step (scalars as Python floats, which is the same IEEE arithmetic
                # as numpy's float64 scalars and several times faster to index), then
                # E <- E + delta * row mu in place, without a temporary array.
                target_of = q.tolist()
                visit = np.flatnonzero(v > kkt_tol).tolist()
                n_steps += len(visit)
                for mu in visit:
                    old = x.item(mu)
                    new = old + step_of[mu] * (target_of[mu] - E.item(mu))
                    new = upper if new > upper else (0.0 if new < 0.0 else new)
                    delta = new - old
                    if delta != 0.0:
                        x[mu] = new
                        E += np.multiply(rows[mu], delta, out=row_delta)
                    if record_steps:
                        objective.append(objective_now())
            if not record_steps or mode == "parallel":
                objective.append(objective_now())
            if not np.all(np.isfinite(x)) or np.abs(x).max() > _HUGE:
                diverged = True
                break
            ax = float(a @ x)
            lam += rho * ax
            violation = max(float(box_kkt_violation(x, p - lam * a - E, upper).max()), abs(ax))
            if violation <= kkt_tol:
                converged = True
                break
    return EmbeddingRun(x, np.array(objective), converged, diverged, epoch, float(lam), violation, n_steps)


def _run_greedy_adatron(C, eta, normalize, max_epochs, x0, record_steps, upper, target,
                        equality, rho, kkt_tol):
    """``adatron_embeddings(mode="greedy")``: the most violating example (or pair) per step.

    The state is the gradient ``g = p - C x`` of the dual, updated by one or two rows
    of ``C`` per step.  With an equality constraint ``a.x = 0`` the work is done on the
    signed gradient ``s = a * g``: example ``mu`` may move along ``+a^mu`` ("up") when
    ``x^mu`` can still grow for ``a^mu = +1`` or shrink for ``a^mu = -1``, along
    ``-a^mu`` ("down") in the opposite cases, and the Kuhn–Tucker conditions hold with
    multiplier ``lambda`` exactly when ``max_up s <= lambda <= min_down s``.
    Membership is kept as penalties (0 for members, -inf or +inf otherwise), so that
    finding the most violating example is one addition and one argmax.
    """
    check_positive(eta, "eta")
    if not normalize:
        raise ValueError("greedy steps are eta times the exact step along the chosen direction; "
                         "normalize=False is not available")
    _check_learning_rate(eta, 2.0, "greedy AdaTron with steps eta / curvature")
    C, p, x = _box_problem(C, x0, upper, target, kkt_tol, equality, rho)
    P = len(C)
    a = None
    if equality is not None:
        a = np.array(equality, dtype=float)
        if a.shape != (P,) or not np.all(np.abs(a) == 1.0):
            raise ValueError(f"mode='greedy' needs an equality vector of length {P} with entries +-1 "
                             "(the labels)")
        if abs(float(a @ x)) > kkt_tol:
            raise ValueError("in greedy mode x0 must satisfy the equality constraint a.x = 0: "
                             "the pair steps keep a.x fixed")
    g = p - C @ x if x.any() else p.copy()
    diag = np.diag(C).copy()
    max_steps = max_epochs * P

    def objective_now() -> float:                      # f(x) = -1/2 x.C x + p.x = 1/2 x.(p + g)
        return float(0.5 * x @ (p + g))

    objective = [objective_now()]
    recorded = 0                                       # the step at which objective was last recorded
    step = 0
    diverged = False
    lam = 0.0
    buf_up, buf_down, work = np.empty(P), np.empty(P), np.empty(P)
    with np.errstate(over="ignore", invalid="ignore"):
        if a is None:
            pen_up = np.where(x < upper, 0.0, -np.inf)      # may grow
            pen_down = np.where(x > 0.0, 0.0, np.inf)       # may shrink
            while step < max_steps:
                i_up = int(np.add(g, pen_up, out=buf_up).argmax())
                i_down = int(np.add(g, pen_down, out=buf_down).argmin())
                grow, shrink = buf_up.item(i_up), -buf_down.item(i_down)
                if max(grow, shrink) <= kkt_tol:
                    break
                mu = i_up if grow >= shrink else i_down
                step += 1
                old, curv, slope = x.item(mu), diag.item(mu), g.item(mu)
                new = old + eta * slope / curv if curv > 0.0 else (np.inf if slope > 0.0 else 0.0)
                new = upper if new > upper else (0.0 if new < 0.0 else new)
                if new > _HUGE:                        # f grows without bound along this example
                    diverged = True
                    break
                x[mu] = new
                g -= np.multiply(C[mu], new - old, out=work)
                pen_up[mu] = 0.0 if new < upper else -np.inf
                pen_down[mu] = 0.0 if new > 0.0 else np.inf
                if record_steps or step % P == 0:
                    objective.append(objective_now())
                    recorded = step
        else:
            rows = C * a[:, None]                      # rows of a a^T C: s changes by t (rows[i] - rows[j])
            rows *= a
            s = a * g
            signs = a.tolist()
            pen_up = np.where(np.where(a > 0, x < upper, x > 0.0), 0.0, -np.inf)
            pen_down = np.where(np.where(a > 0, x > 0.0, x < upper), 0.0, np.inf)
            m = M = 0.0
            while True:
                i = int(np.add(s, pen_up, out=buf_up).argmax())
                j = int(np.add(s, pen_down, out=buf_down).argmin())
                m, M = buf_up.item(i), buf_down.item(j)
                if m - M <= 2.0 * kkt_tol or step >= max_steps:
                    break
                step += 1
                xi, xj, ai, aj = x.item(i), x.item(j), signs[i], signs[j]
                curv = diag.item(i) + diag.item(j) - 2.0 * rows.item(i, j)
                t = eta * (m - M) / curv if curv > 0.0 else np.inf
                room_i = upper - xi if ai > 0 else xi  # how far t may go before a bound
                room_j = xj if aj > 0 else upper - xj
                if t >= room_i or t >= room_j:         # clip, landing exactly on the bound
                    t = min(room_i, room_j)
                    xi = (upper if ai > 0 else 0.0) if t == room_i else xi + ai * t
                    xj = (0.0 if aj > 0 else upper) if t == room_j else xj - aj * t
                else:
                    xi, xj = xi + ai * t, xj - aj * t
                if t > _HUGE:                          # f grows without bound along this pair
                    diverged = True
                    break
                x[i], x[j] = xi, xj
                s -= np.multiply(np.subtract(rows[i], rows[j], out=work), t, out=work)
                for k, xk, ak in ((i, xi, ai), (j, xj, aj)):
                    can_grow, can_shrink = xk < upper, xk > 0.0
                    pen_up[k] = 0.0 if (can_grow if ak > 0 else can_shrink) else -np.inf
                    pen_down[k] = 0.0 if (can_shrink if ak > 0 else can_grow) else np.inf
                if record_steps or step % P == 0:
                    np.multiply(a, s, out=g)
                    objective.append(objective_now())
                    recorded = step
            np.multiply(a, s, out=g)
            # the multiplier: the midpoint of [max_up s, min_down s] (one end if the other is empty)
            ends = [v for v in (m, M) if np.isfinite(v)]
            lam = float(np.mean(ends)) if ends else 0.0
        if step != recorded:
            objective.append(objective_now())
    if diverged or not np.all(np.isfinite(x)) or x.max(initial=0.0) > _HUGE:
        diverged, violation = True, float("inf")
    elif a is None:
        violation = float(box_kkt_violation(x, g, upper).max())
    else:
        violation = max(float(box_kkt_violation(x, g - lam * a, upper).max()), abs(float(a @ x)))
    converged = bool(not diverged and violation <= kkt_tol)
    return EmbeddingRun(x, np.array(objective), converged, diverged, max(1, -(-step // P)), lam,
                        violation, step)


# ---------------------------------------------------------------- estimators

class _LinearBinaryClassifier(LinearBinaryClassifier):
    """Shared scaffolding: an optional clamped bias input and storing the augmented weights."""

    def _prepare(self, X, y):
        X, y_pm = self._binary_targets(X, y)
        s = float(self.bias_input) if self.fit_intercept else None
        Xa = augment(X, s) if s is not None else np.asarray(X, dtype=float)
        return X, y_pm, Xa, s

    def _store_weights(self, w: np.ndarray, s: float | None) -> None:
        if s is None:
            self.coef_, self.intercept_ = w.copy(), 0.0
        else:
            self.coef_, self.intercept_ = w[1:].copy(), float(w[0] * s)


def _kappa_of(Xa, y, w) -> float:
    norm = float(np.linalg.norm(w))
    return float(np.min(y * (Xa @ w)) / norm) if norm > 0 else -np.inf


class MinOver(_LinearBinaryClassifier):
    """MinOver (Krauth and Mézard 1987): Hebbian steps on the least stable example.

    From ``w = 0`` (tabula rasa) every step adds ``xi^mu y^mu / N`` for the example with
    the smallest local potential ``E^mu = y^mu w . xi^mu``, eqs. (3.42)–(3.44); the
    embedding strengths ``x^mu`` count these steps.  For linearly separable data ``w``
    turns towards the perceptron of optimal stability.  See :func:`minover_embeddings`
    for the two stopping criteria.

    Parameters
    ----------
    max_steps : int, default 200000
        Step limit; reaching it gives ``converged_ = False`` and a ``ConvergenceWarning``
        (always so for data that are not linearly separable).
    tol : float, default 1e-5
        Threshold of the stopping criterion.
    criterion : {"angle", "stabilities"}
    check_every : int, optional
        ``T``, the number of steps between two checks; ``P`` by default.
    c : float, default inf
        Update only while the smallest ``E <= c`` (the original variant); ``inf`` is (3.43).
    fit_intercept : bool, default True
        Append the clamped input ``bias_input`` to every example (the bias then enters
        the norm).  ``False``: Biehl's perceptron through the origin.
    bias_input : float, default 1.0

    Attributes
    ----------
    coef_, intercept_ : the weights (in the scale of the 1/N convention)
    embeddings_ : array (n_samples,) of the step counts ``x^mu``
    kappa_history_ : array of ``kappa(w(t))`` after every step (on augmented inputs)
    changes_ : the stopping quantity at every check
    kappa_ : final stability on the (augmented) training inputs
    n_steps_ : int
    converged_ : bool
    """

    _parameter_constraints = {
        "max_steps": [COUNT],
        "tol": [POSITIVE],
        "criterion": [Options("angle", "stabilities")],
        "check_every": [COUNT, None],
        # From tabula rasa every E is 0, so c < 0 would stop before the first step.
        "c": [Interval(numbers.Real, 0, None, closed="left", allow_inf=True)],
        "fit_intercept": ["boolean"],
        "bias_input": NON_ZERO,
    }

    def __init__(self, max_steps=200_000, tol=1e-5, criterion="angle", check_every=None, c=np.inf,
                 fit_intercept=True, bias_input=1.0):
        self.max_steps = max_steps
        self.tol = tol
        self.criterion = criterion
        self.check_every = check_every
        self.c = c
        self.fit_intercept = fit_intercept
        self.bias_input = bias_input

    def fit(self, X, y):
        """Run MinOver on ``X`` (n_samples, n_features) with two classes in ``y``."""
        check_params(self)
        X, y_pm, Xa, s = self._prepare(X, y)
        C = correlation_matrix(Xa, y_pm)
        run = minover_embeddings(C, Xa.shape[1], max_steps=self.max_steps, check_every=self.check_every,
                                 tol=self.tol, criterion=self.criterion, c=self.c)
        w = weights_from_embeddings(run.x, Xa, y_pm)
        self._store_weights(w, s)
        self.embeddings_ = run.x
        self.kappa_history_ = run.kappa
        self.changes_ = run.changes
        self.kappa_ = _kappa_of(Xa, y_pm, w)
        self.n_steps_ = run.n_steps
        self.converged_ = run.converged
        if not self.converged_:
            warnings.warn(
                f"MinOver stopped at max_steps={self.max_steps} without meeting its stopping "
                f"criterion (stability kappa = {self.kappa_:.4g}); "
                + ("the data are not linearly separable" if self.kappa_ <= 0 else "raise max_steps"),
                ConvergenceWarning,
            )
        return self


class AdaTron(_LinearBinaryClassifier):
    """The AdaTron (Anlauf and Biehl 1989): the perceptron of optimal stability by quadratic optimisation.

    Maximises the Wolfe dual ``f(x) = -1/2 x.C x + sum x`` over ``x >= 0`` (3.75) by the
    clipped Adaline steps (3.76), sequentially or in parallel, and returns
    ``w = (1/N) sum_mu x^mu y^mu xi^mu``.  At the solution the Kuhn–Tucker conditions
    (3.71)–(3.73) hold, the stability is ``kappa_max = 1 / |w|``, and the examples with
    ``x^mu > 0`` are the support vectors (3.77).

    Parameters
    ----------
    eta : float, default 1.0
        Learning rate.  With ``normalize=True`` the step for example ``mu`` is
        ``eta / C^{mu mu}`` (parallel: ``eta / lambda_max(C)``) and the window is
        ``0 < eta < 2`` for any data; Biehl's ``0 < eta < 2`` for the raw step assumes
        ``|xi^mu|^2 = N``.  Outside the window a :class:`LearningRateWarning` is issued.
    mode : {"sequential", "parallel", "greedy"}
        ``"greedy"`` steps the example that violates the Kuhn–Tucker conditions most
        instead of sweeping (see :func:`adatron_embeddings`); it needs ``normalize=True``.
    normalize : bool, default True
    max_epochs : int, default 1000
        With ``mode="greedy"``, ``P`` steps count as one epoch.
    tol : float, default 1e-10
        Relative change of the embeddings in an epoch below which the run stops; with
        ``mode="greedy"`` the largest allowed violation of the Kuhn–Tucker conditions.
    fit_intercept, bias_input : as for :class:`MinOver`.

    Attributes
    ----------
    coef_, intercept_, embeddings_ : weights and embedding strengths ``x``
    support_ : indices of the support vectors
    objective_history_ : ``f(x)`` at the start and after every epoch
    kkt_ : :class:`KKTResiduals` at the end
    kappa_ : stability on the (augmented) training inputs
    n_epochs_, converged_, diverged_
    """

    _parameter_constraints = {
        "eta": [POSITIVE],
        "mode": [Options("sequential", "parallel", "greedy")],
        "normalize": ["boolean"],
        "max_epochs": [COUNT],
        "tol": [NON_NEGATIVE],
        "fit_intercept": ["boolean"],
        "bias_input": NON_ZERO,
    }

    def __init__(self, eta=1.0, mode="sequential", normalize=True, max_epochs=1000, tol=1e-10,
                 fit_intercept=True, bias_input=1.0):
        self.eta = eta
        self.mode = mode
        self.normalize = normalize
        self.max_epochs = max_epochs
        self.tol = tol
        self.fit_intercept = fit_intercept
        self.bias_input = bias_input

    def fit(self, X, y):
        """Train on ``X`` (n_samples, n_features) with two classes in ``y``."""
        check_params(self)
        X, y_pm, Xa, s = self._prepare(X, y)
        C = correlation_matrix(Xa, y_pm)
        run = adatron_embeddings(C, self.eta, mode=self.mode, normalize=self.normalize,
                                 max_epochs=self.max_epochs, tol=self.tol,
                                 kkt_tol=self.tol if self.mode == "greedy" else None)
        w = weights_from_embeddings(run.x, Xa, y_pm) if not run.diverged else np.zeros(Xa.shape[1])
        self._store_weights(w, s)
        self.embeddings_ = run.x
        self.objective_history_ = run.objective
        self.support_ = support_vectors(run.x) if not run.diverged else np.array([], dtype=int)
        self.kkt_ = kkt_residuals(run.x, C)
        self.kappa_ = _kappa_of(Xa, y_pm, w)
        self.n_epochs_ = run.n_epochs
        self.converged_ = run.converged
        self.diverged_ = run.diverged
        if not self.converged_:
            reason = ("the embeddings diverged" if run.diverged else
                      f"the Kuhn-Tucker conditions are violated by {self.kkt_.max():.3g}")
            warnings.warn(
                f"AdaTron did not converge within max_epochs={self.max_epochs} epochs ({reason}); "
                "the hard-margin problem has no solution when the data are not linearly separable",
                ConvergenceWarning,
            )
        return self


class Adaline(_LinearBinaryClassifier):
    """Adaline (Widrow and Hoff 1960): gradient descent on the squared error.

    Minimises Deckert's loss (11) with the identity activation, which is Biehl's
    ``E^SSE`` of eq. (3.66),

        ``L(w) = 1/2 sum_mu (y^mu - w . x^mu)^2 = 1/2 sum_mu (1 - E^mu)^2``,

    with the gradient ``-sum_mu (y^mu - w . x^mu) x^mu`` (note the minus sign, which the
    notes drop in 3.66).  One step on a block ``B`` of examples is

        ``w <- w + eta sum_{mu in B} (y^mu - w . x^mu) x^mu``

    with ``B`` all examples (``solver="batch"``, Biehl's parallel rule 3.63 with
    ``eta = eta_Biehl / N``), one example at a time (``"sequential"``, the LMS or delta
    rule 3.65) or consecutive blocks of ``batch_size`` (``"minibatch"``).  Training stops
    when the weights change by less than ``tol`` in an epoch (``tol=None``: run all
    ``max_epochs``), or as diverged when the loss exceeds ``1e10`` times its start value.

    Convergent windows (a :class:`LearningRateWarning` names the window when ``eta`` lies
    outside): batch ``0 < eta < 2 / lambda_max(X^T X)`` (:func:`gd_stability_limit`);
    sequential ``0 < eta < 2 / max |x^mu|^2`` (:func:`lms_stability_limit`), or
    ``0 < eta < 2`` with ``normalize=True`` (step ``eta / |x^mu|^2``, normalised LMS,
    Biehl's ``eta~ / C^{mu mu}``); mini-batch ``2 / max_k lambda_max`` over the blocks
    (in data order; with shuffling the bound uses the ``batch_size`` largest ``|x|^2``).

    Parameters
    ----------
    eta : float or "auto", default "auto"
        The learning rate.  ``"auto"`` takes half the upper end of the convergent window
        of the chosen solver (``learning_rate_limit_ / 2``), so the default converges on
        any data; a number outside the window gets a :class:`LearningRateWarning`.
    solver : {"batch", "sequential", "minibatch"}
    batch_size : int, optional (needed for ``"minibatch"``)
    normalize : bool, default False (only for ``"sequential"``)
    max_epochs : int, default 1000
    tol : float or None, default 1e-8
    shuffle : bool, default False
        Fresh random order every epoch (sequential and mini-batch).
    random_state : seed, Generator or RandomState
    fit_intercept, bias_input : augmented inputs ``(s, x)`` as for the perceptron
    record_history : bool
        Keep the (augmented) weights after every epoch in ``history_``.

    Attributes
    ----------
    coef_, intercept_ : weights
    loss_ : list of float
        The loss at the start and after every epoch (Deckert logs the loss *before*
        each epoch's update, i.e. ``loss_[:-1]``).
    errors_per_epoch_ : misclassified training examples after every epoch
    embeddings_ : Biehl's ``x^mu`` (1/N convention) accumulated from the start weights
    learning_rate_limit_ : the upper end of the convergent window
    eta_ : the learning rate used (``eta``, or the one ``"auto"`` chose)
    n_epochs_, converged_, diverged_, history_
    """

    _parameter_constraints = {
        "eta": [POSITIVE, Options("auto")],
        "solver": [Options("batch", "sequential", "minibatch")],
        "batch_size": [COUNT, None],
        "normalize": ["boolean"],
        "max_epochs": [COUNT],
        "tol": [NON_NEGATIVE, None],
        "shuffle": ["boolean"],
        "random_state": ["random_state"],
        "fit_intercept": ["boolean"],
        "bias_input": NON_ZERO,
        "record_history": ["boolean"],
    }

    def __init__(self, eta="auto", solver="batch", batch_size=None, normalize=False, max_epochs=1000,
                 tol=1e-8, shuffle=False, random_state=None, fit_intercept=True, bias_input=1.0,
                 record_history=False):
        self.eta = eta
        self.solver = solver
        self.batch_size = batch_size
        self.normalize = normalize
        self.max_epochs = max_epochs
        self.tol = tol
        self.shuffle = shuffle
        self.random_state = random_state
        self.fit_intercept = fit_intercept
        self.bias_input = bias_input
        self.record_history = record_history

    def _window(self, Xa: np.ndarray, B: int) -> tuple[float, str]:
        P = len(Xa)
        if B >= P:
            return gd_stability_limit(Xa), "batch gradient descent: 2 / lambda_max(X^T X)"
        if B == 1:
            if self.normalize:
                return 2.0, "normalised LMS, steps eta / |x|^2"
            return lms_stability_limit(Xa), ("sequential LMS: 2 / max |x|^2; Biehl's 0 < eta~ < 2 "
                                             "assumes |xi|^2 = N")
        if self.shuffle:
            sq = np.sort(np.einsum("ij,ij->i", Xa, Xa))[::-1]
            top = min(float(sq[:B].sum()), 2.0 / gd_stability_limit(Xa))
            return 2.0 / top, f"mini-batches of {B}: bound from the {B} largest |x|^2"
        lam = max(float(np.linalg.eigvalsh(Xa[k:k + B].T @ Xa[k:k + B])[-1]) for k in range(0, P, B))
        return 2.0 / lam, f"mini-batches of {B}: 2 / largest lambda_max of a block"

    def fit(self, X, y, coef_init=None, intercept_init=None):
        """Train on ``X`` (n_samples, n_features) with two classes in ``y``.

        ``coef_init``/``intercept_init`` give the start weights (zero by default).
        """
        check_params(self)
        # combinations of parameters the table cannot express
        if self.solver == "minibatch" and self.batch_size is None:
            raise ValueError(f"solver='minibatch' needs a positive integer batch_size, got {self.batch_size!r}")
        if self.normalize and self.solver != "sequential":
            raise ValueError("normalize=True (normalised LMS) is defined for solver='sequential' only")
        X, y_pm, Xa, s = self._prepare(X, y)
        P, D = Xa.shape
        w = np.zeros(D)
        if coef_init is not None:
            coef_init = np.asarray(coef_init, dtype=float)
            if coef_init.shape != (X.shape[1],):
                raise ValueError(f"coef_init has shape {coef_init.shape}, expected ({X.shape[1]},)")
            w[D - X.shape[1]:] = coef_init
        if intercept_init is not None:
            if s is None:
                raise ValueError("intercept_init given but fit_intercept=False")
            w[0] = float(intercept_init) / s
        B = {"batch": P, "sequential": 1}.get(self.solver, self.batch_size)
        B = min(B, P)
        limit, window = self._window(Xa, B)
        self.learning_rate_limit_ = float(limit)
        eta = 0.5 * float(limit) if self.eta == "auto" else float(self.eta)
        _check_learning_rate(eta, limit, window)
        self.eta_ = eta
        sqnorm = np.einsum("ij,ij->i", Xa, Xa)
        scale = np.where(sqnorm > 0, 1.0 / np.where(sqnorm > 0, sqnorm, 1.0), 0.0) if self.normalize else None
        rng = resolve_rng(self.random_state)
        a = np.zeros(P)                      # w = w0 + sum_mu a^mu y^mu x^mu

        def loss_of(v):
            r = y_pm - Xa @ v
            return float(0.5 * r @ r)

        losses, errors, history = [loss_of(w)], [], [w.copy()]
        converged = diverged = False
        epoch = 0
        with np.errstate(over="ignore", invalid="ignore"):
            for epoch in range(1, self.max_epochs + 1):
                old = w.copy()
                order = rng.permutation(P) if (self.shuffle and B < P) else np.arange(P)
                if B == 1:
                    for mu in order:
                        r = y_pm[mu] - Xa[mu] @ w
                        step = eta * r * (scale[mu] if scale is not None else 1.0)
                        w += step * Xa[mu]
                        a[mu] += step * y_pm[mu]
                else:
                    for k in range(0, P, B):
                        idx = order[k:k + B]
                        r = y_pm[idx] - Xa[idx] @ w
                        w += eta * (r @ Xa[idx])
                        a[idx] += eta * r * y_pm[idx]
                loss = loss_of(w)
                losses.append(loss)
                errors.append(int(np.sum(y_pm * (Xa @ w) < 0)))
                if self.record_history:
                    history.append(w.copy())
                if not np.isfinite(loss) or loss > _DIVERGED * max(1.0, losses[0]):
                    diverged = True
                    break
                if self.tol is not None and np.abs(w - old).max() <= self.tol * max(1.0, np.abs(w).max()):
                    converged = True
                    break
        if diverged:
            w = np.nan_to_num(w)
        self._store_weights(w, s)
        self.loss_ = losses
        self.errors_per_epoch_ = errors
        self.embeddings_ = D * a
        self.n_epochs_ = epoch
        self.converged_ = converged
        self.diverged_ = diverged
        if self.record_history:
            W = np.array(history)
            self.history_ = W if s is None else np.c_[W[:, 0] * s, W[:, 1:]]
        if diverged:
            warnings.warn(
                f"Adaline diverged after {epoch} epoch(s): eta={eta:.6g} is outside the convergent "
                f"window 0 < eta < {limit:.6g} ({window})", ConvergenceWarning,
            )
        elif self.tol is not None and not converged:
            warnings.warn(
                f"Adaline did not converge within max_epochs={self.max_epochs} epochs "
                f"(loss {losses[-1]:.6g}); increase max_epochs or eta (window 0 < eta < {limit:.6g})",
                ConvergenceWarning,
            )
        return self


# ---------------------------------------------------------------- Deckert's 1-d demonstrations

def gradient_descent_1d(grad: Callable[[float], float], w0: float, eta: float, n_steps: int) -> np.ndarray:
    """Iterates ``w_{k+1} = w_k - eta L'(w_k)`` of plain gradient descent (Deckert eq. 13).

    Returns the ``n_steps + 1`` values ``w_0, ..., w_{n_steps}``.
    """
    if n_steps < 0:
        raise ValueError(f"n_steps must be non-negative, got {n_steps}")
    ws = np.empty(n_steps + 1)
    ws[0] = w0
    for k in range(n_steps):
        ws[k + 1] = ws[k] - eta * grad(ws[k])
    return ws


def single_sample_loss(w, xi: float = 2.0, target: float = 1.0):
    """Deckert's loss (11) for one example: ``L(w) = 1/2 (target - xi w)^2``."""
    return 0.5 * (target - xi * np.asarray(w, dtype=float)) ** 2


def single_sample_grad(w, xi: float = 2.0, target: float = 1.0):
    """``L'(w) = -(target - xi w) xi``; gradient descent converges iff ``0 < eta < 2 / xi^2``."""
    return -(target - xi * np.asarray(w, dtype=float)) * xi


def double_well_loss(w):
    """Deckert's non-convex example ``L(w) = 0.001 w^4 - 5 (w - 5)^2``."""
    w = np.asarray(w, dtype=float)
    return 0.001 * w ** 4 - 5.0 * (w - 5.0) ** 2


def double_well_grad(w):
    """``L'(w) = 0.004 w^3 - 10 (w - 5)``."""
    w = np.asarray(w, dtype=float)
    return 0.004 * w ** 3 - 10.0 * (w - 5.0)


def double_well_stationary_points() -> dict[str, float]:
    """The roots of ``L'`` for :func:`double_well_loss`: global minimum, local maximum, local minimum."""
    roots = np.sort(np.roots([0.004, 0.0, -10.0, 50.0]).real)
    return {"global minimum": float(roots[0]), "local maximum": float(roots[1]),
            "local minimum": float(roots[2])}


@dataclass(frozen=True)
class GradientDescentDemo:
    """One of Deckert's learning-rate figures: the loss, the start, the rate and the plot range."""

    name: str
    loss: Callable
    grad: Callable
    w0: float
    eta: float
    n_steps: int
    wrange: tuple[float, float]

    def iterates(self, n_steps: int | None = None) -> np.ndarray:
        return gradient_descent_1d(self.grad, self.w0, self.eta, self.n_steps if n_steps is None else n_steps)


def deckert_demo(name: str) -> GradientDescentDemo:
    """Deckert's three learning-rate figures (MAML §3.3.4).

    ``"too_large"``: one example ``xi = 2`` with target 1, ``w0 = 5``, ``eta = 0.6``,
    4 steps (diverges, since ``eta > 2 / xi^2 = 0.5``); ``"too_small"``: the double well
    from ``w0 = 80`` with ``eta = 0.01``, 4 steps (heads for the local minimum);
    ``"no_convergence"``: the double well from ``w0 = 70`` with ``eta = 0.16``, 50 steps.
    """
    demos = {
        "too_large": GradientDescentDemo("too_large", single_sample_loss, single_sample_grad,
                                         5.0, 0.6, 4, (-20.0, 20.0)),
        "too_small": GradientDescentDemo("too_small", double_well_loss, double_well_grad,
                                         80.0, 0.01, 4, (-100.0, 100.0)),
        "no_convergence": GradientDescentDemo("no_convergence", double_well_loss, double_well_grad,
                                              70.0, 0.16, 50, (-80.0, 80.0)),
    }
    if name not in demos:
        raise ValueError(f"unknown demo {name!r}; choose from {sorted(demos)}")
    return demos[name]
