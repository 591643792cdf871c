"""Prototype-based classifiers: nearest neighbours, nearest prototypes and LVQ (Biehl, ch. 5).

Conventions:

* labels may be any hashable values; internally class ``k`` is ``classes_[k]`` and every
  prototype carries the index of its class.  Prototypes are stored grouped by class, in
  the order of ``classes_``, so ties in a distance go to the first class;
* the default dissimilarity is the squared Euclidean distance ``d(w, xi) = (w - xi)^2``;
  a linear map ``Omega`` gives the relevance distance ``delta_Lambda = [Omega (w - xi)]^2``
  with ``Lambda = Omega^T Omega`` (eqs. 5.13-5.14), learned by :class:`GMLVQ`;
* the LVQ estimators keep what the lecture wants to see: ``cost_per_epoch_`` (the GLVQ
  cost, eq. 5.5, before training and after every epoch), ``errors_per_epoch_``
  (misclassified training examples at the same moments) and ``prototype_history_``
  (the prototypes at the same moments, the trajectories of the figures).

One engine, :class:`PrototypeTrainer`, implements the LVQ1, GLVQ and GMLVQ updates; the
estimators and the interactive explorer all drive it.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Sequence

import numpy as np
from sklearn.exceptions import ConvergenceWarning
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_is_fitted, validate_data

from .._ties import TIE_RTOL, first_argmin
from ..neurons.units import sigmoid as _checked_sigmoid
from ..validation import (COUNT, MATRIX, NON_NEGATIVE, POSITIVE, Array, Interval, Options,
                          check_inputs, check_scalar, resolve_rng, validate_args, warn_user)
from ._base import _fast_sqdist, _name, _permutation, _PrototypeClassifier

# the sigmoid unchecked in the training loops (their own numbers; the public function checks
# its argument on every call)
sigmoid = _checked_sigmoid.__wrapped__

__all__ = [
    "init_prototypes",
    "glvq_cost",
    "glvq_gradients",
    "normalize_omega",
    "PrototypeTrainer",
    "LVQ1",
    "GLVQ",
    "GMLVQ",
]


@validate_args(X=MATRIX, y_idx="array-like",
               per_class=Array(1, within=Interval(numbers.Integral, 0, None)),
               method=Options("class-mean", "random-example"), random_state="random_state",
               jitter=NON_NEGATIVE)
def init_prototypes(X: np.ndarray, y_idx: np.ndarray, per_class: Sequence[int] | np.ndarray, *,
                    method: str = "class-mean",
                    random_state: np.random.Generator | int | None = None, jitter: float = 0.1,
                    class_names: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Initial prototypes for LVQ, grouped by class.

    Parameters
    ----------
    X : array (P, N)
    y_idx : array (P,) of class indices ``0 .. C-1``
    per_class : array (C,) of int
        Number of prototypes of every class; each must be at least 1 and at most the
        number of examples of the class.
    method : {"class-mean", "random-example"}
        ``"class-mean"`` puts every prototype of a class at the class mean (Biehl's
        initialisation) plus, when a class has several, an independent Gaussian
        perturbation of ``jitter`` times the class's per-feature standard deviation so
        that they do not coincide.  ``"random-example"`` uses distinct examples of the
        class drawn at random.
    random_state : seed, numpy Generator or None, optional
    jitter : float
    class_names : sequence, optional
        Labels used in error messages.

    Returns
    -------
    prototypes : array (M, N)
    prototype_classes : array (M,) of class indices
        Non-decreasing.
    """
    X = np.asarray(X, dtype=float)
    y_idx = np.asarray(y_idx)
    per_class = per_class.astype(int)
    names = class_names if class_names is not None else np.arange(len(per_class))
    rng = resolve_rng(random_state)
    counts = np.bincount(y_idx, minlength=len(per_class))
    for k, (want, have) in enumerate(zip(per_class, counts)):
        if want < 1:
            raise ValueError(f"class {_name(names[k])!r} has no prototypes: "
                             "every class needs at least one")
        if want > have:
            raise ValueError(f"{int(want)} prototypes were asked for class {_name(names[k])!r}, "
                             f"but it has only {int(have)} example(s); use at most {int(have)}")
    W, c = [], []
    for k, want in enumerate(per_class):
        members = X[y_idx == k]
        if method == "class-mean":
            block = np.repeat(members.mean(axis=0)[None, :], want, axis=0)
            if want > 1:
                spread = members.std(axis=0)
                spread = np.where(spread > 0, spread, 1.0)
                block = block + jitter * spread * rng.standard_normal(block.shape)
        else:
            block = members[rng.choice(len(members), size=int(want), replace=False)]
        W.append(block)
        c.append(np.full(int(want), k))
    return np.vstack(W), np.concatenate(c)


def _phi(e: np.ndarray, activation: str, steepness: float) -> tuple[np.ndarray, np.ndarray]:
    """``phi(e)`` and ``phi'(e)`` for the identity or the sigmoid ``1 / (1 + exp(-gamma e))``."""
    if activation == "identity":
        return e, np.ones_like(e)
    if activation == "sigmoid":
        s = sigmoid(steepness * e)
        return s, steepness * s * (1.0 - s)
    raise ValueError(f"activation must be 'identity' or 'sigmoid', got {activation!r}")


def _winners(D: np.ndarray, y_idx: np.ndarray, c: np.ndarray):
    """Correct and incorrect winners ``w+``, ``w-`` for every row of ``D``.

    Returns their indices and their distances ``d+``, ``d-``; the code calls them ``J``,
    ``K``, ``dJ``, ``dK`` after Biehl's ``w_J``, ``w_K``.
    """
    same = c[None, :] == y_idx[:, None]
    rows = np.arange(len(D))
    DJ = np.where(same, D, np.inf)
    DK = np.where(same, np.inf, D)
    J = first_argmin(DJ, axis=1)
    K = first_argmin(DK, axis=1)
    return J, K, DJ[rows, J], DK[rows, K]


