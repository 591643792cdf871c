"""Learning a rule from examples: student and teacher perceptrons (Biehl section 3.4).

A *teacher* ``w*`` labels isotropic random inputs, ``y = sign(w* . xi)`` (eq. 3.32);
a *student* ``w`` is trained on ``P = alpha N`` of them and judged by its
generalisation error, the probability of disagreeing with the teacher on a new input.
The data come from :func:`lecture_pkg.datasets.teacher_student`.

* :func:`overlap` and :func:`generalization_error` -- ``eps_g = arccos(R) / pi`` (3.34);
  :func:`mc_generalization_error` measures the same by Monte Carlo.
* :func:`version_space_mask`, :func:`sample_version_space` -- the version space (3.35) and
  uniform samples from it; :func:`center_of_mass` (3.37)/(3.38).
* :func:`hebb_student` and the closed-form Hebb curve :func:`hebb_overlap_theory` [ext].
* :func:`max_stability_student` -- the perceptron of maximal stability by a reference solver.
* :func:`learning_curves` -- many students (seeds x alpha) trained as batched array work.

Weights follow Biehl's normalisation ``w = (1/N) sum_mu a^mu xi^mu y^mu`` (3.13); the
generalisation error depends only on the direction of ``w``.
"""

from __future__ import annotations

import numbers
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
from scipy.optimize import nnls
from sklearn.svm import SVC

from .. import datasets
from ..validation import (COUNT, POSITIVE, POSITIVE_OR_INF, Array, Interval, as_plus_minus,
                          check_inputs, resolve_rng, validate_args)
from .margins import max_margin_hyperplane
from .perceptron import Perceptron

__all__ = [
    "LITERATURE_ASYMPTOTICS",
    "overlap",
    "generalization_error",
    "mc_generalization_error",
    "hebb_student",
    "hebb_overlap_theory",
    "hebb_error_theory",
    "version_space_mask",
    "sample_version_space",
    "center_of_mass",
    "rosenblatt_student",
    "max_stability_student",
    "ALGORITHMS",
    "LearningCurves",
    "learning_curves",
    "loglog_slope",
]

#: [ext] Large-alpha asymptotics ``eps_g ~ c / alpha`` from the statistical physics of
#: learning (Engel and Van den Broeck, ch. 2-4; Opper and Haussler 1991; Opper et al. 1990).
#: Literature values, not derived in the lecture notes.
LITERATURE_ASYMPTOTICS = {
    "gibbs (random version-space student)": 0.625,
    "maximal stability": 0.5005,
    "bayes (centre of mass)": 0.442,
}


# ------------------------------------------------------------------ eq. (3.34)

def _unit(v: np.ndarray, name: str) -> np.ndarray:
    v = np.asarray(v, dtype=float)
    if v.ndim == 0 or not np.all(np.isfinite(v)):
        raise ValueError(f"{name} must be a finite vector (or stack of vectors)")
    norm = np.linalg.norm(v, axis=-1, keepdims=True)
    if np.any(norm == 0):
        raise ValueError(f"{name} contains a zero vector, which has no direction")
    return v / norm


def overlap(w: np.ndarray, teacher: np.ndarray) -> np.ndarray | float:
    """Normalised overlap ``R = w . w* / (|w| |w*|)`` (the cosine of the angle).

    ``w`` may be one vector ``(N,)`` or a stack ``(..., N)``; ``teacher`` broadcasts
    against it.
    """
    w, t = _unit(w, "w"), _unit(teacher, "teacher")
    if w.shape[-1] != t.shape[-1]:
        raise ValueError(f"w has {w.shape[-1]} components but the teacher has {t.shape[-1]}")
    R = np.clip(np.sum(w * t, axis=-1), -1.0, 1.0)
    return float(R) if R.ndim == 0 else R


def generalization_error(w: np.ndarray, teacher: np.ndarray) -> np.ndarray | float:
    """``eps_g = arccos(R) / pi``, Biehl eq. (3.34), for isotropic inputs.

    The probability that student and teacher disagree on a random input whose density
    depends only on ``|xi|``: the two hyperplanes cut the plane spanned by ``w`` and
    ``w*`` into wedges, and the disagreeing ones span the angle between the vectors on
    both sides.  0 for a parallel student, 1/2 for an orthogonal one, 1 for an
    anti-parallel one.  Accepts stacks like :func:`overlap`.
    """
    return np.arccos(overlap(w, teacher)) / np.pi


