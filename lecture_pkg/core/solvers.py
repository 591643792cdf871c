"""The AdaTron/Adaline family of solvers on embedding strengths (Biehl §3.5--3.6, §4.3).

The perceptron of optimal stability and the support vector machine solve one quadratic
problem in the embedding strengths ``a^mu`` (Biehl's ``x^mu``; his ``xi^mu`` are the
inputs) of ``w = (1/N) sum_mu a^mu y^mu xi^mu``: maximise ``sum_mu a^mu - a.Q a / 2``
subject to ``0 <= a^mu <= upper`` (and, for an SVM with an unpenalised bias,
``sum_mu a^mu y^mu = 0``).  ``Q`` is the correlation matrix
``Q^{mu nu} = (1/N) y^mu y^nu xi^mu . xi^nu`` (3.58; Biehl writes it ``C``, a letter the
book keeps for the price of slack) for the linear perceptron and
``Gamma^{mu nu} = y^mu y^nu K(xi^mu, xi^nu)`` (4.19) for a kernel machine, so one set of
solvers serves :class:`lecture_pkg.linear.AdaTron`, :class:`lecture_pkg.linear.Adaline`,
:class:`lecture_pkg.linear.SoftMarginAdaTron` and
:class:`lecture_pkg.kernel_machines.KernelAdaTron`:

* :func:`adaline_embeddings` -- Adaline's gradient steps on the quadratic cost (3.66);
* :func:`adatron_embeddings` -- the AdaTron (3.67): sequential or parallel sweeps,
  clipped at 0 (and at ``upper`` for a soft margin), or the greedy steps on the most
  violating pair of SMO, which keep the equality constraint exactly;
* :func:`kkt_residuals`, :func:`box_kkt_violation`, :func:`dual_objective`,
  :func:`support_vectors` -- the Kuhn-Tucker conditions (3.52--3.53) and the dual cost
  that tell a solution from an iterate.

Notation: ``Q`` is any symmetric positive semi-definite matrix of the form above; ``a``
is the vector of the embedding strengths (the parameter ``a`` of the functions below, the
start ``a0`` of the runs); the runs return an :class:`EmbeddingRun` with the embeddings
``a``, the objective per epoch and the final Kuhn-Tucker violation.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import NamedTuple

import numpy as np

from ..validation import (COUNT, MATRIX, NON_NEGATIVE, POSITIVE, POSITIVE_OR_INF, VECTOR, Array,
                          Options, validate_args, warn_user)
from ._rows import KernelRows

__all__ = [
    "LearningRateWarning",
    "check_learning_rate",
    "DIVERGENCE_FACTOR",
    "dual_objective",
    "KKTResiduals",
    "kkt_residuals",
    "support_vectors",
    "EmbeddingRun",
    "adaline_embeddings",
    "adatron_embeddings",
    "box_kkt_violation",
]


class LearningRateWarning(UserWarning):
    """The learning rate lies outside the window in which the iteration converges."""


@validate_args(eta=POSITIVE, limit=POSITIVE_OR_INF)
def check_learning_rate(eta: float, limit: float, window: str) -> None:
    """Warn with :class:`~lecture_pkg.linear.LearningRateWarning` unless ``eta < limit``
    (the warning names the window as ``window`` says it)."""
    if not eta < limit:
        warn_user(
            f"the learning rate eta={eta:.6g} lies outside the convergent window "
            f"0 < eta < {limit:.6g} ({window}); the iteration will not converge",
            LearningRateWarning,
        )


@validate_args(a=VECTOR, Q=MATRIX)
def dual_objective(a: np.ndarray, Q: np.ndarray) -> float:
    """``f(a) = -1/2 a.Q a + sum_mu a^mu``, the cost of Adaline (3.61) and AdaTron (3.75).

    At the maximum over ``a >= 0`` it equals ``N |w_max|^2 / 2`` (strong duality).
    """
    return float(-0.5 * a @ Q @ a + a.sum())


class KKTResiduals(NamedTuple):
    """How far embeddings are from the Kuhn–Tucker point (3.71)–(3.73); all zero there.

    ``constraint = max(0, 1 - min_mu E^mu)``, ``sign = max(0, -min_mu a^mu)``,
    ``complementarity = max_mu |a^mu (E^mu - 1)|``.
    """

    constraint: float
    sign: float
    complementarity: float

    def max(self) -> float:
        """The largest of the three residuals: zero exactly at the Kuhn–Tucker point."""
        return max(self)


@validate_args(a=VECTOR, Q=MATRIX)
def kkt_residuals(a: np.ndarray, Q: np.ndarray) -> KKTResiduals:
    """Residuals of the optimality conditions of maximal stability, eqs. (3.71)–(3.73).

    ``E = Q a >= 1`` (the examples are stored with stability ``1/|w|`` at least),
    ``a >= 0`` and ``a^mu (E^mu - 1) = 0`` (an example either sits on the margin or has
    no embedding).
    """
    if Q.shape != (len(a), len(a)):
        raise ValueError(f"Q has shape {Q.shape}, expected ({len(a)}, {len(a)})")
    E = Q @ a
    return KKTResiduals(float(max(0.0, 1.0 - E.min())), float(max(0.0, -a.min())),
                        float(np.max(np.abs(a * (E - 1.0)))))


@validate_args(a=VECTOR, tol=NON_NEGATIVE)
def support_vectors(a: np.ndarray, tol: float = 1e-8) -> np.ndarray:
    """Indices of the support vectors, the examples with embedding ``a^mu > tol`` (3.77).

    ``tol`` is relative to the largest embedding strength.
    """
    scale = max(1.0, float(np.abs(a).max())) if a.size else 1.0
    return np.flatnonzero(a > tol * scale)


def _as_square(Q) -> np.ndarray:
    if isinstance(Q, KernelRows):                      # rows on demand (the greedy solver only)
        return Q
    Q = np.asarray(Q, dtype=float)
    if Q.ndim != 2 or Q.shape[0] != Q.shape[1] or len(Q) == 0:
        raise ValueError(f"Q must be a non-empty square matrix, got shape {Q.shape}")
    return Q


def _embedding_steps(Q: np.ndarray | None, eta: float, mode: str, normalize: bool, name: str,
                     diag: np.ndarray | None = None) -> np.ndarray:
    """Per-example step sizes and the learning-rate check for the iterations on ``a``.

    Sequential steps need only the diagonal of ``Q`` (``diag``, read off ``Q`` by
    default); parallel steps need ``Q`` itself for its largest eigenvalue.  (``eta`` and
    ``mode`` are checked by the public functions' ``validate_args``.)
    """
    if mode == "sequential":
        diag = np.diag(Q) if diag is None else diag
        P = len(diag)
        if normalize:
            check_learning_rate(eta, 2.0, f"sequential {name} with steps eta / Q^mumu")
            with np.errstate(divide="ignore"):
                return np.where(diag > 0, eta / np.where(diag > 0, diag, 1.0), 0.0)
        top = float(diag.max())
        check_learning_rate(eta, 2.0 / top if top > 0 else np.inf,
                             f"sequential {name}: 2 / max Q^mumu; this is Biehl's 0 < eta < 2 "
                             "only when every Q^mumu = ||x^mu||^2 / N = 1")
        return np.full(P, float(eta))
    P = len(Q)
    lam = float(np.linalg.eigvalsh(Q)[-1])
    if normalize:
        check_learning_rate(eta, 2.0, f"parallel {name} with step eta / lambda_max(Q)")
        return np.full(P, eta / lam if lam > 0 else 0.0)
    check_learning_rate(eta, 2.0 / lam if lam > 0 else np.inf,
                        f"parallel {name}: 2 / lambda_max(Q)")
    return np.full(P, float(eta))


@dataclass
class EmbeddingRun:
    """Result of :func:`adaline_embeddings` and :func:`adatron_embeddings`.

    ``a`` holds the embedding strengths ``a^mu`` at the end; ``multiplier`` is the Lagrange
    multiplier of the equality constraint ``u.a = 0`` (the unpenalised bias of an SVM, see
    :func:`adatron_embeddings`); ``kkt_violation`` the largest violation of the optimality
    conditions at the end (``nan`` for Adaline and for the change-based stopping rule,
    which does not compute it).
    """

    a: np.ndarray
    objective: np.ndarray        # f(a) of (3.61)/(3.75): at the start and after every epoch
                                 # (or step)
    converged: bool
    diverged: bool
    n_epochs: int
    multiplier: float = 0.0
    kkt_violation: float = float("nan")
    n_steps: int = 0             # examples stepped (greedy mode with ``equality``: pairs of
                                 # examples)
    snapshots: dict[int, np.ndarray] = field(default_factory=dict)   # epoch -> a (snapshot_epochs)


_HUGE = 1e12         # embeddings beyond this count as diverged
#: Adaline: a loss this many times the start loss counts as diverged.
DIVERGENCE_FACTOR = 1e10


def _run_embeddings(Q, eta, mode, normalize, max_epochs, tol, a0, record_steps, clip, name,
                    snaps=frozenset()):
    Q = _as_square(Q)
    steps = _embedding_steps(Q, eta, mode, normalize, name)
    P = len(Q)
    a = np.zeros(P) if a0 is None else np.array(a0, dtype=float)
    if a.shape != (P,):
        raise ValueError(f"a0 has shape {a.shape}, expected ({P},)")
    E = Q @ a
    objective = [float(-0.5 * a @ E + a.sum())]
    converged = diverged = False
    epoch = 0
    snapshots = {}
    # the sequential sweep as in _run_box_adatron: scalars as Python floats (the same IEEE
    # arithmetic as numpy's float64 scalars), E <- E + delta * column mu without a temporary
    step_of, cols, col_delta = steps.tolist(), list(Q.T), np.empty(P)
    with np.errstate(over="ignore", invalid="ignore"):
        for epoch in range(1, max_epochs + 1):
            old = a.copy()
            if mode == "parallel":
                a = a + steps * (1.0 - E)
                if clip:
                    a = np.maximum(a, 0.0)
                E = Q @ a
            else:
                a_item, E_item = a.item, E.item
                for mu in range(P):
                    now = a_item(mu)
                    new = now + step_of[mu] * (1.0 - E_item(mu))
                    if clip and new < 0.0:
                        new = 0.0
                    delta = new - now
                    if delta != 0.0:
                        a[mu] = new
                        np.multiply(cols[mu], delta, out=col_delta)
                        E += col_delta
                    if record_steps:
                        objective.append(float(-0.5 * a @ E + a.sum()))
            if not record_steps:
                objective.append(float(-0.5 * a @ E + a.sum()))
            if epoch in snaps:
                snapshots[epoch] = a.copy()
            largest = float(np.abs(a).max())        # NaN if a holds a NaN, inf if an inf
            if not largest <= _HUGE:
                diverged = True
                break
            change = float(np.abs(a - old).max())
            if change <= tol * max(1.0, largest):
                feasible = (E.min() >= 1.0 - 1e-6) if clip else True
                converged = bool(feasible)
                if converged or change == 0.0:
                    break
    return EmbeddingRun(a, np.array(objective), converged, diverged, epoch, n_steps=epoch * P,
                        snapshots=snapshots)


_SWEEPS = ("sequential", "parallel")
_RUN = dict(eta=POSITIVE, max_epochs=COUNT, tol=NON_NEGATIVE, a0=[VECTOR, None])


@validate_args(Q=MATRIX, mode=Options(*_SWEEPS), **_RUN)
def adaline_embeddings(Q: np.ndarray, eta: float = 1.0, *, mode: str = "sequential",
                       normalize: bool = True, max_epochs: int = 1000, tol: float = 1e-12,
                       a0: np.ndarray | None = None, record_steps: bool = False) -> EmbeddingRun:
    """Adaline in Biehl's embedding form: gradient ascent on ``f(a)`` of (3.61).

    ``mode="parallel"``: ``a <- a + eta (1 - Q a)`` (3.62), converges for
    ``0 < eta < 2 / lambda_max(Q)``.  ``mode="sequential"``: cyclically
    ``a^mu <- a^mu + eta (1 - E^mu)`` (3.64, with ``a^mu(t+1)`` on the left).  Biehl's
    window ``0 < eta < 2`` holds when ``Q^{mu mu} = 1``, i.e. ``|xi^mu|^2 = N``; with
    ``normalize=True`` the step is ``eta / Q^{mu mu}`` (parallel: ``eta / lambda_max(Q)``),
    which puts the window at ``0 < eta < 2`` for any data.  A learning rate outside the
    window gives a :class:`~lecture_pkg.linear.LearningRateWarning`; a diverging run stops
    early with ``diverged=True``.  ``a0`` is the start (zero by default).
    """
    return _run_embeddings(Q, eta, mode, normalize, max_epochs, tol, a0, record_steps, False,
                           "Adaline")


@validate_args(Q=[KernelRows, MATRIX], mode=Options(*_SWEEPS, "greedy"), **_RUN,
               upper=POSITIVE_OR_INF, target=[VECTOR, None], equality=[VECTOR, None],
               rho=[POSITIVE, None], kkt_tol=[POSITIVE, None],
               snapshot_epochs=Array(1, within=COUNT))
def adatron_embeddings(Q: np.ndarray, eta: float = 1.0, *, mode: str = "sequential",
                       normalize: bool = True, max_epochs: int = 1000, tol: float = 1e-10,
                       a0: np.ndarray | None = None, record_steps: bool = False,
                       upper: float = np.inf, target: np.ndarray | None = None,
                       equality: np.ndarray | None = None, rho: float | None = None,
                       kkt_tol: float | None = None,
                       snapshot_epochs: Iterable[int] = ()) -> EmbeddingRun:
    """AdaTron (Anlauf and Biehl): projected gradient ascent on the Wolfe dual (3.75).

    Sequential (3.76): ``a^mu <- max(0, a^mu + eta (1 - [Q a]^mu))``, cyclically;
    parallel: the same step for all ``mu`` at once; from the start ``a0`` (zero by
    default).  Learning-rate windows and
    ``normalize`` as in :func:`adaline_embeddings`.  ``objective`` records ``f(a)``, which
    *increases* monotonically inside the window (after every step with
    ``record_steps=True``).  Converged means: the largest change of an embedding in an
    epoch is below ``tol`` (relative) and ``min E >= 1`` up to ``1e-6``.  For data that
    are not linearly separable the embeddings grow without bound and the run stops at
    ``max_epochs`` (or with ``diverged=True``).

    The same iteration solves the more general box-constrained dual

        maximise ``f(a) = -1/2 a.Q a + p.a``  subject to  ``0 <= a^mu <= upper``
        (and, optionally, ``u.a = 0``),

    with the step ``a^mu <- min(upper, max(0, a^mu + eta^mu (p^mu - [Q a]^mu)))``:

    * ``upper = C``, the price of slack (Biehl's ``gamma``), is Biehl's AdaTron with
      errors (4.6), the dual (4.5) of the soft-margin perceptron (4.3); ``upper = inf``
      is (3.76);
    * ``Q`` may be any positive semi-definite matrix, e.g. ``y^mu y^nu K(xi^mu, xi^nu)``
      from a kernel: that is the kernel AdaTron (4.26) and its soft-margin version;
    * ``target`` is ``p`` (all ones by default);
    * ``equality = u``, the equality vector, adds the constraint ``u.a = 0`` (``u = y``
      for the unpenalised bias of a support vector machine).  It is enforced by the method
      of multipliers: the iteration runs on ``Q + rho u u^T`` with target
      ``p - lambda u``, and after every epoch the multiplier moves,
      ``lambda <- lambda + rho u.a``.  At the solution ``lambda`` is the bias ``b`` of
      the decision function ``sum_nu a^nu y^nu K + b`` and is returned as
      ``multiplier``.  ``rho`` defaults to ``0.1`` times the mean diagonal of ``Q``.

    When any of these options or ``kkt_tol`` is given, the run stops on the
    Kuhn–Tucker conditions instead of on the change of ``a``: with the gradient
    ``g = p - lambda u - (Q + rho u u^T) a`` the violation of example ``mu`` is
    ``|g^mu|`` for ``0 < a^mu < upper``, ``max(0, g^mu)`` at ``a^mu = 0`` and
    ``max(0, -g^mu)`` at ``a^mu = upper``; the run has converged when the largest
    violation and ``|u.a|`` are at most ``kkt_tol`` (``1e-6`` by default).  In
    sequential mode an epoch visits only the examples that violate the conditions by
    more than ``kkt_tol`` (the others would not move, or move by less than the
    tolerance), which makes late epochs cheap.  ``tol`` is then not used.

    ``mode="greedy"`` changes only *which* example is updated: instead of sweeping
    through all of them, every step takes the example that violates the Kuhn–Tucker
    conditions most (the Gauss–Southwell rule of coordinate ascent) and makes the
    AdaTron step ``eta / Q^{mu mu}`` on it.  With ``equality = u`` (entries ``+-1``) a
    step on one example would break ``u.a = 0``, so the step is made on the *pair*
    ``(i, j)`` that violates the conditions most, along the direction
    ``a^i += u^i t, a^j -= u^j t``, which keeps ``u.a`` fixed: ``t`` is ``eta`` times
    the exact maximiser of ``f`` on that line, clipped to the box.  This is Platt's
    sequential minimal optimisation (SMO) with the maximal violating pair of Keerthi et
    al. (2001), the solver of libsvm and scikit-learn's ``SVC``.  The multiplier is not
    iterated: it is read off at the end as the midpoint of the interval the conditions
    allow.  The run stops when that interval certifies a violation of at most
    ``kkt_tol`` for every example.  ``max_epochs`` bounds the number of steps by
    ``max_epochs * P``; ``objective`` is recorded every ``P`` steps.  Greedy steps are
    always normalised (``normalize=False`` is an error), and ``rho`` is not used.

    ``snapshot_epochs``: for each epoch ``e`` listed that the run completes, a copy of
    ``a`` after epoch ``e`` is kept in ``snapshots[e]``; that is exactly the ``a`` a run
    with ``max_epochs=e`` returns, so one long run also gives the shorter ones (a run that
    stops earlier has no snapshot for the later epochs: its ``a`` is theirs).
    """
    snaps = frozenset(int(e) for e in snapshot_epochs)
    if isinstance(Q, KernelRows) and mode != "greedy":
        raise ValueError("rows on demand (KernelRows) serve mode='greedy' only: the sweep needs "
                         "the whole matrix")
    if mode == "greedy":
        return _run_greedy_adatron(Q, eta, normalize, max_epochs, a0, record_steps, upper, target,
                                   equality, rho, 1e-6 if kkt_tol is None else kkt_tol, snaps)
    new_options = (np.isfinite(upper) or target is not None or equality is not None
                   or rho is not None or kkt_tol is not None)
    if not new_options:
        return _run_embeddings(Q, eta, mode, normalize, max_epochs, tol, a0, record_steps, True,
                               "AdaTron", snaps)
    return _run_box_adatron(Q, eta, mode, normalize, max_epochs, a0, record_steps, upper, target,
                            equality, rho, 1e-6 if kkt_tol is None else kkt_tol, snaps)


@validate_args(a=VECTOR, gradient=Array(1, rows_of="a"), upper=POSITIVE_OR_INF)
def box_kkt_violation(a: np.ndarray, gradient: np.ndarray, upper: float = np.inf) -> np.ndarray:
    """Violation of the Kuhn–Tucker conditions of ``max f(a)`` over ``0 <= a <= upper``,
    per example.

    ``a`` holds the embedding strengths ``a^mu``, ``gradient`` is ``grad f(a)``, for the
    AdaTron ``1 - E``.  The conditions are ``g = 0`` for ``0 < a < upper``, ``g <= 0`` at
    ``a = 0`` and ``g >= 0`` at ``a = upper``; for the soft margin these are the three
    cases of Biehl's Sec. 4.1.2 with ``upper = C`` (``a = 0``: ``E >= 1``;
    ``0 < a < C``: ``E = 1``; ``a = C``: ``E <= 1``).
    """
    g = gradient
    return np.where(a <= 0.0, np.maximum(g, 0.0),
                    np.where(a >= upper, np.maximum(-g, 0.0), np.abs(g)))


def _box_problem(Q, a0, upper, target, kkt_tol, equality, rho):
    """The checked data of the box-constrained dual: ``Q``, the target ``p`` and the start ``a``."""
    Q = _as_square(Q)
    P = len(Q)
    if rho is not None and equality is None:
        raise ValueError("rho is the penalty of the equality constraint; give equality too")
    p = np.ones(P) if target is None else np.array(target, dtype=float)
    if p.shape != (P,) or not np.all(np.isfinite(p)):
        raise ValueError(f"target must be a finite vector of length {P}, got shape {p.shape}")
    a = np.zeros(P) if a0 is None else np.array(a0, dtype=float)
    if a.shape != (P,):
        raise ValueError(f"a0 has shape {a.shape}, expected ({P},)")
    return Q, p, np.clip(a, 0.0, upper)


def _is_symmetric(Q: np.ndarray) -> bool:
    """Whether ``Q == Q^T`` exactly, compared a block of rows at a time (no ``P x P`` temporary)."""
    step = max(1, (1 << 16) // len(Q))
    return all(np.array_equal(Q[k:k + step], Q[:, k:k + step].T) for k in range(0, len(Q), step))


def _run_box_adatron(Q, eta, mode, normalize, max_epochs, a0, record_steps, upper, target,
                     equality, rho, kkt_tol, snaps=frozenset()):
    Q, p, a = _box_problem(Q, a0, upper, target, kkt_tol, equality, rho)
    P = len(Q)
    lam = 0.0
    if equality is not None:
        u = np.array(equality, dtype=float)
        if u.shape != (P,) or not np.all(np.isfinite(u)):
            raise ValueError(f"equality must be a finite vector of length {P}, got shape {u.shape}")
        if rho is None:
            rho = 0.1 * float(np.mean(np.abs(np.diag(Q)))) or 0.1
    else:
        u, rho = np.zeros(P), 0.0

    def penalised():                            # Q_rho^T = Q^T + rho u u^T, row mu = column mu
                                                # of Q_rho
        full = np.ascontiguousarray(Q.T)
        if equality is not None:
            full += rho * np.outer(u, u)
        return full

    # The sequential sweep reads column mu of Q_rho on demand (a row of Q when Q is
    # symmetric, which is the fast case), so Q is the only P x P array; the parallel
    # step needs Q_rho itself (its largest eigenvalue and a product per epoch).
    rows = penalised() if mode == "parallel" else None
    cols = (Q if _is_symmetric(Q) else Q.T) if rows is None else None
    if rows is not None:
        steps = _embedding_steps(rows.T, eta, mode, normalize, "AdaTron")
    else:
        diag = np.diag(Q) + rho * (u * u) if equality is not None else np.diag(Q)
        steps = _embedding_steps(None, eta, mode, normalize, "AdaTron", diag=diag)
    if a.any():                                 # (Q + rho u u^T) a
        E = (rows if rows is not None else penalised()).T @ a
    else:
        E = np.zeros(P)

    def objective_now() -> float:               # f(a) with the original Q and p
        ua = float(u @ a)
        return float(-0.5 * a @ E + 0.5 * rho * ua * ua + p @ a)

    objective = [objective_now()]
    converged = diverged = False
    epoch = 0
    violation = float("inf")
    n_steps = 0
    snapshots = {}
    step_of = steps.tolist()
    row_delta = np.empty(P)
    u_of = u.tolist()
    rows_of = list(cols) if cols is not None else None   # one view per row, made once
    multiply = np.multiply
    violation_of = box_kkt_violation.__wrapped__        # unchecked: the loop's own arrays
    with np.errstate(over="ignore", invalid="ignore"):
        for epoch in range(1, max_epochs + 1):
            q = p - lam * u
            v = violation_of(a, q - E, upper)
            if mode == "parallel":
                a = np.clip(a + steps * (q - E), 0.0, upper)
                E = rows.T @ a
                n_steps += P
            else:
                # The step (scalars as Python floats, which is the same IEEE arithmetic
                # as numpy's float64 scalars and several times faster to index), then
                # E <- E + delta * row mu in place, without a temporary array.
                target_of = q.tolist()
                visit = np.flatnonzero(v > kkt_tol).tolist()
                n_steps += len(visit)
                a_item, E_item = a.item, E.item     # a and E change in place in the sweep
                for mu in visit:
                    old = a_item(mu)
                    new = old + step_of[mu] * (target_of[mu] - E_item(mu))
                    new = upper if new > upper else (0.0 if new < 0.0 else new)
                    delta = new - old
                    if delta != 0.0:
                        a[mu] = new
                        if equality is not None:   # column mu of Q_rho = Q[:, mu] + rho u^mu u
                            multiply(u, u_of[mu], out=row_delta)
                            row_delta *= rho
                            row_delta += rows_of[mu]
                            row_delta *= delta
                        else:
                            multiply(rows_of[mu], delta, out=row_delta)
                        E += row_delta
                    if record_steps:
                        objective.append(objective_now())
            if not record_steps or mode == "parallel":
                objective.append(objective_now())
            if epoch in snaps:
                snapshots[epoch] = a.copy()
            if not np.all(np.isfinite(a)) or np.abs(a).max() > _HUGE:
                diverged = True
                break
            ua = float(u @ a)
            lam += rho * ua
            violation = max(float(violation_of(a, p - lam * u - E, upper).max()), abs(ua))
            if violation <= kkt_tol:
                converged = True
                break
    return EmbeddingRun(a, np.array(objective), converged, diverged, epoch, float(lam), violation,
                        n_steps,
                        snapshots)


def _run_greedy_adatron(Q, eta, normalize, max_epochs, a0, record_steps, upper, target,
                        equality, rho, kkt_tol, snaps=frozenset()):
    """``adatron_embeddings(mode="greedy")``: the most violating example (or pair) per step.

    The state is the gradient ``g = p - Q a`` of the dual, updated by one or two rows
    of ``Q`` per step.  With an equality constraint ``u.a = 0`` the work is done on the
    signed gradient ``s = u * g``: example ``mu`` may move along ``+u^mu`` ("up") when
    ``a^mu`` can still grow for ``u^mu = +1`` or shrink for ``u^mu = -1``, along
    ``-u^mu`` ("down") in the opposite cases, and the Kuhn–Tucker conditions hold with
    multiplier ``lambda`` exactly when ``max_up s <= lambda <= min_down s``.
    Membership is kept as penalties (0 for members, -inf or +inf otherwise), so that
    finding the most violating example is one addition and one argmax.
    """
    if not normalize:
        raise ValueError("greedy steps are eta times the exact step along the chosen direction; "
                         "normalize=False is not available")
    check_learning_rate(eta, 2.0, "greedy AdaTron with steps eta / curvature")
    Q, p, a = _box_problem(Q, a0, upper, target, kkt_tol, equality, rho)
    P = len(Q)
    u = None
    if equality is not None:
        u = np.array(equality, dtype=float)
        if u.shape != (P,) or not np.all(np.abs(u) == 1.0):
            raise ValueError(f"mode='greedy' needs an equality vector of length {P} "
                             "with entries +-1 (the labels)")
        if abs(float(u @ a)) > kkt_tol:
            raise ValueError("in greedy mode a0 must satisfy the equality constraint u.a = 0 "
                             "(u = equality): the pair steps keep u.a fixed")
    g = p - Q @ a if a.any() else p.copy()
    diag = Q.diagonal().copy()                         # a vector: Q is the only P x P array
    max_steps = max_epochs * P

    def objective_now() -> float:                      # f(a) = -1/2 a.Q a + p.a = 1/2 a.(p + g)
        return float(0.5 * a @ (p + g))

    objective = [objective_now()]
    recorded = 0                                       # the step at which objective was last
                                                       # recorded
    snapshots = {}                                     # after every P steps (an epoch)
    step = 0
    diverged = False
    lam = 0.0
    buf_up, buf_down, work = np.empty(P), np.empty(P), np.empty(P)
    with np.errstate(over="ignore", invalid="ignore"):
        if u is None:
            pen_up = np.where(a < upper, 0.0, -np.inf)      # may grow
            pen_down = np.where(a > 0.0, 0.0, np.inf)       # may shrink
            while step < max_steps:
                i_up = int(np.add(g, pen_up, out=buf_up).argmax())
                i_down = int(np.add(g, pen_down, out=buf_down).argmin())
                grow, shrink = buf_up.item(i_up), -buf_down.item(i_down)
                if max(grow, shrink) <= kkt_tol:
                    break
                mu = i_up if grow >= shrink else i_down
                step += 1
                old, curv, slope = a.item(mu), diag.item(mu), g.item(mu)
                new = old + eta * slope / curv if curv > 0.0 else (np.inf if slope > 0.0 else 0.0)
                new = upper if new > upper else (0.0 if new < 0.0 else new)
                if new > _HUGE:                        # f grows without bound along this example
                    diverged = True
                    break
                a[mu] = new
                g -= np.multiply(Q[mu], new - old, out=work)
                pen_up[mu] = 0.0 if new < upper else -np.inf
                pen_down[mu] = 0.0 if new > 0.0 else np.inf
                if record_steps or step % P == 0:
                    objective.append(objective_now())
                    recorded = step
                if step % P == 0 and step // P in snaps:
                    snapshots[step // P] = a.copy()
        else:
            # s changes by t (u^i u Q[i] - u^j u Q[j]), the rows of u u^T Q, formed on the
            # fly from the rows of Q (the signs +-1 are exact), so Q is the only P x P array
            s = u * g
            signs = u.tolist()
            pen_up = np.where(np.where(u > 0, a < upper, a > 0.0), 0.0, -np.inf)
            pen_down = np.where(np.where(u > 0, a > 0.0, a < upper), 0.0, np.inf)
            m = M = 0.0
            while True:
                i = int(np.add(s, pen_up, out=buf_up).argmax())
                j = int(np.add(s, pen_down, out=buf_down).argmin())
                m, M = buf_up.item(i), buf_down.item(j)
                if m - M <= 2.0 * kkt_tol or step >= max_steps:
                    break
                step += 1
                a_i, a_j, u_i, u_j = a.item(i), a.item(j), signs[i], signs[j]
                curv = diag.item(i) + diag.item(j) - 2.0 * (u_i * u_j * Q.item(i, j))
                t = eta * (m - M) / curv if curv > 0.0 else np.inf
                room_i = upper - a_i if u_i > 0 else a_i  # how far t may go before a bound
                room_j = a_j if u_j > 0 else upper - a_j
                if t >= room_i or t >= room_j:         # clip, landing exactly on the bound
                    t = min(room_i, room_j)
                    a_i = (upper if u_i > 0 else 0.0) if t == room_i else a_i + u_i * t
                    a_j = (0.0 if u_j > 0 else upper) if t == room_j else a_j - u_j * t
                else:
                    a_i, a_j = a_i + u_i * t, a_j - u_j * t
                if t > _HUGE:                          # f grows without bound along this pair
                    diverged = True
                    break
                a[i], a[j] = a_i, a_j
                if u_i == u_j:                         # u^i Q[i] - u^j Q[j] = u^i (Q[i] -+ Q[j])
                    np.subtract(Q[i], Q[j], out=work)
                else:
                    np.add(Q[i], Q[j], out=work)
                np.multiply(work, u_i * t, out=work)
                s -= np.multiply(work, u, out=work)
                for k, a_k, u_k in ((i, a_i, u_i), (j, a_j, u_j)):
                    can_grow, can_shrink = a_k < upper, a_k > 0.0
                    pen_up[k] = 0.0 if (can_grow if u_k > 0 else can_shrink) else -np.inf
                    pen_down[k] = 0.0 if (can_shrink if u_k > 0 else can_grow) else np.inf
                if record_steps or step % P == 0:
                    np.multiply(u, s, out=g)
                    objective.append(objective_now())
                    recorded = step
                if step % P == 0 and step // P in snaps:
                    snapshots[step // P] = a.copy()
            np.multiply(u, s, out=g)
            # the multiplier: the midpoint of [max_up s, min_down s] (one end if the other is
            # empty).  Membership is read off again with embeddings within rounding of a
            # bound counted as on it: a leftover of 1e-17 from a pair step is not a free
            # example, and would otherwise collapse the interval to one of its ends.
            if not diverged:
                snap = 1e-12 * max(1.0, float(a.max(initial=0.0)))
                low, high = a <= snap, a >= upper - snap
                up = np.where(u > 0, ~high, ~low)
                down = np.where(u > 0, ~low, ~high)
                m = float(s[up].max()) if up.any() else -np.inf
                M = float(s[down].min()) if down.any() else np.inf
            ends = [v for v in (m, M) if np.isfinite(v)]
            lam = float(np.mean(ends)) if ends else 0.0
        if step != recorded:
            objective.append(objective_now())
    if diverged or not np.all(np.isfinite(a)) or a.max(initial=0.0) > _HUGE:
        diverged, violation = True, float("inf")
    elif u is None:
        violation = float(box_kkt_violation(a, g, upper).max())
    else:
        violation = max(float(box_kkt_violation(a, g - lam * u, upper).max()), abs(float(u @ a)))
    converged = bool(not diverged and violation <= kkt_tol)
    return EmbeddingRun(a, np.array(objective), converged, diverged, max(1, -(-step // P)), lam,
                        violation, step, snapshots)