def _glvq_core(X, y_idx, W, c, omega, activation, steepness, want_omega):
    """Cost and gradients of ``E = sum_mu phi(e_mu)`` with whole-array operations.

    Gradients (exact; the corrected eq. 5.15 inside):
    ``dE/dw_j = sum_mu A[mu, j] 2 Lambda (w_j - xi_mu)`` and
    ``dE/dOmega = 2 Omega sum_mu sum_L A[mu, L] (w_L - xi_mu)(w_L - xi_mu)^T``, where
    ``A[mu, J_mu] = phi'(e) 2 d- / (d+ + d-)^2`` and
    ``A[mu, K_mu] = -phi'(e) 2 d+ / (d+ + d-)^2``, with ``J_mu``, ``K_mu`` the indices of
    the winners ``w+``, ``w-`` of example ``mu``.
    """
    D = _fast_sqdist(X, W, omega)
    J, K, dJ, dK = _winners(D, y_idx, c)
    total = dJ + dK
    safe = np.where(total > 0, total, 1.0)
    e = np.where(total > 0, (dJ - dK) / safe, 0.0)
    phi, dphi = _phi(e, activation, steepness)
    with np.errstate(over="ignore", under="ignore"):
        squared = safe**2                  # 0 for distances ~ 1e-160: (dK / total) / total then
    square = np.where(squared > 0, squared, safe)
    fJ, fK = (np.where(squared > 0, dist, dist / safe) for dist in (dK, dJ))
    aJ = np.where(total > 0, dphi * 2.0 * fJ / square, 0.0)
    aK = np.where(total > 0, -dphi * 2.0 * fK / square, 0.0)
    P, M = D.shape
    rows = np.arange(P)
    A = np.zeros((P, M))
    A[rows, J] = aJ
    A[rows, K] = aK
    G = A.sum(axis=0)[:, None] * W - A.T @ X            # sum_mu A[mu, j] (w_j - xi_mu)
    if omega is None:
        grad_w = 2.0 * G
    else:
        grad_w = 2.0 * (G @ omega.T) @ omega              # 2 G Lambda, Lambda symmetric
    grad_omega = None
    if want_omega:
        VJ = W[J] - X
        VK = W[K] - X
        S = (VJ * aJ[:, None]).T @ VJ + (VK * aK[:, None]).T @ VK
        grad_omega = 2.0 * omega @ S
    return float(phi.sum()), grad_w, grad_omega, e, D


def _labels_to_indices(y, prototype_labels):
    y = np.asarray(y)
    labels = np.asarray(prototype_labels)
    classes = np.unique(labels)
    if len(classes) < 2:
        raise ValueError("GLVQ needs prototypes of at least two classes "
                         "(a correct and an incorrect winner)")
    missing = np.setdiff1d(np.unique(y), classes)
    if missing.size:
        raise ValueError(f"class {_name(missing[0])!r} has no prototypes: "
                         "every class of y needs at least one")
    return np.searchsorted(classes, y), np.searchsorted(classes, labels)


# the data, the prototypes, and the cost's options
_GLVQ = dict(X=MATRIX, prototypes=MATRIX, omega=[MATRIX, None],
             activation=Options("identity", "sigmoid"), steepness=POSITIVE)


@validate_args(**_GLVQ)
def glvq_cost(X: np.ndarray, y: np.ndarray, prototypes: np.ndarray, prototype_labels: np.ndarray, *,
              omega: np.ndarray | None = None, activation: str = "identity",
              steepness: float = 1.0) -> float:
    """The GLVQ cost ``E = sum_mu phi(e_mu)``, Biehl eq. (5.5).

    Parameters
    ----------
    X, y : array (P, N) and array (P,)
        The examples and their labels.
    prototypes : array (M, N)
    prototype_labels : array (M,)
        With labels from ``y``.
    omega : array (K, N), optional
        Use the relevance distance ``[Omega (w - xi)]^2`` instead of the squared
        Euclidean distance (GMLVQ's cost).
    activation : {"identity", "sigmoid"}
    steepness : float
        ``gamma`` of the sigmoid ``phi(e) = 1 / (1 + exp(-gamma e))``.
    """
    X = np.asarray(X, dtype=float)
    yi, ci = _labels_to_indices(y, prototype_labels)
    om = None if omega is None else np.asarray(omega, dtype=float)
    return _glvq_core(X, yi, np.asarray(prototypes, dtype=float), ci, om, activation, steepness,
                      False)[0]


@validate_args(**_GLVQ)
def glvq_gradients(X: np.ndarray, y: np.ndarray, prototypes: np.ndarray,
                   prototype_labels: np.ndarray, *, omega: np.ndarray | None = None,
                   activation: str = "identity",
                   steepness: float = 1.0) -> tuple[np.ndarray, np.ndarray | None]:
    """Gradients of the GLVQ cost (5.5) with respect to the prototypes and to ``Omega``.

    With ``d = d_L`` the distance of example ``mu`` to its correct winner ``w+``
    (``L = +``) or its incorrect winner ``w-`` (``L = -``):

    * ``dphi/dd+ = phi'(e) 2 d- / (d+ + d-)^2`` and ``dphi/dd- = -phi'(e) 2 d+ / (d+ + d-)^2``;
    * ``dd_L/dw_L = 2 Lambda (w_L - xi)`` (``Lambda = I`` for the Euclidean distance, eq. 5.8);
    * ``dd_L/dOmega = 2 Omega (w_L - xi)(w_L - xi)^T`` (corrected eq. 5.15).

    A stochastic step (5.7)/(5.17) subtracts ``eta`` times the gradient of one term;
    a batch step the gradient of the whole sum.  Returns ``(grad_prototypes,
    grad_omega)``; ``grad_omega`` is ``None`` without ``omega``.  Winners are
    recomputed at the given point, so the cost is piecewise differentiable: it is
    smooth wherever no example has two equally close prototypes of one kind.
    """
    X = np.asarray(X, dtype=float)
    yi, ci = _labels_to_indices(y, prototype_labels)
    om = None if omega is None else np.asarray(omega, dtype=float)
    _, gw, go, _, _ = _glvq_core(X, yi, np.asarray(prototypes, dtype=float), ci, om,
                                 activation, steepness, om is not None)
    return gw, go