@validate_args(n_samples=COUNT, random_state="random_state")
def mc_generalization_error(w: np.ndarray, teacher: np.ndarray, n_samples: int, *,
                            random_state: np.random.Generator | int | None = None
                            ) -> tuple[np.ndarray | float, np.ndarray | float]:
    """Monte Carlo estimate of the disagreement rate on fresh Gaussian inputs.

    Draws ``n_samples`` standard-normal test inputs and counts how often
    ``sign(w . xi) != sign(w* . xi)``.  For a stack of students the same test inputs
    are used for all of them.

    Returns
    -------
    rate, standard_error : float or array
        The disagreement rate and its standard error (one per student for a stack).
    """
    rng = resolve_rng(random_state)
    w, t = _unit(w, "w"), _unit(teacher, "teacher")
    if w.ndim > 2 or t.ndim > 2 or w.shape[-1] != t.shape[-1]:
        raise ValueError(f"need w and teacher of shape (N,) or (K, N); got {w.shape}, {t.shape}")
    Xt = rng.standard_normal((n_samples, w.shape[-1]))
    student = np.where(Xt @ w.T >= 0, 1, -1)
    truth = np.where(Xt @ t.T >= 0, 1, -1)
    if student.ndim != truth.ndim:
        student, truth = np.atleast_2d(student.T).T, np.atleast_2d(truth.T).T
    rate = np.mean(student != truth, axis=0)
    sem = np.sqrt(rate * (1 - rate) / n_samples)
    return (float(rate), float(sem)) if np.ndim(rate) == 0 else (rate, sem)


# ------------------------------------------------------------------ Hebb

