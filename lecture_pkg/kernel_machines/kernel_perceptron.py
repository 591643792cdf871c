"""Rosenblatt's perceptron in explicit and data-dependent form; the kernel perceptron.

Frieß and Harrison (1998), §2.1–2.3.  From the zero start, every weight vector the
perceptron rule produces is a combination of the training patterns:

* **explicit form** (eq. 1): store ``w`` and update ``w <- w + eta y_i x_i`` whenever
  pattern ``i`` is misclassified (:func:`explicit_perceptron`);
* **data-dependent form** (eqs. 2–3): store the multipliers ``alpha_i`` of
  ``w = sum_i alpha_i x_i`` and update ``alpha_i <- alpha_i + eta y_i``; the
  decision function ``f(x) = sum_i alpha_i <x_i, x>`` needs inner products only;
* **kernel perceptron** (eq. 8, the method of potential functions of Aizerman, Braverman
  and Rozonoer): the inner products become kernel values, ``f(x) = sum_i alpha_i
  k(x_i, x) + b``, with the bias updated as in eq. (4), ``b <- b + eta y_i``
  (:func:`kernel_perceptron`, :class:`KernelPerceptron`).

There is one implementation of the data-dependent rule in the package,
:func:`dual_perceptron` (Mooney's dual perceptron with mistake counts
``n_i``); this module expresses the paper's variants through it:

* the bias of eq. (4) is the dual perceptron on the kernel ``k + 1``: since ``b`` grows
  by ``eta y_i`` exactly when ``alpha_i`` does, ``b = sum_i alpha_i`` and
  ``sum_i alpha_i k(x_i, x) + b = sum_i alpha_i (k(x_i, x) + 1)``.  (Unlike an
  augmented input, this works for the RBF kernel too, where a constant extra input
  cancels out of ``|a - b|``.)
* the learning rate only rescales: from ``alpha = 0``, ``alpha_i = eta y_i n_i`` and
  ``b = eta sum_i y_i n_i``, so every decision is independent of ``eta``;
* a presentation order is the dual perceptron on the permuted Gram matrix (the paper
  fixes no order; a random order here is drawn once and repeated every epoch).

A pattern counts as misclassified when ``y_i f(x_i) <= 0`` (``convention="biehl"``,
so a pattern on the boundary, and every pattern at the start, is corrected), or, with
``convention="mooney"``, when ``sign(f(x_i)) != y_i`` with ``sign(0) = +1``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from sklearn.exceptions import ConvergenceWarning

from ..linear import RosenblattTrainer, augment
from ..core.order import presentation_order
from ..validation import (COUNT, LABELS, MATRIX, POSITIVE, Array, Options, validate_args,
                          warn_user)
from ._base import _KERNEL_CONSTRAINTS, _BinaryKernelClassifier

__all__ = [
    "KernelPerceptronRun",
    "kernel_perceptron",
    "explicit_perceptron",
    "KernelPerceptron",
    "DualPerceptronRun",
    "dual_perceptron",
]


@dataclass
class KernelPerceptronRun:
    """Result of :func:`kernel_perceptron` or :func:`explicit_perceptron`.

    ``alpha`` are the signed multipliers of eq. (3), ``alpha_i = eta y_i n_i``;
    ``bias`` the ``b`` of eq. (4); ``counts`` the mistake counts ``n_i``; ``order``
    the presentation order (a permutation of the patterns); ``n_steps`` the number of
    patterns presented (kernel form only).  For the explicit form
    ``weights`` holds ``w`` (and ``alpha``, ``counts`` are read off the updates).
    """

    alpha: np.ndarray
    bias: float
    counts: np.ndarray
    n_updates: int
    converged: bool
    order: np.ndarray
    weights: np.ndarray | None = None
    n_steps: int | None = None


_ORDER = [None, Options("random"), "array-like"]
_RUN = dict(eta=POSITIVE, max_epochs=COUNT, order=_ORDER, random_state="random_state")


@validate_args(K=MATRIX, y=LABELS, **_RUN, convention=Options("biehl", "mooney"))
def kernel_perceptron(K: np.ndarray, y: np.ndarray, *, eta: float = 1.0, bias: bool = True,
                      max_epochs: int = 1000, order: str | np.ndarray | None = None,
                      random_state: np.random.Generator | int | None = None,
                      convention: str = "biehl") -> KernelPerceptronRun:
    """The kernel perceptron (method of potential functions) on a Gram matrix, eqs. (3), (4), (8).

    ``alpha = 0, b = 0``; then, cycling through the patterns in ``order``, every
    pattern with ``y_i f(x_i) <= 0`` (see ``convention``) gets
    ``alpha_i <- alpha_i + eta y_i`` and, with ``bias=True``, ``b <- b + eta y_i``.
    The run stops once all patterns are correct, or after ``max_epochs`` epochs
    (``converged=False``; the data are then probably not separable in feature space).

    Parameters
    ----------
    K : array (l, l)
        Gram matrix ``K_ij = k(x_i, x_j)`` (the paper's precomputed ``M``).
    y : array (l,) of +-1
        The labels.
    eta : float > 0
        Learning rate; from the zero start it only rescales ``alpha`` and ``b``.
    bias : bool
        Update a bias by eq. (4); ``False`` is eq. (3) alone (``b = 0``).
    order : None, "random" or array (l,) of int
        The presentation order: a permutation (see :func:`presentation_order`).
    max_epochs : int
        The most epochs before the run stops with ``converged=False``.
    random_state : int, Generator or None
        The source of the ``"random"`` order.
    convention : {"biehl", "mooney"}
        What counts as a mistake (see :func:`dual_perceptron`).
    """
    l = len(y)
    if K.shape != (l, l):
        raise ValueError(f"K has shape {K.shape}, expected ({l}, {l})")
    perm = presentation_order(l, order, random_state=random_state)
    Kb = K + 1.0 if bias else K
    run = dual_perceptron(Kb[np.ix_(perm, perm)], y[perm], max_epochs=max_epochs,
                          convention=convention)
    counts = np.zeros(l, dtype=int)
    counts[perm] = run.counts
    alpha = eta * y * counts
    b = float(eta * (y @ counts)) if bias else 0.0
    return KernelPerceptronRun(alpha, b, counts, int(counts.sum()), run.converged, perm,
                               n_steps=run.n_steps)


@validate_args(Phi=MATRIX, y=Array(1, labels=True, rows_of="Phi"), **_RUN)
def explicit_perceptron(Phi: np.ndarray, y: np.ndarray, *, eta: float = 1.0, bias: bool = True,
                        max_epochs: int = 1000, order: str | np.ndarray | None = None,
                        random_state: np.random.Generator | int | None = None
                        ) -> KernelPerceptronRun:
    """Rosenblatt's perceptron with explicit weights on feature vectors ``Phi``, eq. (1).

    ``w <- w + eta y_i phi(x_i)`` (and ``b <- b + eta y_i`` with ``bias=True``, the
    augmented pattern of §2.2) whenever ``y_i (w . phi(x_i) + b) <= 0``, cycling in
    ``order``.  Runs :class:`lecture_pkg.linear.RosenblattTrainer`; ``weights``
    holds ``w``, and ``alpha = eta y n`` the data-dependent multipliers of the same run.
    """
    perm = presentation_order(len(y), order, random_state=random_state)
    Xa = augment(Phi) if bias else Phi
    trainer = RosenblattTrainer(Xa[perm], y[perm], np.zeros(Xa.shape[1]), eta=eta)
    converged = trainer.run(max_epochs)
    counts = np.zeros(len(y), dtype=int)
    counts[perm] = trainer.update_counts
    w = trainer.weights[1:] if bias else trainer.weights
    b = float(trainer.weights[0]) if bias else 0.0
    return KernelPerceptronRun(eta * y * counts, b, counts, int(counts.sum()), bool(converged),
                               perm, weights=w.copy())


class KernelPerceptron(_BinaryKernelClassifier):
    """The kernel perceptron of Frieß and Harrison (eqs. 3, 4, 8) as a scikit-learn classifier.

    Parameters
    ----------
    kernel : {"rbf", "poly", "linear", "precomputed"} or callable, default "rbf"
    gamma : "scale" or float, default "scale"
        RBF ``exp(-gamma |a - b|^2)``; the paper's width ``sigma`` (eq. 6) is
        ``gamma = 1 / sigma^2`` (``gamma_from_sigma(sigma, "friess")``).
    degree, coef0 : int and float, default 2 and 1.0
        Polynomial kernel ``(coef0 + a . b)^degree`` (eq. 7 has ``coef0 = 1``).
    fit_intercept : bool, default True
        The bias of eq. (4) ("with bias unit", as in the paper's experiments).
    eta : float, default 1.0
    max_epochs : int, default 1000
    shuffle : bool, default False
        Present the patterns in one random order (drawn from ``random_state``) instead of
        the natural order.
    random_state : int, Generator or None
    convention : {"biehl", "mooney"}, default "biehl"

    Attributes
    ----------
    alpha_ : array (n_samples,)
        Signed multipliers ``alpha_i = eta y_i n_i`` of all training patterns.
    counts_ : array (n_samples,) of int
        Mistake counts ``n_i``.
    support_ : array (n_SV,) of int
        Patterns with ``n_i > 0`` (the expansion vectors).
    dual_coef_ : array (1, n_SV)
        Their ``alpha_i``; ``support_vectors_`` their inputs.
    intercept_ : float
        The bias ``b``.
    n_updates_ : int
        The number of updates (mistakes), ``sum_i n_i``.
    n_steps_ : int
        The number of patterns presented, up to and including the last of the
        ``l`` mistake-free steps that end a converged run.
    converged_ : bool
        Whether the run ended with every training pattern correct.
    order_ : array (n_samples,) of int
        The presentation order (a permutation of the training patterns).

    References
    ----------
    .. [1] Frieß, T.-T. and Harrison, R. F. (1998). *Perceptrons in Kernel Feature Spaces*.
       Research Report 720, University of Sheffield, §2.1--2.3, eqs. (1)--(8).
       (bib key: friess1998perceptrons)
    .. [2] Mooney, R. J. *Probabilistic Classification*, lecture slides, slides on the dual
       perceptron and the kernel perceptron. (bib key: mooney_probabilistic)

    Examples
    --------
    >>> from lecture_pkg.datasets import xor
    >>> from lecture_pkg.kernel_machines import KernelPerceptron
    >>> X, y = xor()
    >>> clf = KernelPerceptron(kernel="rbf").fit(X, y)
    >>> clf.converged_, clf.score(X, y)
    (True, 1.0)
    """

    _parameter_constraints = {
        **_KERNEL_CONSTRAINTS,
        "fit_intercept": ["boolean"],
        "eta": [POSITIVE],
        "max_epochs": [COUNT],
        "shuffle": ["boolean"],
        "random_state": ["random_state"],
        "convention": [Options("biehl", "mooney")],
    }

    def __init__(self, kernel: str | Callable = "rbf", gamma: float | str = "scale",
                 degree: int = 2, coef0: float = 1.0, fit_intercept: bool = True, eta: float = 1.0,
                 max_epochs: int = 1000, shuffle: bool = False,
                 random_state: np.random.Generator | int | None = None,
                 convention: str = "biehl") -> None:
        self.kernel = kernel
        self.gamma = gamma
        self.degree = degree
        self.coef0 = coef0
        self.fit_intercept = fit_intercept
        self.eta = eta
        self.max_epochs = max_epochs
        self.shuffle = shuffle
        self.random_state = random_state
        self.convention = convention

    def fit(self, X: np.ndarray, y: np.ndarray) -> KernelPerceptron:
        """Run the kernel perceptron on ``X`` (or a Gram matrix) with two classes in ``y``."""
        X, y_pm = self._binary_targets(X, y)
        K = self._train_gram(X, check_psd="raise")
        run = kernel_perceptron(K, y_pm, eta=self.eta, bias=self.fit_intercept,
                                max_epochs=self.max_epochs,
                                order="random" if self.shuffle else None,
                                random_state=self.random_state, convention=self.convention)
        self._store_support(X, np.flatnonzero(run.counts > 0))
        self.alpha_ = run.alpha
        self.counts_ = run.counts
        self.dual_coef_ = run.alpha[self.support_][None, :]
        self.intercept_ = run.bias
        self.n_updates_ = run.n_updates
        self.n_steps_ = run.n_steps
        self.converged_ = run.converged
        self.order_ = run.order
        if not run.converged:
            warn_user(
                f"the kernel perceptron still made mistakes after max_epochs={self.max_epochs} "
                "epochs; the data are probably not separable in the kernel's feature space",
                ConvergenceWarning,
            )
        return self


# ---------------------------------------------------------------- the dual perceptron (Mooney)

@dataclass
class DualPerceptronRun:
    """Result of :func:`dual_perceptron`.

    ``counts`` are the mistake counts ``n_l`` (``w = sum_l n_l y_l phi(x_l)``);
    ``trace`` has one row ``(step, k, score, mistake, n_1, ..., n_P)`` per step (``k``
    and ``step`` 1-based as on the slides).
    """

    counts: np.ndarray
    trace: list
    converged: bool
    n_steps: int


@validate_args(K=MATRIX, y=LABELS, max_epochs=COUNT, convention=Options("mooney", "biehl"))
def dual_perceptron(K: np.ndarray, y: np.ndarray, *, max_epochs: int = 1000,
                    convention: str = "mooney", record_trace: bool = False) -> DualPerceptronRun:
    """The dual perceptron on a Gram matrix (Mooney's slides; Biehl's embedding strengths 3.13).

    Examples are presented cyclically, ``k = 1, 2, ..., P, 1, ...``.  The score of
    example ``k`` is ``s_k = sum_l n_l y_l K(x_l, x_k)``; on a mistake ``n_k <- n_k + 1``.
    ``convention="mooney"``: a mistake is ``sig(s_k) != y_k`` with ``sig(0) = +1`` (so a
    positive example with score 0 is correct); ``"biehl"``: a mistake is
    ``y_k s_k <= 0`` (Biehl 3.15 with ``c = 0``, the rule of
    :class:`lecture_pkg.linear.Perceptron`).  The run stops after ``P`` consecutive
    steps without a mistake, i.e. when the weights are consistent with all examples.
    With ``K = phi(X) phi(X)^T`` it makes exactly the updates of the primal perceptron
    on ``phi(X)`` (with the same convention), so ``w = sum_l n_l y_l phi(x_l)``.
    """
    P = len(y)
    if K.shape != (P, P):
        raise ValueError(f"K has shape {K.shape}, expected ({P}, {P})")
    n = np.zeros(P, dtype=int)
    scores = np.zeros(P)
    trace = []
    clean, step = 0, 0
    # the loop reads plain Python numbers (the same IEEE arithmetic as numpy's scalars) and
    # adds y_k times column k of K, made contiguous once, through one buffer
    labels, columns, change = y.tolist(), list(np.ascontiguousarray(K.T)), np.empty(P)
    score_of, biehl = scores.item, convention == "biehl"
    for step in range(1, max_epochs * P + 1):
        k = (step - 1) % P
        s = score_of(k)
        y_k = labels[k]
        mistake = (y_k * s <= 0) if biehl else ((1.0 if s >= 0 else -1.0) != y_k)
        if mistake:
            n[k] += 1
            np.multiply(columns[k], y_k, out=change)
            scores += change
            clean = 0
        else:
            clean += 1
        if record_trace:
            trace.append((step, k + 1, s, bool(mistake), *n.tolist()))
        if clean == P:
            return DualPerceptronRun(n, trace, True, step)
    return DualPerceptronRun(n, trace, False, step)