@validate_args(omega=MATRIX)
def normalize_omega(omega: np.ndarray) -> np.ndarray:
    """Scale ``Omega`` so that ``trace(Lambda) = sum_ij Omega_ij^2 = 1``.

    Raises a ``ValueError`` if ``Omega`` is zero (or not finite): then the relevance
    matrix has collapsed to zero trace and no distance is left.
    """
    omega = np.asarray(omega, dtype=float)
    norm2 = float(np.sum(omega * omega))
    if not np.isfinite(norm2) or norm2 <= 1e-300:
        raise ValueError("the relevance matrix Lambda = Omega^T Omega has collapsed to zero trace "
                         "(or is not finite); it cannot be normalised to trace 1. "
                         "Use a smaller eta_omega or a different initial Omega")
    return omega / np.sqrt(norm2)


# unchecked in the training loops: a run that diverges gets the message above
_normalize_omega = normalize_omega.__wrapped__


# ---------------------------------------------------------------- the training engine

class PrototypeTrainer:
    """LVQ1, GLVQ and GMLVQ updates, one example or one epoch at a time.

    Parameters
    ----------
    X : array (P, N)
    y : array (P,) of class indices ``0 .. C-1``
    prototypes : array (M, N)
        Initial prototypes (copied).
    prototype_classes : array (M,) of class indices
    rule : {"lvq1", "glvq"}
        ``"lvq1"``: the winner-takes-all step (5.4), or (5.9) with a fixed ``omega``;
        ``"glvq"``: gradient steps on the GLVQ cost (5.5)-(5.7), which with
        ``learn_omega=True`` is GMLVQ (5.16)-(5.17).
    eta : float
        ``eta_w`` at epoch 0.
    eta_omega : float
        ``eta_Omega`` at epoch 0 (GMLVQ).
    decay_epochs : float or None
        Rates decay as ``eta_0 / (1 + t / tau)`` with ``t`` the number of completed
        epochs and ``tau = decay_epochs``; ``None`` keeps them constant.
    activation, steepness :
        ``phi`` of the GLVQ cost (identity or sigmoid with steepness ``gamma``).
    solver : {"sgd", "batch"}
        ``"sgd"``: every epoch presents all examples once in a fresh random order
        (sampling without replacement) and updates after each.  ``"batch"``: every
        epoch is one gradient step on the mean cost ``E / P`` (GLVQ/GMLVQ only).
    omega : array (K, N), optional
        Linear map of the relevance distance; ``None`` means squared Euclidean.
    learn_omega : bool
        Adapt ``omega`` (GMLVQ); it is renormalised to ``trace(Lambda) = 1`` after each update.
    diagonal : bool
        Keep ``omega`` diagonal (relevance LVQ: one weight per feature).
    random_state : seed, numpy Generator or None, optional
        Source of the presentation orders.
    """

    def __init__(self, X: np.ndarray, y: np.ndarray, prototypes: np.ndarray,
                 prototype_classes: np.ndarray, *, rule: str = "lvq1", eta: float = 0.05,
                 eta_omega: float = 0.0, decay_epochs: float | None = None,
                 activation: str = "identity", steepness: float = 1.0, solver: str = "sgd",
                 omega: np.ndarray | None = None, learn_omega: bool = False, diagonal: bool = False,
                 random_state: np.random.Generator | int | None = None) -> None:
        self.X = np.asarray(X, dtype=float)
        self.y = np.asarray(y, dtype=int)
        self.W = np.array(prototypes, dtype=float)
        self.c = np.asarray(prototype_classes, dtype=int)
        if rule not in ("lvq1", "glvq"):
            raise ValueError(f"rule must be 'lvq1' or 'glvq', got {rule!r}")
        if solver not in ("sgd", "batch"):
            raise ValueError(f"solver must be 'sgd' or 'batch', got {solver!r}")
        if rule == "lvq1" and (solver == "batch" or learn_omega):
            raise ValueError("LVQ1 is a heuristic without a cost: it has no batch gradient and "
                             "does not learn Omega (use rule='glvq')")
        if self.W.ndim != 2 or self.W.shape[1] != self.X.shape[1] or len(self.c) != len(self.W):
            raise ValueError(f"prototypes must have shape (M, {self.X.shape[1]}) with M labels")
        if len(self.y) != len(self.X):
            raise ValueError(f"X has {len(self.X)} rows but y has {len(self.y)} labels")
        missing = np.setdiff1d(np.unique(self.y), self.c)
        if missing.size:
            raise ValueError(f"class {int(missing[0])} has no prototypes: "
                             "every class needs at least one")
        if rule == "glvq" and len(np.unique(self.c)) < 2:
            raise ValueError("GLVQ needs prototypes of at least two classes")
        self.rule = rule
        self.eta_w0 = float(eta)
        self.eta_omega0 = float(eta_omega)
        self.decay_epochs = decay_epochs
        self.activation = activation
        self.steepness = float(steepness)
        _phi(np.zeros(1), activation, self.steepness)       # validates the activation
        self.solver = solver
        self.learn_omega = bool(learn_omega)
        self.diagonal = bool(diagonal)
        if omega is None:
            if self.learn_omega:
                raise ValueError("learn_omega needs an initial omega")
            self.omega = None
        else:
            omega = np.array(omega, dtype=float)
            if omega.ndim != 2 or omega.shape[1] != self.X.shape[1]:
                raise ValueError(f"omega must have shape (K, {self.X.shape[1]}), got {omega.shape}")
            if self.diagonal and (omega.shape[0] != omega.shape[1]
                                  or np.any(omega[~np.eye(len(omega), dtype=bool)])):
                raise ValueError("a diagonal relevance needs a square diagonal omega")
            self.omega = _normalize_omega(omega) if self.learn_omega else omega
        self.rng = resolve_rng(random_state)
        # per class: its own prototypes and the others (the candidates for w+ and w-)
        classes = range(int(max(self.y.max(initial=0), self.c.max())) + 1)
        self._own = [np.flatnonzero(self.c == k) for k in classes]
        self._rival = [np.flatnonzero(self.c != k) for k in classes]
        self._every = np.arange(len(self.c))
        self.epoch = 0
        self.n_steps = 0
        self.last_example: int | None = None
        self.prototype_history = [self.W.copy()]
        self._kept = None
        cost, errors = self._measure()
        self.cost_per_epoch = [cost]
        self.errors_per_epoch = [errors]

    # -------------------------------------------------- state
    @property
    def lambda_(self) -> np.ndarray | None:
        """``Lambda = Omega^T Omega`` (``None`` for the Euclidean distance)."""
        return None if self.omega is None else self.omega.T @ self.omega

    def rates(self) -> tuple[float, float]:
        """``(eta_w, eta_Omega)`` for the current epoch."""
        factor = 1.0 if self.decay_epochs is None else 1.0 / (1.0 + self.epoch / self.decay_epochs)
        return self.eta_w0 * factor, self.eta_omega0 * factor

    def distances(self, X: np.ndarray | None = None) -> np.ndarray:
        """(P, M) distances of the examples (or of ``X``) to the current prototypes."""
        X = self.X if X is None else np.asarray(X, dtype=float)
        return _fast_sqdist(X, self.W, self.omega)

    def predict_classes(self, X: np.ndarray | None = None) -> np.ndarray:
        """Class index of the nearest prototype, eq. (5.2)."""
        return self.c[first_argmin(self.distances(X), axis=1)]

    def errors(self) -> int:
        """Number of misclassified training examples."""
        return int(np.sum(self.predict_classes() != self.y))

    def cost(self) -> float:
        """GLVQ cost (5.5) at the current state (with ``phi`` = identity for LVQ1, as a
        diagnostic)."""
        act = self.activation if self.rule == "glvq" else "identity"
        return _glvq_core(self.X, self.y, self.W, self.c, self.omega, act, self.steepness, False)[0]

    # -------------------------------------------------- updates
    def step(self, mu: int) -> None:
        """One stochastic update with example ``mu`` (LVQ1 (5.4)/(5.9), GLVQ (5.7),
        GMLVQ (5.17))."""
        mu = int(mu)
        if not 0 <= mu < len(self.y):
            raise IndexError(f"example index {mu} out of range for {len(self.y)} examples")
        eta_w, eta_o = self.rates()
        x = self.X[mu]
        if self.rule == "lvq1":
            d = _fast_sqdist(x[None, :], self.W, self.omega)[0]
            j = self._closest(self._every, d)
            psi = 1.0 if self.c[j] == self.y[mu] else -1.0
            delta = x - self.W[j]
            if self.omega is not None:                     # (5.9):
                                                           # -1/2 d delta/dw = Lambda (xi - w)
                delta = (delta @ self.omega.T) @ self.omega
            self.W[j] += eta_w * psi * delta
        else:
            self._single_glvq_step(mu, eta_w, eta_o)
        self.n_steps += 1
        self.last_example = mu

    def _single_glvq_step(self, mu: int, eta_w: float, eta_o: float) -> None:
        """GLVQ/GMLVQ step (5.7)/(5.17) for one example: the batch gradient of a single term.

        Written out for one example (two prototypes and one outer product change), which
        is several times faster than the general whole-array routine; the tests check
        that both give the same step.
        """
        x = self.X[mu]
        V = self.W - x                                   # rows w_j - xi
        proj = V if self.omega is None else V @ self.omega.T
        d = np.einsum("mk,mk->m", proj, proj)
        J = self._closest(self._own[self.y[mu]], d)
        K = self._closest(self._rival[self.y[mu]], d)
        dJ, dK = float(d[J]), float(d[K])
        total = dJ + dK
        if total <= 0.0:
            return
        if self.activation == "identity":
            dphi = 1.0
        else:
            dphi = float(_phi(np.array([(dJ - dK) / total]), self.activation, self.steepness)[1][0])
        square = total * total
        if square > 0.0:
            aJ, aK = dphi * 2.0 * dK / square, -dphi * 2.0 * dJ / square
        else:                                            # total**2 underflows
            aJ, aK = dphi * 2.0 * (dK / total) / total, -dphi * 2.0 * (dJ / total) / total
        if self.omega is None:
            gJ, gK = 2.0 * aJ * V[J], 2.0 * aK * V[K]
        else:
            gJ = 2.0 * aJ * (proj[J] @ self.omega)       # 2 a Lambda (w - xi)
            gK = 2.0 * aK * (proj[K] @ self.omega)
        if self.learn_omega:                             # outer products, written out
            go = 2.0 * (aJ * (proj[J][:, None] * V[J]) + aK * (proj[K][:, None] * V[K]))
        self.W[J] -= eta_w * gJ
        self.W[K] -= eta_w * gK
        if self.learn_omega:
            if self.diagonal:
                go = np.diag(np.diag(go))
            omega = self.omega - eta_o * go
            norm2 = float(np.sum(omega * omega))
            self.omega = (omega / np.sqrt(norm2) if 1e-300 < norm2 < np.inf
                          else _normalize_omega(omega))

    @staticmethod
    def _closest(candidates: np.ndarray, d: np.ndarray) -> int:
        """The prototype among ``candidates`` (ascending indices) closest by ``d``; ties to the
        first."""
        if len(candidates) == 1:
            return int(candidates[0])
        if len(candidates) == 2:                         # first_argmin's rule on two floats
            i, j = candidates
            a, b = float(d[i]), float(d[j])
            if not math.isfinite(a + b):
                return int(candidates[first_argmin(d[candidates])])
            grid = TIE_RTOL * max(a, b) if max(a, b) > 0 else TIE_RTOL
            return int(j) if round(b / grid) < round(a / grid) else int(i)
        if len(candidates) <= 16:                        # the same rule on a few floats: the
            values = d[candidates].tolist()              # first of the smallest on the grid
            top = max(abs(v) for v in values)            # of TIE_RTOL times the largest
            if math.isfinite(top):
                grid = TIE_RTOL * top if top > 0 else TIE_RTOL
                snapped = [round(v / grid) for v in values]
                return int(candidates[snapped.index(min(snapped))])
        return int(candidates[first_argmin(d[candidates])])

    def _measure(self) -> tuple[float, int]:
        """:meth:`cost` and :meth:`errors` from one pass over the data (the same distances
        serve both).  In batch mode the gradients of that pass are kept with the state they
        belong to: the next epoch's step starts from it and uses them unless it changed."""
        act = self.activation if self.rule == "glvq" else "identity"
        batch = self.solver == "batch"
        core = _glvq_core(self.X, self.y, self.W, self.c, self.omega, act, self.steepness,
                          batch and self.learn_omega)
        if batch:
            self._kept = (core, self.W.copy(), None if self.omega is None else self.omega.copy(),
                          act, self.steepness, self.learn_omega)
        return core[0], int(np.sum(self.c[first_argmin(core[4], axis=1)] != self.y))

    def _kept_gradients(self, X):
        """The gradients :meth:`_measure` kept, if they belong to the current state."""
        kept, self._kept = self._kept, None
        if kept is None or X is not self.X or kept[3:] != (self.activation, self.steepness,
                                                           self.learn_omega):
            return None
        core, W, omega = kept[:3]
        same_omega = (omega is None and self.omega is None) or (
            omega is not None and self.omega is not None and np.array_equal(omega, self.omega))
        return core if same_omega and np.array_equal(W, self.W) else None

    def _gradient_step(self, X, y, eta_w, eta_o) -> None:
        core = self._kept_gradients(X)
        if core is None:
            core = _glvq_core(X, y, self.W, self.c, self.omega, self.activation, self.steepness,
                              self.learn_omega)
        _, gw, go, _, _ = core
        self.W -= eta_w * gw
        if self.learn_omega:
            if self.diagonal:
                go = np.diag(np.diag(go))
            self.omega = _normalize_omega(self.omega - eta_o * go)

    def run_epoch(self) -> None:
        """One epoch: all examples in a fresh random order (SGD) or one batch gradient step."""
        if self.solver == "batch":
            eta_w, eta_o = self.rates()
            P = len(self.y)
            self._gradient_step(self.X, self.y, eta_w / P, eta_o / P)
            self.n_steps += 1
        else:
            for mu in _permutation(self.rng, len(self.y)):
                self.step(mu)
        self.epoch += 1
        self.prototype_history.append(self.W.copy())
        cost, errors = self._measure()
        self.cost_per_epoch.append(cost)
        self.errors_per_epoch.append(errors)

    def run(self, n_epochs: int) -> None:
        """Run ``n_epochs`` further epochs."""
        for _ in range(int(n_epochs)):
            self.run_epoch()


