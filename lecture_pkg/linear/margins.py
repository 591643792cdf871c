"""Local potentials, margins and stabilities, the maximal margin, and the bounds on the
number of perceptron updates (Biehl ch. 3; Koski; Deckert).

* :func:`local_potentials` -- the functional margins ``E^mu = y^mu (w . x^mu + b)``,
  Biehl eq. (3.8);
* :func:`geometric_margin` -- ``min_mu E^mu / |w|``, the signed distance of the worst
  example from the hyperplane (Koski's gamma for ``|w| = 1``), positive exactly when the
  hyperplane separates the data; :func:`stabilities` and :func:`stability` are Biehl's
  ``kappa^mu = E^mu / |w|`` and ``kappa(w) = min_mu kappa^mu``, eqs. (3.39), (3.40)
  (§3.5), the same number;
* :func:`max_margin_hyperplane` -- the separating hyperplane of maximal margin (the
  optimal stability ``kappa_max``) by a reference solver, SciPy's SLSQP on the hard-margin
  primal; the lecture's algorithms for it are in :mod:`~lecture_pkg.linear.minover` and
  :mod:`~lecture_pkg.linear.adatron`;
* :func:`data_radius` and :func:`novikoff_bound` -- Novikoff's bound ``(2R/kappa)^2``
  (``(R/kappa)^2`` without a bias) on the number of updates of Rosenblatt's rule (Koski,
  Deckert's ``1/delta^2``, Biehl eq. 3.30 with ``c -> 0``);
* :func:`biehl_bound` and :func:`overlap_and_norm` -- Biehl's convergence proof,
  eqs. (3.17)--(3.29): the bound ``ℳ*`` on the number of updates and the overlap
  ``w . w*`` and squared norm ``|w|^2`` whose growth the proof compares.
"""

from __future__ import annotations

import numpy as np
from scipy.optimize import minimize

from ..validation import ARRAY, POSITIVE, as_plus_minus, check_inputs, validate_args

__all__ = [
    "local_potentials",
    "geometric_margin",
    "stabilities",
    "stability",
    "data_radius",
    "novikoff_bound",
    "max_margin_hyperplane",
    "biehl_bound",
    "overlap_and_norm",
]


@validate_args(intercept=ARRAY)
def local_potentials(X: np.ndarray, y: np.ndarray, coef: np.ndarray,
                     intercept: float = 0.0) -> np.ndarray:
    """Local potentials (functional margins) ``E_mu = y_mu (w . x_mu + b)``, Biehl eq. (3.8)."""
    X = check_inputs(X)
    y = as_plus_minus(y)
    coef = np.asarray(coef, dtype=float)
    if coef.shape != (X.shape[1],):
        raise ValueError(f"coef has shape {coef.shape}, expected ({X.shape[1]},)")
    if len(y) != len(X):
        raise ValueError(f"X has {len(X)} rows but y has {len(y)} labels")
    return y * (X @ coef + intercept)


@validate_args(intercept=ARRAY)
def geometric_margin(X: np.ndarray, y: np.ndarray, coef: np.ndarray,
                     intercept: float = 0.0) -> float:
    """Geometric margin of the hyperplane ``w . x + b = 0`` on labelled data.

    ``min_mu y_mu (w . x_mu + b) / |w|``: the signed distance of the worst example
    from the plane (Koski's gamma for ``|w| = 1``; Biehl's stability kappa, eq. 3.40).
    Positive exactly when the plane separates the data.
    """
    norm = float(np.linalg.norm(coef))
    if norm == 0.0:
        raise ValueError("the weight vector is zero, so it defines no hyperplane")
    return float(local_potentials.__wrapped__(X, y, coef, intercept).min() / norm)


# ---------------------------------------------------------------- stability (3.39), (3.40)

@validate_args(intercept=ARRAY)
def stabilities(X: np.ndarray, y: np.ndarray, coef: np.ndarray,
                intercept: float = 0.0) -> np.ndarray:
    """Stabilities ``kappa^mu = E^mu / |w|`` of all examples, Biehl eq. (3.39).

    ``kappa^mu`` is the oriented distance of example ``mu`` from the hyperplane
    ``w . x + b = 0``: positive on the correct side, negative on the wrong one.  It does
    not change when ``(w, b)`` is multiplied by a positive number.
    """
    norm = float(np.linalg.norm(coef))
    if norm == 0.0:
        raise ValueError("the weight vector is zero, so it defines no hyperplane")
    return local_potentials.__wrapped__(X, y, coef, intercept) / norm


@validate_args(intercept=ARRAY)
def stability(X: np.ndarray, y: np.ndarray, coef: np.ndarray, intercept: float = 0.0) -> float:
    """Stability of the perceptron ``kappa(w) = min_mu kappa^mu``, Biehl eq. (3.40).

    The same number as :func:`lecture_pkg.linear.geometric_margin`: the margin when
    positive, the worst violation when negative.
    """
    return geometric_margin.__wrapped__(X, y, coef, intercept)


# ------------------------------------------------------------- Novikoff's bound, the maximal margin

def data_radius(X: np.ndarray) -> float:
    """Radius ``R_max = max_mu |x_mu|`` of the smallest origin-centred ball holding the inputs."""
    X = check_inputs(X)
    return float(np.linalg.norm(X, axis=1).max())