def hebb_student(X: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Hebb's rule ``w = (1/N) sum_mu xi^mu y^mu`` (Biehl 3.13 with all ``a^mu = 1``).

    Batched: ``X`` of shape ``(..., P, N)`` and ``y`` of shape ``(..., P)`` give students
    of shape ``(..., N)``, e.g. one per seed in a single array operation.
    """
    X = np.asarray(X, dtype=float)
    y = np.asarray(y, dtype=float)
    if X.ndim < 2 or y.shape != X.shape[:-1]:
        raise ValueError(f"need X of shape (..., P, N) and y of shape (..., P); "
                         f"got {X.shape} and {y.shape}")
    if not np.all(np.isin(y, (-1.0, 1.0))):
        raise ValueError("labels must be +1 or -1")
    return np.einsum("...p,...pn->...n", y, X) / X.shape[-1]


@validate_args(alpha=Array(within=POSITIVE_OR_INF))
def hebb_overlap_theory(alpha: np.ndarray | float) -> np.ndarray | float:
    """Typical overlap of the Hebb student, ``R = [1 + pi / (2 alpha)]^(-1/2)``.

    For Gaussian inputs and ``N -> infinity`` at ``alpha = P/N``: the teacher component
    of ``sum xi y`` grows like ``P sqrt(2/pi)``, the other ``N - 1`` components are random
    with variance ``P``; their ratio gives ``R``.  Not in the lecture notes.  ``alpha > 0``
    (a number or an array); ``alpha = inf`` gives the limit ``R = 1``.
    """
    alpha = np.asarray(alpha, dtype=float)
    R = 1.0 / np.sqrt(1.0 + np.pi / (2.0 * alpha))
    return float(R) if R.ndim == 0 else R


@validate_args(alpha=Array(within=POSITIVE_OR_INF))
def hebb_error_theory(alpha: np.ndarray | float) -> np.ndarray | float:
    """Hebb learning curve ``eps_g = arccos(R) / pi`` with :func:`hebb_overlap_theory`.

    Decays like ``(2 pi alpha)^(-1/2)`` for large ``alpha``.
    """
    return np.arccos(hebb_overlap_theory.__wrapped__(alpha)) / np.pi


# ------------------------------------------------------------------ version space (3.35-3.38)

def version_space_mask(W: np.ndarray, X: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Which candidate weights lie in the version space of the data (eq. 3.35).

    ``W`` has shape ``(M, N)``; returns a boolean array ``(M,)`` that is true where
    ``sign(w . xi^mu) = y^mu`` for every example (``sign(0) = +1``).
    """
    X = check_inputs(X)
    y = as_plus_minus(y)
    W = np.atleast_2d(np.asarray(W, dtype=float))
    if W.shape[1] != X.shape[1]:
        raise ValueError(f"candidates have {W.shape[1]} components but inputs have {X.shape[1]}")
    pred = np.where(W @ X.T >= 0, 1.0, -1.0)
    return np.all(pred == y, axis=1)


@validate_args(n_samples=COUNT, random_state="random_state",
               n_steps=Interval(numbers.Integral, 0, None), batch=COUNT, max_draws=COUNT)
def sample_version_space(X: np.ndarray, y: np.ndarray, n_samples: int, *,
                         random_state: np.random.Generator | int | None = None,
                         method: str = "rejection", start: np.ndarray | None = None,
                         n_steps: int = 300, batch: int = 20000,
                         max_draws: int = 5_000_000) -> np.ndarray:
    """Uniform samples of unit weight vectors from the version space (3.35).

    Parameters
    ----------
    X, y : array (P, N) and array (P,) of +-1
        The examples (linearly separable through the origin).
    n_samples : int
        The number of samples.
    random_state : seed, numpy Generator or None
        The source of randomness.
    method : ``"rejection"`` or ``"hit_and_run"``
        ``"rejection"`` draws uniform points on the unit sphere in batches and keeps the
        consistent ones: exact, but only practical in low dimension with few examples
        (the accepted fraction is the relative size of the version space).
        ``"hit_and_run"`` runs ``n_samples`` independent Markov chains in parallel (one
        array operation per step): from a point inside, pick a random great circle through
        it and jump to a uniform random angle on the arc of that circle inside the version
        space.  This keeps the uniform distribution on the sphere invariant; after
        ``n_steps`` steps the chains are approximately independent uniform samples.
    start : array (N,), optional
        A point of the version space to start the chains (hit-and-run only); default the
        normalised maximal-stability student.
    n_steps : int
        Steps per chain for hit-and-run.
    batch, max_draws : int
        Batch size and total draw limit for rejection sampling.

    Returns
    -------
    array (n_samples, N)
        Unit vectors in the version space.
    """
    rng = resolve_rng(random_state)
    X = check_inputs(X)
    y = as_plus_minus(y)
    if len(y) != len(X):
        raise ValueError(f"X has {len(X)} rows but y has {len(y)} labels")
    N = X.shape[1]
    if method == "rejection":
        found, drawn = [], 0
        n_found = 0
        while n_found < n_samples:
            if drawn >= max_draws:
                raise RuntimeError(
                    f"rejection sampling found only {n_found} of {n_samples} samples in "
                    f"{drawn} draws; the version space is too small (use method='hit_and_run')")
            W = rng.standard_normal((batch, N))
            W /= np.linalg.norm(W, axis=1, keepdims=True)
            keep = W[version_space_mask(W, X, y)]
            found.append(keep)
            n_found += len(keep)
            drawn += batch
        return np.vstack(found)[:n_samples]
    if method != "hit_and_run":
        raise ValueError(f"method must be 'rejection' or 'hit_and_run', got {method!r}")
    Z = y[:, None] * X                                   # consistent iff Z w > 0
    if start is None:
        start = max_stability_student(X, y)
    w0 = _unit(start, "start")
    if np.any(Z @ w0 <= 0):
        raise ValueError("start is not in the version space")
    W = np.repeat(w0[None, :], n_samples, axis=0)
    for _ in range(n_steps):
        D = rng.standard_normal(W.shape)
        D -= np.sum(D * W, axis=1, keepdims=True) * W     # tangent direction
        D /= np.linalg.norm(D, axis=1, keepdims=True)
        down, up = _arc_inside(W, D, Z)
        phi = rng.uniform(down, up)[:, None]
        W = np.cos(phi) * W + np.sin(phi) * D
        W /= np.linalg.norm(W, axis=1, keepdims=True)
    return W


def _arc_inside(W: np.ndarray, D: np.ndarray, Z: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The arc ``(down, up)`` of the great circles ``cos(phi) w + sin(phi) d`` inside the
    version space.

    ``W`` (M, N) are points of the version space (``Z w > 0``, rows ``z = y xi``), ``D``
    unit tangent directions at them.  On the circle, example ``mu`` gives
    ``a cos(phi) + b sin(phi) = r cos(phi - phi0)`` with ``a = z . w > 0`` and ``b = z . d``,
    positive for ``|phi - phi0| < pi/2`` where ``phi0 = arctan(b / a)``.  The arc inside
    every half-space is ``(max phi0 - pi/2, min phi0 + pi/2)``; since ``arctan`` increases,
    only the extreme ratios ``b / a`` of each row need it (one ``arctan`` per chain and
    end, not one per example).
    """
    ratio = (D @ Z.T) / (W @ Z.T)
    return np.arctan(ratio.max(axis=1)) - np.pi / 2, np.arctan(ratio.min(axis=1)) + np.pi / 2


def center_of_mass(samples: np.ndarray) -> np.ndarray:
    """Estimate ``w_cm = (1/M) sum_i w^(i)`` of the version space (Biehl eqs. 3.37, 3.38).

    ``samples`` are unit vectors drawn uniformly from the version space (shape ``(M, N)``,
    or a stack ``(..., M, N)``).  The mean is not normalised; it lies in the version space
    because the set of consistent weights is a convex cone.
    """
    S = np.asarray(samples, dtype=float)
    if S.ndim < 2 or S.shape[-2] == 0:
        raise ValueError("need at least one sample of shape (M, N)")
    return S.mean(axis=-2)


# ------------------------------------------------------------------ trained students

@validate_args(max_epochs=COUNT)
def rosenblatt_student(X: np.ndarray, y: np.ndarray, *, max_epochs: int = 100_000) -> np.ndarray:
    """Rosenblatt's rule run to convergence (homogeneous, zero start, cyclic, ``c = 0``).

    Uses :class:`lecture_pkg.linear.Perceptron` with ``fit_intercept=False`` and
    ``eta = 1/N`` (Biehl's normalisation, eq. 3.12 with 3.15).  The result lies in the
    version space.
    """
    X = check_inputs(X)
    model = Perceptron(eta=1.0 / X.shape[1], fit_intercept=False, max_epochs=max_epochs)
    model.fit(X, y)
    if not model.converged_:
        raise RuntimeError("the Rosenblatt student did not converge; are the data separable?")
    return model.coef_


def max_stability_student(X: np.ndarray, y: np.ndarray, *, solver: str = "nnls") -> np.ndarray:
    """The homogeneous perceptron of maximal stability, by a **reference solver**.

    The lecture's own algorithms for it (MinOver, AdaTron) are the subject of the
    optimal-stability chapter; here a standard solver of the same quadratic problem,
    ``min |w|^2`` subject to ``y_mu w . xi_mu >= 1`` (the maximal stability
    ``kappa_max = 1/|w|``), stands in for them.

    solver : ``"nnls"`` (default), ``"svc"`` or ``"slsqp"``
        ``"nnls"``: Lawson and Hanson's *least distance programming* -- the shortest
        ``w`` with ``Z w >= 1`` (rows ``z_mu = y_mu xi_mu``) follows from the
        non-negative least-squares problem ``min_{u >= 0} |E u - f|`` with
        ``E = [Z^T; 1^T]`` and ``f = (0, ..., 0, 1)``: the residual ``r = E u - f``
        gives ``w = -r[:N] / r[N]`` (SciPy's ``nnls``; exact and fast).
        ``"svc"``: scikit-learn's ``SVC(kernel="linear", C=1e6)`` (libsvm; the huge C makes
        the soft margin hard).  SVC always fits a bias, so it is trained on the data together
        with their mirror images ``(-xi, -y)``; the problem is then symmetric, the optimal
        bias is 0 and the weights are those of the homogeneous problem.
        ``"slsqp"``: :func:`lecture_pkg.linear.max_margin_hyperplane` with
        ``fit_intercept=False`` (SciPy SLSQP; fine for a few hundred examples).

    Returns
    -------
    w : array (N,)
        The unit normal of the optimal hyperplane through the origin.

    Raises
    ------
    ValueError
        If no hyperplane through the origin separates the data.
    """
    X = check_inputs(X)
    y = as_plus_minus(y)
    if len(y) != len(X):
        raise ValueError(f"X has {len(X)} rows but y has {len(y)} labels")
    if solver == "slsqp":
        return max_margin_hyperplane(X, y, fit_intercept=False)[0]
    if solver == "nnls":
        Z = y[:, None] * X
        P, N = Z.shape
        E = np.vstack([Z.T, np.ones((1, P))])
        f = np.zeros(N + 1)
        f[-1] = 1.0
        u, _ = nnls(E, f, maxiter=50 * (P + N))
        r = E @ u - f
        w = -r[:N] / r[N] if abs(r[N]) > 1e-12 else np.zeros(N)
    elif solver == "svc":
        svc = SVC(kernel="linear", C=1e6, tol=1e-6).fit(np.vstack([X, -X]), np.r_[y, -y])
        w = svc.coef_[0].copy()
    else:
        raise ValueError(f"solver must be 'nnls', 'svc' or 'slsqp', got {solver!r}")
    if not np.any(w) or np.min(y * (X @ w)) <= 0:
        raise ValueError("the data are not linearly separable through the origin")
    return w / np.linalg.norm(w)


# ------------------------------------------------------------------ learning curves

ALGORITHMS = ("hebb", "rosenblatt", "max_stability")


@dataclass
class LearningCurves:
    """Generalisation errors of many students: ``errors[name]`` has shape (n_alpha, n_seeds)."""

    alphas: np.ndarray
    n_features: int
    errors: dict = field(default_factory=dict)

    def mean(self, name: str) -> np.ndarray:
        """Mean error over the seeds at every alpha."""
        return self.errors[name].mean(axis=1)

    def sem(self, name: str) -> np.ndarray:
        """Standard error of the mean over the seeds."""
        e = self.errors[name]
        return e.std(axis=1, ddof=1) / np.sqrt(e.shape[1]) if e.shape[1] > 1 else np.zeros(len(e))


@validate_args(alphas=Array(1, within=POSITIVE), n_features=COUNT, n_seeds=COUNT,
               random_state="random_state", max_chunk=COUNT)
def learning_curves(alphas: Sequence[float] | np.ndarray, n_features: int, n_seeds: int, *,
                    random_state: np.random.Generator | int | None = None,
                    algorithms: Sequence[str] = ALGORITHMS,
                    max_chunk: int = 4_000_000) -> LearningCurves:
    """Train students on teacher data for every ``alpha`` and seed; return their errors.

    For each ``alpha`` the ``n_seeds`` data sets (``P = round(alpha N)`` Gaussian inputs,
    a random unit teacher each, :func:`lecture_pkg.datasets.teacher_student`) are drawn
    and stacked into one array ``(n_seeds, P, N)`` (in chunks of at most ``max_chunk`` numbers).
    All algorithms see the same data sets, so their errors can be compared pairwise.

    * ``"hebb"`` -- one batched array operation for all seeds (:func:`hebb_student`);
    * ``"rosenblatt"`` -- :func:`rosenblatt_student`, a loop over the seeds whose every
      step is vectorised inside :class:`lecture_pkg.linear.RosenblattTrainer`;
    * ``"max_stability"`` -- :func:`max_stability_student` (reference solver, NNLS).

    The errors are exact for each student, from its overlap with its teacher (3.34).
    """
    rng = resolve_rng(random_state)
    alphas = np.asarray(alphas, dtype=float)
    unknown = set(algorithms) - set(ALGORITHMS)
    if unknown or not algorithms:
        raise ValueError(f"algorithms must be chosen from {ALGORITHMS}, got {algorithms!r}")
    N = int(n_features)
    out = LearningCurves(alphas=alphas, n_features=N,
                         errors={a: np.empty((len(alphas), n_seeds)) for a in algorithms})
    for i, alpha in enumerate(alphas):
        P = max(1, int(round(alpha * N)))
        chunk = max(1, min(n_seeds, max_chunk // (P * N)))
        for s0 in range(0, n_seeds, chunk):
            k = min(chunk, n_seeds - s0)
            sets = [datasets.teacher_student(P, N, random_state=rng) for _ in range(k)]
            X = np.stack([d[0] for d in sets])
            Y = np.stack([d[1] for d in sets]).astype(float)
            T = np.stack([d[2] for d in sets])
            if "hebb" in algorithms:
                out.errors["hebb"][i, s0:s0 + k] = generalization_error(hebb_student(X, Y), T)
            for j in range(k):
                if "rosenblatt" in algorithms:
                    out.errors["rosenblatt"][i, s0 + j] = generalization_error(
                        rosenblatt_student(X[j], Y[j]), T[j])
                if "max_stability" in algorithms:
                    out.errors["max_stability"][i, s0 + j] = generalization_error(
                        max_stability_student(X[j], Y[j]), T[j])
    return out


@validate_args(alphas=Array(within=POSITIVE), errors=Array(within=POSITIVE))
def loglog_slope(alphas: Sequence[float] | np.ndarray, errors: np.ndarray) -> float:
    """Least-squares slope of ``log eps_g`` against ``log alpha``; both positive."""
    a = np.asarray(alphas, dtype=float)
    e = np.asarray(errors, dtype=float)
    if a.shape != e.shape or a.size < 2:
        raise ValueError("need two or more (alpha, error) pairs of equal shape")
    return float(np.polyfit(np.log(a), np.log(e), 1)[0])