class _LVQBase(_PrototypeClassifier):
    """Common fitting machinery of LVQ1, GLVQ and GMLVQ."""

    _rule = "lvq1"

    # The parameters every LVQ estimator has.  The length of a per-class sequence of
    # prototypes_per_class (one int >= 1 per class) depends on y and is checked in fit.
    # decay_epochs = inf is the limit of no decay (the same as None).
    _parameter_constraints = {
        "prototypes_per_class": [COUNT, "array-like"],
        "initial_prototypes": [Options("class-mean", "random-example")],
        "eta": [POSITIVE],
        "max_epochs": [COUNT],
        "decay_epochs": [Interval(numbers.Real, 0, None, closed="neither", allow_inf=True), None],
        "random_state": ["random_state"],
    }

    def _distance(self, X):
        return _fast_sqdist(X, self.prototypes_, getattr(self, "omega_", None))

    def _per_class(self, n_classes: int) -> np.ndarray:
        ppc = self.prototypes_per_class
        if isinstance(ppc, numbers.Integral) and not isinstance(ppc, bool):
            return np.full(n_classes, int(ppc))
        arr = np.asarray(ppc)
        if arr.ndim != 1 or len(arr) != n_classes or not np.issubdtype(arr.dtype, np.integer):
            raise ValueError(f"prototypes_per_class must be an int or {n_classes} ints "
                             f"(one per class), got {ppc!r}")
        return arr

    def _prepare(self, X, y, initial_prototypes, prototype_labels):
        X, y = validate_data(self, X, y)
        X = check_inputs(X)                                # squares that overflow are refused
        check_classification_targets(y)
        self.classes_, y_idx = np.unique(y, return_inverse=True)
        if len(self.classes_) < 2:
            raise ValueError(f"y has {len(self.classes_)} class ({self.classes_.tolist()}); "
                             "LVQ needs at least two classes to place prototypes "
                             "against each other")
        rng = resolve_rng(self.random_state)
        if initial_prototypes is None:
            if prototype_labels is not None:
                raise ValueError("prototype_labels given without initial_prototypes")
            W, c = init_prototypes(X, y_idx, self._per_class(len(self.classes_)),
                                   method=self.initial_prototypes, random_state=rng,
                                   class_names=self.classes_)
        else:
            W = np.array(initial_prototypes, dtype=float)
            if prototype_labels is None:
                raise ValueError("initial_prototypes need prototype_labels")
            labels = np.asarray(prototype_labels)
            if W.ndim != 2 or W.shape[1] != X.shape[1] or len(labels) != len(W):
                raise ValueError(f"initial_prototypes must have shape (M, {X.shape[1]}) "
                                 f"with M labels; got {W.shape} and {labels.shape}")
            W = check_inputs(W, "initial_prototypes")
            unknown = np.setdiff1d(labels, self.classes_)
            if unknown.size:
                raise ValueError(f"prototype label {_name(unknown[0])!r} is not a class of y")
            empty = np.setdiff1d(self.classes_, labels)
            if empty.size:
                raise ValueError(f"class {_name(empty[0])!r} has no prototypes: "
                                 "every class needs at least one")
            order = np.argsort(np.searchsorted(self.classes_, labels), kind="stable")
            W, c = W[order], np.searchsorted(self.classes_, labels)[order]
        return X, y_idx, W, c, rng

    def _finish(self, trainer: PrototypeTrainer) -> None:
        self.prototypes_ = trainer.W.copy()
        self._prototype_class = trainer.c.copy()
        self.prototype_labels_ = self.classes_[trainer.c]
        self.cost_per_epoch_ = np.array(trainer.cost_per_epoch)
        self.errors_per_epoch_ = np.array(trainer.errors_per_epoch)
        self.prototype_history_ = np.array(trainer.prototype_history)
        self.n_epochs_ = trainer.epoch