@validate_args(radius=POSITIVE, kappa=POSITIVE)
def novikoff_bound(radius: float, kappa: float, *, bias: bool = True) -> float:
    """Upper bound on the number of perceptron updates (Novikoff's theorem).

    Parameters
    ----------
    radius : float
        ``R_max = max |x_mu|`` of the (non-augmented) inputs (Koski's ``R``).
    kappa : float
        Geometric margin ``kappa > 0`` (the stability; Koski's ``gamma``) of *some*
        separating hyperplane with unit normal; the best bound uses the maximal margin
        ``kappa_max``.
    bias : bool
        ``True``: the perceptron with a bias updated by ``eta y R^2`` (Koski's
        Rosenblatt algorithm), bound ``(2R/kappa)^2``.  ``False``: a homogeneous
        perceptron (no bias, or the bias folded into already augmented inputs), bound
        ``(R/kappa)^2``, which is Deckert's ``1/delta^2`` for normalised inputs and
        Biehl's eq. (3.30) with ``c -> 0``.
    """
    factor = 2.0 if bias else 1.0
    return float((factor * radius / kappa) ** 2)


def max_margin_hyperplane(
    X: np.ndarray, y: np.ndarray, *, fit_intercept: bool = True
) -> tuple[np.ndarray, float, float]:
    """The separating hyperplane of maximal geometric margin (hard-margin SVM, primal).

    Solves ``min 1/2 |w|^2`` subject to ``y_mu (w . x_mu + b) >= 1`` with SciPy's SLSQP.
    This is a reference solver for the margin ``kappa_max`` that enters the convergence
    bound; the lecture algorithms for it (MinOver, AdaTron) come later in the course.

    Returns
    -------
    coef : array (N,)
        Unit normal vector of the optimal hyperplane.
    intercept : float
        Its offset for the unit normal.
    margin : float
        The maximal margin (optimal stability) ``kappa_max = 1 / |w_opt|``.

    Raises
    ------
    ValueError
        If the data are not linearly separable.
    """
    X = check_inputs(X)
    y = as_plus_minus(y)
    if len(y) != len(X):
        raise ValueError(f"X has {len(X)} rows but y has {len(y)} labels")
    if fit_intercept and len(np.unique(y)) < 2:
        raise ValueError("both labels must occur: with a free bias, one class is separated "
                         "by any margin")
    n = X.shape[1]
    A = y[:, None] * (np.hstack([X, np.ones((len(X), 1))]) if fit_intercept else X)
    dim = A.shape[1]

    def objective(v: np.ndarray) -> float:
        return 0.5 * float(v[:n] @ v[:n])

    def gradient(v: np.ndarray) -> np.ndarray:
        g = np.zeros(dim)
        g[:n] = v[:n]
        return g

    constraints = {"type": "ineq", "fun": lambda v: A @ v - 1.0, "jac": lambda v: A}
    result = minimize(
        objective, np.zeros(dim), jac=gradient, constraints=[constraints],
        method="SLSQP", options={"maxiter": 1000, "ftol": 1e-12},
    )
    v = result.x
    if not result.success or (A @ v).min() < 1.0 - 1e-6 or not np.any(v[:n]):
        raise ValueError("the data are not linearly separable (no hyperplane reaches margin > 0)")
    norm = float(np.linalg.norm(v[:n]))
    intercept = float(v[n] / norm) if fit_intercept else 0.0
    return v[:n] / norm, intercept, 1.0 / norm


# -------------------------------------------------------- Biehl's convergence proof (3.17)-(3.29)

@validate_args(margin=POSITIVE, solution_norm2=POSITIVE)
def biehl_bound(X: np.ndarray, margin: float, solution_norm2: float) -> float:
    """Biehl's bound ``ℳ* = (2c + Gamma) N |w*|^2 / c^2`` on the number of updates, (3.29).

    ``Gamma = max_mu |x^mu|^2 / N`` (3.24) is read off the inputs ``X`` (shape ``(P, N)``,
    augmented if there is a bias); ``c = margin > 0`` is the margin the algorithm asks for
    (3.15), and ``|w*|^2 = solution_norm2`` (Biehl's ``Q*``) is the squared norm of a solution
    with every ``E*^mu >= c`` (3.17), (3.18).  The bound holds for the algorithm with the ``1/N``
    update (Rosenblatt's rule with learning rate ``1/N``) from ``w = 0``, in any order.
    """
    X = check_inputs(X)
    c, norm2 = margin, solution_norm2
    N = X.shape[1]
    gamma = float(np.max(np.einsum("ij,ij->i", X, X))) / N
    return float((2.0 * c + gamma) * N * norm2 / c**2)


def overlap_and_norm(weights: np.ndarray, solution: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``w . w*`` and ``|w|^2`` along a run (Biehl's ``R`` and ``Q`` of eqs. 3.22, 3.23).

    Biehl's ``R`` is the plain product, not the book's normalised overlap ``R``.

    ``weights`` has one weight vector per row (e.g. ``GenericRun.history`` or
    ``Perceptron.history_.coef``); returns the two arrays, one entry per row.
    """
    W = np.atleast_2d(np.asarray(weights, dtype=float))
    w_star = np.asarray(solution, dtype=float)
    if W.shape[1:] != w_star.shape:
        raise ValueError(f"weights of length {W.shape[1]} and a solution of shape {w_star.shape} "
                         "do not fit")
    return W @ w_star, np.einsum("ij,ij->i", W, W)