class LVQ1(_LVQBase):
    """Kohonen's LVQ1 (Biehl eqs. 5.3-5.4) as a scikit-learn classifier.

    Each epoch presents the examples in a fresh random order; for example ``x`` with
    label ``y`` the winner (closest prototype) ``w*`` moves
    ``w* <- w* + eta Psi(c*, y) (x - w*)`` with ``Psi = +1`` if its label is right and
    ``-1`` otherwise.  With a fixed ``omega`` the winner is found with the relevance
    distance and the step is eq. (5.9): ``w* <- w* + eta Psi Lambda (x - w*)``.

    Parameters
    ----------
    prototypes_per_class : int or sequence of int, default 1
    initial_prototypes : {"class-mean", "random-example"}, default "class-mean"
        See :func:`init_prototypes`.
    eta : float, default 0.05
        ``eta_w`` at the start.
    max_epochs : int, default 50
        Number of epochs (LVQ1 has no stopping criterion).
    decay_epochs : float or None, default 10
        ``eta_t = eta_0 / (1 + t / decay_epochs)`` after ``t`` epochs; ``None``: constant.
    omega : array (K, N), optional
        A fixed linear map; the distance is ``[omega (w - xi)]^2`` (e.g. Mahalanobis).
    random_state : int, Generator or None
        Seed of the initialisation and of the presentation orders.

    Attributes
    ----------
    classes_ : array (n_classes,)
        The class labels.
    prototypes_ : array (M, N)
        The prototypes, one per row.
    prototype_labels_ : array (M,)
        Their class labels.
    cost_per_epoch_ : array (n_epochs + 1,)
        GLVQ cost (5.5) with ``phi`` = identity before training and after each epoch
        (LVQ1 does not minimise it; it is shown for comparison).
    errors_per_epoch_ : array (n_epochs + 1,)
        Misclassified training examples at the same moments.
    prototype_history_ : array (n_epochs + 1, M, N)
    n_epochs_ : int

    References
    ----------
    .. [1] Biehl, M. (2019). *Supervised Learning -- An Introduction*. Machine Learning Reports
       01/2019, §5.1.3, eqs. (5.3)--(5.4); with ``omega``, §5.2.1, eq. (5.9).
       (bib key: biehl2019supervised)
    .. [2] Kohonen, T. (1997). *Self-Organizing Maps*, 2nd ed. Springer.
       (bib key: kohonen1997self)

    Examples
    --------
    >>> from lecture_pkg.datasets import koski_example
    >>> from lecture_pkg.prototypes import LVQ1
    >>> X, y = koski_example()
    >>> clf = LVQ1(random_state=0).fit(X, y)
    >>> clf.score(X, y)
    1.0
    """

    _rule = "lvq1"

    _parameter_constraints = {
        **_LVQBase._parameter_constraints,
        "omega": [None, "array-like"],          # its shape (K, N) is checked against X in fit
    }

    def __init__(self, prototypes_per_class: int | Sequence[int] = 1,
                 initial_prototypes: str = "class-mean", eta: float = 0.05, max_epochs: int = 50,
                 decay_epochs: float = 10.0, omega: np.ndarray | None = None,
                 random_state: np.random.Generator | int | None = None) -> None:
        self.prototypes_per_class = prototypes_per_class
        self.initial_prototypes = initial_prototypes
        self.eta = eta
        self.max_epochs = max_epochs
        self.decay_epochs = decay_epochs
        self.omega = omega
        self.random_state = random_state

    def fit(self, X: np.ndarray, y: np.ndarray, initial_prototypes: np.ndarray | None = None,
            prototype_labels: np.ndarray | None = None) -> LVQ1:
        """Train on ``X`` (P, N) with labels ``y`` (at least two classes).

        ``initial_prototypes`` (M, N) with ``prototype_labels`` (M,) replace the
        automatic initialisation.
        """
        X, y_idx, W, c, rng = self._prepare(X, y, initial_prototypes, prototype_labels)
        self.omega_ = None if self.omega is None else np.asarray(self.omega, dtype=float)
        trainer = PrototypeTrainer(X, y_idx, W, c, rule="lvq1", eta=self.eta,
                                   decay_epochs=self.decay_epochs, omega=self.omega_,
                                   random_state=rng)
        trainer.run(self.max_epochs)
        self._finish(trainer)
        return self


class GLVQ(_LVQBase):
    """Generalised LVQ (Sato and Yamada; Biehl eqs. 5.5-5.8) as a scikit-learn classifier.

    Minimises ``E = sum_mu phi(e_mu)`` with ``e = (d+ - d-) / (d+ + d-)`` (eq. 5.5)
    by gradient descent: stochastic (each example moves its correct winner ``w+``
    towards it and its incorrect winner ``w-`` away, eq. 5.7) or in batch (one step
    along the whole-array gradient of ``E / P`` per epoch).

    Parameters
    ----------
    prototypes_per_class, initial_prototypes, eta, max_epochs, decay_epochs, random_state
        As in :class:`LVQ1`.
    activation : {"identity", "sigmoid"}, default "identity"
        ``phi``; the sigmoid is ``1 / (1 + exp(-steepness e))``.
    steepness : float, default 1
        ``gamma`` of the sigmoid.
    solver : {"sgd", "batch"}, default "sgd"
    omega : array (K, N), optional
        A fixed linear map for the distance.

    Attributes
    ----------
    classes_, prototypes_, prototype_labels_, errors_per_epoch_, prototype_history_, n_epochs_
        As in :class:`LVQ1`.
    cost_per_epoch_ : array (n_epochs + 1,)
        The cost being minimised, before training and after each epoch.

    References
    ----------
    .. [1] Biehl, M. (2019). *Supervised Learning -- An Introduction*. Machine Learning Reports
       01/2019, §5.1.3, eqs. (5.5)--(5.8). (bib key: biehl2019supervised)
    .. [2] Sato, A. and Yamada, K. (1996). Generalized Learning Vector Quantization. *Advances
       in Neural Information Processing Systems 8*, 423--429. (bib key: sato1996generalized)

    Examples
    --------
    >>> from lecture_pkg.datasets import koski_example
    >>> from lecture_pkg.prototypes import GLVQ
    >>> X, y = koski_example()
    >>> clf = GLVQ(random_state=0).fit(X, y)
    >>> clf.score(X, y)
    1.0
    """

    _rule = "glvq"

    _parameter_constraints = {
        **_LVQBase._parameter_constraints,
        "activation": [Options("identity", "sigmoid")],
        "steepness": [POSITIVE],
        "solver": [Options("sgd", "batch")],
        "omega": [None, "array-like"],          # its shape (K, N) is checked against X in fit
    }

    def __init__(self, prototypes_per_class: int | Sequence[int] = 1,
                 initial_prototypes: str = "class-mean", eta: float = 0.05, max_epochs: int = 50,
                 decay_epochs: float = 10.0, activation: str = "identity", steepness: float = 1.0,
                 solver: str = "sgd", omega: np.ndarray | None = None,
                 random_state: np.random.Generator | int | None = None) -> None:
        self.prototypes_per_class = prototypes_per_class
        self.initial_prototypes = initial_prototypes
        self.eta = eta
        self.max_epochs = max_epochs
        self.decay_epochs = decay_epochs
        self.activation = activation
        self.steepness = steepness
        self.solver = solver
        self.omega = omega
        self.random_state = random_state

    def fit(self, X: np.ndarray, y: np.ndarray, initial_prototypes: np.ndarray | None = None,
            prototype_labels: np.ndarray | None = None) -> GLVQ:
        """Train on ``X`` (P, N) with labels ``y`` (at least two classes)."""
        X, y_idx, W, c, rng = self._prepare(X, y, initial_prototypes, prototype_labels)
        self.omega_ = None if self.omega is None else np.asarray(self.omega, dtype=float)
        trainer = PrototypeTrainer(X, y_idx, W, c, rule="glvq", eta=self.eta,
                                   decay_epochs=self.decay_epochs, activation=self.activation,
                                   steepness=self.steepness, solver=self.solver,
                                   omega=self.omega_, random_state=rng)
        trainer.run(self.max_epochs)
        self._finish(trainer)
        self._warn_if_diverged()
        return self

    def _warn_if_diverged(self) -> None:
        """Warn when training raised the cost (5.5) instead of lowering it.

        A prototype's step is ``eta`` times a gradient that grows like one over the
        distances, so an ``eta`` that suits standardised data throws the
        prototypes far away on data of a much smaller scale.
        """
        start, end = self.cost_per_epoch_[0], self.cost_per_epoch_[-1]
        if np.all(np.isfinite(self.prototypes_)) and end <= start:
            return
        warn_user(f"{type(self).__name__} raised its cost from {start:.4g} to {end:.4g}: "
                  "the learning rate is too large for inputs at this scale (a prototype's step "
                  "grows like one over the distances); standardise X or lower eta",
                  ConvergenceWarning)


class GMLVQ(GLVQ):
    """Generalised matrix relevance LVQ (Biehl eqs. 5.13-5.17, corrected gradients).

    GLVQ with the adaptive distance ``delta_Lambda(w, xi) = [Omega (w - xi)]^2``,
    ``Lambda = Omega^T Omega``; prototypes and ``Omega`` descend the gradient of the
    GLVQ cost together, and ``Omega`` is renormalised after every update so that
    ``trace(Lambda) = sum_ij Omega_ij^2 = 1``.

    Parameters
    ----------
    prototypes_per_class, initial_prototypes, eta, max_epochs, decay_epochs
        As in :class:`GLVQ` (``max_epochs`` defaults to 100).
    activation, steepness, solver, random_state
        As in :class:`GLVQ`.
    eta_omega : float, default 0.005
        ``eta_Omega``; usually much smaller than ``eta_w`` for stochastic updates.
    relevance : {"full", "diagonal"}, default "full"
        ``"diagonal"`` keeps ``Omega`` and ``Lambda`` diagonal: one relevance per
        feature (relevance LVQ, GRLVQ).
    rank : int or None, default None
        Number of rows ``K`` of ``Omega``; ``K < N`` gives a relevance matrix of rank at
        most ``K`` (low-rank GMLVQ).  ``None`` means ``K = N``.
    relevance_init : {"identity", "random"}, default "identity"
        ``Omega`` starts as the first ``K`` rows of the identity or with independent
        standard normal entries; either is then normalised to trace 1.

    Attributes
    ----------
    classes_, prototypes_, prototype_labels_, cost_per_epoch_, errors_per_epoch_, n_epochs_
        As in :class:`GLVQ`.
    omega_ : array (K, N)
    lambda_ : array (N, N)
        The relevance matrix, symmetric positive semi-definite with trace 1.
    relevances_ : array (N,)
        Its diagonal: the relevance of each feature.
    eigenvalues_ : array (N,)
        Eigenvalues of ``lambda_`` in decreasing order (they sum to 1).
    eigenvectors_ : array (N, N)
        Row ``k`` is the eigenvector of the ``k``-th largest eigenvalue (sign fixed so
        that its largest component is positive).

    References
    ----------
    .. [1] Biehl, M. (2019). *Supervised Learning -- An Introduction*. Machine Learning Reports
       01/2019, §5.2.2, eqs. (5.13)--(5.17). (bib key: biehl2019supervised)
    .. [2] Schneider, P., Biehl, M. and Hammer, B. (2009). Adaptive Relevance Matrices in
       Learning Vector Quantization. *Neural Computation* 21(12), 3532--3561.
       (bib key: schneider2009adaptive)
    .. [3] Hammer, B. and Villmann, T. (2002). Generalized Relevance Learning Vector
       Quantization. *Neural Networks* 15(8--9), 1059--1068 (``relevance="diagonal"``).
       (bib key: hammer2002generalized)
    .. [4] Bunte, K. et al. (2012). Limited Rank Matrix Learning, Discriminative Dimension
       Reduction and Visualization. *Neural Networks* 26, 159--173 (``rank < N``).
       (bib key: bunte2012limited)

    Examples
    --------
    >>> from lecture_pkg.datasets import koski_example
    >>> from lecture_pkg.prototypes import GMLVQ
    >>> X, y = koski_example()
    >>> clf = GMLVQ(random_state=0).fit(X, y)
    >>> clf.score(X, y), round(float(clf.relevances_.sum()), 6)
    (1.0, 1.0)
    """

    _parameter_constraints = {
        **{name: c for name, c in GLVQ._parameter_constraints.items() if name != "omega"},
        "eta_omega": [POSITIVE],
        "relevance": [Options("full", "diagonal")],
        "rank": [COUNT, None],                 # at most the number of features: checked in fit
        "relevance_init": [Options("identity", "random")],
    }

    def __init__(self, prototypes_per_class: int | Sequence[int] = 1,
                 initial_prototypes: str = "class-mean", eta: float = 0.05,
                 eta_omega: float = 0.005, max_epochs: int = 100, decay_epochs: float = 10.0,
                 activation: str = "identity", steepness: float = 1.0, solver: str = "sgd",
                 relevance: str = "full", rank: int | None = None, relevance_init: str = "identity",
                 random_state: np.random.Generator | int | None = None) -> None:
        self.prototypes_per_class = prototypes_per_class
        self.initial_prototypes = initial_prototypes
        self.eta = eta
        self.eta_omega = eta_omega
        self.max_epochs = max_epochs
        self.decay_epochs = decay_epochs
        self.activation = activation
        self.steepness = steepness
        self.solver = solver
        self.relevance = relevance
        self.rank = rank
        self.relevance_init = relevance_init
        self.random_state = random_state

    def _initial_omega(self, n_features: int, rng) -> np.ndarray:
        k = n_features if self.rank is None else self.rank
        if k > n_features:
            raise ValueError(f"rank={k} exceeds the {n_features} features")
        if self.relevance == "diagonal":
            if k != n_features:
                raise ValueError("a diagonal relevance matrix has full rank: use rank=None")
            diag = np.ones(n_features) if self.relevance_init == "identity" else \
                np.abs(rng.standard_normal(n_features)) + 1e-3
            return np.diag(diag)
        if self.relevance_init == "identity":
            return np.eye(k, n_features)
        return rng.standard_normal((k, n_features))

    def fit(self, X: np.ndarray, y: np.ndarray, initial_prototypes: np.ndarray | None = None,
            prototype_labels: np.ndarray | None = None,
            initial_omega: np.ndarray | None = None) -> GMLVQ:
        """Train prototypes and relevance matrix on ``X`` (P, N) with labels ``y``.

        ``initial_omega`` (K, N) replaces the automatic initialisation of ``Omega``
        (a zero matrix is refused: its trace cannot be normalised to 1).
        """
        X, y_idx, W, c, rng = self._prepare(X, y, initial_prototypes, prototype_labels)
        if initial_omega is None:
            omega0 = self._initial_omega(X.shape[1], rng)
        else:
            self._initial_omega(X.shape[1], rng)           # checks rank against the features
            omega0 = np.asarray(initial_omega, dtype=float)
        trainer = PrototypeTrainer(X, y_idx, W, c, rule="glvq", eta=self.eta,
                                   eta_omega=self.eta_omega,
                                   decay_epochs=self.decay_epochs, activation=self.activation,
                                   steepness=self.steepness, solver=self.solver, omega=omega0,
                                   learn_omega=True, diagonal=self.relevance == "diagonal",
                                   random_state=rng)
        trainer.run(self.max_epochs)
        self._finish(trainer)
        self._warn_if_diverged()
        self.omega_ = trainer.omega.copy()
        self.lambda_ = self.omega_.T @ self.omega_
        self.relevances_ = np.diag(self.lambda_).copy()
        vals, vecs = np.linalg.eigh(self.lambda_)
        order = np.argsort(vals)[::-1]
        vecs = vecs[:, order].T
        signs = np.sign(vecs[np.arange(len(vecs)), np.abs(vecs).argmax(axis=1)])
        self.eigenvalues_ = np.clip(vals[order], 0.0, None)   # PSD: negatives are round-off
        self.eigenvectors_ = vecs * signs[:, None]
        return self

    def project(self, X: np.ndarray, n_components: int = 2, *, scale: bool = False) -> np.ndarray:
        """Coordinates of ``X`` along the leading eigenvectors of ``Lambda`` (Fig. 5.2, right).

        ``scale=True`` multiplies each coordinate by the square root of its eigenvalue,
        so that squared Euclidean distances in the projection approximate ``delta_Lambda``.
        """
        check_is_fitted(self)
        X = validate_data(self, X, reset=False)
        check_scalar(n_components, "n_components", COUNT)
        if n_components > self.n_features_in_:
            raise ValueError(f"n_components={n_components} exceeds the "
                             f"{self.n_features_in_} features")
        Z = X @ self.eigenvectors_[:n_components].T
        if scale:
            Z = Z * np.sqrt(np.clip(self.eigenvalues_[:n_components], 0.0, None))
        return Z
